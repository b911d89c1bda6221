//! `mytune gen-limits`: a limits.d file for the server's user and a systemd
//! drop-in for its unit, from the rules' process-limit recommendations.

use std::fmt::Write;
use std::process::ExitCode;

use anyhow::Context;

use mytune::atomic::{self, Backup, Perms};
use mytune::generate::{self, limits::LimitsOptions};

use crate::cli::generate::GenLimitsArgs;

pub fn run(args: &GenLimitsArgs) -> anyhow::Result<ExitCode> {
    let r = args.common.resolve("gen-limits", None)?;
    let mut opts = LimitsOptions::for_target(&r.plan.target);
    opts.user = args.user.clone();
    if let Some(u) = &args.unit {
        opts.unit = u.clone();
    }
    if generate::limits::limits(&r.plan)?.is_empty() {
        // Two files of comments and a restart would change nothing.
        eprintln!(
            "mytune gen-limits: no rule recommends a process limit for this host and profile ({}); nothing written",
            r.plan.target
        );
        return Ok(ExitCode::SUCCESS);
    }
    let files = generate::limits::render(&r.plan, &opts, &r.header)?;
    let commands = generate::limits::apply_commands(&files, &opts);
    match &args.output_dir {
        Some(dir) => {
            let mut paths = Vec::new();
            for f in &files {
                let path = dir.join(f.path.trim_start_matches('/'));
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .with_context(|| format!("cannot create {}", parent.display()))?;
                }
                paths.push(path);
            }
            // Both files or neither.
            let batch: Vec<(&std::path::Path, &[u8])> = paths
                .iter()
                .zip(&files)
                .map(|(p, f)| (p.as_path(), f.text.as_bytes()))
                .collect();
            let written = atomic::write_all(&batch, Perms::Shared, Backup::Keep)?;
            for ((path, f), w) in paths.iter().zip(&files).zip(&written) {
                mytune::stderr_line!("mytune: wrote {} (install at {})", path.display(), f.path);
                super::tell_written(path, w);
            }
        }
        None => {
            let mut out = String::new();
            for f in &files {
                let _ = writeln!(out, "# ==> {} <==", f.path);
                out.push_str(&f.text);
                out.push('\n');
            }
            let _ = writeln!(out, "# ==> apply <==");
            for c in &commands {
                let _ = writeln!(out, "#   {c}");
            }
            super::emit(&out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
