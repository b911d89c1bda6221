//! Config facts: the effective server options read from option files, each
//! with the file and line it came from, so findings can point at it.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// A place in an option file (or another text input). Lines and columns are
/// 1-based; column 0 means "the whole line".
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SourceLocation {
    pub file: PathBuf,
    pub line: u32,
    #[serde(default)]
    pub column: u32,
}

impl fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One format everywhere: `file:line:col`, col 1 when unknown (the
        // whole line); a location without a line is the file alone.
        if self.line == 0 {
            write!(f, "{}", self.file.display())
        } else {
            write!(
                f,
                "{}:{}:{}",
                self.file.display(),
                self.line,
                self.column.max(1)
            )
        }
    }
}

/// The options a server would start with, after includes, group selection and
/// "last one wins".
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ConfigFacts {
    /// Files read, in the order they were read (includes expanded).
    pub files: Vec<PathBuf>,
    /// The groups the target server reads, in precedence order.
    pub groups: Vec<String>,
    /// Effective options by canonical name (lowercase, underscores, no
    /// `loose-`/`skip-` prefix).
    pub options: BTreeMap<String, ConfigOption>,
}

/// One effective option.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigOption {
    /// Canonical name (`innodb_buffer_pool_size`).
    pub name: String,
    /// The value as the server would see it: `ON`/`OFF` for `skip-`/`enable-`
    /// and bare names, the unquoted text otherwise.
    pub value: String,
    /// Where the winning occurrence is.
    pub location: SourceLocation,
    /// The group it was read from (`mysqld`, `mariadb-10.11`, …).
    pub group: String,
    /// Written with the `loose-` prefix.
    #[serde(default)]
    pub loose: bool,
    /// Earlier occurrences that this one overrides, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shadowed: Vec<SourceLocation>,
}
