//! Side track: complete contact classification of moving triangles and
//! triangle meshes (TINs), after Yu Longhua, Shen Lincheng & Chang Wensen,
//! "一种基于 TIN 表达的碰撞检测方法研究" (A TIN-based collision detection
//! method), *Journal of National University of Defense Technology*
//! (国防科技大学学报), 2000, no. 1, pp. 15–19 (article 1001-2486(2000)01-0015-05);
//! docs/design.md §3.
//!
//! ```text
//! first_time (exact t*) ─▶ incidence at t* ─▶ triangle_pair (carriers, form, region)
//!     ─▶ mesh_pair (merge, mark f → e → d → abc, Ψ) ─▶ route (aircraft over terrain)
//! oracle: brute_force (every pair, exact oracle only, plain merge)
//! ```
//!
//! # Definitions
//!
//! **Motion.** Every vertex moves linearly over a step, `x(t) = x₀ + t(x₁ −
//! x₀)`, `t ∈ [0, 1]` (docs/design.md §1; the paper's `Q_i + ∫V_i dt`, Eq. (2), with
//! constant velocity). Triangles are closed: corners, edges and interior.
//!
//! **A contact of a triangle pair** `(A, B)` is the contact set at their
//! first time of impact,
//! `t* = min{t ∈ [0, 1] : A(t) ∩ B(t) ≠ ∅}`, `C = A(t*) ∩ B(t*)`
//! — a point, a segment or a convex polygon (the intersection of two convex
//! sets). Later instants are not contacts: by then the triangles have met.
//!
//! **Carriers and form.** The carrier of `C` in A is the smallest face of A
//! (a corner, an edge, or A itself) containing `C`; likewise in B. The pair
//! of carrier kinds is the form, one of the paper's six (§1, Fig. 1):
//! (a) vertex–vertex, (b) vertex–edge, (c) vertex–face, (d) edge–edge,
//! (e) edge–face, (f) face–face ([`Form`]).
//!
//! **Region** ([`Region`]): for `t* > 0` the form fixes the kind of `C`
//! (proof below): (a)–(c) a point; (d) a point, or a segment when the edges
//! are collinear at `t*`; (e) a segment; (f) a convex polygon with 3–6
//! corners. Coordinates are `f64` approximations (generating points
//! evaluated at a double within `f64::EPSILON` of `t*`); the time `t*` is
//! kept exactly ([`crate::exact::Algebraic`]) with a double bracket.
//!
//! **Meshes.** Two distinct meshes A and B (no self-contact: docs/design.md §1's
//! exclusion of pairs sharing a vertex does not arise). A contact of two
//! meshes is a face pair's contact with its
//! carriers read as mesh features (shared vertices and edges get one name).
//! Two face pairs with the same carrier pair have the same contact: if
//! carriers `(c_A, c_B)` arise at `t₁` from pair `P₁` and at `t₂` from
//! `P₂`, both pairs contain `c_A` and `c_B`, which meet at `t₁` and at
//! `t₂`, so `t*(P₁) ≤ t₂` and `t*(P₂) ≤ t₁`: `t₁ = t₂`, and then
//! `C₁ = c_A ∩ c_B = C₂`. A contact `(c_A, c_B)` *contains* `(c'_A, c'_B)`
//! when `c'_A ⊆ c_A`, `c'_B ⊆ c_B` and the times are equal — then
//! `C' ⊆ C`. The reported set is the paper's `Ψ` (§3, step 5): the contacts
//! contained in no other ([`mesh_contacts`]); none is reported twice. Each
//! contact carries its own face pairs' time: a contact whose features lie
//! inside those of an *earlier* one is a new event and is reported (say, a
//! face lying flat on a ground triangle slides until one of its corners,
//! outside that triangle at first, comes onto it: the first contact of a
//! neighbouring, tilted face with that triangle); [`MeshContacts::first`] gives those at the earliest
//! time, the meshes' time of impact.
//!
//! # Why the fifteen elementary pairs suffice (and when they do not)
//!
//! Let `t* > 0` and `x` an extreme point of `C`, in the relative interior of
//! a face `F` of A and a face `G` of B (both non-degenerate at `t*`). If `F`
//! and `G` are both the triangles, the two relative interiors meet in a
//! segment or disc around `x` (not extreme). If one is an edge and the other
//! the triangle, either the edge crosses the plane transversally — a
//! crossing that persists for `t` slightly below `t*` (an open condition),
//! contradicting minimality — or it lies in the plane, and a piece of it
//! around `x` lies in `C` (not extreme). So `F` or `G` is a corner (a
//! vertex–face contact) or both are edges (edge–edge): every extreme point
//! is found by the 6 + 9 elementary tests, and `t*` is their minimum. The
//! same argument shows the region kinds above: with carriers (face, face)
//! the planes must coincide, hence a 2D overlap; with (edge, face) the edge
//! lies in the plane, hence a segment.
//!
//! At `t* = 0` none of this holds: triangles may *start* interpenetrating,
//! an edge of one piercing the other's interior, with no elementary pair
//! touching. That case is tested separately
//! ([`crate::narrow_phase::segment_pierces_triangle`]); such contacts are flagged
//! `penetrating`, and their region follows from exact tests (an edge–face
//! contact is a point when the edge is not in the plane, a face–face contact
//! a segment when the planes differ).
//!
//! # Exactness
//!
//! Every decision is exact: `t*` (certified brackets, then the exact oracle
//! where they cannot separate candidates; [`first_time()`]), which pairs touch
//! at `t*` and where each corner lies (signs of integer polynomials at the
//! algebraic `t*`; [`incidence`]), the carriers and form, the region's
//! kind, equality of times across face pairs, and the marking. Only region
//! coordinates and the polygon's corner order are floating point
//! ([`region`]). [`brute_force`] decides the same things with the exact
//! oracle alone, and the tests compare the two.
//!
//! # Degeneracies
//!
//! - *Coplanar motion* (a whole step in one plane): the oracle's coplanar
//!   branch gives `t*`; face–face and edge–face contacts are exact
//!   ([`incidence::in_plane`]).
//! - *Parallel and collinear edges*: they meet only at corners on the other
//!   edge; an edge–edge contact of parallel edges is a segment
//!   ([`incidence::parallel`]).
//! - *Zero-area triangles* at `t*` (possible mid-step even for valid
//!   meshes): the smallest face is not unique, carriers follow a fixed rule
//!   ([`incidence`]), the region's kind is estimated in floating point, and
//!   the contact is flagged `degenerate`.
//!
//! # Deviations from the paper
//!
//! - The paper solves each form by its own equation system over all feature
//!   pairs — Eqs. (1)/(3) for (abc), (5)/(7) for (d), (9)/(11) for (e),
//!   (13)/(17) for (f) — each with its own time `t'`. Here each face pair's
//!   first contact is found once, and its form read off the carriers; the
//!   paper's systems are the incidence tests at that time. This fixes *which*
//!   time a form refers to (the paper does not say), so that "f contains e"
//!   is a statement about one contact set, and a feature pair whose own first
//!   touch comes after its triangles met is not reported.
//! - Marking (§3, steps 1–5) is kept, on carrier pairs at equal exact time.
//!   Within (abc), which the paper merges, the three forms are reported
//!   apart: a corner's carrier in the other triangle tells them apart.
//! - §2.4 says the face–face region is a triangle, quadrilateral or
//!   pentagon; two coplanar triangles can overlap in a hexagon, also at a
//!   first contact (test `face_face_hexagon`).
//! - Eq. (13) as printed reads `g₁ + (g₂ − g₃)u + (g₃ − g₁)v`; the triangle's
//!   parametrisation is `g₁ + (g₂ − g₁)u + (g₃ − g₁)v` (typo); Eq. (8) lacks
//!   a parenthesis, `S = e₁(t') + u'(e₂(t') − e₁(t'))`.
//! - Eq. (11) bounds the segment parameters as intervals `[u', u'']`,
//!   `[v', v'']`; the segment's ends are not in general at those bounds.
//!   Here the ends are the extreme generating points.
//! - The paper's requirement of a *unique* solution of Eq. (5) for a point
//!   contact is kept as the parallel test; its "(e) needs the edge parallel
//!   to the face" (Eq. (9), second line) is kept as the in-plane test.
//! - Initial interpenetration (`t* = 0`) is outside the paper; it is
//!   reported, flagged.

pub mod brute_force;
pub mod feature;
pub mod first_time;
pub mod incidence;
pub mod mesh_pair;
pub mod region;
pub mod route;
pub mod trajectories;
pub mod triangle_pair;

pub use feature::{Corners, Elementary, ElementarySet, FeatureKind, Form};
pub use first_time::{FirstTime, first_time};
pub use mesh_pair::{
    ContactStats, ElementaryContact, MeshContact, MeshContacts, mesh_contacts, mesh_contacts_among,
};
pub use region::Region;
pub use triangle_pair::{TriangleContact, triangle_pair};
