//! Error-log facts: what the tail of the server's `log_error` file says,
//! parsed into evidence. The raw log never enters the facts (it can hold a
//! temporary root password, or an option value that is a secret): only
//! option names, numbers, `user@host` pairs of failed logins and timestamps
//! as the server wrote them.

use serde::{Deserialize, Serialize};

/// The error log of a local server, as far as it could be read.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ErrorLogFacts {
    /// `log_error` as the server reported it (empty: standard error).
    #[serde(default)]
    pub setting: String,
    /// The file it names, resolved against the datadir.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    pub status: ErrorLogStatus,
    /// Why it was not read (`permission denied`), or what limits what was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Size of the file when read.
    #[serde(default)]
    pub file_bytes: u64,
    /// Bytes read from its end (at most the tail bound).
    #[serde(default)]
    pub bytes_read: u64,
    /// Lines parsed (at most the line bound).
    #[serde(default)]
    pub lines_read: u64,
    /// The tail does not reach the start of the file.
    #[serde(default)]
    pub truncated: bool,
    /// The earliest timestamp in what was read, as logged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_seen: Option<String>,
    /// The last start of a server in what was read, as logged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_start: Option<String>,
    /// Does that start agree with the server's `Uptime` (within two
    /// minutes)? `None` when no start was read or it cannot be placed in
    /// time. When `false`, the log describes another server or another
    /// start, and no finding is drawn from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_matches_uptime: Option<bool>,
    #[serde(default)]
    pub events: ErrorLogEvents,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorLogStatus {
    /// A tail of the file was read and parsed.
    Read,
    /// The file does not exist (on this machine).
    Absent,
    /// It exists but cannot be read by this user.
    Unreadable,
    /// It is not a regular file (a pipe, a device).
    NotAFile,
    /// `log_error` is empty or standard error: the log goes wherever the
    /// server's standard error goes (the journal under systemd).
    Stderr,
    /// The server is not on this machine.
    #[default]
    NotLocal,
}

/// What the log says since the server's current start (and about the
/// stop before it).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ErrorLogEvents {
    /// Server starts seen in the tail.
    #[serde(default)]
    pub starts: u32,
    /// Option warnings of the current start, one per option and kind.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionWarning>,
    /// "Could not increase number of max_open_files" at the current start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_files: Option<OpenFilesCapped>,
    /// "Changed limits": variables the server lowered at its start because
    /// of the open-files limit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed_limits: Vec<ChangedLimit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_denied: Option<AccessDenied>,
    /// How the run before the current start ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_stop: Option<Stop>,
    /// Crashes of runs before that one, oldest first (at most 10).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_crashes: Vec<Stop>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionWarning {
    /// Normalized: lowercase, underscores, without `--` and `loose-`.
    pub option: String,
    pub kind: OptionWarningKind,
    /// `50 adjusted to 100`, the replacement, or the full name of a prefix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionWarningKind {
    /// MariaDB keeps it as a no-op ("was removed. It does nothing now").
    Removed,
    /// Unknown to the server, skipped because of `loose-`.
    Unknown,
    /// Out of range: the server used another value.
    Adjusted,
    /// Still works; scheduled for removal.
    Deprecated,
    /// A unique prefix of a longer name (MariaDB).
    Prefix,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenFilesCapped {
    /// What the process got.
    pub limit: u64,
    /// What the server asked for.
    pub requested: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedLimit {
    pub variable: String,
    pub value: u64,
    pub requested: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AccessDenied {
    pub count: u64,
    /// The most failures within any 60 seconds.
    pub peak_per_minute: u64,
    /// Distinct `'user'@'host'` pairs.
    pub accounts: u64,
    /// The most frequent pairs, most first (at most 3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub top: Vec<AccountCount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountCount {
    /// `'user'@'host'` as logged (clipped).
    pub account: String,
    pub count: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stop {
    pub kind: StopKind,
    /// When it happened, as logged (the crash line, the shutdown line, or
    /// the last line of that run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// `signal 11`, `assertion failure`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The start that followed, as logged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restarted_at: Option<String>,
    /// InnoDB ran crash recovery at the start that followed.
    #[serde(default)]
    pub recovery: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopKind {
    /// "Shutdown complete".
    Clean,
    /// A fatal signal or a failed assertion.
    Crash,
    /// No shutdown was logged (killed, out of memory, power loss).
    Unclean,
}
