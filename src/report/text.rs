//! Plain-text findings, one line each, `file:line:col: CODE [severity] message`
//! the way compilers and ruff print them, so editors can jump to the line.
//! Paths and messages are escaped ([`super::safe`]): one finding is one line.
//! A rule that gives one reason for several variables prints it once; the
//! following lines keep their locations and name their variables.

use std::fmt::Write;

use super::safe::escape;
use crate::rules::Finding;
use crate::rules::finding::Counts;

/// One line per finding, then a summary line.
pub fn findings(findings: &[Finding], what: &str) -> String {
    findings_to_width(findings, what, None)
}

/// [`findings`], each finding's line wrapped to `width` (continuation lines
/// indented) when the output goes to a terminal of that width; `None`
/// keeps one line per finding, for tools that read the lines.
pub fn findings_to_width(findings: &[Finding], what: &str, width: Option<u16>) -> String {
    let text = one_line_each(findings, what);
    match width {
        None => text,
        Some(w) => text
            .lines()
            .map(|l| crate::wrap::fill(l, usize::from(w), "    ") + "\n")
            .collect(),
    }
}

fn one_line_each(findings: &[Finding], what: &str) -> String {
    let mut out = String::new();
    let mut previous: Option<&Finding> = None;
    for f in findings {
        if let Some(loc) = &f.location {
            let _ = write!(out, "{}: ", escape(&loc.to_string()));
        }
        // One rule, one reason, several variables (MT304's four buffers):
        // the message once, each further line names its variable.
        let repeated = previous.is_some_and(|p| p.code == f.code && p.message == f.message);
        let message = match (&f.variable, repeated) {
            (Some(var), true) => format!("{var}: as above"),
            _ => f.message.clone(),
        };
        let _ = writeln!(
            out,
            "{} [{}] {}",
            escape(&f.code),
            f.severity,
            escape(&message)
        );
        previous = Some(f);
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
        let fixable = findings.iter().filter(|f| f.fix.is_some()).count();
        if fixable > 0 {
            let _ = writeln!(
                out,
                "{fixable} of them can be fixed with `mytune lint --fix` (`--diff` shows how)."
            );
        }
    }
    out
}
