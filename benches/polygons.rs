//! The paper's Fig. 3 as a criterion bench: mean collision-resolution time
//! of the paper's SAT without decomposition (Fayzrakhmanov et al., ≈2015)
//! against SAT and parry2d GJK/EPA over a convex decomposition, over polygon
//! complexity.
//!
//! Ids: `polygons/<method>/<scenario>-<pieces>-n<vertices>`, with scenario
//! `nonconvex-nonconvex` (both star polygons) or `nonconvex-convex`, pieces
//! `hm` (Hertel–Mehlhorn) or `tri` (triangles). Each iteration resolves the
//! same 32 overlapping pairs (fixed seed, built once outside the timed
//! closure); criterion's time divided by 32 is the time per pair. The
//! recorded numbers are in `reports/polygons/` (`ccdlab polygons report`).

use std::hint::black_box;
use std::time::Duration;

use ccdlab::polygon::generate::{PairLayout, Rng, overlapping_pair};
use ccdlab::polygon::{DecompositionKind, Method, PreparedPair};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

const PAIRS: usize = 32;
const SIZES: [usize; 4] = [8, 16, 32, 64];
const METHODS: [Method; 3] = [
    Method::Paper,
    Method::SatDecomposed,
    Method::GjkEpaDecomposed,
];

fn pairs(n: usize, b_convex: bool, kind: DecompositionKind) -> Vec<PreparedPair> {
    let mut rng = Rng::new(0x5EED ^ ((n as u64) << 8) ^ b_convex as u64);
    let layout = PairLayout {
        n_a: n,
        n_b: n,
        b_convex,
        spikiness: 0.7,
    };
    (0..PAIRS)
        .map(|_| {
            let (a, b) = overlapping_pair(&mut rng, layout);
            PreparedPair::with_kind(a, b, kind).expect("generated polygons are valid")
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("polygons");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for (kind, kind_name) in [
        (DecompositionKind::HertelMehlhorn, "hm"),
        (DecompositionKind::Triangles, "tri"),
    ] {
        for (b_convex, scenario) in [(false, "nonconvex-nonconvex"), (true, "nonconvex-convex")] {
            for n in SIZES {
                let set = pairs(n, b_convex, kind);
                for m in METHODS {
                    let id = BenchmarkId::new(m.name(), format!("{scenario}-{kind_name}-n{n}"));
                    group.bench_function(id, |b| {
                        b.iter(|| {
                            for p in &set {
                                black_box(p.resolve(black_box(m)));
                            }
                        })
                    });
                }
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
