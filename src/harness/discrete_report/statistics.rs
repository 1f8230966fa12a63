//! The agreement statistics of the discrete report: per pair family and for
//! cylinder–terrain, how often our detectors (Trushin 2015; Strashnov &
//! Torgashev 2020) and parry3d-f64 (and the slow oracle) agree, every
//! disagreement with its explanation, and distributions of the differences
//! where both report contact.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::discrete::Cylinder;
use crate::discrete::HeightGrid;
use crate::discrete::cylinder_heightfield::{
    Outcome, Params, Workspace, cylinder_heightfield, cylinder_heightfield_oracle,
};
use crate::discrete::parry_compare::{ParryTerrain, SphereComparison, TerrainComparison};

/// Decisions may differ from the oracle only this close to touching.
pub(super) const TOUCH: f64 = 1e-9;
/// Decisions may differ from parry only this close to touching.
pub(super) const PARRY_TOUCH: f64 = 1e-6;

/// A distribution summary.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub(super) struct Dist {
    pub(super) count: usize,
    pub(super) median: f64,
    pub(super) p90: f64,
    pub(super) max: f64,
}

impl Dist {
    /// The summary of the values `v`.
    pub(super) fn of(mut v: Vec<f64>) -> Dist {
        if v.is_empty() {
            return Dist::default();
        }
        v.sort_by(f64::total_cmp);
        let q = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
        Dist {
            count: v.len(),
            median: q(0.5),
            p90: q(0.9),
            max: v[v.len() - 1],
        }
    }
}

#[derive(Debug, Serialize)]
pub(super) struct Disagreement {
    pub(super) index: usize,
    pub(super) ours: String,
    pub(super) parry: String,
    /// Signed gap (oracle signed distance) of the configuration.
    pub(super) gap: f64,
    pub(super) explanation: String,
}

#[derive(Debug, Serialize)]
pub(super) struct PairFamily {
    pub(super) queries: usize,
    pub(super) ours_contacts: usize,
    pub(super) parry_contacts: usize,
    pub(super) agree: usize,
    pub(super) disagreements: Vec<Disagreement>,
    pub(super) depth_diff: Dist,
    pub(super) normal_angle: Dist,
    pub(super) point_diff: Dist,
    pub(super) classes: BTreeMap<String, usize>,
}

#[derive(Debug, Serialize)]
pub(super) struct TerrainFamily {
    pub(super) terrains: usize,
    pub(super) queries: usize,
    pub(super) ours_contacts: usize,
    pub(super) ours_buried: usize,
    pub(super) separated: BTreeMap<String, usize>,
    pub(super) parry_contacts: usize,
    pub(super) oracle_contacts: usize,
    pub(super) agree_parry: usize,
    pub(super) agree_oracle: usize,
    pub(super) disagreements_parry: Vec<Disagreement>,
    pub(super) disagreements_oracle: Vec<Disagreement>,
    pub(super) depth_diff_deepest: Dist,
    pub(super) normal_angle_deepest: Dist,
    /// |Δdepth| and normal angle of the deepest points, by the formula that
    /// produced our deepest point.
    pub(super) by_source: BTreeMap<String, (Dist, Dist)>,
    /// Histogram of our manifold sizes over contacts.
    pub(super) ours_points: BTreeMap<usize, usize>,
    /// Histogram of parry's manifold point counts over contacts.
    pub(super) parry_points: BTreeMap<usize, usize>,
    pub(super) ours_points_mean: f64,
    pub(super) parry_points_mean: f64,
    pub(super) ours_groups_mean: f64,
    pub(super) parry_manifolds_mean: f64,
    pub(super) cells_mean: f64,
    pub(super) elements_mean: f64,
    /// Elements met per case over all queries: (6), (9), (11).
    pub(super) elements_per_case: [usize; 3],
    /// Of those, rejected by the paper's own test of their case.
    pub(super) paper_misses_per_case: [usize; 3],
    pub(super) outside_projection: usize,
    /// Contacts for which the paper's tests alone find no element.
    pub(super) contacts_paper_would_miss: usize,
    pub(super) flat_patch_queries: usize,
    pub(super) fallback_points: usize,
}

