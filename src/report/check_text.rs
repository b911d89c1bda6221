//! The `check` report for people: a header, findings in tables grouped by
//! severity and family (comfy-table), the suggested-changes block that pastes
//! unchanged into an option file, and a one-line summary. Below
//! [`COMPACT_BELOW`] columns a five-column table leaves the "why" a handful
//! of characters per line, so each finding becomes a short block instead:
//! code, family, variable and change on one line, the why wrapped under it
//! (textwrap, never breaking a word). Header lines wrap at any width.
//!
//! Colour is the caller's choice (`--color`, `NO_COLOR`); this module only
//! applies it. Everything that came from the server or a file is escaped
//! and table cells are clipped ([`super::safe`]), so a value cannot start a
//! line and a 1 MB `sql_mode` lays out in linear time.

use std::fmt::Write;

use comfy_table::{Attribute, Cell, Color, ContentArrangement, Table, presets};

use super::safe::{clip, escape};
use crate::check::header::duration;
use crate::check::{Apply, CheckReport};
use crate::rules::{Finding, Severity};
use crate::target::Flavor;
use crate::units;

/// The most characters of a value or variable shown in a table cell.
const VALUE_MAX: usize = 300;

/// The most characters of a message shown in a table cell.
const MESSAGE_MAX: usize = 2_000;

/// Width the tables wrap to when the output is not a terminal.
pub const DEFAULT_WIDTH: u16 = 120;

/// Below this width findings are blocks, not tables.
pub const COMPACT_BELOW: u16 = 100;

/// Indent of a finding's why in the compact layout, and of a header
/// line's continuation (past `  label   `).
const WHY_INDENT: &str = "    ";
const HEADER_INDENT: &str = "          ";

/// How to draw: colours on or off, and the width tables wrap to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
    pub width: u16,
}

pub fn render(report: &CheckReport, style: Style) -> String {
    let mut out = String::new();
    header(&mut out, report, style);
    for (severity, rows) in super::by_severity(&report.findings) {
        let _ = writeln!(
            out,
            "\n{} ({})",
            paint(
                &severity.to_string().to_uppercase(),
                severity_color(severity),
                style
            ),
            rows.len()
        );
        if style.width < COMPACT_BELOW {
            compact(&mut out, &rows, style);
        } else {
            let _ = writeln!(out, "{}", table(&rows, style));
        }
    }
    if !report.changes.is_empty() {
        let _ = writeln!(out, "\n{}\n", bold("Suggested changes:", style));
        out.push_str(&changes_block(report));
    }
    if !report.not_applicable.is_empty() {
        let _ = writeln!(out, "\n{}", bold("Not applicable:", style));
        for n in &report.not_applicable {
            let line = format!("  {}  {}", escape(&n.code), escape(&n.reason));
            let _ = writeln!(out, "{}", wrap(&line, style.width, HEADER_INDENT));
        }
    }
    let _ = writeln!(out, "\n{}", wrap(&summary_line(report), style.width, ""));
    out
}

fn header(out: &mut String, r: &CheckReport, style: Style) {
    let mut lines = String::new();
    header_lines(&mut lines, r, style);
    for line in lines.lines() {
        out.push_str(&wrap(line, style.width, HEADER_INDENT));
        out.push('\n');
    }
}

/// `text` wrapped to `width` columns (never inside a word), continuation
/// lines indented by `indent`.
fn wrap(text: &str, width: u16, indent: &str) -> String {
    crate::wrap::fill(text, usize::from(width), indent)
}

