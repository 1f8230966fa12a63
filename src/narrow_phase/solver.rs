//! The solvers behind one interface, for the command line, benches and
//! reports.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::toi::Toi;
use super::{edge_edge, provot, vertex_face};
use crate::math::Vec3;
use crate::pair_kernel::QueryKind;

/// A narrow-phase method (in reports and JSON, its [`name`](Solver::name)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Solver {
    /// Certified fast path + exact fallback: no false negatives or positives.
    #[default]
    Exact,
    /// The classical float cubic method (Provot 1997): the baseline.
    Cubic,
}

impl Solver {
    /// All solvers.
    pub const ALL: [Solver; 2] = [Solver::Exact, Solver::Cubic];

    /// Name on the command line and in reports.
    pub fn name(&self) -> &'static str {
        match self {
            Solver::Exact => "exact",
            Solver::Cubic => "cubic",
        }
    }

    /// Solves one query given as its eight points in data set row order.
    #[inline]
    pub fn solve(&self, kind: QueryKind, q: &[Vec3; 8]) -> Option<Toi> {
        let [p0, p1, p2, p3, p4, p5, p6, p7] = q;
        match (self, kind) {
            (Solver::Exact, QueryKind::VertexFace) => vertex_face(p0, p1, p2, p3, p4, p5, p6, p7),
            (Solver::Exact, QueryKind::EdgeEdge) => edge_edge(p0, p1, p2, p3, p4, p5, p6, p7),
            (Solver::Cubic, QueryKind::VertexFace) => {
                provot::vertex_face(p0, p1, p2, p3, p4, p5, p6, p7)
            }
            (Solver::Cubic, QueryKind::EdgeEdge) => {
                provot::edge_edge(p0, p1, p2, p3, p4, p5, p6, p7)
            }
        }
    }
}

impl fmt::Display for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown solver name.
#[derive(Debug, thiserror::Error)]
#[error("unknown solver {0:?}; expected one of: exact, cubic")]
pub struct UnknownSolver(pub String);

impl FromStr for Solver {
    type Err = UnknownSolver;
    fn from_str(s: &str) -> Result<Solver, UnknownSolver> {
        Solver::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| UnknownSolver(s.to_string()))
    }
}
