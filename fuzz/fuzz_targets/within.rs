//! Differential, one pair at a minimum separation `d ≥ 0`: the certified
//! within-`d` solvers against the exact minimum-separation oracle (same
//! decision, a bracket that holds the oracle's time); `d = 0` is the
//! contact solver bit for bit; the filters in their within-`d` forms cull
//! only pairs the oracle keeps apart; a bad `d` is refused cleanly.
#![no_main]

mod common;

use ccdlab::filter::{FilterSet, PAPER_DIRECTIONS, Verdict, dnf_within, points, window_within};
use ccdlab::narrow_phase::{
    QueryKind, edge_edge_traced, edge_edge_within_traced, validate_separation, vertex_face_traced,
    vertex_face_within_traced,
};
use common::{Src, bits, check_bracket, distance, kind, oracle_query, query};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let mut src = Src(bytes);
    let kind = kind(src.u8());
    let d = distance(&mut src);
    let q = query(&mut src);
    let [a, b, c, dd, e, f, g, h] = &q;
    let within = |d: f64| match kind {
        QueryKind::VertexFace => vertex_face_within_traced(a, b, c, dd, e, f, g, h, d),
        QueryKind::EdgeEdge => edge_edge_within_traced(a, b, c, dd, e, f, g, h, d),
    };
    assert!(validate_separation(d).is_ok());
    let want = oracle_query(kind, &q, d);
    let (got, tier) = common::timed("within solver", &(kind, bits(&q), d.to_bits()), || {
        within(d)
    });
    assert_eq!(
        got.is_some(),
        want.is_some(),
        "{kind:?} within d = {d:?} ({} bits {:#x}), {tier:?}: {got:?} vs the oracle on {:?}",
        d,
        d.to_bits(),
        bits(&q)
    );
    if let (Some(toi), Some(alpha)) = (got, &want) {
        check_bracket("within", toi, alpha, &q, d);
    }
    if d == 0.0 {
        let contact = match kind {
            QueryKind::VertexFace => vertex_face_traced(a, b, c, dd, e, f, g, h),
            QueryKind::EdgeEdge => edge_edge_traced(a, b, c, dd, e, f, g, h),
        };
        assert_eq!(
            got.map(|t| (t.lower.to_bits(), t.upper.to_bits())),
            contact.0.map(|t| (t.lower.to_bits(), t.upper.to_bits())),
            "d = 0 differs from contact on {:?}",
            bits(&q)
        );
    }
    let near = want.is_some();
    let p = points([a, b, c, dd, e, f, g, h]);
    if d > 0.0 {
        assert!(
            !(near && dnf_within(kind, &p, d) == Verdict::Culled),
            "dnf_within culls {kind:?} d {d:?} {:?}",
            bits(&q)
        );
        assert!(
            !(near && window_within(kind, &p, d) == Verdict::Culled),
            "window_within culls {kind:?} d {d:?} {:?}",
            bits(&q)
        );
    }
    for s in FilterSet::ALL {
        for window in [false, true] {
            let culled = s.cull(kind, &PAPER_DIRECTIONS, window, d, &q);
            assert!(
                !(near && culled.is_some()),
                "{kind:?} {s} window {window} d {d:?}: {culled:?} culls a pair within d {:?}",
                bits(&q)
            );
        }
    }
    // Bad distances: refused by the validator, never met by the solvers,
    // no cull.
    for bad in [f64::NAN, -d - f64::from_bits(1), f64::INFINITY] {
        assert!(validate_separation(bad).is_err());
        let (t, _) = within(bad);
        if bad == f64::INFINITY {
            assert_eq!(t, Some(ccdlab::narrow_phase::Toi::exact(0.0)));
        } else {
            assert_eq!(t, None);
        }
        assert!(
            FilterSet::SlpfDnf
                .cull(kind, &PAPER_DIRECTIONS, true, bad, &q)
                .is_none()
        );
    }
});
