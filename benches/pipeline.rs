//! The pipeline reproduction benches (criterion): Wan, Fu & Yao 2022,
//! Tables 1–2 (filters) and Fig. 6 (k-value test), the parry3d-f64 AABB
//! baseline, and the whole step, on every scene of
//! `ccdlab::harness::reproduction::SCENES` whose data is found (others are
//! skipped with a note). IDs `stage/algorithm/dataset`:
//!
//! - `filter/{none,slpf,dnf,slpf+dnf}/<scene>-{vf,ee}`: the filter stage over
//!   all 26-DOP candidates of one kind, one thread (the pipeline's filter
//!   stage, sequential: the filters' chain as a step runs it
//!   (`FilterSet::chain`, the coplanar window off), SLPF on the per-vertex
//!   projection table the pipeline uses (`SlpfTable`), built in the timed
//!   loop, DNF per pair; survivors collected; `none` is the same loop
//!   without a filter);
//! - `broad_phase/kdop{6,8,14,18,26}/<scene>`: BVH build + traversal;
//! - `broad_phase/parry-aabb/<scene>`: parry's AABB BVHs, build + traversal;
//! - `pipeline/step/<scene>`: a whole step with the default configuration
//!   (26-DOP, SLPF+DNF, exact), a fresh pipeline per iteration;
//! - `pipeline/step-min-distance-1e-3/<scene>`: the same at a minimum
//!   separation of `10⁻³` times the first frame's mean edge length
//!   (docs/design.md §5), counts only (`collect_pairs` off, as the CLI);
//! - `pipeline/step-collapsed-frame/generated-24`: a degenerate step, the
//!   generated scene at 24 × 24 with every vertex of the first frame at one
//!   point (all features touch at `t = 0`: every pair is a candidate and
//!   collides), the default configuration;
//! - `pipeline/step-collinear-frames/generated-24`: the same scene with
//!   every vertex on the x-axis in frame 0 and on a parallel line in frame
//!   1 (a mesh collapsed onto a moving line: every query is collinear
//!   motion, docs/design.md §9), the default configuration;
//! - `pipeline/step-flat-frames/generated-24`: the same scene flattened
//!   along its vertical axis (`y = 0` in frame 0, `y = 1/4` in frame 1: a
//!   mesh moving within an axis-aligned plane, docs/design.md §9), the
//!   default configuration.
//!
//! Before timing a scene (under `cargo bench`, unless `CCDLAB_BENCH_RECORD=0`)
//! its counts are recorded as `counts_<scene>.json`
//! ([`ccdlab::harness::reproduction::SceneRecord`]) in `$CCDLAB_BENCH_OUT`,
//! else `$CARGO_TARGET_DIR/ccdlab-bench`, else `target/ccdlab-bench`:
//! candidates per k and what each filter setting culls from them, best-of-3
//! build/refit/traversal times, parry's counts and times, and whole pipeline
//! steps for each filter setting (k = 26) and each k (SLPF+DNF). `ccdlab
//! report` turns these and criterion's estimates into `reports/pipeline`.
//!
//! Threads: `$CCDLAB_BENCH_THREADS` (default 1, the paper's setting; parry
//! runs on one thread whatever this is). Samples are few (10, flat sampling)
//! to keep `cargo bench --bench pipeline` to a few minutes.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use ccdlab::baseline::{PARRY_API, ParryBroadPhase};
use ccdlab::bounding_volume::KdopAxes;
use ccdlab::broad_phase::{Bvh, CandidateSet, EePair, VfPair};
use ccdlab::filter::{CulledBy, FilterSet, PAPER_DIRECTIONS, Points, SlpfTable};
use ccdlab::harness::output::write_atomic;
use ccdlab::harness::reproduction::{
    BroadPhaseTimes, FilterCounts, KdopRecord, Motion, ParryRecord, RECORD_FORMAT, SCENES,
    SceneRecord, SceneSpec,
};
use ccdlab::harness::sequence::FrameSequence;
use ccdlab::harness::stamp::Stamp;
use ccdlab::math::Vec3;
use ccdlab::mesh::{Step, TriMesh};
use ccdlab::pair_kernel::QueryKind;
use ccdlab::pipeline::{Pipeline, PipelineConfig, StepReport, TimeAligned};
use criterion::{BenchmarkId, Criterion, SamplingMode};

