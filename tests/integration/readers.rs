//! The readers against the real data sets (counts from `datasets/README.md`),
//! the libigl edge-order cross-check on cloth-funnel, and one test per kind of
//! bad input: each error names the file (and the line where there is one),
//! and nothing panics.

use std::path::{Path, PathBuf};

use ccdlab::harness::data::require_root;
use ccdlab::harness::ground_truth::{
    DataError, QueryKind, QueryOrigin, attach_truth, discover_query_sets, load, queries_from_boxes,
    read_boxes, read_mma_bool, read_query_csv,
};
use ccdlab::math::Vec3;
use ccdlab::mesh::{MeshError, read_frame, read_mesh, read_step};

use crate::common::Scratch;

fn root() -> PathBuf {
    require_root().expect("the data sets are needed for this test")
}

fn funnel() -> PathBuf {
    root().join("scalable-ccd").join("cloth-funnel")
}

fn ball() -> PathBuf {
    root().join("scalable-ccd").join("cloth-ball")
}

fn bits(q: &[Vec3; 8]) -> [[u64; 3]; 8] {
    q.map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()])
}

// ---------------------------------------------------------------- real data

#[test]
fn every_query_set_under_the_data_root_loads_with_its_truth() {
    let sources = discover_query_sets(&root()).expect("discovery");
    let mut csv_queries = 0;
    // Sample-Queries totals per kind: (queries, colliding).
    let mut handcrafted = std::collections::BTreeMap::<QueryKind, (usize, usize)>::new();
    let mut seen = Vec::new();
    for source in &sources {
        let set = load(source).unwrap_or_else(|e| panic!("{e}"));
        let truth = set
            .truth
            .as_ref()
            .unwrap_or_else(|| panic!("{}: no truth", set.path.display()));
        assert_eq!(truth.len(), set.len(), "{}", set.path.display());
        let rel = set
            .path
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let expected = match rel.as_str() {
            "ccd-queries/erleben-spike-hole/edge-edge/data_0_0.csv" => 1870,
            "ccd-queries/erleben-spike-hole/vertex-face/data_0_0.csv" => 585,
            "ccd-queries/unit-tests/edge-edge/data_0_0.csv" => 54,
            "ccd-queries/unit-tests/edge-edge/data_0_1.csv" => 20,
            r if r.starts_with("ccd-queries/") => 125,
            "scalable-ccd/cloth-funnel/queries/227vf.csv" => 92,
            "scalable-ccd/cloth-funnel/queries/227ee.csv" => 263,
            "scalable-ccd/cloth-ball/boxes/92vf.json" => 19_034,
            "scalable-ccd/cloth-ball/boxes/92ee.json" => 94_825,
            other => panic!("unexpected query set {other}"),
        };
        assert_eq!(set.len(), expected, "{rel}");
        let kind =
            if rel.contains("vertex-face") || rel.ends_with("vf.csv") || rel.ends_with("vf.json") {
                QueryKind::VertexFace
            } else {
                QueryKind::EdgeEdge
            };
        assert_eq!(set.kind, kind, "{rel}");
        if rel.starts_with("ccd-queries/") {
            csv_queries += set.len();
            let t = handcrafted.entry(kind).or_default();
            t.0 += set.len();
            t.1 += truth.iter().filter(|&&b| b).count();
        }
        seen.push(rel);
    }
    // 42 Sample-Queries CSVs, 2 cloth-funnel CSVs, 2 cloth-ball boxes.
    assert_eq!(seen.len(), 46, "{seen:#?}");
    assert_eq!(csv_queries, 38 * 125 + 1870 + 585 + 54 + 20);
    // Regression (counted from the files): handcrafted scenes of this sample.
    assert_eq!(handcrafted[&QueryKind::VertexFace], (3085, 248));
    assert_eq!(handcrafted[&QueryKind::EdgeEdge], (4194, 187));
    // Deterministic order: sorted by path.
    let mut sorted = seen.clone();
    sorted.sort();
    assert_eq!(seen, sorted);
}

