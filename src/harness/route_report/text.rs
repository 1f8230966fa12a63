//! The route flights in words: features, regions and points as the
//! command's output and the report name them, and the summary of one
//! flight that `ccdlab route` prints.

use std::fmt::Write as _;

use crate::math::Vec3;
use crate::mesh::{Feature, TriMesh};
use crate::tin_contact::Region;
use crate::tin_contact::route::{Flight, FlightOptions, Heading};

/// A mesh feature in words, with its vertices.
pub(super) fn feature_name(mesh: &TriMesh, f: Feature) -> String {
    match f {
        Feature::Vertex(v) => format!("vertex {v}"),
        Feature::Edge(e) => {
            let [a, b] = mesh.edges()[e as usize];
            format!("edge {e} (v{a}–v{b})")
        }
        Feature::Face(k) => {
            let [a, b, c] = mesh.faces()[k as usize];
            format!("face {k} (v{a}, v{b}, v{c})")
        }
    }
}

/// The kind of a contact region.
pub(super) fn region_kind(r: &Region) -> &'static str {
    match r {
        Region::Point(_) => "point",
        Region::Segment(_) => "segment",
        Region::Polygon(_) => "polygon",
    }
}

/// A point with three decimals.
pub(super) fn fmt_point(p: &Vec3) -> String {
    format!("({:.3}, {:.3}, {:.3})", p.x, p.y, p.z)
}

/// What `ccdlab route` prints of one flight: where it first touches, with
/// each contact's form, features and region (a line each), or that the
/// route clears the terrain.
pub fn flight_summary(name: &str, flight: &Flight, object: &TriMesh, terrain: &TriMesh) -> String {
    let mut s = String::new();
    match &flight.first {
        None => {
            let _ = writeln!(
                s,
                "{name}: no contact — the route clears the terrain ({} CCD steps)",
                flight.steps.len()
            );
        }
        Some(fc) => {
            let _ = writeln!(
                s,
                "{name}: first contact on segment {} ({}), parameter {:.12}, reference point {}, time {:.6}, distance {:.3}",
                fc.segment,
                if fc.turn {
                    "turning at its first waypoint"
                } else {
                    "in flight"
                },
                0.5 * (fc.parameter[0] + fc.parameter[1]),
                fmt_point(&fc.position),
                0.5 * (fc.time[0] + fc.time[1]),
                fc.distance
            );
            for c in &fc.contacts {
                let _ = writeln!(
                    s,
                    "  ({}) {}: object {} / terrain {}, {} {}",
                    c.form.letter(),
                    c.form.name(),
                    feature_name(object, c.a),
                    feature_name(terrain, c.b),
                    region_kind(&c.region),
                    c.region
                        .points()
                        .iter()
                        .map(fmt_point)
                        .collect::<Vec<_>>()
                        .join(" ")
                );
            }
        }
    }
    s
}

/// The heading option in words.
pub(super) fn heading_text(o: &FlightOptions) -> String {
    match o.heading {
        Heading::FollowRoute => format!(
            "follows the route (turns at waypoints in sub-steps of at most {:.1}°)",
            o.max_turn_step.to_degrees()
        ),
        Heading::Fixed(h) => format!("fixed at {:.3}° (translation only)", h.to_degrees()),
    }
}
