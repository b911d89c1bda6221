//! What the catalog says about one variable: its type, default, whether it can
//! change at run time, whether it is a system variable at all, and whether the
//! target still has it.
//!
//! These are plain data so the linter, the rule engine and the generators can
//! all reason about the same facts without re-reading the raw server lists.

use std::fmt;

use crate::target::Version;

/// The type of a value, with the limits the server enforces.
#[derive(Debug, Clone, PartialEq)]
pub enum VarKind {
    /// `ON`/`OFF`, `1`/`0`, `TRUE`/`FALSE` in any case; a bare name means ON.
    Bool,
    /// A whole number (the server also reads K/M/G suffixes here).
    Integer {
        min: Option<i128>,
        max: Option<i128>,
    },
    /// A byte count: a whole number with an optional K/M/G/T/P/E suffix.
    /// `block`: the server rounds values down to a multiple of it.
    Size {
        min: Option<u64>,
        max: Option<u64>,
        block: Option<u64>,
    },
    Float {
        min: Option<f64>,
        max: Option<f64>,
    },
    /// One of `values` (matched in any case).
    Enum {
        values: Vec<String>,
    },
    /// A comma-separated subset of `values` (matched in any case).
    Set {
        values: Vec<String>,
    },
    String,
    /// A file or directory name.
    Path,
}

impl VarKind {
    /// Short name used in messages: `bool`, `integer`, `size`, ….
    pub fn name(&self) -> &'static str {
        match self {
            VarKind::Bool => "bool",
            VarKind::Integer { .. } => "integer",
            VarKind::Size { .. } => "size",
            VarKind::Float { .. } => "float",
            VarKind::Enum { .. } => "enum",
            VarKind::Set { .. } => "set",
            VarKind::String => "string",
            VarKind::Path => "path",
        }
    }
}

/// How the server's option parser takes an option's value (`my_getopt`'s
/// argument type), as the help output shows it: `--name=#` needs a value,
/// `--name[=#]` may go without one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ArgKind {
    /// Not recorded: judged by the kind (a number needs a value, a boolean
    /// does not).
    #[default]
    Unknown,
    /// `--name=value`: a bare name is refused.
    Required,
    /// `--name[=value]`: a bare name takes the option's implied value (a
    /// number 1, a boolean or an enum of two or more values ON or its
    /// second value).
    Optional,
    /// `--name`: no value at all.
    NoArg,
}

/// Whether the target still has a variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarStatus {
    Current,
    Deprecated {
        since: Option<Version>,
        replacement: Option<String>,
    },
    Removed {
        since: Option<Version>,
        replacement: Option<String>,
    },
    /// Newer servers have it, this series' own data does not: it came in
    /// `since` (the first series after the newest server output without it;
    /// a series start, `9.0.0`, when the data says no more).
    Introduced {
        since: Option<Version>,
    },
}

impl VarStatus {
    pub fn is_current(&self) -> bool {
        matches!(self, VarStatus::Current)
    }
    pub fn is_deprecated(&self) -> bool {
        matches!(self, VarStatus::Deprecated { .. })
    }
    pub fn is_removed(&self) -> bool {
        matches!(self, VarStatus::Removed { .. })
    }
    /// Not yet in the series (as seen by [`VarInfo::status_at`]: not yet at
    /// that release).
    pub fn is_introduced_later(&self) -> bool {
        matches!(self, VarStatus::Introduced { .. })
    }
    /// The series has it (current or deprecated): neither removed nor yet
    /// to come.
    pub fn exists(&self) -> bool {
        !self.is_removed() && !self.is_introduced_later()
    }
    /// The variable to use instead, when the manual names one.
    pub fn replacement(&self) -> Option<&str> {
        match self {
            VarStatus::Current | VarStatus::Introduced { .. } => None,
            VarStatus::Deprecated { replacement, .. } | VarStatus::Removed { replacement, .. } => {
                replacement.as_deref()
            }
        }
    }
    /// The version the deprecation or removal happened in, when known.
    pub fn since(&self) -> Option<Version> {
        match self {
            VarStatus::Current => None,
            VarStatus::Deprecated { since, .. }
            | VarStatus::Removed { since, .. }
            | VarStatus::Introduced { since } => *since,
        }
    }
}