/// One scene step, loaded once.
struct Scene {
    spec: SceneSpec,
    frames: [String; 2],
    mesh: TriMesh,
    x_t0: Vec<Vec3>,
    x_t1: Vec<Vec3>,
}

impl Scene {
    fn load(spec: &SceneSpec) -> Result<Scene, String> {
        let seq = FrameSequence::open(spec.sequence).map_err(|e| e.to_string())?;
        if spec.step + 1 >= seq.num_frames() {
            return Err(format!(
                "{} has {} frames, no step {}",
                spec.sequence,
                seq.num_frames(),
                spec.step
            ));
        }
        let x_t0 = seq.frame(spec.step).map_err(|e| e.to_string())?;
        let x_t1 = seq.frame(spec.step + 1).map_err(|e| e.to_string())?;
        Ok(Scene {
            spec: *spec,
            frames: [seq.frame_label(spec.step), seq.frame_label(spec.step + 1)],
            mesh: seq.mesh().clone(),
            x_t0,
            x_t1,
        })
    }

    fn step(&self) -> Step<'_> {
        Step::new(&self.mesh, &self.x_t0, &self.x_t1).expect("frames were checked on reading")
    }
}

/// What one filter setting did to one kind's candidates.
struct Pass<P> {
    culled_slpf: u64,
    culled_dnf: u64,
    survivors: Vec<P>,
}

#[inline]
fn vf_points(step: &Step<'_>, p: &VfPair) -> Points {
    let [a, b, c] = step.mesh().faces()[p.f as usize].map(|i| i as usize);
    let (x0, x1, v) = (step.x_t0(), step.x_t1(), p.v as usize);
    [x0[v], x0[a], x0[b], x0[c], x1[v], x1[a], x1[b], x1[c]].map(|p| [p.x, p.y, p.z])
}

#[inline]
fn ee_points(step: &Step<'_>, p: &EePair) -> Points {
    let edges = step.mesh().edges();
    let [a, b] = edges[p.e0 as usize].map(|i| i as usize);
    let [c, d] = edges[p.e1 as usize].map(|i| i as usize);
    let (x0, x1) = (step.x_t0(), step.x_t1());
    [x0[a], x0[b], x0[c], x0[d], x1[a], x1[b], x1[c], x1[d]].map(|p| [p.x, p.y, p.z])
}

/// One filter setting's verdicts over one kind's candidates, sequential.
fn filter_pairs<P: Copy>(pairs: &[P], cull: impl Fn(&P) -> Option<CulledBy>) -> Pass<P> {
    let mut out = Pass {
        culled_slpf: 0,
        culled_dnf: 0,
        survivors: Vec::with_capacity(pairs.len()),
    };
    for p in pairs {
        match cull(p) {
            Some(CulledBy::Slpf) => out.culled_slpf += 1,
            Some(CulledBy::Dnf) => out.culled_dnf += 1,
            Some(CulledBy::Window) => unreachable!("the paper's filter stage has no window"),
            None => out.survivors.push(*p),
        }
    }
    out
}

/// SLPF's per-vertex projection table, when `setting` uses SLPF.
fn projections(step: &Step<'_>, setting: FilterSet) -> Option<SlpfTable> {
    setting
        .uses_slpf()
        .then(|| SlpfTable::new(step.x_t0(), step.x_t1(), &PAPER_DIRECTIONS))
}

/// The pipeline's filter stage on vertex–face candidates, sequential: the
/// filters' chain as a step runs it ([`FilterSet::chain`]), at contact, the
/// coplanar window off (the paper's stage).
fn filter_vf(step: &Step<'_>, pairs: &[VfPair], setting: FilterSet) -> Pass<VfPair> {
    let proj = projections(step, setting);
    let faces = step.mesh().faces();
    filter_pairs(pairs, |p| {
        let slpf_culls =
            (proj.as_ref()).is_some_and(|pr| pr.cull_vertex_face(p.v, faces[p.f as usize]));
        setting.chain(QueryKind::VertexFace, false, 0.0, slpf_culls, || {
            vf_points(step, p)
        })
    })
}

