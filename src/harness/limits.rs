//! Range checks of the reports' counts and times, shared so that every
//! command words a refusal alike. Each returns the reason; the report wraps
//! it in its own `invalid --NAME` error.

/// A count in `1..=max`, or why not. Zero is refused rather than read as
/// "skip": a timing loop over nothing never ends.
pub fn count(value: usize, max: usize) -> Result<(), String> {
    if value == 0 {
        return Err("0: must be at least 1 (there would be nothing to compare or time)".into());
    }
    if value > max {
        return Err(format!("{value} exceeds the limit of {max}"));
    }
    Ok(())
}

/// A finite number of seconds in `(0, max]`, or why not.
pub fn seconds(value: f64, max: f64) -> Result<(), String> {
    if !(value.is_finite() && value > 0.0) {
        return Err(format!(
            "{value:?}: must be a finite positive number of seconds"
        ));
    }
    if value > max {
        return Err(format!("{value:?} s exceeds the limit of {max:?} s"));
    }
    Ok(())
}
