//! Problems found in option files, as values a linter can report.
//!
//! The reader collects them instead of stopping, so one run shows every
//! problem. Each kind documents what the server itself does with the same
//! input, because "MySQL refuses to start" and "MySQL silently ignores this"
//! deserve different severities in a report.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::facts::SourceLocation;

/// What went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CnfErrorKind {
    /// A file could not be read (the top file: `load` returns it as `Err`).
    Io,
    /// Bytes that are not UTF-8. The server reads bytes and does not care,
    /// but mytune shows the line with U+FFFD in place of the bad bytes.
    InvalidUtf8,
    /// The file starts with a UTF-8 byte-order mark. mytune skips it; MySQL's
    /// reader (`mysys/my_default.cc`, checked for 8.0) does not: its first
    /// line starts with `\xEF\xBB\xBF`, is neither a comment nor a group
    /// header, so it is an option before any group and the server refuses to
    /// start.
    ByteOrderMark,
    /// `[group` without `]`. The server refuses to start.
    UnclosedGroup,
    /// Text after `]` that is not a comment. The server ignores it silently.
    GroupTrailingText,
    /// `[ mysqld]`: the server keeps leading whitespace in the group name, so
    /// no program ever reads this group.
    GroupLeadingWhitespace,
    /// An option before the first `[group]` of its file. The server refuses to
    /// start.
    OptionWithoutGroup,
    /// An option name with whitespace in it (`datadir {{ mysqldir }}`, a
    /// forgotten `=`). The server reads it as one unknown option name and
    /// refuses to start.
    InvalidOptionName,
    /// A line such as `= value`. The server refuses to start.
    EmptyOptionName,
    /// `!include` or `!includedir` without an argument. The server refuses to
    /// start.
    EmptyDirective,
    /// `!something` other than `!include`/`!includedir`. The server ignores
    /// the line silently.
    UnknownDirective,
    /// An `!include` target that does not exist. The server skips it silently.
    IncludeNotFound,
    /// An `!include` target that exists but cannot be read (permissions, not a
    /// regular file, too large). The server skips it.
    IncludeUnreadable,
    /// An `!includedir` directory that cannot be listed. The server refuses to
    /// start.
    IncludeDirUnreadable,
    /// A file includes itself, directly or through others. The server would
    /// read it again until the depth limit; mytune reads it once.
    IncludeCycle,
    /// Includes nested deeper than the server's limit; the server skips the
    /// directive with a warning, and so does mytune.
    IncludeTooDeep,
    /// `!includedir` of an absolute directory that does not exist on the
    /// machine running mytune: the server refuses to start where it is
    /// missing, but the file is usually linted away from the host it is
    /// for, so this is a warning that the directory's files went unchecked.
    IncludeDirAbsent,
    /// The includes of one top file read more than [`crate::cnf::MAX_INCLUDED_FILES`]
    /// files or [`crate::cnf::MAX_INCLUDED_BYTES`] bytes (a directory that
    /// includes itself fans out exponentially); mytune stops following them.
    IncludeBudget,
    /// The file is writable by everyone. The server ignores such files with a
    /// warning; mytune still reads it so its content can be checked.
    WorldWritable,
}

impl CnfErrorKind {
    /// Does the server refuse to start when it meets this?
    pub fn refused_by_server(self) -> bool {
        matches!(
            self,
            CnfErrorKind::ByteOrderMark
                | CnfErrorKind::UnclosedGroup
                | CnfErrorKind::OptionWithoutGroup
                | CnfErrorKind::InvalidOptionName
                | CnfErrorKind::EmptyOptionName
                | CnfErrorKind::EmptyDirective
                | CnfErrorKind::IncludeDirUnreadable
        )
    }

    /// A stable kebab-case name for reports (`unclosed-group`).
    pub fn as_str(self) -> &'static str {
        match self {
            CnfErrorKind::Io => "io",
            CnfErrorKind::IncludeDirAbsent => "include-dir-absent",
            CnfErrorKind::InvalidUtf8 => "invalid-utf8",
            CnfErrorKind::ByteOrderMark => "byte-order-mark",
            CnfErrorKind::UnclosedGroup => "unclosed-group",
            CnfErrorKind::GroupTrailingText => "group-trailing-text",
            CnfErrorKind::GroupLeadingWhitespace => "group-leading-whitespace",
            CnfErrorKind::OptionWithoutGroup => "option-without-group",
            CnfErrorKind::InvalidOptionName => "invalid-option-name",
            CnfErrorKind::EmptyOptionName => "empty-option-name",
            CnfErrorKind::EmptyDirective => "empty-directive",
            CnfErrorKind::UnknownDirective => "unknown-directive",
            CnfErrorKind::IncludeNotFound => "include-not-found",
            CnfErrorKind::IncludeUnreadable => "include-unreadable",
            CnfErrorKind::IncludeDirUnreadable => "includedir-unreadable",
            CnfErrorKind::IncludeCycle => "include-cycle",
            CnfErrorKind::IncludeTooDeep => "include-too-deep",
            CnfErrorKind::IncludeBudget => "include-budget",
            CnfErrorKind::WorldWritable => "world-writable",
        }
    }
}

impl fmt::Display for CnfErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A problem in an option file, with where it is.
/// Displays as `file:line:col: message`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{location}: {message}")]
pub struct CnfError {
    pub location: SourceLocation,
    pub kind: CnfErrorKind,
    pub message: String,
    /// The group the line is in (lowercase, as written), for a line inside
    /// one: whether the server even reads the line depends on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

/// A problem on one line of a [`crate::cnf::Document`], before it is tied to a
/// file: the column (1-based, in characters) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    pub kind: CnfErrorKind,
    pub column: u32,
    pub message: String,
}

impl Issue {
    pub(crate) fn new(kind: CnfErrorKind, column: u32, message: impl Into<String>) -> Issue {
        Issue {
            kind,
            column,
            message: message.into(),
        }
    }
}
