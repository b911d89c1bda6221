//! The server ignored, removed or adjusted options from its option files at its start.
//!
//! At start-up the server logs every option it could not use as written: options it no longer has
//! (MariaDB keeps some as no-ops, 'was removed. It does nothing now'), unknown options skipped
//! because of loose-, and values out of range that it adjusted. The option file then says something
//! the running server does not do, and the next version may refuse to start with it. Remove the
//! ignored options, write values in range, and move deprecated names to their replacements.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT017"),
    name: "option-ignored-at-startup",
    runs: Runs::ErrorLog,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://mariadb.com/kb/en/error-log/",
        "https://dev.mysql.com/doc/refman/8.0/en/error-log.html",
    ],
};
