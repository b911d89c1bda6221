//! One line of an option file, classified the way the server's reader
//! (`search_default_file_with_ext` in `mysys/my_default.cc`) classifies it.
//!
//! The rules, in the reader's order:
//! 1. Leading whitespace is skipped; an empty line, or one starting with `#` or
//!    `;`, is a comment.
//! 2. `!includedir DIR` / `!include FILE`: the keyword must be followed by
//!    whitespace; the argument is the rest of the line with surrounding
//!    whitespace trimmed — *no* comment stripping, so `!include a.cnf # x`
//!    names the file `a.cnf # x`. Any other `!word` is ignored.
//! 3. `[group]`: the name ends at the first `]`; trailing (not leading)
//!    whitespace inside the brackets is trimmed by the server, and anything
//!    after `]` is ignored.
//! 4. Otherwise an option. A `#` outside quotes starts a comment anywhere on
//!    the line, not only after whitespace (`password=ab#c` is `ab`); quote
//!    tracking starts at the beginning of the line and a backslash escapes a
//!    quote only inside quotes. A `;` in the middle of a line is not a comment.
//!    The name is the text before the first `=`, trimmed. The value is trimmed;
//!    if it is at least two characters long and starts and ends with the same
//!    quote (`'` or `"`), those quotes are removed. Then — quoted or not — the
//!    escapes `\b \t \n \r \\ \s \" \'` are replaced; any other backslash is
//!    kept as written, as is a backslash that ends the value.
//!
//! Where mytune differs on purpose is listed in the `cnf` module doc.

use super::error::{CnfErrorKind, Issue};

/// What one line is, with the parts a reader needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Parsed {
    Blank,
    Comment,
    Group {
        /// Between the brackets, as written (not trimmed, not lowercased).
        name: String,
        column: u32,
    },
    Option {
        raw_name: String,
        value: Option<String>,
        column: u32,
    },
    Include {
        path: String,
        column: u32,
    },
    IncludeDir {
        path: String,
        column: u32,
    },
    /// A line that yields nothing (the issue says why).
    Error,
}

/// Whitespace as the server sees it (`my_isspace` in latin1): space, `\t`,
/// `\n`, `\v`, `\f`, `\r`.
pub(crate) fn is_space(c: char) -> bool {
    c == ' ' || ('\t'..='\r').contains(&c)
}

/// 1-based character column of byte offset `at` in `line`.
pub(crate) fn column(line: &str, at: usize) -> u32 {
    let at = at.min(line.len());
    let n = line.char_indices().take_while(|(i, _)| *i < at).count();
    u32::try_from(n + 1).unwrap_or(u32::MAX)
}

/// Classify one line (without its line ending). Never fails: problems come
/// back as an [`Issue`] next to the best reading of the line.
pub(crate) fn parse_line(line: &str) -> (Parsed, Option<Issue>) {
    let body_start = line.len() - line.trim_start_matches(is_space).len();
    let body = &line[body_start..];
    match body.chars().next() {
        None => (Parsed::Blank, None),
        Some('#') | Some(';') => (Parsed::Comment, None),
        Some('!') => parse_directive(line, body_start),
        Some('[') => parse_group(line, body_start),
        Some(_) => parse_option(line, body_start),
    }
}

fn parse_directive(line: &str, start: usize) -> (Parsed, Option<Issue>) {
    let after_bang = start + 1;
    let word_start = after_bang
        + (line[after_bang..].len() - line[after_bang..].trim_start_matches(is_space).len());
    let rest = &line[word_start..];
    for (keyword, dir) in [("includedir", true), ("include", false)] {
        let Some(tail) = rest.strip_prefix(keyword) else {
            continue;
        };
        // The keyword must be followed by whitespace (or end the line, which
        // for the server is the newline).
        if !(tail.is_empty() || tail.starts_with(is_space)) {
            continue;
        }
        let arg = tail.trim_matches(is_space);
        if arg.is_empty() {
            let issue = Issue::new(
                CnfErrorKind::EmptyDirective,
                column(line, start),
                format!(
                    "'!{keyword}' needs a {}",
                    if dir { "directory" } else { "file name" }
                ),
            );
            return (Parsed::Error, Some(issue));
        }
        let arg_at =
            word_start + keyword.len() + (tail.len() - tail.trim_start_matches(is_space).len());
        let path = arg.to_string();
        let column = column(line, arg_at);
        let parsed = if dir {
            Parsed::IncludeDir { path, column }
        } else {
            Parsed::Include { path, column }
        };
        return (parsed, None);
    }
    let word: String = rest.chars().take_while(|c| !is_space(*c)).collect();
    let issue = Issue::new(
        CnfErrorKind::UnknownDirective,
        column(line, start),
        format!(
            "unknown directive '!{word}' (only !include and !includedir exist); the server ignores this line"
        ),
    );
    (Parsed::Error, Some(issue))
}

