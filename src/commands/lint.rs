//! `mytune lint PATH...`: check option files, sysctl/limits files and systemd
//! drop-ins against the target's catalog and the rule catalog.

use std::process::ExitCode;

use mytune::atomic::{self, Backup, Perms};
use mytune::lint::baseline::{self, Baseline};
use mytune::lint::baseline_dest;
use mytune::lint::{BaselineChoice, LintOptions, apply, config, lint_files, walk};
use mytune::report::lint_formats::{self, LintView};
use mytune::target::Target;

use crate::cli::LintArgs;

pub fn run(args: &LintArgs) -> anyhow::Result<ExitCode> {
    let rules = match super::load_rules(args.rules.dir.as_deref()) {
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
    // Nothing to lint is an error, never a clean run.
    if files.is_empty() {
        if walk_errors.is_empty() {
            eprintln!("mytune: nothing to lint: --exclude excludes every path given");
        }
        return Ok(ExitCode::from(2));
    }
    // Without --target, a file's mytune.toml names it; else the server
    // installed here; else mysql-8.0.
    let fallback = match args.target {
        Some(_) => None,
        None => {
            super::installed_server().map(|t| (t, "the server installed on this host".to_string()))
        }
    };
    let given_baseline = match &args.baseline {
        Some(p) => match Baseline::load(p) {
            Ok(b) => Some(b),
            Err(e) => {
                mytune::stderr_line!("mytune: {e}");
                return Ok(ExitCode::from(2));
            }
        },
        None => None,
    };
    let opts = LintOptions {
        target: args.target,
        config: args.config.as_deref(),
        rules: &rules,
        fallback,
        baseline: match (&given_baseline, &args.write_baseline) {
            (_, Some(_)) => BaselineChoice::Off,
            (Some(b), None) => BaselineChoice::Given(b),
            (None, None) => BaselineChoice::FromConfig,
        },
        from: args.from,
    };
    let mut outcome = lint_files(&files, &opts);
    if let Some(path) = &args.write_baseline {
        for e in &outcome.errors {
            mytune::stderr_line!("mytune: {e}");
        }
        if !outcome.errors.is_empty() {
            return Ok(ExitCode::from(2));
        }
        // Never over a file being linted, nor over an option file.
        if let Err(e) = baseline_dest::check(path, &outcome.files) {
            mytune::stderr_line!("mytune: {e}");
            return Ok(ExitCode::from(2));
        }
        let read = |p: &std::path::Path| mytune::input::read_text(p).ok();
        let text = baseline::render(&outcome.findings, path, &read);
        let n = text.lines().filter(|l| !l.starts_with('#')).count();
        match atomic::write(path, text.as_bytes(), Perms::Shared, Backup::None) {
            Ok(w) => super::tell_written(path, &w),
            Err(e) => {
                mytune::stderr_line!("mytune: {e}");
                return Ok(ExitCode::from(2));
            }
        }
        eprintln!(
            "mytune: wrote {n} finding(s) to {} as the baseline; `mytune lint --baseline {}` reports only new ones",
            path.display(),
            path.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if (args.fix || args.diff) && outcome.errors.is_empty() {
        let may_write = |p: &std::path::Path| apply::under_given(p, &args.files);
        let read = |p: &std::path::Path| std::fs::read(p);
        let plan = apply::plan(&outcome.findings, &may_write, &read);
        for s in &plan.skipped {
            mytune::stderr_line!("mytune: {s}");
        }
        let later = match plan.deferred {
            0 => String::new(),
            n => format!("; {n} more overlap them on the same lines: run --fix again"),
        };
        if args.diff {
            let diff = apply::diff(&plan);
            super::emit(&diff.text)?;
            for (path, n) in &diff.hidden {
                mytune::stderr_line!(
                    "mytune: {n} change(s) to {} not shown: their lines hold a secret (a password, \
                     wsrep_sst_auth, ...); `mytune lint --fix` applies them",
                    path.display()
                );
            }
            eprintln!(
                "mytune: {} fix(es) in {} file(s) would be applied{later}",
                plan.applied,
                plan.files.len()
            );
            return Ok(if plan.files.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            });
        }
        match apply::write(&plan) {
            Ok(written) => {
                for (path, w) in &written {
                    super::tell_written(path, w);
                }
                eprintln!(
                    "mytune: fixed {} finding(s) in {} file(s){later}",
                    plan.applied,
                    written.len()
                );
                if !written.is_empty() {
                    // Report what is left, from the files as they are now.
                    outcome = lint_files(&files, &opts);
                }
                if args.pin_defaults {
                    match pin_defaults(&outcome, args) {
                        Ok(0) => {}
                        Ok(n) => {
                            eprintln!("mytune: pinned the old defaults in {n} file(s)");
                            outcome = lint_files(&files, &opts);
                        }
                        Err(e) => {
                            mytune::stderr_line!("mytune: {e}");
                            return Ok(ExitCode::from(2));
                        }
                    }
                }
            }
            Err(e) => {
                mytune::stderr_line!("mytune: {e}");
                return Ok(ExitCode::from(2));
            }
        }
    }
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
    if errors > 0 && outcome.files.is_empty() {
        // Not one file could be read: the errors above are the whole answer.
        return Ok(ExitCode::from(2));
    }
    let format = lint_formats::by_name(&args.format)
        .ok_or_else(|| anyhow::anyhow!("--format {}: no such format", args.format))?;
    let human = format.human;
    if errors > 0 && findings.is_empty() && human {
        // "No problems found" would read as a clean bill for what was not checked.
        eprintln!(
            "mytune: no findings to report, but not everything was checked ({errors} error(s) above)"
        );
        return Ok(ExitCode::from(2));
    }
    let text = (format.render)(&LintView {
        findings,
        what: &what,
        inputs: outcome
            .files
            .iter()
            .map(|(p, _)| p.display().to_string())
            .collect(),
        targets: &outcome.targets,
        target_origins: &outcome.target_origins,
        width: terminal_width(),
    });
    super::emit(&text)?;
    Ok(if failed {
        ExitCode::from(2)
    } else if mytune::rules::finding::reaches(findings, args.fail_on) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `--fix --pin-defaults`: write the old defaults the MT023 findings name
/// into each option file they are about. Returns how many files changed.
fn pin_defaults(outcome: &mytune::lint::LintOutcome, args: &LintArgs) -> anyhow::Result<usize> {
    use mytune::catalog::{Catalog, upgrade};
    let from = args.from.expect("clap: --pin-defaults requires --from");
    let [to] = outcome.targets[..] else {
        anyhow::bail!("--pin-defaults needs the files to have one target (give --target)");
    };
    let changes = upgrade::default_changes(Catalog::for_target(&from)?, Catalog::for_target(&to)?);
    let mut pinned_files = Vec::new();
    for (path, kind) in &outcome.files {
        if *kind != mytune::lint::system::FileKind::OptionFile {
            continue;
        }
        let mine: Vec<_> = outcome
            .findings
            .iter()
            .filter(|f| f.location.as_ref().is_some_and(|l| l.file == *path))
            .cloned()
            .collect();
        let text = mytune::input::read_text(path)?;
        if let Some(pinned) = mytune::lint::upgrade::pin_defaults(&text, &mine, &changes, from, to)
        {
            pinned_files.push((path.as_path(), pinned));
        }
    }
    // Every file or none, each keeping its owner, group and mode.
    let batch: Vec<(&std::path::Path, &[u8])> = pinned_files
        .iter()
        .map(|(p, t)| (*p, t.as_bytes()))
        .collect();
    for ((path, _), w) in
        pinned_files
            .iter()
            .zip(atomic::write_all(&batch, Perms::Shared, Backup::None)?)
    {
        super::tell_written(path, &w);
    }
    Ok(pinned_files.len())
}

/// The terminal's width when the report goes to one: findings are wrapped
/// to it there, and stay one line each for tools reading a pipe.
fn terminal_width() -> Option<u16> {
    use std::io::IsTerminal;
    std::io::stdout()
        .is_terminal()
        .then(mytune::wrap::stdout_width)
}
