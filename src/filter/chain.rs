//! The filter settings of the pipeline, and their composition in the paper's
//! order: SLPF first, DNF on the survivors (Wan, Fu & Yao 2022, §3.2;
//! docs/design.md §2.2); then the coplanar-window filter, which is not the
//! paper's (docs/design.md §7). At a minimum separation `d > 0` the filters
//! run in their within-`d` forms, SLPF off (docs/design.md §5).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{
    Points, Verdict, dnf_window_edge_edge, dnf_window_vertex_face, dnf_window_within, slpf,
};
use crate::enum_with_all::enum_with_all;
use crate::math::Vec3;
use crate::pair_kernel::QueryKind;

enum_with_all! {
    /// Which low-level filters run before the exact test (in reports and JSON,
    /// its [`name`](FilterSet::name)).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
    pub enum FilterSet {
        /// No filtering.
        #[serde(rename = "none")]
        None,
        /// SLPF alone.
        #[serde(rename = "slpf")]
        Slpf,
        /// DNF alone.
        #[serde(rename = "dnf")]
        Dnf,
        /// SLPF, then DNF on the survivors (the paper's combined path).
        #[default]
        #[serde(rename = "slpf+dnf")]
        SlpfDnf,
    }
    /// All settings, in report order.
    const ALL;
}

enum_with_all! {
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
    /// Every filter, in the order they run.
    const ALL;
}

impl CulledBy {
    /// Its name in reports (the Python filter batches' verdicts).
    pub const fn name(self) -> &'static str {
        match self {
            CulledBy::Slpf => "slpf",
            CulledBy::Dnf => "dnf",
            CulledBy::Window => "window",
        }
    }
}

impl FilterSet {
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

    /// The pipeline's filters on one pair given as its eight points (data
    /// set row order), as [`crate::pipeline::Pipeline`] runs them on its
    /// candidates: SLPF along `directions` (the per-pair kernels
    /// [`slpf_vertex_face`](super::slpf_vertex_face) and
    /// [`slpf_edge_edge`](super::slpf_edge_edge), whose bounds are relative
    /// to the pair's own differences), then DNF and, when `window`, the
    /// coplanar-window filter, sharing the coplanarity cubic. At a minimum
    /// separation `min_distance > 0`, SLPF is left out (it separates
    /// projections with no gap) and DNF and the window run in their
    /// within-`d` forms ([`super::dnf_window_within`]).
    ///
    /// `Some(filter)` when culled: the pair then provably does not touch
    /// (come within `min_distance`) on `[0, 1]`. A `min_distance` that is
    /// negative, NaN or infinite culls nothing.
    ///
    /// The pipeline's SLPF reads a per-vertex table
    /// ([`super::SlpfTable`]) whose bound is per direction over the whole
    /// step, not per pair: the two can differ on pairs whose projections are
    /// within about `10⁻¹⁵` of the step's largest coordinate magnitude of
    /// touching (a far-away part of the mesh widens the step's margin for
    /// every pair); both are conservative.
    #[inline]
    pub fn cull(
        &self,
        kind: QueryKind,
        directions: &[[f64; 3]],
        window: bool,
        min_distance: f64,
        q: &[Vec3; 8],
    ) -> Option<CulledBy> {
        if !(min_distance >= 0.0 && min_distance.is_finite()) {
            return None;
        }
        let [a, b, c, d, e, f, g, h] = q;
        let slpf_culls = min_distance == 0.0
            && self.uses_slpf()
            && match kind {
                QueryKind::VertexFace => slpf::slpf_vertex_face(directions, a, b, c, d, e, f, g, h),
                QueryKind::EdgeEdge => slpf::slpf_edge_edge(directions, a, b, c, d, e, f, g, h),
            } == Verdict::Culled;
        let points = || super::points([a, b, c, d, e, f, g, h]);
        self.chain(kind, window, min_distance, slpf_culls, points)
    }

