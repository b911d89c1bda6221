//! A Markdown report: a summary line and a table of findings, for a
//! pull-request comment or `$GITHUB_STEP_SUMMARY`. Everything from a file
//! (paths, values in messages) goes through [`super::safe::markdown`], so
//! no value becomes HTML, a link or another cell.

use std::fmt::Write;

use super::safe::{markdown as cell, markdown_code};
use crate::rules::Finding;
use crate::rules::finding::Counts;

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
            .map(|l| markdown_code(&l.to_string()))
            .unwrap_or_default();
        let code = match f.sources.iter().find_map(|s| s.url.as_deref()) {
            Some(u) => format!("[{}]({u} \"{}\")", f.code, cell(&f.name)),
            None => f.code.to_string(),
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
