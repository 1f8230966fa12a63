//! Range checks of the reports' counts and times, shared so that every
//! command words a refusal alike. Each returns the reason; the report wraps
//! it in its own `invalid --NAME` error.

/// Why a count or a time was refused (the report wraps it in its own
/// `invalid --NAME` error).
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LimitError {
    /// A count of zero.
    #[error("0: must be at least 1 (there would be nothing to compare or time)")]
    Zero,
    /// A count above its limit.
    #[error("{value} exceeds the limit of {max}")]
    TooMany {
        /// The count asked for.
        value: usize,
        /// The largest accepted.
        max: usize,
    },
    /// A time that is not a finite positive number.
    #[error("{0:?}: must be a finite positive number of seconds")]
    NotPositive(f64),
    /// A time above its limit.
    #[error("{value:?} s exceeds the limit of {max:?} s")]
    TooLong {
        /// The seconds asked for.
        value: f64,
        /// The most accepted.
        max: f64,
    },
}

/// A count in `1..=max`, or why not. Zero is refused rather than read as
/// "skip": a timing loop over nothing never ends.
pub fn count(value: usize, max: usize) -> Result<(), LimitError> {
    if value == 0 {
        return Err(LimitError::Zero);
    }
    if value > max {
        return Err(LimitError::TooMany { value, max });
    }
    Ok(())
}

/// A finite number of seconds in `(0, max]`, or why not.
pub fn seconds(value: f64, max: f64) -> Result<(), LimitError> {
    if !(value.is_finite() && value > 0.0) {
        return Err(LimitError::NotPositive(value));
    }
    if value > max {
        return Err(LimitError::TooLong { value, max });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_seconds_outside_their_range_say_which_way() {
        assert_eq!(count(1, 5), Ok(()));
        assert_eq!(count(5, 5), Ok(()));
        assert_eq!(count(0, 5), Err(LimitError::Zero));
        assert_eq!(count(6, 5), Err(LimitError::TooMany { value: 6, max: 5 }));
        assert_eq!(seconds(0.5, 1.0), Ok(()));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(
                matches!(seconds(bad, 1.0), Err(LimitError::NotPositive(v)) if v.to_bits() == bad.to_bits()),
                "{bad}"
            );
        }
        assert_eq!(
            seconds(2.0, 1.0),
            Err(LimitError::TooLong {
                value: 2.0,
                max: 1.0
            })
        );
        assert_eq!(
            LimitError::TooMany { value: 6, max: 5 }.to_string(),
            "6 exceeds the limit of 5"
        );
    }
}
