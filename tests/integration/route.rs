//! The route application (Yu, Shen & Chang 2000, §3): an object flown along
//! a route over TIN terrain — first contact where a hand computation puts
//! it, in the expected form; no contact when the route clears the terrain;
//! bad input refused by `ccdlab route` with the file and element named and
//! nothing written.

use std::cmp::Ordering;
use std::path::Path;
use std::process::Command;

use ccdlab::exact::{Algebraic, Dyadic};
use ccdlab::math::Vec3;
use ccdlab::mesh::Feature;
use ccdlab::tin_contact::Form;
use ccdlab::tin_contact::route::scenario::demo;
use ccdlab::tin_contact::route::{FlightOptions, Heading, HeightGridSpec, Route, Tin, fly};

use crate::common::Scratch;

fn v(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(x, y, z)
}

/// Flat terrain z = 0 over [0, 10]², 11 × 11 samples (vertex (i, j) at
/// x = j, y = i, index 11·i + j).
fn flat() -> Tin {
    HeightGridSpec {
        origin: [0.0, 0.0],
        step: [1.0, 1.0],
        rows: 11,
        cols: 11,
        heights: vec![0.0; 121],
    }
    .to_tin(Path::new("<flat>"))
    .unwrap()
}

/// A tetrahedron hanging point-down: apex (0, 0, −1) below a horizontal
/// base triangle at z = 0.
fn dart() -> Tin {
    let pos = vec![
        v(0.0, 0.0, -1.0),
        v(1.0, 0.0, 0.0),
        v(-0.5, 0.75, 0.0),
        v(-0.5, -0.75, 0.0),
    ];
    Tin::new(
        "object",
        Path::new("<dart>"),
        pos,
        vec![[0, 2, 1], [0, 3, 2], [0, 1, 3], [1, 2, 3]],
    )
    .unwrap()
}

fn route(pts: &[[f64; 3]]) -> Route {
    Route::new(
        Path::new("<test>"),
        pts.iter().map(|p| v(p[0], p[1], p[2])).collect(),
        None,
        1.0,
    )
    .unwrap()
}

fn is_half(t: &Algebraic) -> bool {
    t.clone()
        .compare(&mut Algebraic::exact(Dyadic::new(1.into(), 1)))
        == Ordering::Equal
}

/// Descends from 4 above to 2 below a landing point `(x, y)` over one
/// segment; the apex touches z = 0 at exactly s = ½.
fn land_at(x: f64, y: f64) -> ccdlab::tin_contact::route::FirstContact {
    let r = route(&[[x - 3.0, y, 3.0], [x + 3.0, y, -1.0]]);
    let f = fly(&flat(), &dart(), &r, &FlightOptions::default()).unwrap();
    f.first.expect("a contact")
}

#[test]
fn first_contact_where_expected_in_each_vertex_form() {
    let terrain = flat();
    let vid = |i: u32, j: u32| 11 * i + j;
    // Interior of a triangle: x + y = 10.75 < 11 in cell (5, 5).
    let c = land_at(5.25, 5.5);
    assert_eq!(c.segment, 0);
    assert!(!c.turn);
    assert_eq!(c.parameter, [0.5, 0.5]);
    assert_eq!(c.position, v(5.25, 5.5, 1.0));
    assert_eq!(c.contacts.len(), 1);
    assert_eq!(c.contacts[0].form, Form::VertexFace);
    assert_eq!(c.contacts[0].a, Feature::Vertex(0));
    assert!(is_half(&c.contacts[0].time));
    // On the grid line x = 5 between (5, 5) and (5, 6): vertex–edge.
    let c = land_at(5.0, 5.3);
    assert_eq!(c.contacts.len(), 1);
    assert_eq!(c.contacts[0].form, Form::VertexEdge);
    let e = terrain.mesh().find_edge(vid(5, 5), vid(6, 5)).unwrap();
    assert_eq!(c.contacts[0].b, Feature::Edge(e));
    // On a grid vertex: vertex–vertex, found by every face pair around it.
    let c = land_at(5.0, 5.0);
    assert_eq!(c.contacts.len(), 1);
    assert_eq!(c.contacts[0].form, Form::VertexVertex);
    assert_eq!(c.contacts[0].b, Feature::Vertex(vid(5, 5)));
    assert_eq!(c.contacts[0].face_pairs.len(), 3 * 6);
    // On a cell diagonal (x + y = 11): vertex–edge with the diagonal.
    let c = land_at(5.5, 5.5);
    assert_eq!(c.contacts[0].form, Form::VertexEdge);
    let e = terrain.mesh().find_edge(vid(5, 6), vid(6, 5)).unwrap();
    assert_eq!(c.contacts[0].b, Feature::Edge(e));
}

