//! Errors of the discrete detectors: every way an input shape or terrain can be
//! refused, naming the shape and the offending value so that it can be fixed.

/// Why a shape, a frame or a height grid was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DiscreteError {
    /// A size (radius, height, half-extent, grid step) is zero, negative, NaN
    /// or infinite. Give a finite positive value.
    #[error("{shape}: {what} must be finite and > 0, got {value}")]
    NonPositive {
        /// The shape (`sphere`, `box`, `cylinder`, `height grid`).
        shape: &'static str,
        /// The parameter (`radius`, `half-length l`, `dx`, …).
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A coordinate or size is beyond ±[`crate::discrete::MAX_MAGNITUDE`]
    /// (`2⁵⁰⁰`), where the detectors' arithmetic could overflow. Rescale the
    /// units.
    #[error(
        "{shape}: {what} has a magnitude {value:e} beyond 2^500 (about 3.3e150), the detectors' range; rescale the units"
    )]
    TooLarge {
        /// The shape.
        shape: &'static str,
        /// The parameter, point or matrix part.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A point or vector has a NaN or infinite coordinate.
    #[error("{shape}: {what} has a non-finite coordinate: {value:?}")]
    NonFinite {
        /// The shape.
        shape: &'static str,
        /// The point or vector (`centre`, `axis`, `grid origin`).
        what: &'static str,
        /// Its coordinates.
        value: [f64; 3],
    },
    /// The cylinder axis is the zero vector: it has no direction. Give the unit
    /// direction of the axis.
    #[error("cylinder: the axis is the zero vector")]
    ZeroAxis,
    /// The cylinder axis is not a unit vector (Strashnov & Torgashev 2020, §II
    /// define `v` as unit). Normalise it in f64 before building the cylinder.
    #[error("cylinder: the axis {axis:?} is not unit length (|v| = {norm}); normalise it first")]
    NonUnitAxis {
        /// The axis given.
        axis: [f64; 3],
        /// Its Euclidean length.
        norm: f64,
    },
    /// A world-from-local matrix has a NaN or infinite entry.
    #[error("{shape}: matrix entry ({row}, {col}) is {value} (must be finite)")]
    NonFiniteMatrix {
        /// The shape whose frame it is.
        shape: &'static str,
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The entry.
        value: f64,
    },
    /// The bottom row of a world-from-local matrix is not `(0, 0, 0, 1)`: it is
    /// not an affine map. Trushin (2015) uses 4×4 affine local-to-world
    /// matrices whose fourth column is the origin.
    #[error("{shape}: the bottom row of the matrix must be (0, 0, 0, 1), got {row:?}")]
    NotAffine {
        /// The shape.
        shape: &'static str,
        /// The bottom row given.
        row: [f64; 4],
    },
    /// The 3×3 block of a world-from-local matrix is not invertible (its
    /// determinant is zero or negligible): the frame collapses a direction.
    #[error("{shape}: the matrix is not invertible (det of the 3×3 block = {det})")]
    SingularMatrix {
        /// The shape.
        shape: &'static str,
        /// The determinant of the 3×3 block.
        det: f64,
    },
    /// The 3×3 block is invertible but not a rotation (its columns are not
    /// orthonormal within [`RIGID_TOLERANCE`](super::frame::RIGID_TOLERANCE)).
    /// The paper's sizes (`r`, `l`, `w`, `h`) carry the scale; the frame must
    /// be rigid.
    #[error("{shape}: the 3×3 block is not a rotation (max |RᵀR − I| = {error})")]
    NotRigid {
        /// The shape.
        shape: &'static str,
        /// The largest entry of `|RᵀR − I|`.
        error: f64,
    },
    /// The frame is a reflection (negative determinant). Trushin (2015) uses
    /// right-handed frames only.
    #[error("{shape}: the frame is left-handed (det = {det}); use a right-handed frame")]
    LeftHanded {
        /// The shape.
        shape: &'static str,
        /// The determinant of the 3×3 block.
        det: f64,
    },
    /// A height grid needs at least 2×2 samples (one cell).
    #[error("height grid: needs at least 2×2 samples, got {rows}×{cols}")]
    GridTooSmall {
        /// Samples along y (index `i`).
        rows: usize,
        /// Samples along x (index `j`).
        cols: usize,
    },
    /// `rows × cols` heights are more than can be allocated
    /// ([`crate::discrete::HeightGrid::from_fn`]).
    #[error("height grid: {rows}×{cols} samples are more than can be allocated")]
    GridTooLarge {
        /// Samples along y.
        rows: usize,
        /// Samples along x.
        cols: usize,
    },
    /// The number of heights does not match `rows × cols`.
    #[error("height grid: {len} heights given for {rows}×{cols} samples")]
    GridSizeMismatch {
        /// Samples along y.
        rows: usize,
        /// Samples along x.
        cols: usize,
        /// Heights given.
        len: usize,
    },
    /// The grid's magnitudes would overflow or underflow in the element
    /// normals (`d_x·d_y` below the smallest normal double, or `|H|·d` not
    /// finite). Rescale the units.
    #[error(
        "height grid: steps ({dx}, {dy}) and max |H| = {max_abs_height} are out of the representable range"
    )]
    GridOutOfRange {
        /// Step along x.
        dx: f64,
        /// Step along y.
        dy: f64,
        /// Largest |height|.
        max_abs_height: f64,
    },
    /// A height is NaN or infinite.
    #[error("height grid: H[{i}][{j}] = {value} (must be finite)")]
    NonFiniteHeight {
        /// Row index (along y).
        i: usize,
        /// Column index (along x).
        j: usize,
        /// The value.
        value: f64,
    },
}