#[test]
fn cloth_funnel_query_csvs_carry_the_published_truth() {
    for (kind, n, colliding) in [
        (QueryKind::VertexFace, 92, 27),
        (QueryKind::EdgeEdge, 263, 107),
    ] {
        let csv = funnel()
            .join("queries")
            .join(format!("227{}.csv", kind.suffix()));
        let set = read_query_csv(&csv, kind).unwrap();
        assert_eq!(set.truth, None, "6 columns: no truth in the CSV");
        let mma = funnel()
            .join("mma_bool")
            .join(format!("227{}_mma_bool.json", kind.suffix()));
        let set = attach_truth(set, &mma).unwrap();
        let truth = set.truth.unwrap();
        assert_eq!(truth.len(), n);
        assert_eq!(truth.iter().filter(|&&t| t).count(), colliding);
    }
}

/// The first vertex of a binary PLY, decoded by hand (the oracle): `size`
/// bytes per coordinate right after `end_header\n`.
fn first_vertex(path: &Path, decode: fn(&[u8]) -> f64, size: usize) -> Vec3 {
    let bytes = std::fs::read(path).unwrap();
    let start = bytes
        .windows(11)
        .position(|w| w == b"end_header\n")
        .unwrap()
        + 11;
    let c = |k: usize| decode(&bytes[start + k * size..start + (k + 1) * size]);
    Vec3::new(c(0), c(1), c(2))
}

#[test]
fn cloth_ball_frames_big_endian_float32() {
    let frames = ball().join("frames");
    let (t0, t1) = (
        frames.join("cloth_ball92.ply"),
        frames.join("cloth_ball93.ply"),
    );
    let (mesh, x0, x1) = read_step(&t0, &t1).unwrap();
    assert_eq!(mesh.num_vertices(), 46_598);
    assert_eq!(mesh.num_faces(), 92_230);
    assert_eq!(mesh.num_edges(), 138_825);
    assert_eq!((x0.len(), x1.len()), (46_598, 46_598));
    let be_f32 = |b: &[u8]| f64::from(f32::from_be_bytes(b.try_into().unwrap()));
    assert_eq!(x0[0], first_vertex(&t0, be_f32, 4));
    assert_eq!(x1[0], first_vertex(&t1, be_f32, 4));
    // float32 data, widened exactly: every coordinate is an f32.
    for p in x0.iter().chain(&x1) {
        for c in [p.x, p.y, p.z] {
            assert_eq!(f64::from(c as f32), c);
        }
    }
    assert!(x0 != x1, "the frames differ");
}

#[test]
fn cloth_funnel_frames_little_endian_double() {
    let frames = funnel().join("frames");
    let (t0, t1) = (frames.join("227.ply"), frames.join("228.ply"));
    let (mesh, x0, x1) = read_step(&t0, &t1).unwrap();
    assert_eq!(mesh.num_vertices(), 9_450);
    assert_eq!(mesh.num_faces(), 18_484);
    assert_eq!(x1.len(), 9_450);
    let le_f64 = |b: &[u8]| f64::from_le_bytes(b.try_into().unwrap());
    assert_eq!(x0[0], first_vertex(&t0, le_f64, 8));
    assert_eq!(x1[0], first_vertex(&t1, le_f64, 8));
}

/// THE EDGE-ORDER CHECK. The boxes name edges by global ID `#V + j`, with `j`
/// in libigl `edges(F)` order; the query CSVs hold the coordinates of the
/// same pairs. Rebuilding the queries from the boxes with [`TriMesh`]'s
/// numbering must reproduce the CSVs bit for bit.
#[test]
fn cloth_funnel_boxes_reproduce_the_query_csvs_bit_for_bit() {
    let frames = funnel().join("frames");
    let (mesh, x0, x1) = read_step(&frames.join("227.ply"), &frames.join("228.ply")).unwrap();
    for kind in [QueryKind::VertexFace, QueryKind::EdgeEdge] {
        let s = kind.suffix();
        let pairs = read_boxes(&funnel().join("boxes").join(format!("227{s}.json"))).unwrap();
        let rebuilt = queries_from_boxes(&mesh, &x0, &x1, &pairs, kind).unwrap();
        let csv =
            read_query_csv(&funnel().join("queries").join(format!("227{s}.csv")), kind).unwrap();
        assert_eq!(rebuilt.len(), csv.len(), "{kind}");
        for (i, (a, b)) in rebuilt.iter().zip(&csv.points).enumerate() {
            assert_eq!(bits(a), bits(b), "{kind} query {i}, pair {:?}", pairs[i]);
        }
    }
}

