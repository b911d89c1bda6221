//! Failed logins in the error log since the server started.
//!
//! The server logs every refused login ('Access denied for user') when log_warnings is at least 2
//! (MariaDB, the default) or log_error_verbosity is 3 (MySQL). A few are typos or a client with a
//! stale password (info, from failed_logins_noted on); failed_logins_burst_per_minute or more
//! within one minute are a burst: a script retrying with a wrong password, or someone guessing
//! passwords. The accounts named tell which client to fix, or which address to block. Both
//! thresholds are model entries of the rule set, shown below.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

/// The model entry: failed logins from this many on are a note.
pub const NOTED: &str = "failed_logins_noted";
/// The model entry: this many within one minute are a burst.
pub const BURST_PER_MINUTE: &str = "failed_logins_burst_per_minute";

pub const CHECK: Check = Check {
    code: Code::from_static("MT019"),
    name: "access-denied-burst",
    runs: Runs::ErrorLog,
    severity: Severity::Warn,
    models: &[NOTED, BURST_PER_MINUTE],
    sources: &[
        "https://mariadb.com/kb/en/error-log/",
        "https://dev.mysql.com/doc/refman/8.0/en/error-log.html",
        "https://mariadb.com/kb/en/server-system-variables/#log_warnings",
    ],
};
