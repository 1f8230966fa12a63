//! Differential, the whole pipeline on a tiny deforming mesh (settings from
//! the input: k, filters, window, time-aligned pruning, SLPF directions, a
//! minimum separation `d`) against the exact oracle on every pair of the
//! mesh: exactly the oracle's pairs, with brackets that meet its times. A
//! non-finite coordinate is refused by `Step::new`.
#![no_main]

mod common;

use std::collections::BTreeSet;

use ccdlab::bounding_volume::KdopAxes;
use ccdlab::filter::FilterSet;
use ccdlab::mesh::Step;
use ccdlab::pipeline::{Pipeline, PipelineConfig, TimeAligned};
use common::{Src, bits, distance, mesh, oracle_collisions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let mut src = Src(bytes);
    let s = src.u8();
    let axes = KdopAxes::ALL[usize::from(s) % KdopAxes::ALL.len()];
    let filters = FilterSet::ALL[usize::from(s >> 3) % FilterSet::ALL.len()];
    let window = s & 0x20 != 0;
    let time_aligned =
        [TimeAligned::Off, TimeAligned::On, TimeAligned::Auto][usize::from(s >> 6) % 3];
    let d = distance(&mut src);
    let (m, mut x0, x1) = mesh(&mut src, 8);
    let step = Step::new(&m, &x0, &x1).unwrap();
    let truth = oracle_collisions(&step, d);
    let config = PipelineConfig {
        axes,
        filters,
        window,
        time_aligned,
        min_distance: d,
        collect_pairs: true,
        ..PipelineConfig::default()
    };
    let setting = format!("{axes:?} {filters} window {window} {time_aligned:?} d {d:?}");
    let out = Pipeline::new(config.clone()).step(&step).unwrap();
    let got: BTreeSet<_> = out.pairs.iter().map(|p| (p.kind, p.a, p.b)).collect();
    let want: BTreeSet<_> = truth.keys().copied().collect();
    assert_eq!(
        got,
        want,
        "{setting} on {:?} {:?} faces {:?} edges {:?}",
        bits(&x0),
        bits(&x1),
        m.faces(),
        m.edges()
    );
    for p in &out.pairs {
        let [lo, hi] = truth[&(p.kind, p.a, p.b)];
        assert!(
            p.toi_lower <= hi && lo <= p.toi_upper,
            "{setting}: {p:?} vs the oracle's [{lo}, {hi}] on {:?} {:?}",
            bits(&x0),
            bits(&x1)
        );
    }
    // Counting only: the same number of pairs; both reports' earliest-time
    // brackets meet the oracle's earliest time.
    let counted = Pipeline::new(PipelineConfig {
        collect_pairs: false,
        ..config
    })
    .step(&step)
    .unwrap();
    assert_eq!(
        counted.report.colliding(),
        out.report.colliding(),
        "{setting}"
    );
    assert_eq!(out.report.colliding(), want.len() as u64, "{setting}");
    let earliest_hi = truth.values().map(|b| b[1]).fold(f64::INFINITY, f64::min);
    let earliest_lo = truth.values().map(|b| b[0]).fold(f64::INFINITY, f64::min);
    for r in [&out.report, &counted.report] {
        assert_eq!(r.toi.is_some(), !truth.is_empty(), "{setting}");
        if let (Some(lo), Some(hi)) = (r.toi, r.toi_upper) {
            assert!(
                lo <= earliest_hi && earliest_lo <= hi,
                "{setting}: report [{lo}, {hi}] vs oracle [{earliest_lo}, {earliest_hi}] on {:?} {:?}",
                bits(&x0),
                bits(&x1)
            );
        }
    }
    // A non-finite coordinate: a typed error.
    let bad = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY][usize::from(src.u8()) % 3];
    x0[0].x = bad;
    assert!(Step::new(&m, &x0, &x1).is_err());
});
