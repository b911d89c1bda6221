//! An option in the file that the running server does not have.
//!
//! The running server has no variable of that name: a misspelling hidden by loose-, a plugin that
//! is not loaded, or an option of another version. The setting has no effect; without loose- the
//! server would refuse to start with this file.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT013"),
    name: "option-unknown-to-server",
    runs: Runs::CheckConfig,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://dev.mysql.com/doc/refman/8.0/en/option-modifiers.html",
        "https://dev.mysql.com/doc/refman/8.0/en/option-files.html",
    ],
};