#[test]
fn cloth_ball_boxes_and_truth_have_the_published_counts() {
    for (kind, listed, colliding) in [
        (QueryKind::VertexFace, 19_034, 19_032),
        (QueryKind::EdgeEdge, 94_825, 94_822),
    ] {
        let s = kind.suffix();
        let pairs = read_boxes(&ball().join("boxes").join(format!("92{s}.json"))).unwrap();
        assert_eq!(pairs.len(), listed);
        let truth =
            read_mma_bool(&ball().join("mma_bool").join(format!("92{s}_mma_bool.json"))).unwrap();
        assert_eq!(truth.len(), listed);
        assert_eq!(truth.iter().filter(|&&t| t).count(), colliding);
    }
}

#[test]
fn discovery_of_a_scene_a_folder_and_a_file() {
    // A Scalable-CCD scene without query CSVs: its boxes, with the frames.
    let sources = discover_query_sets(&ball()).unwrap();
    assert_eq!(sources.len(), 2);
    for s in &sources {
        let QueryOrigin::Boxes {
            frame_t0, frame_t1, ..
        } = &s.origin
        else {
            panic!("{s:?}");
        };
        assert!(frame_t0.ends_with("cloth_ball92.ply"));
        assert!(frame_t1.ends_with("cloth_ball93.ply"));
        assert!(s.truth.is_some());
    }
    // cloth-funnel has CSVs for its step: they win over the boxes.
    let sources = discover_query_sets(&funnel()).unwrap();
    assert_eq!(sources.len(), 2);
    assert!(
        sources
            .iter()
            .all(|s| matches!(s.origin, QueryOrigin::Csv(_)) && s.truth.is_some())
    );
    // A Sample-Queries scene, one of its kind folders, one file.
    let scene = root().join("ccd-queries").join("unit-tests");
    assert_eq!(discover_query_sets(&scene).unwrap().len(), 4);
    let vf = scene.join("vertex-face");
    let found = discover_query_sets(&vf).unwrap();
    assert_eq!(found.len(), 2);
    assert!(found.iter().all(|s| s.kind == QueryKind::VertexFace));
    let one = discover_query_sets(&vf.join("data_0_1.csv")).unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].truth, None);
    // A single Scalable-CCD CSV finds its mma_bool truth.
    let one = discover_query_sets(&funnel().join("queries").join("227ee.csv")).unwrap();
    assert_eq!(one[0].kind, QueryKind::EdgeEdge);
    assert!(
        one[0]
            .truth
            .as_ref()
            .unwrap()
            .ends_with("227ee_mma_bool.json")
    );
}

// ---------------------------------------------------------------- bad input

/// One valid VF query (eight rows), with the truth column when `truth` is
/// given.
fn query_rows(truth: Option<u8>) -> String {
    (0..8)
        .map(|i| match truth {
            Some(t) => format!("{i},1,0,1,1,2,{t}\n"),
            None => format!("{i},1,0,1,1,2\n"),
        })
        .collect()
}

/// Reads `content` as a VF query CSV named `name`; returns the error text,
/// which must name the file.
fn csv_error(dir: &Scratch, name: &str, content: &str) -> (DataError, String) {
    let path = dir.file(name, content);
    let e = read_query_csv(&path, QueryKind::VertexFace).expect_err(name);
    let text = e.to_string();
    assert!(text.contains(name), "no file name in `{text}`");
    (e, text)
}

fn assert_line(e: &DataError, line: usize, column: Option<usize>) {
    match e {
        DataError::Csv {
            line: l, column: c, ..
        } => assert_eq!((*l, *c), (line, column), "{e}"),
        _ => panic!("not a CSV error: {e}"),
    }
}

