//! The minimum-separation solvers on the handcrafted erleben query sets
//! (sliding and resting contacts, spikes into cracks and wedges: exact
//! touching, coplanar motion, shared coordinates), against the exact
//! oracle at a few distances; `d = 0` against the contact solvers, bit for
//! bit.

use std::cmp::Ordering;

use ccdlab::exact::{Algebraic, Dyadic};
use ccdlab::harness::data::require_root;
use ccdlab::harness::ground_truth::{QueryKind, read_query_csv};
use ccdlab::math::Vec3;
use ccdlab::narrow_phase::{self, SolverTier, Toi, oracle};

fn within(kind: QueryKind, q: &[Vec3; 8], d: f64) -> (Option<Toi>, SolverTier) {
    let [a, b, c, e, f, g, h, i] = q;
    match kind {
        QueryKind::VertexFace => narrow_phase::vertex_face_within_traced(a, b, c, e, f, g, h, i, d),
        QueryKind::EdgeEdge => narrow_phase::edge_edge_within_traced(a, b, c, e, f, g, h, i, d),
    }
}

fn contact(kind: QueryKind, q: &[Vec3; 8]) -> (Option<Toi>, SolverTier) {
    let [a, b, c, e, f, g, h, i] = q;
    match kind {
        QueryKind::VertexFace => narrow_phase::vertex_face_traced(a, b, c, e, f, g, h, i),
        QueryKind::EdgeEdge => narrow_phase::edge_edge_traced(a, b, c, e, f, g, h, i),
    }
}

fn exact(kind: QueryKind, q: &[Vec3; 8], d: f64) -> Option<Algebraic> {
    let [a, b, c, e, f, g, h, i] = q;
    match kind {
        QueryKind::VertexFace => oracle::vertex_face_within(a, b, c, e, f, g, h, i, d),
        QueryKind::EdgeEdge => oracle::edge_edge_within(a, b, c, e, f, g, h, i, d),
    }
}

/// Every fifth query of every erleben set, each at one of three distances
/// (the scenes are about unit size).
#[test]
fn erleben_queries_agree_with_the_oracle() {
    let root = require_root().unwrap_or_else(|e| panic!("{e}"));
    let queries = root.join("ccd-queries");
    let mut scenes: Vec<_> = std::fs::read_dir(&queries)
        .unwrap_or_else(|e| panic!("{}: {e}", queries.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("erleben-")
        })
        .collect();
    scenes.sort();
    assert!(
        !scenes.is_empty(),
        "no erleben scene under {}",
        queries.display()
    );
    let (mut n, mut filtered, mut hits) = (0u32, 0u32, 0u32);
    let mut wrong = Vec::new();
    for scene in &scenes {
        for (dir, kind) in [
            ("vertex-face", QueryKind::VertexFace),
            ("edge-edge", QueryKind::EdgeEdge),
        ] {
            let mut files: Vec<_> = std::fs::read_dir(scene.join(dir))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            for file in files {
                let set = read_query_csv(&file, kind).unwrap_or_else(|e| panic!("{e}"));
                for (i, q) in set.points.iter().enumerate().step_by(5) {
                    let zero = within(kind, q, 0.0);
                    let want = contact(kind, q);
                    assert_eq!(
                        zero.0.map(|t| (t.lower.to_bits(), t.upper.to_bits())),
                        want.0.map(|t| (t.lower.to_bits(), t.upper.to_bits())),
                        "{} query {i}: d = 0 differs from the contact solver",
                        file.display()
                    );
                    let d = [1e-6, 1e-3, 5e-2][(i / 5) % 3];
                    let (got, path) = within(kind, q, d);
                    n += 1;
                    filtered += (path == SolverTier::Float) as u32;
                    hits += got.is_some() as u32;
                    let ok = match (got, exact(kind, q, d)) {
                        (None, None) => true,
                        (Some(toi), Some(mut t)) => {
                            let mut lo = Algebraic::exact(Dyadic::from_f64(toi.lower));
                            let mut hi = Algebraic::exact(Dyadic::from_f64(toi.upper));
                            lo.compare(&mut t) != Ordering::Greater
                                && hi.compare(&mut t) != Ordering::Less
                        }
                        _ => false,
                    };
                    if !ok {
                        wrong.push(format!(
                            "{} query {i} d = {d:e}: {got:?} ({path:?})",
                            file.display()
                        ));
                    }
                }
            }
        }
    }
    println!("erleben: {filtered}/{n} decided by the fast path, {hits} hits");
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
