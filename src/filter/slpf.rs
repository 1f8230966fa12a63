//! SLPF, the spatial linear projection filter (Wan, Fu & Yao, "Continuous
//! collision detection algorithm based on spatial linear projection",
//! *Intelligent Computer and Applications* 12(2), 2022, §2, Eqs. (1)–(2)).
//!
//! Project the pair onto a line with direction `s`. Each difference
//! `(P(t) − A(t))·s = (1 − t)(P₀ − A₀)·s + t(P₁ − A₁)·s` is linear in `t`, so
//! its sign on `[0, 1]` is fixed when its values at `t = 0` and `t = 1` have
//! the same strict sign (Theorem 1: disjoint projections ⇒ disjoint
//! primitives).
//!
//! - VF (vertex `P`, triangle `A B C`), Eq. (1): cull if the six numbers
//!   `X₁ … X₆ = (P₀−A₀)·s, (P₁−A₁)·s, (P₀−B₀)·s, (P₁−B₁)·s, (P₀−C₀)·s,
//!   (P₁−C₁)·s` have one strict sign.
//! - EE (edges `A B`, `C D`), Eq. (2): cull if the eight numbers
//!   `(A₀−C₀)·s, (A₀−D₀)·s, (B₀−C₀)·s, (B₀−D₀)·s` and the same at `t = 1`
//!   have one strict sign.
//!
//! A pair is culled if any direction culls it.
//!
//! **Guarantee:** [`Verdict::Culled`] ⇒ no contact in `[0, 1]`: every sign is
//! certified ([`crate::pair_kernel::vertex_face_apart_along`],
//! [`crate::pair_kernel::edge_edge_apart_along`]: [`crate::math::Bounded`], with
//! the differences as exact-rounded leaves; along a coordinate axis the
//! rounded difference has the exact sign outright).
//!
//! The paper's five directions are [`PAPER_DIRECTIONS`] (it reports that
//! adding `y` and `z` to `x` culls nothing more). Directions need not be unit
//! vectors for a sign test, so they are kept exact (`(1,1,0)` instead of
//! `(√2/2, √2/2, 0)`); any set can be passed to study others.

use super::Verdict;
use crate::math::{Bounded, TINY, Vec3, gamma};
use crate::pair_kernel::{edge_edge_apart_along, vertex_face_apart_along};

/// The paper's projection directions (§2.3): `x`, `(1,1,0)`, `(1,0,1)`,
/// `(0,1,1)`, `(1,1,1)`, unnormalised.
pub const PAPER_DIRECTIONS: [[f64; 3]; 5] = [
    [1.0, 0.0, 0.0],
    [1.0, 1.0, 0.0],
    [1.0, 0.0, 1.0],
    [0.0, 1.0, 1.0],
    [1.0, 1.0, 1.0],
];

/// SLPF on a vertex–face pair (data set row order) with the given
/// directions.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn slpf_vertex_face(
    directions: &[[f64; 3]],
    v_t0: &Vec3,
    f0_t0: &Vec3,
    f1_t0: &Vec3,
    f2_t0: &Vec3,
    v_t1: &Vec3,
    f0_t1: &Vec3,
    f1_t1: &Vec3,
    f2_t1: &Vec3,
) -> Verdict {
    Verdict::culled_if(
        directions.iter().any(|s| {
            vertex_face_apart_along(s, v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1)
        }),
    )
}

