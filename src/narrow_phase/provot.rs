//! The classical floating-point cubic solver — the reproduction baseline.
//!
//! Provot, "Collision and self-collision handling in cloth model dedicated to
//! design garments", Computer Animation and Simulation 1997, pp. 177–189 (the
//! core paper's ref. \[4\]): the coplanarity cubic is solved in `f64` on
//! `[0, 1]`, and at each root, in increasing order, an inside test decides
//! contact. Nothing is certified: roots are found by bisection on the
//! monotone pieces between the derivative's roots, the inside tests compare
//! floating-point values with zero, and a cubic that vanishes identically
//! (coplanar motion) or a degenerate inside test (parallel edges, a
//! degenerate triangle) reports no contact. This is the float method whose
//! misses the 2021 CCD benchmark counted (docs/design.md §2.3): its false negatives are
//! reported, not hidden.

use super::toi::Toi;
use crate::math::Vec3;
use crate::pair_kernel::{bernstein_from_scaled, coplanarity_scaled};

/// Vertex–face CCD with the float cubic method (may miss or invent
/// collisions). Arguments as [`super::vertex_face()`]'s.
#[allow(clippy::too_many_arguments)]
pub fn vertex_face(
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
) -> Option<Toi> {
    let c = coplanarity_scaled(f0_t0, f1_t0, f2_t0, v_t0, f0_t1, f1_t1, f2_t1, v_t1);
    let at = |x0: &Vec3, x1: &Vec3, t: f64| x0 + (x1 - x0) * t;
    roots_in_unit_interval(&bernstein_from_scaled(&c).map(|b| b.v))
        .into_iter()
        .flatten()
        .find(|&t| {
            let (p, a, b, c) = (
                at(v_t0, v_t1, t),
                at(f0_t0, f0_t1, t),
                at(f1_t0, f1_t1, t),
                at(f2_t0, f2_t1, t),
            );
            let n = (b - a).cross(&(c - a));
            n.norm_squared() > 0.0
                && [(a, b), (b, c), (c, a)]
                    .iter()
                    .all(|(u, w)| (w - u).cross(&(p - u)).dot(&n) >= 0.0)
        })
        .map(Toi::exact)
}

/// Edge–edge CCD with the float cubic method (may miss or invent
/// collisions). Arguments as [`super::vertex_face()`]'s.
#[allow(clippy::too_many_arguments)]
pub fn edge_edge(
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
) -> Option<Toi> {
    let c = coplanarity_scaled(
        ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
    );
    let at = |x0: &Vec3, x1: &Vec3, t: f64| x0 + (x1 - x0) * t;
    roots_in_unit_interval(&bernstein_from_scaled(&c).map(|b| b.v))
        .into_iter()
        .flatten()
        .find(|&t| {
            let (a, b, c, d) = (
                at(ea0_t0, ea0_t1, t),
                at(ea1_t0, ea1_t1, t),
                at(eb0_t0, eb0_t1, t),
                at(eb1_t0, eb1_t1, t),
            );
            let (e1, e2) = (b - a, d - c);
            let m = e1.cross(&e2);
            let m2 = m.norm_squared();
            if m2 <= 0.0 {
                return false;
            }
            let s = (c - a).cross(&e2).dot(&m) / m2;
            let r = (c - a).cross(&e1).dot(&m) / m2;
            (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&r)
        })
        .map(Toi::exact)
}

/// Real roots in `[0, 1]` of the cubic with Bernstein coefficients `b`, in
/// increasing order (at most three), found in floating point: the derivative's
/// roots split `[0, 1]` into monotone pieces, and each piece whose end values
/// differ in sign (or vanish) is bisected to full precision.
pub fn roots_in_unit_interval(b: &[f64; 4]) -> [Option<f64>; 3] {
    let a0 = b[0];
    let a1 = 3.0 * (b[1] - b[0]);
    let a2 = 3.0 * (b[0] - 2.0 * b[1] + b[2]);
    let a3 = b[3] - b[0] + 3.0 * (b[1] - b[2]);
    let f = |t: f64| ((a3 * t + a2) * t + a1) * t + a0;
    let mut out = [None; 3];
    if a0 == 0.0 && a1 == 0.0 && a2 == 0.0 && a3 == 0.0 {
        return out; // f ≡ 0: the float method has no root to offer
    }
    // Split points: roots of f' = 3a3 t² + 2a2 t + a1 inside (0, 1).
    let mut knots = [0.0, 1.0, 1.0, 1.0];
    let mut n = 1;
    for t in quadratic_roots(3.0 * a3, 2.0 * a2, a1)
        .into_iter()
        .flatten()
    {
        if t > 0.0 && t < 1.0 {
            knots[n] = t;
            n += 1;
        }
    }
    knots[n] = 1.0;
    knots[..=n].sort_by(f64::total_cmp);
    let mut found = 0;
    for w in knots[..=n].windows(2) {
        let (mut lo, mut hi) = (w[0], w[1]);
        let (flo, fhi) = (f(lo), f(hi));
        let root = if flo == 0.0 {
            Some(lo)
        } else if flo * fhi > 0.0 {
            None
        } else if fhi == 0.0 {
            Some(hi)
        } else {
            for _ in 0..100 {
                let mid = 0.5 * (lo + hi);
                if mid <= lo || mid >= hi {
                    break;
                }
                if f(mid) * flo > 0.0 {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            Some(lo)
        };
        if let Some(r) = root
            && (found == 0 || out[found - 1] != Some(r))
            && found < 3
        {
            out[found] = Some(r);
            found += 1;
        }
    }
    out
}

/// Real roots of `a t² + b t + c` (none, one or two; `a = 0` handled).
fn quadratic_roots(a: f64, b: f64, c: f64) -> [Option<f64>; 2] {
    if a == 0.0 {
        return [(b != 0.0).then(|| -c / b), None];
    }
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return [None, None];
    }
    let q = -0.5 * (b + b.signum() * disc.sqrt());
    let r1 = q / a;
    let r2 = if q != 0.0 { c / q } else { r1 };
    [Some(r1.min(r2)), Some(r1.max(r2))]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cubic_roots_in_order() {
        // (t − ¼)(t − ½)(t − ¾) in Bernstein form (power → Bernstein).
        let (a0, a1, a2) = (-0.09375, 0.6875, -1.5);
        let b = [
            a0,
            a0 + a1 / 3.0,
            a0 + 2.0 * a1 / 3.0 + a2 / 3.0,
            a0 + a1 + a2 + 1.0,
        ];
        let r = roots_in_unit_interval(&b);
        for (got, want) in r.iter().zip([0.25, 0.5, 0.75]) {
            assert!((got.unwrap() - want).abs() < 1e-12);
        }
    }

    #[test]
    fn finds_a_plain_collision_and_misses_coplanar_motion() {
        let (a, b, c) = (
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        );
        let hit = vertex_face(
            &Vec3::new(0.2, 0.2, 1.0),
            &a,
            &b,
            &c,
            &Vec3::new(0.2, 0.2, -1.0),
            &a,
            &b,
            &c,
        );
        assert!((hit.unwrap().lower - 0.5).abs() < 1e-12);
        // Coplanar sliding into the triangle: f ≡ 0, the float method misses it.
        let miss = vertex_face(
            &Vec3::new(2.0, 0.25, 0.0),
            &a,
            &b,
            &c,
            &Vec3::new(0.0, 0.25, 0.0),
            &a,
            &b,
            &c,
        );
        assert_eq!(miss, None);
    }
}
