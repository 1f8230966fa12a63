//! The 2D non-convex SAT paper (Fayzrakhmanov et al., *Inzhenernyj vestnik
//! Dona*, ≈2015; `docs/design.md` §3) reproduced and judged: the report of
//! `ccdlab polygons report` (timing over polygon complexity, the paper's
//! Fig. 3; verdicts against the exact reference; translation vectors
//! against the minimum-translation oracle) and the single query of
//! `ccdlab polygons query`.

mod accuracy;
mod csv;
mod error;
mod experiment;
mod markdown;
mod plot;
mod query;
mod report;
mod timing;

pub use error::PolygonReportError;
pub use experiment::{MAX_VERTICES, ORACLE_MAX_VERTICES, ReportConfig};
pub use query::query;
pub use report::{ReportFiles, write_report};
