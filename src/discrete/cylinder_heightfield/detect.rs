//! One cylinder–terrain query (Strashnov & Torgashev 2020; docs/design.md
//! §3), composing the stages: broad phase (§III),
//! per-element narrow phase (§IV-A, B, C, each decided by the exact
//! element–cylinder test), second pass (§IV-D) and manifold (§V).

use super::base_contact::base_contact;
use super::broad_phase::{Aabb, CellRange, cell_range, cylinder_aabb, height_range};
use super::lateral_contact::lateral_contact;
use super::manifold::{ContactPoint, PointSource, reduce};
use super::point_contact::point_contact;
use super::second_pass::{contact_13_14, second_pass};
use super::section::{Witness, element_meets_cylinder};
use super::setup::{Case, Setup};
use super::workspace::Workspace;
use crate::discrete::heightfield::{Element, ElementKind, HeightGrid};
use crate::discrete::shapes::Cylinder;
use crate::math::{Real, Vec3, gamma};

/// The paper's user-set accuracies ("задаваемая точность"). They are
/// modelling choices, not rounding bounds (those are derived per query from
/// `f64::EPSILON`, see [`rounding_slack`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// `ε` of the broad-phase Algorithm: `|v_z² − 1| ≤ ε` means a vertical
    /// axis. Default `γ₄` (the rounding of `v_z²` for a unit `v`). A negative
    /// or NaN value means no axis counts as vertical.
    pub eps_vertical: Real,
    /// `ε_H`: a range with `|H_max − H_min| ≤ ε_H` is a flat patch, tested as
    /// one plane at `H_max` (conservative). Default 0: exactly equal heights.
    pub eps_h: Real,
    /// `ε_v` of §IV-D: the axis counts as parallel to an element when
    /// `|v·n_P| < ε_v`. Default `2⁻¹⁰` (about 0.06°).
    pub eps_v: Real,
    /// `ε₂` of §V, relative (scale-free: `‖P₁P₂ × P₂P₃‖ ≤ ε₂·‖P₁P₂‖²`). Default `2⁻²⁰`.
    pub eps_collinear: Real,
    /// Normals `n`, `n′` are "the same" (§V) when `n·n′ ≥ 1 − tol`. Default
    /// `2⁻³⁰` (an angle of about 4·10⁻⁵ rad).
    pub normal_tolerance: Real,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            eps_vertical: gamma(4),
            eps_h: 0.0,
            eps_v: 1.0 / (1u64 << 10) as Real,
            eps_collinear: 1.0 / (1u64 << 20) as Real,
            normal_tolerance: 1.0 / (1u64 << 30) as Real,
        }
    }
}

/// Why a query found no contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Separation {
    /// The cylinder's footprint misses the grid.
    OutsideGrid,
    /// Step 4 of the broad phase: `H_max < z_min`.
    AboveHeights,
    /// No element of the range meets the cylinder, and it is above the
    /// surface.
    NoElementMet,
}

/// The outcome of a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// No contact, and why.
    Separated(Separation),
    /// The cylinder meets the terrain surface; the manifold is non-empty.
    Contact,
    /// The cylinder meets no element but lies below the surface (entirely
    /// inside the solid terrain). The paper assumes small penetrations and
    /// has no contact model for this; no manifold is produced.
    Buried,
}

