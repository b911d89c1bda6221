//! An option the target server does not know.
//!
//! The server aborts at start-up on an unknown option in a group it reads ("unknown variable"),
//! unless the name carries the loose- prefix. A misspelled name is also a setting that silently
//! never took effect. Plugin options are unknown until the plugin is loaded: prefix them with
//! loose- when the plugin may be absent.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT002"),
    name: "unknown-option",
    runs: Runs::Lint,
    severity: Severity::Crit,
    models: &[],
    sources: &[
        "https://dev.mysql.com/doc/refman/8.0/en/option-modifiers.html",
        "https://dev.mysql.com/doc/refman/8.0/en/option-files.html",
    ],
};