/// Our outcome in words, as `results.json` and the tables give it.
pub(super) fn outcome_name(o: Outcome) -> String {
    match o {
        Outcome::Contact => "contact".into(),
        Outcome::Buried => "buried".into(),
        Outcome::Separated(s) => format!("separated ({s:?})"),
    }
}

/// The agreement of one sphere pair family over `queries` pairs; `compare`
/// gives pair `k`'s answers (ours, parry's) and its signed gap.
pub(super) fn sphere_family(
    queries: usize,
    mut compare: impl FnMut(usize) -> (SphereComparison, f64),
) -> PairFamily {
    let mut fam = PairFamily {
        queries,
        ours_contacts: 0,
        parry_contacts: 0,
        agree: 0,
        disagreements: Vec::new(),
        depth_diff: Dist::default(),
        normal_angle: Dist::default(),
        point_diff: Dist::default(),
        classes: BTreeMap::new(),
    };
    let (mut dd, mut na, mut pd) = (Vec::new(), Vec::new(), Vec::new());
    for k in 0..queries {
        let (c, gap) = compare(k);
        fam.ours_contacts += usize::from(c.ours.is_some());
        fam.parry_contacts += usize::from(c.parry.is_some());
        if let Some(o) = c.ours {
            *fam.classes.entry(format!("{:?}", o.class)).or_default() += 1;
        }
        if c.agree() {
            fam.agree += 1;
        } else {
            fam.disagreements.push(Disagreement {
                index: k,
                ours: format!("{:?}", c.ours.map(|o| o.depth)),
                parry: format!("{:?}", c.parry.map(|p| p.depth)),
                gap,
                explanation: if gap.abs() <= TOUCH {
                    format!("touching within {TOUCH:e}")
                } else {
                    "UNEXPLAINED".into()
                },
            });
        }
        if let Some((d, a, p)) = c.differences() {
            dd.push(d);
            na.push(a);
            pd.push(p);
        }
    }
    fam.depth_diff = Dist::of(dd);
    fam.normal_angle = Dist::of(na);
    fam.point_diff = Dist::of(pd);
    fam
}

/// One cylinder–terrain query: the terrain's index and the cylinder.
pub(super) struct TerrainCase {
    pub(super) grid: usize,
    pub(super) cyl: Cylinder,
}

