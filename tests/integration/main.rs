//! The integration tests: one test binary (one link of the library and its
//! dependencies) with a module per area. Each module's doc says what it
//! checks; the ground-truth tests read the data sets committed under
//! `datasets/` (or `$CCDLAB_DATA`).

#[path = "../../src/test_util.rs"]
mod common;

mod bad_input;
mod baseline_parry;
mod broad_phase;
mod cli;
mod contact;
mod datasets;
mod discrete;
mod generate;
mod ground_truth;
mod min_distance;
mod narrow_phase_oracle;
mod pipeline;
mod polygons;
mod readers;
mod report;
mod route;
