//! Shared by the differential targets: bytes to degenerate-rich geometry,
//! and the exact checks against the oracle.
#![allow(dead_code)]

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use ccdlab::exact::{Algebraic, Dyadic};
use ccdlab::math::Vec3;
use ccdlab::mesh::{Feature, Step, TriMesh};
use ccdlab::narrow_phase::{EXACT_TOI_WIDTH, QueryKind, Toi, oracle};

/// Bytes read front to back; zeros once they run out.
pub struct Src<'a>(pub &'a [u8]);

impl Src<'_> {
    pub fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    pub fn u64(&mut self) -> u64 {
        (0..8).fold(0, |x, _| (x << 8) | u64::from(self.u8()))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `2^e` for every `e` in `[-1074, 1023]` (subnormal ones included).
pub fn pow2(e: i32) -> f64 {
    let e = e.clamp(-1074, 1023);
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (e + 1074))
    }
}

/// A scale exponent: mostly moderate, one byte in eight at the ends of
/// the double range.
pub fn exponent(b: u8) -> i32 {
    const EXTREME: [i32; 32] = [
        -1074, -1073, -1070, -1060, -1040, -1022, -1021, -1000, -800, -700, -600, -540, -520, -500,
        -400, -300, 150, 180, 190, 200, 210, 250, 300, 340, 400, 500, 600, 700, 1000, 1015, 1019,
        1021,
    ];
    match b >> 5 {
        0..=3 => i32::from(b & 0x1f) - 16 + if b >> 5 == 3 { -40 } else { 0 },
        4..=6 => i32::from(b & 0x1f) - 16,
        _ => EXTREME[usize::from(b & 0x1f)],
    }
}

/// `x` moved by `k` ulps.
pub fn ulps(x: f64, k: i32) -> f64 {
    (0..k.abs()).fold(x, |y, _| if k > 0 { y.next_up() } else { y.next_down() })
}

/// `n` points (`n / 2` at `t = 0`, then the same at `t = 1`) on a small
/// integer grid times `2^e`: repeated points, points that do not move,
/// points with their own scale, raw doubles, a shared coordinate (coplanar
/// motion), and a few coordinates moved by ulps. Finite always.
pub fn points(src: &mut Src<'_>, n: usize) -> Vec<Vec3> {
    points_spread(src, n, true)
}

/// [`points`]; without `spread`, one scale for all points and raw doubles
/// of moderate exponent only: a mesh's many oracle calls stay fast (mixed
/// magnitudes across the double range make the exact fallback take seconds
/// a query, a known cost; see the README's "Fuzzing").
pub fn points_spread(src: &mut Src<'_>, n: usize, spread: bool) -> Vec<Vec3> {
    let header = src.u8();
    let e = exponent(src.u8());
    let scale = pow2(e);
    let half = n / 2;
    let mut out: Vec<Vec3> = Vec::with_capacity(n);
    for i in 0..n {
        let ctl = src.u8();
        let p = match ctl & 7 {
            // A repeat of an earlier point.
            0 if i > 0 => out[usize::from(ctl >> 3) % i],
            // Not moving.
            1 if i >= half => out[i - half],
            // Raw doubles (non-finite ones replaced by a grid value).
            2 => {
                let mut c = [0.0; 3];
                for x in &mut c {
                    let mut v = f64::from_bits(src.u64());
                    // Mostly a moderate exponent (full-range spreads make
                    // the exact fallback slow, and they are known; see
                    // the README's "Fuzzing").
                    let r = src.u8();
                    if r & 3 != 0 || !spread {
                        let e = 1023 - 16 + u64::from(r >> 2) % 32;
                        v = f64::from_bits(v.to_bits() & !(0x7ff << 52) | (e << 52));
                    }
                    if !spread {
                        v *= scale;
                    }
                    *x = if v.is_finite() {
                        v
                    } else {
                        f64::from(src.u8() % 9) - 4.0
                    };
                }
                Vec3::new(c[0], c[1], c[2])
            }
            _ => {
                // Own scale for a few points: mixed magnitudes.
                let s = match ctl >> 3 {
                    _ if !spread => scale,
                    0..=25 => scale,
                    26..=29 => scale * pow2(i32::from(ctl >> 3) - 27),
                    _ => pow2(exponent(src.u8())),
                };
                let mut c = [0.0; 3];
                for x in &mut c {
                    let b = src.u8();
                    // −8..=8, mostly −2..=2.
                    let k = if b < 200 {
                        i32::from(b % 5) - 2
                    } else {
                        i32::from(b % 17) - 8
                    };
                    *x = f64::from(k) * s;
                    // (A large scale times k may overflow.)
                    if !x.is_finite() {
                        *x = f64::from(k.signum()) * f64::MAX;
                    }
                }
                Vec3::new(c[0], c[1], c[2])
            }
        };
        out.push(p);
    }
    // Coplanar motion: one axis shared by all points at each time.
    if header & 1 != 0 {
        let axis = usize::from(header >> 1) % 3;
        let (a0, a1) = (out[0][axis], out[half][axis]);
        let same = header & 8 != 0;
        for (i, p) in out.iter_mut().enumerate() {
            p[axis] = if i < half || same { a0 } else { a1 };
        }
    }
    // Nudges by a few ulps.
    for _ in 0..(header >> 4) % 4 {
        let j = usize::from(src.u8()) % (3 * n);
        let k = i32::from(src.u8() % 7) - 3;
        let p = &mut out[j / 3];
        p[j % 3] = ulps(p[j % 3], k);
        if !p[j % 3].is_finite() {
            p[j % 3] = 0.0;
        }
    }
    out
}

