//! Stage 0, input: triangle meshes, their topology, frames and steps.

mod error;
mod frame;
mod trimesh;

pub use error::MeshError;
pub use frame::{Step, check_finite};
pub use trimesh::{Feature, NO_OWNER, TriMesh};
