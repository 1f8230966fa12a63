//! Stage 4, exact CCD: vertex–face and edge–edge solvers.

pub mod oracle;
