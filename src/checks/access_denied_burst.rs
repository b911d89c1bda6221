//! Failed logins in the error log since the server started.
//!
//! The server logs every refused login ('Access denied for user') when log_warnings is at least 2
//! (MariaDB, the default) or log_error_verbosity is 3 (MySQL). A few are typos or a client with a
//! stale password (info, from 5 on); 20 or more within one minute are a burst: a script retrying
//! with a wrong password, or someone guessing passwords. The accounts named tell which client to
//! fix, or which address to block.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT019"),
    name: "access-denied-burst",
    runs: Runs::ErrorLog,
    severity: Severity::Warn,
    sources: &[
        "https://mariadb.com/kb/en/error-log/",
        "https://dev.mysql.com/doc/refman/8.0/en/error-log.html",
        "https://mariadb.com/kb/en/server-system-variables/#log_warnings",
    ],
};
