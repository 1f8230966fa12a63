//! The route report's `result.json`: per route its waypoints, the CCD steps
//! flown and the first contact with every contact form (Yu, Shen & Chang
//! 2000, §3).

use serde::Serialize;

use crate::harness::stamp::Stamp;
use crate::mesh::TriMesh;
use crate::tin_contact::MeshContact;

use super::text::{feature_name, region_kind};

/// One contact of a first contact.
#[derive(Serialize)]
pub(super) struct JsonContact {
    pub(super) form: &'static str,
    pub(super) letter: char,
    pub(super) object_feature: String,
    pub(super) terrain_feature: String,
    pub(super) step_time: [f64; 2],
    pub(super) region: &'static str,
    pub(super) points: Vec<[f64; 3]>,
    pub(super) contains: usize,
    pub(super) face_pairs: usize,
    pub(super) penetrating: bool,
    pub(super) degenerate: bool,
}

/// A route's first contact.
#[derive(Serialize)]
pub(super) struct JsonFirst {
    pub(super) segment: usize,
    pub(super) turn: bool,
    pub(super) parameter: [f64; 2],
    pub(super) time: [f64; 2],
    pub(super) distance: f64,
    pub(super) position: [f64; 3],
    pub(super) heading_deg: f64,
    pub(super) contacts: Vec<JsonContact>,
}

/// One route and its flight.
#[derive(Serialize)]
pub(super) struct JsonRoute {
    pub(super) name: String,
    pub(super) source: String,
    pub(super) waypoints: Vec<[f64; 4]>,
    pub(super) ccd_steps: usize,
    pub(super) steps_flown: usize,
    pub(super) face_pairs_tested: usize,
    pub(super) seconds: f64,
    pub(super) first_contact: Option<JsonFirst>,
}

/// `result.json`.
#[derive(Serialize)]
pub(super) struct JsonReport {
    pub(super) stamp: Stamp,
    pub(super) terrain: String,
    pub(super) terrain_faces: usize,
    pub(super) object: String,
    pub(super) object_faces: usize,
    pub(super) heading: String,
    pub(super) routes: Vec<JsonRoute>,
}

/// A contact as JSON, its features in words.
pub(super) fn json_contact(c: &MeshContact, object: &TriMesh, terrain: &TriMesh) -> JsonContact {
    JsonContact {
        form: c.form.name(),
        letter: c.form.letter(),
        object_feature: feature_name(object, c.a),
        terrain_feature: feature_name(terrain, c.b),
        step_time: c.time_bounds,
        region: region_kind(&c.region),
        points: c.region.points().iter().map(|p| [p.x, p.y, p.z]).collect(),
        contains: c.contains.len(),
        face_pairs: c.face_pairs.len(),
        penetrating: c.penetrating,
        degenerate: c.degenerate,
    }
}
