//! The shipped demonstration, built deterministically in code (no random
//! numbers, no files): a 3.2 km × 3.2 km TIN terrain from a 65 × 65 height
//! grid with a ridge and hills, a small TIN aircraft (fuselage, wings, fin;
//! 14 triangles), and two planned routes over the same ground track — one
//! low enough to strike the ridge, one that clears it. It stands in for the
//! paper's Fig. 2 ("飞行器沿预先规划好的航线飞行时, 在红线区域内发生碰地"; Yu et
//! al. 2000, §3; docs/design.md §3).

use std::path::Path;

use super::error::RouteError;
use super::flight::{FlightOptions, Heading};
use super::terrain::{HeightGridSpec, Tin, generated};
use super::waypoints::Route;
use crate::math::{Real, Vec3};

/// A terrain, an object and named routes.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The terrain's height grid.
    pub grid: HeightGridSpec,
    /// The terrain TIN (from [`Scenario::grid`]).
    pub terrain: Tin,
    /// The object TIN, in its own frame.
    pub object: Tin,
    /// `(name, route)`.
    pub routes: Vec<(String, Route)>,
    /// Flight options.
    pub options: FlightOptions,
}

/// The demo terrain height at `(x, y)`, rounded to 1/16 m: a slope, a
/// ridge across x ≈ 2000 m whose crest rises and falls along y, a hill and
/// small ripples.
pub fn demo_height(x: Real, y: Real) -> Real {
    let ridge = 430.0
        * (-(x - 2000.0).powi(2) / (2.0 * 220.0 * 220.0)).exp()
        * (0.65 + 0.35 * (y / 520.0).cos());
    let hill =
        180.0 * (-((x - 900.0).powi(2) + (y - 2400.0).powi(2)) / (2.0 * 300.0 * 300.0)).exp();
    let ripple = 12.0 * (x / 170.0).sin() * (y / 230.0).cos();
    let h = 60.0 + 0.02 * x + ridge + hill + ripple;
    (h * 16.0).round() / 16.0
}

/// The demo aircraft, `+x` forward, reference point at the origin (metres):
/// an octahedral fuselage (8 triangles), two wings (2 each, slight
/// dihedral), a fin (1), and a tailplane (1).
pub fn demo_aircraft() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let v = |x: Real, y: Real, z: Real| Vec3::new(x, y, z);
    let pos = vec![
        // Fuselage: nose, tail, left, right, top, bottom (0–5).
        v(12.0, 0.0, 0.0),
        v(-10.0, 0.0, 0.5),
        v(0.0, 1.5, 0.0),
        v(0.0, -1.5, 0.0),
        v(0.0, 0.0, 1.75),
        v(0.0, 0.0, -1.5),
        // Wings: root front, root back, left tip front/back, right tip (6–11).
        v(3.0, 0.0, 0.0),
        v(-3.0, 0.0, 0.0),
        v(-1.0, 11.0, 0.75),
        v(-3.5, 11.0, 0.75),
        v(-1.0, -11.0, 0.75),
        v(-3.5, -11.0, 0.75),
        // Fin (12–14) and tailplane tips (15–16).
        v(-7.0, 0.0, 0.75),
        v(-10.0, 0.0, 0.75),
        v(-10.5, 0.0, 4.5),
        v(-10.0, 4.0, 0.75),
        v(-10.0, -4.0, 0.75),
    ];
    let faces = vec![
        [0, 2, 4],
        [0, 4, 3],
        [0, 5, 2],
        [0, 3, 5],
        [1, 4, 2],
        [1, 3, 4],
        [1, 2, 5],
        [1, 5, 3],
        [6, 7, 8],
        [7, 9, 8],
        [6, 10, 7],
        [7, 10, 11],
        [12, 13, 14],
        [15, 12, 16],
    ];
    (pos, faces)
}

/// The demo scenario (module doc). Routes: `ridge-strike` descends towards
/// the ridge and hits it; `ridge-clear` flies the same ground track 320 m
/// higher and clears everything. Heading follows the route; 60 m/s.
pub fn demo() -> Result<Scenario, RouteError> {
    let (rows, cols, step) = (65usize, 65usize, 50.0);
    let mut heights = Vec::with_capacity(rows * cols);
    for i in 0..rows {
        for j in 0..cols {
            heights.push(demo_height(j as Real * step, i as Real * step));
        }
    }
    let grid = HeightGridSpec {
        origin: [0.0, 0.0],
        step: [step, step],
        rows,
        cols,
        heights,
    };
    let terrain = grid.to_tin(&generated())?;
    let (pos, faces) = demo_aircraft();
    let object = Tin::new("object", &generated(), pos, faces)?;
    let track = [
        [200.0, 2600.0, 400.0],
        [900.0, 1900.0, 390.0],
        [1500.0, 1200.0, 380.0],
        [2100.0, 700.0, 380.0],
        [3000.0, 300.0, 400.0],
    ];
    let speed = 60.0;
    let strike: Vec<Vec3> = track.iter().map(|p| Vec3::new(p[0], p[1], p[2])).collect();
    let clear: Vec<Vec3> = strike
        .iter()
        .map(|p| p + Vec3::new(0.0, 0.0, 320.0))
        .collect();
    let routes = vec![
        (
            "ridge-strike".to_string(),
            Route::new(Path::new("<demo ridge-strike>"), strike, None, speed)?,
        ),
        (
            "ridge-clear".to_string(),
            Route::new(Path::new("<demo ridge-clear>"), clear, None, speed)?,
        ),
    ];
    Ok(Scenario {
        grid,
        terrain,
        object,
        routes,
        options: FlightOptions {
            heading: Heading::FollowRoute,
            ..FlightOptions::default()
        },
    })
}