#[test]
fn flat_plate_landing_flat_gives_face_face_contacts_only() {
    // A horizontal square plate, 0.5 × 0.5, descending vertically onto the
    // flat terrain across a grid line and a diagonal, its left edge landing
    // on the grid line x = 5.
    let pos = vec![
        v(-0.25, -0.25, 0.0),
        v(0.25, -0.25, 0.0),
        v(0.25, 0.25, 0.0),
        v(-0.25, 0.25, 0.0),
    ];
    let plate = Tin::new(
        "object",
        Path::new("<plate>"),
        pos,
        vec![[0, 1, 2], [0, 2, 3]],
    )
    .unwrap();
    let r = route(&[[5.25, 5.1, 2.0], [5.25, 5.1, -2.0]]);
    let f = fly(&flat(), &plate, &r, &FlightOptions::default()).unwrap();
    let c = f.first.unwrap();
    assert_eq!(c.parameter, [0.5, 0.5]);
    assert!(c.contacts.len() >= 3, "{:#?}", c.contacts);
    assert!(c.contacts.iter().all(|k| k.form == Form::FaceFace));
    assert!(c.contacts.iter().all(|k| is_half(&k.time)));
    // The terrain triangles left of x = 5 touch the plate only along its
    // left edge (edge–edge, segments) and at corners: contained in the
    // face–face contacts, marked, not reported.
    assert!(c.contacts.iter().any(|k| !k.contains.is_empty()));
    let area: f64 = c
        .contacts
        .iter()
        .map(|k| {
            let p = k.region.points();
            (1..p.len().saturating_sub(1))
                .map(|i| (p[i] - p[0]).cross(&(p[i + 1] - p[0])).z * 0.5)
                .sum::<f64>()
                .abs()
        })
        .sum();
    // The face–face regions tile the plate (area 0.25) — each plate
    // triangle against each terrain triangle it overlaps.
    assert!((area - 0.25).abs() < 1e-12, "{area}");
}

#[test]
fn route_that_clears_the_terrain_has_no_contact() {
    let r = route(&[[1.0, 1.0, 1.5], [9.0, 9.0, 1.001], [9.0, 1.0, 1.001]]);
    let f = fly(&flat(), &dart(), &r, &FlightOptions::default()).unwrap();
    assert!(f.first.is_none());
    assert_eq!(f.stats.steps_flown, 2);
    // Grazing exactly: the apex reaches z = 0 at the last waypoint.
    let r = route(&[[1.0, 1.2, 1.5], [9.0, 9.3, 1.0]]);
    let f = fly(&flat(), &dart(), &r, &FlightOptions::default()).unwrap();
    let c = f.first.unwrap();
    assert_eq!(c.parameter, [1.0, 1.0]);
}