#[test]
fn csv_value_errors_name_line_and_field() {
    let dir = Scratch::new("readers-csv-values");
    let good = query_rows(Some(1));
    let with_row3 = |row: &str| {
        let mut lines: Vec<&str> = good.lines().collect();
        lines[2] = row;
        lines.join("\n") + "\n"
    };
    // Non-numeric numerator, then denominator.
    let (e, text) = csv_error(&dir, "alpha.csv", &with_row3("2,1,0,1,one,2,1"));
    assert_line(&e, 3, Some(5));
    assert!(text.contains("alpha.csv:3: field 5"), "{text}");
    let (e, _) = csv_error(&dir, "alpha2.csv", &with_row3("2,1,0,1.5,1,2,1"));
    assert_line(&e, 3, Some(4));
    // Bare carriage returns as line ends, from the second line on.
    let (first, rest) = good.split_once('\n').unwrap();
    let bare = format!("{first}\n{}", rest.replace('\n', "\r"));
    let (e, text) = csv_error(&dir, "mac.csv", &bare);
    assert_line(&e, 2, None);
    assert!(text.contains("carriage return"), "{text}");
    // Zero denominator.
    let (e, text) = csv_error(&dir, "zero.csv", &with_row3("2,1,0,0,1,2,1"));
    assert_line(&e, 3, Some(4));
    assert!(text.contains("zero denominator"), "{text}");
    // Not a binary fraction.
    let (e, text) = csv_error(&dir, "third.csv", &with_row3("2,3,0,1,1,2,1"));
    assert_line(&e, 3, Some(1));
    assert!(text.contains("not a power of two"), "{text}");
    // Too many significant bits for a double (2^53 + 1).
    let (e, text) = csv_error(&dir, "bits.csv", &with_row3("9007199254740993,1,0,1,1,2,1"));
    assert_line(&e, 3, Some(1));
    assert!(text.contains("54 significant bits"), "{text}");
    // Beyond the exponent range, above and below.
    let huge = format!("1{},1,0,1,1,2,1", "0".repeat(400));
    let (e, _) = csv_error(&dir, "huge.csv", &with_row3(&huge));
    assert_line(&e, 3, Some(1));
    let tiny = format!(
        "1,{},0,1,1,2,1",
        num_bigint::BigUint::from(2u8).pow(1075u32)
    );
    let (e, text) = csv_error(&dir, "tiny.csv", &with_row3(&tiny));
    assert_line(&e, 3, Some(1));
    assert!(text.contains("2^-1074"), "{text}");
}

#[test]
fn csv_shape_errors() {
    let dir = Scratch::new("readers-csv-shape");
    // Wrong column count.
    let (e, _) = csv_error(&dir, "five.csv", "1,1,0,1,1\n");
    assert_line(&e, 1, None);
    // Column count changing within the file.
    let mixed = format!("{}{}", query_rows(Some(0)), query_rows(None));
    let (e, text) = csv_error(&dir, "mixed.csv", &mixed);
    assert_line(&e, 9, None);
    assert!(text.contains("rows before have 7"), "{text}");
    // Truth other than 0/1.
    let (e, _) = csv_error(&dir, "truth2.csv", &query_rows(Some(2)));
    assert_line(&e, 1, Some(7));
    // Truth differing within one query.
    let mut rows = query_rows(Some(1));
    rows = rows.replacen("5,1,0,1,1,2,1", "5,1,0,1,1,2,0", 1);
    let (e, text) = csv_error(&dir, "differs.csv", &rows);
    assert_line(&e, 6, Some(7));
    assert!(text.contains("line 1"), "{text}");
    // Rows not a multiple of 8: the incomplete query starts at line 9.
    let four: String = query_rows(None)
        .lines()
        .take(4)
        .map(|l| format!("{l}\n"))
        .collect();
    let twelve = format!("{}{four}", query_rows(None));
    let (e, text) = csv_error(&dir, "partial.csv", &twelve);
    assert!(
        matches!(
            e,
            DataError::IncompleteQuery {
                rows: 12,
                line: 9,
                ..
            }
        ),
        "{text}"
    );
    assert!(text.contains("line 9"), "{text}");
    // Empty (or blank) file.
    let (e, _) = csv_error(&dir, "empty.csv", "\n  \n");
    assert!(matches!(e, DataError::Empty { .. }), "{e}");
    // Missing file.
    let e = read_query_csv(&dir.join("absent.csv"), QueryKind::EdgeEdge).unwrap_err();
    assert!(matches!(e, DataError::Io { .. }) && e.to_string().contains("absent.csv"));
}

#[test]
fn json_errors_carry_file_line_and_column() {
    let dir = Scratch::new("readers-json");
    let p = dir.file("t_mma_bool.json", "[true,\nfalse,\n1]");
    let e = read_mma_bool(&p).unwrap_err();
    let text = e.to_string();
    assert!(matches!(e, DataError::Json { .. }), "{text}");
    assert!(
        text.contains("t_mma_bool.json") && text.contains("line 3"),
        "{text}"
    );
    // A pair of another length says so, with where it is.
    for (content, found) in [
        ("[[1,2],\n[3,4,5]]", 3),
        ("[[1,2],\n[3]]", 1),
        ("[[],\n[3]]", 0),
    ] {
        let p = dir.file("b.json", content);
        let text = read_boxes(&p).unwrap_err().to_string();
        assert!(
            text.contains("b.json")
                && text.contains(&format!(
                    "invalid length {found}, expected a pair of two feature IDs"
                ))
                && text.contains(if found == 0 { "line 1" } else { "line 2" }),
            "{text}"
        );
    }
    let p = dir.file("neg.json", "[[1,-2]]");
    assert!(read_boxes(&p).is_err());
    let p = dir.file("ok.json", "[[1,2],[3,4]]");
    assert_eq!(read_boxes(&p).unwrap(), [[1, 2], [3, 4]]);
}

