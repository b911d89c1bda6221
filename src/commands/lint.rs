//! `mytune lint FILE...`: check option files against the target's catalog.

use std::process::ExitCode;

use mytune::lint;
use mytune::report::{self, json::Report};

use crate::cli::{LintArgs, OutputFormat};

pub fn run(args: &LintArgs) -> anyhow::Result<ExitCode> {
    let mut findings = Vec::new();
    let mut failed = false;
    for path in &args.files {
        match lint::lint_file(path, &args.target) {
            Ok(mut f) => findings.append(&mut f),
            Err(e) => {
                eprintln!("mytune: {}: {e}", path.display());
                failed = true;
            }
        }
    }
    let what = match args.files.len() {
        1 => args.files[0].display().to_string(),
        n => format!("{n} files"),
    };
    let what = format!("{what} for {}", args.target);
    match args.format {
        OutputFormat::Text => print!("{}", report::text::findings(&findings, &what)),
        OutputFormat::Json => {
            let inputs = args.files.iter().map(|p| p.display().to_string()).collect();
            print!(
                "{}",
                Report::new("lint", args.target.to_string(), inputs, &findings).render()
            );
        }
    }
    Ok(if failed {
        ExitCode::from(2)
    } else if report::reaches(&findings, args.fail_on) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
