//! `mytune check`: collect facts from a live server (or read a snapshot),
//! add the option files given with `--config`, evaluate the rules, compare the
//! files with the running values (drift), and report.

use crate::cli::check::{CheckArgs, ColorChoice};
use mytune::report::check_formats::{self, OneStyle};

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use anyhow::bail;

use mytune::check::{CheckReport, Selection};
use mytune::facts::Facts;
use mytune::fleet::inventory::ProfileOverrides;
use mytune::report::{self, check_text};
use mytune::rules::Profile;

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let rules = match super::load_rules(args.rules.dir.as_deref()) {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    let selection = Selection::new(&args.only, &args.skip);
    // --upgrade-to reports lint's checks against the new release, so every
    // entry of the registry can be selected.
    let registry = mytune::registry::Registry::new(&rules);
    let unknown = selection.unknown_keys(&|k| registry.selects(k));
    if !unknown.is_empty() {
        bail!(
            "--only/--skip: no rule, check or family is called {}",
            unknown.join(", ")
        );
    }

    let format = check_formats::by_name(&args.format)
        .ok_or_else(|| anyhow::anyhow!("--format {}: no such format", args.format))?;
    // A fleet format reports even one server (a snapshot) as a fleet of one.
    let Some(render_one) = format.one.filter(|_| args.inventory.is_empty()) else {
        return super::fleet::run(&args, &rules, &selection);
    };

    let (facts, source, live) = match &args.snapshot {
        Some(path) => (
            read_snapshot(&args, path)?,
            format!("snapshot {}", path.display()),
            false,
        ),
        None => match args.flags.collect() {
            Ok((facts, endpoint)) => (facts, endpoint, true),
            // `--host` alone and no server here: the host's own findings.
            Err(e) if args.flags.connect.this_host() && not_listening(&e) => {
                return host_only(&args, &rules, &selection, &e.to_string());
            }
            Err(e) => return Err(e.into()),
        },
    };
    let base = project_profile(&args)?;
    let profile = profile_for(&args, &base, &ProfileOverrides::default())?;
    let judge = Judge {
        args: &args,
        rules: &rules,
        selection: &selection,
    };
    let Judged { report, notes } = judge.judge(facts, source, live, profile)?;
    for note in notes {
        eprintln!("note: {note}");
    }

    let out = render_one(
        &report,
        &OneStyle {
            color: use_color(args.color, args.output.is_some()),
            width: terminal_width(args.output.is_some()),
            verbose: args.verbose,
        },
    );
    match &args.output {
        Some(path) => super::write_file(path, &out, mytune::atomic::Perms::Private)?,
        None => super::emit(&out)?,
    }
    // Exit 1 is documented in --help and the manual page; standard error
    // stays for errors and warnings, so CI logs and JSON consumers see no
    // chatter on every run with findings.
    Ok(
        if mytune::rules::finding::reaches(&report.findings, args.fail_on) {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        },
    )
}

/// The facts of a snapshot file (`-` for standard input), with the host as
/// --memory/--cpus/--disk describe it.
pub fn read_snapshot(args: &CheckArgs, path: &Path) -> anyhow::Result<Facts> {
    let text = mytune::input::read_text_or_stdin(path)?;
    let mut facts =
        Facts::from_json(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    // --memory/--cpus/--disk describe the snapshot's host as they
    // describe a live one.
    let desc = args.flags.host_mode().description;
    if !desc.is_empty() {
        facts.host = Some(mytune::collect::host::describe(&desc, facts.host.take()));
    }
    Ok(facts)
}

/// What every server of a run is judged with: the command line, the rules
/// and the selection. One server at a time: [`Judge::judge`].
pub struct Judge<'a> {
    pub args: &'a CheckArgs,
    pub rules: &'a mytune::rules::RuleSet,
    pub selection: &'a Selection,
}

/// A server's report, and the notes for standard error that came with it.
pub struct Judged {
    pub report: CheckReport,
    pub notes: Vec<String>,
}

impl Judge<'_> {
    /// The check pipeline ([`mytune::check::run`]) on one server's facts
    /// with this run's settings. `live`: the facts were just read from the
    /// server (not a snapshot).
    pub fn judge(
        &self,
        facts: Facts,
        source: String,
        live: bool,
        (profile, profile_source): (Profile, String),
    ) -> anyhow::Result<Judged> {
        let settings = mytune::check::Settings {
            rules: self.rules,
            selection: self.selection,
            config: &self.args.config,
            upgrade_to: self.args.upgrade_to,
            verbose: self.args.verbose,
        };
        let checked = mytune::check::run(
            &settings,
            mytune::check::Input {
                facts,
                source,
                live,
                profile,
                profile_source,
            },
        )?;
        for problem in &checked.file_problems {
            mytune::stderr_line!("mytune: {problem} (see `mytune lint`)");
        }
        Ok(Judged {
            report: checked.report,
            notes: checked.notes,
        })
    }
}

