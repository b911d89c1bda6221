//! A line the server cannot read (or would read differently than it looks).
//!
//! mysqld stops at start-up on a line it cannot parse (an option before any group, an unclosed
//! group header, an unterminated quote, a missing include). A server that does not start is the
//! worst outcome of a configuration change, so these are reported before anything else.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT001"),
    name: "option-file-syntax-error",
    runs: Runs::Lint,
    severity: Severity::Crit,
    models: &[],
    sources: &[
        "https://dev.mysql.com/doc/refman/8.0/en/option-files.html",
        "https://mariadb.com/kb/en/configuring-mariadb-with-option-files/",
    ],
};
