//! `ccdlab discrete`: the discrete detectors (Trushin 2015 sphere–sphere and
//! sphere–box; Strashnov & Torgashev 2020 cylinder–terrain) against
//! parry3d-f64 on seeded random configurations and the scripted scenes;
//! writes `results.json`, `summary.md` and figures to the output folder.

mod plot;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ccdlab::discrete::cylinder_heightfield::{
    ContactPoint, Outcome, Params, Report, Workspace, cylinder_heightfield,
    cylinder_heightfield_oracle,
};
use ccdlab::discrete::parry_compare::{
    ParryTerrain, SphereComparison, TerrainComparison, parry_sphere_cuboid, parry_sphere_sphere,
};
use ccdlab::discrete::scenes::{
    asphalt_with_curb, barrel_scenes, hill, random_cylinders, random_sphere_boxes,
    random_sphere_pairs, random_terrain, wheel_path,
};
use ccdlab::discrete::{Cylinder, HeightGrid, sphere_cuboid, sphere_sphere};
use ccdlab::harness::output::{StagedFolder, write_atomic};

use crate::limits;
use ccdlab::harness::stamp::Stamp;
use serde::Serialize;

/// Decisions may differ from the oracle only this close to touching.
const TOUCH: f64 = 1e-9;
/// Decisions may differ from parry only this close to touching.
const PARRY_TOUCH: f64 = 1e-6;

/// Largest `--pairs`. Both pair families keep their pairs, parry's copies
/// and the per-pair differences: about 0.7 kB per pair, so this is about
/// 0.7 GB and a few seconds (50 times the default).
pub const MAX_PAIRS: usize = 1_000_000;
/// Largest `--terrains` (about 30 kB each with parry's height field).
pub const MAX_TERRAINS: usize = 1_000;
/// Largest `--terrains` × `--cylinders`: every such query also runs the
/// slow oracle (about 5 ms each), so this is about 10 minutes (25 times the
/// default).
pub const MAX_TERRAIN_QUERIES: usize = 100_000;
/// Largest `--frames`: about 12 ms each (resting height, three detectors),
/// so about 2 minutes; 0.5 mm apart along the 4.8 m path, finer than any
/// feature of the hill.
pub const MAX_FRAMES: usize = 10_000;
/// Largest `--time-per-sample`, in seconds: the run takes 5 samples of each
/// of 10 measurements and of 12 at a quarter of it (the scenes), so this is
/// about 11 minutes of timing (50 times the default).
pub const MAX_TIME_PER_SAMPLE: f64 = 10.0;

/// Arguments of `ccdlab discrete`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output folder (created if missing; written only when every file is
    /// ready, so a failed run leaves none behind).
    #[arg(long)]
    pub out: PathBuf,
    /// Seed of every random configuration.
    #[arg(long, default_value_t = 2020, value_parser = crate::limits::whole::<u64>(0, u64::MAX))]
    pub seed: u64,
    /// Random terrains (33×33 samples, 0.25 m step), 1 to 1000.
    #[arg(long, default_value_t = 20, value_parser = crate::limits::whole::<usize>(1, MAX_TERRAINS as u64))]
    pub terrains: usize,
    /// Random cylinders per terrain, at least 1; at most 100 000 queries in
    /// all (terrains × cylinders).
    #[arg(long, default_value_t = 200, value_parser = crate::limits::whole::<usize>(1, MAX_TERRAIN_QUERIES as u64))]
    pub cylinders: usize,
    /// Random sphere–sphere and sphere–box pairs (each), 1 to 1 000 000.
    #[arg(long, default_value_t = 20000, value_parser = crate::limits::whole::<usize>(1, MAX_PAIRS as u64))]
    pub pairs: usize,
    /// Frames of the wheel-over-hill path, 1 to 10 000.
    #[arg(long, default_value_t = 121, value_parser = crate::limits::whole::<usize>(1, MAX_FRAMES as u64))]
    pub frames: usize,
    /// Seconds of timing per sample (5 samples per measurement), in
    /// (0, 10].
    #[arg(long, default_value_t = 0.2)]
    pub time_per_sample: f64,
}

/// Errors of `ccdlab discrete` that it detects itself.
#[derive(Debug, thiserror::Error)]
pub enum DiscreteCliError {
    /// A bad command-line value.
    #[error("invalid --{name}: {message}")]
    Argument {
        /// The option.
        name: &'static str,
        /// What is wrong (with the value given).
        message: String,
    },
    /// `--out` cannot be used as the output folder.
    #[error("invalid --out {path}: {message}", path = path.display())]
    Out {
        /// The folder given.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// An output file could not be written or moved into place.
    #[error("cannot write {path}: {message}", path = path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        message: String,
    },
}

fn argument(name: &'static str, message: impl Into<String>) -> DiscreteCliError {
    DiscreteCliError::Argument {
        name,
        message: message.into(),
    }
}

/// `value` of `--name` in `1..=max` ([`limits::count`]).
fn check_count(name: &'static str, value: usize, max: usize) -> Result<(), DiscreteCliError> {
    limits::count(value, max).map_err(|m| argument(name, m))
}

/// Refuses counts and times that would never finish, panic or exhaust
/// memory (see [`MAX_PAIRS`] and the other limits).
fn check_args(a: &Args) -> Result<(), DiscreteCliError> {
    check_count("pairs", a.pairs, MAX_PAIRS)?;
    check_count("terrains", a.terrains, MAX_TERRAINS)?;
    check_count("cylinders", a.cylinders, MAX_TERRAIN_QUERIES)?;
    // Both factors are bounded above, so the product does not overflow.
    let queries = a.terrains * a.cylinders;
    if queries > MAX_TERRAIN_QUERIES {
        return Err(argument(
            "cylinders",
            format!(
                "{} per terrain × {} terrains = {queries} queries exceeds the limit of \
                 {MAX_TERRAIN_QUERIES} (each also runs the slow oracle)",
                a.cylinders, a.terrains
            ),
        ));
    }
    check_count("frames", a.frames, MAX_FRAMES)?;
    limits::seconds(a.time_per_sample, MAX_TIME_PER_SAMPLE)
        .map_err(|m| argument("time-per-sample", m))
}

