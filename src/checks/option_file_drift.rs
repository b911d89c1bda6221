//! The running value differs from the option file's value.
//!
//! A variable changed online with SET GLOBAL lasts until the next restart, which then silently
//! brings back the file's value: the server that was tuned is not the server that comes back.
//! Persist the change in the option file (or SET PERSIST where the server has it), or revert it.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT011"),
    name: "option-file-drift",
    runs: Runs::CheckConfig,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://dev.mysql.com/doc/refman/8.0/en/set-variable.html",
        "https://mariadb.com/kb/en/set/",
        "https://dev.mysql.com/doc/refman/8.0/en/option-files.html",
    ],
};
