//! The OBJ reader on arbitrary bytes: an error or a mesh, never a panic,
//! and a mesh's face indices are in range.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(m) = ccdlab::mesh::parse_obj("fuzz.obj".as_ref(), bytes) {
        let n = m.positions.len();
        assert!(m.faces.iter().flatten().all(|&i| (i as usize) < n));
    }
});
