//! `mytune gen-cnf`: a commented option file for this host or a described
//! one, written from the rules' recommendations.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use mytune::cnf;
use mytune::generate;

use super::gen_args::GenArgs;

#[derive(Debug, Args)]
pub struct GenCnfArgs {
    #[command(flatten)]
    pub common: GenArgs,
    /// Edit this option file instead of writing a new one: its values are
    /// the starting point, its other lines and comments are kept.
    #[arg(long, value_name = "FILE")]
    pub base: Option<PathBuf>,
}

pub fn run(args: &GenCnfArgs) -> anyhow::Result<ExitCode> {
    let base_text = match &args.base {
        Some(p) => Some(
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?,
        ),
        None => None,
    };
    let mut resolved = match &args.base {
        None => args.common.resolve("gen-cnf")?,
        Some(p) => {
            // The base file's effective options are the starting values.
            let pre = args.common.resolve("gen-cnf")?;
            let loaded = cnf::load(p).with_context(|| format!("cannot read {}", p.display()))?;
            let mut facts = pre.facts.clone();
            facts.config = Some(loaded.effective(&cnf::server_groups(&pre.plan.target)));
            let plan = generate::plan::build(&pre.rules, &facts, &pre.profile, pre.plan.target)?;
            super::gen_args::Resolved { facts, plan, ..pre }
        }
    };
    let from_server = resolved.facts.server.is_some();
    let text = generate::cnf::render(
        &resolved.plan,
        &std::mem::take(&mut resolved.header),
        base_text.as_deref(),
        from_server,
    )?;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .context("cannot write the option file")?;
    Ok(ExitCode::SUCCESS)
}
