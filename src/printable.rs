//! Text quoted from input files in error messages, displayed with its
//! control characters escaped (`\u{7f}`, `\t`, …; [`char::escape_default`])
//! and everything else as it is. An invisible byte inside a token would
//! otherwise make a message such as "`-01468` is not a number" unreadable,
//! and escape sequences in a file would reach the terminal.
//!
//! A malformed file can hold a token of hundreds of megabytes (a header line
//! without a newline, a million-digit number), so a quoted token — text
//! between backticks, as every message quotes one — shows at most
//! [`MAX_QUOTED_CHARS`] characters and then how many bytes were left out, and
//! a whole message at most [`MAX_MESSAGE_CHARS`].

use std::fmt::{self, Display, Formatter, Write};

/// The most characters of one backtick-quoted token that a message shows.
pub(crate) const MAX_QUOTED_CHARS: usize = 64;

/// The most characters of a whole message that are shown.
pub(crate) const MAX_MESSAGE_CHARS: usize = 1024;

/// `self.0` with its control characters escaped and long tokens cut (module
/// doc).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Printable<'a>(pub(crate) &'a str);

impl Display for Printable<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let text = self.0;
        let mut at = 0;
        let mut shown = 0usize;
        // Characters shown of the quoted token being written, if any.
        let mut quoted: Option<usize> = None;
        while let Some(c) = text[at..].chars().next() {
            if shown == MAX_MESSAGE_CHARS {
                return write!(f, "… ({} more bytes)", text.len() - at);
            }
            quoted = match (c, quoted) {
                ('`', Some(_)) => None,
                ('`', None) => Some(0),
                (_, Some(MAX_QUOTED_CHARS)) => {
                    // Leave out the rest of the token, up to its closing
                    // backtick (or the end of the message).
                    let end = text[at..].find('`').map_or(text.len(), |k| at + k);
                    write!(f, "… ({} more bytes)", end - at)?;
                    // The token stays open: its closing backtick comes next
                    // and closes it.
                    at = end;
                    continue;
                }
                (_, Some(n)) => Some(n + 1),
                (_, None) => None,
            };
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                f.write_char(c)?;
            }
            shown += 1;
            at += c.len_utf8();
        }
        Ok(())
    }
}

/// `text` whole when it has at most [`MAX_QUOTED_CHARS`] characters, else
/// its first ones and how many bytes were left out: for a token that a
/// message shows without backticks.
pub(crate) fn excerpt(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_QUOTED_CHARS) {
        None => text.into(),
        Some((at, _)) => format!("{}… ({} more bytes)", &text[..at], text.len() - at).into(),
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

    #[test]
    fn a_long_quoted_token_shows_a_prefix_and_how_much_was_left_out() {
        let token = "7".repeat(1_000_000);
        let message = format!("`{token}` is not an integer");
        assert_eq!(
            Printable(&message).to_string(),
            format!(
                "`{}… ({} more bytes)` is not an integer",
                "7".repeat(MAX_QUOTED_CHARS),
                1_000_000 - MAX_QUOTED_CHARS
            )
        );
        // A token of exactly the limit is shown whole, multi-byte or not.
        let fits = format!("`{}` and `{}`", "é".repeat(MAX_QUOTED_CHARS), "x");
        assert_eq!(Printable(&fits).to_string(), fits);
        // An unclosed quote runs to the end of the message.
        let open = format!("a `{}", "y".repeat(100));
        assert_eq!(
            Printable(&open).to_string(),
            format!("a `{}… (36 more bytes)", "y".repeat(MAX_QUOTED_CHARS))
        );
    }

    #[test]
    fn after_a_cut_token_the_next_tokens_are_cut_and_the_text_between_them_kept() {
        // As an OBJ face corner that is not an index quotes it twice.
        let corner = "1".repeat(1_000_000);
        let message = format!("face corner `{corner}`: `{corner}` is not an integer index");
        let cut = format!(
            "{}… ({} more bytes)",
            "1".repeat(MAX_QUOTED_CHARS),
            1_000_000 - MAX_QUOTED_CHARS
        );
        assert_eq!(
            Printable(&message).to_string(),
            format!("face corner `{cut}`: `{cut}` is not an integer index")
        );
    }

    #[test]
    fn an_excerpt_keeps_short_text_and_cuts_long_text() {
        assert_eq!(excerpt("12345"), "12345");
        let long = "9".repeat(200);
        assert_eq!(
            excerpt(&long),
            format!("{}… (136 more bytes)", "9".repeat(MAX_QUOTED_CHARS))
        );
    }

    #[test]
    fn a_long_message_is_cut_after_its_limit() {
        let message = "word ".repeat(1000);
        let shown = Printable(&message).to_string();
        assert_eq!(
            shown,
            format!(
                "{}… ({} more bytes)",
                &message[..MAX_MESSAGE_CHARS],
                5000 - MAX_MESSAGE_CHARS
            )
        );
    }
}