impl fmt::Display for VarStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (word, since, repl) = match self {
            VarStatus::Current => return f.write_str("current"),
            VarStatus::Introduced { since } => {
                f.write_str("introduced later")?;
                if let Some(v) = since {
                    write!(f, " (in {v})")?;
                }
                return Ok(());
            }
            VarStatus::Deprecated { since, replacement } => ("deprecated", since, replacement),
            VarStatus::Removed { since, replacement } => ("removed", since, replacement),
        };
        f.write_str(word)?;
        if let Some(v) = since {
            write!(f, " since {v}")?;
        }
        if let Some(r) = repl {
            write!(f, " (use {r})")?;
        }
        Ok(())
    }
}

/// One server option or system variable of one target.
#[derive(Debug, Clone, PartialEq)]
pub struct VarInfo {
    /// Canonical name: lowercase, underscores.
    pub name: String,
    pub kind: VarKind,
    /// The default as the server reports it; `None` when it is NULL, empty in
    /// the sources, or depends on the machine.
    pub default: Option<String>,
    /// `SET GLOBAL` can change it without a restart.
    pub dynamic: bool,
    /// `false`: a command-line / option-file option only (`SHOW VARIABLES`
    /// does not list it).
    pub sysvar: bool,
    pub status: VarStatus,
    /// Flavor nuance worth telling a user (e.g. an Enterprise-only value).
    pub note: Option<String>,
    /// `None`: built into the server binary. Otherwise what must be loaded
    /// for the option to exist, named as a user writes it in `plugin-load`,
    /// `plugin-load-add` or `early-plugin-load`: the library's file name
    /// without directory, extension and `ha_` prefix (`ha_rocksdb.so` →
    /// `rocksdb`, `semisync_master.so` → `semisync_master`, `audit_log`,
    /// `group_replication`, `validate_password`), or a component's name
    /// (`component_validate_password`, loaded with `INSTALL COMPONENT`).
    /// See [`crate::catalog::plugins_in_load_value`].
    pub plugin: Option<String>,
    /// Whether the option needs a value (see [`ArgKind`]).
    pub arg: ArgKind,
}

/// The note that marks an option a build may lack (`only on builds with
/// NUMA support`): the server has it only when compiled with a feature.
const BUILD_NOTE: &str = "only on builds with ";

/// The note that marks an option of debug builds only (a test-suite result
/// of a debug build lists it, no release server's output does).
const DEBUG_NOTE: &str = "only on debug builds";

impl VarInfo {
    /// What a build needs for the option to exist (`NUMA support`,
    /// `debugging`), when the catalog says only some builds have it.
    pub fn build_condition(&self) -> Option<&str> {
        let note = self.note.as_deref()?;
        if note == DEBUG_NOTE {
            return Some("debugging");
        }
        note.strip_prefix(BUILD_NOTE)
    }

    /// Only debug builds have it: the release builds everyone runs refuse it.
    pub fn release_builds_lack(&self) -> bool {
        self.note.as_deref() == Some(DEBUG_NOTE)
    }

    /// The status as seen by a server at version `v` of the catalog's series:
    /// a deprecation or removal that happened after `v` is not yet in effect
    /// there (e.g. `tx_isolation` is deprecated since 5.7.20, so current on
    /// 5.7.19). A removal after `v` is reported as `Current`: the catalog
    /// does not record whether it was deprecated in between.
    pub fn status_at(&self, v: Version) -> VarStatus {
        match (&self.status, self.status.since()) {
            // Introduced: current from `since` on.
            (VarStatus::Introduced { .. }, Some(since)) if since <= v => VarStatus::Current,
            (VarStatus::Introduced { .. }, _) => self.status.clone(),
            (_, Some(since)) if since > v => VarStatus::Current,
            _ => self.status.clone(),
        }
    }
}