/// Counters of one query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Cells in the broad-phase range.
    pub cells: usize,
    /// Elements tested by the narrow phase.
    pub elements: usize,
    /// Elements that meet the cylinder (exact test).
    pub elements_met: usize,
    /// Of those, in case (6), (9), (11).
    pub base: usize,
    /// Case (9).
    pub lateral: usize,
    /// Case (11).
    pub single_point: usize,
    /// Elements that meet the cylinder but that the paper's own test for
    /// their case rejects: case (6) (closest point to `C̃₁` outside the
    /// ellipse), (9) (SAT separates the trapezoid), (11) (`Q` outside the
    /// cylinder). See the case modules.
    pub paper_misses: [usize; 3],
    /// Case-(6) elements that meet the cylinder outside the projected base.
    pub outside_projection: usize,
    /// `|Ω_I|`, `|Ω_E|` before the second pass.
    pub omega_i: usize,
    /// `|Ω_E|`.
    pub omega_e: usize,
    /// Points found by the second pass.
    pub second_pass_points: usize,
    /// `|L(C_P)|` before reduction.
    pub raw_points: usize,
    /// Normal groups `K`.
    pub groups: usize,
    /// Points of `Υ_CP`.
    pub manifold_points: usize,
    /// Fallback points (see [`PointSource::Fallback`]).
    pub fallback_points: usize,
    /// Whether the flat-patch (cylinder–plane) path was taken.
    pub flat_patch: bool,
}

impl Stats {
    /// Whether the paper's own per-case tests would have found a contact:
    /// some element meets the cylinder and its case's test accepts it.
    pub fn paper_finds_contact(&self) -> bool {
        self.elements_met > self.paper_misses.iter().sum::<usize>()
    }
}

/// The result of one query; the manifold itself is written to the caller's
/// buffer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Report {
    /// Contact or not.
    pub outcome: Outcome,
    /// Counters.
    pub stats: Stats,
    /// The broad-phase box (after widening).
    pub aabb: Aabb,
}

/// The rounding allowance of one query: `γ₆₄·S`, `S` bounding every
/// coordinate and size that enters it. Each computed quantity of the
/// detector passes through far fewer than 64 roundings of values bounded by
/// a small multiple of `S`; touching within this slack counts as contact.
pub fn rounding_slack(cyl: &Cylinder, grid: &HeightGrid) -> Real {
    let [x0, y0] = grid.origin();
    let [xm, ym] = grid.extent_max();
    let hmax = grid.max_abs_height();
    let s = cyl.centre().amax()
        + cyl.height()
        + cyl.radius()
        + x0.abs().max(xm.abs()).max(y0.abs()).max(ym.abs())
        + hmax;
    gamma(64) * s
}

/// Cylinder vs height-grid terrain: the contact manifold `Υ_CP` goes to `out`
/// (cleared first). Allocation-free once `ws` and `out` have grown.
pub fn cylinder_heightfield(
    cyl: &Cylinder,
    grid: &HeightGrid,
    params: &Params,
    ws: &mut Workspace,
    out: &mut Vec<ContactPoint>,
) -> Report {
    out.clear();
    let mut stats = Stats::default();
    let slack = rounding_slack(cyl, grid);
    let aabb = cylinder_aabb(cyl, params.eps_vertical, slack);
    let done = |outcome, stats| Report {
        outcome,
        stats,
        aabb,
    };
    let Some(range) = cell_range(grid, &aabb) else {
        return done(Outcome::Separated(Separation::OutsideGrid), stats);
    };
    stats.cells = range.cells();
    let (h_min, h_max) = height_range(grid, &range);
    if h_max < aabb.min.z {
        return done(Outcome::Separated(Separation::AboveHeights), stats);
    }
    ws.reset(range, grid.cols());
    let mut first_hit: Option<(Witness, Vec3)> = None;
    if (h_max - h_min).abs() <= params.eps_h {
        stats.flat_patch = true;
        let el = flat_patch(grid, &range, h_max);
        narrow_phase(cyl, &el, slack, ws, &mut stats, &mut first_hit);
    } else {
        for i in range.i0..range.i1 {
            for j in range.j0..range.j1 {
                let (els, n) = grid.cell_elements(i, j);
                for el in &els[..n] {
                    narrow_phase(cyl, el, slack, ws, &mut stats, &mut first_hit);
                }
            }
        }
    }
    let Some((witness, n_p)) = first_hit else {
        let c = cyl.centre();
        let buried = grid.surface_height(c.x, c.y).is_some_and(|h| c.z < h);
        let outcome = if buried {
            Outcome::Buried
        } else {
            Outcome::Separated(Separation::NoElementMet)
        };
        return done(outcome, stats);
    };
    stats.omega_i = ws.omega_i.len();
    stats.omega_e = ws.omega_e.len();
    stats.second_pass_points = second_pass(cyl, params.eps_v, slack, ws);
    if ws.raw.is_empty() {
        stats.fallback_points = 1;
        let cp =
            contact_13_14(cyl, &n_p, &witness.point, params.eps_v, slack).unwrap_or(ContactPoint {
                point: witness.point,
                depth: 0.0,
                normal: n_p,
                source: PointSource::Fallback,
            });
        ws.raw.push(ContactPoint {
            source: PointSource::Fallback,
            ..cp
        });
    }
    stats.raw_points = ws.raw.len();
    stats.groups = reduce(
        &ws.raw,
        params.normal_tolerance,
        params.eps_collinear,
        slack,
        &mut ws.reduce,
        out,
    );
    stats.manifold_points = out.len();
    done(Outcome::Contact, stats)
}

