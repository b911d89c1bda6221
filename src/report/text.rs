//! Plain-text findings, one line each, `file:line:col: CODE [severity] message`
//! the way compilers and ruff print them, so editors can jump to the line.
//! Paths and messages are escaped ([`super::safe`]): one finding is one line.

use std::fmt::Write;

use super::Counts;
use super::safe::escape;
use crate::rules::Finding;

/// One line per finding, then a summary line.
pub fn findings(findings: &[Finding], what: &str) -> String {
    let mut out = String::new();
    for f in findings {
        if let Some(loc) = &f.location {
            let _ = write!(out, "{}: ", escape(&loc.to_string()));
        }
        let _ = writeln!(
            out,
            "{} [{}] {}",
            escape(&f.code),
            f.severity,
            escape(&f.message)
        );
    }
    let c = Counts::of(findings);
    if c.total() == 0 {
        let _ = writeln!(out, "No problems found in {}.", escape(what));
    } else {
        let _ = writeln!(
            out,
            "Found {} problem{} ({} crit, {} warn, {} info) in {}.",
            c.total(),
            if c.total() == 1 { "" } else { "s" },
            c.crit,
            c.warn,
            c.info,
            escape(what)
        );
    }
    out
}
