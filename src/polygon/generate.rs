//! Seeded random polygons for tests, benches and reports (no algorithm of a
//! paper; the paper gives no test set, so these are ours;
//! docs/design.md §3, "2D polygons in the crate").
//!
//! - [`star_polygon`]: `n` vertices at jittered, strictly increasing angles
//!   around a centre, radius `r·(1 − s·U)` with spikiness `s ∈ [0, 1)`.
//!   Every edge spans less than 180° of angle, so the outline is star-shaped
//!   around the centre, hence simple; it is non-convex for `s > 0` almost
//!   always. Validated anyway (rounding), and redrawn on the rare failure.
//! - [`convex_polygon`]: jittered angles on a circle (always convex).
//!
//! The generator is SplitMix64 (Steele, Lea & Flood, "Fast splittable
//! pseudorandom number generators", OOPSLA 2014), so a seed gives the same
//! polygons on every platform and thread count.

use std::f64::consts::TAU;

use crate::math::Real;

use super::polygon::{Polygon, Vec2};
use super::reference::polygons_intersect;

/// SplitMix64: small, seedable, platform-independent.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` (53 random bits).
    pub fn unit(&mut self) -> Real {
        (self.next_u64() >> 11) as Real * (1.0 / (1u64 << 53) as Real)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: Real, hi: Real) -> Real {
        lo + (hi - lo) * self.unit()
    }

    /// A point uniform in the disc of radius `r` around the origin.
    pub fn in_disc(&mut self, r: Real) -> Vec2 {
        let rho = r * self.unit().sqrt();
        let phi = TAU * self.unit();
        Vec2::new(rho * phi.cos(), rho * phi.sin())
    }
}

/// Jittered increasing angles: slot `i` of `n`, offset by up to `jitter` of a
/// slot, plus a random global rotation.
fn angles(rng: &mut Rng, n: usize, jitter: Real) -> Vec<Real> {
    let rot = TAU * rng.unit();
    (0..n)
        .map(|i| rot + TAU * (i as Real + jitter * rng.unit()) / n as Real)
        .collect()
}

/// A random star-shaped simple polygon with `n ≥ 3` vertices around `centre`,
/// outer radius `r`, spikiness `s ∈ [0, 1)` (0: on a circle, convex).
///
/// # Panics
/// When `centre` is not finite, `r` not finite and positive or `s` not in
/// `[0, 1)`, or none of 1000 draws is simple (a radius so small that
/// rounding merges the points).
pub fn star_polygon(rng: &mut Rng, n: usize, centre: Vec2, r: Real, s: Real) -> Polygon {
    assert!(
        centre.iter().all(|c| c.is_finite()) && r.is_finite() && r > 0.0 && (0.0..1.0).contains(&s),
        "star_polygon: centre {centre:?}, r {r}, s {s} (need a finite centre, r > 0, s in [0, 1))"
    );
    let n = n.max(3);
    // Edge span < (1 + jitter)·2π/n ≤ π needs jitter < n/2 − 1; for n = 3
    // that is 0.5.
    let jitter = if n == 3 { 0.45 } else { 0.9 };
    for _ in 0..MAX_DRAWS {
        let pts: Vec<Vec2> = angles(rng, n, jitter)
            .into_iter()
            .map(|a| {
                let rho = r * (1.0 - s * rng.unit());
                centre + Vec2::new(rho * a.cos(), rho * a.sin())
            })
            .collect();
        if let Ok(p) = Polygon::new(pts) {
            return p;
        }
    }
    panic!(
        "star_polygon: no simple polygon in {MAX_DRAWS} draws (r {r} too small for {n} vertices?)"
    );
}

/// Draws of [`star_polygon`] before it gives up: a star-shaped draw is
/// simple unless rounding merges or crosses its points, which happens only
/// at radii near the underflow range.
const MAX_DRAWS: usize = 1000;

