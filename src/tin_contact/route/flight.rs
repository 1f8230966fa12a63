//! The paper's application (Yu et al. 2000, §3, Fig. 2): a TIN object (an
//! aircraft) flown along a planned route over TIN terrain, reporting where
//! along the route it first touches the ground, with the contact forms.
//!
//! **Motion.** The object is given in its own frame (`+x` forward, `+z` up,
//! the origin is the reference point that follows the route). Its pose is a
//! position and a heading `ψ` (yaw about `+z`): `x = P + R_z(ψ)·x_local`.
//! Each route segment is one CCD step: the object is translated from
//! waypoint `k` to `k + 1` with a fixed heading, every vertex moving linearly
//! (docs/design.md §1), so the step is exact for the rounded `f64` end positions.
//! With [`Heading::FollowRoute`], `ψ` is the segment's horizontal direction,
//! and at each waypoint the object turns in place from the previous heading
//! to the next in sub-steps of at most [`FlightOptions::max_turn_step`];
//! within a sub-step each vertex moves on the chord between its two rotated
//! positions (linear CCD), which stays within `r·(1 − cos(Δψ/2))` of the
//! true arc for a vertex at distance `r` from the vertical axis — with the
//! default 5° sub-steps, `0.001·r` (a deviation from a rigid rotation; the
//! paper does not model turns). Pitch and roll are not modelled. A turn step
//! is at least [`MIN_TURN_STEP_DEG`] (0.01°, at most 18,000 sub-steps per
//! turn, `4·10⁻⁹·r` from the arc), and a flight has at most
//! [`MAX_FLIGHT_STEPS`] CCD steps, so that the work and memory stay bounded
//! by the route's length, not by a tiny step.
//!
//! **Broad phase.** The object's swept box per step against the terrain
//! faces' boxes (computed once; coordinate slabs, exact), then face pairs by
//! swept boxes; the narrow phase and classification are
//! [`crate::tin_contact::mesh_contacts_among`].
//!
//! **Result.** The first step with a contact, the exact time `t*` within it
//! (for a segment, the parameter along the segment; for a turn, the fraction
//! of the sub-step), the reference point's position and the route time and
//! distance there (`f64`, from the bracket of `t*`), and the contacts at
//! `t*` with their forms. The flight stops there: later contacts would be
//! after the crash.

use std::f64::consts::PI;

use super::error::RouteError;
use super::terrain::Tin;
use super::waypoints::Route;
use crate::bounding_volume::{Kdop6, swept_face_kdops, swept_vertex_kdops};
use crate::math::{Real, Vec3};
use crate::mesh::Step;
use crate::tin_contact::mesh_pair::{MeshContact, mesh_contacts_among};

/// The smallest [`FlightOptions::max_turn_step`], in degrees: 0.01°. A turn
/// (at most 180°) then has at most 18,000 sub-steps, and a vertex at
/// distance `r` from the vertical axis leaves its arc by at most
/// `r·(1 − cos(0.005°)) ≈ 4·10⁻⁹·r`; a smaller step buys no accuracy and
/// costs a CCD step each (docs/notes/side-track-limits.md).
pub const MIN_TURN_STEP_DEG: Real = 0.01;

/// [`MIN_TURN_STEP_DEG`] in radians.
pub const MIN_TURN_STEP: Real = MIN_TURN_STEP_DEG.to_radians();

/// The most CCD steps (segments and turn sub-steps) a flight may have:
/// 1,000,000, about 80 MB of planned steps. Each is a CCD step of the whole
/// object against the terrain near it; a route that needs more is refused
/// before any is flown.
pub const MAX_FLIGHT_STEPS: usize = 1_000_000;

/// How the object is oriented along the route.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Heading {
    /// A fixed yaw (radians about `+z`, `0` = as modelled): the object is
    /// only translated.
    Fixed(Real),
    /// The object's `+x` axis points along each segment's horizontal
    /// direction (kept from the previous segment for a vertical one); it
    /// turns in place at the waypoints.
    FollowRoute,
}

