//! Cylinder vs regular height-grid terrain with a contact manifold:
//! Strashnov & Torgashev, «Алгоритмы определения коллизий аппроксимирующих
//! цилиндров с моделью рельефа местности» (Collision detection algorithms of
//! bounding cylinders with terrain model), International Journal of Open
//! Information Technologies, 2020 (received 29 May 2020).
//!
//! Stages, one file each:
//!
//! | stage | paper | file |
//! |---|---|---|
//! | broad phase: AABB with the ε guards, index range, `H_min/H_max`, flat patch | §III, (2)–(5), Algorithm | `broad_phase` |
//! | per element: `w`, `A_i`, `B_i`, case split | §IV, Fig. 6, (5) | `setup` |
//! | does the element meet the cylinder (exact) | — (ours) | `section` |
//! | base contact: projected ellipse, edge crossings, back-projection | §IV-A, (6)–(8), Fig. 7 | `base_contact` |
//! | lateral contact: trapezoid SAT, Cyrus–Beck clipping | §IV-B, (9), (10), Fig. 8 | `lateral_contact` |
//! | one-point contact | §IV-C, (11), (12) | `point_contact` |
//! | second pass over `Ω_I`, `Ω_E` | §IV-D, (13), (14) | `second_pass` |
//! | manifold: groups by normal, ≤ 4 points, 2 if collinear | §V | `manifold` |
//! | composition | — | `detect` |
//! | slow oracle (golden-section SDF minimum over every triangle) | — | `oracle` |
//!
//! **Decision vs contact points.** The paper decides intersection per case
//! with tests that can miss real contacts (each case module gives an
//! example): the closest point to the ellipse centre in (6), the inscribed
//! trapezoid in (9), the point closest to `Ã₁` in (11), and in (6) the
//! projected base instead of the plane section. ccdlab must not miss a
//! contact, so every element of the range is decided by an exact test
//! (`section`: slab clip, then the convex distance to the axis minimised over
//! the clipped polygon), conservative by a rounding slack `γ₆₄·S`
//! ([`rounding_slack`]). The paper's procedures then produce the points;
//! an element they would have rejected is counted in
//! [`Stats::paper_misses`] and handed to the second pass with a point of the
//! element inside the cylinder. The outcome is [`Outcome::Contact`] iff some
//! element meets the cylinder, and then the manifold is never empty.
//!
//! **Paper errors and ambiguities** (details in the stage modules):
//! - (4) divides the x range by `d_y` (typo; `d_x` used).
//! - §IV-C writes `Ã₁ = A₁ − s(A₁)n_P`; the projection is `A₁ + s(A₁)n_P`.
//! - Which base is `C₁` (the "lower" one) is not defined; we orient the axis
//!   per element so that `A₁` is the cylinder's lowest point.
//! - (6)'s closest-point-to-centre test is wrong for ellipses (the line
//!   `x − y = 1.9` vs `a = 2, b = 1`).
//! - (9)'s half-widths `√(s(2r − s))` are exact only for an axis parallel to
//!   the element and imaginary for `s > 2r`.
//! - §IV-D does not check that `Q_i` is inside the cylinder (negative depths).
//! - An ellipse inside one element yields no point; we add the ellipse's axis
//!   ends.
//! - A cylinder entirely below the surface meets no element; the paper
//!   (small penetrations per step) has no model for it; we report
//!   [`Outcome::Buried`].
//! - The cylinder–plane test of the flat patch is in ref. \[17\], not in our
//!   sources: we run the same narrow phase on one rectangle spanning the
//!   range at `H_max`.
//!
//! Real-time budget in the paper: all calculations ≤ 10 ms.

mod base_contact;
mod broad_phase;
mod detect;
mod lateral_contact;
mod manifold;
mod oracle;
mod planar;
mod point_contact;
mod second_pass;
mod section;
mod setup;
mod workspace;

pub use broad_phase::{Aabb, CellRange, cell_range, cylinder_aabb, height_range};
pub use detect::{
    Outcome, Params, Report, Separation, Stats, contact_manifold, cylinder_heightfield,
    rounding_slack,
};
pub use manifold::{ContactPoint, PointSource};
pub use oracle::{OracleResult, cylinder_heightfield_oracle};
pub use workspace::Workspace;
