//! Frame sequences: a directory of numbered OBJ/PLY frames of one topology,
//! or a named scene of the data sets, or frames held in memory (generated
//! scenes).
//!
//! Frames are ordered by the number at the end of their file stem, naturally
//! (`cloth_ball9.ply` before `cloth_ball10.ply`); a gap in the numbering is
//! reported ([`FrameSequence::gaps`]) but not an error. Files are read one at
//! a time, when a step needs them, and each is checked against the first
//! frame's topology.

use std::path::{Path, PathBuf};

use super::generate::{GenerateError, SceneParams, generate};
use crate::math::Vec3;
use crate::mesh::{MeshError, TriMesh, check_finite, check_same_topology, read_frame};

/// Why a sequence could not be opened or a frame read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SequenceError {
    /// The path is neither a folder of frames nor a known scene name.
    #[error("{0}: not a folder of frames, nor a scene name (cloth_ball, funnel, generated)")]
    Unknown(String),
    /// A folder without any `.ply` / `.obj` frame.
    #[error("{}: no frames (.ply or .obj files) in this folder", .0.display())]
    NoFrames(PathBuf),
    /// Fewer than two frames: nothing to step through.
    #[error("{}: a sequence needs at least two frames, found {}", .0.display(), .1)]
    TooFewFrames(PathBuf, usize),
    /// An entry named like a frame that is no regular file: a dangling or
    /// looping symbolic link, a FIFO, a device, a folder. Refused rather
    /// than skipped, so that a replay never leaves a frame out silently.
    #[error("{}: a frame must be a regular file; this is {}", .0.display(), .1)]
    NotAFrameFile(PathBuf, String),
    /// A frame file whose stem does not end in a number that fits 64 bits.
    #[error("{}: the frame's name does not end in a number from 0 to 2^64 - 1 (e.g. frame_0012.ply)", .0.display())]
    Unnumbered(PathBuf),
    /// Two frame files with the same number.
    #[error("{} and {}: two frames numbered {}", .0.display(), .1.display(), .2)]
    DuplicateNumber(PathBuf, PathBuf, u64),
    /// A frame file could not be read, or has another topology.
    #[error(transparent)]
    Mesh(#[from] MeshError),
    /// A named data-set scene whose data cannot be found.
    #[error("scene {0}: {1}")]
    MissingData(String, super::data::MissingData),
    /// The folder could not be listed.
    #[error("{}: {}", .0.display(), .1)]
    Io(PathBuf, std::io::Error),
    /// A `generated…` spec with bad parameters.
    #[error(transparent)]
    Generate(#[from] GenerateError),
}

/// Where the frames come from.
#[derive(Debug, Clone)]
enum Frames {
    Files(Vec<(u64, PathBuf)>),
    Memory(Vec<Vec<Vec3>>),
}

/// A sequence of frames with one fixed topology.
#[derive(Debug, Clone)]
pub struct FrameSequence {
    name: String,
    mesh: TriMesh,
    /// The first frame's edges as stored, which every frame must repeat.
    stored_edges: Vec<[u32; 2]>,
    frames: Frames,
}

impl FrameSequence {
    /// Opens `spec`: a folder of numbered frames, a data-set scene name
    /// (`cloth_ball`/`cloth-ball`, `funnel`/`cloth-funnel`) found under the
    /// data root, or the generated scene (`generated` with the default
    /// parameters, `generated:RES` for a cloth of `RES × RES` vertices,
    /// `generated:RES:FRAMES`, `generated:RES:FRAMES:GAP` with the cloth
    /// resting `GAP` m above the sphere; see [`SceneParams`]). A folder
    /// wins over a scene name; a folder's name need not be UTF-8.
    pub fn open(spec: impl AsRef<std::ffi::OsStr>) -> Result<FrameSequence, SequenceError> {
        let path = Path::new(spec.as_ref());
        if path.is_dir() {
            return FrameSequence::from_dir(path);
        }
        let Some(spec) = spec.as_ref().to_str() else {
            return Err(SequenceError::Unknown(path.display().to_string()));
        };
        if let Some(params) = SceneParams::from_spec(spec) {
            return Ok(generate(&params?)?);
        }
        let scene = match spec {
            "cloth_ball" | "cloth-ball" => "cloth-ball",
            "funnel" | "cloth-funnel" | "cloth_funnel" => "cloth-funnel",
            _ => return Err(SequenceError::Unknown(spec.to_string())),
        };
        let root = super::data::require_root()
            .map_err(|e| SequenceError::MissingData(scene.to_string(), e))?;
        let dir = root.join("scalable-ccd").join(scene).join("frames");
        let mut seq = FrameSequence::from_dir(&dir)?;
        seq.name = scene.to_string();
        Ok(seq)
    }

    /// Frames held in memory (e.g. a generated scene); every frame must have
    /// `mesh.num_vertices()` finite positions.
    pub fn from_memory(
        name: impl Into<String>,
        mesh: TriMesh,
        frames: Vec<Vec<Vec3>>,
    ) -> Result<FrameSequence, SequenceError> {
        for x in &frames {
            if x.len() != mesh.num_vertices() {
                return Err(MeshError::VertexCountMismatch {
                    expected: mesh.num_vertices(),
                    found: x.len(),
                }
                .into());
            }
            check_finite(x)?;
        }
        let name = name.into();
        if frames.len() < 2 {
            return Err(SequenceError::TooFewFrames(
                PathBuf::from(&name),
                frames.len(),
            ));
        }
        Ok(FrameSequence {
            name,
            stored_edges: mesh.codim_edges().to_vec(),
            mesh,
            frames: Frames::Memory(frames),
        })
    }

    /// A folder of numbered `.ply` / `.obj` frames.
    pub fn from_dir(dir: &Path) -> Result<FrameSequence, SequenceError> {
        let entries =
            std::fs::read_dir(dir).map_err(|e| SequenceError::Io(dir.to_path_buf(), e))?;
        let mut files = Vec::new();
        for entry in entries {
            let path = entry
                .map_err(|e| SequenceError::Io(dir.to_path_buf(), e))?
                .path();
            let ext = path
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase);
            if !matches!(ext.as_deref(), Some("ply" | "obj")) {
                continue;
            }
            match std::fs::metadata(&path) {
                Ok(m) if m.is_file() => {}
                Ok(m) => {
                    let kind = crate::io::file_kind(m.file_type()).to_string();
                    return Err(SequenceError::NotAFrameFile(path, kind));
                }
                Err(e) => {
                    let why = format!("a link to nothing readable ({e})");
                    return Err(SequenceError::NotAFrameFile(path, why));
                }
            }
            let number =
                frame_number(&path).ok_or_else(|| SequenceError::Unnumbered(path.clone()))?;
            files.push((number, path));
        }
        if files.is_empty() {
            return Err(SequenceError::NoFrames(dir.to_path_buf()));
        }
        files.sort();
        for w in files.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(SequenceError::DuplicateNumber(
                    w[0].1.clone(),
                    w[1].1.clone(),
                    w[0].0,
                ));
            }
        }
        if files.len() < 2 {
            return Err(SequenceError::TooFewFrames(dir.to_path_buf(), files.len()));
        }
        let first = read_frame(&files[0].1)?;
        let mesh = TriMesh::with_edges(first.positions.len(), first.faces, &first.edges)
            .map_err(|e| e.in_file(&files[0].1))?;
        Ok(FrameSequence {
            name: dir
                .file_name()
                .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into()),
            mesh,
            stored_edges: first.edges,
            frames: Frames::Files(files),
        })
    }

    /// A short name for reports.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The fixed topology.
    pub fn mesh(&self) -> &TriMesh {
        &self.mesh
    }

    /// Number of frames (steps are one fewer).
    pub fn num_frames(&self) -> usize {
        match &self.frames {
            Frames::Files(f) => f.len(),
            Frames::Memory(m) => m.len(),
        }
    }

    /// A label for frame `i`: its file name, or `#i`.
    pub fn frame_label(&self, i: usize) -> String {
        match &self.frames {
            Frames::Files(f) => f[i]
                .1
                .file_name()
                .map_or_else(|| format!("#{i}"), |n| n.to_string_lossy().into()),
            Frames::Memory(_) => format!("#{i}"),
        }
    }

    /// The file of frame `i`; `None` for frames held in memory.
    pub fn frame_path(&self, i: usize) -> Option<&Path> {
        match &self.frames {
            Frames::Files(f) => f.get(i).map(|(_, p)| p.as_path()),
            Frames::Memory(_) => None,
        }
    }

    /// Numbering gaps `(before, after)` between consecutive frame files.
    pub fn gaps(&self) -> Vec<(u64, u64)> {
        match &self.frames {
            Frames::Files(f) => f
                .windows(2)
                .filter(|w| w[1].0 > w[0].0 + 1)
                .map(|w| (w[0].0, w[1].0))
                .collect(),
            Frames::Memory(_) => Vec::new(),
        }
    }

    /// The file names on both sides of each numbering gap (as
    /// [`gaps`](Self::gaps)).
    pub fn gap_labels(&self) -> Vec<(String, String)> {
        match &self.frames {
            Frames::Files(f) => (1..f.len())
                .filter(|&i| f[i].0 > f[i - 1].0 + 1)
                .map(|i| (self.frame_label(i - 1), self.frame_label(i)))
                .collect(),
            Frames::Memory(_) => Vec::new(),
        }
    }

    /// The positions of frame `i`, checked against the topology.
    pub fn frame(&self, i: usize) -> Result<Vec<Vec3>, SequenceError> {
        match &self.frames {
            Frames::Memory(m) => Ok(m[i].clone()),
            Frames::Files(f) => {
                let path = &f[i].1;
                let data = read_frame(path)?;
                let (n, faces) = (self.mesh.num_vertices(), self.mesh.faces());
                check_same_topology(n, faces, &self.stored_edges, &data)
                    .map_err(|e| e.in_file(path))?;
                Ok(data.positions)
            }
        }
    }
}