    /// The filters of this setting on one pair, in their order: SLPF, whose
    /// verdict the caller gives (`slpf_culls`; its forms differ, per pair or
    /// from a per-step table; true only at `min_distance = 0`, SLPF being
    /// proven for contact only, in a setting with SLPF), then DNF and, when `window`, the
    /// coplanar-window filter, sharing the coplanarity cubic, on the pair's
    /// eight points (`points`, asked only when one of them runs): in their
    /// within-`d` forms at `min_distance > 0` ([`super::dnf_window_within`]).
    /// `Some(filter)` when culled. The one composition of the filters: a
    /// step ([`crate::pipeline::Pipeline`], SLPF from its per-vertex table),
    /// [`FilterSet::cull`] (SLPF per pair) and the benchmarks of the paper's
    /// filter stage call it, so a filter added here runs in all three.
    /// `min_distance` must be a finite double `≥ 0`.
    #[inline(always)]
    pub fn chain(
        self,
        kind: QueryKind,
        window: bool,
        min_distance: f64,
        slpf_culls: bool,
        points: impl FnOnce() -> Points,
    ) -> Option<CulledBy> {
        debug_assert!(!slpf_culls || (min_distance == 0.0 && self.uses_slpf()));
        if slpf_culls {
            return Some(CulledBy::Slpf);
        }
        let dnf = self.uses_dnf();
        if !(dnf || window) {
            return None;
        }
        let p = points();
        if min_distance > 0.0 {
            return dnf_window_within(kind, dnf, window, &p, min_distance);
        }
        match kind {
            QueryKind::VertexFace => dnf_window_vertex_face(dnf, window, &p),
            QueryKind::EdgeEdge => dnf_window_edge_edge(dnf, window, &p),
        }
    }
}

impl fmt::Display for FilterSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown filter-set name.
#[derive(Debug, thiserror::Error)]
#[error("unknown filter setting {0:?}; expected one of: {names}", names = FilterSet::ALL.map(|f| f.name()).join(", "))]
pub struct UnknownFilterSet(
    /// The name given.
    pub String,
);

