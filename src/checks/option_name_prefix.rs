//! A prefix of an option name instead of the name.
//!
//! MariaDB takes a unique prefix of an option name as that option and notes it at start-up (sort =
//! 1M sets sort_buffer_size); a prefix of several names is ambiguous and stops the start. Any new
//! option with the same prefix makes a working line ambiguous, and MySQL 5.7 and later accept no
//! prefixes at all, so write the full name.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT014"),
    name: "option-name-prefix",
    runs: Runs::Lint,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://mariadb.com/kb/en/mariadbd-options/",
        "https://dev.mysql.com/worklog/task/?id=6978",
    ],
};
