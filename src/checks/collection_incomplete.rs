//! A part of the server was not read: a missing privilege or a reply past --read-timeout.
//!
//! The rules that need the skipped part (the account audit, the data size, the grants) cannot run,
//! so the report is silent about them: silence is not a clean bill. Grant the privilege named, or
//! run mytune as an account that has it. A statement whose reply does not come within
//! --read-timeout (it waits for a lock, the server is overloaded) is abandoned with its connection,
//! so that no later statement reads its reply, and the part it reads is skipped; raise the timeout
//! or find what makes the statement wait.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT016"),
    name: "collection-incomplete",
    runs: Runs::Check,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://dev.mysql.com/doc/refman/8.0/en/privileges-provided.html",
    ],
};