/// The pipeline's filter stage on edge–edge candidates, sequential, as
/// [`filter_vf`].
fn filter_ee(step: &Step<'_>, pairs: &[EePair], setting: FilterSet) -> Pass<EePair> {
    let proj = projections(step, setting);
    let edges = step.mesh().edges();
    filter_pairs(pairs, |p| {
        let (ea, eb) = (edges[p.e0 as usize], edges[p.e1 as usize]);
        let slpf_culls = proj.as_ref().is_some_and(|pr| pr.cull_edge_edge(ea, eb));
        setting.chain(QueryKind::EdgeEdge, false, 0.0, slpf_culls, || {
            ee_points(step, p)
        })
    })
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn counts<P>(
    pairs: &[P],
    same_component: u64,
    pass: impl Fn(FilterSet) -> Pass<P>,
) -> FilterCounts {
    let total = |p: Pass<P>| p.culled_slpf + p.culled_dnf;
    FilterCounts {
        candidates: pairs.len() as u64,
        same_component,
        culled_slpf: total(pass(FilterSet::Slpf)),
        culled_dnf: total(pass(FilterSet::Dnf)),
        culled_slpf_dnf: total(pass(FilterSet::SlpfDnf)),
    }
}

/// Build, refit and traversal are timed this many times; the record keeps
/// the fastest of each.
const REPEATS: usize = 3;

/// Counts and best-of-[`REPEATS`] times of one scene (see the module doc).
fn record(scene: &Scene, threads: usize) -> SceneRecord {
    let step = scene.step();
    let mut kdops = Vec::new();
    let mut aabb_set = None;
    for axes in KdopAxes::ALL {
        let (mut build, mut refit, mut traverse) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
        let mut result = None;
        for _ in 0..REPEATS {
            let t = Instant::now();
            let mut bvh = Bvh::build(&step, axes);
            build = build.min(ms(t));
            let t = Instant::now();
            bvh.refit(&step).expect("same mesh");
            refit = refit.min(ms(t));
            let t = Instant::now();
            result = Some(bvh.self_candidate_set_par());
            traverse = traverse.min(ms(t));
        }
        let (set, stats) = result.expect("REPEATS > 0");
        let vf = counts(&set.vertex_face, stats.vf_same_component, |f| {
            filter_vf(&step, &set.vertex_face, f)
        });
        let ee = counts(&set.edge_edge, stats.ee_same_component, |f| {
            filter_ee(&step, &set.edge_edge, f)
        });
        kdops.push(KdopRecord {
            k: axes.k(),
            times_ms: BroadPhaseTimes {
                build,
                refit,
                traverse,
            },
            vf,
            ee,
        });
        if axes == KdopAxes::Dop6 {
            aabb_set = Some(set.sorted());
        }
    }

    let (mut build, mut refit, mut traverse) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    let mut result = None;
    for _ in 0..REPEATS {
        let t = Instant::now();
        let mut parry = ParryBroadPhase::build(&step);
        build = build.min(ms(t));
        let t = Instant::now();
        parry.refit(&step).expect("same mesh");
        refit = refit.min(ms(t));
        let t = Instant::now();
        result = Some(parry.candidates(&scene.mesh).expect("same mesh"));
        traverse = traverse.min(ms(t));
    }
    let (set, stats) = result.expect("REPEATS > 0");
    let parry = ParryRecord {
        api: PARRY_API.to_string(),
        vf_candidates: stats.vf_candidates,
        ee_candidates: stats.ee_candidates,
        same_set_as_kdop6: aabb_set.as_ref() == Some(&set.sorted()),
        times_ms: BroadPhaseTimes {
            build,
            refit,
            traverse,
        },
    };

    let mut steps: Vec<StepReport> = Vec::new();
    let combos = FilterSet::ALL
        .map(|f| (KdopAxes::Dop26, f))
        .into_iter()
        .chain(
            KdopAxes::ALL
                .into_iter()
                .filter(|&k| k != KdopAxes::Dop26)
                .map(|k| (k, FilterSet::SlpfDnf)),
        );
    for (axes, filters) in combos {
        let mut pipeline = Pipeline::new(PipelineConfig {
            axes,
            filters,
            ..PipelineConfig::default()
        });
        let report = pipeline.step(&step).expect("same mesh").report;
        // The bench's filter loop mirrors the pipeline's stage: same counts,
        // for the paper's settings (those the reproduction records; another
        // setting is timed and stepped, not compared here).
        let k = kdops.iter().find(|r| r.k == axes.k()).expect("every k");
        for (name, ours, theirs) in [("vf", &k.vf, &report.vf), ("ee", &k.ee, &report.ee)] {
            let Some(culled) = ours.culled(filters.name()) else {
                continue;
            };
            assert_eq!(
                (ours.candidates, culled),
                (theirs.candidates, theirs.culled_slpf + theirs.culled_dnf),
                "{} k={} {filters} {name}: the bench's filter loop and the pipeline disagree",
                scene.spec.name,
                axes.k()
            );
        }
        steps.push(report);
    }

    SceneRecord {
        format: RECORD_FORMAT,
        scene: scene.spec.name.to_string(),
        sequence: scene.spec.sequence.to_string(),
        frames: scene.frames.clone(),
        vertices: scene.mesh.num_vertices(),
        edges: scene.mesh.num_edges(),
        faces: scene.mesh.num_faces(),
        threads,
        motion: Some(Motion::of(&step)),
        kdops,
        parry: Some(parry),
        steps,
        stamp: Stamp::new(threads),
    }
}

fn out_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("CCDLAB_BENCH_OUT") {
        return PathBuf::from(d);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("target")
        });
    target.join("ccdlab-bench")
}

