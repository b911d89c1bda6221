//! `mytune explain CODE`: one rule or built-in check in full, from the registry.

use std::process::ExitCode;

use anyhow::bail;
use mytune::registry::Registry;

use crate::cli::{ExplainArgs, ExplainFormat};

pub fn run(args: &ExplainArgs) -> anyhow::Result<ExitCode> {
    let set = match super::load_rules(args.rules.dir.as_deref()) {
        Ok(s) => s,
        Err(code) => return Ok(code),
    };
    let Some(entry) = Registry::new(&set).get(&args.code) else {
        bail!(
            "no rule '{}' (see `mytune rules` for the catalog)",
            args.code
        );
    };
    match args.format {
        ExplainFormat::Text => super::emit(&entry.explain(mytune::wrap::stdout_width()))?,
        ExplainFormat::Json => {
            super::emit(&(serde_json::to_string_pretty(&entry.to_json())? + "\n"))?
        }
    }
    Ok(ExitCode::SUCCESS)
}
