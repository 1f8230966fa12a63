//! The discrete experiment: its options and limits, and the run that
//! measures our detectors (Trushin 2015 sphere–sphere and sphere–box;
//! Strashnov & Torgashev 2020 cylinder–terrain) against parry3d-f64 on
//! seeded random configurations and the scripted scenes (`docs/design.md`),
//! and writes `results.json`, `summary.md` and the figures.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use crate::discrete::cylinder_heightfield::{
    ContactPoint, Params, Report, Workspace, cylinder_heightfield,
};
use crate::discrete::parry_compare::{
    ParryTerrain, SphereComparison, TerrainComparison, parry_sphere_cuboid, parry_sphere_sphere,
};
use crate::discrete::scenes::{
    asphalt_with_curb, barrel_scenes, hill, random_cylinders, random_sphere_boxes,
    random_sphere_pairs, random_terrain, wheel_path,
};
use crate::discrete::{Cylinder, HeightGrid, sphere_cuboid, sphere_sphere};
use crate::harness::output::{StagedFolder, write_atomic};
use crate::harness::stamp::Stamp;

use super::error::{DiscreteReportError, argument};
use super::markdown::summary;
use super::plot;
use super::results::{Results, SceneRow, WheelRow};
use super::statistics::{TerrainCase, outcome_name, sphere_family, terrain_family};
use super::timing::{TimingRow, time_per_query};

/// Largest `--pairs`. Both pair families keep their pairs, parry's copies
/// and the per-pair differences: about 0.7 kB per pair, so this is about
/// 0.7 GB and a few seconds (50 times the default).
pub const MAX_PAIRS: usize = 1_000_000;
/// Largest `--terrains` (about 30 kB each with parry's height field).
pub const MAX_TERRAINS: usize = 1_000;
/// Largest `--terrains` × `--cylinders`: every such query also runs the
/// slow oracle, so this bounds a run to minutes (25 times the default;
/// docs/notes/side-track-limits.md).
pub const MAX_TERRAIN_QUERIES: usize = 100_000;
/// Largest `--frames` (each: the resting height and three detectors): a run
/// of minutes; 0.5 mm apart along the 4.8 m path, finer than any feature of
/// the hill.
pub const MAX_FRAMES: usize = 10_000;
/// Largest `--time-per-sample`, in seconds: the run takes 5 samples of each
/// of 10 measurements and of 12 at a quarter of it (the scenes), so this
/// bounds the timing to 5·(10 + 12/4)·10 s ≈ 11 minutes (50 times the
/// default).
pub const MAX_TIME_PER_SAMPLE: f64 = 10.0;

/// The experiment: what `ccdlab discrete` measures, and where the report
/// goes (the command line's options, one field each).
#[derive(Debug, Clone)]
pub struct ReportConfig {
    /// Output folder (created if missing; written only when every file is
    /// ready, so a failed run leaves none behind).
    pub out: PathBuf,
    /// Seed of every random configuration.
    pub seed: u64,
    /// Random terrains (33×33 samples, 0.25 m step), 1 to 1000.
    pub terrains: usize,
    /// Random cylinders per terrain, at least 1; at most 100 000 queries in
    /// all (terrains × cylinders).
    pub cylinders: usize,
    /// Random sphere–sphere and sphere–box pairs (each), 1 to 1 000 000.
    pub pairs: usize,
    /// Frames of the wheel-over-hill path, 1 to 10 000.
    pub frames: usize,
    /// Seconds of timing per sample (5 samples per measurement), in
    /// (0, 10].
    pub time_per_sample: f64,
}

/// `value` of `--name` in `1..=max` ([`crate::harness::limits::count`]).
fn check_count(name: &'static str, value: usize, max: usize) -> Result<(), DiscreteReportError> {
    crate::harness::limits::count(value, max).map_err(|m| argument(name, m.to_string()))
}