#[test]
fn truth_must_match_the_query_count_and_the_file_truth() {
    let dir = Scratch::new("readers-truth");
    let csv = dir.file("q.csv", format!("{}{}", query_rows(None), query_rows(None)));
    let three = dir.file("three.json", "[true, false, true]");
    let set = read_query_csv(&csv, QueryKind::VertexFace).unwrap();
    let text = attach_truth(set.clone(), &three).unwrap_err().to_string();
    for needle in ["q.csv", "three.json", "3 truth values", "2 queries"] {
        assert!(text.contains(needle), "{needle} not in `{text}`");
    }
    let two = dir.file("two.json", "[true, false]");
    assert_eq!(
        attach_truth(set, &two).unwrap().truth,
        Some(vec![true, false])
    );
    // A 7-column CSV whose truth disagrees with the truth file.
    let csv7 = dir.file(
        "q7.csv",
        format!("{}{}", query_rows(Some(1)), query_rows(Some(1))),
    );
    let set = read_query_csv(&csv7, QueryKind::VertexFace).unwrap();
    let e = attach_truth(set, &two).unwrap_err();
    assert!(
        matches!(e, DataError::TruthConflict { query: 1, .. }),
        "{e}"
    );
}

#[test]
fn pairs_of_the_wrong_kind_or_out_of_range_name_the_pair() {
    let frames = funnel().join("frames");
    let (mesh, x0, x1) = read_step(&frames.join("227.ply"), &frames.join("228.ply")).unwrap();
    let (nv, ne, nf) = (
        mesh.num_vertices() as u64,
        mesh.num_edges() as u64,
        mesh.num_faces() as u64,
    );
    let face = nv + ne;
    let ok = [0, face];
    for (pairs, kind, bad) in [
        (vec![ok, [nv, face]], QueryKind::VertexFace, 1), // edge + face
        (vec![ok, ok, [0, 1]], QueryKind::VertexFace, 2), // two vertices
        (vec![[nv, nv + 1], ok], QueryKind::EdgeEdge, 1), // vertex + face
        (vec![ok, [0, face + nf]], QueryKind::VertexFace, 1), // out of range
    ] {
        let e = queries_from_boxes(&mesh, &x0, &x1, &pairs, kind).unwrap_err();
        assert!(
            matches!(e, DataError::Pair { pair, .. } if pair == bad),
            "{e}"
        );
        assert!(e.to_string().contains(&format!("pair {bad}")), "{e}");
    }
    // Either order for vertex–face.
    let a = queries_from_boxes(&mesh, &x0, &x1, &[[5, face + 7]], QueryKind::VertexFace).unwrap();
    let b = queries_from_boxes(&mesh, &x0, &x1, &[[face + 7, 5]], QueryKind::VertexFace).unwrap();
    assert_eq!(a, b);
}

