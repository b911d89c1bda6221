//! A server option in a group the target server never reads.
//!
//! Only [mysqld], [server], [mysqld-X.Y] (and for MariaDB [mariadb], [mariadbd], [mariadb-X.Y],
//! [client-server]) reach the server. A server setting under [client], [mysql] or a misspelled
//! group is silently ignored by the server, and client programs may refuse the unknown option.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT007"),
    name: "server-option-in-unread-group",
    runs: Runs::Lint,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://dev.mysql.com/doc/refman/8.0/en/option-files.html",
        "https://mariadb.com/kb/en/configuring-mariadb-with-option-files/",
    ],
};