/// Convenience: one query with a fresh workspace and default parameters.
pub fn contact_manifold(cyl: &Cylinder, grid: &HeightGrid) -> (Report, Vec<ContactPoint>) {
    let mut out = Vec::new();
    let report = cylinder_heightfield(
        cyl,
        grid,
        &Params::default(),
        &mut Workspace::new(),
        &mut out,
    );
    (report, out)
}

/// The flat patch of step 5 as one rectangle element at height `H_max`,
/// spanning the range; its corners carry the ids of the range's corner
/// vertices.
fn flat_patch(grid: &HeightGrid, r: &CellRange, h: Real) -> Element {
    let id = |i: usize, j: usize| i * grid.cols() + j;
    let p = |i: usize, j: usize| Vec3::new(grid.x(j), grid.y(i), h);
    Element::from_corners(
        (r.i0, r.j0),
        ElementKind::Rectangle,
        &[p(r.i0, r.j0), p(r.i0, r.j1), p(r.i1, r.j1), p(r.i1, r.j0)],
        &[
            id(r.i0, r.j0),
            id(r.i0, r.j1),
            id(r.i1, r.j1),
            id(r.i1, r.j0),
        ],
    )
}

fn narrow_phase(
    cyl: &Cylinder,
    el: &Element,
    slack: Real,
    ws: &mut Workspace,
    stats: &mut Stats,
    first_hit: &mut Option<(Witness, Vec3)>,
) {
    stats.elements += 1;
    let setup = Setup::new(cyl, el);
    let case = setup.case(slack);
    if case == Case::Above {
        return;
    }
    let Some(witness) = element_meets_cylinder(el, cyl, slack) else {
        return;
    };
    stats.elements_met += 1;
    if first_hit.is_none() {
        *first_hit = Some((witness, el.normal));
    }
    match case {
        Case::Base => base_contact(cyl, el, &setup, &witness, slack, ws, stats),
        Case::Lateral => lateral_contact(cyl, el, &setup, &witness, slack, ws, stats),
        Case::SinglePoint => point_contact(cyl, el, &setup, &witness, slack, ws, stats),
        Case::Above => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discrete::heightfield::HeightGrid;

    /// A flat grid at z = 0 over [0, 4]², step 0.25.
    fn flat() -> HeightGrid {
        HeightGrid::new([0.0, 0.0], [0.25, 0.25], 17, 17, vec![0.0; 17 * 17]).unwrap()
    }

    /// A plane tilted about x: z = 0.3·y (all cells are tilted rectangles).
    fn slope() -> HeightGrid {
        HeightGrid::from_fn([0.0, 0.0], [0.25, 0.25], 17, 17, |_, y| 0.3 * y).unwrap()
    }

    /// Per-element processing even on a flat range (no flat-patch shortcut).
    fn per_element() -> Params {
        Params {
            eps_h: -1.0,
            ..Params::default()
        }
    }

    fn run(cyl: &Cylinder, grid: &HeightGrid, params: &Params) -> (Report, Vec<ContactPoint>) {
        let mut out = Vec::new();
        let r = cylinder_heightfield(cyl, grid, params, &mut Workspace::new(), &mut out);
        (r, out)
    }

    #[test]
    fn standing_barrel_fig_7_four_rim_points() {
        // Vertical axis: w = V₀V₁/|V₀V₁| = x, u = v × w = y; the base rim
        // points C₁ ± r·x, C₁ ± r·y, each at depth 0.01.
        let cyl = Cylinder::new(Vec3::new(1.9, 2.1, 0.49), Vec3::z(), 0.3, 1.0).unwrap();
        for params in [Params::default(), per_element()] {
            let (rep, out) = run(&cyl, &flat(), &params);
            assert_eq!(rep.outcome, Outcome::Contact);
            assert_eq!(rep.stats.flat_patch, params.eps_h == 0.0);
            assert_eq!((out.len(), rep.stats.groups), (4, 1), "{:?}", rep.stats);
            assert_eq!(rep.stats.paper_misses, [0; 3]);
            for p in &out {
                assert!((p.depth - 0.01).abs() < 1e-12);
                assert_eq!(p.normal, Vec3::z());
                let c1 = Vec3::new(1.9, 2.1, -0.01);
                assert!(((p.point - c1).norm() - 0.3).abs() < 1e-12, "{p:?}");
            }
        }
        // The flat patch gives exactly the four axis ends.
        let (_, out) = run(&cyl, &flat(), &Params::default());
        let expect = [(0.3, 0.0), (-0.3, 0.0), (0.0, 0.3), (0.0, -0.3)];
        for (dx, dy) in expect {
            let q = Vec3::new(1.9 + dx, 2.1 + dy, -0.01);
            assert!(out.iter().any(|p| (p.point - q).norm() < 1e-12), "{q:?}");
        }
    }

    #[test]
    fn base_contact_on_a_slope_perpendicular_axis() {
        // Axis along the slope's normal, base sunk 0.02 along it.
        let n = Vec3::new(0.0, -0.3, 1.0).normalize();
        let foot = Vec3::new(2.0, 2.0, 0.6);
        let cyl = Cylinder::new(foot + (0.5 - 0.02) * n, n, 0.4, 1.0).unwrap();
        let (rep, out) = run(&cyl, &slope(), &Params::default());
        assert_eq!(rep.outcome, Outcome::Contact);
        assert!(!rep.stats.flat_patch);
        assert!(rep.stats.base > 4);
        assert_eq!((out.len(), rep.stats.groups), (4, 1));
        for p in &out {
            assert!((p.depth - 0.02).abs() < 1e-12, "{p:?}");
            assert!((p.normal - n).norm() < 1e-12);
        }
    }

    #[test]
    fn lying_barrel_fig_8_two_points_at_the_generatrix_ends() {
        let cyl = Cylinder::new(Vec3::new(2.0, 1.3, 0.29), Vec3::x(), 0.3, 0.9).unwrap();
        for params in [Params::default(), per_element()] {
            let (rep, out) = run(&cyl, &flat(), &params);
            assert_eq!(rep.outcome, Outcome::Contact);
            assert_eq!(out.len(), 2, "{:?}", rep.stats);
            let mut xs: Vec<Real> = out.iter().map(|p| p.point.x).collect();
            xs.sort_by(Real::total_cmp);
            assert!((xs[0] - 1.55).abs() < 1e-12 && (xs[1] - 2.45).abs() < 1e-12);
            for p in &out {
                assert!((p.depth - 0.01).abs() < 1e-12);
                assert!((p.point.y - 1.3).abs() < 1e-12 && (p.point.z + 0.01).abs() < 1e-12);
                assert_eq!(p.source, PointSource::LateralClip);
            }
        }
        // On the slope, axis along x (parallel to the slope), sunk 0.01
        // along the slope normal.
        let n = Vec3::new(0.0, -0.3, 1.0).normalize();
        let foot = Vec3::new(2.0, 2.0, 0.6);
        let cyl = Cylinder::new(foot + (0.3 - 0.01) * n, Vec3::x(), 0.3, 0.9).unwrap();
        let (rep, out) = run(&cyl, &slope(), &Params::default());
        assert_eq!((rep.outcome, out.len()), (Outcome::Contact, 2));
        for p in &out {
            assert!((p.depth - 0.01).abs() < 1e-12);
        }
    }

    #[test]
    fn tilted_barrel_eq_12_one_point_at_a1() {
        let axis = Vec3::new(1.0, 0.0, 2.0).normalize();
        let (r, h) = (0.3, 1.0);
        let drop = 0.5 * h * axis.z + r * axis.x;
        let cyl = Cylinder::new(Vec3::new(2.1, 1.7, drop - 0.004), axis, r, h).unwrap();
        // A₁ = C₁ + r·w with w = ((v·n)v − n)/‖…‖ pointing down-slope of the base.
        let c1 = cyl.centre() - 0.5 * h * axis;
        let w = (axis.z * axis - Vec3::z()).normalize();
        let a1 = c1 + r * w;
        assert!((a1.z + 0.004).abs() < 1e-12);
        for params in [Params::default(), per_element()] {
            let (rep, out) = run(&cyl, &flat(), &params);
            assert_eq!(rep.outcome, Outcome::Contact);
            assert_eq!(out.len(), 1, "{:?}", rep.stats);
            assert!((out[0].point - a1).norm() < 1e-12);
            assert!((out[0].depth - 0.004).abs() < 1e-12);
            assert_eq!(out[0].source, PointSource::SinglePoint);
        }
    }

    #[test]
    fn tilted_barrels_touching_at_a1_are_single_points_within_the_cylinder() {
        // The lowest point A₁ exactly on the ground, in exact arithmetic: its
        // projection Ã₁ is A₁, on the rim of the lower base (ρ = r, z = −h/2
        // in the cylinder's frame) up to rounding, which the rounding slack
        // absorbs: the paper's test of case (11) accepts it and the one
        // contact point is A₁ at depth 0. Tilts and positions vary, so that
        // the rounding falls on both sides of the rim.
        let (r, h) = (0.3, 1.0);
        for tilt in 1..=12 {
            let axis = Vec3::new(0.1 * tilt as Real, 0.05 * tilt as Real, 2.0).normalize();
            let w = (axis.z * axis - Vec3::z()).normalize();
            let drop = 0.5 * h * axis.z - r * w.z;
            for shift in 0..4 {
                let xy = Vec3::new(
                    1.9 + 0.013 * shift as Real,
                    1.7 + 0.007 * shift as Real,
                    0.0,
                );
                let cyl = Cylinder::new(xy + drop * Vec3::z(), axis, r, h).unwrap();
                let a1 = cyl.centre() - 0.5 * h * axis + r * w;
                for params in [Params::default(), per_element()] {
                    let (rep, out) = run(&cyl, &flat(), &params);
                    let case = (tilt, shift, params.eps_h);
                    assert_eq!(rep.outcome, Outcome::Contact, "{case:?}");
                    assert_eq!(rep.stats.paper_misses, [0; 3], "{case:?}");
                    assert_eq!(out.len(), 1, "{case:?} {:?}", rep.stats);
                    assert_eq!(out[0].source, PointSource::SinglePoint, "{case:?}");
                    assert!((out[0].point - a1).norm() < 1e-12, "{case:?}");
                    assert!(out[0].depth.abs() < 1e-12, "{case:?}");
                }
            }
        }
    }

    #[test]
    fn an_element_whose_edge_is_tangent_to_the_base_is_in_its_projection() {
        // A standing barrel sunk 0.01 into flat ground, its base circle
        // tangent to the grid line x = 2 from the right, or up to a few ulps
        // of its centre's x away from it: the elements left of the line
        // touch the cylinder along its side within the rounding slack, and
        // their edge on the line touches the projected base (the unit circle
        // in scaled coordinates) within the same slack.
        for k in 0..48 {
            let r = 0.2 + 0.0071 * (k / 8) as Real;
            let ulps = (k % 8) as Real * Real::EPSILON;
            let x = (2.0 + r) * (1.0 + ulps);
            let cyl = Cylinder::new(Vec3::new(x, 2.1, 0.49), Vec3::z(), r, 1.0).unwrap();
            let (rep, out) = run(&cyl, &flat(), &per_element());
            assert_eq!(rep.outcome, Outcome::Contact, "r = {r}");
            assert_eq!(rep.stats.outside_projection, 0, "r = {r}: {:?}", rep.stats);
            assert_eq!(rep.stats.paper_misses, [0; 3], "r = {r}");
            let c1 = Vec3::new(x, 2.1, -0.01);
            for p in &out {
                assert!((p.depth - 0.01).abs() < 1e-12, "r = {r}: {p:?}");
                assert!(((p.point - c1).norm() - r).abs() < 1e-12, "r = {r}: {p:?}");
            }
        }
    }

    #[test]
    fn touching_and_just_separated() {
        let standing =
            |z: Real| Cylinder::new(Vec3::new(1.9, 2.1, z), Vec3::z(), 0.3, 1.0).unwrap();
        let lying = |z: Real| Cylinder::new(Vec3::new(2.0, 1.3, z), Vec3::x(), 0.3, 0.9).unwrap();
        for params in [Params::default(), per_element()] {
            let (rep, out) = run(&standing(0.5), &flat(), &params);
            assert_eq!(rep.outcome, Outcome::Contact);
            assert!(out.iter().all(|p| p.depth.abs() < 1e-12));
            let (rep, out) = run(&standing(0.5 + 1e-9), &flat(), &params);
            assert!(matches!(rep.outcome, Outcome::Separated(_)) && out.is_empty());
            let (rep, _) = run(&lying(0.3), &flat(), &params);
            assert_eq!(rep.outcome, Outcome::Contact);
            let (rep, _) = run(&lying(0.3 + 1e-9), &flat(), &params);
            assert!(matches!(rep.outcome, Outcome::Separated(_)));
        }
        // Off the grid, above all heights, buried.
        let far = Cylinder::new(Vec3::new(9.0, 9.0, 0.0), Vec3::z(), 0.3, 1.0).unwrap();
        assert_eq!(
            run(&far, &flat(), &Params::default()).0.outcome,
            Outcome::Separated(Separation::OutsideGrid)
        );
        assert_eq!(
            run(&standing(0.9), &flat(), &Params::default()).0.outcome,
            Outcome::Separated(Separation::AboveHeights)
        );
        assert_eq!(
            run(&standing(-0.6), &flat(), &Params::default()).0.outcome,
            Outcome::Buried
        );
    }

    #[test]
    fn lateral_contact_with_a_curb_edge_goes_through_the_second_pass() {
        // Flat ground at 0 and a plateau at 0.2 for x ≥ 2 (the step is a
        // steep ramp between x = 1.75 and 2). A lying cylinder along y,
        // hovering 0.05 above the ground, its side 0.04 into the plateau's
        // edge region: the contact comes from the ramp and plateau elements.
        let g = HeightGrid::from_fn([0.0, 0.0], [0.25, 0.25], 17, 17, |x, _| {
            if x >= 2.0 - 1e-9 { 0.2 } else { 0.0 }
        })
        .unwrap();
        let cyl = Cylinder::new(Vec3::new(1.8, 2.0, 0.35), Vec3::y(), 0.3, 1.0).unwrap();
        let (rep, out) = run(&cyl, &g, &Params::default());
        assert_eq!(rep.outcome, Outcome::Contact);
        // No point below the ground: every normal pushes away from the step
        // (−x) or up; depths are positive and small.
        for p in &out {
            assert!(p.depth > 0.0 && p.depth < 0.3, "{p:?}");
            assert!(p.normal.x <= 1e-12, "{p:?}");
        }
        let oracle = super::super::cylinder_heightfield_oracle(&cyl, &g, 1.0);
        assert!(oracle.min_signed_distance < 0.0);
    }
}
