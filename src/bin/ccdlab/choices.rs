//! Value parsers for the options that name one of the library's choices (a
//! solver, a filter setting): the names come from the library's `ALL`, so
//! that `--help` lists them (`[possible values: …]`), a refusal names them,
//! and a new solver or setting appears in both without an edit here.

use clap::builder::{PossibleValuesParser, TypedValueParser};

use ccdlab::filter::FilterSet;
use ccdlab::narrow_phase::Solver;

/// `--solver`: one of [`Solver::ALL`]'s names.
pub fn solver() -> impl TypedValueParser<Value = Solver> {
    PossibleValuesParser::new(Solver::ALL.map(|s| s.name())).try_map(|s| s.parse::<Solver>())
}

/// `--filters`: one of [`FilterSet::ALL`]'s names.
pub fn filters() -> impl TypedValueParser<Value = FilterSet> {
    PossibleValuesParser::new(FilterSet::ALL.map(|f| f.name())).try_map(|s| s.parse::<FilterSet>())
}
