//! Stage 0, input: triangle meshes, their topology, frames and steps.

mod error;
mod frame;
mod obj;
mod ply;
mod ply_header;
mod read;
mod trimesh;

pub use error::MeshError;
pub use frame::{Step, check_finite, check_frame};
pub use obj::{parse_obj, read_obj, write_obj};
pub use ply::{parse_ply, read_ply, write_ply};
pub(crate) use read::first_face_difference;
pub use read::{
    MeshData, MeshFormat, check_same_topology, read_frame, read_frame_mesh, read_mesh, read_step,
};
pub use trimesh::{Feature, NO_OWNER, TriMesh, check_faces, check_mesh};
