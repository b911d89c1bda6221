//! The lossless view of one option file: every line with its kind, its exact
//! text and its line ending, so that writing it back gives the same bytes and
//! an edit touches only the lines it means to.
//!
//! Generators and fixers edit a [`Document`] (`set`, `remove`) instead of
//! printing a new file, which keeps a user's comments and layout.

use std::fmt;

use super::Modifier;
use super::error::{CnfErrorKind, Issue};
use super::groups::group_as_read;
use super::names::split_name;
use super::syntax::{self, Parsed, format_value, is_space};

/// How a line ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineEnding {
    /// The last line of a file without a final newline.
    None,
    Lf,
    CrLf,
}

impl LineEnding {
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::None => "",
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }
}

/// What a line is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineKind {
    Blank,
    /// A line starting with `#` or `;` (after whitespace).
    Comment,
    /// `[name]`; `name` is exactly what is between the brackets (or after `[`
    /// when `]` is missing, which is an issue on the line).
    Group {
        name: String,
    },
    /// `name`, `name = value`; the value is unquoted and unescaped.
    Option {
        raw_name: String,
        value: Option<String>,
    },
    /// `!include PATH`, as written.
    Include {
        path: String,
    },
    /// `!includedir PATH`, as written.
    IncludeDir {
        path: String,
    },
    /// A line the server cannot use; [`Line::issue`] says why.
    Error,
}

/// One line of a [`Document`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The text without its line ending.
    pub text: String,
    pub ending: LineEnding,
    pub kind: LineKind,
    /// 1-based column of the group bracket, option name or include path; 0
    /// for blank and comment lines.
    pub column: u32,
    /// What is wrong with the line, if anything. A line can be usable and
    /// still have an issue (`[mysqld] junk`).
    pub issue: Option<Issue>,
}

impl Line {
    /// Classify `text` (one line, no line ending).
    pub fn parse(text: &str, ending: LineEnding) -> Line {
        let (parsed, issue) = syntax::parse_line(text);
        let (kind, column) = match parsed {
            Parsed::Blank => (LineKind::Blank, 0),
            Parsed::Comment => (LineKind::Comment, 0),
            Parsed::Group { name, column } => (LineKind::Group { name }, column),
            Parsed::Option {
                raw_name,
                value,
                column,
            } => (LineKind::Option { raw_name, value }, column),
            Parsed::Include { path, column } => (LineKind::Include { path }, column),
            Parsed::IncludeDir { path, column } => (LineKind::IncludeDir { path }, column),
            Parsed::Error => (LineKind::Error, issue.as_ref().map_or(1, |i| i.column)),
        };
        Line {
            text: text.to_string(),
            ending,
            kind,
            column,
            issue,
        }
    }
}

/// A whole option file, line by line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Document {
    /// The text started with a UTF-8 byte-order mark (kept for writing back).
    pub bom: bool,
    pub lines: Vec<Line>,
}

/// Why an edit was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error(
        "'{0}' is not a usable option name (empty, or contains whitespace, '=', '#', quotes or brackets)"
    )]
    InvalidName(String),
    #[error("'{0}' is not a usable group name (empty, or contains ']', '#' or a line break)")]
    InvalidGroup(String),
}

impl Document {
    /// Parse text. Never fails: problems are [`Line::issue`]s.
    pub fn parse(text: &str) -> Document {
        let (bom, body) = match text.strip_prefix('\u{feff}') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let mut lines = Vec::new();
        for piece in body.split_inclusive('\n') {
            let (text, ending) = if let Some(t) = piece.strip_suffix("\r\n") {
                (t, LineEnding::CrLf)
            } else if let Some(t) = piece.strip_suffix('\n') {
                (t, LineEnding::Lf)
            } else {
                (piece, LineEnding::None)
            };
            lines.push(Line::parse(text, ending));
        }
        let mut doc = Document { bom, lines };
        doc.mark_options_without_group();
        doc
    }

    /// The server refuses an option that comes before the first group header
    /// of its file; flag those lines.
    fn mark_options_without_group(&mut self) {
        for line in &mut self.lines {
            match &line.kind {
                LineKind::Group { .. } => return,
                LineKind::Option { raw_name, .. } if line.issue.is_none() => {
                    line.issue = Some(Issue::new(
                        CnfErrorKind::OptionWithoutGroup,
                        line.column,
                        format!(
                            "option '{raw_name}' comes before any [group] header; the server refuses to start (add e.g. [mysqld] above it)"
                        ),
                    ));
                }
                _ => {}
            }
        }
    }

