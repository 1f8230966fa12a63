//! Text quoted from input files in error messages, displayed with its
//! control characters escaped (`\u{7f}`, `\t`, …; [`char::escape_default`])
//! and everything else as it is. An invisible byte inside a token would
//! otherwise make a message such as "`-01468` is not a number" unreadable,
//! and escape sequences in a file would reach the terminal.

use std::fmt::{self, Display, Formatter, Write};

/// `self.0` with its control characters escaped (module doc).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Printable<'a>(pub(crate) &'a str);

impl Display for Printable<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                f.write_char(c)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_escaped_and_nothing_else() {
        assert_eq!(
            Printable("-0\u{7f}1\t\u{1b}[31mé`\\").to_string(),
            "-0\\u{7f}1\\t\\u{1b}[31mé`\\"
        );
        // Escaped text has no control characters left: escaping it again
        // changes nothing.
        let once = Printable("a\u{0}b\nc").to_string();
        assert_eq!(Printable(&once).to_string(), once);
    }
}
