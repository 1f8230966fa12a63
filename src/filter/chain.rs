//! The filter settings of the pipeline, and their composition in the paper's
//! order: SLPF first, DNF on the survivors (Wan, Fu & Yao 2022, §3.2).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{Verdict, dnf, slpf};
use crate::math::Vec3;
use crate::pair_kernel::QueryKind;

/// Which low-level filters run before the exact test (in reports and JSON,
/// its [`name`](FilterSet::name)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum FilterSet {
    /// No filtering.
    #[serde(rename = "none")]
    None,
    /// DNF alone.
    #[serde(rename = "dnf")]
    Dnf,
    /// SLPF alone.
    #[serde(rename = "slpf")]
    Slpf,
    /// SLPF, then DNF on the survivors (the paper's combined path).
    #[default]
    #[serde(rename = "slpf+dnf")]
    SlpfDnf,
}

/// Which filter removed a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CulledBy {
    /// SLPF.
    Slpf,
    /// DNF.
    Dnf,
    /// The coplanar-window filter (not one of the paper's; see
    /// [`crate::filter::window_vertex_face`]).
    Window,
}

impl FilterSet {
    /// All settings, in report order.
    pub const ALL: [FilterSet; 4] = [
        FilterSet::None,
        FilterSet::Slpf,
        FilterSet::Dnf,
        FilterSet::SlpfDnf,
    ];

    /// Name on the command line and in reports.
    pub fn name(&self) -> &'static str {
        match self {
            FilterSet::None => "none",
            FilterSet::Dnf => "dnf",
            FilterSet::Slpf => "slpf",
            FilterSet::SlpfDnf => "slpf+dnf",
        }
    }

    /// Whether this setting runs SLPF.
    pub fn uses_slpf(self) -> bool {
        matches!(self, FilterSet::Slpf | FilterSet::SlpfDnf)
    }

    /// Whether this setting runs DNF.
    pub fn uses_dnf(self) -> bool {
        matches!(self, FilterSet::Dnf | FilterSet::SlpfDnf)
    }

    /// This setting with SLPF left out (`slpf+dnf` → `dnf`, `slpf` →
    /// `none`): what [`crate::pipeline::TimeAligned::Auto`] runs when the
    /// BVH prunes by SLPF's test itself.
    pub fn without_slpf(self) -> FilterSet {
        match self {
            FilterSet::SlpfDnf => FilterSet::Dnf,
            FilterSet::Slpf => FilterSet::None,
            other => other,
        }
    }

    /// Runs the filters on one pair given as its eight points (data set row
    /// order), with SLPF `directions`. `Some(filter)` when culled.
    #[inline]
    pub fn cull(
        &self,
        kind: QueryKind,
        directions: &[[f64; 3]],
        q: &[Vec3; 8],
    ) -> Option<CulledBy> {
        let [a, b, c, d, e, f, g, h] = q;
        let slpf = || match kind {
            QueryKind::VertexFace => slpf::slpf_vertex_face(directions, a, b, c, d, e, f, g, h),
            QueryKind::EdgeEdge => slpf::slpf_edge_edge(directions, a, b, c, d, e, f, g, h),
        };
        let dnf = || match kind {
            QueryKind::VertexFace => dnf::dnf_vertex_face(a, b, c, d, e, f, g, h),
            QueryKind::EdgeEdge => dnf::dnf_edge_edge(a, b, c, d, e, f, g, h),
        };
        if self.uses_slpf() && slpf() == Verdict::Culled {
            return Some(CulledBy::Slpf);
        }
        if self.uses_dnf() && dnf() == Verdict::Culled {
            return Some(CulledBy::Dnf);
        }
        None
    }
}

impl fmt::Display for FilterSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown filter-set name.
#[derive(Debug, thiserror::Error)]
#[error("unknown filter setting {0:?}; expected one of: none, dnf, slpf, slpf+dnf")]
pub struct UnknownFilterSet(pub String);

impl FromStr for FilterSet {
    type Err = UnknownFilterSet;
    fn from_str(s: &str) -> Result<FilterSet, UnknownFilterSet> {
        FilterSet::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFilterSet(s.to_string()))
    }
}
