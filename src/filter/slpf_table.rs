//! SLPF on a per-vertex projection table: the form of Wan, Fu & Yao's
//! spatial linear projection filter (2022, §2, Eqs. (1)–(2)) that the
//! pipeline runs, with one rounding bound per direction instead of one per
//! pair (docs/design.md §2.2 and §7; the per-pair kernels are in
//! `slpf.rs`).

use super::slpf::PAPER_DIRECTIONS;
use crate::math::{TINY, Vec3, gamma};

/// SLPF on per-vertex projections with one error bound per direction: the
/// cheapest form for the pipeline, which tests millions of pairs of one mesh.
///
/// For every vertex and direction `s` the table holds the computed
/// projections `p̃₀ = fl(x(0)·s)` and `p̃₁ = fl(x(1)·s)`; `δ_s` bounds
/// `|p̃ − x·s|` over all of them: a projection is a sum of at most three
/// terms, so `|p̃ − x·s| ≤ γ₃·Σᵢ|sᵢxᵢ|` (Higham 2002, §3.1; `γ₂` and no
/// products for the paper's 0/1 directions, none at all along a coordinate
/// axis), plus `3·2⁻¹⁰²²`, more than the `3·2⁻¹⁰⁷⁵` that products which
/// underflow can lose (the code's `γ₃` is the safe `4u` of
/// [`crate::math::gamma`], which also covers the roundings of `Σᵢ|sᵢxᵢ|`
/// and of `δ_s` itself). The bound is absolute, so it holds at every
/// magnitude: the table needs no filter-range check. A pair is culled along
/// `s` when one primitive's projections exceed the other's by more than
/// `m_s = fl(2δ_s(1 + γ₈))` (at least `2δ_s(1 + u)`) at `t = 0` and at
/// `t = 1`, comparing the largest of one with the smallest of the other
/// (exact operations): if `fl(p̃ − q̃) > m_s` then `p̃ − q̃ > 2δ_s`, so the
/// exact projections are strictly ordered — the condition of Eqs. (1)–(2),
/// certified.
///
/// It can differ from the per-pair kernels [`super::slpf_vertex_face`] and
/// [`super::slpf_edge_edge`] (whose bounds are relative to the differences) only on
/// pairs whose projections are within about `δ_s` of touching (`δ_s` is about
/// `10⁻¹⁵` of the step's largest coordinate magnitude, wherever in the mesh
/// that coordinate is); both are conservative.
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
mod tests {
    use super::*;
    use crate::filter::{Verdict, slpf_edge_edge, slpf_vertex_face};
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
        /// A vertex on a triangle's edge that is orthogonal to `(1, 1, 1)`
        /// (the difference exact, coordinates in `[1, 2)`): the exact
        /// projections along `(1, 1, 1)` tie, the computed ones (two
        /// roundings each) may not, and the table's margin is what keeps it
        /// from culling. The static pair touches: never culled.
        #[test]
        fn never_culls_a_vertex_on_an_edge_whose_projections_round_apart(
            px in 1.0..2.0f64, py in 1.0..2.0f64, pz in 1.0..2.0f64,
            k in (1u64..(1u64 << 40)).prop_map(|i| i as f64 * 2f64.powi(-52)),
            j in 1i32..4,
        ) {
            let p = Vec3::new(px, py, pz);
            let e = Vec3::new(k, -2.0 * k, k);
            let (a, b) = (p - e, p + e * f64::from(j));
            let c = p - Vec3::new(4.0, 4.0, 4.0);
            prop_assume!(a - p == -e && b - p == e * f64::from(j));
            let x = [p, a, b, c];
            prop_assert!(crate::narrow_phase::oracle::vertex_face(&p, &a, &b, &c, &p, &a, &b, &c).is_some());
            let table = SlpfTable::new(&x, &x, &PAPER_DIRECTIONS);
            prop_assert!(!table.cull_vertex_face(0, [1, 2, 3]), "{:?}", x);
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