/// A random convex polygon with `n ≥ 3` vertices on the circle of radius `r`.
///
/// # Panics
/// As [`star_polygon`].
pub fn convex_polygon(rng: &mut Rng, n: usize, centre: Vec2, r: Real) -> Polygon {
    star_polygon(rng, n, centre, r, 0.0)
}

/// How a random pair is laid out: the second polygon's size relative to the
/// first, and where it sits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairLayout {
    /// Vertices of the first (non-convex) polygon.
    pub n_a: usize,
    /// Vertices of the second polygon.
    pub n_b: usize,
    /// `true`: the second polygon is convex; else star-shaped like the first.
    pub b_convex: bool,
    /// Spikiness of the star polygons.
    pub spikiness: Real,
}

/// A random pair: `a` (star, radius 1, at the origin) and `b` (radius
/// uniform in `[0.15, 1)`) with its centre uniform in the disc of radius
/// `1 + r_b`, so pairs range from nested through crossing to disjoint.
///
/// # Panics
/// When `layout.spikiness` is not in `[0, 1)` ([`star_polygon`]).
pub fn random_pair(rng: &mut Rng, layout: PairLayout) -> (Polygon, Polygon) {
    let a = star_polygon(rng, layout.n_a, Vec2::zeros(), 1.0, layout.spikiness);
    let r_b = rng.range(0.15, 1.0);
    let c = rng.in_disc(1.0 + r_b);
    let b = if layout.b_convex {
        convex_polygon(rng, layout.n_b, c, r_b)
    } else {
        star_polygon(rng, layout.n_b, c, r_b, layout.spikiness)
    };
    (a, b)
}

/// A random pair whose closed regions intersect (exact reference): `b`
/// (radius uniform in `[0.5, 1)`) centred uniformly in the disc of radius
/// 0.8 around `a`'s centre, redrawn until they intersect. The workload of a
/// collision-*resolution* timing.
///
/// # Panics
/// As [`random_pair`].
pub fn overlapping_pair(rng: &mut Rng, layout: PairLayout) -> (Polygon, Polygon) {
    loop {
        let a = star_polygon(rng, layout.n_a, Vec2::zeros(), 1.0, layout.spikiness);
        let r_b = rng.range(0.5, 1.0);
        let c = rng.in_disc(0.8);
        let b = if layout.b_convex {
            convex_polygon(rng, layout.n_b, c, r_b)
        } else {
            star_polygon(rng, layout.n_b, c, r_b, layout.spikiness)
        };
        if polygons_intersect(a.vertices(), b.vertices()) {
            return (a, b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_polygons() {
        let layout = PairLayout {
            n_a: 12,
            n_b: 7,
            b_convex: false,
            spikiness: 0.7,
        };
        let p = random_pair(&mut Rng::new(42), layout);
        let q = random_pair(&mut Rng::new(42), layout);
        assert_eq!(p, q);
        assert_eq!(p.0.len(), 12);
        assert_eq!(p.1.len(), 7);
    }

    #[test]
    fn parameters_that_allow_no_polygon_panic_rather_than_hang() {
        for (r, s) in [
            (Real::NAN, 0.5),
            (0.0, 0.5),
            (-1.0, 0.5),
            (1.0, Real::NAN),
            (1.0, 1.0),
        ] {
            let draw =
                std::panic::catch_unwind(|| star_polygon(&mut Rng::new(3), 8, Vec2::zeros(), r, s));
            assert!(draw.is_err(), "r {r}, s {s}");
        }
    }

    #[test]
    fn stars_are_mostly_non_convex_and_circles_convex() {
        let mut rng = Rng::new(1);
        let nonconvex = (0..100)
            .filter(|_| !star_polygon(&mut rng, 10, Vec2::zeros(), 1.0, 0.7).is_convex())
            .count();
        assert!(nonconvex > 90, "{nonconvex}");
        for n in [3, 4, 20] {
            assert!(convex_polygon(&mut rng, n, Vec2::zeros(), 1.0).is_convex());
        }
    }
}