/// Options of [`fly`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlightOptions {
    /// Heading mode.
    pub heading: Heading,
    /// Largest heading change of one turn sub-step (radians, from
    /// [`MIN_TURN_STEP`] to π).
    pub max_turn_step: Real,
}

impl Default for FlightOptions {
    fn default() -> FlightOptions {
        FlightOptions {
            heading: Heading::Fixed(0.0),
            max_turn_step: 5.0_f64.to_radians(),
        }
    }
}

/// What a CCD step of the flight does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// Translation along route segment `k` (waypoint `k` to `k + 1`).
    Segment,
    /// A turn sub-step at waypoint `k` (before segment `k`).
    Turn,
}

/// One CCD step of the flight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlightStep {
    /// Segment or turn.
    pub kind: StepKind,
    /// The route segment it belongs to (a turn precedes its segment).
    pub segment: usize,
    /// Reference point at `t = 0` and `t = 1`.
    pub position: [Vec3; 2],
    /// Heading at `t = 0` and `t = 1`.
    pub heading: [Real; 2],
}

/// Where the object first touches the terrain.
#[derive(Debug, Clone)]
pub struct FirstContact {
    /// Index of the step in [`Flight::steps`].
    pub step: usize,
    /// The route segment (for a turn: the segment it precedes; the turn is
    /// at waypoint `segment`).
    pub segment: usize,
    /// Whether the contact happens during a turn.
    pub turn: bool,
    /// Doubles around the exact `t*` of the step: the parameter along the
    /// segment (fraction of the turn sub-step for a turn).
    pub parameter: [Real; 2],
    /// Route time at the contact (`f64`, from the parameter's bracket).
    pub time: [Real; 2],
    /// Arc length along the route at the contact.
    pub distance: Real,
    /// Reference point at the contact.
    pub position: Vec3,
    /// Heading at the contact (radians).
    pub heading: Real,
    /// The contacts at `t*` (object = mesh A, terrain = mesh B), each
    /// reported once.
    pub contacts: Vec<MeshContact>,
}

/// Counters of a flight.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FlightStats {
    /// CCD steps run (up to and including the first contact).
    pub steps_flown: usize,
    /// Face pairs given to the narrow phase.
    pub face_pairs_tested: usize,
    /// Face pairs that touched (in the last step).
    pub face_pairs_touching: usize,
}

/// The flight of an object along a route.
#[derive(Debug, Clone)]
pub struct Flight {
    /// All CCD steps of the route (also those after the first contact).
    pub steps: Vec<FlightStep>,
    /// The first contact, or `None` when the route clears the terrain.
    pub first: Option<FirstContact>,
    /// Counters.
    pub stats: FlightStats,
}

/// `R_z(ψ)·x + p`.
fn pose(local: &[Vec3], p: &Vec3, psi: Real) -> Vec<Vec3> {
    let (s, c) = if psi == 0.0 {
        (0.0, 1.0)
    } else {
        psi.sin_cos()
    };
    local
        .iter()
        .map(|x| Vec3::new(c * x.x - s * x.y + p.x, s * x.x + c * x.y + p.y, x.z + p.z))
        .collect()
}

