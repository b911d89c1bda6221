//! A loose- option that is unknown but close to a known one.
//!
//! loose- turns an unknown option into a start-up warning instead of an error. That is right for
//! plugin options, but on a misspelled name it hides the mistake: the intended setting never takes
//! effect and nothing fails.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT008"),
    name: "loose-option-hides-typo",
    runs: Runs::Lint,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://dev.mysql.com/doc/refman/8.0/en/option-modifiers.html",
    ],
};