#[test]
fn heading_follows_the_route_through_a_turn() {
    // East, then a 90° turn at (5, 2, 3) in 5° sub-steps, then north while
    // descending. The dart's apex is at the reference point, so a turn does
    // not move it; add a nose that hangs lower, 3 m ahead.
    let pos = vec![
        v(3.0, 0.0, -1.0),
        v(1.0, 0.0, 0.0),
        v(-0.5, 0.75, 0.0),
        v(-0.5, -0.75, 0.0),
    ];
    let nosey = Tin::new(
        "object",
        Path::new("<nose>"),
        pos,
        vec![[0, 2, 1], [0, 3, 2], [0, 1, 3], [1, 2, 3]],
    )
    .unwrap();
    let r = route(&[[1.0, 2.25, 3.0], [5.0, 2.25, 3.0], [5.0, 8.25, -3.0]]);
    let opts = FlightOptions {
        heading: Heading::FollowRoute,
        max_turn_step: 5f64.to_radians(),
    };
    let f = fly(&flat(), &nosey, &r, &opts).unwrap();
    // Segment 0, the turn in 18 sub-steps (19 if 90°/5° rounds up), segment 1.
    assert!((20..=21).contains(&f.steps.len()), "{}", f.steps.len());
    let c = f.first.unwrap();
    assert_eq!(c.segment, 1);
    assert!(!c.turn);
    // Reference z = 3 − 6s, nose at z − 1 = 0 ⇒ s = 1/3; nose 3 m north.
    assert!((c.parameter[0] - 1.0 / 3.0).abs() < 1e-15);
    let p = c.contacts[0].region.centroid();
    assert!((p - v(5.0, 2.25 + 2.0 + 3.0, 0.0)).norm() < 1e-12, "{p:?}");
    assert_eq!(c.contacts[0].a, Feature::Vertex(0));
    // With a fixed heading the nose points east and lands 3 m east.
    let f = fly(&flat(), &nosey, &r, &FlightOptions::default()).unwrap();
    let p = f.first.unwrap().contacts[0].region.centroid();
    assert!((p - v(8.0, 4.25, 0.0)).norm() < 1e-12, "{p:?}");
}

#[test]
fn demo_strikes_the_ridge_and_clears_it_higher() {
    let sc = demo().unwrap();
    let strike = fly(&sc.terrain, &sc.object, &sc.routes[0].1, &sc.options).unwrap();
    let c = strike.first.expect("the low route strikes the ridge");
    assert_eq!(c.segment, 2);
    assert!(c.position.x > 1800.0 && c.position.x < 2100.0);
    assert!(!c.contacts.is_empty());
    let clear = fly(&sc.terrain, &sc.object, &sc.routes[1].1, &sc.options).unwrap();
    assert!(clear.first.is_none());
}

// ------------------------------------------------------------ CLI

fn ccdlab(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ccdlab"))
        .args(args)
        .output()
        .expect("run ccdlab");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout),
    )
}

/// Writes `text` to the file `name` in `d`; its path as an argument.
fn file(d: &Scratch, name: &str, text: &str) -> String {
    d.file(name, text).to_string_lossy().into_owned()
}

const TETRA: &str =
    "v 0 0 -1\nv 1 0 0\nv -0.5 0.75 0\nv -0.5 -0.75 0\nf 1 3 2\nf 1 4 3\nf 1 2 4\nf 2 3 4\n";
const GRID: &str = "grid 3 3 0 0 5 5\n0 0 0\n0 0 0\n0 0 0\n";