    /// Issues with their 1-based line numbers.
    pub fn issues(&self) -> impl Iterator<Item = (u32, &Issue)> {
        self.lines.iter().enumerate().filter_map(|(i, l)| {
            l.issue
                .as_ref()
                .map(|issue| (u32::try_from(i + 1).unwrap_or(u32::MAX), issue))
        })
    }

    /// The group each line is in (`None` before the first header), as written.
    pub fn line_groups(&self) -> Vec<Option<&str>> {
        let mut current = None;
        self.lines
            .iter()
            .map(|l| {
                if let LineKind::Group { name } = &l.kind {
                    current = Some(name.as_str());
                }
                current
            })
            .collect()
    }

    /// The value of the last occurrence of `name` in `group` (`Some(None)` for
    /// a bare name), matching names the way the server does (case, `-`/`_`,
    /// prefixes).
    pub fn get(&self, group: &str, name: &str) -> Option<Option<&str>> {
        let want = option_key(name);
        let groups = self.line_groups();
        self.lines
            .iter()
            .zip(groups)
            .rev()
            .find_map(|(line, g)| match (&line.kind, g) {
                (LineKind::Option { raw_name, value }, Some(g))
                    if same_group(g, group) && option_key(raw_name) == want =>
                {
                    Some(value.as_deref())
                }
                _ => None,
            })
    }

    /// Set `name = value` in `group`: replace the last occurrence there, or
    /// append it to the group (after its last option), creating the group at
    /// the end of the file if it is absent. `comment`, if any, goes on its own
    /// `# ` line(s) above the option (not repeated if already there). `value`
    /// `None` writes a bare name.
    pub fn set(
        &mut self,
        group: &str,
        name: &str,
        value: Option<&str>,
        comment: Option<&str>,
    ) -> Result<(), EditError> {
        check_name(name)?;
        check_group(group)?;
        let text = match value {
            Some(v) => format!("{name} = {}", format_value(v)),
            None => name.to_string(),
        };
        let ending = self.default_ending();
        let comment_lines: Vec<Line> = comment
            .map(|c| {
                c.lines()
                    .map(|l| Line::parse(format!("# {l}").trim_end_matches(is_space), ending))
                    .collect()
            })
            .unwrap_or_default();
        let want = option_key(name);
        let groups = self.line_groups();

        // Replace the last occurrence.
        let last = self
            .lines
            .iter()
            .zip(&groups)
            .rposition(|(line, g)| match (&line.kind, g) {
                (LineKind::Option { raw_name, .. }, Some(g)) => {
                    same_group(g, group) && option_key(raw_name) == want
                }
                _ => false,
            });
        if let Some(i) = last {
            let old_ending = self.lines[i].ending;
            self.lines[i] = Line::parse(&text, old_ending);
            let already = comment_lines.is_empty()
                || (i >= comment_lines.len()
                    && self.lines[i - comment_lines.len()..i]
                        .iter()
                        .zip(&comment_lines)
                        .all(|(a, b)| a.text == b.text));
            if !already {
                self.insert_lines(i, comment_lines);
            }
            return Ok(());
        }

        // Append to the last section of the group.
        let header = self
            .lines
            .iter()
            .rposition(|l| matches!(&l.kind, LineKind::Group { name: g } if same_group(g, group)));
        let mut new_lines = comment_lines;
        new_lines.push(Line::parse(&text, ending));
        if let Some(h) = header {
            let section_end = self.lines[h + 1..]
                .iter()
                .position(|l| matches!(l.kind, LineKind::Group { .. }))
                .map_or(self.lines.len(), |p| h + 1 + p);
            let at = self.lines[h + 1..section_end]
                .iter()
                .rposition(|l| {
                    matches!(
                        l.kind,
                        LineKind::Option { .. }
                            | LineKind::Include { .. }
                            | LineKind::IncludeDir { .. }
                            | LineKind::Error
                    )
                })
                .map_or(h + 1, |p| h + 1 + p + 1);
            self.insert_lines(at, new_lines);
            return Ok(());
        }

        // Create the group.
        let mut block = Vec::new();
        if self.lines.last().is_some_and(|l| l.kind != LineKind::Blank) {
            block.push(Line::parse("", ending));
        }
        block.push(Line::parse(&format!("[{group}]"), ending));
        block.extend(new_lines);
        let at = self.lines.len();
        self.insert_lines(at, block);
        Ok(())
    }

