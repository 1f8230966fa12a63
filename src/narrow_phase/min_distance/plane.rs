//! The plane certificate of the minimum-separation fast path
//! (docs/design.md §5): *apart on `[l, r]`* proven from the signed volume
//! of the four points, which follows the features as they turn. The
//! constant-direction certificate ([`super::certificates::apart`]) reaches
//! only as far as the features' turning allows (a long edge turning by an
//! angle `θ` moves its far end by `L·θ` along any fixed direction), so near
//! the time of impact its steps shrink with the gap; this one's shrink with
//! `d` instead.
//!
//! **The bound.** Three relative tracks `U`, `E`, `W` (linear in `t`) with
//! normal `n = U × E` and volume `det = n·W`:
//! - vertex–face: `U = f₁ − f₀`, `E = f₂ − f₀`, `W = p − f₀`; `|det|/|n|` is
//!   the vertex's distance to the triangle's plane, at most its distance
//!   to the triangle;
//! - edge–edge: `U = a₁ − a₀`, `E = b₁ − b₀`, `W = b₀ − a₀`; `|det|/|n|` is
//!   the distance between the two lines, at most the segments' distance.
//!
//! On `[l, r]`, reparametrized by `s ∈ [0, 1]`, the tracks run linearly
//! from their values at `l` to those at `r`, so `n` is a quadratic with
//! Bernstein coefficients `n₀ = U_l×E_l`, `n₁ = (U_l×E_r + U_r×E_l)/2`,
//! `n₂ = U_r×E_r`, and `det` a cubic whose scaled Bernstein coefficients are
//! those of docs/design.md §2.2 (`c = [n₀·W_l, 2n₁·W_l + n₀·W_r,
//! 2n₁·W_r + n₂·W_l, n₂·W_r]`). With `N_k ≥ |n_k|`, the norm's convexity
//! gives `|n(s)| = |Σ B²_k(s)·n_k| ≤ Σ B²_k(s)·N_k`, a quadratic whose
//! coefficients, raised to degree 3 and scaled as `c` is, are
//! `[N₀, N₀ + 2N₁, 2N₁ + N₂, N₂]`. So every `c_k` above `d` times the
//! matching one gives `det > d·|n|` on all of `[l, r]` (and the mirror image
//! below zero): the features stay more than `d` apart. Each end's condition
//! is then that end's own (`c₀ > d·N₀` is `det(l) > d·|n(l)|` up to
//! rounding), so a step can reach close to where the margin vanishes.
//!
//! **Rounding.** The tracks at `l` and `r` are the certificates' relative
//! positions ([`super::certificates::relative`]), and everything after them
//! follows [`crate::math::Bounded`]'s model (the same range argument as the
//! other certificates: coordinates and `d` in the filter range, times
//! dyadic, so relative positions are multiples of `2⁻²⁵²`, their cross
//! products of `2⁻⁵⁰⁴` and the volumes of `2⁻⁷⁵⁶`, all clear of
//! underflow); each `N_k` bounds its coefficient's exact norm from the
//! computed value and error bound, rounded up ([`norm_above`]), and is at
//! least `2⁻³⁰⁰` (a larger `N_k` only asks more). `d·(N₀ + 2N₁)` and
//! `d·(2N₁ + N₂)` are evaluated in the same model.

use super::certificates::{ADVANCE_GRID, COORD_FLOOR, Features, advance_grid_below, between};
use crate::math::{Bounded, BoundedVec3, UNIT_ROUNDOFF, Vec3};

/// Least `N` (`2⁻³⁰⁰`): keeps `d·N` normal.
const NORM_FLOOR: f64 = f64::from_bits((1023 - 300) << 52);

/// Advancement steps aim this far toward the estimated crossing of the
/// plane distance with `d`.
const REACH: f64 = 0.98;

/// How far short of the estimated crossing a step first aims (`2⁻³⁶`).
const NEAR: f64 = 1.0 / (1u64 << 36) as f64;

/// Tries per step, halving the step after each failed certificate.
const TRIES: u32 = 3;