#[test]
fn cli_flies_files_and_writes_the_report() {
    let d = Scratch::new("route-ok");
    let (grid, obj) = (file(&d, "t.grid", GRID), file(&d, "o.obj", TETRA));
    let route = file(&d, "r.route", "# x y z\n2 2 3\n8 8 -1\n");
    let out = d.join("report");
    let (ok, text) = ccdlab(&[
        "route",
        "--grid",
        &grid,
        "--object",
        &obj,
        "--route",
        &route,
        "--out",
        &out.to_string_lossy(),
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("first contact on segment 0"), "{text}");
    assert!(text.contains("vertex"), "{text}");
    for f in ["README.md", "result.json", "route.png"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let md = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(md.contains("commit:") && md.contains("threads:"), "{md}");
    // Inline route, terrain as a mesh file: the same first contact.
    let terrain_obj = file(
        &d,
        "t.obj",
        "v 0 0 0\nv 10 0 0\nv 0 10 0\nv 10 10 0\nf 1 2 3\nf 4 3 2\n",
    );
    let (ok, text2) = ccdlab(&[
        "route",
        "--terrain",
        &terrain_obj,
        "--object",
        &obj,
        "--route",
        "2,2,3;8,8,-1",
    ]);
    assert!(ok, "{text2}");
    assert!(text2.contains("parameter 0.500000000000"), "{text2}");
    assert!(text.contains("parameter 0.500000000000"), "{text}");
}

/// Input files and a report folder whose paths are not UTF-8 (Linux
/// allows any bytes but `/` and NUL in a name): the route is read from its
/// file like the terrain and the object (not refused as an argument), and
/// the report names all three with U+FFFD in place of the bytes, in valid
/// JSON; a route that names no file is an error naming it so, exit 1.
#[cfg(unix)]
#[test]
fn cli_flies_files_whose_paths_are_not_utf8() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let d = Scratch::new("route-non-utf8");
    let dir = d.join(OsStr::from_bytes(b"in-\xff"));
    std::fs::create_dir(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let (grid, obj) = (write("t.grid", GRID), write("o.obj", TETRA));
    let route = write("r.route", "# x y z\n2 2 3\n8 8 -1\n");
    let out = d.join(OsStr::from_bytes(b"report-\xfe"));
    let run = |route: &Path, out: &Path| {
        Command::new(env!("CARGO_BIN_EXE_ccdlab"))
            .arg("route")
            .args([OsStr::new("--grid"), grid.as_os_str()])
            .args([OsStr::new("--object"), obj.as_os_str()])
            .args([OsStr::new("--route"), route.as_os_str()])
            .args([OsStr::new("--out"), out.as_os_str()])
            .output()
            .expect("run ccdlab")
    };
    let done = run(&route, &out);
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(0), "{err}");
    let shown = |p: &Path| p.to_string_lossy().into_owned();
    assert!(shown(&route).contains("in-\u{fffd}"));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("result.json")).unwrap()).unwrap();
    assert_eq!(json["routes"][0]["name"], "r");
    assert_eq!(
        json["routes"][0]["source"],
        format!("file `{}`", shown(&route))
    );
    assert_eq!(json["object"], format!("mesh `{}`", shown(&obj)));
    let md = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(md.contains(&format!("file `{}`", shown(&route))), "{md}");

    let missing = dir.join(OsStr::from_bytes(b"gone-\xff.route"));
    let refused = run(&missing, &d.join("unwritten"));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("`{}` is not a file", shown(&missing))),
        "{err}"
    );
    assert!(!d.join("unwritten").exists());
}

