//! A baseline entry that matches no finding any more.
//!
//! A baseline accepts the findings a repository had when it adopted mytune. Once one is fixed (or
//! its line changed), its entry would silently accept the next finding that happens to match;
//! reporting it keeps the baseline shrinking, as unused suppressions are reported (MT009).

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT022"),
    name: "unused-baseline-entry",
    runs: Runs::Lint,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://docs.astral.sh/ruff/rules/unused-noqa/",
    ],
};