fn parse_group(line: &str, start: usize) -> (Parsed, Option<Issue>) {
    let inner_start = start + 1;
    let column_of_bracket = column(line, start);
    let Some(close) = line[inner_start..].find(']') else {
        // Keep the text as the group name so the following options are still
        // attributed somewhere sensible; the server refuses the whole file.
        let name = line[inner_start..].trim_end_matches(is_space).to_string();
        let issue = Issue::new(
            CnfErrorKind::UnclosedGroup,
            column_of_bracket,
            format!("group header '[{name}' has no closing ']'; the server refuses to start"),
        );
        return (
            Parsed::Group {
                name,
                column: column_of_bracket,
            },
            Some(issue),
        );
    };
    let name = line[inner_start..inner_start + close].to_string();
    let after = inner_start + close + 1;
    let tail = &line[after..];
    let tail_trimmed = tail.trim_start_matches(is_space);
    let mut issue = None;
    if !tail_trimmed.is_empty() && !tail_trimmed.starts_with(['#', ';']) {
        let at = after + (tail.len() - tail_trimmed.len());
        issue = Some(Issue::new(
            CnfErrorKind::GroupTrailingText,
            column(line, at),
            format!(
                "text after the group header: '{}'; the server ignores it",
                tail_trimmed.trim_end_matches(is_space)
            ),
        ));
    } else if name.starts_with(is_space) {
        issue = Some(Issue::new(
            CnfErrorKind::GroupLeadingWhitespace,
            column(line, inner_start),
            format!(
                "group name '{name}' starts with whitespace; the server keeps it, so no program reads this group"
            ),
        ));
    }
    (
        Parsed::Group {
            name,
            column: column_of_bracket,
        },
        issue,
    )
}

/// Byte offset of the `#` that starts a trailing comment, following the
/// server's `remove_end_comment` exactly.
pub(crate) fn comment_start(text: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut escape = false;
    for (i, c) in text.char_indices() {
        if (c == '\'' || c == '"') && !escape {
            match quote {
                None => quote = Some(c),
                Some(q) if q == c => quote = None,
                Some(_) => {}
            }
        }
        if quote.is_none() && c == '#' {
            return Some(i);
        }
        escape = quote.is_some() && c == '\\' && !escape;
    }
    None
}

fn parse_option(line: &str, start: usize) -> (Parsed, Option<Issue>) {
    let body = &line[start..];
    let content = &body[..comment_start(body).unwrap_or(body.len())];
    let (name_part, value) = match content.find('=') {
        Some(eq) => (&content[..eq], Some(unquote_value(&content[eq + 1..]))),
        None => (content, None),
    };
    let raw_name = name_part.trim_end_matches(is_space);
    let name_column = column(line, start);
    if raw_name.is_empty() {
        let issue = Issue::new(
            CnfErrorKind::EmptyOptionName,
            name_column,
            "a value without an option name; the server refuses to start",
        );
        return (Parsed::Error, Some(issue));
    }
    if let Some(space) = raw_name.find(is_space) {
        let rest = &raw_name[space..];
        let second = space + (rest.len() - rest.trim_start_matches(is_space).len());
        let first_word = &raw_name[..space];
        let after = &raw_name[second..];
        let looks_templated = ["{{", "{%", "${", "<%", "@@"]
            .iter()
            .any(|m| after.contains(m));
        let message = if looks_templated {
            format!(
                "'{raw_name}' looks like an unrendered template placeholder; the server reads the whole line as one unknown option name and refuses to start (did you mean '{first_word} = {after}' after rendering?)"
            )
        } else {
            format!(
                "option name '{raw_name}' contains whitespace (a missing '='?); the server reads it as one unknown option name and refuses to start"
            )
        };
        let issue = Issue::new(
            CnfErrorKind::InvalidOptionName,
            column(line, start + second),
            message,
        );
        return (Parsed::Error, Some(issue));
    }
    (
        Parsed::Option {
            raw_name: raw_name.to_string(),
            value,
            column: name_column,
        },
        None,
    )
}