/// The agreement of our cylinder–terrain detector with parry and with the
/// slow oracle over `cases`, with the paper's own per-case tests tallied.
pub(super) fn terrain_family(
    grids: &[HeightGrid],
    terrains: &mut [ParryTerrain],
    cases: &[TerrainCase],
) -> TerrainFamily {
    let mut ws = Workspace::new();
    let mut out = Vec::new();
    let mut fam = TerrainFamily {
        terrains: grids.len(),
        queries: cases.len(),
        ours_contacts: 0,
        ours_buried: 0,
        separated: BTreeMap::new(),
        parry_contacts: 0,
        oracle_contacts: 0,
        agree_parry: 0,
        agree_oracle: 0,
        disagreements_parry: Vec::new(),
        disagreements_oracle: Vec::new(),
        depth_diff_deepest: Dist::default(),
        normal_angle_deepest: Dist::default(),
        by_source: BTreeMap::new(),
        ours_points: BTreeMap::new(),
        parry_points: BTreeMap::new(),
        ours_points_mean: 0.0,
        parry_points_mean: 0.0,
        ours_groups_mean: 0.0,
        parry_manifolds_mean: 0.0,
        cells_mean: 0.0,
        elements_mean: 0.0,
        elements_per_case: [0; 3],
        paper_misses_per_case: [0; 3],
        outside_projection: 0,
        contacts_paper_would_miss: 0,
        flat_patch_queries: 0,
        fallback_points: 0,
    };
    let (mut dd, mut na) = (Vec::new(), Vec::new());
    let mut by_source: BTreeMap<String, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    let (mut op, mut pp, mut og, mut pm) = (0usize, 0usize, 0usize, 0usize);
    for (k, case) in cases.iter().enumerate() {
        let grid = &grids[case.grid];
        let rep = cylinder_heightfield(&case.cyl, grid, &Params::default(), &mut ws, &mut out);
        let parry = terrains[case.grid].contact(&case.cyl);
        let counts = terrains[case.grid].manifold_counts(&case.cyl);
        let oracle = cylinder_heightfield_oracle(&case.cyl, grid, 0.1);
        let cmp = TerrainComparison::new(rep.outcome, &out, rep.stats.groups, parry, counts);
        let s = &rep.stats;
        fam.cells_mean += s.cells as f64;
        fam.elements_mean += s.elements as f64;
        fam.elements_per_case[0] += s.base;
        fam.elements_per_case[1] += s.lateral;
        fam.elements_per_case[2] += s.single_point;
        for c in 0..3 {
            fam.paper_misses_per_case[c] += s.paper_misses[c];
        }
        fam.outside_projection += s.outside_projection;
        fam.flat_patch_queries += usize::from(s.flat_patch);
        fam.fallback_points += s.fallback_points;
        match rep.outcome {
            Outcome::Contact => {
                fam.ours_contacts += 1;
                fam.contacts_paper_would_miss += usize::from(!s.paper_finds_contact());
                *fam.ours_points.entry(out.len()).or_default() += 1;
                op += out.len();
                og += s.groups;
            }
            Outcome::Buried => fam.ours_buried += 1,
            Outcome::Separated(why) => *fam.separated.entry(format!("{why:?}")).or_default() += 1,
        }
        if parry.is_some() {
            fam.parry_contacts += 1;
            *fam.parry_points.entry(counts.0).or_default() += 1;
            pp += counts.0;
            pm += counts.1;
        }
        let sd = oracle.min_signed_distance;
        fam.oracle_contacts += usize::from(sd <= 0.0);
        if cmp.ours_contact() == (sd <= 0.0) {
            fam.agree_oracle += 1;
        } else {
            fam.disagreements_oracle.push(Disagreement {
                index: k,
                ours: outcome_name(rep.outcome),
                parry: format!("oracle sd {sd:e}"),
                gap: sd,
                explanation: if sd.abs() <= TOUCH {
                    format!("touching within {TOUCH:e}")
                } else {
                    "UNEXPLAINED".into()
                },
            });
        }
        if cmp.agree() {
            fam.agree_parry += 1;
        } else {
            let explanation = if rep.outcome == Outcome::Buried {
                "buried: solid terrain (ours) vs surface triangles (parry)".to_string()
            } else if sd.abs() <= PARRY_TOUCH {
                format!("touching within {PARRY_TOUCH:e}")
            } else {
                "UNEXPLAINED".into()
            };
            fam.disagreements_parry.push(Disagreement {
                index: k,
                ours: outcome_name(rep.outcome),
                parry: format!("{:?}", parry.map(|p| p.depth)),
                gap: sd,
                explanation,
            });
        }
        if let Some((d, a)) = cmp.differences() {
            dd.push(d);
            na.push(a);
            if let Some(deep) = cmp.ours_deepest {
                let e = by_source.entry(format!("{:?}", deep.source)).or_default();
                e.0.push(d);
                e.1.push(a);
            }
        }
    }
    fam.by_source = by_source
        .into_iter()
        .map(|(k, (d, a))| (k, (Dist::of(d), Dist::of(a))))
        .collect();
    let n = cases.len().max(1) as f64;
    fam.cells_mean /= n;
    fam.elements_mean /= n;
    fam.ours_points_mean = op as f64 / fam.ours_contacts.max(1) as f64;
    fam.ours_groups_mean = og as f64 / fam.ours_contacts.max(1) as f64;
    fam.parry_points_mean = pp as f64 / fam.parry_contacts.max(1) as f64;
    fam.parry_manifolds_mean = pm as f64 / fam.parry_contacts.max(1) as f64;
    fam.depth_diff_deepest = Dist::of(dd);
    fam.normal_angle_deepest = Dist::of(na);
    fam
}
