//! An option set more than once; only the last occurrence counts.
//!
//! The server applies option lines in reading order and the last one wins. An earlier line, perhaps
//! the one a reader finds first, has no effect; when the values differ, the file misleads whoever
//! edits it next.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT006"),
    name: "duplicate-option",
    runs: Runs::Lint,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://dev.mysql.com/doc/refman/8.0/en/option-files.html",
    ],
};
