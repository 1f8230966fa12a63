//! Ground truth of the data sets: query CSVs with exact rational coordinates,
//! truth files, candidate pairs (boxes), and discovery of query sets on disk.

mod boxes;
mod discover;
mod error;
mod query_csv;
mod query_set;
mod rational;
mod truth;

pub use boxes::{queries_from_boxes, read_boxes};
pub use discover::{
    QueryOrigin, QuerySetSource, discover_query_sets, discover_query_sets_in, load,
};
pub use error::DataError;
pub use query_csv::{parse_query_csv, read_query_csv, write_query_csv};
pub use query_set::{QueryKind, QuerySet};
pub use rational::{MAX_DIGITS, RationalError, f64_to_rational, rational_to_f64};
pub use truth::{attach_truth, parse_mma_bool, read_mma_bool};
