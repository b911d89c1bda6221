//! `mytune lint FILE...`: check option files against the target's catalog.

use std::path::PathBuf;
use std::process::ExitCode;
use std::thread;

use mytune::lint::{self, LintError};
use mytune::report::{self, json::Report};
use mytune::rules::Finding;
use mytune::target::Target;

use crate::cli::{LintArgs, OutputFormat};

pub fn run(args: &LintArgs) -> anyhow::Result<ExitCode> {
    let results = lint_all(&args.files, &args.target);
    let mut findings = Vec::new();
    let mut failed = false;
    for (path, result) in args.files.iter().zip(results) {
        match result {
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

/// Lint every file, spread over the available cores; results keep the order
/// of `files`. Files are independent, and the catalog is shared read-only.
fn lint_all(files: &[PathBuf], target: &Target) -> Vec<Result<Vec<Finding>, LintError>> {
    let workers = thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len().max(1));
    if workers <= 1 {
        return files.iter().map(|f| lint::lint_file(f, target)).collect();
    }
    let chunk = files.len().div_ceil(workers);
    thread::scope(|scope| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|f| lint::lint_file(f, target))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a lint worker panicked"))
            .collect()
    })
}
