//! The route report's Markdown page (`README.md`): the application of Yu,
//! Shen & Chang (2000), §3 and Fig. 2 — the inputs, each route's first
//! contact with its contact forms, and how they are computed.

use std::fmt::Write as _;
use std::path::Path;

use crate::harness::stamp::Stamp;
use crate::tin_contact::route::Flight;

use super::inputs::Inputs;
use super::text::{feature_name, fmt_point, heading_text, region_kind};

/// The first line of the README of every report (a folder whose README
/// starts with it may be replaced).
pub(super) const TITLE: &str = "# TIN object along a planned route: first contact with TIN terrain";

/// The report's `README.md`.
pub(super) fn markdown(
    inputs: &Inputs,
    flights: &[(Flight, f64)],
    stamp: &Stamp,
    out: &Path,
) -> String {
    let (om, tm) = (&inputs.object.mesh, &inputs.terrain.mesh);
    let mut s = String::new();
    let _ = writeln!(s, "{TITLE}\n");
    let _ = writeln!(
        s,
        "The application of Yu, Shen & Chang (2000), §3 and Fig. 2: an aircraft flown along a planned route \
         over terrain, both triangle meshes; where along the route does it first touch, and how? \
         Each route segment is one continuous-collision step; contacts are classified exactly into the \
         paper's six forms, solved in its order (f) → (e) → (d) → (abc), lower forms contained in higher \
         ones marked and left out (`src/tin_contact/`).\n"
    );
    let _ = writeln!(s, "{}\n", stamp.markdown_line());
    if inputs.scenario.is_some() {
        let _ = writeln!(
            s,
            "Regenerate: `cargo run --release -- route --scenario demo --out {}`\n",
            out.display()
        );
        let _ = writeln!(
            s,
            "The same flight from the files written here: `cargo run --release -- route --grid {0}/terrain.grid \
             --object {0}/aircraft.obj --route {0}/ridge-strike.route --heading follow`\n",
            out.display()
        );
    }
    let _ = writeln!(s, "| input | |\n|---|---|");
    let _ = writeln!(
        s,
        "| terrain | {} — {} vertices, {} triangles |",
        inputs.terrain_source,
        inputs.terrain.positions.len(),
        tm.num_faces()
    );
    let _ = writeln!(
        s,
        "| object | {} — {} vertices, {} triangles |",
        inputs.object_source,
        inputs.object.positions.len(),
        om.num_faces()
    );
    let _ = writeln!(s, "| heading | {} |", heading_text(&inputs.options));
    for (name, route, source) in &inputs.routes {
        let _ = writeln!(
            s,
            "| route `{name}` | {source}: {} waypoints, {:.1} long |",
            route.points().len(),
            route.distances().last().copied().unwrap_or(0.0)
        );
    }
    let _ = writeln!(s, "\n![route and first contact](route.png)\n");
    for ((name, route, _), (flight, seconds)) in inputs.routes.iter().zip(flights) {
        let _ = writeln!(s, "## `{name}`\n");
        match &flight.first {
            None => {
                let _ = writeln!(
                    s,
                    "**No contact**: the route clears the terrain ({} CCD steps, {} face pairs reached the narrow phase, {:.3} s).\n",
                    flight.steps.len(),
                    flight.stats.face_pairs_tested,
                    seconds
                );
            }
            Some(fc) => {
                let [a, b] = [route.points()[fc.segment], route.points()[fc.segment + 1]];
                let _ = writeln!(s, "| first contact | |\n|---|---|");
                let _ = writeln!(
                    s,
                    "| route segment | {} (waypoint {} {} → waypoint {} {}){} |",
                    fc.segment,
                    fc.segment,
                    fmt_point(&a),
                    fc.segment + 1,
                    fmt_point(&b),
                    if fc.turn {
                        ", while turning at its first waypoint"
                    } else {
                        ""
                    }
                );
                let _ = writeln!(
                    s,
                    "| parameter along the step | [{:.15}, {:.15}] (exact time bracketed) |",
                    fc.parameter[0], fc.parameter[1]
                );
                let _ = writeln!(s, "| reference point | {} |", fmt_point(&fc.position));
                let _ = writeln!(s, "| heading | {:.3}° |", fc.heading.to_degrees());
                let _ = writeln!(
                    s,
                    "| route time | {:.6} |\n| distance along the route | {:.3} |",
                    0.5 * (fc.time[0] + fc.time[1]),
                    fc.distance
                );
                let _ = writeln!(
                    s,
                    "| CCD steps flown | {} of {} ({} face pairs reached the narrow phase, {:.3} s) |\n",
                    flight.stats.steps_flown,
                    flight.steps.len(),
                    flight.stats.face_pairs_tested,
                    seconds
                );
                let _ = writeln!(
                    s,
                    "Contacts at the first time of impact (each reported once; *contains*: lower-form contacts \
                     at the same time marked and left out; *face pairs*: triangle pairs that found it):\n"
                );
                let _ = writeln!(
                    s,
                    "| form | object feature | terrain feature | region | contains | face pairs |\n|---|---|---|---|---|---|"
                );
                for c in &fc.contacts {
                    let _ = writeln!(
                        s,
                        "| ({}) {} | {} | {} | {} {} | {} | {} |",
                        c.form.letter(),
                        c.form.name(),
                        feature_name(om, c.a),
                        feature_name(tm, c.b),
                        region_kind(&c.region),
                        c.region
                            .points()
                            .iter()
                            .map(fmt_point)
                            .collect::<Vec<_>>()
                            .join(" "),
                        c.contains.len(),
                        c.face_pairs.len()
                    );
                }
                let _ = writeln!(s);
            }
        }
    }
    let _ = writeln!(
        s,
        "## How it is computed\n\n\
         - Motion: every vertex moves linearly within a step (a segment: pure translation; a turn sub-step: \
         each vertex on the chord of its arc). Broad phase: swept coordinate boxes (exact).\n\
         - Per triangle pair: the first time of impact `t*` (certified vertex–face / edge–edge solvers, exact \
         oracle where their brackets cannot separate the candidates), then exact incidence tests at the algebraic \
         `t*` give the smallest features of both triangles that contain the contact set: they name the form.\n\
         - Per mesh pair: contacts with the same features are one; visiting (f), (e), (d), (abc) in turn, a \
         contact whose features lie inside those of an accepted one at the same exact time is marked and left out \
         (the paper's Ψ, §3 step 5).\n\
         - Exact: time of impact, forms, marking. Floating point: region coordinates, and the route time, \
         distance and position derived from the bracket of `t*`.\n\
         - Checked by `tests/integration/tin_contact.rs` (six forms by hand, proptests against the brute-force oracle) and \
         `tests/integration/route.rs` (first contact where expected; clear routes; bad input).\n"
    );
    s
}