impl FromStr for FilterSet {
    type Err = UnknownFilterSet;
    fn from_str(s: &str) -> Result<FilterSet, UnknownFilterSet> {
        FilterSet::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFilterSet(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    //! [`FilterSet::cull`] against the exact oracle: a culled pair never
    //! touches (comes within `d`), for every setting; and the settings nest.
    use super::*;
    use crate::filter::PAPER_DIRECTIONS;
    use crate::narrow_phase::oracle;
    use proptest::prelude::*;

    /// Names parse back to their settings; an unknown name's error lists
    /// every name.
    #[test]
    fn names_round_trip_and_an_unknown_one_lists_them() {
        for f in FilterSet::ALL {
            assert_eq!(f.name().parse::<FilterSet>().unwrap(), f);
        }
        let err = "fast".parse::<FilterSet>().unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown filter setting \"fast\"; expected one of: none, slpf, dnf, slpf+dnf"
        );
    }

    /// A vertex that hovers still at height `h` above a still triangle's
    /// interior: SLPF culls it at `d = 0` (the projections on `(1, 1, 1)`
    /// stay apart), but it is within any `d ≥ h`, where SLPF is left out and the
    /// within-`d` DNF culls it only while `d < h`.
    #[test]
    fn slpf_is_left_out_within_a_distance() {
        let (v, f0, f1, f2) = (
            Vec3::new(0.25, 0.25, 0.5),
            Vec3::zeros(),
            Vec3::new(0.75, 0.0, 0.0),
            Vec3::new(0.0, 0.75, 0.0),
        );
        let q = [v, f0, f1, f2, v, f0, f1, f2];
        let cull = |filters: FilterSet, d| {
            filters.cull(QueryKind::VertexFace, &PAPER_DIRECTIONS, false, d, &q)
        };
        assert_eq!(cull(FilterSet::SlpfDnf, 0.0), Some(CulledBy::Slpf));
        assert_eq!(cull(FilterSet::Slpf, 0.0), Some(CulledBy::Slpf));
        assert_eq!(cull(FilterSet::SlpfDnf, 0.25), Some(CulledBy::Dnf));
        assert_eq!(cull(FilterSet::SlpfDnf, 0.5), None);
        assert_eq!(cull(FilterSet::Slpf, 0.25), None);
        assert_eq!(cull(FilterSet::None, 0.0), None);
        for d in [-1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(cull(FilterSet::SlpfDnf, d), None, "{d}");
        }
    }

    #[test]
    fn each_setting_runs_its_own_filters() {
        // A vertex crossing the triangle's plane beside it (x > 1): SLPF
        // culls it along x, DNF cannot (the cubic changes sign). A vertex
        // staying just above the triangle's inside: DNF culls it, no SLPF
        // direction separates it.
        let (a, b, c) = (
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        );
        let beside = [
            Vec3::new(2.0, 0.5, 1.0),
            a,
            b,
            c,
            Vec3::new(2.0, 0.5, -1.0),
            a,
            b,
            c,
        ];
        let above = [
            Vec3::new(0.2, 0.2, 0.5),
            a,
            b,
            c,
            Vec3::new(0.2, 0.2, 0.1),
            a,
            b,
            c,
        ];
        let vf = QueryKind::VertexFace;
        let cull = |f: FilterSet, q: &[Vec3; 8]| f.cull(vf, &PAPER_DIRECTIONS, false, 0.0, q);
        assert_eq!(cull(FilterSet::None, &beside), None);
        assert_eq!(cull(FilterSet::Dnf, &beside), None);
        assert_eq!(cull(FilterSet::Slpf, &beside), Some(CulledBy::Slpf));
        assert_eq!(cull(FilterSet::SlpfDnf, &beside), Some(CulledBy::Slpf));
        assert_eq!(cull(FilterSet::Dnf, &above), Some(CulledBy::Dnf));
        assert_eq!(cull(FilterSet::Slpf, &above), None);
        assert_eq!(cull(FilterSet::SlpfDnf, &above), Some(CulledBy::Dnf));
        assert_eq!(FilterSet::SlpfDnf.without_slpf(), FilterSet::Dnf);
        assert_eq!(FilterSet::Slpf.without_slpf(), FilterSet::None);
        assert_eq!(FilterSet::Dnf.without_slpf(), FilterSet::Dnf);
    }

    fn coord() -> impl Strategy<Value = f64> {
        prop_oneof![
            4 => (-4i32..=4).prop_map(|i| f64::from(i) / 4.0),
            2 => -1.0..1.0f64,
        ]
    }

    fn point() -> impl Strategy<Value = Vec3> {
        (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// Culled ⇒ the exact oracle finds no contact (nothing within `d`),
        /// whatever the setting; a setting that runs more filters culls at
        /// least the same pairs.
        #[test]
        fn culled_pairs_never_touch_and_settings_nest(
            q in proptest::array::uniform8(point()),
            vf in any::<bool>(),
            d in prop_oneof![Just(0.0), Just(0.0), Just(1e-9), Just(0.125), 0.0..0.5f64],
        ) {
            let kind = if vf { QueryKind::VertexFace } else { QueryKind::EdgeEdge };
            let [a, b, c, dd, e, f, g, h] = &q;
            let touches = match (vf, d > 0.0) {
                (true, false) => oracle::vertex_face(a, b, c, dd, e, f, g, h).is_some(),
                (false, false) => oracle::edge_edge(a, b, c, dd, e, f, g, h).is_some(),
                (true, true) => oracle::vertex_face_within(a, b, c, dd, e, f, g, h, d).is_some(),
                (false, true) => oracle::edge_edge_within(a, b, c, dd, e, f, g, h, d).is_some(),
            };
            let cull = |s: FilterSet, window| {
                s.cull(kind, &PAPER_DIRECTIONS, window, d, &q).is_some()
            };
            for s in FilterSet::ALL {
                for window in [false, true] {
                    prop_assert!(!(touches && cull(s, window)), "{s} {window} {d} {q:?}");
                }
                prop_assert!(!cull(s, false) || cull(s, true), "{s} {d} {q:?}");
            }
            for window in [false, true] {
                let all = cull(FilterSet::SlpfDnf, window);
                prop_assert!(!cull(FilterSet::Dnf, window) || all, "{d} {q:?}");
                prop_assert!(!cull(FilterSet::Slpf, window) || all, "{d} {q:?}");
            }
        }
    }
}
