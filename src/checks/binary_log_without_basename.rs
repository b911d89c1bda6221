//! The binary log turned on without a file name (log_bin bare or empty, or flashback).
//!
//! Without a name the binary log and its index are named after the host (HOSTNAME-bin.000001), and
//! MariaDB warns at start-up that replication breaks when this server is a source and its host name
//! changes: the new name finds no index and starts a new log sequence. Give the log a name (log_bin
//! = mysql-bin) or set log_basename, which names the relay logs and the index too.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT021"),
    name: "binary-log-without-basename",
    runs: Runs::Lint,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://mariadb.com/kb/en/replication-and-binary-log-system-variables/#log_bin",
        "https://mariadb.com/kb/en/mariadbd-options/#-log-basename",
    ],
};
