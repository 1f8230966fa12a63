//! Side track: discrete (a posteriori) detectors that sit beside the CCD
//! pipeline for comparison, and their comparison with parry3d-f64.
//!
//! - [`sphere_sphere()`], [`sphere_cuboid()`]: Trushin 2015 (Software & Systems
//!   4(112)), with 4×4 world-from-local matrices ([`frame`]).
//! - [`cylinder_heightfield`]: Strashnov & Torgashev 2020 (International
//!   Journal of Open Information Technologies), cylinder vs regular height
//!   grid ([`heightfield`]) with a contact manifold.
//! - `parry_compare`: the same inputs as parry3d-f64 shapes, and the
//!   comparison measures.
//! - [`scenes`]: seeded random configurations and the scripted scenes
//!   (barrels on asphalt with a curb, a wheel over a hill).

pub mod cylinder_heightfield;
mod error;
pub mod frame;
pub mod heightfield;
#[cfg(feature = "baselines")]
pub mod parry_compare;
pub mod scenes;
mod shapes;
pub mod sphere_cuboid;
pub mod sphere_sphere;

pub use error::DiscreteError;
pub use frame::Frame;
pub use heightfield::HeightGrid;
pub use shapes::{AXIS_UNIT_TOLERANCE, Cuboid, Cylinder, MAX_MAGNITUDE, Sphere};
pub use sphere_cuboid::sphere_cuboid;
pub use sphere_sphere::{PositionClass, SphereContact, sphere_sphere};