#[test]
fn discovery_errors_name_the_path() {
    let dir = Scratch::new("readers-discover");
    std::fs::create_dir_all(dir.join("nothing/here")).unwrap();
    let e = discover_query_sets(&dir.join("nothing")).unwrap_err();
    assert!(e.to_string().contains("nothing"), "{e}");
    let odd = dir.file("odd.csv", query_rows(None));
    let e = discover_query_sets(&odd).unwrap_err();
    assert!(e.to_string().contains("odd.csv"), "{e}");
    let e = discover_query_sets(&dir.join("missing")).unwrap_err();
    assert!(matches!(e, DataError::Io { .. }), "{e}");
    // A boxes file without its frames.
    dir.file("scene/boxes/5vf.json", "[]");
    let e = discover_query_sets(&dir.join("scene")).unwrap_err();
    assert!(
        e.to_string().contains("5vf.json") && e.to_string().contains("frame 5"),
        "{e}"
    );
    // With frames it is found, and loads (an empty pair list is no error).
    let tri = "ply\nformat ascii 1.0\nelement vertex 3\nproperty double x\nproperty double y\n\
               property double z\nelement face 1\nproperty list uchar int vertex_indices\n\
               end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    dir.file("scene/frames/f5.ply", tri);
    dir.file("scene/frames/f6.ply", tri);
    let sources = discover_query_sets(&dir.join("scene")).unwrap();
    assert_eq!(sources.len(), 1);
    assert!(load(&sources[0]).unwrap().is_empty());
    // A truth file of the wrong length names both files.
    dir.file("scene/mma_bool/5vf_mma_bool.json", "[true]");
    let sources = discover_query_sets(&dir.join("scene")).unwrap();
    let text = load(&sources[0]).unwrap_err().to_string();
    assert!(
        text.contains("5vf.json") && text.contains("5vf_mma_bool.json"),
        "{text}"
    );
    // A folder where the truth file belongs is an error naming it, not a
    // set without truth.
    let truth = dir.join("scene/mma_bool/5vf_mma_bool.json");
    std::fs::remove_file(&truth).unwrap();
    std::fs::create_dir(&truth).unwrap();
    let sources = discover_query_sets(&dir.join("scene")).unwrap();
    let text = load(&sources[0]).unwrap_err().to_string();
    assert!(text.contains("5vf_mma_bool.json"), "{text}");
}

const TRI_HEADER: &str = "ply\nformat ascii 1.0\nelement vertex 3\nproperty double x\n\
                          property double y\nproperty double z\nelement face 1\n\
                          property list uchar int vertex_indices\nend_header\n";

fn mesh_error_text(e: &MeshError, name: &str) -> String {
    let text = e.to_string();
    assert!(text.contains(name), "no file name in `{text}`");
    text
}

#[test]
fn mesh_file_errors_name_file_and_line() {
    let dir = Scratch::new("readers-mesh");
    // Unknown extension.
    let p = dir.file("m.stl", "solid");
    let e = read_mesh(&p).unwrap_err();
    assert!(matches!(e, MeshError::UnsupportedFormat { .. }));
    mesh_error_text(&e, "m.stl");
    // Missing file.
    let e = read_mesh(&dir.join("none.ply")).unwrap_err();
    assert!(matches!(e, MeshError::Io { .. }));
    mesh_error_text(&e, "none.ply");
    // ASCII PLY: a non-numeric token, a quad, an index out of range.
    for (name, body, line) in [
        ("nan.ply", "0 0 0\n1 x 0\n0 1 0\n3 0 1 2\n", 11),
        ("quad.ply", "0 0 0\n1 0 0\n0 1 0\n4 0 1 2 0\n", 13),
        ("range.ply", "0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n", 13),
        ("short.ply", "0 0 0\n1 0 0\n", 11),
    ] {
        let p = dir.file(name, format!("{TRI_HEADER}{body}"));
        let text = mesh_error_text(&read_mesh(&p).unwrap_err(), name);
        assert!(text.contains(&format!("{name}:{line}:")), "{text}");
    }
    // A PLY version other than 1.0, on line 2.
    let p = dir.file("v2.ply", TRI_HEADER.replace("ascii 1.0", "ascii 2.0"));
    let text = mesh_error_text(&read_mesh(&p).unwrap_err(), "v2.ply");
    assert!(
        text.contains("v2.ply:2:") && text.contains("`2.0`"),
        "{text}"
    );
    // OBJ: a quad on line 5.
    let p = dir.file(
        "quad.OBJ",
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 4 3\n",
    );
    let e = read_mesh(&p).unwrap_err();
    let text = mesh_error_text(&e, "quad.OBJ");
    assert!(text.contains("quad.OBJ:5:"), "{text}");
    assert!(matches!(
        e.innermost(),
        MeshError::NotATriangle { corners: 4, .. }
    ));
}