/// The staging of `--out` ([`StagedFolder`]); its errors name `--out`.
fn stage(out: &Path) -> Result<StagedFolder, DiscreteCliError> {
    StagedFolder::begin(out, "discrete").map_err(|e| DiscreteCliError::Out {
        path: e.path,
        message: e.message,
    })
}

/// A distribution summary.
#[derive(Debug, Clone, Copy, Default, Serialize)]
struct Dist {
    count: usize,
    median: f64,
    p90: f64,
    max: f64,
}

impl Dist {
    fn of(mut v: Vec<f64>) -> Dist {
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
struct Disagreement {
    index: usize,
    ours: String,
    parry: String,
    /// Signed gap (oracle signed distance) of the configuration.
    gap: f64,
    explanation: String,
}

#[derive(Debug, Serialize)]
struct PairFamily {
    queries: usize,
    ours_contacts: usize,
    parry_contacts: usize,
    agree: usize,
    disagreements: Vec<Disagreement>,
    depth_diff: Dist,
    normal_angle: Dist,
    point_diff: Dist,
    classes: BTreeMap<String, usize>,
}

#[derive(Debug, Serialize)]
struct TerrainFamily {
    terrains: usize,
    queries: usize,
    ours_contacts: usize,
    ours_buried: usize,
    separated: BTreeMap<String, usize>,
    parry_contacts: usize,
    oracle_contacts: usize,
    agree_parry: usize,
    agree_oracle: usize,
    disagreements_parry: Vec<Disagreement>,
    disagreements_oracle: Vec<Disagreement>,
    depth_diff_deepest: Dist,
    normal_angle_deepest: Dist,
    /// |Δdepth| and normal angle of the deepest points, by the formula that
    /// produced our deepest point.
    by_source: BTreeMap<String, (Dist, Dist)>,
    /// Histogram of our manifold sizes over contacts.
    ours_points: BTreeMap<usize, usize>,
    /// Histogram of parry's manifold point counts over contacts.
    parry_points: BTreeMap<usize, usize>,
    ours_points_mean: f64,
    parry_points_mean: f64,
    ours_groups_mean: f64,
    parry_manifolds_mean: f64,
    cells_mean: f64,
    elements_mean: f64,
    /// Elements met per case over all queries: (6), (9), (11).
    elements_per_case: [usize; 3],
    /// Of those, rejected by the paper's own test of their case.
    paper_misses_per_case: [usize; 3],
    outside_projection: usize,
    /// Contacts for which the paper's tests alone find no element.
    contacts_paper_would_miss: usize,
    flat_patch_queries: usize,
    fallback_points: usize,
}

#[derive(Debug, Serialize)]
struct SceneRow {
    name: String,
    description: String,
    outcome: String,
    ours_points: usize,
    ours_groups: usize,
    ours_max_depth: f64,
    ours_sources: Vec<String>,
    parry_depth: Option<f64>,
    parry_points: usize,
    parry_manifolds: usize,
    normal_angle_deepest: Option<f64>,
    ours_us: f64,
    parry_contact_us: f64,
    parry_manifold_us: f64,
}

#[derive(Debug, Serialize)]
struct WheelRow {
    x: f64,
    ours_points: usize,
    ours_groups: usize,
    ours_max_depth: f64,
    parry_depth: Option<f64>,
    parry_points: usize,
    /// Our manifold size with `normal_tolerance = 1 − cos 5°`.
    ours_points_5deg: usize,
}

#[derive(Debug, Serialize)]
struct TimingRow {
    id: String,
    queries: usize,
    us_per_query: f64,
}

#[derive(Debug, Serialize)]
struct Results {
    stamp: Stamp,
    seed: u64,
    sphere_sphere: PairFamily,
    sphere_box: PairFamily,
    cylinder_terrain: TerrainFamily,
    scenes: Vec<SceneRow>,
    wheel: Vec<WheelRow>,
    timing: Vec<TimingRow>,
    figures: Vec<String>,
    figure_note: String,
}

/// Median over 5 samples of the mean µs per call of `f` over `n` items,
/// each sample repeating the whole set for at least `secs`.
fn time_per_query(n: usize, secs: f64, mut f: impl FnMut(usize)) -> f64 {
    let mut samples = Vec::with_capacity(5);
    for _ in 0..5 {
        let start = Instant::now();
        let mut calls = 0usize;
        while calls == 0 || start.elapsed().as_secs_f64() < secs {
            for k in 0..n {
                f(k);
            }
            calls += n;
        }
        samples.push(start.elapsed().as_secs_f64() * 1e6 / calls as f64);
    }
    samples.sort_by(f64::total_cmp);
    samples[2]
}

fn outcome_name(o: Outcome) -> String {
    match o {
        Outcome::Contact => "contact".into(),
        Outcome::Buried => "buried".into(),
        Outcome::Separated(s) => format!("separated ({s:?})"),
    }
}

fn sphere_family(
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

struct TerrainCase {
    grid: usize,
    cyl: Cylinder,
}

fn terrain_family(
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

fn run_query(cyl: &Cylinder, grid: &HeightGrid) -> (Report, Vec<ContactPoint>) {
    let mut out = Vec::new();
    let rep = cylinder_heightfield(
        cyl,
        grid,
        &Params::default(),
        &mut Workspace::new(),
        &mut out,
    );
    (rep, out)
}

/// Runs the whole comparison and writes the report.
pub fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    if cfg!(debug_assertions) {
        eprintln!("warning: debug build; timings are meaningless (use --release)");
    }
    check_args(&args)?;
    // Fail now, not after the measurements, on an unusable --out; nothing is
    // left on disk until the results are ready.
    drop(stage(&args.out)?);
    let secs = args.time_per_sample;
    let mut timing = Vec::new();

    // Sphere–sphere. The other families' seeds are offsets that wrap, so
    // that any --seed works (as a release build's unchecked sums did).
    eprintln!("sphere–sphere: {} pairs", args.pairs);
    let pairs = random_sphere_pairs(args.seed, args.pairs);
    let sphere_sphere_fam = sphere_family(pairs.len(), |k| {
        let (a, b) = &pairs[k];
        let gap = (a.centre() - b.centre()).norm() - a.radius() - b.radius();
        (
            SphereComparison {
                ours: sphere_sphere(a, b),
                parry: parry_sphere_sphere(a, b),
            },
            gap,
        )
    });
    timing.push(TimingRow {
        id: "sphere_sphere/ours/random".into(),
        queries: pairs.len(),
        us_per_query: time_per_query(pairs.len(), secs, |k| {
            black_box(sphere_sphere(
                black_box(&pairs[k].0),
                black_box(&pairs[k].1),
            ));
        }),
    });
    let parry_pairs: Vec<_> = pairs
        .iter()
        .map(|(a, b)| {
            (
                ccdlab::discrete::parry_compare::ball(a),
                ccdlab::discrete::parry_compare::ball(b),
            )
        })
        .collect();
    timing.push(TimingRow {
        id: "sphere_sphere/parry/random".into(),
        queries: pairs.len(),
        us_per_query: time_per_query(pairs.len(), secs, |k| {
            let ((p1, g1), (p2, g2)) = &parry_pairs[k];
            black_box(parry3d_f64::query::contact(p1, g1, p2, g2, 0.0).ok());
        }),
    });

    // Sphere–box.
    eprintln!("sphere–box: {} pairs", args.pairs);
    let boxes = random_sphere_boxes(args.seed.wrapping_add(1), args.pairs);
    let sphere_box_fam = sphere_family(boxes.len(), |k| {
        let (s, b) = &boxes[k];
        let (_, sd) = ccdlab::discrete::sphere_cuboid::closest_surface_point_oracle(b, &s.centre());
        (
            SphereComparison {
                ours: sphere_cuboid(s, b),
                parry: parry_sphere_cuboid(s, b),
            },
            sd - s.radius(),
        )
    });
    timing.push(TimingRow {
        id: "sphere_cuboid/ours/random".into(),
        queries: boxes.len(),
        us_per_query: time_per_query(boxes.len(), secs, |k| {
            black_box(sphere_cuboid(
                black_box(&boxes[k].0),
                black_box(&boxes[k].1),
            ));
        }),
    });
    let parry_boxes: Vec<_> = boxes
        .iter()
        .map(|(s, b)| {
            (
                ccdlab::discrete::parry_compare::ball(s),
                ccdlab::discrete::parry_compare::cuboid(b),
            )
        })
        .collect();
    timing.push(TimingRow {
        id: "sphere_cuboid/parry/random".into(),
        queries: boxes.len(),
        us_per_query: time_per_query(boxes.len(), secs, |k| {
            let ((p1, g1), (p2, g2)) = &parry_boxes[k];
            black_box(parry3d_f64::query::contact(p1, g1, p2, g2, 0.0).ok());
        }),
    });

    // Cylinder–terrain, random.
    eprintln!(
        "cylinder–terrain: {} terrains × {} cylinders (with the slow oracle)",
        args.terrains, args.cylinders
    );
    let grids: Vec<HeightGrid> = (0..args.terrains)
        .map(|t| random_terrain(args.seed.wrapping_add(10 + t as u64), 33, 0.25))
        .collect();
    let mut terrains: Vec<ParryTerrain> = grids.iter().map(ParryTerrain::new).collect();
    let cases: Vec<TerrainCase> = grids
        .iter()
        .enumerate()
        .flat_map(|(t, g)| {
            random_cylinders(args.seed.wrapping_add(1000 + t as u64), g, args.cylinders)
                .into_iter()
                .map(move |cyl| TerrainCase { grid: t, cyl })
        })
        .collect();
    let terrain_fam = terrain_family(&grids, &mut terrains, &cases);
    {
        let mut ws = Workspace::new();
        let mut out = Vec::new();
        timing.push(TimingRow {
            id: "cylinder_heightfield/ours/random".into(),
            queries: cases.len(),
            us_per_query: time_per_query(cases.len(), secs, |k| {
                let c = &cases[k];
                black_box(cylinder_heightfield(
                    black_box(&c.cyl),
                    &grids[c.grid],
                    &Params::default(),
                    &mut ws,
                    &mut out,
                ));
            }),
        });
    }
    timing.push(TimingRow {
        id: "cylinder_heightfield/parry_contact/random".into(),
        queries: cases.len(),
        us_per_query: time_per_query(cases.len(), secs, |k| {
            let c = &cases[k];
            black_box(terrains[c.grid].contact(black_box(&c.cyl)));
        }),
    });
    timing.push(TimingRow {
        id: "cylinder_heightfield/parry_manifolds/random".into(),
        queries: cases.len(),
        us_per_query: time_per_query(cases.len(), secs, |k| {
            let c = &cases[k];
            black_box(terrains[c.grid].manifold_counts(black_box(&c.cyl)));
        }),
    });

    // Scenes.
    eprintln!("scenes");
    let asphalt = asphalt_with_curb();
    let mut asphalt_parry = ParryTerrain::new(&asphalt);
    let mut scene_rows = Vec::new();
    let mut scene_panels = Vec::new();
    for scene in barrel_scenes() {
        let cyl = scene.cylinder;
        let (rep, out) = run_query(&cyl, &asphalt);
        let parry = asphalt_parry.contact(&cyl);
        let counts = asphalt_parry.manifold_counts(&cyl);
        let parry_pts = asphalt_parry.last_manifold_points(&cyl);
        let cmp = TerrainComparison::new(rep.outcome, &out, rep.stats.groups, parry, counts);
        let mut ws = Workspace::new();
        let mut buf = Vec::new();
        let ours_us = time_per_query(1, secs / 4.0, |_| {
            black_box(cylinder_heightfield(
                black_box(&cyl),
                &asphalt,
                &Params::default(),
                &mut ws,
                &mut buf,
            ));
        });
        let parry_contact_us = time_per_query(1, secs / 4.0, |_| {
            black_box(asphalt_parry.contact(black_box(&cyl)));
        });
        let parry_manifold_us = time_per_query(1, secs / 4.0, |_| {
            black_box(asphalt_parry.manifold_counts(black_box(&cyl)));
        });
        let mut sources: Vec<String> = out.iter().map(|p| format!("{:?}", p.source)).collect();
        sources.dedup();
        scene_rows.push(SceneRow {
            name: scene.name.into(),
            description: scene.description.into(),
            outcome: outcome_name(rep.outcome),
            ours_points: out.len(),
            ours_groups: rep.stats.groups,
            ours_max_depth: out.iter().map(|p| p.depth).fold(0.0, f64::max),
            ours_sources: sources,
            parry_depth: parry.map(|p| p.depth),
            parry_points: counts.0,
            parry_manifolds: counts.1,
            normal_angle_deepest: cmp.differences().map(|d| d.1),
            ours_us,
            parry_contact_us,
            parry_manifold_us,
        });
        scene_panels.push(plot::Panel {
            title: format!("{}: {}", scene.name, scene.description),
            cylinder: cyl,
            ours: out,
            parry: parry_pts,
            yaw: if scene.name == "curb" { -0.9 } else { 0.65 },
        });
    }

    // Wheel over the hill.
    eprintln!("wheel over the hill: {} frames", args.frames);
    let hill_grid = hill();
    let mut hill_parry = ParryTerrain::new(&hill_grid);
    let path = wheel_path(&hill_grid, args.frames);
    let mut wheel_rows = Vec::new();
    let mut crest_panel = None;
    for w in &path {
        let (rep, out) = run_query(w, &hill_grid);
        let coarse = Params {
            normal_tolerance: 1.0 - 5f64.to_radians().cos(),
            ..Params::default()
        };
        let mut out5 = Vec::new();
        cylinder_heightfield(w, &hill_grid, &coarse, &mut Workspace::new(), &mut out5);
        let parry = hill_parry.contact(w);
        let counts = hill_parry.manifold_counts(w);
        wheel_rows.push(WheelRow {
            x: w.centre().x,
            ours_points: out.len(),
            ours_groups: rep.stats.groups,
            ours_max_depth: out.iter().map(|p| p.depth).fold(0.0, f64::max),
            parry_depth: parry.map(|p| p.depth),
            parry_points: counts.0,
            ours_points_5deg: out5.len(),
        });
        // The frame on the uphill flank (x ≈ 2.6) for the figure.
        if crest_panel.is_none() && w.centre().x >= 2.6 {
            crest_panel = Some(plot::Panel {
                title: format!("wheel on the hill's flank, x = {:.2} m", w.centre().x),
                cylinder: *w,
                parry: hill_parry.last_manifold_points(w),
                ours: out,
                yaw: 0.65,
            });
        }
    }
    {
        let mut ws = Workspace::new();
        let mut out = Vec::new();
        timing.push(TimingRow {
            id: "cylinder_heightfield/ours/wheel_hill".into(),
            queries: path.len(),
            us_per_query: time_per_query(path.len(), secs, |k| {
                black_box(cylinder_heightfield(
                    black_box(&path[k]),
                    &hill_grid,
                    &Params::default(),
                    &mut ws,
                    &mut out,
                ));
            }),
        });
    }
    timing.push(TimingRow {
        id: "cylinder_heightfield/parry_contact/wheel_hill".into(),
        queries: path.len(),
        us_per_query: time_per_query(path.len(), secs, |k| {
            black_box(hill_parry.contact(black_box(&path[k])));
        }),
    });
    timing.push(TimingRow {
        id: "cylinder_heightfield/parry_manifolds/wheel_hill".into(),
        queries: path.len(),
        us_per_query: time_per_query(path.len(), secs, |k| {
            black_box(hill_parry.manifold_counts(black_box(&path[k])));
        }),
    });

    // Figures.
    eprintln!("figures");
    let stage = stage(&args.out)?;
    let fonts = plot::register_font();
    let mut figures = Vec::new();
    let mut notes = Vec::new();
    let panels_asphalt = scene_panels;
    let scenes_png = stage.path("scenes.png");
    match plot::scenes_figure(&scenes_png, &asphalt, &panels_asphalt, fonts) {
        Ok(()) => figures.push("scenes.png".to_string()),
        Err(e) => notes.push(format!("scenes.png not written: {e}")),
    }
    if let Some(p) = crest_panel {
        let wheel_png = stage.path("wheel_hill.png");
        match plot::wheel_figure(
            &wheel_png,
            &hill_grid,
            &p,
            &path,
            &wheel_rows_plot(&wheel_rows),
            fonts,
        ) {
            Ok(()) => figures.push("wheel_hill.png".to_string()),
            Err(e) => notes.push(format!("wheel_hill.png not written: {e}")),
        }
    }
    let timing_png = stage.path("timing.png");
    let bars: Vec<(String, f64)> = timing
        .iter()
        .map(|t| (t.id.clone(), t.us_per_query))
        .collect();
    match plot::timing_figure(&timing_png, &bars, fonts) {
        Ok(()) => figures.push("timing.png".to_string()),
        Err(e) => notes.push(format!("timing.png not written: {e}")),
    }
    if !fonts {
        notes.push(format!(
            "no font found at {}: figures drawn without any text",
            plot::FONT_PATHS.join(", ")
        ));
    }

    let results = Results {
        stamp: Stamp::new(1),
        seed: args.seed,
        sphere_sphere: sphere_sphere_fam,
        sphere_box: sphere_box_fam,
        cylinder_terrain: terrain_fam,
        scenes: scene_rows,
        wheel: wheel_rows,
        timing,
        figures,
        figure_note: notes.join("; "),
    };
    for (name, text) in [
        ("results.json", serde_json::to_string_pretty(&results)?),
        ("summary.md", summary(&results, &args)),
    ] {
        let path = stage.path(name);
        write_atomic(&path, text.as_bytes()).map_err(|e| DiscreteCliError::Write {
            path: args.out.join(name),
            message: e.to_string(),
        })?;
    }
    stage.commit().map_err(|e| DiscreteCliError::Write {
        path: e.path,
        message: e.message,
    })?;
    let unexplained = results
        .sphere_sphere
        .disagreements
        .iter()
        .chain(&results.sphere_box.disagreements)
        .chain(&results.cylinder_terrain.disagreements_parry)
        .chain(&results.cylinder_terrain.disagreements_oracle)
        .filter(|d| d.explanation == "UNEXPLAINED")
        .count();
    eprintln!("wrote {}", args.out.display());
    if unexplained > 0 {
        return Err(format!("{unexplained} unexplained disagreements (see summary.md)").into());
    }
    Ok(())
}

fn wheel_rows_plot(rows: &[WheelRow]) -> Vec<plot::WheelSample> {
    rows.iter()
        .map(|r| plot::WheelSample {
            x: r.x,
            ours_depth: r.ours_max_depth,
            parry_depth: r.parry_depth,
            ours_points: r.ours_points,
            parry_points: r.parry_points,
            ours_points_5deg: r.ours_points_5deg,
        })
        .collect()
}

/// Histogram bins `(lo, hi, label)` of the manifold-size tables.
const BINS: [(usize, usize, &str); 10] = [
    (1, 1, "1"),
    (2, 2, "2"),
    (3, 3, "3"),
    (4, 4, "4"),
    (5, 8, "5–8"),
    (9, 16, "9–16"),
    (17, 32, "17–32"),
    (33, 64, "33–64"),
    (65, 128, "65–128"),
    (129, usize::MAX, "> 128"),
];

fn buckets(h: &BTreeMap<usize, usize>) -> Vec<String> {
    BINS.iter()
        .map(|&(lo, hi, _)| h.range(lo..=hi).map(|(_, n)| n).sum::<usize>().to_string())
        .collect()
}

/// Three significant digits.
fn sig3(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else if v >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{:.*}", (2 - v.log10().floor() as i32).max(0) as usize, v)
    }
}

fn us(t: &[TimingRow], id: &str) -> f64 {
    t.iter()
        .find(|r| r.id == id)
        .map_or(f64::NAN, |r| r.us_per_query)
}

fn pair_section(name: &str, f: &PairFamily) -> String {
    let mut s = format!(
        "### {name}\n\n{} random pairs: ours {} contacts, parry {}; agree on {} ({:.4} %).\n\n\
         | when both report contact | median | p90 | max |\n|---|---|---|---|\n\
         | \\|ΔD\\| | {:.2e} | {:.2e} | {:.2e} |\n| angle(N) [rad] | {:.2e} | {:.2e} | {:.2e} |\n\
         | \\|ΔP\\| | {:.2e} | {:.2e} | {:.2e} |\n\n",
        f.queries,
        f.ours_contacts,
        f.parry_contacts,
        f.agree,
        100.0 * f.agree as f64 / f.queries.max(1) as f64,
        f.depth_diff.median,
        f.depth_diff.p90,
        f.depth_diff.max,
        f.normal_angle.median,
        f.normal_angle.p90,
        f.normal_angle.max,
        f.point_diff.median,
        f.point_diff.p90,
        f.point_diff.max,
    );
    s += &format!(
        "Position classes of our contacts: {}.\n\n",
        counts_list(&f.classes)
    );
    s += &disagreement_list(&f.disagreements);
    s
}

/// `"a 3, b 1"` for a map of counts, `"none"` for an empty one.
fn counts_list(m: &BTreeMap<String, usize>) -> String {
    if m.is_empty() {
        return "none".into();
    }
    m.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `"0"`, or the total with the counts by reason: `"3 (a 2, b 1)"`.
fn total_with_counts(m: &BTreeMap<String, usize>) -> String {
    if m.is_empty() {
        return "0".into();
    }
    let total: usize = m.values().sum();
    format!("{total} ({})", counts_list(m))
}

fn disagreement_list(d: &[Disagreement]) -> String {
    if d.is_empty() {
        return "Disagreements: none.\n\n".into();
    }
    let mut s = format!(
        "Disagreements ({}):\n\n| # | ours | other | gap | explanation |\n|---|---|---|---|---|\n",
        d.len()
    );
    for x in d.iter().take(50) {
        s += &format!(
            "| {} | {} | {} | {:.3e} | {} |\n",
            x.index, x.ours, x.parry, x.gap, x.explanation
        );
    }
    if d.len() > 50 {
        s += &format!("| … | {} more in results.json | | | |\n", d.len() - 50);
    }
    s + "\n"
}

fn summary(r: &Results, args: &Args) -> String {
    let t = &r.timing;
    let c = &r.cylinder_terrain;
    let mut s = String::new();
    s += "# Discrete detectors vs parry3d-f64\n\n";
    s += &format!("{}\n\n", r.stamp.markdown_line());
    s += &format!(
        "Regenerate: `cargo run --release -- discrete --out reports/discrete --seed {} --terrains {} --cylinders {} --pairs {} --frames {}` \
         (one thread; timings are the median of 5 samples of ≥ {} s each).\n\n",
        r.seed, args.terrains, args.cylinders, args.pairs, args.frames, args.time_per_sample
    );
    s += "Sources: Trushin 2015 (sphere–sphere, sphere–box; `src/discrete/sphere_*.rs`), \
          Strashnov & Torgashev 2020 (cylinder vs height grid; `src/discrete/cylinder_heightfield/`). \
          Baseline: parry3d-f64 0.31 `query::contact` and `contact_manifolds` with `Ball`, `Cuboid`, \
          `Cylinder`, `HeightField` (same cell triangulation as the paper: diagonal V₁V₂; see \
          `src/discrete/parry_compare.rs`).\n\n";

    s += "## Time per query (µs, release, one thread)\n\n| id | queries | µs/query |\n|---|---|---|\n";
    for row in t {
        s += &format!(
            "| `{}` | {} | {} |\n",
            row.id,
            row.queries,
            sig3(row.us_per_query)
        );
    }
    let ours = us(t, "cylinder_heightfield/ours/random");
    let pc = us(t, "cylinder_heightfield/parry_contact/random");
    let pm = us(t, "cylinder_heightfield/parry_manifolds/random");
    s += &format!(
        "\nCylinder–terrain: ours {ours:.2} µs per query (with the full manifold) against parry's \
         {pc:.2} µs (`contact`, deepest point only) and {pm:.2} µs (`contact_manifolds`): \
         {:.1}× and {:.1}× faster. The paper's real-time budget is 10 ms = 10 000 µs per frame; \
         one query uses {:.4} % of it.\n\n",
        pc / ours,
        pm / ours,
        100.0 * ours / 10_000.0
    );

    s += "## Agreement\n\n";
    s += &pair_section("Sphere–sphere (Trushin 2015, Fig. 1)", &r.sphere_sphere);
    s += &pair_section("Sphere–box (Trushin 2015, Fig. 2)", &r.sphere_box);
    s += &format!(
        "### Cylinder–terrain (Strashnov & Torgashev 2020)\n\n{} random terrains (33×33 samples, \
         0.25 m step, waves + a flat plateau + a ramp), {} cylinders near the surface \
         (r ∈ [0.1, 0.6] m, h ∈ [0.2, 1.5] m; a quarter near-vertical, a quarter near-horizontal).\n\n\
         | | ours | parry | slow oracle |\n|---|---|---|---|\n\
         | contact with the surface | {} | {} | {} |\n| agree with ours | — | {} | {} |\n\n\
         Ours, otherwise: buried {}, separated {}. The flat-patch path (cylinder–plane) was \
         taken {} times.\n\n",
        c.terrains,
        c.queries,
        c.ours_contacts,
        c.parry_contacts,
        c.oracle_contacts,
        c.agree_parry,
        c.agree_oracle,
        c.ours_buried,
        total_with_counts(&c.separated),
        c.flat_patch_queries,
    );
    s += "Against parry:\n\n";
    s += &disagreement_list(&c.disagreements_parry);
    s += "Against the golden-section oracle:\n\n";
    s += &disagreement_list(&c.disagreements_oracle);
    s += &format!(
        "Deepest points when both report contact ({} queries): |Δdepth| median {:.3e}, p90 \
         {:.3e}, max {:.3e} m; angle between normals median {:.3e}, p90 {:.3e}, max {:.3e} rad. \
         These are different definitions, not errors: the paper's depth is measured along the \
         element normal at base-rim or generatrix points (formulas (8), (10), (12)) or to the \
         nearest cylinder surface ((13), (14)); parry's is the minimal translation against one \
         triangle. They coincide on flat ground (the barrel scenes below).\n\n",
        c.depth_diff_deepest.count,
        c.depth_diff_deepest.median,
        c.depth_diff_deepest.p90,
        c.depth_diff_deepest.max,
        c.normal_angle_deepest.median,
        c.normal_angle_deepest.p90,
        c.normal_angle_deepest.max,
    );
    s += "By the formula that produced our deepest point:\n\n| source | contacts | \\|Δdepth\\| median | p90 | max | angle median | p90 | max |\n|---|---|---|---|---|---|---|---|\n";
    for (k, (d, a)) in &c.by_source {
        s += &format!(
            "| {k} | {} | {:.2e} | {:.2e} | {:.2e} | {:.2e} | {:.2e} | {:.2e} |\n",
            d.count, d.median, d.p90, d.max, a.median, a.p90, a.max
        );
    }
    s += "\n";
    s += &format!(
        "Manifold sizes over contacts: ours mean {:.2} points in {:.2} normal groups; parry mean \
         {:.2} points in {:.2} manifolds (one per triangle). Broad phase: mean {:.1} cells, {:.1} \
         elements per query.\n\n| points per query | {} |\n|---|{}\n| ours | {} |\n| parry | {} |\n\n",
        c.ours_points_mean,
        c.ours_groups_mean,
        c.parry_points_mean,
        c.parry_manifolds_mean,
        c.cells_mean,
        c.elements_mean,
        BINS.iter().map(|b| b.2).collect::<Vec<_>>().join(" | "),
        "---|".repeat(BINS.len()),
        buckets(&c.ours_points).join(" | "),
        buckets(&c.parry_points).join(" | "),
    );
    let miss: usize = c.paper_misses_per_case.iter().sum();
    s += &format!(
        "**The paper's own per-case tests.** Elements that meet the cylinder, by case: (6) base \
         {}, (9) lateral {}, (11) one point {}. Of these the paper's test for the case rejects \
         (6) {} (closest point to C̃₁ outside the ellipse, or the element meets the plane section \
         outside the projected base: {}), (9) {} (SAT separates the inscribed trapezoid), (11) {} \
         (Q outside the cylinder): {} in all. Contacts for which the paper's tests alone would \
         find no element at all: {} of {}. ccdlab decides every element exactly and keeps these \
         (see `src/discrete/cylinder_heightfield/mod.rs`). Fallback points: {}.\n\n",
        c.elements_per_case[0],
        c.elements_per_case[1],
        c.elements_per_case[2],
        c.paper_misses_per_case[0],
        c.outside_projection,
        c.paper_misses_per_case[1],
        c.paper_misses_per_case[2],
        miss,
        c.contacts_paper_would_miss,
        c.ours_contacts,
        c.fallback_points,
    );

    s += "## Scenes (Fig. 9: barrels on asphalt with a curb)\n\n\
          | scene | ours | points | groups | max depth [m] | sources | parry depth [m] | parry points (manifolds) | angle [rad] | ours µs | parry contact µs | parry manifolds µs |\n\
          |---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for x in &r.scenes {
        s += &format!(
            "| {} | {} | {} | {} | {:.4} | {} | {} | {} ({}) | {} | {:.2} | {:.2} | {:.2} |\n",
            x.name,
            x.outcome,
            x.ours_points,
            x.ours_groups,
            x.ours_max_depth,
            x.ours_sources.join(", "),
            x.parry_depth.map_or("—".into(), |d| format!("{d:.4}")),
            x.parry_points,
            x.parry_manifolds,
            x.normal_angle_deepest
                .map_or("—".into(), |a| format!("{a:.2e}")),
            x.ours_us,
            x.parry_contact_us,
            x.parry_manifold_us,
        );
    }
    let w = &r.wheel;
    let ours_contacts = w.iter().filter(|x| x.ours_points > 0).count();
    let parry_contacts = w.iter().filter(|x| x.parry_depth.is_some()).count();
    let dd = Dist::of(
        w.iter()
            .filter_map(|x| x.parry_depth.map(|p| (p - x.ours_max_depth).abs()))
            .collect(),
    );
    s += &format!(
        "\n## Wheel over a hill (Fig. 10)\n\nA wheel (r = 0.3 m, width 0.22 m, axis along y) at {} \
         positions along y = 1 m over a 0.35 m Gaussian hill (5 cm grid, triangles), each resting \
         on the terrain and sunk 1 cm. Contact in {} frames (ours) and {} (parry). Deepest-depth \
         difference: median {:.2e}, max {:.2e} m. Mean points: ours {:.2}, parry {:.2}. On \
         the curved hill every triangle has its own normal, so §V's grouping by equal normals \
         (default tolerance 2⁻³⁰) keeps up to 4 points per triangle; grouping normals within 5° \
         (`Params::normal_tolerance`) gives {:.2} points on average. Time: ours {:.2} µs, parry `contact` {:.2} µs, parry manifolds {:.2} µs per query.\n\n",
        w.len(),
        ours_contacts,
        parry_contacts,
        dd.median,
        dd.max,
        w.iter().map(|x| x.ours_points as f64).sum::<f64>() / w.len().max(1) as f64,
        w.iter().map(|x| x.parry_points as f64).sum::<f64>() / w.len().max(1) as f64,
        w.iter().map(|x| x.ours_points_5deg as f64).sum::<f64>() / w.len().max(1) as f64,
        us(t, "cylinder_heightfield/ours/wheel_hill"),
        us(t, "cylinder_heightfield/parry_contact/wheel_hill"),
        us(t, "cylinder_heightfield/parry_manifolds/wheel_hill"),
    );
    s += "## Figures\n\n";
    for f in &r.figures {
        s += &format!("![{f}]({f})\n\n");
    }
    if !r.figure_note.is_empty() {
        s += &format!("Note: {}\n\n", r.figure_note);
    }
    s += "In the scene figures, blue dots are our contact points with their normals (orange, \
          0.15 m long; the push-out direction for the cylinder); red crosses are parry's \
          manifold points (on the cylinder).\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{Scratch, names};

    /// The arguments of a small valid run writing to `out`.
    fn small(out: PathBuf) -> Args {
        Args {
            out,
            seed: 2020,
            terrains: 1,
            cylinders: 2,
            pairs: 10,
            frames: 3,
            time_per_sample: 1e-4,
        }
    }

    fn refused(args: &Args) -> String {
        match check_args(args) {
            Err(e @ DiscreteCliError::Argument { .. }) => e.to_string(),
            other => panic!("expected an argument error, got {other:?}"),
        }
    }

    #[test]
    fn an_unusable_out_is_refused_by_name() {
        // Were "File exists (os error 17)" and "Not a directory (os error
        // 20)", without the path.
        let dir = Scratch::new("discrete-unusable-out");
        let file = dir.join("a0.ply");
        std::fs::write(&file, "ply\n").unwrap();
        let e = run(small(file.clone())).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "invalid --out {}: exists and is not a folder",
                file.display()
            )
        );
        let below = file.join("sub");
        let e = run(small(below.clone())).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("invalid --out {}: ", below.display())),
            "{e}"
        );
        let deeper = file.join("sub").join("deeper");
        let e = run(small(deeper.clone())).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("invalid --out {}: ", deeper.display())),
            "{e}"
        );
        assert_eq!(names(&dir), ["a0.ply"]);
    }

    #[test]
    fn a_small_run_writes_its_files_and_nothing_else() {
        let dir = Scratch::new("discrete-small-run");
        let out = dir.join("new").join("out");
        run(small(out.clone())).unwrap();
        assert_eq!(names(&dir.join("new")), ["out"]);
        let files = names(&out);
        for f in ["results.json", "summary.md", "timing.png"] {
            assert!(files.iter().any(|n| n == f), "{files:?}");
        }
        assert!(files.iter().all(|n| !n.starts_with('.')), "{files:?}");
        // Into an existing folder: same names replaced, others kept.
        std::fs::write(out.join("summary.md"), "old").unwrap();
        std::fs::write(out.join("mine.txt"), "mine").unwrap();
        run(small(out.clone())).unwrap();
        let again = names(&out);
        assert_eq!(again.len(), files.len() + 1, "{again:?}");
        assert!(
            std::fs::read_to_string(out.join("summary.md"))
                .unwrap()
                .starts_with("# ")
        );
        assert_eq!(
            std::fs::read_to_string(out.join("mine.txt")).unwrap(),
            "mine"
        );
        // Empty tallies read as such, not as Rust's `{}` or an empty list
        // (this run has no separated cylinder and, for sphere–box, no
        // contact).
        let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
        assert!(
            !summary.contains("{}") && !summary.contains(": ."),
            "{summary}"
        );
        assert!(summary.contains("separated 0."), "{summary}");
    }

    #[test]
    fn the_largest_seed_runs() {
        // The derived seeds (seed + 1, + 10 + t, + 1000 + t) overflowed:
        // a panic wherever overflow checks are on (debug builds, tests).
        let dir = Scratch::new("discrete-largest-seed");
        let mut a = small(dir.join("out"));
        a.seed = u64::MAX;
        run(a).unwrap();
        let results = std::fs::read_to_string(dir.join("out").join("results.json")).unwrap();
        assert!(results.contains(&format!("\"seed\": {}", u64::MAX)));
    }

    #[test]
    fn count_maps_read_as_text() {
        let mut m = BTreeMap::new();
        assert_eq!(counts_list(&m), "none");
        assert_eq!(total_with_counts(&m), "0");
        m.insert("NoElementMet".to_string(), 969);
        m.insert("AboveHeights".to_string(), 357);
        assert_eq!(counts_list(&m), "AboveHeights 357, NoElementMet 969");
        assert_eq!(
            total_with_counts(&m),
            "1326 (AboveHeights 357, NoElementMet 969)"
        );
    }

    #[test]
    fn zero_counts_are_refused_by_name() {
        // Each of these made the timing loop spin for ever.
        let out = PathBuf::from("unused");
        for (name, set) in [
            ("pairs", (|a: &mut Args| a.pairs = 0) as fn(&mut Args)),
            ("frames", |a| a.frames = 0),
            ("terrains", |a| a.terrains = 0),
            ("cylinders", |a| a.cylinders = 0),
        ] {
            let mut a = small(out.clone());
            set(&mut a);
            let m = refused(&a);
            assert!(m.starts_with(&format!("invalid --{name}: 0:")), "{m}");
        }
        assert!(check_args(&small(out)).is_ok());
    }

    #[test]
    fn counts_above_the_limits_are_refused() {
        // usize::MAX pairs panicked ("capacity overflow"); 4e9 frames aborted
        // on a 256 GB allocation.
        let out = PathBuf::from("unused");
        let mut a = small(out.clone());
        a.pairs = usize::MAX;
        assert!(refused(&a).contains(&format!("{} exceeds the limit of {MAX_PAIRS}", usize::MAX)));
        a.pairs = MAX_PAIRS;
        assert!(check_args(&a).is_ok());
        let mut a = small(out.clone());
        a.frames = 4_000_000_000;
        assert!(refused(&a).starts_with("invalid --frames: 4000000000 exceeds"));
        a.frames = MAX_FRAMES;
        assert!(check_args(&a).is_ok());
        let mut a = small(out.clone());
        a.terrains = MAX_TERRAINS + 1;
        assert!(refused(&a).starts_with("invalid --terrains:"));
        // Each factor within its limit, the product not.
        let mut a = small(out);
        a.terrains = 2;
        a.cylinders = MAX_TERRAIN_QUERIES;
        let m = refused(&a);
        assert!(
            m.starts_with("invalid --cylinders:") && m.contains("200000 queries"),
            "{m}"
        );
        a.terrains = 1;
        assert!(check_args(&a).is_ok());
    }

    #[test]
    fn time_per_sample_must_be_finite_positive_and_bounded() {
        // inf and 1e300 timed for ever; 0, -1 and NaN were accepted.
        for t in [0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0] {
            let mut a = small(PathBuf::from("unused"));
            a.time_per_sample = t;
            let m = refused(&a);
            assert!(m.starts_with("invalid --time-per-sample:"), "{t}: {m}");
            assert!(m.contains("positive"), "{t}: {m}");
        }
        let mut a = small(PathBuf::from("unused"));
        a.time_per_sample = 1e300;
        assert!(refused(&a).contains("1e300 s exceeds the limit of 10.0 s"));
        a.time_per_sample = MAX_TIME_PER_SAMPLE;
        assert!(check_args(&a).is_ok());
        a.time_per_sample = f64::MIN_POSITIVE;
        assert!(check_args(&a).is_ok());
    }
}
