//! An option that does nothing without another one the file leaves off.
//!
//! Some options only act with another: binlog_format, log_slave_updates and the binary log's expiry
//! do nothing while log_bin is off, and MariaDB warns about each at start-up. Either the binary log
//! was meant to be on, or the lines are dead weight that mislead the next reader.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT015"),
    name: "option-without-effect",
    runs: Runs::Lint,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://mariadb.com/kb/en/binary-log/",
    ],
};
