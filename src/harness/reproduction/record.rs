//! What the benches, the step runs and the peer record, as JSON: the input of
//! `ccdlab report`. Counts are exact and deterministic; times are single
//! measurements unless they come from criterion.

use serde::{Deserialize, Deserializer, Serialize};

use crate::harness::stamp::Stamp;
use crate::pipeline::StepReport;

/// Version of the [`SceneRecord`] layout; the report refuses other versions.
pub const RECORD_FORMAT: u32 = 1;

/// The two frame labels of a record, from a JSON array; another number of
/// items is an error that says so (a fixed-size array's own error is
/// "trailing characters" or "invalid length").
fn two_frames<'de, D: Deserializer<'de>>(d: D) -> Result<[String; 2], D::Error> {
    let v = Vec::<String>::deserialize(d)?;
    let n = v.len();
    <[String; 2]>::try_from(v).map_err(|_| {
        serde::de::Error::custom(format!(
            "frames: expected 2 items (the step's two frames), found {n}"
        ))
    })
}

/// Wall times of one broad phase, milliseconds: the fastest of a few runs
/// (three in `benches/pipeline.rs`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct BroadPhaseTimes {
    /// Building the BVH from the step's swept bounding volumes.
    pub build: f64,
    /// Refitting the built BVH to a frame pair of the same mesh (the same
    /// step again: only two frames exist per UNC scene).
    pub refit: f64,
    /// Traversal: every candidate pair into a list.
    pub traverse: f64,
}

/// Candidates of one pair kind after a BVH, and how many each filter setting
/// removes from them (each setting run alone on all the candidates).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct FilterCounts {
    /// Candidates from the BVH.
    pub candidates: u64,
    /// Candidates within one connected component (self-collision pairs).
    pub same_component: u64,
    /// Removed by SLPF alone.
    pub culled_slpf: u64,
    /// Removed by DNF alone.
    pub culled_dnf: u64,
    /// Removed by SLPF then DNF (the paper's combined path).
    pub culled_slpf_dnf: u64,
}

impl FilterCounts {
    /// Pairs removed by the setting named `filters` (`none`, `slpf`, `dnf`,
    /// `slpf+dnf`).
    pub fn culled(&self, filters: &str) -> Option<u64> {
        match filters {
            "none" => Some(0),
            "slpf" => Some(self.culled_slpf),
            "dnf" => Some(self.culled_dnf),
            "slpf+dnf" => Some(self.culled_slpf_dnf),
            _ => None,
        }
    }

    /// The paper's culling rate of a setting: removed / candidates, percent
    /// (0 without candidates).
    pub fn rate(&self, filters: &str) -> Option<f64> {
        let culled = self.culled(filters)?;
        Some(if self.candidates == 0 {
            0.0
        } else {
            100.0 * culled as f64 / self.candidates as f64
        })
    }
}

/// One k of the k-value test (Fig. 6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KdopRecord {
    /// Bounding planes: 6, 8, 14, 18 or 26.
    pub k: usize,
    /// Build, refit and traversal times.
    pub times_ms: BroadPhaseTimes,
    /// Vertex–face counts.
    pub vf: FilterCounts,
    /// Edge–edge counts.
    pub ee: FilterCounts,
}

/// The parry3d-f64 AABB baseline on the same step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParryRecord {
    /// Crate version and API used.
    pub api: String,
    /// Vertex–face candidates.
    pub vf_candidates: u64,
    /// Edge–edge candidates.
    pub ee_candidates: u64,
    /// Whether its candidate set equals our 6-DOP BVH's, pair for pair.
    pub same_set_as_kdop6: bool,
    /// Build, refit and traversal times.
    pub times_ms: BroadPhaseTimes,
}

/// How far a step moves the mesh, relative to its edges: small motion leaves
/// SLPF little to cull after a swept k-DOP test (see the report).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Motion {
    /// Mean edge length at `t = 0`.
    pub mean_edge_length: f64,
    /// Vertices that move at all.
    pub moving_vertices: usize,
    /// Mean displacement `|x1 − x0|` of the moving vertices.
    pub mean_displacement: f64,
    /// Largest displacement.
    pub max_displacement: f64,
}

