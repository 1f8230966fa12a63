//! Procedural frame sequences: the embedded default scene, a cloth falling
//! onto a spinning sphere (see [`ClothSphere`]), deterministic bit for bit.

mod cloth_sphere;
mod icosphere;
mod pbd;
mod rotation;
mod scene_params;

pub use cloth_sphere::{CLOTH_SIDE, ClothSphere, SPHERE_RADIUS, generate};
pub use icosphere::icosphere;
pub use scene_params::{
    GenerateError, MAX_CLOTH_VERTEX_FRAMES, MAX_FRAMES, MAX_GAP, MAX_RESOLUTION,
    MAX_SPHERE_SUBDIVISIONS, MAX_SUBSTEPS, SceneParams,
};
