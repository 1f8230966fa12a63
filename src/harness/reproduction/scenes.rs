//! The scene steps the reproduction measures. Adding a scene to the benches,
//! the recorded JSON and the report is one line in [`SCENES`].

/// One measured step of a frame sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SceneSpec {
    /// Name in bench IDs, file names and the report (`stage/algorithm/NAME`).
    pub name: &'static str,
    /// What [`crate::harness::sequence::FrameSequence::open`] opens.
    pub sequence: &'static str,
    /// The measured step: frames `step → step + 1` of the sequence.
    pub step: usize,
}

/// The measured scenes, in report order: the two UNC steps of the paper's
/// data sets (only these two frames of each are available here), and a step
/// in the middle of the embedded generated scene (cloth on a spinning sphere,
/// cloth_ball scale; its whole sequence gives the sequence-level statistics).
pub const SCENES: &[SceneSpec] = &[
    SceneSpec {
        name: "cloth_ball",
        sequence: "cloth_ball",
        step: 0,
    },
    SceneSpec {
        name: "funnel",
        sequence: "funnel",
        step: 0,
    },
    SceneSpec {
        name: "generated",
        sequence: "generated",
        step: 20,
    },
];

/// Sort key for scene names: the order of [`SCENES`], then by name.
pub fn scene_order(name: &str) -> (usize, String) {
    (
        SCENES
            .iter()
            .position(|s| s.name == name)
            .unwrap_or(SCENES.len()),
        name.to_string(),
    )
}
