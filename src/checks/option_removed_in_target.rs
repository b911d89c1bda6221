//! An option the target version no longer has.
//!
//! Options removed in a release (the query cache in MySQL 8.0, innodb_log_files_in_group in MariaDB
//! 10.6, expire_logs_days in MySQL 8.4) make the new server refuse to start, which is how upgrades
//! fail at 3 a.m. The finding names the replacement when there is one.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT003"),
    name: "option-removed-in-target",
    runs: Runs::Lint,
    severity: Severity::Crit,
    models: &[],
    sources: &[
        "https://dev.mysql.com/doc/refman/8.0/en/added-deprecated-removed.html",
        "https://mariadb.com/kb/en/server-system-variables/",
    ],
};
