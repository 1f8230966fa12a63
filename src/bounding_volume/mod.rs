//! Stage 1, bounding volumes: k-DOPs of swept mesh features (Wan, Fu & Yao
//! 2022, §1.1 and §3.1), for k = 6, 8, 14, 18 and 26.
//!
//! A *swept* k-DOP encloses a feature's vertices at `t = 0` and `t = 1`. Every
//! vertex moves linearly and a feature (vertex, edge, triangle) is the convex
//! hull of its vertices, so the swept volume at every `t ∈ [0, 1]` lies in the
//! convex hull of those (at most six) points, whose k-DOP is exactly the k-DOP
//! of the points. Slabs along non-coordinate directions are rounded outward
//! (see [`Kdop::from_point`]), so a stored k-DOP provably contains the exact
//! projections.
//!
//! A triangle's k-DOPs at `t = 0` and `t = 1` kept apart ([`AlignedQuantizedKdop`])
//! prove more pairs apart than its swept k-DOP (SLPF's theorem; see
//! [`aligned_overlap`]).

mod aligned;
mod axes;
mod kdop;
mod quantized;
mod swept;

pub use aligned::{AlignedQuantizedKdop, aligned_merge, aligned_overlap, aligned_overlap_merge};
pub use axes::{DIRECTIONS, KdopAxes, ParseKdopAxesError, slab_directions};
pub use kdop::{Inflation, Kdop, Kdop6, Kdop8, Kdop14, Kdop18, Kdop26};
pub use quantized::{QuantizedKdop, QuantizedKdopQuery, Quantizer};
pub use swept::{swept_edge_kdops, swept_face_kdops, swept_vertex_kdops};
