//! The k-DOP direction sets compared by Wan, Fu & Yao 2022, §3.1 (Fig. 6):
//! k = 6, 8, 14, 18 and 26, i.e. k/2 slab directions taken from the 13 below.
//!
//! | k  | directions                                             |
//! |----|--------------------------------------------------------|
//! | 6  | x, y, z (an AABB)                                      |
//! | 8  | the 4 corner diagonals (1,±1,±1)                       |
//! | 14 | the 6-DOP's and the 8-DOP's                            |
//! | 18 | the 6-DOP's and the 6 edge diagonals (1,±1,0), (1,0,±1), (0,1,±1) |
//! | 26 | all 13                                                 |
//!
//! Directions are not normalised: a slab is a pair of bounds on `d·p`, and an
//! overlap test only compares bounds of the same `d`, so the scale is free.
//! (§1.1 of the paper also lists k = 12 among the usual choices; §3.1 tests
//! only the five above, and so do we.)
//!
//! **More than 13 directions** are not offered: every feature test and
//! k-DOP of the build would pay for them, and the pairs they would separate
//! are culled by the filters anyway (docs/notes/bounding-volumes.md).
//!
//! docs/design.md §2.1.

use std::fmt;
use std::str::FromStr;

use crate::enum_with_all::enum_with_all;

/// The 13 slab directions, in the order slabs are stored: the coordinate axes,
/// the corner diagonals, the edge diagonals.
pub const DIRECTIONS: [[i8; 3]; 13] = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 1, 1],
    [1, 1, -1],
    [1, -1, 1],
    [1, -1, -1],
    [1, 1, 0],
    [1, -1, 0],
    [1, 0, 1],
    [1, 0, -1],
    [0, 1, 1],
    [0, 1, -1],
];

const DOP6: [usize; 3] = [0, 1, 2];
const DOP8: [usize; 4] = [3, 4, 5, 6];
const DOP14: [usize; 7] = [0, 1, 2, 3, 4, 5, 6];
const DOP18: [usize; 9] = [0, 1, 2, 7, 8, 9, 10, 11, 12];
const DOP26: [usize; 13] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/// Indices into [`DIRECTIONS`] of the slabs of a k-DOP with `n = k/2` slabs.
///
/// # Panics
/// When `n` is not 3, 4, 7, 9 or 13 (a k outside the paper's set). Used in
/// constant context by [`crate::bounding_volume::Kdop`], where a bad `n` is a
/// compile-time error.
pub const fn slab_directions(n: usize) -> &'static [usize] {
    match n {
        3 => &DOP6,
        4 => &DOP8,
        7 => &DOP14,
        9 => &DOP18,
        13 => &DOP26,
        _ => panic!("a k-DOP has 3, 4, 7, 9 or 13 slabs (k = 6, 8, 14, 18, 26)"),
    }
}

enum_with_all! {
    /// Which k-DOP: chosen at run time, dispatched once to code that is
    /// monomorphic in the slab count.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum KdopAxes {
        /// k = 6: the axis-aligned bounding box.
        Dop6,
        /// k = 8: the corner diagonals.
        Dop8,
        /// k = 14: axes and corner diagonals.
        Dop14,
        /// k = 18: axes and edge diagonals.
        Dop18,
        /// k = 26: all 13 directions (the paper's choice).
        Dop26,
    }
    /// All five, in increasing k.
    const ALL;
}

impl KdopAxes {
    /// The number of bounding planes, k.
    pub const fn k(self) -> usize {
        2 * self.num_slabs()
    }

    /// The number of slabs (directions), k/2.
    pub const fn num_slabs(self) -> usize {
        match self {
            KdopAxes::Dop6 => 3,
            KdopAxes::Dop8 => 4,
            KdopAxes::Dop14 => 7,
            KdopAxes::Dop18 => 9,
            KdopAxes::Dop26 => 13,
        }
    }

    /// The k-DOP with `k` planes, if it is one of 6, 8, 14, 18, 26.
    pub const fn from_k(k: usize) -> Option<KdopAxes> {
        match k {
            6 => Some(KdopAxes::Dop6),
            8 => Some(KdopAxes::Dop8),
            14 => Some(KdopAxes::Dop14),
            18 => Some(KdopAxes::Dop18),
            26 => Some(KdopAxes::Dop26),
            _ => None,
        }
    }

    /// The slab directions, in storage order.
    pub fn directions(self) -> impl Iterator<Item = [i8; 3]> {
        slab_directions(self.num_slabs())
            .iter()
            .map(|&i| DIRECTIONS[i])
    }
}

impl fmt::Display for KdopAxes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-DOP", self.k())
    }
}

/// A string that names no k-DOP of the paper's set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a k-DOP: use 6, 8, 14, 18 or 26 (optionally written `26-dop`, `k26`)")]
pub struct ParseKdopAxesError(pub String);

impl FromStr for KdopAxes {
    type Err = ParseKdopAxesError;

    /// Accepts `26`, `26-dop`, `26dop`, `k26`, `kdop26` (any case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        let t = t.strip_prefix("kdop").unwrap_or(&t);
        let t = t.strip_prefix('k').unwrap_or(t);
        let t = t
            .strip_suffix("-dop")
            .or(t.strip_suffix("dop"))
            .unwrap_or(t);
        t.parse::<usize>()
            .ok()
            .and_then(KdopAxes::from_k)
            .ok_or_else(|| ParseKdopAxesError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_sets_match_the_spec() {
        let d = |a: KdopAxes| a.directions().collect::<Vec<_>>();
        assert_eq!(d(KdopAxes::Dop6), vec![[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
        assert!(
            d(KdopAxes::Dop8)
                .iter()
                .all(|v| v.iter().all(|c| c.abs() == 1))
        );
        assert_eq!(d(KdopAxes::Dop8).len(), 4);
        assert!(
            d(KdopAxes::Dop18)[3..]
                .iter()
                .all(|v| v.iter().filter(|c| **c == 0).count() == 1)
        );
        for a in KdopAxes::ALL {
            assert_eq!(d(a).len() * 2, a.k());
            // No two directions are parallel.
            for (i, u) in d(a).iter().enumerate() {
                for v in &d(a)[i + 1..] {
                    let cross = [
                        u[1] * v[2] - u[2] * v[1],
                        u[2] * v[0] - u[0] * v[2],
                        u[0] * v[1] - u[1] * v[0],
                    ];
                    assert_ne!(cross, [0, 0, 0], "{a}: {u:?} ∥ {v:?}");
                }
            }
        }
        assert_eq!(d(KdopAxes::Dop26).len(), 13);
    }

    #[test]
    fn parses_the_usual_spellings() {
        for (s, a) in [
            ("26", KdopAxes::Dop26),
            ("6-DOP", KdopAxes::Dop6),
            ("k14", KdopAxes::Dop14),
            ("kdop18", KdopAxes::Dop18),
            (" 8dop ", KdopAxes::Dop8),
        ] {
            assert_eq!(s.parse::<KdopAxes>(), Ok(a), "{s}");
        }
        for s in ["12", "", "dop", "26-dops", "-6"] {
            assert!(s.parse::<KdopAxes>().is_err(), "{s}");
        }
        for a in KdopAxes::ALL {
            assert_eq!(a.to_string().parse::<KdopAxes>(), Ok(a));
        }
    }
}
