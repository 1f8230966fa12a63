//! The application of Yu, Shen & Chang (2000), §3: a TIN object (an
//! aircraft) flown along a planned route over TIN terrain — where along the
//! route it first touches, with the contact forms — and its report
//! (`README.md`, `result.json`, `route.png`), as `ccdlab route` runs them.

mod error;
mod inputs;
mod json;
mod markdown;
mod output;
mod plot;
mod report;
mod text;

pub use error::RouteReportError;
pub use inputs::{Inputs, RouteRequest};
pub use output::check_out_folder;
pub use report::write_report;
pub use text::flight_summary;
