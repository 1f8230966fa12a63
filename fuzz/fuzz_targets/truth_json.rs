//! The truth-JSON reader on arbitrary bytes: an error or a list of
//! booleans, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let _ = ccdlab::harness::ground_truth::parse_mma_bool("fuzz.json".as_ref(), bytes);
});