/// One block per finding (identical messages folded, as in the table).
fn compact(out: &mut String, rows: &[&Finding], style: Style) {
    for group in super::fold_same_message(rows) {
        let f = group[0];
        let mut first = format!(
            "{} {}",
            paint(&f.code, severity_color(f.severity), style),
            f.family.as_str()
        );
        for f in &group {
            let mut part = String::new();
            if let Some(v) = &f.variable {
                part.push_str(&clip(v, VALUE_MAX));
            }
            // No-break spaces keep `current → recommended` on one line.
            match (&f.current, &f.recommended) {
                (Some(_), None) => {
                    let _ = write!(part, " =\u{a0}{}", change_text(f, "\u{a0}"));
                }
                (None, None) => {}
                _ => {
                    let _ = write!(part, " {}", change_text(f, "\u{a0}"));
                }
            }
            if let Some(loc) = &f.location {
                let _ = write!(part, " ({})", clip(&loc.to_string(), VALUE_MAX));
            }
            if !part.is_empty() {
                first.push_str(" · ");
                first.push_str(part.trim_start());
            }
        }
        let _ = writeln!(out, "{}", wrap(&first, style.width, WHY_INDENT));
        let why = format!("{WHY_INDENT}{}", clip(&f.message, MESSAGE_MAX));
        let _ = writeln!(out, "{}", wrap(&why, style.width, WHY_INDENT));
    }
}

fn header_lines(out: &mut String, r: &CheckReport, style: Style) {
    let h = &r.header;
    let _ = writeln!(
        out,
        "{} {} {} ({}) from {}",
        bold("mytune check:", style),
        flavor_name(h.flavor),
        h.version,
        clip(&h.version_string, VALUE_MAX),
        escape(&h.source)
    );
    match &h.memory {
        Some(m) => {
            let _ = writeln!(
                out,
                "  memory  {} ({})",
                units::human_size(m.value),
                escape(&m.source)
            );
        }
        None => {
            let _ = writeln!(out, "  memory  unknown (no host facts)");
        }
    }
    if let Some(c) = &h.cpus {
        let _ = writeln!(out, "  cpus    {} ({})", c.value, escape(&c.source));
    }
    let _ = writeln!(out, "  uptime  {}", h.counters.note);
    for (label, text) in h.context_lines() {
        let _ = writeln!(out, "  {label:<7} {}", escape(&text));
    }
    if !h.config_files.is_empty() {
        let _ = writeln!(out, "  config  {}", escape(&h.config_files.join(", ")));
    }
    for s in &h.skipped {
        let _ = writeln!(out, "  skipped {}: {}", escape(&s.what), escape(&s.reason));
    }
    if let Some(note) = &h.error_log {
        let _ = writeln!(out, "  errlog  {}", escape(note));
    }
}

fn table(rows: &[&Finding], style: Style) -> Table {
    let mut t = Table::new();
    t.load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(style.width);
    if style.color {
        t.enforce_styling();
    } else {
        t.force_no_tty();
    }
    t.set_header(["family", "code", "variable", "current → recommended", "why"]);
    let mut last_family = "";
    for group in super::fold_same_message(rows) {
        let f = group[0];
        let family = f.family.as_str();
        let family_cell = if family == last_family { "" } else { family };
        last_family = family;
        let mut variables = Vec::new();
        let mut changes = Vec::new();
        for f in &group {
            let mut variable = clip(f.variable.as_deref().unwrap_or_default(), VALUE_MAX);
            if let Some(loc) = &f.location {
                variable.push('\n');
                variable.push_str(&clip(&loc.to_string(), VALUE_MAX));
            }
            variables.push(variable);
            changes.push(change_text(f, " "));
        }
        let (variable, change) = (variables.join("\n"), changes.join("\n"));
        let mut code = Cell::new(&f.code);
        if style.color {
            code = code
                .fg(severity_color(f.severity))
                .add_attribute(Attribute::Bold);
        }
        t.add_row(vec![
            Cell::new(family_cell),
            code,
            Cell::new(variable),
            Cell::new(change),
            Cell::new(clip(&f.message, MESSAGE_MAX)),
        ]);
    }
    t
}

/// `current → recommended` (either side alone when the other is absent),
/// clipped, with `space` around the arrow.
fn change_text(f: &Finding, space: &str) -> String {
    let value = |v: &str| clip(v, VALUE_MAX);
    match (&f.current, &f.recommended) {
        (Some(c), Some(r)) => format!("{}{space}→{space}{}", value(c), value(r)),
        (Some(c), None) => value(c),
        (None, Some(r)) => format!("→{space}{}", value(r)),
        (None, None) => String::new(),
    }
}

