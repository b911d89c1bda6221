//! `mytune rules`: list the registry (built-in checks and rules) as a table,
//! JSON, or the Markdown rule reference (`docs/rules.md`).

use std::process::ExitCode;

use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};
use mytune::registry::Registry;

use crate::cli::{RulesArgs, RulesFormat};

pub fn run(args: &RulesArgs) -> anyhow::Result<ExitCode> {
    let set = match super::load_rules(args.rules.dir.as_deref()) {
        Ok(s) => s,
        Err(code) => return Ok(code),
    };
    match args.format {
        RulesFormat::Table => {
            let mut t = Table::new();
            t.load_style(UTF8_FULL_CONDENSED)
                .set_content_arrangement(ContentArrangement::Disabled);
            let mut rows: Vec<[String; 5]> = Vec::new();
            t.set_header(["code", "name", "severity", "family", "applies"]);
            // The built-in checks first (their codes are the lowest): lint's
            // structural checks and check's drift against option files.
            for e in Registry::new(&set).entries() {
                rows.push([
                    e.code().to_string(),
                    e.name().to_string(),
                    e.severity().to_string(),
                    e.family().to_string(),
                    e.applies(),
                ]);
            }
            for row in &rows {
                t.add_row(row);
            }
            let table = t.to_string();
            let width = usize::from(mytune::wrap::stdout_width());
            // The table when it fits the width whole; else a list that
            // never splits a name.
            let fits = table.lines().all(|l| l.chars().count() <= width);
            super::emit(&if fits {
                format!("{table}\n")
            } else {
                short_list(&rows, width)
            })?;
        }
        RulesFormat::Json => {
            let rows: Vec<serde_json::Value> = Registry::new(&set)
                .entries()
                .iter()
                .map(|e| e.summary())
                .collect();
            super::emit(&(serde_json::to_string_pretty(&rows)? + "\n"))?;
        }
        RulesFormat::Markdown => super::emit(&mytune::registry::markdown(&set))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The catalog as a list for a narrow terminal: code, severity, family and
/// name on one line, what it applies to after them when it fits, else on
/// the next line, indented.
fn short_list(rows: &[[String; 5]], width: usize) -> String {
    let family = rows.iter().map(|r| r[3].len()).max().unwrap_or(6);
    let mut out = format!(
        "{:<5}  {:<8}  {:<family$}  name, applies\n",
        "code", "severity", "family"
    );
    for [code, name, severity, fam, applies] in rows {
        let line = format!("{code:<5}  {severity:<8}  {fam:<family$}  {name}");
        if line.chars().count() + 2 + applies.chars().count() <= width {
            out.push_str(&format!("{line}  {applies}\n"));
        } else {
            out.push_str(&format!("{line}\n"));
            let indent = " ".repeat(7);
            out.push_str(&mytune::wrap::fill(
                &format!("{indent}applies: {applies}"),
                width,
                &indent,
            ));
            out.push('\n');
        }
    }
    out
}
