//! The server could not raise its open-files limit at start-up.
//!
//! The server computes how many file descriptors it needs from max_connections, table_open_cache
//! and open_files_limit, and raises its own limit at start-up. When the process's hard limit is
//! lower it logs 'Could not increase number of max_open_files', runs with the lower
//! open_files_limit, and may lower max_connections and table_open_cache ('Changed limits'). That is
//! why open_files_limit can be lower than configured. For a server started by systemd the limit is
//! LimitNOFILE in its unit (limits.conf applies only to login sessions); raise it and restart.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT018"),
    name: "open-files-limit-capped",
    runs: Runs::ErrorLog,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://mariadb.com/kb/en/error-log/",
        "https://dev.mysql.com/doc/refman/8.0/en/error-log.html",
        "https://dev.mysql.com/doc/refman/8.0/en/using-systemd.html",
    ],
};
