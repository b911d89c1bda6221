//! `mytune rules`: list the catalog as a table, JSON, or the Markdown rule
//! reference (`docs/rules.md`).

use std::process::ExitCode;

use comfy_table::{Table, presets::UTF8_FULL_CONDENSED};
use mytune::rules::docs;

use crate::cli::{RulesArgs, RulesFormat};

pub fn run(args: &RulesArgs) -> anyhow::Result<ExitCode> {
    let set = match super::load_rules(args.rules.as_deref()) {
        Ok(s) => s,
        Err(code) => return Ok(code),
    };
    match args.format {
        RulesFormat::Table => {
            let mut t = Table::new();
            t.load_style(UTF8_FULL_CONDENSED);
            t.set_header(["code", "name", "severity", "family", "applies"]);
            // The built-in checks first (their codes are the lowest): lint's
            // structural checks and check's drift against option files.
            let mut builtin: Vec<(&str, &str, String, &str)> = mytune::lint::checks::ALL
                .iter()
                .map(|c| (c.code, c.name, c.severity.to_string(), "lint (built in)"))
                .chain(mytune::check::drift::ALL.iter().map(|c| {
                    (
                        c.code,
                        c.name,
                        c.severity.to_string(),
                        "check --config (built in)",
                    )
                }))
                .chain(
                    mytune::check::skipped::ALL
                        .iter()
                        .map(|c| (c.code, c.name, c.severity.to_string(), "check (built in)")),
                )
                .chain(mytune::check::errorlog::ALL.iter().map(|c| {
                    (
                        c.code,
                        c.name,
                        c.severity.to_string(),
                        "check, local server's error log (built in)",
                    )
                }))
                .collect();
            builtin.sort_by_key(|b| b.0);
            for (code, name, severity, applies) in builtin {
                t.add_row([code, name, &severity, "config", applies]);
            }
            for r in set.rules() {
                t.add_row([
                    r.code.clone(),
                    r.name.clone(),
                    r.severity.to_string(),
                    r.family.to_string(),
                    r.applies.to_string(),
                ]);
            }
            super::emit(&format!("{t}\n"))?;
        }
        RulesFormat::Json => {
            super::emit(&(serde_json::to_string_pretty(&docs::summaries(&set))? + "\n"))?;
        }
        RulesFormat::Markdown => super::emit(&docs::markdown(&set))?,
    }
    Ok(ExitCode::SUCCESS)
}
