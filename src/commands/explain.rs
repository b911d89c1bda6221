//! `mytune explain CODE`: one rule in full.

use std::process::ExitCode;

use anyhow::bail;
use mytune::rules::docs;

use crate::cli::{ExplainArgs, ExplainFormat};

pub fn run(args: &ExplainArgs) -> anyhow::Result<ExitCode> {
    let set = match super::load_rules(args.rules.as_deref()) {
        Ok(s) => s,
        Err(code) => return Ok(code),
    };
    let Some(rule) = set.get(&args.code) else {
        // The structural lint checks (MT001-MT010) are documented like rules.
        // So are the checks of `check`: drift (MT011-MT013), the skipped
        // parts (MT016) and the error log (MT017-MT020).
        let check = mytune::lint::checks::get(&args.code).or_else(|| {
            mytune::check::drift::ALL
                .iter()
                .chain(&mytune::check::skipped::ALL)
                .chain(&mytune::check::errorlog::ALL)
                .find(|c| c.code.eq_ignore_ascii_case(&args.code) || c.name == args.code)
        });
        if let Some(check) = check {
            match args.format {
                ExplainFormat::Text => super::emit(&check.explain(mytune::wrap::stdout_width()))?,
                ExplainFormat::Json => {
                    super::emit(&(serde_json::to_string_pretty(&check.to_json())? + "\n"))?
                }
            }
            return Ok(ExitCode::SUCCESS);
        }
        bail!(
            "no rule '{}' (see `mytune rules` for the catalog)",
            args.code
        );
    };
    match args.format {
        ExplainFormat::Text => super::emit(&docs::explain(rule, mytune::wrap::stdout_width()))?,
        ExplainFormat::Json => super::emit(&(serde_json::to_string_pretty(rule)? + "\n"))?,
    }
    Ok(ExitCode::SUCCESS)
}
