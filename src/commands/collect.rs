//! `mytune collect`: gather host and server facts into a JSON snapshot that
//! `mytune check --snapshot FILE` reads later.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use mytune::collect::flags::CollectFlags;

/// Collect facts from a live server (and this host when the server is local).
#[derive(Debug, Args)]
#[command(disable_help_flag = true)]
pub struct CollectArgs {
    #[command(flatten)]
    pub flags: CollectFlags,
    /// Write the snapshot to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

pub fn run(args: CollectArgs) -> anyhow::Result<ExitCode> {
    let (facts, endpoint) = args.flags.collect()?;
    let json = facts.to_json();
    match &args.out {
        Some(path) => std::fs::write(path, json + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => {
            let mut out = std::io::stdout().lock();
            writeln!(out, "{json}").context("cannot write the snapshot")?;
        }
    }
    if let Some(server) = &facts.server {
        eprintln!(
            "mytune: collected {} {} from {endpoint} in {} queries{}",
            server.flavor,
            server.version,
            server.queries.unwrap_or(0),
            match &args.out {
                Some(p) => format!(", wrote {}", p.display()),
                None => String::new(),
            }
        );
    }
    for s in &facts.skipped {
        eprintln!("mytune: skipped {}: {}", s.what, s.reason);
    }
    Ok(ExitCode::SUCCESS)
}