/// A double at least the exact norm of `v` (each coordinate bounded by its
/// value plus its error bound, one ulp up; the sum of squares and the root
/// rounded up by factors that cover their roundings).
#[inline]
fn norm_above(v: &BoundedVec3) -> f64 {
    let mut sum = 0.0;
    for c in &v.0 {
        let a = (c.v.abs() + c.error_bound()).next_up().max(COORD_FLOOR);
        sum += a * a;
    }
    // fl(Σ) ≥ Σ(1 − u)³; (1 + 8u)(1 − u)⁴ > 1 and (1 + 4u)(1 − u)² > 1.
    (sum * (1.0 + 8.0 * UNIT_ROUNDOFF)).sqrt() * (1.0 + 4.0 * UNIT_ROUNDOFF)
}

/// The three relative tracks of a query (module doc), each as its leaves:
/// the certified differences at `t = 0` and `t = 1`.
struct PlaneTracks([[BoundedVec3; 2]; 3]);

impl PlaneTracks {
    #[inline]
    fn of<F: Features>(f: &F) -> PlaneTracks {
        PlaneTracks(f.plane_tracks().map(|(x, y)| {
            [
                BoundedVec3::difference(&y[0], &x[0]),
                BoundedVec3::difference(&y[1], &x[1]),
            ]
        }))
    }

    /// Track `k` at an exact `t`, as [`super::certificates::relative`]
    /// evaluates it (the same operations on the same leaves).
    #[inline]
    fn at(&self, k: usize, t: f64) -> BoundedVec3 {
        let [u0, u1] = &self.0[k];
        between(u0, u1, t)
    }

    /// Certified: more than `d` apart at every time of `[l, r]` (module doc).
    fn apart(&self, d: f64, l: f64, r: f64) -> bool {
        let (ul, el, wl) = (self.at(0, l), self.at(1, l), self.at(2, l));
        let (ur, er, wr) = (self.at(0, r), self.at(1, r), self.at(2, r));
        let n0 = ul.cross(&el);
        let n2 = ur.cross(&er);
        let s = ul.cross(&er).add(&ur.cross(&el));
        let c = [
            n0.dot(&wl),
            s.dot(&wl) + n0.dot(&wr),
            s.dot(&wr) + n2.dot(&wl),
            n2.dot(&wr),
        ];
        // N₀ ≥ |n₀|, N₁ ≥ |n₁| = |s|/2, N₂ ≥ |n₂|; `d·|n|` lies below the
        // quadratic with Bernstein coefficients `d·N_k`, elevated to the
        // cubic's scaled coefficients `d·[N₀, N₀ + 2N₁, 2N₁ + N₂, N₂]`.
        let [n0_up, n1_up, n2_up] = [norm_above(&n0), 0.5 * norm_above(&s), norm_above(&n2)]
            .map(|x| Bounded::exact(x.max(NORM_FLOOR)));
        let d = Bounded::exact(d);
        let two = Bounded::exact(2.0);
        let m = [
            d * n0_up,
            d * (n0_up + two * n1_up),
            d * (two * n1_up + n2_up),
            d * n2_up,
        ];
        (0..4).all(|k| (c[k] - m[k]).certainly_positive())
            || (0..4).all(|k| (c[k] + m[k]).certainly_negative())
    }

    /// The volume `det` and the normal's length `|n|` at `t`, in plain
    /// doubles (hints only).
    #[inline]
    fn volume_at(&self, t: f64) -> (f64, f64) {
        let at = |k: usize| -> Vec3 {
            let [u0, u1] = &self.0[k];
            Vec3::from_fn(|i, _| u0.0[i].v + t * (u1.0[i].v - u0.0[i].v))
        };
        let n = at(0).cross(&at(1));
        (n.dot(&at(2)), n.norm())
    }
}

/// Certified: the features are more than `d` apart at every time of
/// `[l, r]`, by their signed volume (module doc).
pub(super) fn apart_by_plane<F: Features>(f: &F, d: f64, l: f64, r: f64) -> bool {
    PlaneTracks::of(f).apart(d, l, r)
}