/// A query's eight points.
pub fn query(src: &mut Src<'_>) -> [Vec3; 8] {
    let p = points(src, 8);
    std::array::from_fn(|i| p[i])
}

/// A minimum separation `d ≥ 0`: zero, a grid multiple of a power of two,
/// the least subnormal, or raw finite bits.
pub fn distance(src: &mut Src<'_>) -> f64 {
    let b = src.u8();
    match b & 7 {
        0 => 0.0,
        1 => f64::from_bits(1),
        2 => {
            let d = f64::from_bits(src.u64()).abs();
            if d.is_finite() { d } else { 1.0 }
        }
        _ => f64::from(1 + (b >> 3) % 8) * 0.25 * pow2(exponent(src.u8())),
    }
}

pub fn kind(b: u8) -> QueryKind {
    if b & 1 == 0 {
        QueryKind::VertexFace
    } else {
        QueryKind::EdgeEdge
    }
}

/// How long one call (oracle or fast path) may take before it is noted.
pub const SLOW: Duration = Duration::from_secs(1);

/// Times `f`; a call over [`SLOW`] is appended to the file
/// `$CCDLAB_FUZZ_SLOW` (default `fuzz/slow.txt`) with its input, and is a
/// failure when `CCDLAB_FUZZ_SLOW_FAILS` is set (slow inputs are common
/// enough to stop a run that fails on them; see the README's "Fuzzing").
pub fn timed<T>(what: &str, q: &dyn std::fmt::Debug, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let r = f();
    let t = start.elapsed();
    if t >= SLOW {
        use std::io::Write;
        let path = std::env::var("CCDLAB_FUZZ_SLOW")
            .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/slow.txt").into());
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = writeln!(file, "{what} took {t:?} on {q:?}");
        }
        assert!(
            std::env::var_os("CCDLAB_FUZZ_SLOW_FAILS").is_none(),
            "{what} took {t:?} on {q:?}"
        );
    }
    r
}

/// The exact contact oracle (`d = 0`) or minimum-separation oracle.
pub fn oracle_query(kind: QueryKind, q: &[Vec3; 8], d: f64) -> Option<Algebraic> {
    let [a, b, c, e, f, g, h, i] = q;
    timed("oracle", &(kind, bits(q), d.to_bits()), || {
        match (kind, d > 0.0) {
            (QueryKind::VertexFace, false) => oracle::vertex_face(a, b, c, e, f, g, h, i),
            (QueryKind::EdgeEdge, false) => oracle::edge_edge(a, b, c, e, f, g, h, i),
            (QueryKind::VertexFace, true) => oracle::vertex_face_within(a, b, c, e, f, g, h, i, d),
            (QueryKind::EdgeEdge, true) => oracle::edge_edge_within(a, b, c, e, f, g, h, i, d),
        }
    })
}

/// The bits of a query, for the report of a disagreement.
pub fn bits(q: &[Vec3]) -> Vec<[u64; 3]> {
    q.iter()
        .map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()])
        .collect()
}

/// `toi` brackets the exact time `alpha`: `lower ≤ alpha ≤ upper`.
pub fn check_bracket(what: &str, toi: Toi, alpha: &Algebraic, q: &[Vec3], d: f64) {
    let mut alpha = alpha.clone();
    assert!(
        toi.lower <= toi.upper,
        "{what}: {toi:?} on {:?} d {d:?}",
        bits(q)
    );
    let mut lo = Algebraic::exact(Dyadic::from_f64(toi.lower));
    let mut hi = Algebraic::exact(Dyadic::from_f64(toi.upper));
    assert_ne!(
        lo.compare(&mut alpha),
        Ordering::Greater,
        "{what}: lower end {toi:?} late on {:?} d {d:?}",
        bits(q)
    );
    assert_ne!(
        hi.compare(&mut alpha),
        Ordering::Less,
        "{what}: upper end {toi:?} early on {:?} d {d:?}",
        bits(q)
    );
}