/// Refuses counts and times that would never finish, panic or exhaust
/// memory (see [`MAX_PAIRS`] and the other limits).
pub(super) fn check_args(a: &ReportConfig) -> Result<(), DiscreteReportError> {
    check_count("pairs", a.pairs, MAX_PAIRS)?;
    check_count("terrains", a.terrains, MAX_TERRAINS)?;
    check_count("cylinders", a.cylinders, MAX_TERRAIN_QUERIES)?;
    // Both factors are bounded above, so the product does not overflow.
    let queries = a.terrains * a.cylinders;
    if queries > MAX_TERRAIN_QUERIES {
        return Err(argument(
            "cylinders",
            format!(
                "{} per terrain × {} terrains = {queries} queries exceeds the limit of \
                 {MAX_TERRAIN_QUERIES} (each also runs the slow oracle)",
                a.cylinders, a.terrains
            ),
        ));
    }
    check_count("frames", a.frames, MAX_FRAMES)?;
    crate::harness::limits::seconds(a.time_per_sample, MAX_TIME_PER_SAMPLE)
        .map_err(|m| argument("time-per-sample", m.to_string()))
}

/// The staging of `--out` ([`StagedFolder`]); its errors name `--out`.
fn stage(out: &Path) -> Result<StagedFolder, DiscreteReportError> {
    StagedFolder::begin(out, "discrete").map_err(|e| DiscreteReportError::Out {
        path: e.path,
        message: e.message,
    })
}

/// What a finished report found that its caller should say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportSummary {
    /// Disagreements that no touching tolerance explains (see
    /// `summary.md`): a correct run has none.
    pub unexplained: usize,
}

/// Our detector on one cylinder, with a fresh workspace.
fn run_query(cyl: &Cylinder, grid: &HeightGrid) -> (Report, Vec<ContactPoint>) {
    let mut out = Vec::new();
    let rep = cylinder_heightfield(
        cyl,
        grid,
        &Params::default(),
        &mut Workspace::new(),
        &mut out,
    );
    (rep, out)
}

