//! `mytune collect`: gather host and server facts into a JSON snapshot that
//! `mytune check --snapshot FILE` reads later.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use mytune::atomic::{self, Backup};
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
        Some(path) => {
            // Account and server data: owner-only, and the old snapshot
            // survives a failed write.
            let w = atomic::write(path, (json + "\n").as_bytes(), 0o600, Backup::None)?;
            if let Some(target) = w.replaced_link {
                mytune::stderr_line!(
                    "mytune: {} was a symbolic link to {}; replaced it with the snapshot (the link's target is unchanged)",
                    path.display(),
                    target.display()
                );
            }
        }
        None => {
            super::emit(&(json + "\n"))?;
        }
    }
    if let Some(server) = &facts.server {
        mytune::stderr_line!(
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
        mytune::stderr_line!("mytune: skipped {}: {}", s.what, s.reason);
    }
    Ok(ExitCode::SUCCESS)
}