#[test]
fn non_finite_coordinates_are_named_at_their_line_in_text_files() {
    let dir = Scratch::new("readers-non-finite");
    // The line of the first vertex with a non-finite coordinate, counted past
    // comments, blank lines and continuations (OBJ) and past the header and
    // blank lines (ASCII PLY); `read_mesh` reads them as they are.
    for (name, content, vertex, line) in [
        (
            "a.obj",
            "# c\nv 0 0 0\n\nv 1 0 \\\n nan\nv 0 -inf 1\nf 1 2 3\n".into(),
            1,
            4,
        ),
        (
            "b.obj",
            "v 0 0 0\nv 1 0 0\nv 0 1 inf\nf 1 2 3\n".into(),
            2,
            3,
        ),
        (
            "c.ply",
            format!("{TRI_HEADER}0 0 0\n\n1 0 0\n0 1 -inf\n3 0 1 2\n"),
            2,
            13,
        ),
        (
            "d.ply",
            format!("{TRI_HEADER}NaN 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"),
            0,
            10,
        ),
    ] {
        let content: String = content;
        let p = dir.file(name, content);
        assert!(read_mesh(&p).is_ok(), "{name}");
        let e = read_frame(&p).unwrap_err();
        assert!(
            matches!(e, MeshError::AtLine { line: l, .. } if l == line),
            "{name}: {e}"
        );
        assert!(
            matches!(e.innermost(), MeshError::NonFinite { vertex: v, .. } if *v == vertex),
            "{name}: {e}"
        );
    }
    // A binary file names the vertex alone.
    let mut bytes = TRI_HEADER
        .replace("ascii", "binary_little_endian")
        .into_bytes();
    for x in [0.0, 0.0, 0.0, 1.0, f64::NAN, 0.0, 0.0, 1.0, 0.0] {
        bytes.extend(f64::to_le_bytes(x));
    }
    bytes.push(3);
    for i in [0i32, 1, 2] {
        bytes.extend(i.to_le_bytes());
    }
    let p = dir.file("e.ply", bytes);
    let e = read_frame(&p).unwrap_err();
    assert!(matches!(e, MeshError::InFile { .. }), "{e}");
    assert!(
        matches!(e.innermost(), MeshError::NonFinite { vertex: 1, .. }),
        "{e}"
    );
}

#[test]
fn step_errors_name_the_file() {
    let dir = Scratch::new("readers-step");
    let a = dir.file(
        "a.ply",
        format!("{TRI_HEADER}0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"),
    );
    // Different vertex count (an OBJ frame against a PLY frame works otherwise).
    let b = dir.file("b.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n");
    let e = read_step(&a, &b).unwrap_err();
    assert!(matches!(
        e.innermost(),
        MeshError::VertexCountMismatch {
            expected: 3,
            found: 4
        }
    ));
    mesh_error_text(&e, "b.obj");
    let same = dir.file("same.obj", "v 0 0 0\nv 1 0 1\nv 0 1 0\nf 1 2 3\n");
    let (mesh, x0, x1) = read_step(&a, &same).unwrap();
    assert_eq!((mesh.num_faces(), x0.len()), (1, 3));
    assert_eq!(x1[1], Vec3::new(1.0, 0.0, 1.0));
    // Different faces.
    let c = dir.file("c.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 3 2\n");
    let e = read_step(&a, &c).unwrap_err();
    assert!(matches!(
        e.innermost(),
        MeshError::FaceMismatch { face: 0, .. }
    ));
    mesh_error_text(&e, "c.obj");
    // Both faces, as read (numbered from 0).
    assert!(
        e.to_string()
            .contains("face 0 has vertices [0, 2, 1] here and [0, 1, 2] in the first frame"),
        "{e}"
    );
    // A frame with faces left out (an OBJ cut at a line break) gives both counts.
    let cut = dir.file("cut.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 3 2\n");
    let e = read_step(&cut, &same).unwrap_err();
    assert!(matches!(
        e.innermost(),
        MeshError::FaceMismatch {
            face: 1,
            expected: 2,
            found: 1,
            first: Some([0, 2, 1]),
            here: None,
        }
    ));
    assert!(
        e.to_string()
            .contains("frame has 1 faces, the first frame 2 (the first 1 agree)"),
        "{e}"
    );
    // A non-finite coordinate.
    let d = dir.file("d.obj", "v 0 0 0\nv 1 inf 0\nv 0 1 0\nf 1 2 3\n");
    let e = read_step(&a, &d).unwrap_err();
    assert!(matches!(
        e.innermost(),
        MeshError::NonFinite { vertex: 1, .. }
    ));
    mesh_error_text(&e, "d.obj");
    // A non-finite coordinate in a text file is named at its line too.
    let e = read_step(&a, &d).unwrap_err();
    assert!(
        e.to_string()
            .starts_with(&format!("{}:2: vertex 1 ", d.display())),
        "{e}"
    );
    // A face repeating a vertex: TriMesh refuses it, naming the file.
    let rep = dir.file("rep.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 2\n");
    let e = read_step(&rep, &rep).unwrap_err();
    assert!(matches!(
        e.innermost(),
        MeshError::DegenerateFace { face: 0, .. }
    ));
    mesh_error_text(&e, "rep.obj");
    // No faces at all.
    let empty = dir.file("empty.obj", "v 0 0 0\n");
    let e = read_step(&empty, &empty).unwrap_err();
    assert!(matches!(e.innermost(), MeshError::NoFaces));
    mesh_error_text(&e, "empty.obj");
}

