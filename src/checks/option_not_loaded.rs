//! An option file value the running server never loaded.
//!
//! The option file was edited after the server started (or the variable can only be set at
//! start-up), so the running server still uses another value. The file describes a server that does
//! not exist yet; the next restart changes behaviour, perhaps at a bad time.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT012"),
    name: "option-not-loaded",
    runs: Runs::CheckConfig,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://dev.mysql.com/doc/refman/8.0/en/option-files.html",
    ],
};
