//! The server crashed or was stopped without a shutdown before its current start.
//!
//! A fatal signal or a failed assertion ends a run with a crash report in the error log (crit); a
//! run that ends with no 'Shutdown complete' at all was killed: by the kernel's out-of-memory
//! killer, a kill -9, or a power loss (warn). Either way the server restarted with InnoDB crash
//! recovery, lost its buffer pool and connections, and may do it again. Read the crash report
//! before the restart, check the kernel log for the OOM killer, and report a repeated crash as a
//! bug.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT020"),
    name: "unplanned-restart",
    runs: Runs::ErrorLog,
    severity: Severity::Crit,
    models: &[],
    sources: &[
        "https://mariadb.com/kb/en/error-log/",
        "https://dev.mysql.com/doc/refman/8.0/en/error-log.html",
    ],
};