fn bench_scene(c: &mut Criterion, scene: &Scene) {
    let name = scene.spec.name;
    let step = scene.step();
    let (candidates, _) = Bvh::build(&step, KdopAxes::Dop26).self_candidate_set_par();
    let CandidateSet {
        vertex_face,
        edge_edge,
    } = &candidates;

    let mut g = c.benchmark_group("filter");
    g.sampling_mode(SamplingMode::Flat);
    for f in FilterSet::ALL {
        g.bench_function(BenchmarkId::new(f.name(), format!("{name}-vf")), |b| {
            b.iter(|| black_box(filter_vf(&step, black_box(vertex_face), f).survivors.len()))
        });
        g.bench_function(BenchmarkId::new(f.name(), format!("{name}-ee")), |b| {
            b.iter(|| black_box(filter_ee(&step, black_box(edge_edge), f).survivors.len()))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("broad_phase");
    g.sampling_mode(SamplingMode::Flat);
    for axes in KdopAxes::ALL {
        g.bench_function(BenchmarkId::new(format!("kdop{}", axes.k()), name), |b| {
            b.iter(|| {
                let bvh = Bvh::build(black_box(&step), axes);
                black_box(bvh.self_candidate_set_par().1)
            })
        });
    }
    g.bench_function(BenchmarkId::new("parry-aabb", name), |b| {
        b.iter(|| {
            let mut parry = ParryBroadPhase::build(black_box(&step));
            black_box(parry.candidates(&scene.mesh).expect("same mesh").1)
        })
    });
    g.finish();

    let mut g = c.benchmark_group("pipeline");
    g.sampling_mode(SamplingMode::Flat);
    let contact = PipelineConfig::default();
    g.bench_function(BenchmarkId::new("step", name), |b| {
        b.iter(|| black_box(fresh_step_toi(&contact, &step)))
    });
    let within = PipelineConfig {
        min_distance: 1e-3 * mean_edge_length(&step),
        ..PipelineConfig::default()
    };
    g.bench_function(BenchmarkId::new("step-min-distance-1e-3", name), |b| {
        b.iter(|| black_box(fresh_step_toi(&within, &step)))
    });
    // The contact step with time-aligned pruning (not the paper's; see
    // `KdopBvh::time_aligned`).
    let time_aligned = PipelineConfig {
        time_aligned: TimeAligned::On,
        ..PipelineConfig::default()
    };
    g.bench_function(BenchmarkId::new("step-time-aligned", name), |b| {
        b.iter(|| black_box(fresh_step_toi(&time_aligned, &step)))
    });
    g.finish();
}

/// A whole step by a fresh pipeline with `config`: its earliest time of
/// impact.
fn fresh_step_toi(config: &PipelineConfig, step: &Step<'_>) -> Option<f64> {
    Pipeline::new(config.clone())
        .step(black_box(step))
        .expect("same mesh")
        .report
        .toi
}

/// The mean length of the mesh's edges at `t = 0`.
fn mean_edge_length(step: &Step<'_>) -> f64 {
    let edges = step.mesh().edges();
    let sum: f64 = edges
        .iter()
        .map(|&[a, b]| (step.x_t0()[a as usize] - step.x_t0()[b as usize]).norm())
        .sum();
    sum / edges.len().max(1) as f64
}

/// The generated scene at 24 × 24, frames 0 → 1, with every vertex of
/// frame 0 moved to the first one's position: a collapsed frame.
fn collapsed_frame_step() -> (TriMesh, Vec<Vec3>, Vec<Vec3>) {
    let seq = FrameSequence::open("generated:24:2").expect("the generated scene");
    let x_t1 = seq.frame(1).expect("frame 1");
    let p = seq.frame(0).expect("frame 0")[0];
    let x_t0 = vec![p; x_t1.len()];
    (seq.mesh().clone(), x_t0, x_t1)
}

/// The generated scene at 24 × 24, frames 0 → 1, with every vertex moved
/// onto the x-axis in frame 0 and onto the parallel line `y = 0, z = 1/4`
/// in frame 1 (coordinates zeroed or set, so exactly): a mesh collapsed
/// onto a moving line.
fn collinear_frames_step() -> (TriMesh, Vec<Vec3>, Vec<Vec3>) {
    let seq = FrameSequence::open("generated:24:2").expect("the generated scene");
    let onto_line = |frame: usize, z: f64| -> Vec<Vec3> {
        let x = seq.frame(frame).expect("frame");
        x.iter().map(|p| Vec3::new(p.x, 0.0, z)).collect()
    };
    let (x_t0, x_t1) = (onto_line(0, 0.0), onto_line(1, 0.25));
    (seq.mesh().clone(), x_t0, x_t1)
}

/// The generated scene at 24 × 24, frames 0 → 1, flattened along its
/// vertical axis: `y = 0` in frame 0 and `y = 1/4` in frame 1 (coordinates
/// set, so exactly), a sheet seen from above, crumpling within a plane that
/// moves along its normal.
fn flat_frames_step() -> (TriMesh, Vec<Vec3>, Vec<Vec3>) {
    let seq = FrameSequence::open("generated:24:2").expect("the generated scene");
    let onto_plane = |frame: usize, y: f64| -> Vec<Vec3> {
        let x = seq.frame(frame).expect("frame");
        x.iter().map(|p| Vec3::new(p.x, y, p.z)).collect()
    };
    let (x_t0, x_t1) = (onto_plane(0, 0.0), onto_plane(1, 0.25));
    (seq.mesh().clone(), x_t0, x_t1)
}

fn bench_degenerate_frames(c: &mut Criterion) {
    let mut g = c.benchmark_group("pipeline");
    g.sampling_mode(SamplingMode::Flat);
    for (name, (mesh, x_t0, x_t1)) in [
        ("step-collapsed-frame", collapsed_frame_step()),
        ("step-collinear-frames", collinear_frames_step()),
        ("step-flat-frames", flat_frames_step()),
    ] {
        let step = Step::new(&mesh, &x_t0, &x_t1).expect("same mesh");
        g.bench_function(BenchmarkId::new(name, "generated-24"), |b| {
            let contact = PipelineConfig::default();
            b.iter(|| black_box(fresh_step_toi(&contact, &step)))
        });
    }
    g.finish();
}

fn main() {
    let threads: usize = std::env::var("CCDLAB_BENCH_THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .filter(|&t| t > 0)
        .unwrap_or(1);
    // Criterion is not Send: size the global pool instead of installing one.
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .expect("the global thread pool is configured once");
    // `cargo bench` passes --bench; `cargo test --benches` does not (then
    // every bench runs once and nothing is recorded).
    let recording = std::env::args().any(|a| a == "--bench")
        && std::env::var("CCDLAB_BENCH_RECORD").map_or(true, |v| v != "0");
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(1))
        .configure_from_args();
    let out = out_dir();
    for spec in SCENES {
        let scene = match Scene::load(spec) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("pipeline bench: skipping {}: {e}", spec.name);
                continue;
            }
        };
        if recording {
            let t = Instant::now();
            let rec = record(&scene, threads);
            std::fs::create_dir_all(&out).expect("bench output folder");
            let path = out.join(format!("counts_{}.json", spec.name));
            let json = serde_json::to_string_pretty(&rec).expect("record serialises");
            write_atomic(&path, (json + "\n").as_bytes())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            eprintln!(
                "pipeline bench: recorded {} in {:.1} s",
                path.display(),
                t.elapsed().as_secs_f64()
            );
        }
        bench_scene(&mut c, &scene);
    }
    bench_degenerate_frames(&mut c);
    c.final_summary();
}
