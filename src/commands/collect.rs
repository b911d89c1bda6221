//! `mytune collect`: gather host and server facts into a JSON snapshot that
//! `mytune check --snapshot FILE` reads later.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use mytune::atomic::Perms;
use mytune::collect::flags::CollectFlags;

/// Collect facts from a live server (and this host when the server is local).
#[derive(Debug, Args)]
#[command(disable_help_flag = true)]
pub struct CollectArgs {
    #[command(flatten)]
    pub flags: CollectFlags,
    /// Write the snapshot to FILE instead of standard output. A new FILE gets mode 0600 (it
    /// holds server data); a file replaced keeps its owner, group and mode (one mytune cannot
    /// give them back, or with other hard links, is refused: exit 2); a symbolic link at FILE is
    /// followed (its target is written, the link kept). With --inventory: the directory the
    /// snapshots go to (created 0700 if missing), one NAME.json per server.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Collect every server of this inventory (repeatable; the formats of `check --inventory`)
    /// into the directory -o names, one snapshot per server named after it, for `check
    /// --snapshot` later. A server that cannot be read is reported (exit 2) and the others are
    /// still written.
    #[arg(long, value_name = "FILE", requires = "out", conflicts_with_all = ["host", "socket", "protocol"])]
    pub inventory: Vec<PathBuf>,
    /// With --inventory: only the hosts of this Ansible group (directly or through its child
    /// groups); repeat for several.
    #[arg(long, value_name = "GROUP", requires = "inventory")]
    pub group: Vec<String>,
    /// With --inventory: how many servers are read at once.
    #[arg(long, value_name = "N", default_value_t = 128, requires = "inventory",
          value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: u16,
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

pub fn run(args: CollectArgs) -> anyhow::Result<ExitCode> {
    if !args.inventory.is_empty() {
        let dir = args
            .out
            .as_deref()
            .expect("clap requires -o with --inventory");
        return super::fleet::collect(&args.flags, &args.inventory, &args.group, args.jobs, dir);
    }
    let (facts, endpoint) = args.flags.collect()?;
    let json = facts.to_json();
    match &args.out {
        Some(path) => {
            // Account and server data: a new snapshot is owner-only, and
            // the old one survives a failed write.
            super::write_file(path, &(json + "\n"), Perms::Private)?;
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
