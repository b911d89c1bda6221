//! A `# mytune: ignore` comment that silences nothing.
//!
//! A suppression is a promise that a finding was looked at and accepted. Once the line is fixed or
//! the rule no longer fires there, the comment only hides the next, different problem on that line;
//! reporting it keeps suppressions few and current (ruff does the same with unused noqa).

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT009"),
    name: "unused-suppression",
    runs: Runs::Lint,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://docs.astral.sh/ruff/rules/unused-noqa/",
    ],
};