    /// Set `name = value` where a server reading `groups` takes it from.
    ///
    /// When the option already occurs in any of `groups`, the last
    /// occurrence (the one the server applies) is replaced in its own group,
    /// with `comment` above it, and every earlier occurrence in `groups` gets
    /// the same value, so that no line the server reads disagrees with the
    /// one it applies. Otherwise the option is added to `new_group` as
    /// [`Document::set`] does.
    ///
    /// Why not always `new_group`: a base file's `[mysqld]` line read by
    /// MariaDB would stay in place with its old value, shadowed by a new
    /// `[mariadb]` line after it, and the file would say two things.
    pub fn set_where_read(
        &mut self,
        groups: &[String],
        new_group: &str,
        name: &str,
        value: Option<&str>,
        comment: Option<&str>,
    ) -> Result<(), EditError> {
        check_name(name)?;
        let want = option_key(name);
        let hits: Vec<(usize, String)> = self
            .lines
            .iter()
            .zip(self.line_groups())
            .enumerate()
            .filter_map(|(i, (line, g))| match (&line.kind, g) {
                (LineKind::Option { raw_name, .. }, Some(g))
                    if option_key(raw_name) == want && groups.iter().any(|w| same_group(g, w)) =>
                {
                    Some((i, g.to_string()))
                }
                _ => None,
            })
            .collect();
        let Some((_, last_group)) = hits.last().cloned() else {
            return self.set(new_group, name, value, comment);
        };
        let text = match value {
            Some(v) => format!("{name} = {}", format_value(v)),
            None => name.to_string(),
        };
        for &(i, _) in &hits[..hits.len() - 1] {
            let ending = self.lines[i].ending;
            self.lines[i] = Line::parse(&text, ending);
        }
        self.set(&last_group, name, value, comment)
    }

    /// Remove every occurrence of `name` in `group`; returns how many lines
    /// were removed.
    pub fn remove(&mut self, group: &str, name: &str) -> usize {
        let want = option_key(name);
        let groups: Vec<bool> = self
            .line_groups()
            .into_iter()
            .map(|g| g.is_some_and(|g| same_group(g, group)))
            .collect();
        let before = self.lines.len();
        let mut in_group = groups.into_iter();
        self.lines.retain(|line| {
            let here = in_group.next().unwrap_or(false);
            !(here
                && matches!(&line.kind, LineKind::Option { raw_name, .. } if option_key(raw_name) == want))
        });
        before - self.lines.len()
    }

    fn default_ending(&self) -> LineEnding {
        self.lines
            .iter()
            .map(|l| l.ending)
            .find(|e| *e != LineEnding::None)
            .unwrap_or(LineEnding::Lf)
    }

    /// Insert whole lines at `at`, giving the line before them a line ending
    /// if it was the unterminated last line.
    fn insert_lines(&mut self, at: usize, new: Vec<Line>) {
        if new.is_empty() {
            return;
        }
        let ending = self.default_ending();
        if at > 0 && self.lines[at - 1].ending == LineEnding::None {
            self.lines[at - 1].ending = ending;
        }
        self.lines.splice(at..at, new);
    }
}

impl fmt::Display for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.bom {
            f.write_str("\u{feff}")?;
        }
        for line in &self.lines {
            f.write_str(&line.text)?;
            f.write_str(line.ending.as_str())?;
        }
        Ok(())
    }
}

/// What identifies "the same option" for editing: the canonical name, and
/// whether it is a `maximum-` bound (a different setting).
fn option_key(raw: &str) -> (String, bool) {
    let (name, modifier, _) = split_name(raw);
    (name, modifier == Modifier::Maximum)
}

fn same_group(written: &str, wanted: &str) -> bool {
    group_as_read(written).eq_ignore_ascii_case(group_as_read(wanted))
}

fn check_name(name: &str) -> Result<(), EditError> {
    let bad = name.is_empty()
        || name.starts_with(['[', '!', ';', '#'])
        || name
            .chars()
            .any(|c| is_space(c) || c.is_control() || matches!(c, '=' | '#' | '"' | '\''));
    if bad {
        Err(EditError::InvalidName(name.to_string()))
    } else {
        Ok(())
    }
}

fn check_group(group: &str) -> Result<(), EditError> {
    let bad = group.trim_matches(is_space).is_empty()
        || group.starts_with(is_space)
        || group
            .chars()
            .any(|c| c == ']' || c == '#' || c.is_control());
    if bad {
        Err(EditError::InvalidGroup(group.to_string()))
    } else {
        Ok(())
    }
}
