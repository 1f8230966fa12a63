//! The query-CSV reader on arbitrary bytes, as vertex–face and edge–edge
//! queries: an error or whole queries of finite doubles, never a panic.
#![no_main]

use ccdlab::harness::ground_truth::{QueryKind, parse_query_csv};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    for kind in [QueryKind::VertexFace, QueryKind::EdgeEdge] {
        if let Ok(set) = parse_query_csv("fuzz.csv".as_ref(), bytes, kind) {
            assert!(set.points.iter().flatten().all(|p| p.iter().all(|c| c.is_finite())));
        }
    }
});