/// The value the server sees for the text after `=` (comment already
/// removed): trimmed, one pair of matching outer quotes removed, escapes
/// applied.
pub fn unquote_value(raw: &str) -> String {
    let v = raw.trim_matches(is_space);
    let v = match v.as_bytes() {
        [q, .., last] if (*q == b'"' || *q == b'\'') && q == last => &v[1..v.len() - 1],
        _ => v,
    };
    let mut out = String::with_capacity(v.len());
    let mut chars = v.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(&next) = chars.peek() else {
            // A backslash that ends the value stays.
            out.push('\\');
            break;
        };
        chars.next();
        match next {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            's' => out.push(' '),
            '"' => out.push('"'),
            '\'' => out.push('\''),
            '\\' => out.push('\\'),
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}

/// Write `value` so that the server (and [`unquote_value`]) reads it back
/// unchanged: plain when that is safe, otherwise in double quotes with
/// escapes.
pub fn format_value(value: &str) -> String {
    let needs_quotes = value.is_empty()
        || value.starts_with(is_space)
        || value.ends_with(is_space)
        || value.contains(['#', '\\', '"', '\'', '\n', '\r', '\u{8}'])
        || value.chars().any(|c| c.is_control());
    if value.is_empty() {
        return String::new();
    }
    if !needs_quotes {
        return value.to_string();
    }
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            ' ' => out.push(' '),
            other => out.push(other),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opt(line: &str) -> (String, Option<String>) {
        match parse_line(line) {
            (
                Parsed::Option {
                    raw_name, value, ..
                },
                None,
            ) => (raw_name, value),
            other => panic!("not an option: {other:?}"),
        }
    }

    #[test]
    fn comments_follow_remove_end_comment() {
        assert_eq!(opt("a = b # c").1.as_deref(), Some("b"));
        assert_eq!(opt("a = b#c").1.as_deref(), Some("b"));
        assert_eq!(opt("a = 'b # c'").1.as_deref(), Some("b # c"));
        assert_eq!(opt("a = \"b \\\" # c\"").1.as_deref(), Some("b \" # c"));
        assert_eq!(opt("a = b ; c").1.as_deref(), Some("b ; c"));
        // An apostrophe opens a quote that never closes: no comment.
        assert_eq!(opt("a = it's # x").1.as_deref(), Some("it's # x"));
    }

    #[test]
    fn quotes_and_escapes() {
        assert_eq!(unquote_value(" 'x' "), "x");
        assert_eq!(unquote_value("\"x'"), "\"x'");
        assert_eq!(unquote_value("'"), "'");
        assert_eq!(unquote_value("''"), "");
        assert_eq!(unquote_value("C:\\new\\dir"), "C:\new\\dir");
        assert_eq!(unquote_value("a\\sb\\tc\\\\d\\qe\\"), "a b\tc\\d\\qe\\");
        assert_eq!(unquote_value("\"a\\\"b\""), "a\"b");
    }

    #[test]
    fn format_value_round_trips() {
        for v in [
            "", "x", " x", "a#b", "C:\\x", "it's", "q\"", "a\nb", "a b", "\\",
        ] {
            assert_eq!(unquote_value(&format_value(v)), v, "value {v:?}");
            let line = format!("n = {}", format_value(v));
            assert_eq!(opt(&line).1.as_deref(), Some(v), "line {line:?}");
        }
    }

    #[test]
    fn directives() {
        assert_eq!(
            parse_line("!include  a b.cnf  ").0,
            Parsed::Include {
                path: "a b.cnf".into(),
                column: 11
            }
        );
        assert_eq!(
            parse_line(" ! includedir /etc/x/").0,
            Parsed::IncludeDir {
                path: "/etc/x/".into(),
                column: 15
            }
        );
        assert_eq!(
            parse_line("!include").1.unwrap().kind,
            CnfErrorKind::EmptyDirective
        );
        assert_eq!(
            parse_line("!includes x").1.unwrap().kind,
            CnfErrorKind::UnknownDirective
        );
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(column("ab", 0), 1);
        assert_eq!(column("日本x", 6), 3);
    }
}
