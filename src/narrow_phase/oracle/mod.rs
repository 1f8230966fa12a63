//! The exact oracle: vertex–face and edge–edge CCD decided in exact
//! arithmetic, for every configuration, degenerate ones included.
//!
//! **Method.** With linear motion `x(t) = x₀ + t(x₁ − x₀)` and the doubles put
//! on a common integer scale ([`crate::exact::to_common_scale`]), every
//! condition is an integer polynomial in `t`. The set `S ⊆ [0, 1]` of contact
//! times is closed; its minimum is the earliest time of impact. We enumerate a
//! finite candidate set that provably contains `min S`, in increasing order,
//! and decide membership `t ∈ S` exactly at each candidate (an algebraic
//! number; [`crate::exact::Algebraic::sign_of`]):
//!
//! - If the coplanarity cubic `f(t) = det[b−a, c−a, d−a]` (Provot 1997) is
//!   not identically zero, `S ⊆ {f = 0}`: the candidates are its roots.
//! - If `f ≡ 0` (motion stays coplanar) and the triangle normal `n` (VF) or
//!   edge cross product `m` (EE) is not identically zero, membership is
//!   locally `∧ g_i ≥ 0` wherever `n ≠ 0`, so `min S` is `0`, a root of some
//!   `g_i`, or a root of `|n|²`.
//! - Otherwise the triangle is degenerate, or the edges parallel, at every
//!   `t`, and `S` is a union of point–segment contact sets
//!   (`point_segment`), each with its own candidates.
//!
//! Membership at a candidate `t` also handles instants where the triangle
//! degenerates or the edges are parallel (there the contact reduces to
//! point–segment tests). Floating-point arithmetic appears only in the
//! oracle's own certified filter (`float_filter`: a sign is read from it only
//! when its rounding bound proves it) and as hints that exact evaluations
//! confirm; the only approximation is the final rounding of the time of
//! impact outward. The oracle shares no code with the fast path.
//!
//! This module is slow (big integers) and is the reference that the filtered
//! fast path ([`super::vertex_face()`], [`super::edge_edge()`]) falls back to and
//! is tested against.

mod earliest;
mod edge_edge;
mod float_filter;
pub mod min_distance;
mod point_segment;
mod trajectories;
mod vertex_face;

pub use edge_edge::edge_edge;
pub use min_distance::{edge_edge_within, vertex_face_within};
use trajectories::trajectories;
pub use vertex_face::vertex_face;