/// The CCD steps of a route under `options` (module doc); at most
/// [`MAX_FLIGHT_STEPS`].
pub fn plan_steps(route: &Route, options: &FlightOptions) -> Result<Vec<FlightStep>, RouteError> {
    if !(options.max_turn_step >= MIN_TURN_STEP && options.max_turn_step <= PI) {
        return Err(RouteError::Parameter {
            what: "turn step",
            message: format!(
                "must be in [{MIN_TURN_STEP}, π] radians ([{MIN_TURN_STEP_DEG}°, 180°]), got {}",
                options.max_turn_step
            ),
        });
    }
    let too_many = |k: usize| RouteError::Parameter {
        what: "route",
        message: format!(
            "its flight needs more than {MAX_FLIGHT_STEPS} CCD steps (reached at segment {k} of {}, \
             turning in sub-steps of at most {}°); use a larger turn step or fewer waypoints",
            route.num_segments(),
            options.max_turn_step.to_degrees()
        ),
    };
    let pts = route.points();
    let mut steps = Vec::new();
    let mut psi = match options.heading {
        Heading::Fixed(h) if !h.is_finite() => {
            return Err(RouteError::Parameter {
                what: "heading",
                message: format!("must be finite, got {h}"),
            });
        }
        Heading::Fixed(h) => h,
        Heading::FollowRoute => (0..route.num_segments())
            .map(|k| pts[k + 1] - pts[k])
            .find(|d| d.x != 0.0 || d.y != 0.0)
            .map_or(0.0, |d| d.y.atan2(d.x)),
    };
    for k in 0..route.num_segments() {
        let d = pts[k + 1] - pts[k];
        if options.heading == Heading::FollowRoute && (d.x != 0.0 || d.y != 0.0) {
            let target = d.y.atan2(d.x);
            let mut delta = target - psi;
            while delta > PI {
                delta -= 2.0 * PI;
            }
            while delta <= -PI {
                delta += 2.0 * PI;
            }
            let n = (delta.abs() / options.max_turn_step).ceil() as usize;
            if steps.len() + n >= MAX_FLIGHT_STEPS {
                return Err(too_many(k));
            }
            for i in 0..n {
                let from = if i == 0 {
                    psi
                } else {
                    psi + delta * i as Real / n as Real
                };
                let to = if i + 1 == n {
                    target
                } else {
                    psi + delta * (i + 1) as Real / n as Real
                };
                steps.push(FlightStep {
                    kind: StepKind::Turn,
                    segment: k,
                    position: [pts[k], pts[k]],
                    heading: [from, to],
                });
            }
            psi = target;
        }
        if steps.len() >= MAX_FLIGHT_STEPS {
            return Err(too_many(k));
        }
        steps.push(FlightStep {
            kind: StepKind::Segment,
            segment: k,
            position: [pts[k], pts[k + 1]],
            heading: [psi, psi],
        });
    }
    Ok(steps)
}

