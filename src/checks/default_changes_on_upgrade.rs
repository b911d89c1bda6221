//! A variable the file leaves at its default, whose default changes in the release it is upgraded
//! to.
//!
//! An upgrade changes the server's behaviour even where the option file does not change: every
//! variable the file leaves unset takes the new release's default (MySQL 8.4's innodb_io_capacity
//! 10000 instead of 200, MariaDB 11.0's three undo tablespaces). `lint --from OLD --target NEW`
//! lists them from the two catalogs; `--fix --pin-defaults` writes the old defaults into the file
//! for an upgrade that should change nothing. MySQL Shell's upgrade checker reports the same for
//! MySQL.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT023"),
    name: "default-changes-on-upgrade",
    runs: Runs::Lint,
    severity: Severity::Info,
    models: &[],
    sources: &[
        "https://dev.mysql.com/doc/refman/8.4/en/mysql-nutshell.html",
    ],
};