/// SLPF on an edge–edge pair (data set row order) with the given directions.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn slpf_edge_edge(
    directions: &[[f64; 3]],
    ea0_t0: &Vec3,
    ea1_t0: &Vec3,
    eb0_t0: &Vec3,
    eb1_t0: &Vec3,
    ea0_t1: &Vec3,
    ea1_t1: &Vec3,
    eb0_t1: &Vec3,
    eb1_t1: &Vec3,
) -> Verdict {
    Verdict::culled_if(directions.iter().any(|s| {
        edge_edge_apart_along(
            s, ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri() -> [Vec3; 3] {
        [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ]
    }

    #[test]
    fn culls_a_vertex_that_stays_beside_the_triangle() {
        // The vertex crosses the triangle's plane, but stays at x > 1 (DNF
        // cannot cull this; SLPF along x can).
        let [a, b, c] = tri();
        let (p0, p1) = (Vec3::new(2.0, 0.5, 1.0), Vec3::new(2.0, 0.5, -1.0));
        let v = slpf_vertex_face(&PAPER_DIRECTIONS, &p0, &a, &b, &c, &p1, &a, &b, &c);
        assert_eq!(v, Verdict::Culled);
    }

    #[test]
    fn passes_a_vertex_falling_through() {
        let [a, b, c] = tri();
        let (p0, p1) = (Vec3::new(0.2, 0.2, 1.0), Vec3::new(0.2, 0.2, -1.0));
        let v = slpf_vertex_face(&PAPER_DIRECTIONS, &p0, &a, &b, &c, &p1, &a, &b, &c);
        assert_eq!(v, Verdict::Pass);
    }

    #[test]
    fn a_diagonal_direction_culls_what_the_axes_cannot() {
        // Vertex at (0.6, 0.6): inside the triangle's x- and y-extents, but on
        // the far side of the hypotenuse x + y = 1 along (1,1,0).
        let [a, b, c] = tri();
        let (p0, p1) = (Vec3::new(0.6, 0.6, 1.0), Vec3::new(0.6, 0.6, -1.0));
        let axes = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        assert_eq!(
            slpf_vertex_face(&axes, &p0, &a, &b, &c, &p1, &a, &b, &c),
            Verdict::Pass
        );
        assert_eq!(
            slpf_vertex_face(&PAPER_DIRECTIONS, &p0, &a, &b, &c, &p1, &a, &b, &c),
            Verdict::Culled
        );
    }

    #[test]
    fn edges_on_separate_sides() {
        let (a, b) = (Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
        let (c, d) = (Vec3::new(3.0, -1.0, 0.0), Vec3::new(3.0, 1.0, 0.0));
        let v = slpf_edge_edge(&PAPER_DIRECTIONS, &a, &b, &c, &d, &a, &b, &c, &d);
        assert_eq!(v, Verdict::Culled);
        // Touching at x = 1: projections meet, no strict separation.
        let (c, d) = (Vec3::new(1.0, -1.0, 0.0), Vec3::new(1.0, 1.0, 0.0));
        let v = slpf_edge_edge(&PAPER_DIRECTIONS, &a, &b, &c, &d, &a, &b, &c, &d);
        assert_eq!(v, Verdict::Pass);
    }
}

/// SLPF on precomputed projections: every vertex's projection onto every
/// direction at `t = 0` and `t = 1`, as an outward-rounded interval
/// `[lo, hi]` that contains the exact value. A pair is culled along `s` when
/// every projection interval of one primitive lies strictly above (or below)
/// every projection interval of the other, at `t = 0` and at `t = 1` — the
/// same condition as Eqs. (1)–(2), with the signs certified through the
/// intervals instead of through the differences. It costs a few comparisons
/// per pair instead of 6–8 certified dot products per direction.
///
/// Both forms are conservative; they can differ only for pairs separated by
/// a few units of roundoff, where the per-pair kernel (rounding relative to
/// the differences) may cull a pair that the interval form (rounding relative
/// to the coordinates) passes.
#[derive(Debug, Clone)]
pub struct SlpfProjections {
    directions: usize,
    /// Per vertex, per direction: `[lo₀, hi₀, lo₁, hi₁]`.
    intervals: Vec<[f64; 4]>,
}

/// An outward-rounded interval containing the exact `x·s`.
#[inline]
fn projection_interval(x: &Vec3, s: &[f64; 3]) -> [f64; 2] {
    let mut sum: Option<Bounded> = None;
    for (&xi, &si) in x.iter().zip(s) {
        if si != 0.0 {
            let term = Bounded::exact(xi) * Bounded::exact(si);
            sum = Some(match sum {
                None => term,
                Some(acc) => acc + term,
            });
        }
    }
    match sum {
        None => [0.0, 0.0],
        // A single term times ±1 is exact.
        Some(b) if b.k == 1 && s.iter().filter(|&&c| c != 0.0).all(|&c| c.abs() == 1.0) => {
            [b.v, b.v]
        }
        Some(b) => {
            let e = b.error_bound();
            [(b.v - e).next_down(), (b.v + e).next_up()]
        }
    }
}

impl SlpfProjections {
    /// Projects every vertex of a step onto `directions`.
    pub fn new(x_t0: &[Vec3], x_t1: &[Vec3], directions: &[[f64; 3]]) -> SlpfProjections {
        use rayon::prelude::*;
        let nd = directions.len();
        let mut intervals = vec![[0.0; 4]; x_t0.len() * nd];
        intervals
            .par_chunks_mut(nd.max(1))
            .zip(x_t0.par_iter().zip(x_t1))
            .for_each(|(out, (p0, p1))| {
                for (o, s) in out.iter_mut().zip(directions) {
                    let [lo0, hi0] = projection_interval(p0, s);
                    let [lo1, hi1] = projection_interval(p1, s);
                    *o = [lo0, hi0, lo1, hi1];
                }
            });
        SlpfProjections {
            directions: nd,
            intervals,
        }
    }

    #[inline]
    fn at(&self, vertex: u32, d: usize) -> &[f64; 4] {
        &self.intervals[vertex as usize * self.directions + d]
    }

    /// SLPF on vertex `v` against the triangle with corners `face`.
    #[inline]
    pub fn cull_vertex_face(&self, v: u32, face: [u32; 3]) -> bool {
        (0..self.directions).any(|d| {
            let p = self.at(v, d);
            let [a, b, c] = face.map(|i| self.at(i, d));
            let above = p[0] > a[1].max(b[1]).max(c[1]) && p[2] > a[3].max(b[3]).max(c[3]);
            let below = p[1] < a[0].min(b[0]).min(c[0]) && p[3] < a[2].min(b[2]).min(c[2]);
            above || below
        })
    }

    /// SLPF on the edge `ea` against the edge `eb` (endpoint indices).
    #[inline]
    pub fn cull_edge_edge(&self, ea: [u32; 2], eb: [u32; 2]) -> bool {
        (0..self.directions).any(|d| {
            let [a0, a1] = ea.map(|i| self.at(i, d));
            let [b0, b1] = eb.map(|i| self.at(i, d));
            let a_below =
                a0[1].max(a1[1]) < b0[0].min(b1[0]) && a0[3].max(a1[3]) < b0[2].min(b1[2]);
            let a_above =
                a0[0].min(a1[0]) > b0[1].max(b1[1]) && a0[2].min(a1[2]) > b0[3].max(b1[3]);
            a_below || a_above
        })
    }
}

/// SLPF on per-vertex projections with one error bound per direction: the
/// cheapest form for the pipeline, which tests millions of pairs of one mesh.
///
/// For every vertex and direction `s` the table holds the computed
/// projections `p̃₀ = fl(x(0)·s)` and `p̃₁ = fl(x(1)·s)`; `δ_s` bounds
/// `|p̃ − x·s|` over all of them: a projection is a sum of at most three
/// terms, so `|p̃ − x·s| ≤ γ₃·Σᵢ|sᵢxᵢ|` (Higham 2002, §3.1; `γ₂` and no
/// products for the paper's 0/1 directions, none at all along a coordinate
/// axis), plus `3·2⁻¹⁰⁷⁵` for products that underflow. A pair is culled along
/// `s` when one primitive's projections exceed the other's by more than
/// `m_s = 2δ_s(1 + 4u)` at `t = 0` and at `t = 1`, comparing the largest of
/// one with the smallest of the other (exact operations): if
/// `fl(p̃ − q̃) > m_s` then `p̃ − q̃ > 2δ_s`, so the exact projections are
/// strictly ordered — the condition of Eqs. (1)–(2), certified.
///
/// It can differ from the per-pair kernels [`slpf_vertex_face`] and
/// [`slpf_edge_edge`] (whose bounds are relative to the differences) only on
/// pairs whose projections are within about `δ_s` of touching (`δ_s` is about
/// `10⁻¹⁵` of the coordinates' magnitude); both are conservative.
///
/// The default table has no directions and culls nothing.
///
/// The paper's five directions, in the paper's order: more directions cull
/// more pairs but cost more than they save, since DNF and the window filter
/// cull most of the extra pairs anyway. Other variants: docs/notes/slpf.md.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SlpfTable {
    directions: usize,
    /// Per vertex: the projections at `t = 0` on every direction, then at
    /// `t = 1`.
    values: Vec<f64>,
    /// Per direction: `m_s`.
    margin: Vec<f64>,
}

impl SlpfTable {
    /// Projects every vertex of a step onto `directions`.
    pub fn new(x_t0: &[Vec3], x_t1: &[Vec3], directions: &[[f64; 3]]) -> SlpfTable {
        let mut table = SlpfTable::default();
        table.update(x_t0, x_t1, directions);
        table
    }

    /// Makes this table [`SlpfTable::new`]'s for a new step, reusing its
    /// memory (the steps of a sequence: no fresh pages to fault in).
    ///
    /// # Panics
    /// When `x_t0` and `x_t1` differ in length.
    pub fn update(&mut self, x_t0: &[Vec3], x_t1: &[Vec3], directions: &[[f64; 3]]) {
        use rayon::prelude::*;
        assert_eq!(x_t0.len(), x_t1.len(), "positions at t = 0 and t = 1");
        let nd = directions.len();
        self.directions = nd;
        self.margin.clear();
        if nd == 0 {
            // No direction separates anything: the table culls nothing.
            self.values.clear();
            return;
        }
        let values = &mut self.values;
        let len = x_t0.len() * 2 * nd;
        if values.len() != len {
            // Zeroed pages from the system, first touched by the tasks.
            *values = vec![0.0; len];
        }
        // The paper's directions as constants: the compiler folds the
        // products by 1 and unrolls the loops.
        let paper = directions
            .iter()
            .flatten()
            .map(|c| c.to_bits())
            .eq(PAPER_DIRECTIONS.iter().flatten().map(|c| c.to_bits()));
        // Per chunk: the largest Σᵢ|sᵢxᵢ| per direction.
        let magnitudes: Vec<Vec<f64>> = values
            .par_chunks_mut(2 * nd * TABLE_CHUNK)
            .zip(
                x_t0.par_chunks(TABLE_CHUNK)
                    .zip(x_t1.par_chunks(TABLE_CHUNK)),
            )
            .map(|(out, (x0, x1))| {
                let mut mag = vec![0.0f64; nd];
                if paper {
                    project(out, x0, x1, &PAPER_DIRECTIONS, &mut mag);
                } else {
                    project(out, x0, x1, directions, &mut mag);
                }
                mag
            })
            .collect();
        for (d, s) in directions.iter().enumerate() {
            let nonzero = s.iter().filter(|&&c| c != 0.0).count();
            let products = s.iter().any(|&c| c != 0.0 && c.abs() != 1.0);
            let mag = magnitudes.iter().fold(0.0, |m, c| max_poisoned(m, c[d]));
            let delta = match (nonzero, products) {
                (0 | 1, false) => 0.0,
                (_, false) => gamma(2) * mag,
                _ => gamma(3) * mag + 3.0 * TINY,
            };
            // m_s, rounded up generously; NaN or ∞ culls nothing.
            let m = 2.0 * delta * (1.0 + gamma(8));
            self.margin
                .push(if m.is_finite() { m } else { f64::INFINITY });
        }
    }

    /// The projections of vertex `v` (`nd` directions, the table's):
    /// with `nd` a constant ([`SlpfTable::nd`]), so is the record's length,
    /// and the tests' indexing needs no bounds checks.
    #[inline(always)]
    fn record(&self, v: u32, nd: usize) -> &[f64] {
        let n = 2 * nd;
        &self.values[v as usize * n..(v as usize + 1) * n]
    }

    /// SLPF on vertex `v` against the triangle with corners `face`: `true`
    /// when culled.
    #[inline]
    pub fn cull_vertex_face(&self, v: u32, face: [u32; 3]) -> bool {
        match self.directions {
            5 => self.vertex_face_nd::<5>(v, face),
            _ => self.vertex_face_nd::<0>(v, face),
        }
    }

    /// SLPF on the edge `ea` against the edge `eb` (endpoint vertices):
    /// `true` when culled.
    #[inline]
    pub fn cull_edge_edge(&self, ea: [u32; 2], eb: [u32; 2]) -> bool {
        match self.directions {
            5 => self.edge_edge_nd::<5>(ea, eb),
            _ => self.edge_edge_nd::<0>(ea, eb),
        }
    }

    /// The number of directions: `ND`, or the table's when `ND` is 0 (a
    /// constant lets the compiler unroll the paper's five).
    #[inline(always)]
    fn nd<const ND: usize>(&self) -> usize {
        if ND == 0 { self.directions } else { ND }
    }

    #[inline(always)]
    fn vertex_face_nd<const ND: usize>(&self, v: u32, face: [u32; 3]) -> bool {
        let nd = self.nd::<ND>();
        let p = self.record(v, nd);
        let [a, b, c] = face.map(|i| self.record(i, nd));
        let margin = &self.margin[..nd];
        // Per direction: the vertex above all corners at both times, or
        // below them.
        let mut culled = false;
        for (d, &m) in margin.iter().enumerate() {
            let mut above = true;
            let mut below = true;
            for i in [d, d + nd] {
                let hi = max(max(a[i], b[i]), c[i]);
                let lo = min(min(a[i], b[i]), c[i]);
                above &= p[i] - hi > m;
                below &= lo - p[i] > m;
            }
            culled |= above | below;
        }
        culled
    }

    #[inline(always)]
    fn edge_edge_nd<const ND: usize>(&self, ea: [u32; 2], eb: [u32; 2]) -> bool {
        let nd = self.nd::<ND>();
        let [a0, a1] = ea.map(|i| self.record(i, nd));
        let [b0, b1] = eb.map(|i| self.record(i, nd));
        let margin = &self.margin[..nd];
        let mut culled = false;
        for (d, &m) in margin.iter().enumerate() {
            let mut above = true;
            let mut below = true;
            for i in [d, d + nd] {
                let (alo, ahi) = (min(a0[i], a1[i]), max(a0[i], a1[i]));
                let (blo, bhi) = (min(b0[i], b1[i]), max(b0[i], b1[i]));
                above &= alo - bhi > m;
                below &= blo - ahi > m;
            }
            culled |= above | below;
        }
        culled
    }
}

/// Vertices per task of [`SlpfTable::update`] (the table does not depend
/// on it: the magnitudes are maxima).
const TABLE_CHUNK: usize = 2048;

/// Writes the records of the vertices `x_t0[i]`, `x_t1[i]` into `out`
/// ([`SlpfTable`]'s layout) and raises `mag[d]` to the largest `Σᵢ|sᵢxᵢ|`
/// over them for every direction `s = directions[d]`.
#[inline(always)]
fn project(
    out: &mut [f64],
    x_t0: &[Vec3],
    x_t1: &[Vec3],
    directions: &[[f64; 3]],
    mag: &mut [f64],
) {
    let nd = directions.len();
    let mag = &mut mag[..nd];
    for ((rec, p0), p1) in out.chunks_exact_mut(2 * nd).zip(x_t0).zip(x_t1) {
        for (t, x) in [p0, p1].into_iter().enumerate() {
            for (d, s) in directions.iter().enumerate() {
                rec[t * nd + d] = (x.x * s[0] + x.y * s[1]) + x.z * s[2];
                let m = (x.x * s[0]).abs() + (x.y * s[1]).abs() + (x.z * s[2]).abs();
                mag[d] = max_poisoned(mag[d], m);
            }
        }
    }
}

/// The larger of `acc` and `x`, where a NaN, once met, stays: a NaN
/// coordinate poisons its direction's margin (which then culls nothing).
#[inline(always)]
fn max_poisoned(acc: f64, x: f64) -> f64 {
    if x > acc || x.is_nan() { x } else { acc }
}

#[inline(always)]
fn min(a: f64, b: f64) -> f64 {
    if a < b { a } else { b }
}

#[inline(always)]
fn max(a: f64, b: f64) -> f64 {
    if a > b { a } else { b }
}

#[cfg(test)]
mod projection_tests {
    use super::*;
    use crate::exact::Dyadic;
    use proptest::prelude::*;

    #[test]
    fn a_table_without_directions_culls_nothing() {
        let x0 = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(9.0, 9.0, 9.0),
        ];
        let table = SlpfTable::new(&x0, &x0, &[]);
        assert!(!table.cull_vertex_face(3, [0, 1, 2]));
        assert!(!table.cull_edge_edge([0, 1], [2, 3]));
        // With the paper's directions the far vertex is culled.
        let table = SlpfTable::new(&x0, &x0, &PAPER_DIRECTIONS);
        assert!(table.cull_vertex_face(3, [0, 1, 2]));
    }

    #[test]
    fn an_updated_table_is_a_new_one() {
        let x: Vec<Vec3> = (0..9)
            .map(|i| Vec3::new(f64::from(i), f64::from(i * i % 5), -0.5 * f64::from(i)))
            .collect();
        let y: Vec<Vec3> = x
            .iter()
            .map(|p| p * 3.0 + Vec3::new(0.25, -1.0, 2.0))
            .collect();
        // Over tables of other sizes and direction sets, and over itself.
        for (n, dirs) in [
            (9, &PAPER_DIRECTIONS[..]),
            (4, &PAPER_DIRECTIONS[..2]),
            (9, &[]),
        ] {
            let mut table = SlpfTable::new(&x[..n], &y[..n], dirs);
            for (m, d) in [
                (9, &PAPER_DIRECTIONS[..]),
                (6, &PAPER_DIRECTIONS[1..]),
                (9, &[]),
            ] {
                table.update(&y[..m], &x[..m], d);
                assert_eq!(table, SlpfTable::new(&y[..m], &x[..m], d), "{n} {m}");
            }
        }
    }

    proptest! {
        /// The paper's directions take their own path through
        /// [`SlpfTable::update`] (constants the compiler folds): its
        /// records and margins are those of the general path, which a sixth
        /// direction forces.
        #[test]
        fn paper_directions_path_equals_the_general_one(
            x in proptest::collection::vec(proptest::array::uniform6(-1e3f64..1e3), 1..40),
        ) {
            let x0: Vec<Vec3> = x.iter().map(|c| Vec3::new(c[0], c[1], c[2])).collect();
            let x1: Vec<Vec3> = x.iter().map(|c| Vec3::new(c[3], c[4], c[5])).collect();
            let paper = SlpfTable::new(&x0, &x1, &PAPER_DIRECTIONS);
            let mut six = PAPER_DIRECTIONS.to_vec();
            six.push([0.0, 0.0, 1.0]);
            let general = SlpfTable::new(&x0, &x1, &six);
            prop_assert_eq!(&paper.margin[..], &general.margin[..5]);
            for v in 0..x.len() as u32 {
                let (p, g) = (paper.record(v, 5), general.record(v, 6));
                prop_assert_eq!(&p[..5], &g[..5]);
                prop_assert_eq!(&p[5..], &g[6..11]);
            }
        }

        /// The interval contains the exact projection, for the paper's
        /// directions and arbitrary ones.
        #[test]
        fn projection_interval_contains_the_exact_value(
            x in proptest::array::uniform3(-1e3f64..1e3),
            s in proptest::array::uniform3(-2.0f64..2.0),
        ) {
            let p = Vec3::new(x[0], x[1], x[2]);
            for dir in PAPER_DIRECTIONS.iter().chain([&s]) {
                let [lo, hi] = projection_interval(&p, dir);
                let mut exact = Dyadic::zero();
                for i in 0..3 {
                    let (a, b) = (Dyadic::from_f64(x[i]), Dyadic::from_f64(dir[i]));
                    let prod = Dyadic::new(&a.num * &b.num, a.exp + b.exp);
                    let (u, v, j) = exact.common(&prod);
                    exact = Dyadic::new(u + v, j);
                }
                prop_assert!(Dyadic::from_f64(lo) <= exact && exact <= Dyadic::from_f64(hi));
            }
        }

        /// The interval form never culls a pair that the per-pair kernel
        /// passes by more than roundoff: on random pairs they agree.
        #[test]
        fn interval_form_agrees_with_the_kernel(
            q in proptest::array::uniform8(proptest::array::uniform3(-2.0f64..2.0)),
        ) {
            let pts: Vec<Vec3> = q.iter().map(|c| Vec3::new(c[0], c[1], c[2])).collect();
            let proj = SlpfProjections::new(&pts[..4], &pts[4..], &PAPER_DIRECTIONS);
            let kernel_vf = slpf_vertex_face(
                &PAPER_DIRECTIONS, &pts[0], &pts[1], &pts[2], &pts[3], &pts[4], &pts[5], &pts[6], &pts[7],
            ) == Verdict::Culled;
            prop_assert_eq!(proj.cull_vertex_face(0, [1, 2, 3]), kernel_vf);
            let kernel_ee = slpf_edge_edge(
                &PAPER_DIRECTIONS, &pts[0], &pts[1], &pts[2], &pts[3], &pts[4], &pts[5], &pts[6], &pts[7],
            ) == Verdict::Culled;
            prop_assert_eq!(proj.cull_edge_edge([0, 1], [2, 3]), kernel_ee);
        }

        /// The per-vertex table culls exactly what the per-pair kernels cull
        /// on random pairs (no near-ties), and never culls a pair whose
        /// projections overlap exactly (lattice pairs, with touching
        /// projections).
        #[test]
        fn table_agrees_with_the_kernels(
            q in proptest::array::uniform8(proptest::array::uniform3(-2.0f64..2.0)),
            lattice in proptest::array::uniform8(proptest::array::uniform3(-2i32..=2)),
        ) {
            for pts in [
                q.map(|c| Vec3::new(c[0], c[1], c[2])),
                lattice.map(|c| Vec3::new(c[0].into(), c[1].into(), c[2].into())),
            ] {
                let table = SlpfTable::new(&pts[..4], &pts[4..], &PAPER_DIRECTIONS);
                let [a, b, c, d, e, f, g, h] = &pts;
                let vf = slpf_vertex_face(&PAPER_DIRECTIONS, a, b, c, d, e, f, g, h) == Verdict::Culled;
                let ee = slpf_edge_edge(&PAPER_DIRECTIONS, a, b, c, d, e, f, g, h) == Verdict::Culled;
                // Lattice points: projections are exact, ties are exact
                // zeros, which neither form certifies; a tie never culls.
                prop_assert_eq!(table.cull_vertex_face(0, [1, 2, 3]), vf);
                prop_assert_eq!(table.cull_edge_edge([0, 1], [2, 3]), ee);
            }
        }
    }
}
