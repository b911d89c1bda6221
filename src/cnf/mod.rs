//! Option files (`my.cnf`) read with MySQL's own rules, and written back
//! without losing a byte.
//!
//! Why a hand-written parser: option files look like INI but are not. The
//! server's reader (`mysys/my_default.cc`, the same in MySQL, Percona Server
//! and MariaDB) has its own comment, quoting, escaping, include and
//! "option before any group" rules, and a linter that disagrees with the
//! server about what a line means gives wrong findings. Everything here follows
//! that reader; where mytune deliberately differs it says so:
//!
//! - a UTF-8 byte-order mark is skipped (MySQL reads it as text and refuses
//!   the file; reported as [`CnfErrorKind::ByteOrderMark`]);
//! - an option name with whitespace (`datadir {{ mysqldir }}`) is reported
//!   where it is, instead of as "unknown option" at startup;
//! - `!include` paths are resolved relative to the including file's directory
//!   (the server uses its working directory, meaningless for a file under
//!   review); `~/` is the home directory in both;
//! - include cycles are cut at the first repeat instead of at depth 10;
//! - lines longer than the server's 4 KiB buffer are read whole;
//! - the problems the server meets one at a time (it stops at the first fatal
//!   one) are all collected.
//!
//! Group names: the server trims trailing (not leading) whitespace inside the
//! brackets and compares without case. [`OptionEntry::group`] keeps the name
//! as written (lowercased) so a linter can point at `[mysqld ]`;
//! [`group_as_read`] gives what the server compares.
//!
//! - [`Document`] is the lossless, editable view of one file (for generators
//!   and fixers): `Document::parse(text).to_string() == text`.
//! - [`load`] / [`load_str`] read a file and everything it includes into
//!   [`OptionEntry`]s plus every problem found ([`CnfError`]), never stopping at
//!   the first one.
//! - [`LoadedFiles::effective`] answers "what would this server start with".

mod document;
mod effective;
mod error;
mod groups;
mod loader;
mod names;
mod syntax;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::facts::SourceLocation;

pub use document::{Document, EditError, Line, LineEnding, LineKind};
pub use error::{CnfError, CnfErrorKind, Issue};
pub use groups::{any_client_groups, client_groups, default_files, group_as_read, server_groups};
pub use loader::{
    MAX_FILE_SIZE, MAX_INCLUDE_DEPTH, MAX_INCLUDED_BYTES, MAX_INCLUDED_FILES, load, load_str,
};
pub use names::{
    FLAG_SET_OPTIONS, OPTIONS_NAMED_WITH_A_PREFIX, REPEATABLE_OPTIONS, canonical_name, is_flag_set,
    is_repeatable, merge_flags, split_name, split_name_with,
};
pub(crate) use syntax::comment_start;
pub use syntax::{format_value, unquote_value};

/// A prefix that changes how the server reads an option name
/// (`loose-`, `skip-`, `disable-`, `enable-`, `maximum-`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Modifier {
    /// No prefix.
    None,
    /// `loose-`: an unknown option is a warning instead of a startup error.
    /// (Also see [`OptionEntry::loose`], which stays set when `loose-` is
    /// combined with another prefix.)
    Loose,
    /// `skip-`: sets a boolean option to OFF.
    Skip,
    /// `disable-`: same as `skip-`.
    Disable,
    /// `enable-`: sets a boolean option to ON.
    Enable,
    /// `maximum-`: sets the upper bound a session may `SET` the variable to;
    /// it does not set the variable itself.
    Maximum,
}

impl Modifier {
    /// The prefix as written, without its separator (`"skip"`), or `""`.
    pub fn as_str(self) -> &'static str {
        match self {
            Modifier::None => "",
            Modifier::Loose => "loose",
            Modifier::Skip => "skip",
            Modifier::Disable => "disable",
            Modifier::Enable => "enable",
            Modifier::Maximum => "maximum",
        }
    }
}

/// One option line as the server reads it, after includes are resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionEntry {
    /// The group it is in, lowercased but otherwise as written between the
    /// brackets: `[mysqld ]` gives `"mysqld "`, so a linter can point at it.
    /// The server trims trailing (not leading) whitespace before it compares
    /// group names; [`group_as_read`] does the same.
    pub group: String,
    /// The name as written, e.g. `loose-innodb-buffer-pool-size`.
    pub raw_name: String,
    /// Canonical name: prefixes stripped, lowercase, `-` → `_`
    /// (`innodb_buffer_pool_size`). Options whose real name starts with a
    /// prefix word keep it (`skip_name_resolve`, see
    /// [`OPTIONS_NAMED_WITH_A_PREFIX`]).
    pub name: String,
    /// The value with quotes removed and escapes applied; `None` for a bare
    /// name (`skip-name-resolve`, `general_log`).
    pub value: Option<String>,
    /// The last prefix the server strips, which decides the meaning
    /// (`loose-skip-x` → [`Modifier::Skip`]).
    pub modifier: Modifier,
    /// A `loose-` prefix was present anywhere in the prefix chain.
    pub loose: bool,
    /// File, line and column of the name.
    pub location: SourceLocation,
}

impl OptionEntry {
    /// The group name as the server compares it (trailing whitespace trimmed).
    pub fn group_as_read(&self) -> &str {
        group_as_read(&self.group)
    }
}

/// Everything read from one top file and its includes.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct LoadedFiles {
    /// Files read, in reading order (the top file first, includes where they
    /// were included).
    pub files: Vec<PathBuf>,
    /// Options in reading order (the order the server applies them).
    pub entries: Vec<OptionEntry>,
    /// Every problem found, in reading order.
    pub errors: Vec<CnfError>,
    /// The text of each of `files` as read (same order), so that a fixer
    /// can rewrite a line it points at. Never serialized: it may hold
    /// passwords.
    #[serde(skip)]
    pub texts: Vec<String>,
}

impl LoadedFiles {
    /// The text of line `loc.line` (1-based) of the file `loc.file`, without
    /// its line ending, as it was read.
    pub fn line_text(&self, loc: &SourceLocation) -> Option<&str> {
        let i = self.files.iter().position(|f| *f == loc.file)?;
        let text = self.texts.get(i)?;
        let line = text
            .split('\n')
            .nth(usize::try_from(loc.line).ok()?.checked_sub(1)?)?;
        Some(line.strip_suffix('\r').unwrap_or(line))
    }
}