impl Motion {
    /// The motion of `step`.
    pub fn of(step: &crate::mesh::Step<'_>) -> Motion {
        let edges = step.mesh.edges();
        let mean_edge_length = edges
            .iter()
            .map(|&[a, b]| (step.x_t0[a as usize] - step.x_t0[b as usize]).norm())
            .sum::<f64>()
            / edges.len().max(1) as f64;
        let d: Vec<f64> = step
            .x_t0
            .iter()
            .zip(step.x_t1)
            .map(|(a, b)| (b - a).norm())
            .filter(|&d| d > 0.0)
            .collect();
        Motion {
            mean_edge_length,
            moving_vertices: d.len(),
            mean_displacement: d.iter().sum::<f64>() / d.len().max(1) as f64,
            max_displacement: d.iter().cloned().fold(0.0, f64::max),
        }
    }
}

/// Everything the pipeline bench records for one scene step
/// (`counts_<scene>.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SceneRecord {
    /// [`RECORD_FORMAT`].
    pub format: u32,
    /// Scene name ([`super::SCENES`]).
    pub scene: String,
    /// The sequence it was opened from.
    pub sequence: String,
    /// Labels of the step's two frames.
    #[serde(deserialize_with = "two_frames")]
    pub frames: [String; 2],
    /// `#V`.
    pub vertices: usize,
    /// `#E`.
    pub edges: usize,
    /// `#F`.
    pub faces: usize,
    /// Worker threads of the measurements.
    pub threads: usize,
    /// How far the step moves the mesh (absent in older records).
    #[serde(default)]
    pub motion: Option<Motion>,
    /// The k-value test, one entry per k in increasing order.
    pub kdops: Vec<KdopRecord>,
    /// The parry baseline (absent when not measured).
    pub parry: Option<ParryRecord>,
    /// Whole pipeline steps (a fresh pipeline each: BVH build, traversal,
    /// filters, exact tests) for the settings measured.
    pub steps: Vec<StepReport>,
    /// Machine, threads, commit, date.
    pub stamp: Stamp,
}

impl SceneRecord {
    /// The k-value entry for `k`.
    pub fn kdop(&self, k: usize) -> Option<&KdopRecord> {
        self.kdops.iter().find(|r| r.k == k)
    }

    /// The pipeline step with `k` and `filters`.
    pub fn step(&self, k: usize, filters: &str) -> Option<&StepReport> {
        self.steps
            .iter()
            .find(|s| s.k == k && s.filters.name() == filters)
    }
}

/// Counts of one pair kind from the peer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PeerKind {
    /// Candidates of its broad phase.
    pub candidates: u64,
    /// Pairs it finds colliding (`null` when the peer skipped its untimed
    /// counting pass).
    pub colliding: Option<u64>,
}

/// The peer's stage times, milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PeerTimes {
    /// Broad phase.
    pub broad_phase: f64,
    /// Narrow phase.
    pub narrow_phase: f64,
    /// The whole step.
    pub total: f64,
}

/// One step of the ipctk peer, as `scripts/peer_ipctk.py step … --json`
/// prints it (`peer_ipctk_<scene>.json`). Unknown fields are ignored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeerRecord {
    /// `"ipctk"`.
    pub peer: String,
    /// Package version.
    pub version: String,
    /// Threads it ran on.
    pub threads: usize,
    /// The two frame files.
    #[serde(deserialize_with = "two_frames")]
    pub frames: [String; 2],
    /// `#V`.
    pub vertices: usize,
    /// `#E`.
    pub edges: usize,
    /// `#F`.
    pub faces: usize,
    /// Its broad-phase method (e.g. `LBVH`).
    pub broad_phase: String,
    /// Vertex–face counts.
    pub vf: PeerKind,
    /// Edge–edge counts.
    pub ee: PeerKind,
    /// Earliest time of impact, if any.
    pub toi: Option<f64>,
    /// Stage times.
    pub time_ms: PeerTimes,
    /// Its provenance stamp, as it wrote it.
    #[serde(default)]
    pub stamp: serde_json::Value,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Frames {
        #[serde(deserialize_with = "two_frames")]
        frames: [String; 2],
    }

    #[test]
    fn frames_of_another_length_say_how_many_were_expected() {
        let ok: Frames = serde_json::from_str(r#"{"frames": ["a", "b"]}"#).unwrap();
        assert_eq!(ok.frames, ["a", "b"]);
        for (json, found) in [
            (r#"{"frames": ["a", "b", "c", "d", "e"]}"#, 5),
            (r#"{"frames": ["a"]}"#, 1),
        ] {
            let e = serde_json::from_str::<Frames>(json)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(&format!(
                    "frames: expected 2 items (the step's two frames), found {found}"
                )),
                "{e}"
            );
        }
    }
}
