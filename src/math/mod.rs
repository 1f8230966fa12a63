//! Scalars, vectors and the floating-point error model that every filter in
//! the crate derives its bounds from.

mod bounded;
mod bounded_dd;
mod exact_sum;
mod range_check;
mod rescale;
mod scalar;
mod wide_int;

pub use bounded::{
    Bounded, BoundedVec3, FILTER_LSB_MIN, FILTER_MAX_MAGNITUDE, all_coordinates_in_filter_range,
    all_finite, all_in_filter_range, in_filter_range,
};
pub use bounded_dd::{BoundedDd, two_prod, two_sum};
pub use exact_sum::ExactSum;
pub(crate) use range_check::{RangeCheck, StepInRange};
pub(crate) use rescale::{scaled_into_range, snapped_into_range, times_pow2};
pub(crate) use scalar::each3;
pub use scalar::{Real, TINY, UNIT_ROUNDOFF, Vec3, gamma, is_finite, vec3_slice};
pub use wide_int::{I768, SCALED_BITS, at_least_ratio, on_common_scale};
