//! An option deprecated in the target version.
//!
//! Deprecated options still work but are scheduled for removal, and some are already ignored
//! (MariaDB ≥ 10.5 accepts and ignores innodb_thread_concurrency). Moving to the replacement now
//! keeps the next upgrade from failing.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT004"),
    name: "option-deprecated",
    runs: Runs::Lint,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://dev.mysql.com/doc/refman/8.0/en/added-deprecated-removed.html",
    ],
};