/// Plane advancement from `l`: a time `r ∈ (l, 1]`, on the `2⁻⁴⁰` grid or
/// 1, with the features certified apart on `[l, r]` by [`apart_by_plane`],
/// or `None`. The step aims [`NEAR`] short of the first zero of the plane
/// distance's margin over `d` ([`PlaneTracks::volume_at`]), found by regula falsi on
/// `[l, 1]` (or at 1 when the margin stays positive there), then at
/// [`REACH`] of the way, and halves after each failed certificate,
/// [`TRIES`] times.
pub(super) fn advance_by_plane<F: Features>(f: &F, d: f64, l: f64) -> Option<f64> {
    let tracks = PlaneTracks::of(f);
    let (det, n) = tracks.volume_at(l);
    if !det.is_finite() || det == 0.0 {
        return None;
    }
    // The plane distance's margin `σ·det − d·|n|` (`σ` the sign at `l`).
    let sigma = det.signum();
    let g = |t: f64| {
        let (det, n) = tracks.volume_at(t);
        sigma * det - d * n
    };
    let g_l = sigma * det - d * n;
    // (NaN fails this too.)
    if g_l.is_nan() || g_l <= 0.0 {
        return None;
    }
    let g_1 = g(1.0);
    // A margin that vanishes at 1 to within about its rounding (features
    // arriving exactly `d` apart at the end of the step, or just beyond `d`).
    // Halving toward 1 would take one step per bit. An exactly zero margin
    // goes to the nearest-point steps, which count it as crossing at 1; a
    // positive one is certified up to 1 where it can be, else up to [`NEAR`]
    // short of 1, from where the exact test at 1 closes the bracket.
    if g_1 >= 0.0 && g_1 * (1.0 - l) <= 16.0 * NEAR * g_l {
        if g_1 == 0.0 {
            return None;
        }
        if tracks.apart(d, l, 1.0) {
            return Some(1.0);
        }
        let near = advance_grid_below(1.0 - NEAR);
        return (near > l && tracks.apart(d, l, near)).then_some(near);
    }
    let target = if g_1 > 0.0 {
        1.0
    } else {
        // Illinois regula falsi on [a, b], g(a) > 0 ≥ g(b).
        let (mut a, mut b, mut ga, mut gb) = (l, 1.0, g_l, g_1);
        let mut side = 0;
        for _ in 0..16 {
            let m = (a * gb - b * ga) / (gb - ga);
            if !(m > a && m < b) {
                break;
            }
            let gm = g(m);
            if gm > 0.0 {
                (a, ga) = (m, gm);
                if side == 1 {
                    gb *= 0.5;
                }
                side = 1;
            } else {
                (b, gb) = (m, gm);
                if side == -1 {
                    ga *= 0.5;
                }
                side = -1;
            }
            if b - a <= ADVANCE_GRID {
                break;
            }
        }
        a
    };
    // First just short of the estimate (it is accurate to about the
    // rounding of the margin), then [`REACH`] of the way, then halving.
    let near = advance_grid_below(target - NEAR);
    if target < 1.0 && near > l + 0.5 * (target - l) && tracks.apart(d, l, near) {
        return Some(near);
    }
    let mut r = if target >= 1.0 {
        1.0
    } else {
        advance_grid_below(l + REACH * (target - l))
    };
    for _ in 0..TRIES {
        if r <= l {
            return None;
        }
        if tracks.apart(d, l, r) {
            return Some(r);
        }
        r = advance_grid_below(l + 0.5 * (r - l));
    }
    None
}

#[cfg(test)]
mod tests {
    use std::cmp::Ordering;

    use proptest::prelude::*;

    use super::super::certificates::{EdgeEdge, VertexFace};
    use super::*;
    use crate::exact::{Algebraic, Dyadic};
    use crate::narrow_phase::oracle;

    /// `x` against the exact `t`.
    fn compare(x: f64, t: &mut Algebraic) -> Ordering {
        Algebraic::exact(Dyadic::from_f64(x)).compare(t)
    }

    fn vertex_face(q: &[Vec3; 8]) -> VertexFace {
        VertexFace::new(q.each_ref())
    }

    fn edge_edge(q: &[Vec3; 8]) -> EdgeEdge {
        EdgeEdge::new(q.each_ref())
    }

    /// A vertex falling onto a face that turns about its first edge: the
    /// plane certificate follows it to just short of the time of impact
    /// (exactly 1/2 here, the vertex's height falling from 1 to −1 with the
    /// face staying below it until then), and never past it.
    #[test]
    fn follows_a_turning_face_to_the_time_of_impact() {
        let d = 1e-3;
        let q = [
            Vec3::new(0.25, 0.25, 1.0 + d),
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.25, 0.25, -1.0 + d),
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        let f = vertex_face(&q);
        assert!(apart_by_plane(&f, d, 0.0, 0.5 - 1e-9));
        assert!(!apart_by_plane(&f, d, 0.0, 0.5));
        let r = advance_by_plane(&f, d, 0.0).unwrap();
        assert!(r > 0.5 - 1e-9 && r < 0.5, "{r}");
        // Turning: the face's third corner rises as the vertex falls.
        let mut turning = q;
        turning[7] = Vec3::new(0.0, 1.0, 0.5);
        let f = vertex_face(&turning);
        let mut t = oracle::vertex_face_within(
            &turning[0],
            &turning[1],
            &turning[2],
            &turning[3],
            &turning[4],
            &turning[5],
            &turning[6],
            &turning[7],
            d,
        )
        .unwrap();
        let r = advance_by_plane(&f, d, 0.0).unwrap();
        assert_eq!(compare(r, &mut t), Ordering::Less);
        t.refine_to(1e-12);
        assert!(t.lower_f64() - r < 1e-6, "{r} against {}", t.lower_f64());
    }

