//! A value of the wrong type, outside the allowed range, or not among the allowed values.
//!
//! An enum value the server does not accept stops it at start-up; a number out of range is silently
//! clamped, so the running value is not the written one. Either way the file does not say what the
//! server does.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT005"),
    name: "invalid-option-value",
    runs: Runs::Lint,
    severity: Severity::Crit,
    models: &[],
    sources: &[
        "https://dev.mysql.com/doc/refman/8.0/en/server-system-variables.html",
    ],
};
