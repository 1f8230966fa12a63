//! Narrow phase (criterion): both solvers (`exact`, `cubic`) on every query
//! set found under the data root. Ids `narrow_phase/<solver>/<set>`, where
//! `<set>` is a scene and a kind (`erleben-spikes-vf`, `cloth-ball-ee`; the
//! files of one scene and kind are merged). Inputs are loaded once, outside
//! the timed closure; one iteration solves the whole set; throughput counts
//! queries. Without the data sets the bench prints a note and runs nothing.
//!
//! Flat sampling, 10 samples, 1 s of measurement per benchmark: the whole
//! bench stays within about three minutes.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use ccdlab::harness::data;
use ccdlab::harness::ground_truth::{QueryKind, discover_query_sets, load};
use ccdlab::math::Vec3;
use ccdlab::narrow_phase::Solver;
use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};

/// Folders that name a layout, not a scene.
const LAYOUT_FOLDERS: [&str; 4] = ["vertex-face", "edge-edge", "queries", "boxes"];

/// The scene of a query file: its nearest ancestor folder that is not a
/// layout folder.
fn scene_name(path: &Path) -> String {
    path.ancestors()
        .skip(1)
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .find(|n| !LAYOUT_FOLDERS.contains(&n.as_str()))
        .unwrap_or_else(|| "queries".to_string())
}

/// Query sets by name: their kind and their queries' points.
type Sets = BTreeMap<String, (QueryKind, Vec<[Vec3; 8]>)>;

/// Every query set under the data root, merged per scene and kind, or a
/// reason why there is none.
fn query_sets() -> Result<Sets, String> {
    let root = data::require_root().map_err(|e| e.to_string())?;
    let sources = discover_query_sets(&root).map_err(|e| e.to_string())?;
    let mut sets = Sets::new();
    for source in &sources {
        let set = load(source).map_err(|e| e.to_string())?;
        let name = format!("{}-{}", scene_name(source.path()), set.kind.suffix());
        sets.entry(name)
            .or_insert_with(|| (set.kind, Vec::new()))
            .1
            .extend(set.points);
    }
    Ok(sets)
}

fn narrow_phase(c: &mut Criterion) {
    let sets = match query_sets() {
        Ok(sets) => sets,
        Err(reason) => {
            eprintln!("narrow_phase bench: no query sets, nothing to run ({reason})");
            return;
        }
    };
    let mut g = c.benchmark_group("narrow_phase");
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for solver in Solver::ALL {
        for (name, (kind, points)) in &sets {
            g.throughput(Throughput::Elements(points.len() as u64));
            g.bench_with_input(
                BenchmarkId::new(solver.name(), name),
                points,
                |b, points| {
                    b.iter(|| {
                        for q in points {
                            black_box(solver.solve(*kind, black_box(q)));
                        }
                    })
                },
            );
        }
    }
    g.finish();
}

criterion_group!(benches, narrow_phase);
criterion_main!(benches);