/// A tiny mesh from bytes: up to `max_v` vertices, faces and codimensional
/// edges among them (invalid ones dropped), positions from [`points`].
pub fn mesh(src: &mut Src<'_>, max_v: usize) -> (TriMesh, Vec<Vec3>, Vec<Vec3>) {
    let nv = 3 + usize::from(src.u8()) % (max_v - 2);
    let nf = usize::from(src.u8()) % 6;
    let ne = usize::from(src.u8()) % 4;
    let mut faces: Vec<[u32; 3]> = Vec::new();
    for _ in 0..nf {
        let f = [0, 0, 0].map(|_| u32::from(src.u8()) % nv as u32);
        let mut s = f;
        s.sort_unstable();
        let ok = s[0] != s[1]
            && s[1] != s[2]
            && !faces.iter().any(|g| {
                let mut t = *g;
                t.sort_unstable();
                t == s
            });
        if ok {
            faces.push(f);
        }
    }
    let mut edges: Vec<[u32; 2]> = Vec::new();
    for _ in 0..ne {
        let e = [0, 0].map(|_| u32::from(src.u8()) % nv as u32);
        if e[0] != e[1] {
            edges.push(e);
        }
    }
    if faces.is_empty() && edges.is_empty() {
        faces.push([0, 1, 2]);
    }
    let mesh = TriMesh::with_edges(nv, faces, &edges).expect("a valid mesh");
    let p = points_spread(src, 2 * nv, false);
    (mesh, p[..nv].to_vec(), p[nv..].to_vec())
}

/// Every vertex–face and edge–edge pair of the mesh (no shared vertex), and
/// every pair of a codimensional point with a codimensional edge or another
/// point, that the exact oracle finds colliding (within `d`), with a
/// bracket of its earliest time (as tests/integration/pipeline.rs).
pub fn oracle_collisions(step: &Step<'_>, d: f64) -> BTreeMap<(QueryKind, u64, u64), [f64; 2]> {
    let (mesh, a, b) = (step.mesh(), step.x_t0(), step.x_t1());
    let bracket = |mut t: Algebraic| {
        t.refine_to(EXACT_TOI_WIDTH);
        [t.lower_f64(), t.upper_f64()]
    };
    let mut hits = BTreeMap::new();
    for (f, tri) in mesh.faces().iter().enumerate() {
        let [c0, c1, c2] = tri.map(|i| i as usize);
        for v in (0..mesh.num_vertices() as u32).filter(|v| !tri.contains(v)) {
            let q = v as usize;
            let query = [a[q], a[c0], a[c1], a[c2], b[q], b[c0], b[c1], b[c2]];
            if let Some(t) = oracle_query(QueryKind::VertexFace, &query, d) {
                let key = (
                    QueryKind::VertexFace,
                    mesh.global_id(Feature::Vertex(v)),
                    mesh.global_id(Feature::Face(f as u32)),
                );
                hits.insert(key, bracket(t));
            }
        }
    }
    let edges = mesh.edges();
    for (i, &[p, q]) in edges.iter().enumerate() {
        for (j, &[r, s]) in edges.iter().enumerate().skip(i + 1) {
            if [p, q].iter().any(|x| *x == r || *x == s) {
                continue;
            }
            let [p, q, r, s] = [p, q, r, s].map(|x| x as usize);
            let query = [a[p], a[q], a[r], a[s], b[p], b[q], b[r], b[s]];
            if let Some(t) = oracle_query(QueryKind::EdgeEdge, &query, d) {
                let key = (
                    QueryKind::EdgeEdge,
                    mesh.global_id(Feature::Edge(i as u32)),
                    mesh.global_id(Feature::Edge(j as u32)),
                );
                hits.insert(key, bracket(t));
            }
        }
    }
    let points = mesh.codim_vertices();
    let codim =
        (mesh.num_face_edges()..mesh.num_edges()).map(|e| (Feature::Edge(e as u32), edges[e]));
    let others: Vec<_> = codim
        .chain(points.iter().map(|&w| (Feature::Vertex(w), [w, w])))
        .collect();
    for &v in points {
        for &(other, [r, s]) in &others {
            if other == Feature::Vertex(v) || (matches!(other, Feature::Vertex(w) if w < v)) {
                continue;
            }
            let (p, [r, s]) = (v as usize, [r as usize, s as usize]);
            let query = [a[p], a[p], a[r], a[s], b[p], b[p], b[r], b[s]];
            if let Some(t) = oracle_query(QueryKind::EdgeEdge, &query, d) {
                let key = (
                    QueryKind::EdgeEdge,
                    mesh.global_id(Feature::Vertex(v)),
                    mesh.global_id(other),
                );
                hits.insert(key, bracket(t));
            }
        }
    }
    hits
}
