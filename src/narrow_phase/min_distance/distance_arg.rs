//! The distance argument `d` of the minimum-separation solvers
//! (docs/design.md §5): its panic-free contract and its typed validation.
//!
//! The solvers take any double and answer the question as posed: the set
//! `{t : dist(t) ≤ d}` is empty for a negative `d` and for NaN (no
//! comparison with NaN holds), and all of `[0, 1]` for `d = +∞`. A caller
//! that takes `d` from a user should refuse those with
//! [`validate_separation`] instead, once.

/// Why [`validate_separation`] refuses a distance.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SeparationError {
    /// NaN.
    #[error("the minimum separation is not a number")]
    NotANumber,
    /// Below zero (−0.0 is zero).
    #[error("the minimum separation {0:?} is negative")]
    Negative(f64),
    /// `+∞`.
    #[error("the minimum separation is infinite")]
    Infinite,
}

/// `d` when it is a finite double `≥ 0`, otherwise why not.
pub fn validate_separation(d: f64) -> Result<f64, SeparationError> {
    if d.is_nan() {
        Err(SeparationError::NotANumber)
    } else if d < 0.0 {
        Err(SeparationError::Negative(d))
    } else if d.is_infinite() {
        Err(SeparationError::Infinite)
    } else {
        Ok(d)
    }
}

/// What a solver does with `d`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Separation {
    /// Negative or NaN: no time qualifies.
    Never,
    /// `+∞`: every time qualifies, the earliest is `0`.
    Always,
    /// `0` (or `−0`): ordinary contact, the `d = 0` solvers.
    Contact,
    /// A finite positive distance.
    Positive(f64),
}

impl Separation {
    pub(super) fn of(d: f64) -> Separation {
        if d.is_nan() || d < 0.0 {
            Separation::Never
        } else if d == 0.0 {
            Separation::Contact
        } else if d == f64::INFINITY {
            Separation::Always
        } else {
            Separation::Positive(d)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_and_classification_agree() {
        assert_eq!(validate_separation(0.5), Ok(0.5));
        assert_eq!(validate_separation(-0.0), Ok(-0.0));
        assert_eq!(
            validate_separation(f64::NAN),
            Err(SeparationError::NotANumber)
        );
        assert_eq!(
            validate_separation(-1.0),
            Err(SeparationError::Negative(-1.0))
        );
        assert_eq!(
            validate_separation(f64::INFINITY),
            Err(SeparationError::Infinite)
        );
        assert_eq!(
            validate_separation(f64::NEG_INFINITY),
            Err(SeparationError::Negative(f64::NEG_INFINITY))
        );
        assert_eq!(Separation::of(-0.0), Separation::Contact);
        assert_eq!(Separation::of(f64::NAN), Separation::Never);
        assert_eq!(Separation::of(-1e-300), Separation::Never);
        assert_eq!(Separation::of(f64::INFINITY), Separation::Always);
        assert_eq!(Separation::of(5e-324), Separation::Positive(5e-324));
    }
}