/// The number at the end of a file stem (`cloth_ball92` → 92,
/// `frame_0012` → 12).
pub fn frame_number(path: &Path) -> Option<u64> {
    let stem = path.file_stem()?.to_str()?;
    let digits: String = stem
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::write_ply;
    use crate::test_util::Scratch;

    fn tri(z: f64) -> Vec<Vec3> {
        vec![
            Vec3::new(0.0, 0.0, z),
            Vec3::new(1.0, 0.0, z),
            Vec3::new(0.0, 1.0, z),
        ]
    }

    #[test]
    fn frames_sort_naturally_and_gaps_are_reported() {
        let d = Scratch::new("seq-order");
        for n in [10, 9, 12, 1] {
            write_ply(
                &d.join(format!("cloth_ball{n}.ply")),
                &tri(n as f64),
                &[[0, 1, 2]],
            )
            .unwrap();
        }
        std::fs::write(d.join("notes.txt"), "ignored").unwrap();
        let seq = FrameSequence::from_dir(&d).unwrap();
        let labels: Vec<_> = (0..seq.num_frames()).map(|i| seq.frame_label(i)).collect();
        assert_eq!(
            labels,
            [
                "cloth_ball1.ply",
                "cloth_ball9.ply",
                "cloth_ball10.ply",
                "cloth_ball12.ply"
            ]
        );
        assert_eq!(seq.gaps(), vec![(1, 9), (10, 12)]);
        assert_eq!(
            seq.gap_labels(),
            vec![
                ("cloth_ball1.ply".to_string(), "cloth_ball9.ply".to_string()),
                (
                    "cloth_ball10.ply".to_string(),
                    "cloth_ball12.ply".to_string()
                )
            ]
        );
        assert_eq!(seq.frame(2).unwrap()[0].z, 10.0);
        assert_eq!(seq.frame_path(1), Some(d.join("cloth_ball9.ply").as_path()));
    }

    #[test]
    fn bad_folders_name_the_file() {
        let d = Scratch::new("seq-bad");
        assert!(matches!(
            FrameSequence::from_dir(&d),
            Err(SequenceError::NoFrames(_))
        ));
        write_ply(&d.join("a1.ply"), &tri(0.0), &[[0, 1, 2]]).unwrap();
        assert!(matches!(
            FrameSequence::from_dir(&d),
            Err(SequenceError::TooFewFrames(_, 1))
        ));
        // Another topology in frame 2.
        let mut four = tri(1.0);
        four.push(Vec3::new(1.0, 1.0, 1.0));
        write_ply(&d.join("a2.ply"), &four, &[[0, 1, 2], [1, 3, 2]]).unwrap();
        let seq = FrameSequence::from_dir(&d).unwrap();
        let err = seq.frame(1).unwrap_err().to_string();
        assert!(err.contains("a2.ply"), "{err}");
        write_ply(&d.join("b.ply"), &tri(0.0), &[[0, 1, 2]]).unwrap();
        let err = FrameSequence::from_dir(&d).unwrap_err().to_string();
        assert!(err.contains("b.ply"), "{err}");
        assert!(matches!(
            FrameSequence::open("no-such-scene"),
            Err(SequenceError::Unknown(_))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn entries_named_like_frames_that_are_no_regular_files_are_refused() {
        use crate::test_util::mkfifo;
        use std::os::unix::fs::symlink;
        type Case = (&'static str, fn(&Path), &'static str);
        let cases: [Case; 5] = [
            ("dangling", |p| symlink("nothing.ply", p).unwrap(), "link"),
            (
                "self-link",
                |p| symlink(p.file_name().unwrap(), p).unwrap(),
                "link",
            ),
            ("fifo", mkfifo, "FIFO"),
            (
                "dev-zero",
                |p| symlink("/dev/zero", p).unwrap(),
                "character device",
            ),
            ("folder", |p| std::fs::create_dir(p).unwrap(), "folder"),
        ];
        for (tag, make, says) in cases {
            let d = Scratch::new(&format!("seq-irregular-{tag}"));
            for n in [1, 2, 3] {
                write_ply(&d.join(format!("f{n}.ply")), &tri(n as f64), &[[0, 1, 2]]).unwrap();
            }
            let bad = d.join("f4.ply");
            make(&bad);
            let e = FrameSequence::from_dir(&d).unwrap_err();
            assert!(matches!(e, SequenceError::NotAFrameFile(..)), "{tag}: {e}");
            let message = e.to_string();
            assert!(
                message.contains("f4.ply") && message.contains(says),
                "{tag}: {message}"
            );
        }
    }

    #[test]
    fn generated_specs_open_or_name_the_bad_parameter() {
        let seq = FrameSequence::open("generated:6:3").unwrap();
        assert_eq!(seq.num_frames(), 3);
        assert_eq!(seq.name(), "generated-6x6-3f");
        assert_eq!(seq.mesh().num_components(), 2);
        assert!(seq.gaps().is_empty());
        for (spec, e) in [
            ("generated:1", GenerateError::Resolution(1)),
            ("generated:6:0", GenerateError::Frames(0)),
            ("generated:6:x", GenerateError::Spec("generated:6:x".into())),
        ] {
            match FrameSequence::open(spec) {
                Err(SequenceError::Generate(g)) => assert_eq!(g, e, "{spec}"),
                other => panic!("{spec}: {other:?}"),
            }
        }
    }

    #[test]
    fn frame_numbers() {
        assert_eq!(frame_number(Path::new("x/cloth_ball92.ply")), Some(92));
        assert_eq!(frame_number(Path::new("frame_0012.obj")), Some(12));
        assert_eq!(frame_number(Path::new("228.ply")), Some(228));
        assert_eq!(frame_number(Path::new("mesh.ply")), None);
        assert_eq!(frame_number(Path::new("f_99999999999999999999.ply")), None);
        assert_eq!(
            frame_number(Path::new("f_0000000000000000000000007.ply")),
            Some(7)
        );
    }
}
