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
        // The structural lint checks (MT0xx) are documented like rules.
        if let Some(check) = mytune::lint::checks::get(&args.code) {
            match args.format {
                ExplainFormat::Text => print!("{}", check.explain()),
                ExplainFormat::Json => {
                    println!("{}", serde_json::to_string_pretty(&check.to_json())?)
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
        ExplainFormat::Text => print!("{}", docs::explain(rule)),
        ExplainFormat::Json => println!("{}", serde_json::to_string_pretty(rule)?),
    }
    Ok(ExitCode::SUCCESS)
}
