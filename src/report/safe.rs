//! Text that came from a server, a file or a rule, made safe to print: one
//! escaping helper per output format, used by every renderer of it.
//!
//! - text (and the base of every other): [`escape`] writes every control
//!   character, and the Unicode line separators and bidirectional
//!   overrides, as a visible escape (`\n`, `\x1b`, `\u{202e}`), so no value
//!   can start a line or move the cursor. [`clip`] bounds what a table cell
//!   holds, so laying out a report is linear in the length of a value (the
//!   JSON report keeps it whole).
//! - Markdown (lint's and check's): [`markdown`] for text in a table cell or
//!   a list item (HTML, links, code spans, emphasis and table pipes
//!   neutralized), [`markdown_code`] for a value shown as code,
//!   [`markdown_fence`] for a fenced block. Both stay inert when a report is
//!   pasted where Markdown reads it as raw HTML (under a `<details>` line).
//! - GitHub workflow commands: [`github_data`] for the message,
//!   [`github_property`] for `file=`/`title=` values (GitHub's own `%`, CR,
//!   LF, `:` and `,` encoding).
//! - SARIF: JSON escaping is the serializer's; messages and properties go
//!   through [`escape`] so that no viewer meets a control character.

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

/// Text for a Markdown table cell or list item: one line (control
/// characters as [`escape`] writes them), `&`, `<` and `>` as entities (no
/// HTML, no autolink), and backslash before the characters that would start
/// a code span, a link, emphasis or a new cell (`` \ ` * [ ] | ~ ``).
/// Underscores stay: GitHub does not emphasize inside words, and
/// `innodb_buffer_pool_size` reads better unescaped in the source.
pub fn markdown(s: &str) -> String {
    let e = escape(s);
    let mut out = String::with_capacity(e.len() + 8);
    for c in e.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '[' | ']' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// A value shown as code in Markdown: a `<code>` element around
/// [`markdown`] text. Not a backtick code span: a report pasted right
/// under an HTML line (`<details>` without a blank line after it) is read
/// as raw HTML, where a code span's content would be HTML too; entities
/// are text in both readings.
pub fn markdown_code(s: &str) -> String {
    format!("<code>{}</code>", markdown(s))
}

/// The fence for a fenced Markdown block holding `body`: at least three
/// backticks, and more than the longest run in `body`, so the block ends
/// only where it should.
pub fn markdown_fence(body: &str) -> String {
    "`".repeat((longest_run(body, '`') + 1).max(3))
}

fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for x in s.chars() {
        run = if x == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// The message of a GitHub Actions workflow command: GitHub's own escapes
/// for `%`, CR and LF, then other control characters (terminal escape
/// sequences) written visibly ([`escape`]).
pub fn github_data(s: &str) -> String {
    let encoded = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    escape(&encoded).into_owned()
}

/// A property value of a workflow command (`file=`, `title=`): as
/// [`github_data`], and `:` and `,`, which end a property, encoded.
pub fn github_property(s: &str) -> String {
    github_data(s).replace(':', "%3A").replace(',', "%2C")
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

    /// Issue 50 (7): a value that is HTML, or a newline and an escape
    /// sequence, stays text in every format's helper.
    #[test]
    fn each_format_keeps_a_hostile_value_text() {
        let html = "</details><script>alert(1)</script>";
        let md = markdown(html);
        assert_eq!(md, "&lt;/details&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
        assert_eq!(
            markdown("[x](http://e) `c` a|b *e*"),
            "\\[x\\](http://e) \\`c\\` a\\|b \\*e\\*"
        );
        let nasty = "a\nb\x1b[31mred";
        assert_eq!(markdown(nasty), "a\\\\nb\\\\x1b\\[31mred");
        assert_eq!(markdown_code(html), format!("<code>{md}</code>"));
        assert_eq!(markdown_code("a`b|c"), "<code>a\\`b\\|c</code>");
        assert_eq!(markdown_fence("a\n````\nb"), "`````");
        assert_eq!(markdown_fence("plain"), "```");
        assert_eq!(
            github_data("50%\n::error::x\x1b"),
            "50%25%0A::error::x\\x1b"
        );
        assert_eq!(github_property("a:b,c"), "a%3Ab%2Cc");
    }

    #[test]
    fn clip_bounds_a_long_value() {
        assert_eq!(clip("abcdef", 3), "abc… (3 more characters)");
        assert_eq!(clip("abc", 3), "abc");
    }
}
