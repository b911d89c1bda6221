//! Text that came from a server, a file or a rule, made safe to print.
//!
//! A value may hold a newline (`\n::error file=...` would start a GitHub
//! Actions workflow command), a carriage return, or a terminal escape
//! sequence. [`escape`] writes every control character, and the Unicode
//! line separators and bidirectional overrides, as a visible escape
//! (`\n`, `\x1b`, `\u{202e}`), so no value can start a line or move the
//! cursor. [`clip`] bounds what a table cell holds, so laying out a report is
//! linear in the length of a value (the JSON report keeps it whole).

use std::borrow::Cow;
use std::fmt::Write;

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` with control characters written as escapes.
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x80 && needs_escape(c) => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// At most `max` characters of `s` (escaped), with a note of how many more
/// there were.
pub fn clip(s: &str, max: usize) -> String {
    let e = escape(s);
    match e.char_indices().nth(max) {
        None => e.into_owned(),
        Some((cut, _)) => {
            let rest = e[cut..].chars().count();
            format!("{}… ({rest} more characters)", &e[..cut])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_value_can_start_a_line_or_move_the_cursor() {
        assert_eq!(
            escape("a\n::error file=README.md,line=1::INJECTED"),
            "a\\n::error file=README.md,line=1::INJECTED"
        );
        assert_eq!(
            escape("\x1b[2J\r\u{9b}\u{202e}"),
            "\\x1b[2J\\r\\u{9b}\\u{202e}"
        );
        assert!(matches!(escape("plain, ünïcode"), Cow::Borrowed(_)));
    }

    #[test]
    fn clip_bounds_a_long_value() {
        assert_eq!(clip("abcdef", 3), "abc… (3 more characters)");
        assert_eq!(clip("abc", 3), "abc");
    }
}