#[test]
fn cli_bad_input_names_file_and_element_and_writes_nothing() {
    let d = Scratch::new("route-bad");
    let grid = file(&d, "t.grid", GRID);
    let obj = file(&d, "o.obj", TETRA);
    let out = d.join("report");
    let out_s = out.to_string_lossy().into_owned();
    // `--grid GRID` (or `--terrain FILE`), `--object`, `--route`, extras.
    let flight = |terrain: [&str; 2], object: &str, route: &str, extra: &[&str]| -> Vec<String> {
        terrain
            .iter()
            .chain(&["--object", object, "--route", route])
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    let on_grid = ["--grid", grid.as_str()];
    let line = "1,1,1;2,2,2";
    let cases: Vec<(Vec<String>, &str)> = vec![
        // Out-of-range face index in the object.
        (
            flight(
                on_grid,
                &file(&d, "bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n"),
                line,
                &[],
            ),
            "bad.obj:4",
        ),
        // Empty object mesh (no faces).
        (
            flight(on_grid, &file(&d, "empty.obj", "v 0 0 0\n"), line, &[]),
            "no faces",
        ),
        // An object of edges only (`l` lines): said so, not "no edges".
        (
            flight(
                on_grid,
                &file(&d, "wire.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\nl 2 3\n"),
                line,
                &[],
            ),
            "wire.obj: no triangles, only 2 edge(s) in no face",
        ),
        // Terrain mesh with an out-of-range index.
        (
            flight(
                [
                    "--terrain",
                    &file(&d, "t.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n"),
                ],
                &obj,
                line,
                &[],
            ),
            "t.obj:4",
        ),
        // NaN coordinate in the object.
        (
            flight(
                on_grid,
                &file(&d, "nan.obj", "v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"),
                line,
                &[],
            ),
            "nan.obj",
        ),
        // Empty route file, one-point route, NaN waypoint.
        (
            flight(on_grid, &obj, &file(&d, "empty.route", "# nothing\n"), &[]),
            "empty.route: the route has 0 waypoint",
        ),
        (
            flight(on_grid, &obj, &file(&d, "one.route", "1 2 3\n"), &[]),
            "one.route: the route has 1 waypoint",
        ),
        (
            flight(
                on_grid,
                &obj,
                &file(&d, "nan.route", "1 2 3\n4 NaN 6\n"),
                &[],
            ),
            "nan.route: waypoint 1 (line 2)",
        ),
        (
            flight(on_grid, &obj, "1,2,3", &[]),
            "<inline>: the route has 1 waypoint",
        ),
        // NaN height in the grid.
        (
            flight(
                [
                    "--grid",
                    &file(&d, "nan.grid", "grid 2 2 0 0 1 1\n0 0\n0 nan\n"),
                ],
                &obj,
                line,
                &[],
            ),
            "row 1, column 1",
        ),
        // A turn step below 0.01° (10⁻³⁰⁰° grew memory without bound).
        (
            flight(
                on_grid,
                &obj,
                line,
                &["--heading", "follow", "--turn-step", "0.001"],
            ),
            "invalid --turn-step: 0.001 is not in [0.01, 180]",
        ),
        // Coordinates beyond ±1e60 (near f64::MAX the plot never finished
        // and contact regions were NaN); in a route file, named with its
        // line (was "invalid route: its length overflows").
        (
            flight(
                [
                    "--terrain",
                    &file(
                        &d,
                        "far.obj",
                        "v 1e61 0 0\nv 2e61 0 0\nv 1e61 1e61 0\nf 1 2 3\n",
                    ),
                ],
                &obj,
                line,
                &[],
            ),
            "far.obj: terrain vertex 0: coordinate 1e61 is beyond ±1e60",
        ),
        (
            flight(
                on_grid,
                &obj,
                &file(&d, "far.route", "-1e308 -1e308 400\n1e308 1e308 390\n"),
                &[],
            ),
            "far.route: waypoint 0 (line 1): coordinate -1e308 is beyond ±1e60",
        ),
        // One height too many in a grid: its line.
        (
            flight(
                [
                    "--grid",
                    &file(&d, "long.grid", "grid 2 2 0 0 1 1\n0 0\n0 0\n0\n"),
                ],
                &obj,
                line,
                &[],
            ),
            "long.grid:4: height `0` is one too many",
        ),
        // Neither a file nor an inline route.
        (flight(on_grid, &obj, "nowhere.route", &[]), "nowhere.route"),
    ];
    for (args, needle) in cases {
        let mut all = vec!["route".to_string()];
        all.extend(args);
        all.extend(["--out".to_string(), out_s.clone()]);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let (ok, text) = ccdlab(&refs);
        assert!(!ok, "{all:?} succeeded");
        assert!(
            text.contains(needle),
            "{all:?}: expected `{needle}` in: {text}"
        );
        assert!(!text.contains("panicked"), "{text}");
        assert!(!out.exists(), "{all:?} wrote output");
    }
}