fn use_color(choice: ColorChoice, to_file: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            !to_file
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// The width tables wrap to: `COLUMNS` when set, else the terminal's width
/// when the report goes to one, else the default (120). At least 60.
fn terminal_width(to_file: bool) -> u16 {
    let env = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok());
    let terminal = || {
        (!to_file && std::io::stdout().is_terminal())
            .then(|| terminal_size::terminal_size().map(|(w, _)| w.0))
            .flatten()
    };
    width_from(env, terminal)
}

fn width_from(env: Option<u16>, terminal: impl FnOnce() -> Option<u16>) -> u16 {
    env.or_else(terminal)
        .unwrap_or(check_text::DEFAULT_WIDTH)
        .max(60)
}

/// The profile of the project: a `mytune.toml`'s (given with `--project`,
/// else the nearest one up from the current directory), and the file it came
/// from. Read once per run.
pub fn project_profile(args: &CheckArgs) -> anyhow::Result<(Profile, Option<String>)> {
    let file = match &args.project {
        Some(p) => Some(p.clone()),
        None => std::env::current_dir()
            .ok()
            .and_then(|d| mytune::lint::config::find_upward(&d)),
    };
    Ok(match &file {
        Some(path) => {
            let cfg = mytune::lint::config::ProjectConfig::load(path)?;
            (cfg.profile, Some(path.display().to_string()))
        }
        None => (Profile::default(), None),
    })
}

/// The profile one server is judged with: the project's, then what its
/// inventory entry says, then the profile flags on top. Also says where it
/// came from, for the header.
pub fn profile_for(
    args: &CheckArgs,
    (base, from): &(Profile, Option<String>),
    entry: &ProfileOverrides,
) -> anyhow::Result<(Profile, String)> {
    let profile = args.profile.over(entry.over(base.clone()));
    profile.validate().map_err(|e| anyhow::anyhow!(e))?;
    let mut parts: Vec<&str> = Vec::new();
    if let Some(f) = from {
        parts.push(f);
    }
    if !entry.is_empty() {
        parts.push("inventory");
    }
    if args.profile.given() {
        parts.push("flags");
    }
    let source = match parts.as_slice() {
        [] => "defaults".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    Ok((profile, source))
}

/// Did the connection fail because nothing listens there (no server on
/// this host), rather than refusing or failing later?
fn not_listening(e: &mytune::collect::live::CollectError) -> bool {
    use mytune::collect::ConnectError;
    use mytune::collect::live::CollectError;
    use mytune::collect::server::ServerError;
    matches!(
        e,
        CollectError::Connect(ConnectError::NotListening { .. })
            | CollectError::Server(ServerError::Connect(ConnectError::NotListening { .. }))
    )
}

/// `check --host` where no server answers: the rules judged on this host's
/// facts alone (kernel and limits settings), with a note saying why there
/// is nothing about a server. Exit status as for a full check.
fn host_only(
    args: &CheckArgs,
    rules: &mytune::rules::RuleSet,
    selection: &Selection,
    why: &str,
) -> anyhow::Result<ExitCode> {
    let desc = args.flags.host_mode().description;
    let host =
        mytune::generate::host::host_facts(&desc, &mytune::collect::host::HostPaths::default());
    let facts = Facts {
        host: Some(host),
        ..Facts::default()
    };
    let (profile, _) = profile_for(args, &project_profile(args)?, &ProfileOverrides::default())?;
    let mut findings = rules
        .evaluate(&mytune::rules::EvalInput::new(&facts, &profile))
        .findings;
    findings.retain(|f| selection.keeps_finding(f));
    eprintln!(
        "mytune: note: no server answers on this host ({why}); these are the host's own findings"
    );
    let what = "this host (no server)";
    let json = check_formats::by_name(&args.format).is_some_and(|f| f.host_only_json);
    let out = if json {
        report::json::Report::new("check", "host".into(), vec![what.to_string()], &findings)
            .render()
    } else {
        report::text::findings(&findings, what)
    };
    match &args.output {
        Some(path) => super::write_file(path, &out, mytune::atomic::Perms::Private)?,
        None => super::emit(&out)?,
    }
    Ok(
        if mytune::rules::finding::reaches(&findings, args.fail_on) {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        },
    )
}

#[cfg(test)]
mod tests {
    use super::width_from;

    #[test]
    fn columns_overrides_the_terminal_and_120_is_the_default() {
        assert_eq!(width_from(Some(200), || Some(80)), 200);
        assert_eq!(width_from(None, || Some(80)), 80);
        assert_eq!(width_from(None, || Some(200)), 200);
        assert_eq!(width_from(None, || None), 120);
        assert_eq!(width_from(Some(20), || None), 60);
    }
}
