//! What Wan, Fu & Yao 2022 report (§3, Tables 1–2 and Fig. 6; transcribed in
//! docs/design.md §2.4), for the side-by-side tables and bars of the report.
//!
//! Culling rate = share of the VF (or EE) pairs left by the 26-DOP BVH that a
//! filter removes; time = seconds per frame; Intel i7-8565U, C++, one thread;
//! averaged over the data sets' frame sequences (cloth_ball 94 frames,
//! funnel about 500).

/// One data set's Table 1 or 2: columns SLPF, DNF, SLPF+DNF.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PaperTable {
    /// Scene name as in [`super::SCENES`].
    pub scene: &'static str,
    /// Table number in the paper.
    pub table: u8,
    /// Frames in the sequence the paper averages over (approximate for
    /// funnel: "about 500").
    pub sequence_frames: usize,
    /// Vertices and faces the paper states.
    pub vertices: usize,
    /// Faces.
    pub faces: usize,
    /// VF culling rate, percent: SLPF, DNF, SLPF+DNF.
    pub vf_culling: [f64; 3],
    /// VF time per frame, seconds.
    pub vf_time_s: [f64; 3],
    /// EE culling rate, percent.
    pub ee_culling: [f64; 3],
    /// EE time per frame, seconds.
    pub ee_time_s: [f64; 3],
}

/// The column order of [`PaperTable`].
pub const FILTER_COLUMNS: [&str; 3] = ["slpf", "dnf", "slpf+dnf"];

/// Tables 1 (cloth_ball) and 2 (funnel).
pub const TABLES: [PaperTable; 2] = [
    PaperTable {
        scene: "cloth_ball",
        table: 1,
        sequence_frames: 94,
        vertices: 46_598,
        faces: 92_230,
        vf_culling: [58.18, 38.46, 58.57],
        vf_time_s: [7.6724, 7.77736, 7.82136],
        ee_culling: [45.79, 31.23, 47.21],
        ee_time_s: [11.62861, 11.36065, 11.73403],
    },
    PaperTable {
        scene: "funnel",
        table: 2,
        sequence_frames: 500,
        vertices: 9_450,
        faces: 18_484,
        vf_culling: [58.88, 56.46, 63.17],
        vf_time_s: [1.67493, 1.77548, 1.74956],
        ee_culling: [48.01, 47.81, 53.18],
        ee_time_s: [2.53552, 2.65259, 2.57857],
    },
];

/// The paper's table for `scene`, if it has one.
pub fn table(scene: &str) -> Option<&'static PaperTable> {
    TABLES.iter().find(|t| t.scene == scene)
}

/// The paper's machine.
pub const MACHINE: &str = "Intel i7-8565U, C++, one thread";

/// Fig. 6 is a bar chart without printed values; its text (§3.1) states the
/// outcome per data set, which is what the report checks.
pub const FIG6_CLAIMS: [(&str, &str); 2] = [
    (
        "funnel",
        "k = 26 has the highest culling for both VF and EE pairs and the shortest time",
    ),
    (
        "cloth_ball",
        "k = 26 has the highest culling for both VF and EE pairs; its time is slightly longer than for k = 14 and 18",
    ),
];
