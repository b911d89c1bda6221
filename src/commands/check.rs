//! `mytune check`: collect facts from a live server (or read a snapshot),
//! add the option files given with `--config`, evaluate the rules, compare the
//! files with the running values (drift), and report.

use mytune::catalog::Resolve;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};

use mytune::catalog::Catalog;
use mytune::check::drift::{self, DriftInput};
use mytune::check::{CheckReport, Header, Selection};
use mytune::check::{errorlog, skipped};
use mytune::cnf;
use mytune::collect::flags::CollectFlags;
use mytune::facts::{ConfigFacts, Facts};
use mytune::fleet::inventory::ProfileOverrides;
use mytune::report::{self, check_markdown, check_text};
use mytune::rules::{Profile, Severity};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// The report for people; with --inventory a summary line per server.
    Text,
    Json,
    Markdown,
    /// One JSON object per line and server: the json report plus name,
    /// endpoint and status (ok, or error with the reason), each written
    /// as its server is done.
    Jsonl,
    /// Metrics for node_exporter's textfile collector (and Prometheus).
    Openmetrics,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Advice on a live server (or a snapshot), with drift against its option files.
#[derive(Debug, Args)]
#[command(disable_help_flag = true)]
pub struct CheckArgs {
    #[command(flatten)]
    pub flags: CollectFlags,
    /// Read the facts from a snapshot written by `mytune collect` instead of
    /// connecting.
    #[arg(long, value_name = "FILE", conflicts_with = "interval")]
    pub snapshot: Option<PathBuf>,
    /// Check every server of this inventory (repeatable): plain lines (`host[:port]` or a
    /// socket path, then a name and settings such as memory=64G cpus=16), or an Ansible
    /// inventory, INI or YAML (hosts and groups; the address from ansible_host, the port from
    /// mysql_port or mytune_port, never ansible_port, which is SSH's; settings as mytune_memory,
    /// mytune_cpus, mytune_disk, mytune_durability, ...). Credentials are taken as for one server
    /// (option files, MYSQL_PWD, -p asked once), never from the inventory; an entry may name its
    /// own option groups with defaults_group_suffix=_SUFFIX (Ansible:
    /// mytune_defaults_group_suffix), read as --defaults-group-suffix reads them. -P is the port
    /// of entries naming none. A remote server's host is what the inventory (or --memory, --cpus, --disk) says,
    /// never this machine. A line that cannot be read is reported and skipped; a server listed
    /// twice is checked once.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["snapshot", "config", "host", "socket", "protocol"])]
    pub inventory: Vec<PathBuf>,
    /// With --inventory: check only the hosts of this Ansible group (directly or through its
    /// child groups); repeat for several. A group no host is in is an error.
    #[arg(long, value_name = "GROUP", requires = "inventory")]
    pub group: Vec<String>,
    /// With --inventory: how many servers are checked at once (about 0.5 MiB of memory each).
    /// Each has its own deadline (--connect-timeout, --read-timeout for each reply, --timeout for
    /// the whole server), so a silent server never holds the others.
    #[arg(long, value_name = "N", default_value_t = 128, requires = "inventory",
          value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: u16,
    /// With --inventory and --format text: each server's full report after the summary.
    #[arg(long, requires = "inventory")]
    pub details: bool,
    /// The server's option file (its includes are followed): compare it with
    /// the running values and let rules see it. Repeat for several files;
    /// later ones win.
    #[arg(long, value_name = "FILE")]
    pub config: Vec<PathBuf>,
    /// Add the rules of every *.toml file in DIR (a code already built in is replaced).
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    #[command(flatten)]
    pub profile: super::profile_args::ProfileArgs,
    /// Take the profile (durability, workload, connections, share) from this
    /// mytune.toml; by default the nearest mytune.toml up from the current
    /// directory, if any. The flags above win over it.
    #[arg(long, value_name = "FILE")]
    pub project: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Colours in the text report (NO_COLOR turns `auto` off).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Report only these codes, rule names or families (comma-separated or repeated).
    #[arg(long, value_name = "KEY")]
    pub only: Vec<String>,
    /// Leave out these codes, rule names or families.
    #[arg(long, value_name = "KEY")]
    pub skip: Vec<String>,
    /// Exit 1 when a finding at or above this severity exists.
    #[arg(long, value_name = "SEVERITY", default_value = "warn", value_parser = crate::cli::severity_parser())]
    pub fail_on: Severity,
    /// Write the report to FILE instead of standard output (no colours). A new FILE gets mode
    /// 0600 (it holds server data; 0644 with --format openmetrics, for node_exporter's textfile
    /// collector, which reads a temporary file renamed into place); a file replaced keeps its owner, group and mode (one mytune
    /// cannot give them back, or with other hard links, is refused: exit 2); a symbolic link at
    /// FILE is followed (its target is written, the link kept).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also report what an upgrade to this release changes: every variable running with today's
    /// default whose default differs there (MT023), and what that release refuses or deprecates in
    /// the --config files.
    #[arg(long, value_name = "FLAVOR-VERSION", value_parser = crate::cli::parse_target)]
    pub upgrade_to: Option<mytune::target::Target>,
    /// Also list the rules that did not apply, with the reason.
    #[arg(short = 'v', long)]
    pub verbose: bool,
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let rules = match super::load_rules(args.rules.as_deref()) {
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

    if !args.inventory.is_empty()
        || matches!(args.format, CheckFormat::Jsonl | CheckFormat::Openmetrics)
    {
        return super::fleet::run(&args, &rules, &selection);
    }

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

    let out = match args.format {
        CheckFormat::Text => check_text::render(
            &report,
            check_text::Style {
                color: use_color(args.color, args.output.is_some()),
                width: terminal_width(args.output.is_some()),
            },
        ),
        CheckFormat::Json => report::check_json::render(&report, args.verbose),
        CheckFormat::Markdown => check_markdown::render(&report),
        CheckFormat::Jsonl | CheckFormat::Openmetrics => {
            unreachable!("jsonl and openmetrics go through the fleet path")
        }
    };
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
    /// The check pipeline on one server's facts: the rules as one plan,
    /// drift against the --config files, skipped parts, the error log,
    /// --upgrade-to, the selection, and the header. `live`: the facts were
    /// just read from the server (not a snapshot).
    pub fn judge(
        &self,
        mut facts: Facts,
        source: String,
        live: bool,
        (profile, profile_source): (Profile, String),
    ) -> anyhow::Result<Judged> {
        let (args, rules, selection) = (self.args, self.rules, self.selection);
        let mut notes = Vec::new();
        let Some(target) = facts.server.as_ref().map(|s| s.target()) else {
            bail!("the snapshot has no server facts (collected with a server connection?)");
        };
        let catalog = Catalog::for_target(&target).ok();
        if let Some(note) = Catalog::stand_in_note(&target) {
            notes.push(note.to_string());
        }

        if !args.config.is_empty() {
            facts.config = Some(load_config(&args.config, &target)?);
        }
        let facts = facts;
        let Some(server) = facts.server.as_ref() else {
            bail!("the snapshot has no server facts (collected with a server connection?)");
        };

        // A variable the target has: in its catalog and not removed as of its
        // version (no catalog for the target: assume yes).
        let known = |name: &str| {
            catalog.is_none_or(|c| {
                c.get(name)
                    .is_some_and(|v| !v.status_at(target.version).is_removed())
            })
        };
        let evaluation = mytune::check::coherent::evaluate(rules, &facts, &profile, &known);
        if args.verbose
            && let Some(e) = &evaluation.plan_error
        {
            notes.push(format!("findings judged on the live values only: {e}"));
        }

        let mut findings = evaluation.findings;
        if let Some(config) = &facts.config {
            // Start of the server, for "was the file edited since?"; only
            // meaningful when the files are on the server's machine right now.
            // `Uptime` counts whole seconds from a whole-second start time, so
            // now - uptime is within a second of the real start either way: a
            // file counts as edited after the start only when its modification
            // time is more than a second later (never a false "edited").
            let started = (live && server.is_local).then(|| {
                SystemTime::now() - Duration::from_secs(server.uptime_secs) + Duration::from_secs(1)
            });
            let edited = |file: &Path| -> Option<bool> {
                let started = started?;
                let modified = std::fs::metadata(file).ok()?.modified().ok()?;
                Some(modified > started)
            };
            findings.extend(drift::drift(&DriftInput {
                config,
                server,
                catalog,
                edited_after_start: &edited,
            }));
        }
        // A part skipped for a missing privilege is a finding, so --fail-on
        // gates cannot pass on what was never read.
        findings.extend(skipped::findings(&facts.skipped));
        // What the server's own error log says; an option drift already
        // reports as unknown to the server is not reported twice.
        let log_ctx = errorlog::Context {
            reported_options: findings
                .iter()
                .filter(|f| f.code == drift::UNKNOWN_TO_SERVER.code)
                .filter_map(|f| f.variable.as_deref().and_then(errorlog::normalized_option))
                .collect(),
            nofile_recommended_by: findings
                .iter()
                .find(|f| f.code == "MT801" && selection.keeps_finding(f))
                .map(|f| f.code.clone()),
        };
        findings.extend(errorlog::findings(server, &log_ctx));
        if let Some(to) = args.upgrade_to {
            findings.extend(upgrade_findings(server, target, to, &args.config)?);
        }
        findings.retain(|f| selection.keeps_finding(f));
        let not_applicable = if args.verbose {
            evaluation
                .not_applicable
                .into_iter()
                .filter(|n| {
                    selection.keeps_not_applicable(n, |code| {
                        rules
                            .get(code)
                            .map(|r| (r.name.clone(), r.family.as_str().to_string()))
                    })
                })
                .collect()
        } else {
            Vec::new()
        };

        let config_files = facts
            .config
            .as_ref()
            .map(|c| c.files.iter().map(|f| f.display().to_string()).collect())
            .unwrap_or_default();
        let mut header = Header::from_facts(&facts, source, config_files)
            .context("the facts have no server part")?;
        header.profile = format!("{profile} ({profile_source})");
        if let Some(h) = facts.host.as_ref().filter(|h| h.memory.effective_bytes > 0) {
            header.budget = Some(mytune::check::header::Budget {
                bytes: mytune::rules::evaluate::memory_budget(h, profile.share),
                memory_bytes: h.memory.effective_bytes,
                share: profile.share,
                other_processes: h.other_processes.clone(),
            });
        }
        let live_input = mytune::rules::EvalInput::new(&facts, &profile);
        let model = |name| {
            rules
                .model_number(name, &live_input)
                .map(|v| v.max(0.0) as u64)
        };
        if let (Some(expected), Some(peak), Some(worst)) =
            (model("expected"), model("peak"), model("worst"))
        {
            header.memory_use = Some(mytune::check::header::MemoryUse {
                expected_bytes: expected,
                expected_connections: peak,
                worst_case_bytes: worst,
            });
        }
        if args.verbose {
            header.error_log = Some(errorlog::note(server));
        }
        Ok(Judged {
            report: CheckReport::new(header, findings, catalog, not_applicable),
            notes,
        })
    }
}

/// Read the option files and keep what the target's server groups say
/// (later files win). Problems a server would stop on are printed; `mytune
/// lint` reports them in full.
fn load_config(paths: &[PathBuf], target: &mytune::target::Target) -> anyhow::Result<ConfigFacts> {
    let groups = cnf::server_groups(target);
    let mut merged = ConfigFacts {
        groups: groups.clone(),
        ..ConfigFacts::default()
    };
    for path in paths {
        let loaded = cnf::load(path).map_err(|e| anyhow::anyhow!("{e}"))?;
        for e in &loaded.errors {
            mytune::stderr_line!("mytune: {e} (see `mytune lint`)");
        }
        let eff = loaded.effective(&groups);
        merged.files.extend(eff.files);
        merged.options.extend(eff.options);
    }
    Ok(merged)
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

/// `--upgrade-to NEW`: the defaults that change under the running server,
/// and lint of its option files against NEW.
fn upgrade_findings(
    server: &mytune::facts::ServerFacts,
    from: mytune::target::Target,
    to: mytune::target::Target,
    config: &[PathBuf],
) -> anyhow::Result<Vec<mytune::rules::Finding>> {
    let old = Catalog::for_target(&from)?;
    let new = Catalog::for_target(&to)?;
    let changes = mytune::catalog::upgrade::default_changes(old, new);
    let from = from.resolved();
    let mut out =
        mytune::lint::upgrade::running_default_findings(&changes, new, &server.variables, from, to);
    for file in config {
        let loaded = mytune::cnf::load(file).map_err(|e| anyhow::anyhow!("{e}"))?;
        let effective = loaded.effective(&mytune::cnf::server_groups(&to));
        out.extend(
            mytune::lint::lint_loaded(&loaded, &effective, &to, new)
                .into_iter()
                .filter(|f| {
                    use mytune::lint::checks::{DEPRECATED_OPTION, REMOVED_OPTION, UNKNOWN_OPTION};
                    [UNKNOWN_OPTION, REMOVED_OPTION, DEPRECATED_OPTION]
                        .iter()
                        .any(|c| c.made(f))
                }),
        );
    }
    Ok(out)
}

/// Did the connection fail because nothing listens there (no server on
/// this host), rather than refusing or failing later?
fn not_listening(e: &mytune::collect::flags::CollectError) -> bool {
    use mytune::collect::ConnectError;
    use mytune::collect::flags::CollectError;
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
    let out = match args.format {
        CheckFormat::Json => {
            report::json::Report::new("check", "host".into(), vec![what.to_string()], &findings)
                .render()
        }
        CheckFormat::Text
        | CheckFormat::Markdown
        | CheckFormat::Jsonl
        | CheckFormat::Openmetrics => report::text::findings(&findings, what),
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
