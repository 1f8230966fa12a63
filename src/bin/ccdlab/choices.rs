//! The values of the options that choose how the pipeline runs. A solver or
//! a filter setting is named from the library's `ALL`, so that `--help`
//! lists them (`[possible values: …]`), a refusal names them, and a new
//! solver or setting appears in both without an edit here; the switches
//! (`--window`, `--time-aligned`, `--self-collision`) are enums of the
//! command line's own words, each mapped to the library's setting.

use clap::builder::{PossibleValuesParser, TypedValueParser};

use ccdlab::filter::FilterSet;
use ccdlab::narrow_phase::Solver;
use ccdlab::pipeline::{Bodies, TimeAligned};

/// `--solver`: one of [`Solver::ALL`]'s names.
pub fn solver() -> impl TypedValueParser<Value = Solver> {
    PossibleValuesParser::new(Solver::ALL.map(|s| s.name())).try_map(|s| s.parse::<Solver>())
}

/// `--filters`: one of [`FilterSet::ALL`]'s names.
pub fn filters() -> impl TypedValueParser<Value = FilterSet> {
    PossibleValuesParser::new(FilterSet::ALL.map(|f| f.name())).try_map(|s| s.parse::<FilterSet>())
}

// The variants' docs are what `--help` shows for each value; `Switch`'s
// have none, so that its two values read as a plain list.

/// An option that is on or off (`--window`, `proximity --self-collision`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    On,
    Off,
}

impl Switch {
    /// Whether it is on.
    pub fn is_on(self) -> bool {
        self == Switch::On
    }
}

/// `--time-aligned`: the library's [`TimeAligned`], by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TimeAlignedArg {
    /// Prune, with the filters as chosen.
    On,
    /// No pruning: the paper's BVH, the filters as chosen.
    Off,
    /// On, without SLPF in the filters, when the vertices move at least half
    /// the mean edge length, else off; decided whenever the BVH is built.
    Auto,
}

impl From<TimeAlignedArg> for TimeAligned {
    fn from(arg: TimeAlignedArg) -> TimeAligned {
        match arg {
            TimeAlignedArg::On => TimeAligned::On,
            TimeAlignedArg::Off => TimeAligned::Off,
            TimeAlignedArg::Auto => TimeAligned::Auto,
        }
    }
}

/// `--self-collision`: which pairs are tested, as the library's [`Bodies`]
/// ([`SelfCollision::bodies`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SelfCollision {
    /// Every pair.
    On,
    /// Each connected component is a body that does not collide with
    /// itself: only pairs of features in different components are tested,
    /// as for objects that touch only each other.
    Off,
    /// The components that do not move in the step are a static obstacle,
    /// whose pairs with itself are not tested; every other pair is.
    Moving,
}

impl SelfCollision {
    /// The library's setting: `None` (every pair), [`Bodies::Components`] or
    /// [`Bodies::StillObstacle`].
    pub fn bodies(self) -> Option<Bodies> {
        match self {
            SelfCollision::On => None,
            SelfCollision::Off => Some(Bodies::Components),
            SelfCollision::Moving => Some(Bodies::StillObstacle),
        }
    }
}