/// Checks `args`, runs the whole comparison and writes the report into
/// `args.out` (all or nothing); `progress` hears of each part as it starts
/// (a line each, for standard error).
pub fn write_report(
    args: &ReportConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<ReportSummary, DiscreteReportError> {
    check_args(args)?;
    // Fail now, not after the measurements, on an unusable --out; nothing is
    // left on disk until the results are ready.
    drop(stage(&args.out)?);
    let secs = args.time_per_sample;
    let mut timing = Vec::new();

    // Sphere–sphere. The other families' seeds are offsets that wrap, so
    // that any --seed works (as a release build's unchecked sums did).
    progress(&format!("sphere–sphere: {} pairs", args.pairs));
    let pairs = random_sphere_pairs(args.seed, args.pairs);
    let sphere_sphere_fam = sphere_family(pairs.len(), |k| {
        let (a, b) = &pairs[k];
        let gap = (a.centre() - b.centre()).norm() - a.radius() - b.radius();
        (
            SphereComparison {
                ours: sphere_sphere(a, b),
                parry: parry_sphere_sphere(a, b),
            },
            gap,
        )
    });
    timing.push(TimingRow {
        id: "sphere_sphere/ours/random".into(),
        queries: pairs.len(),
        us_per_query: time_per_query(pairs.len(), secs, |k| {
            black_box(sphere_sphere(
                black_box(&pairs[k].0),
                black_box(&pairs[k].1),
            ));
        }),
    });
    let parry_pairs: Vec<_> = pairs
        .iter()
        .map(|(a, b)| {
            (
                crate::discrete::parry_compare::ball(a),
                crate::discrete::parry_compare::ball(b),
            )
        })
        .collect();
    timing.push(TimingRow {
        id: "sphere_sphere/parry/random".into(),
        queries: pairs.len(),
        us_per_query: time_per_query(pairs.len(), secs, |k| {
            let ((p1, g1), (p2, g2)) = &parry_pairs[k];
            black_box(parry3d_f64::query::contact(p1, g1, p2, g2, 0.0).ok());
        }),
    });

    // Sphere–box.
    progress(&format!("sphere–box: {} pairs", args.pairs));
    let boxes = random_sphere_boxes(args.seed.wrapping_add(1), args.pairs);
    let sphere_box_fam = sphere_family(boxes.len(), |k| {
        let (s, b) = &boxes[k];
        let (_, sd) = crate::discrete::sphere_cuboid::closest_surface_point_oracle(b, &s.centre());
        (
            SphereComparison {
                ours: sphere_cuboid(s, b),
                parry: parry_sphere_cuboid(s, b),
            },
            sd - s.radius(),
        )
    });
    timing.push(TimingRow {
        id: "sphere_cuboid/ours/random".into(),
        queries: boxes.len(),
        us_per_query: time_per_query(boxes.len(), secs, |k| {
            black_box(sphere_cuboid(
                black_box(&boxes[k].0),
                black_box(&boxes[k].1),
            ));
        }),
    });
    let parry_boxes: Vec<_> = boxes
        .iter()
        .map(|(s, b)| {
            (
                crate::discrete::parry_compare::ball(s),
                crate::discrete::parry_compare::cuboid(b),
            )
        })
        .collect();
    timing.push(TimingRow {
        id: "sphere_cuboid/parry/random".into(),
        queries: boxes.len(),
        us_per_query: time_per_query(boxes.len(), secs, |k| {
            let ((p1, g1), (p2, g2)) = &parry_boxes[k];
            black_box(parry3d_f64::query::contact(p1, g1, p2, g2, 0.0).ok());
        }),
    });

    // Cylinder–terrain, random.
    progress(&format!(
        "cylinder–terrain: {} terrains × {} cylinders (with the slow oracle)",
        args.terrains, args.cylinders
    ));
    let grids: Vec<HeightGrid> = (0..args.terrains)
        .map(|t| random_terrain(args.seed.wrapping_add(10 + t as u64), 33, 0.25))
        .collect();
    let mut terrains: Vec<ParryTerrain> = grids.iter().map(ParryTerrain::new).collect();
    let cases: Vec<TerrainCase> = grids
        .iter()
        .enumerate()
        .flat_map(|(t, g)| {
            random_cylinders(args.seed.wrapping_add(1000 + t as u64), g, args.cylinders)
                .into_iter()
                .map(move |cyl| TerrainCase { grid: t, cyl })
        })
        .collect();
    let terrain_fam = terrain_family(&grids, &mut terrains, &cases);
    {
        let mut ws = Workspace::new();
        let mut out = Vec::new();
        timing.push(TimingRow {
            id: "cylinder_heightfield/ours/random".into(),
            queries: cases.len(),
            us_per_query: time_per_query(cases.len(), secs, |k| {
                let c = &cases[k];
                black_box(cylinder_heightfield(
                    black_box(&c.cyl),
                    &grids[c.grid],
                    &Params::default(),
                    &mut ws,
                    &mut out,
                ));
            }),
        });
    }
    timing.push(TimingRow {
        id: "cylinder_heightfield/parry_contact/random".into(),
        queries: cases.len(),
        us_per_query: time_per_query(cases.len(), secs, |k| {
            let c = &cases[k];
            black_box(terrains[c.grid].contact(black_box(&c.cyl)));
        }),
    });
    timing.push(TimingRow {
        id: "cylinder_heightfield/parry_manifolds/random".into(),
        queries: cases.len(),
        us_per_query: time_per_query(cases.len(), secs, |k| {
            let c = &cases[k];
            black_box(terrains[c.grid].manifold_counts(black_box(&c.cyl)));
        }),
    });

    // Scenes.
    progress("scenes");
    let asphalt = asphalt_with_curb();
    let mut asphalt_parry = ParryTerrain::new(&asphalt);
    let mut scene_rows = Vec::new();
    let mut scene_panels = Vec::new();
    for scene in barrel_scenes() {
        let cyl = scene.cylinder;
        let (rep, out) = run_query(&cyl, &asphalt);
        let parry = asphalt_parry.contact(&cyl);
        let counts = asphalt_parry.manifold_counts(&cyl);
        let parry_pts = asphalt_parry.last_manifold_points(&cyl);
        let cmp = TerrainComparison::new(rep.outcome, &out, rep.stats.groups, parry, counts);
        let mut ws = Workspace::new();
        let mut buf = Vec::new();
        let ours_us = time_per_query(1, secs / 4.0, |_| {
            black_box(cylinder_heightfield(
                black_box(&cyl),
                &asphalt,
                &Params::default(),
                &mut ws,
                &mut buf,
            ));
        });
        let parry_contact_us = time_per_query(1, secs / 4.0, |_| {
            black_box(asphalt_parry.contact(black_box(&cyl)));
        });
        let parry_manifold_us = time_per_query(1, secs / 4.0, |_| {
            black_box(asphalt_parry.manifold_counts(black_box(&cyl)));
        });
        let mut sources: Vec<String> = out.iter().map(|p| format!("{:?}", p.source)).collect();
        sources.dedup();
        scene_rows.push(SceneRow {
            name: scene.name.into(),
            description: scene.description.into(),
            outcome: outcome_name(rep.outcome),
            ours_points: out.len(),
            ours_groups: rep.stats.groups,
            ours_max_depth: out.iter().map(|p| p.depth).fold(0.0, f64::max),
            ours_sources: sources,
            parry_depth: parry.map(|p| p.depth),
            parry_points: counts.0,
            parry_manifolds: counts.1,
            normal_angle_deepest: cmp.differences().map(|d| d.1),
            ours_us,
            parry_contact_us,
            parry_manifold_us,
        });
        scene_panels.push(plot::Panel {
            title: format!("{}: {}", scene.name, scene.description),
            cylinder: cyl,
            ours: out,
            parry: parry_pts,
            yaw: if scene.name == "curb" { -0.9 } else { 0.65 },
        });
    }

    // Wheel over the hill.
    progress(&format!("wheel over the hill: {} frames", args.frames));
    let hill_grid = hill();
    let mut hill_parry = ParryTerrain::new(&hill_grid);
    let path = wheel_path(&hill_grid, args.frames);
    let mut wheel_rows = Vec::new();
    let mut crest_panel = None;
    for w in &path {
        let (rep, out) = run_query(w, &hill_grid);
        let coarse = Params {
            normal_tolerance: 1.0 - 5f64.to_radians().cos(),
            ..Params::default()
        };
        let mut out5 = Vec::new();
        cylinder_heightfield(w, &hill_grid, &coarse, &mut Workspace::new(), &mut out5);
        let parry = hill_parry.contact(w);
        let counts = hill_parry.manifold_counts(w);
        wheel_rows.push(WheelRow {
            x: w.centre().x,
            ours_points: out.len(),
            ours_groups: rep.stats.groups,
            ours_max_depth: out.iter().map(|p| p.depth).fold(0.0, f64::max),
            parry_depth: parry.map(|p| p.depth),
            parry_points: counts.0,
            ours_points_5deg: out5.len(),
        });
        // The frame on the uphill flank (x ≈ 2.6) for the figure.
        if crest_panel.is_none() && w.centre().x >= 2.6 {
            crest_panel = Some(plot::Panel {
                title: format!("wheel on the hill's flank, x = {:.2} m", w.centre().x),
                cylinder: *w,
                parry: hill_parry.last_manifold_points(w),
                ours: out,
                yaw: 0.65,
            });
        }
    }
    {
        let mut ws = Workspace::new();
        let mut out = Vec::new();
        timing.push(TimingRow {
            id: "cylinder_heightfield/ours/wheel_hill".into(),
            queries: path.len(),
            us_per_query: time_per_query(path.len(), secs, |k| {
                black_box(cylinder_heightfield(
                    black_box(&path[k]),
                    &hill_grid,
                    &Params::default(),
                    &mut ws,
                    &mut out,
                ));
            }),
        });
    }
    timing.push(TimingRow {
        id: "cylinder_heightfield/parry_contact/wheel_hill".into(),
        queries: path.len(),
        us_per_query: time_per_query(path.len(), secs, |k| {
            black_box(hill_parry.contact(black_box(&path[k])));
        }),
    });
    timing.push(TimingRow {
        id: "cylinder_heightfield/parry_manifolds/wheel_hill".into(),
        queries: path.len(),
        us_per_query: time_per_query(path.len(), secs, |k| {
            black_box(hill_parry.manifold_counts(black_box(&path[k])));
        }),
    });

    // Figures.
    progress("figures");
    let stage = stage(&args.out)?;
    let fonts = plot::register_font();
    let mut figures = Vec::new();
    let mut notes = Vec::new();
    let panels_asphalt = scene_panels;
    // A figure that cannot be written (a full disk, say) fails the report:
    // nothing is left half-written (the stage is dropped).
    let figure_error = |name: &str, e: &dyn std::fmt::Display| DiscreteReportError::Write {
        path: args.out.join(name),
        message: e.to_string(),
    };
    let scenes_png = stage.path("scenes.png");
    plot::scenes_figure(&scenes_png, &asphalt, &panels_asphalt, fonts)
        .map_err(|e| figure_error("scenes.png", &e))?;
    figures.push("scenes.png".to_string());
    if let Some(p) = crest_panel {
        let wheel_png = stage.path("wheel_hill.png");
        plot::wheel_figure(
            &wheel_png,
            &hill_grid,
            &p,
            &path,
            &wheel_rows_plot(&wheel_rows),
            fonts,
        )
        .map_err(|e| figure_error("wheel_hill.png", &e))?;
        figures.push("wheel_hill.png".to_string());
    }
    let timing_png = stage.path("timing.png");
    let bars: Vec<(String, f64)> = timing
        .iter()
        .map(|t| (t.id.clone(), t.us_per_query))
        .collect();
    plot::timing_figure(&timing_png, &bars, fonts).map_err(|e| figure_error("timing.png", &e))?;
    figures.push("timing.png".to_string());
    if !fonts {
        notes.push(format!(
            "no font found at {}: figures drawn without any text",
            plot::FONT_PATHS.join(", ")
        ));
    }

    let results = Results {
        stamp: Stamp::new(1),
        seed: args.seed,
        sphere_sphere: sphere_sphere_fam,
        sphere_box: sphere_box_fam,
        cylinder_terrain: terrain_fam,
        scenes: scene_rows,
        wheel: wheel_rows,
        timing,
        figures,
        figure_note: notes.join("; "),
    };
    for (name, text) in [
        ("results.json", serde_json::to_string_pretty(&results)?),
        ("summary.md", summary(&results, args)),
    ] {
        let path = stage.path(name);
        write_atomic(&path, text.as_bytes()).map_err(|e| DiscreteReportError::Write {
            path: args.out.join(name),
            message: e.to_string(),
        })?;
    }
    stage.commit().map_err(|e| DiscreteReportError::Write {
        path: e.path,
        message: e.message,
    })?;
    let unexplained = results
        .sphere_sphere
        .disagreements
        .iter()
        .chain(&results.sphere_box.disagreements)
        .chain(&results.cylinder_terrain.disagreements_parry)
        .chain(&results.cylinder_terrain.disagreements_oracle)
        .filter(|d| d.explanation == "UNEXPLAINED")
        .count();
    Ok(ReportSummary { unexplained })
}

/// The wheel rows as the wheel figure's samples.
fn wheel_rows_plot(rows: &[WheelRow]) -> Vec<plot::WheelSample> {
    rows.iter()
        .map(|r| plot::WheelSample {
            x: r.x,
            ours_depth: r.ours_max_depth,
            parry_depth: r.parry_depth,
            ours_points: r.ours_points,
            parry_points: r.parry_points,
            ours_points_5deg: r.ours_points_5deg,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{Scratch, names};

    fn run(args: ReportConfig) -> Result<ReportSummary, DiscreteReportError> {
        write_report(&args, &mut |_| {})
    }

    /// The arguments of a small valid run writing to `out`.
    fn small(out: PathBuf) -> ReportConfig {
        ReportConfig {
            out,
            seed: 2020,
            terrains: 1,
            cylinders: 2,
            pairs: 10,
            frames: 3,
            time_per_sample: 1e-4,
        }
    }

    fn refused(args: &ReportConfig) -> String {
        match check_args(args) {
            Err(e @ DiscreteReportError::Argument { .. }) => e.to_string(),
            other => panic!("expected an argument error, got {other:?}"),
        }
    }

    #[test]
    fn an_unusable_out_is_refused_by_name() {
        // Were "File exists (os error 17)" and "Not a directory (os error
        // 20)", without the path.
        let dir = Scratch::new("discrete-unusable-out");
        let file = dir.join("a0.ply");
        std::fs::write(&file, "ply\n").unwrap();
        let e = run(small(file.clone())).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "invalid --out {}: exists and is not a folder",
                file.display()
            )
        );
        let below = file.join("sub");
        let e = run(small(below.clone())).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("invalid --out {}: ", below.display())),
            "{e}"
        );
        let deeper = file.join("sub").join("deeper");
        let e = run(small(deeper.clone())).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("invalid --out {}: ", deeper.display())),
            "{e}"
        );
        assert_eq!(names(&dir), ["a0.ply"]);
    }

    #[test]
    fn a_small_run_writes_its_files_and_nothing_else() {
        let dir = Scratch::new("discrete-small-run");
        let out = dir.join("new").join("out");
        run(small(out.clone())).unwrap();
        assert_eq!(names(&dir.join("new")), ["out"]);
        let files = names(&out);
        for f in ["results.json", "summary.md", "timing.png"] {
            assert!(files.iter().any(|n| n == f), "{files:?}");
        }
        assert!(files.iter().all(|n| !n.starts_with('.')), "{files:?}");
        // Into an existing folder: same names replaced, others kept.
        std::fs::write(out.join("summary.md"), "old").unwrap();
        std::fs::write(out.join("mine.txt"), "mine").unwrap();
        run(small(out.clone())).unwrap();
        let again = names(&out);
        assert_eq!(again.len(), files.len() + 1, "{again:?}");
        assert!(
            std::fs::read_to_string(out.join("summary.md"))
                .unwrap()
                .starts_with("# ")
        );
        assert_eq!(
            std::fs::read_to_string(out.join("mine.txt")).unwrap(),
            "mine"
        );
        // Empty tallies read as such, not as Rust's `{}` or an empty list
        // (this run has no separated cylinder and, for sphere–box, no
        // contact).
        let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
        assert!(
            !summary.contains("{}") && !summary.contains(": ."),
            "{summary}"
        );
        assert!(summary.contains("separated 0."), "{summary}");
    }

    #[test]
    fn the_largest_seed_runs() {
        // The derived seeds (seed + 1, + 10 + t, + 1000 + t) overflowed:
        // a panic wherever overflow checks are on (debug builds, tests).
        let dir = Scratch::new("discrete-largest-seed");
        let mut a = small(dir.join("out"));
        a.seed = u64::MAX;
        run(a).unwrap();
        let results = std::fs::read_to_string(dir.join("out").join("results.json")).unwrap();
        assert!(results.contains(&format!("\"seed\": {}", u64::MAX)));
    }

    #[test]
    fn zero_counts_are_refused_by_name() {
        // Each of these made the timing loop spin for ever.
        let out = PathBuf::from("unused");
        for (name, set) in [
            (
                "pairs",
                (|a: &mut ReportConfig| a.pairs = 0) as fn(&mut ReportConfig),
            ),
            ("frames", |a| a.frames = 0),
            ("terrains", |a| a.terrains = 0),
            ("cylinders", |a| a.cylinders = 0),
        ] {
            let mut a = small(out.clone());
            set(&mut a);
            let m = refused(&a);
            assert!(m.starts_with(&format!("invalid --{name}: 0:")), "{m}");
        }
        assert!(check_args(&small(out)).is_ok());
    }

    #[test]
    fn counts_above_the_limits_are_refused() {
        // usize::MAX pairs panicked ("capacity overflow"); 4e9 frames aborted
        // on a 256 GB allocation.
        let out = PathBuf::from("unused");
        let mut a = small(out.clone());
        a.pairs = usize::MAX;
        assert!(refused(&a).contains(&format!("{} exceeds the limit of {MAX_PAIRS}", usize::MAX)));
        a.pairs = MAX_PAIRS;
        assert!(check_args(&a).is_ok());
        let mut a = small(out.clone());
        a.frames = 4_000_000_000;
        assert!(refused(&a).starts_with("invalid --frames: 4000000000 exceeds"));
        a.frames = MAX_FRAMES;
        assert!(check_args(&a).is_ok());
        let mut a = small(out.clone());
        a.terrains = MAX_TERRAINS + 1;
        assert!(refused(&a).starts_with("invalid --terrains:"));
        // Each factor within its limit, the product not.
        let mut a = small(out);
        a.terrains = 2;
        a.cylinders = MAX_TERRAIN_QUERIES;
        let m = refused(&a);
        assert!(
            m.starts_with("invalid --cylinders:") && m.contains("200000 queries"),
            "{m}"
        );
        a.terrains = 1;
        assert!(check_args(&a).is_ok());
    }

    #[test]
    fn time_per_sample_must_be_finite_positive_and_bounded() {
        // inf and 1e300 timed for ever; 0, -1 and NaN were accepted.
        for t in [0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0] {
            let mut a = small(PathBuf::from("unused"));
            a.time_per_sample = t;
            let m = refused(&a);
            assert!(m.starts_with("invalid --time-per-sample:"), "{t}: {m}");
            assert!(m.contains("positive"), "{t}: {m}");
        }
        let mut a = small(PathBuf::from("unused"));
        a.time_per_sample = 1e300;
        assert!(refused(&a).contains("1e300 s exceeds the limit of 10.0 s"));
        a.time_per_sample = MAX_TIME_PER_SAMPLE;
        assert!(check_args(&a).is_ok());
        a.time_per_sample = f64::MIN_POSITIVE;
        assert!(check_args(&a).is_ok());
    }
}
