//! The `check` report as Markdown, for tickets and wikis: a facts table,
//! findings per severity in tables, the suggested changes in an `ini` code
//! block, and the summary line. What came from the server or a file (user
//! names of failed logins, variable values, paths) goes through
//! [`super::safe`]'s Markdown helpers, as in lint's Markdown.

use std::fmt::Write;

use super::check_text::{flavor_name, option_file_part, sql_part, summary_line};
use super::safe::{markdown as cell, markdown_code as code, markdown_fence};
use crate::check::CheckReport;
use crate::units;

pub fn render(r: &CheckReport) -> String {
    let h = &r.header;
    let mut out = format!(
        "# mytune check: {} {}\n\n",
        flavor_name(h.flavor),
        h.version
    );
    out.push_str("| | |\n|---|---|\n");
    let _ = writeln!(out, "| Server | {} |", cell(&h.version_string));
    let _ = writeln!(out, "| Source | {} |", cell(&h.source));
    if let Some(m) = &h.memory {
        let _ = writeln!(
            out,
            "| Memory | {} ({}) |",
            units::human_size(m.value),
            cell(&m.source)
        );
    }
    if let Some(c) = &h.cpus {
        let _ = writeln!(out, "| CPUs | {} ({}) |", c.value, cell(&c.source));
    }
    let _ = writeln!(out, "| Uptime | {} |", cell(&h.counters.note));
    for (label, text) in h.context_lines() {
        let _ = writeln!(out, "| {} | {} |", cell(label), cell(&text));
    }
    if !h.config_files.is_empty() {
        let _ = writeln!(
            out,
            "| Option files | {} |",
            cell(&h.config_files.join(", "))
        );
    }
    for s in &h.skipped {
        let _ = writeln!(out, "| Skipped | {}: {} |", cell(&s.what), cell(&s.reason));
    }
    if let Some(note) = &h.error_log {
        let _ = writeln!(out, "| Error log | {} |", cell(note));
    }
    for (severity, rows) in super::by_severity(&r.findings) {
        let _ = writeln!(
            out,
            "\n## {} ({})\n",
            severity.to_string().to_uppercase(),
            rows.len()
        );
        out.push_str("| Code | Family | Variable | Current → recommended | Why |\n");
        out.push_str("|---|---|---|---|---|\n");
        for group in super::fold_same_message(&rows) {
            let f = group[0];
            let mut vars = Vec::new();
            let mut changes = Vec::new();
            for f in &group {
                let mut var = f.variable.as_deref().map(code).unwrap_or_default();
                if let Some(loc) = &f.location {
                    let _ = write!(var, " ({})", cell(&loc.to_string()));
                }
                vars.push(var);
                changes.push(match (&f.current, &f.recommended) {
                    (Some(c), Some(rec)) => format!("{} → {}", code(c), code(rec)),
                    (Some(c), None) => code(c),
                    (None, Some(rec)) => format!("→ {}", code(rec)),
                    (None, None) => String::new(),
                });
            }
            let (var, change) = (vars.join("<br>"), changes.join("<br>"));
            let _ = writeln!(
                out,
                "| {} `{}` | {} | {var} | {change} | {} |",
                f.code,
                f.name,
                f.family,
                cell(&f.message)
            );
        }
    }
    if !r.changes.is_empty() {
        out.push_str("\n## Suggested changes\n");
        if let Some(sql) = sql_part(r) {
            let fence = markdown_fence(&sql);
            let _ = write!(out, "\n{fence}sql\n{sql}{fence}\n");
        }
        let block = option_file_part(r);
        let fence = markdown_fence(&block);
        let _ = write!(out, "\n{fence}ini\n{block}{fence}\n");
    }
    if !r.not_applicable.is_empty() {
        out.push_str("\n## Not applicable\n\n");
        for n in &r.not_applicable {
            let _ = writeln!(out, "- {}: {}", n.code, cell(&n.reason));
        }
    }
    let _ = writeln!(out, "\n{}", summary_line(r));
    out
}