/// The suggested changes in three parts, each ready to paste: the SQL that
/// applies the online ones now, the SQL that undoes them, and the
/// option-file lines (restart-only ones under one note).
pub fn changes_block(r: &CheckReport) -> String {
    match sql_part(r) {
        Some(sql) => format!("{sql}\n{}", option_file_part(r)),
        None => option_file_part(r),
    }
}

/// The SQL of the online changes and of their undo, or `None` when every
/// change needs a restart.
pub fn sql_part(r: &CheckReport) -> Option<String> {
    let p = crate::check::changes::paste(&r.changes);
    if p.apply_now.is_empty() {
        return None;
    }
    let mut out = String::new();
    let until_restart = r.changes.iter().any(|c| {
        matches!(
            c.apply,
            Apply::Online {
                persisted: false,
                ..
            }
        )
    });
    let _ = writeln!(
        out,
        "-- Apply now{}:",
        if until_restart {
            " (lasts until restart: add the option-file lines too)"
        } else {
            " (SET PERSIST: survives a restart)"
        }
    );
    for st in &p.apply_now {
        let _ = writeln!(out, "{}", escape(st));
    }
    if !p.undo.is_empty() {
        let _ = writeln!(out, "-- Undo (today's values):");
        for st in &p.undo {
            let _ = writeln!(out, "{}", escape(st));
        }
    }
    Some(out)
}

/// The option-file lines under their group, the restart-only ones last
/// under one note, each with the finding's code.
pub fn option_file_part(r: &CheckReport) -> String {
    let p = crate::check::changes::paste(&r.changes);
    let mut out = format!("[{}]\n", r.option_group);
    let mut restart_noted = false;
    for l in &p.option_file {
        if l.restart_only && !restart_noted {
            let _ = writeln!(out, "# Read at the next restart only:");
            restart_noted = true;
        }
        let _ = writeln!(
            out,
            "{} = {}  # {}",
            escape(&l.variable),
            escape(&l.value),
            l.code
        );
    }
    out
}

/// `3 findings (1 crit, 2 warn, 0 info); 2 suggested changes (1 online, 1 at restart).`
pub fn summary_line(r: &CheckReport) -> String {
    let s = &r.summary;
    let online = r
        .changes
        .iter()
        .filter(|c| matches!(c.apply, Apply::Online { .. }))
        .count();
    let mut line = if s.total() == 0 {
        "No findings".to_string()
    } else {
        format!(
            "{} finding{} ({} crit, {} warn, {} info)",
            s.total(),
            if s.total() == 1 { "" } else { "s" },
            s.crit,
            s.warn,
            s.info
        )
    };
    if !r.changes.is_empty() {
        let _ = write!(
            line,
            "; {} suggested change{} ({online} online, {} at restart)",
            r.changes.len(),
            if r.changes.len() == 1 { "" } else { "s" },
            r.changes.len() - online
        );
    }
    let _ = write!(
        line,
        " for {} {} (up {})",
        flavor_name(r.header.flavor),
        r.header.version,
        duration(r.header.uptime_secs)
    );
    if let Some(q) = r.header.queries {
        let _ = write!(line, ", {q} queries");
    }
    line.push('.');
    line
}

/// The product name people know: `MySQL`, `MariaDB`, `Percona Server`.
pub fn flavor_name(f: Flavor) -> &'static str {
    f.product_name()
}

fn severity_color(s: Severity) -> Color {
    match s {
        Severity::Crit => Color::Red,
        Severity::Warn => Color::Yellow,
        Severity::Info => Color::Blue,
    }
}

fn paint(text: &str, color: Color, style: Style) -> String {
    if !style.color {
        return text.to_string();
    }
    let code = match color {
        Color::Red => 31,
        Color::Yellow => 33,
        Color::Blue => 34,
        _ => 39,
    };
    format!("\x1b[1;{code}m{text}\x1b[0m")
}

fn bold(text: &str, style: Style) -> String {
    if style.color {
        format!("\x1b[1m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}
