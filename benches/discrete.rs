//! Discrete detectors against parry3d-f64 (criterion). Ids
//! `stage/algorithm/dataset`; inputs built once from fixed seeds; one
//! iteration runs the whole set, throughput counts queries.

use std::hint::black_box;

use ccdlab::discrete::cylinder_heightfield::{Params, Workspace, cylinder_heightfield};
use ccdlab::discrete::parry_compare::{ParryTerrain, ball, cuboid};
use ccdlab::discrete::scenes::{
    asphalt_with_curb, barrel_scenes, hill, random_cylinders, random_sphere_boxes,
    random_sphere_pairs, random_terrain, wheel_path,
};
use ccdlab::discrete::{Cylinder, HeightGrid, sphere_cuboid, sphere_sphere};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const SEED: u64 = 2020;

fn spheres(c: &mut Criterion) {
    let pairs = random_sphere_pairs(SEED, 4096);
    let parry_pairs: Vec<_> = pairs.iter().map(|(a, b)| (ball(a), ball(b))).collect();
    let mut g = c.benchmark_group("sphere_sphere");
    g.throughput(Throughput::Elements(pairs.len() as u64));
    g.bench_function("ccdlab/random", |b| {
        b.iter(|| {
            for (s1, s2) in &pairs {
                black_box(sphere_sphere(black_box(s1), black_box(s2)));
            }
        })
    });
    g.bench_function("parry/random", |b| {
        b.iter(|| {
            for ((p1, g1), (p2, g2)) in &parry_pairs {
                black_box(parry3d_f64::query::contact(p1, g1, p2, g2, 0.0).ok());
            }
        })
    });
    g.finish();

    let boxes = random_sphere_boxes(SEED + 1, 4096);
    let parry_boxes: Vec<_> = boxes.iter().map(|(s, b)| (ball(s), cuboid(b))).collect();
    let mut g = c.benchmark_group("sphere_cuboid");
    g.throughput(Throughput::Elements(boxes.len() as u64));
    g.bench_function("ccdlab/random", |b| {
        b.iter(|| {
            for (s, bx) in &boxes {
                black_box(sphere_cuboid(black_box(s), black_box(bx)));
            }
        })
    });
    g.bench_function("parry/random", |b| {
        b.iter(|| {
            for ((p1, g1), (p2, g2)) in &parry_boxes {
                black_box(parry3d_f64::query::contact(p1, g1, p2, g2, 0.0).ok());
            }
        })
    });
    g.finish();
}

fn terrain_set(c: &mut Criterion, dataset: &str, grid: &HeightGrid, cyls: &[Cylinder]) {
    let mut terrain = ParryTerrain::new(grid);
    let mut ws = Workspace::new();
    let mut out = Vec::new();
    let params = Params::default();
    let mut g = c.benchmark_group("cylinder_heightfield");
    g.throughput(Throughput::Elements(cyls.len() as u64));
    g.bench_function(format!("ccdlab/{dataset}"), |b| {
        b.iter(|| {
            for cyl in cyls {
                black_box(cylinder_heightfield(
                    black_box(cyl),
                    grid,
                    &params,
                    &mut ws,
                    &mut out,
                ));
            }
        })
    });
    g.bench_function(format!("parry_contact/{dataset}"), |b| {
        b.iter(|| {
            for cyl in cyls {
                black_box(terrain.contact(black_box(cyl)));
            }
        })
    });
    g.bench_function(format!("parry_manifolds/{dataset}"), |b| {
        b.iter(|| {
            for cyl in cyls {
                black_box(terrain.manifold_counts(black_box(cyl)));
            }
        })
    });
    g.finish();
}

fn cylinders(c: &mut Criterion) {
    let grid = random_terrain(SEED + 10, 33, 0.25);
    let cyls = random_cylinders(SEED + 1000, &grid, 200);
    terrain_set(c, "random", &grid, &cyls);
    let asphalt = asphalt_with_curb();
    let barrels: Vec<Cylinder> = barrel_scenes().iter().map(|s| s.cylinder).collect();
    terrain_set(c, "barrels", &asphalt, &barrels);
    let hill = hill();
    let path = wheel_path(&hill, 41);
    terrain_set(c, "wheel_hill", &hill, &path);
}

criterion_group!(benches, spheres, cylinders);
criterion_main!(benches);
