//! The integration tests: one test binary (one link of the library and its
//! dependencies) with a module per area. Each module's doc says what it
//! checks; the ground-truth tests read the data sets committed under
//! `datasets/` (or `$CCDLAB_DATA`). Modules that need a feature (the
//! binary, the side tracks, the reports) are built with it; the default
//! features have them all.

#[path = "../../src/test_util.rs"]
mod common;

#[cfg(feature = "cli")]
mod bad_input;
#[cfg(feature = "baselines")]
mod baseline_parry;
mod bodies;
mod broad_phase;
mod candidates;
#[cfg(feature = "cli")]
mod cli;
mod codim;
mod datasets;
#[cfg(feature = "discrete")]
mod discrete;
mod generate;
mod ground_truth;
mod intersections;
mod min_distance;
mod narrow_phase_oracle;
mod pipeline;
#[cfg(feature = "polygon")]
mod polygons;
mod proximity;
mod readers;
#[cfg(feature = "reports")]
mod report;
#[cfg(feature = "cli")]
mod route;
mod separation_sampler;
mod step_on_candidates;
#[cfg(feature = "tin-contact")]
mod tin_contact;
