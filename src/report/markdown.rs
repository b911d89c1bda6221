//! A Markdown report: a summary line and a table of findings, for a
//! pull-request comment or `$GITHUB_STEP_SUMMARY`.

use std::fmt::Write;

use super::Counts;
use crate::rules::Finding;

/// Escape text for a table cell.
fn cell(s: &str) -> String {
    // Line breaks become spaces (a table row is one line); other control
    // characters are written as escapes, so no value starts a line.
    super::safe::escape(&s.replace(['\n', '\r'], " "))
        .replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('<', "&lt;")
}

pub fn render(findings: &[Finding], what: &str) -> String {
    let mut out = String::from("## mytune lint\n\n");
    let c = Counts::of(findings);
    if c.total() == 0 {
        let _ = writeln!(out, "No problems found in {}.", cell(what));
        return out;
    }
    let _ = writeln!(
        out,
        "**{} problem{}** ({} crit, {} warn, {} info) in {}.\n",
        c.total(),
        if c.total() == 1 { "" } else { "s" },
        c.crit,
        c.warn,
        c.info,
        cell(what)
    );
    out.push_str("| severity | code | location | message |\n|---|---|---|---|\n");
    for f in findings {
        let loc = f
            .location
            .as_ref()
            .map(|l| format!("`{}`", cell(&l.to_string())))
            .unwrap_or_default();
        let code = match f.sources.iter().find_map(|s| s.url.as_deref()) {
            Some(u) => format!("[{}]({u} \"{}\")", f.code, cell(&f.name)),
            None => f.code.clone(),
        };
        let _ = writeln!(
            out,
            "| {} | {code} | {loc} | {} |",
            f.severity,
            cell(&f.message)
        );
    }
    out
}