    /// Features arriving `d` apart at `t = 1`, over the face's interior and
    /// across skew edges, the margin at 1 rounding to zero or just above it:
    /// no plane step at zero (the nearest-point steps close in), one step to
    /// just short of 1 above it, never a halving of the way to 1.
    #[test]
    fn takes_an_arrival_at_d_at_the_end_in_one_step_or_none() {
        let face = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        let (a0, a1) = (Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
        for d in [0.0078125, 0.01] {
            let vf = vertex_face(&[
                Vec3::new(0.25, 0.25, 0.5 + d),
                face[0],
                face[1],
                face[2],
                Vec3::new(0.25, 0.25, d),
                face[0],
                face[1],
                face[2],
            ]);
            let ee = edge_edge(&[
                a0,
                a1,
                Vec3::new(0.0, -1.0, 0.5 + d),
                Vec3::new(0.0, 1.0, 0.5 + d),
                a0,
                a1,
                Vec3::new(0.0, -1.0, d),
                Vec3::new(0.0, 1.0, d),
            ]);
            assert!(apart_by_plane(&vf, d, 0.0, 0.5) && apart_by_plane(&ee, d, 0.0, 0.5));
            for step in [advance_by_plane(&vf, d, 0.0), advance_by_plane(&ee, d, 0.0)] {
                if d == 0.0078125 {
                    // The margin at 1 is exactly zero.
                    assert_eq!(step, None);
                } else {
                    // It rounds above zero: one step to just short of 1.
                    let r = step.unwrap();
                    assert!((1.0 - 2.0 * NEAR..1.0).contains(&r), "{r}");
                }
            }
        }
    }

    /// A certificate's verdict, an advancement, and the exact oracle.
    type Check<'a> = (bool, Option<f64>, &'a dyn Fn() -> Option<Algebraic>);

    fn coord() -> impl Strategy<Value = f64> {
        prop_oneof![
            3 => -2.0..2.0f64,
            2 => (-8i32..=8).prop_map(|i| f64::from(i) / 4.0),
        ]
    }

    fn point() -> impl Strategy<Value = Vec3> {
        (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// A certificate on `[0, r]` (and an advancement to `r`) is never
        /// wrong: the exact earliest time within `d` is after `r`, or there
        /// is none.
        #[test]
        fn never_certifies_a_time_within_d(
            q in proptest::array::uniform8(point()),
            d in prop_oneof![Just(1e-9), 0.0..0.5f64, Just(0.25)],
            r in 1u32..=1024,
        ) {
            let r = f64::from(r) / 1024.0;
            let [a, b, c, e, f, g, h, i] = &q;
            let vf = vertex_face(&q);
            let ee = edge_edge(&q);
            let vf_exact = || oracle::vertex_face_within(a, b, c, e, f, g, h, i, d);
            let ee_exact = || oracle::edge_edge_within(a, b, c, e, f, g, h, i, d);
            let checks: [Check<'_>; 2] = [
                (apart_by_plane(&vf, d, 0.0, r), advance_by_plane(&vf, d, 0.0), &vf_exact),
                (apart_by_plane(&ee, d, 0.0, r), advance_by_plane(&ee, d, 0.0), &ee_exact),
            ];
            for (k, (apart, advanced, exact)) in checks.into_iter().enumerate() {
                let Some(mut t) = (apart || advanced.is_some()).then(exact).flatten() else {
                    continue;
                };
                if apart {
                    prop_assert_eq!(compare(r, &mut t), Ordering::Less, "{} on [0, {}]", k, r);
                }
                if let Some(s) = advanced {
                    prop_assert_eq!(compare(s, &mut t), Ordering::Less, "{} advanced to {}", k, s);
                }
            }
        }
    }
}