/// Flies `object` along `route` over `terrain` and returns where it first
/// touches (module doc).
pub fn fly(
    terrain: &Tin,
    object: &Tin,
    route: &Route,
    options: &FlightOptions,
) -> Result<Flight, RouteError> {
    let steps = plan_steps(route, options)?;
    let ground = Step {
        mesh: &terrain.mesh,
        x_t0: &terrain.positions,
        x_t1: &terrain.positions,
    };
    let ground_boxes: Vec<Kdop6> = terrain
        .mesh
        .faces()
        .iter()
        .map(|f| Kdop6::from_points(f.iter().map(|&v| &terrain.positions[v as usize])))
        .collect();
    let mut stats = FlightStats::default();
    for (index, st) in steps.iter().enumerate() {
        stats.steps_flown += 1;
        let x0 = pose(&object.positions, &st.position[0], st.heading[0]);
        let x1 = pose(&object.positions, &st.position[1], st.heading[1]);
        let moving = Step {
            mesh: &object.mesh,
            x_t0: &x0,
            x_t1: &x1,
        };
        let vboxes = swept_vertex_kdops::<3>(&moving);
        let fboxes = swept_face_kdops(&moving, &vboxes);
        let all = fboxes.iter().fold(Kdop6::EMPTY, |m, b| m.merge(b));
        let near: Vec<u32> = (0..ground_boxes.len() as u32)
            .filter(|&g| ground_boxes[g as usize].overlaps(&all))
            .collect();
        let mut pairs = Vec::new();
        for (fa, ba) in fboxes.iter().enumerate() {
            for &g in &near {
                if ba.overlaps(&ground_boxes[g as usize]) {
                    pairs.push([fa as u32, g]);
                }
            }
        }
        stats.face_pairs_tested += pairs.len();
        let result = mesh_contacts_among(&moving, &ground, &pairs);
        stats.face_pairs_touching = result.stats.face_pairs_touching;
        let first = result.first();
        let Some(c0) = first.first() else { continue };
        let [lo, hi] = c0.time_bounds;
        let s = 0.5 * (lo + hi);
        let k = st.segment;
        let (time, distance, position) = match st.kind {
            StepKind::Segment => (
                [route.time_at(k, lo), route.time_at(k, hi)],
                route.distance_at(k, s),
                route.point_at(k, s),
            ),
            StepKind::Turn => (
                [route.times()[k]; 2],
                route.distances()[k],
                route.points()[k],
            ),
        };
        let contact = FirstContact {
            step: index,
            segment: k,
            turn: st.kind == StepKind::Turn,
            parameter: [lo, hi],
            time,
            distance,
            position,
            heading: st.heading[0] + (st.heading[1] - st.heading[0]) * s,
            contacts: first.to_vec(),
        };
        return Ok(Flight {
            steps,
            first: Some(contact),
            stats,
        });
    }
    Ok(Flight {
        steps,
        first: None,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn route(pts: &[[f64; 3]]) -> Route {
        Route::new(
            Path::new("<test>"),
            pts.iter().map(|p| Vec3::new(p[0], p[1], p[2])).collect(),
            None,
            1.0,
        )
        .unwrap()
    }

    #[test]
    fn turns_are_split_into_sub_steps_that_chain_exactly() {
        let r = route(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]);
        let opts = FlightOptions {
            heading: Heading::FollowRoute,
            max_turn_step: 10f64.to_radians(),
        };
        let steps = plan_steps(&r, &opts).unwrap();
        // Segment 0, a 90° turn in 9 sub-steps, segment 1.
        assert_eq!(steps.len(), 11);
        assert_eq!(steps[0].kind, StepKind::Segment);
        assert!(steps[1..10].iter().all(|s| s.kind == StepKind::Turn));
        for w in steps.windows(2) {
            assert_eq!(w[0].heading[1], w[1].heading[0]);
            assert_eq!(w[0].position[1], w[1].position[0]);
        }
        assert_eq!(steps[10].heading, [PI / 2.0; 2]);
        let bad = FlightOptions {
            max_turn_step: 0.0,
            ..opts
        };
        assert!(plan_steps(&r, &bad).is_err());
    }

    #[test]
    fn turn_steps_below_the_minimum_and_endless_flights_are_refused() {
        let r = route(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]);
        let opts = |deg: f64| FlightOptions {
            heading: Heading::FollowRoute,
            max_turn_step: deg.to_radians(),
        };
        // The smallest step: the 90° turn in 9,000 sub-steps (one more if
        // the quotient rounds up), between the two segments.
        let n = plan_steps(&r, &opts(MIN_TURN_STEP_DEG)).unwrap().len();
        assert!((9002..=9003).contains(&n), "{n}");
        // Smaller steps are refused (docs/notes/side-track-limits.md).
        for deg in [1e-3, 1e-5, 1e-300] {
            let e = match plan_steps(&r, &opts(deg)) {
                Ok(steps) => panic!("{deg}°: {} steps planned", steps.len()),
                Err(e) => e,
            };
            assert!(
                matches!(
                    e,
                    RouteError::Parameter {
                        what: "turn step",
                        ..
                    }
                ),
                "{deg}: {e}"
            );
        }
        // A zig-zag of 58 half turns at the smallest step: 18,000 sub-steps
        // each, more than MAX_FLIGHT_STEPS in all; refused before it is
        // planned.
        let zigzag: Vec<[f64; 3]> = (0..60).map(|i| [(i % 2) as f64, 0.0, 0.0]).collect();
        let e = match plan_steps(&route(&zigzag), &opts(MIN_TURN_STEP_DEG)) {
            Ok(steps) => panic!("zig-zag: {} steps planned", steps.len()),
            Err(e) => e,
        };
        assert!(
            matches!(e, RouteError::Parameter { what: "route", .. }),
            "{e}"
        );
        assert!(e.to_string().contains("more than 1000000 CCD steps"), "{e}");
    }

    #[test]
    fn zero_heading_is_a_pure_translation() {
        let local = [Vec3::new(1.5, -2.25, 0.5)];
        let p = Vec3::new(10.0, 20.0, 30.0);
        assert_eq!(pose(&local, &p, 0.0), vec![local[0] + p]);
    }
}
