//! Solves every query of the given query sets once with one solver, each set
//! inside its own call of `solve_set`, so that an instruction counter can
//! attribute cost per set (see `scripts/narrow_phase_instructions.py`, which
//! runs this under `valgrind --tool=callgrind --dump-before=solve_set`).
//!
//! Usage: `narrow_phase_instructions [--solver exact|cubic] PATH...`; prints
//! one line per set: kind, queries, path (in call order).

use std::hint::black_box;
use std::process::ExitCode;

use ccdlab::harness::ground_truth::{QuerySet, discover_query_sets, load};
use ccdlab::narrow_phase::Solver;

#[inline(never)]
fn solve_set(solver: Solver, set: &QuerySet) -> usize {
    let mut hits = 0;
    for q in &set.points {
        hits += usize::from(black_box(solver.solve(set.kind, black_box(q))).is_some());
    }
    hits
}

fn main() -> ExitCode {
    let mut solver = Solver::Exact;
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--solver" {
            match args.next().map(|s| s.parse::<Solver>()) {
                Some(Ok(s)) => solver = s,
                _ => {
                    eprintln!("--solver needs exact or cubic");
                    return ExitCode::FAILURE;
                }
            }
        } else {
            paths.push(std::path::PathBuf::from(a));
        }
    }
    let mut sets = Vec::new();
    for p in &paths {
        let sources = match discover_query_sets(p) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        for s in sources {
            match load(&s) {
                Ok(set) => sets.push(set),
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    // Output is printed only at the end, so that the cost between two calls
    // is only the loop; a last call on an empty set closes the last interval.
    let mut lines = Vec::with_capacity(sets.len());
    for set in &sets {
        let hits = solve_set(solver, set);
        lines.push((set.kind.suffix(), set.points.len(), hits, &set.path));
    }
    let empty = QuerySet {
        path: "".into(),
        kind: ccdlab::narrow_phase::QueryKind::VertexFace,
        points: Vec::new(),
        truth: None,
    };
    solve_set(solver, &empty);
    for (kind, n, hits, path) in lines {
        println!("{kind} {n} {hits} {}", path.display());
    }
    ExitCode::SUCCESS
}
