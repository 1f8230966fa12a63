//! The criterion benches of ccdlab live in this package's `[[bench]]` targets; the library is empty.