#[test]
fn data_files_round_trip_through_the_writers() {
    let dir = Scratch::new("readers-roundtrip");
    let frames = funnel().join("frames");
    let m = read_mesh(&frames.join("227.ply")).unwrap();
    for name in ["f.ply", "f.obj"] {
        let p = dir.join(name);
        if name.ends_with("ply") {
            ccdlab::mesh::write_ply(&p, &m.positions, &m.faces).unwrap();
        } else {
            ccdlab::mesh::write_obj(&p, &m.positions, &m.faces).unwrap();
        }
        let back = read_mesh(&p).unwrap();
        assert_eq!(back.faces, m.faces, "{name}");
        assert!(
            back.positions
                .iter()
                .zip(&m.positions)
                .all(|(a, b)| a.map(f64::to_bits) == b.map(f64::to_bits)),
            "{name}"
        );
    }
    // Only the two files: no temporaries left behind.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
}

/// A triangle and a rod (an OBJ polyline, a PLY edge element) across it,
/// the rod at height `z`.
fn rod_frames(dir: &Scratch, z: f64) -> [PathBuf; 2] {
    let obj = format!(
        "v -1 -1 0\nv 2 -1 0\nv -1 2 0\nv -2 0.5 {z}\nv 0.5 0.5 {z}\nv 3 0.5 {z}\nf 1 2 3\nl 4 5 6\n"
    );
    let ply = format!(
        "ply\nformat ascii 1.0\nelement vertex 6\nproperty double x\nproperty double y\n\
         property double z\nelement face 1\nproperty list uchar int vertex_indices\n\
         element edge 2\nproperty int vertex1\nproperty int vertex2\nend_header\n\
         -1 -1 0\n2 -1 0\n-1 2 0\n-2 0.5 {}\n0.5 0.5 {}\n3 0.5 {}\n3 0 1 2\n3 4\n4 5\n",
        -z, -z, -z
    );
    [
        dir.file(&format!("rod{z}.obj"), obj),
        dir.file(&format!("rod{z}.ply"), ply),
    ]
}

#[test]
fn frames_with_rods_read_their_edges_and_must_agree_on_them() {
    let dir = Scratch::new("rod-frames");
    let [obj, ply] = rod_frames(&dir, 1.0);
    for path in [&obj, &ply] {
        assert_eq!(read_mesh(path).unwrap().edges, vec![[3, 4], [4, 5]]);
    }
    // An OBJ frame and a PLY frame of the same mesh make a step.
    let (mesh, x0, x1) = read_step(&obj, &ply).unwrap();
    assert_eq!(mesh.codim_edges(), &[[3, 4], [4, 5]]);
    assert_eq!(mesh.num_edges(), 5);
    assert_eq!((x0[3].z, x1[3].z), (1.0, -1.0));
    // A second frame without the rod's second edge.
    let short = dir.file(
        "short.obj",
        "v -1 -1 0\nv 2 -1 0\nv -1 2 0\nv -2 0.5 1\nv 0.5 0.5 1\nv 3 0.5 1\nf 1 2 3\nl 4 5\n",
    );
    let e = read_step(&obj, &short).unwrap_err();
    assert!(
        matches!(
            e.innermost(),
            MeshError::EdgeMismatch {
                edge: 1,
                expected: 2,
                found: 1,
                here: None,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("short.obj"), "{e}");
    // Rods alone are a mesh; an edge from a vertex to itself is not.
    let rods = dir.file("rods.obj", "v 0 0 0\nv 1 0 0\nl 1 2\n");
    assert_eq!(read_step(&rods, &rods).unwrap().0.codim_edges(), &[[0, 1]]);
    let looped = dir.file("looped.obj", "v 0 0 0\nv 1 0 0\nl 1 2 2\n");
    let e = read_step(&looped, &looped).unwrap_err();
    assert!(
        matches!(
            e.innermost(),
            MeshError::DegenerateEdge { edge: 1, vertex: 1 }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("looped.obj"), "{e}");
}
