//! `mytune collect`: gather host and server facts into a JSON snapshot that
//! `mytune check --snapshot FILE` reads later.

use std::process::ExitCode;

use mytune::atomic::Perms;

use crate::cli::collect::CollectArgs;

pub fn run(args: CollectArgs) -> anyhow::Result<ExitCode> {
    if !args.inventory.is_empty() {
        let dir = args
            .out
            .as_deref()
            .expect("clap requires -o with --inventory");
        return super::fleet::collect(
            &args.flags,
            &args.inventory,
            &args.fleet.group,
            args.fleet.jobs,
            dir,
        );
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
