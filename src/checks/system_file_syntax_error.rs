//! A sysctl, limits or systemd drop-in line that cannot be read.
//!
//! sysctl -p / systemd-sysctl, pam_limits and systemd skip a line they cannot parse and log it
//! where nobody looks: the setting on that line is simply not applied, and the OS rules cannot
//! judge it either.

use crate::rules::builtin_check::{Check, Runs};
use crate::rules::{Code, Severity};

pub const CHECK: Check = Check {
    code: Code::from_static("MT010"),
    name: "system-file-syntax-error",
    runs: Runs::Lint,
    severity: Severity::Warn,
    models: &[],
    sources: &[
        "https://man7.org/linux/man-pages/man5/sysctl.conf.5.html",
        "https://man7.org/linux/man-pages/man5/limits.conf.5.html",
        "https://www.freedesktop.org/software/systemd/man/latest/systemd.exec.html#Process%20Properties",
    ],
};
