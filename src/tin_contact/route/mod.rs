//! The paper's application (Yu, Shen & Chang 2000, §3 and Fig. 2): a TIN
//! aircraft flown along a planned route over TIN terrain, reporting where
//! along the route it first touches the ground and in which contact forms.
//!
//! - [`waypoints`]: the route (3D polyline, times), from a file or inline.
//! - [`terrain`]: TINs from mesh files or height grids; surface lookup.
//! - [`flight`]: the CCD steps along the route and the first contact.
//! - [`scenario`]: the shipped demonstration, generated in code.

mod error;
pub mod flight;
pub mod scenario;
pub mod terrain;
pub mod waypoints;

pub use error::RouteError;
pub use flight::{
    FirstContact, Flight, FlightOptions, FlightStep, Heading, MAX_FLIGHT_STEPS, MIN_TURN_STEP,
    MIN_TURN_STEP_DEG, StepKind, fly,
};
pub use terrain::{HeightGridSpec, MAX_COORDINATE, SurfaceLookup, Tin};
pub use waypoints::Route;
