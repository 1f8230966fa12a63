//! The committed data sets are complete and unaltered: every file that
//! `datasets/manifest.toml` lists is there with its size and SHA-256, every
//! file there is listed (no stray or partial file), and each source keeps
//! its licence and upstream README.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One `[[file]]` entry of the manifest.
#[derive(Debug, Default)]
struct Entry {
    source: String,
    path: String,
    bytes: u64,
    sha256: String,
}

fn datasets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets")
}

/// The `[[file]]` entries of the manifest (a small TOML subset: `key =
/// "string"` and `key = integer` lines under `[[file]]` headers).
fn manifest() -> Vec<Entry> {
    let text = std::fs::read_to_string(datasets_dir().join("manifest.toml")).unwrap();
    let mut entries: Vec<Entry> = Vec::new();
    let mut in_file = false;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with("[[") {
            in_file = line == "[[file]]";
            if in_file {
                entries.push(Entry::default());
            }
            continue;
        }
        if !in_file || line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once(" = ")
            .unwrap_or_else(|| panic!("manifest.toml:{}: not `key = value`", n + 1));
        let e = entries.last_mut().unwrap();
        let string = || value.trim_matches('"').to_string();
        match key {
            "source" => e.source = string(),
            "path" => e.path = string(),
            "bytes" => e.bytes = value.parse().unwrap(),
            "sha256" => e.sha256 = string(),
            "origin_path" => {}
            other => panic!("manifest.toml:{}: unknown key {other}", n + 1),
        }
    }
    entries
}

/// Every file under `dir`, as paths relative to it.
pub(super) fn files_under(dir: &Path, prefix: &Path, out: &mut BTreeSet<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let rel = prefix.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            files_under(&path, &rel, out);
        } else {
            out.insert(rel);
        }
    }
}

/// The manifest's files under `root`, each checked for its size and
/// SHA-256 (named as under `shown`); their paths.
fn check_listed(root: &Path, shown: &str, entries: &[Entry]) -> BTreeSet<PathBuf> {
    let mut listed = BTreeSet::new();
    for e in entries {
        let rel = Path::new(&e.source).join(&e.path);
        let bytes = std::fs::read(root.join(&rel))
            .unwrap_or_else(|err| panic!("{shown}/{}: {err}", rel.display()));
        assert_eq!(
            bytes.len() as u64,
            e.bytes,
            "{shown}/{}: size",
            rel.display()
        );
        assert_eq!(
            hex(&sha256(&bytes)),
            e.sha256,
            "{shown}/{}: sha256",
            rel.display()
        );
        listed.insert(rel);
    }
    listed
}

#[test]
fn datasets_match_manifest() {
    let root = datasets_dir();
    let entries = manifest();
    assert!(entries.len() >= 60, "{} manifest entries", entries.len());
    let listed = check_listed(&root, "datasets", &entries);
    // Every file of the folder, a new source's too, but the folder's own
    // README and the manifest.
    let mut present = BTreeSet::new();
    files_under(&root, Path::new(""), &mut present);
    for own in ["README.md", "manifest.toml"] {
        assert!(present.remove(Path::new(own)), "datasets/{own}");
    }
    let unlisted: Vec<_> = present.difference(&listed).collect();
    assert!(
        unlisted.is_empty(),
        "files not in the manifest: {unlisted:?}"
    );
    // Each source the manifest names, a new one too, keeps its licence and
    // upstream README.
    let sources: BTreeSet<&str> = entries.iter().map(|e| e.source.as_str()).collect();
    assert!(
        sources.is_superset(&BTreeSet::from(["ccd-queries", "scalable-ccd"])),
        "{sources:?}"
    );
    for source in sources {
        for kept in ["LICENSE", "README.upstream.md"] {
            assert!(
                listed.contains(&Path::new(source).join(kept)),
                "{source}/{kept}"
            );
        }
    }
}

/// The data root the ground-truth tests read (`CCDLAB_DATA`, when set to
/// another copy) holds every file of the manifest unaltered: a copy with a
/// file missing, cut short or edited fails here, by name, and not only where
/// a test happens to read it. (A larger copy, the upstream sets whole, may
/// hold more files.)
#[test]
fn the_data_root_in_use_holds_the_listed_files_unaltered() {
    let root = ccdlab::harness::data::require_root().unwrap_or_else(|e| panic!("{e}"));
    let entries = manifest();
    let shown = root.display().to_string();
    assert_eq!(check_listed(&root, &shown, &entries).len(), entries.len());
}

#[test]
fn sha256_matches_the_standard_test_vectors() {
    // FIPS 180-2, appendix B.1 and B.2; and the empty message.
    assert_eq!(
        hex(&sha256(b"abc")),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        hex(&sha256(
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        )),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
    assert_eq!(
        hex(&sha256(b"")),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 (FIPS 180-4), so that the check needs no dependency.
fn sha256(message: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut padded = message.to_vec();
    padded.push(0x80);
    while padded.len() % 64 != 56 {
        padded.push(0);
    }
    padded.extend_from_slice(&((message.len() as u64) * 8).to_be_bytes());
    for block in padded.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut s = h;
        for i in 0..64 {
            let s1 = s[4].rotate_right(6) ^ s[4].rotate_right(11) ^ s[4].rotate_right(25);
            let ch = (s[4] & s[5]) ^ (!s[4] & s[6]);
            let t1 = s[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = s[0].rotate_right(2) ^ s[0].rotate_right(13) ^ s[0].rotate_right(22);
            let maj = (s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]);
            let t2 = s0.wrapping_add(maj);
            s = [
                t1.wrapping_add(t2),
                s[0],
                s[1],
                s[2],
                s[3].wrapping_add(t1),
                s[4],
                s[5],
                s[6],
            ];
        }
        for (x, y) in h.iter_mut().zip(s) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(4).zip(h) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}
