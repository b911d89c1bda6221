//! `mytune lint PATH...`: check option files, sysctl/limits files and systemd
//! drop-ins against the target's catalog and the rule catalog.

use std::process::ExitCode;

use mytune::lint::{LintOptions, config, lint_files, walk};
use mytune::report::{self, json::Report};
use mytune::target::Target;

use crate::cli::{LintArgs, OutputFormat};

pub fn run(args: &LintArgs) -> anyhow::Result<ExitCode> {
    let rules = match super::load_rules(args.rules.as_deref()) {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    let exclude = config::glob_set(&args.exclude).map_err(|e| anyhow::anyhow!("--exclude: {e}"))?;
    let (files, walk_errors) = walk::files(&args.files, &exclude);
    let mut failed = false;
    for e in &walk_errors {
        mytune::stderr_line!("mytune: {e}");
        failed = true;
    }
    let opts = LintOptions {
        target: args.target,
        config: args.config.as_deref(),
        rules: &rules,
    };
    let outcome = lint_files(&files, &opts);
    for t in &outcome.targets {
        if let Some(note) = mytune::catalog::Catalog::stand_in_note(t) {
            eprintln!("note: {note}");
        }
    }
    for e in &outcome.errors {
        mytune::stderr_line!("mytune: {e}");
        failed = true;
    }
    if args.verbose {
        for n in &outcome.notes {
            mytune::stderr_line!("note: {n}");
        }
        for n in &outcome.not_applicable {
            mytune::stderr_line!("note: {} not applicable: {}", n.code, n.reason);
        }
    }
    let findings = &outcome.findings;
    let targets = outcome
        .targets
        .iter()
        .map(Target::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let what = match outcome.files.len() {
        1 => outcome.files[0].0.display().to_string(),
        n => format!("{n} files"),
    };
    let what = if targets.is_empty() {
        what
    } else {
        format!("{what} for {targets}")
    };
    // Files that could not be read or configured were not checked: the
    // summary must not read as a clean bill for them.
    let errors = walk_errors.len() + outcome.errors.len();
    let what = match errors {
        0 => what,
        1 => format!("{what} (1 error above: not everything was checked)"),
        n => format!("{what} ({n} errors above: not everything was checked)"),
    };
    let text = match args.format {
        OutputFormat::Text => report::text::findings(findings, &what),
        OutputFormat::Json => {
            let inputs = outcome
                .files
                .iter()
                .map(|(p, _)| p.display().to_string())
                .collect();
            Report::new("lint", targets, inputs, findings).render()
        }
        OutputFormat::Sarif => report::sarif::render(findings),
        OutputFormat::Github => report::github::render(findings),
        OutputFormat::Markdown => report::markdown::render(findings, &what),
    };
    super::emit(&text)?;
    Ok(if failed {
        ExitCode::from(2)
    } else if report::reaches(findings, args.fail_on) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
