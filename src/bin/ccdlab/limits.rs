//! Range checks of the commands' whole-number options, shared so that every
//! command words a refusal alike (the reports' checks of their counts and
//! times: [`ccdlab::harness::limits`]).

/// A value parser for options that take a whole number in `lo..=hi`; its
/// refusal (clap adds the option's name and the value) states the range,
/// for a negative number too.
pub fn whole<T: TryFrom<u64>>(
    lo: u64,
    hi: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        s.parse::<u64>()
            .ok()
            .filter(|v| (lo..=hi).contains(v))
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| format!("must be a whole number from {lo} to {hi}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_outside_the_range_are_refused_with_the_range() {
        let parse = whole::<usize>(1, 1024);
        assert_eq!(parse("1"), Ok(1));
        assert_eq!(parse("1024"), Ok(1024));
        for bad in ["0", "1025", "-1", "1.5", "", "x", "99999999999999999999999"] {
            assert_eq!(
                parse(bad),
                Err("must be a whole number from 1 to 1024".to_string()),
                "{bad:?}"
            );
        }
        assert_eq!(
            whole::<u8>(0, 1000)("300"),
            Err("must be a whole number from 0 to 1000".into())
        );
    }
}
