//! Differential, one pair at `d = 0`: the `exact` solver (float tiers and
//! exact fallback) against the exact oracle (same decision, a bracket that
//! holds the oracle's time), and every filter setting, SLPF's per-step
//! table, the codimensional points' filters and `orient3d` against the
//! oracle or their exact forms (culled ⇒ no contact).
#![no_main]

mod common;

use ccdlab::filter::{
    FilterSet, PAPER_DIRECTIONS, SlpfTable, point_point_apart, point_segment_apart,
};
use ccdlab::narrow_phase::{
    QueryKind, edge_edge_traced, orient3d, orient3d_exact, vertex_face_traced,
};
use common::{Src, bits, check_bracket, kind, oracle_query, query};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let mut src = Src(bytes);
    let kind = kind(src.u8());
    let q = query(&mut src);
    let [a, b, c, d, e, f, g, h] = &q;
    let want = oracle_query(kind, &q, 0.0);
    let (got, tier) = common::timed("exact solver", &(kind, bits(&q)), || match kind {
        QueryKind::VertexFace => vertex_face_traced(a, b, c, d, e, f, g, h),
        QueryKind::EdgeEdge => edge_edge_traced(a, b, c, d, e, f, g, h),
    });
    assert_eq!(
        got.is_some(),
        want.is_some(),
        "{kind:?} exact solver ({tier:?}) {got:?} vs oracle on {:?}",
        bits(&q)
    );
    if let (Some(toi), Some(alpha)) = (got, &want) {
        check_bracket("exact solver", toi, alpha, &q, 0.0);
    }
    let touches = want.is_some();
    for s in FilterSet::ALL {
        for window in [false, true] {
            let culled = s.cull(kind, &PAPER_DIRECTIONS, window, 0.0, &q);
            assert!(
                !(touches && culled.is_some()),
                "{kind:?} {s} window {window}: {culled:?} culls a contact {:?}",
                bits(&q)
            );
        }
    }
    // SLPF from its per-step table over the pair's four vertices.
    let table = SlpfTable::new(&q[..4], &q[4..], &PAPER_DIRECTIONS);
    let culled = match kind {
        QueryKind::VertexFace => table.cull_vertex_face(0, [1, 2, 3]),
        QueryKind::EdgeEdge => table.cull_edge_edge([0, 1], [2, 3]),
    };
    assert!(
        !(touches && culled),
        "{kind:?} SLPF table culls a contact {:?}",
        bits(&q)
    );
    // The codimensional points' filters: point 0 against segment 2–3, and
    // point 0 against point 2, against the oracle's zero-length edge.
    if point_segment_apart(a, c, d, e, g, h) {
        let pq = [*a, *a, *c, *d, *e, *e, *g, *h];
        assert!(
            oracle_query(QueryKind::EdgeEdge, &pq, 0.0).is_none(),
            "point_segment_apart on a touching pair {:?}",
            bits(&pq)
        );
    }
    if point_point_apart(a, c, e, g) {
        let pq = [*a, *a, *c, *c, *e, *e, *g, *g];
        assert!(
            oracle_query(QueryKind::EdgeEdge, &pq, 0.0).is_none(),
            "point_point_apart on a touching pair {:?}",
            bits(&pq)
        );
    }
    assert_eq!(
        orient3d(a, b, c, d),
        orient3d_exact(a, b, c, d),
        "orient3d {:?}",
        bits(&q[..4])
    );
});
