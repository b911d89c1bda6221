//! `check --inventory` (and `check --format jsonl|openmetrics` for one
//! server): read the inventories, connect to every server at once within
//! bounds, judge each with the single-server pipeline
//! ([`super::check::Judge`]), and write the summary, JSON Lines or metrics.
//!
//! Collection (network waits) runs on the pool's threads; judging runs on
//! one thread per CPU as each server's facts arrive.

use std::collections::BTreeSet;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use anyhow::{Context, bail};

use crate::cli::collect::CollectFlags;
use mytune::atomic::Perms;
use mytune::check::Selection;
use mytune::collect::{self, ConnectionConfig, HostMode};
use mytune::facts::Facts;
use mytune::fleet::inventory::{self, Endpoint, ProfileOverrides};
use mytune::fleet::outcome::{self, ServerOutcome};
use mytune::fleet::pool;
use mytune::rules::RuleSet;

use super::check::{Judge, Judged, profile_for, project_profile};
use crate::cli::check::CheckArgs;
use mytune::report::check_formats::{self, FleetFormat, FleetStyle};

/// One server to check: where, as whom, and what is known of its host.
pub(super) struct Target {
    pub(super) name: String,
    pub(super) cfg: ConnectionConfig,
    host_mode: HostMode,
    profile: ProfileOverrides,
    /// The memory and the CPUs came from the inventory (not the flags).
    from_inventory: (bool, bool),
}

pub fn run(args: &CheckArgs, rules: &RuleSet, selection: &Selection) -> anyhow::Result<ExitCode> {
    let fleet = check_formats::by_name(&args.format).and_then(|f| f.fleet.as_ref());
    let Some(fleet) = fleet else {
        bail!(
            "--format {} report{} one server; with --inventory use {}",
            check_formats::one_server_only().join(" and "),
            if check_formats::one_server_only().len() == 1 {
                "s"
            } else {
                ""
            },
            or_list(&check_formats::fleet_formats())
        );
    };
    let base_profile = project_profile(args)?;
    let judge = Judge {
        args,
        rules,
        selection,
    };
    let mut notes = BTreeSet::new();
    let (outcomes, skipped) = match &args.snapshot {
        // One snapshot as a fleet of one (jsonl, openmetrics).
        Some(path) => {
            let began = std::time::Instant::now();
            let facts = super::check::read_snapshot(args, path)?;
            let profile = profile_for(args, &base_profile, &ProfileOverrides::default())?;
            let source = format!("snapshot {}", path.display());
            let Judged { report, notes: n } = judge.judge(facts, source.clone(), false, profile)?;
            notes.extend(n);
            let outcome = ServerOutcome {
                name: path.display().to_string(),
                endpoint: source,
                status: Ok(report),
                duration: began.elapsed(),
                finished_at: SystemTime::now(),
            };
            (vec![outcome], 0)
        }
        None => {
            // Credentials once (a prompt asks once), then one endpoint per server.
            let base = collect::connect::resolve_from_env(&args.flags.connect.args())?;
            let (targets, skipped) =
                targets(&args.flags, &args.inventory, &args.fleet.group, &base)?;
            // A streamed format goes out as each server is judged (no report
            // is kept for the end); an -o file that cannot be written fails now.
            let lines = match fleet.stream {
                Some(_) => Some(Mutex::new(LineOut::open(args.output.as_deref())?)),
                None => None,
            };
            let stream = fleet
                .stream
                .zip(lines.as_ref())
                .map(|(line, to)| Stream { line, to });
            let outcomes = check_all(
                args,
                &judge,
                &base_profile,
                targets,
                &mut notes,
                fleet,
                stream,
            );
            if let Some(lines) = lines {
                for n in notes {
                    mytune::stderr_line!("note: {n}");
                }
                lines
                    .into_inner()
                    .map_err(|_| {
                        anyhow::anyhow!("mytune failed while writing (a bug: please report it)")
                    })?
                    .finish()?;
                return Ok(ExitCode::from(outcome::exit_status(
                    &outcomes,
                    args.fail_on,
                )));
            }
            (outcomes, skipped)
        }
    };
    for n in notes {
        mytune::stderr_line!("note: {n}");
    }

    let text = (fleet.render)(&outcomes, &fleet_style(args, skipped));
    let perms = if fleet.shared_file {
        Perms::Shared
    } else {
        Perms::Private
    };
    match &args.output {
        Some(path) => super::write_file(path, &text, perms)?,
        None => super::emit(&text)?,
    }
    Ok(ExitCode::from(outcome::exit_status(
        &outcomes,
        args.fail_on,
    )))
}

/// The servers to check: the inventories' entries, or the one server the
/// connection flags name. Also the number of inventory entries skipped.
pub(super) fn targets(
    flags: &CollectFlags,
    inventories: &[PathBuf],
    groups: &[String],
    base: &ConnectionConfig,
) -> anyhow::Result<(Vec<Target>, usize)> {
    if inventories.is_empty() {
        let target = Target {
            name: base.endpoint(),
            cfg: base.clone(),
            host_mode: flags.host_mode(),
            profile: ProfileOverrides::default(),
            from_inventory: (false, false),
        };
        return Ok((vec![target], 0));
    }
    let mut inv = inventory::load(inventories, base.port)?;
    for d in &inv.diagnostics {
        mytune::stderr_line!("mytune: {d}");
    }
    inv.select(groups).map_err(|e| anyhow::anyhow!(e))?;
    if inv.entries.is_empty() {
        let files: Vec<String> = inventories
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        bail!("no server to check in {}", files.join(", "));
    }
    // Each --defaults-group-suffix an entry names, read once; a password
    // prompt (-p, or `password` without a value in a group) is asked once
    // for the run.
    let mut by_suffix: std::collections::BTreeMap<String, ConnectionConfig> = Default::default();
    let mut answered = base
        .password
        .clone()
        .filter(|_| matches!(flags.connect.password, Some(None)));
    for suffix in inv.entries.iter().filter_map(|e| e.group_suffix.as_ref()) {
        if by_suffix.contains_key(suffix) {
            continue;
        }
        let mut prompt = || match &answered {
            Some(p) => Ok(p.clone()),
            None => {
                let p = collect::connect::prompt_password()?;
                answered = Some(p.clone());
                Ok(p)
            }
        };
        let cfg = collect::connect::resolve_with_suffix(&flags.connect.args(), suffix, &mut prompt)
            .with_context(|| format!("the option groups of --defaults-group-suffix {suffix}"))?;
        by_suffix.insert(suffix.clone(), cfg);
    }
    let flags = flags.host_mode();
    let targets = inv
        .entries
        .into_iter()
        .map(|e| {
            let mut cfg = match &e.group_suffix {
                Some(s) => by_suffix.get(s).cloned().unwrap_or_else(|| base.clone()),
                None => base.clone(),
            };
            match &e.endpoint {
                Endpoint::Tcp { host, port } => {
                    cfg.host = Some(host.clone());
                    cfg.socket = None;
                    if let Some(p) = port {
                        cfg.port = *p;
                    }
                }
                Endpoint::Socket(path) => {
                    cfg.host = None;
                    cfg.socket = Some(path.clone());
                }
            }
            // The flags describe every host; the inventory each one.
            let described = flags.description;
            let host_mode = HostMode {
                disabled: flags.disabled,
                description: collect::HostDescription {
                    memory_bytes: described.memory_bytes.or(e.host.memory_bytes),
                    cpus: described.cpus.or(e.host.cpus),
                    disk: described.disk.or(e.host.disk),
                },
                paths: Default::default(),
                described_only: true,
            };
            Target {
                name: e.name,
                cfg,
                host_mode,
                profile: e.profile,
                from_inventory: (
                    described.memory_bytes.is_none() && e.host.memory_bytes.is_some(),
                    described.cpus.is_none() && e.host.cpus.is_some(),
                ),
            }
        })
        .collect();
    Ok((targets, inv.diagnostics.len()))
}

/// Collect every target on the pool and judge each as it arrives, on as
/// many threads as there are CPUs (judging is the CPU part of a check; the
/// pool's threads mostly wait on the network).
///
/// With `lines`, each server's JSON line is written there as soon as it is
/// judged, in the order servers finish, and only what the exit status needs
/// is kept.
/// How the fleet report is drawn, from the flags.
fn fleet_style(args: &CheckArgs, inventory_problems: usize) -> FleetStyle {
    FleetStyle {
        verbose: args.verbose,
        details: args.details,
        fail_on: args.fail_on,
        inventory_problems,
    }
}

/// Where a streamed format writes each server's line, as it is judged.
#[derive(Clone, Copy)]
struct Stream<'a> {
    line: fn(&ServerOutcome, &FleetStyle) -> String,
    to: &'a Mutex<LineOut>,
}

fn check_all(
    args: &CheckArgs,
    judge: &Judge,
    base_profile: &(mytune::rules::Profile, Option<String>),
    targets: Vec<Target>,
    notes: &mut BTreeSet<String>,
    fleet: &FleetFormat,
    stream: Option<Stream>,
) -> Vec<ServerOutcome> {
    let jobs = if args.inventory.is_empty() {
        1
    } else {
        usize::from(args.fleet.jobs)
    };
    let results = Mutex::new(collect_all(&args.flags, &targets, jobs));
    let outcomes: Mutex<Vec<Option<ServerOutcome>>> =
        Mutex::new(targets.iter().map(|_| None).collect());
    let shared_notes = Mutex::new(BTreeSet::new());
    // A count on standard error while servers are being checked, when it is
    // a terminal (never in a log or a pipe).
    let progress = Progress::new(targets.len());
    // Streamed lines need nothing more once written; a report that does
    // not read whole reports at the end keeps counts and names only.
    let style = fleet_style(args, 0);
    let slim = stream.is_some() || !(fleet.keeps_reports)(&style);
    let judges = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, targets.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..judges {
            scope.spawn(|| {
                loop {
                    // One judge at a time waits for the next result.
                    let next = results.lock().map(|rx| rx.recv());
                    let Ok(Ok(done)) = next else { break };
                    let t = &targets[done.index];
                    let began = std::time::Instant::now();
                    let mut n = BTreeSet::new();
                    let status = match done.result {
                        Err(overdue) => Err(overdue.to_string()),
                        Ok(Err(e)) => Err(e),
                        Ok(Ok(facts)) => judge_one(args, judge, base_profile, t, facts, &mut n),
                    };
                    let mut outcome = ServerOutcome {
                        name: t.name.clone(),
                        endpoint: t.cfg.endpoint(),
                        status,
                        duration: done.elapsed + began.elapsed(),
                        finished_at: SystemTime::now(),
                    };
                    if let Some(stream) = stream {
                        let line = (stream.line)(&outcome, &style);
                        if let Ok(mut out) = stream.to.lock() {
                            out.write(&line);
                        }
                    }
                    if slim {
                        outcome.slim();
                    }
                    if let Ok(mut all) = shared_notes.lock() {
                        all.extend(n);
                    }
                    if let Ok(mut o) = outcomes.lock() {
                        o[done.index] = Some(outcome);
                    }
                    progress.one_done();
                }
            });
        }
    });
    progress.clear();
    notes.extend(shared_notes.into_inner().unwrap_or_default());
    outcomes
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .zip(&targets)
        .map(|(o, t)| {
            o.unwrap_or_else(|| ServerOutcome {
                name: t.name.clone(),
                endpoint: t.cfg.endpoint(),
                status: Err("mytune could not start its check".into()),
                duration: Duration::ZERO,
                finished_at: SystemTime::now(),
            })
        })
        .collect()
}

/// Collect every target's facts on the pool, at most `jobs` at once, each
/// within --timeout (plus --interval). Results arrive as servers finish.
pub(super) fn collect_all(
    flags: &CollectFlags,
    targets: &[Target],
    jobs: usize,
) -> std::sync::mpsc::Receiver<pool::Done<Result<Facts, String>>> {
    let server_opts = flags.server_options();
    let deadline = flags
        .timeout
        .saturating_add(flags.interval.unwrap_or_default());
    let work: Vec<(ConnectionConfig, HostMode, (bool, bool))> = targets
        .iter()
        .map(|t| (t.cfg.clone(), t.host_mode.clone(), t.from_inventory))
        .collect();
    pool::run(work, jobs, deadline, move |(cfg, host_mode, inv)| {
        let mut facts = collect::collect(&cfg, &server_opts, &host_mode, &mut |_, _| {})
            .map_err(|e| e.to_string())?;
        // The header says where the sizes came from.
        if let Some(h) = facts.host.as_mut() {
            if inv.0 {
                h.memory.effective_source = "inventory".into();
            }
            if inv.1 {
                h.cpu.effective_source = "inventory".into();
            }
        }
        Ok::<Facts, String>(facts)
    })
}

fn judge_one(
    args: &CheckArgs,
    judge: &Judge,
    base_profile: &(mytune::rules::Profile, Option<String>),
    t: &Target,
    facts: Facts,
    notes: &mut BTreeSet<String>,
) -> Result<mytune::check::CheckReport, String> {
    let profile = profile_for(args, base_profile, &t.profile).map_err(|e| format!("{e:#}"))?;
    let Judged { report, notes: n } = judge
        .judge(facts, t.cfg.endpoint(), true, profile)
        .map_err(|e| format!("{e:#}"))?;
    notes.extend(n);
    Ok(report)
}

/// `collect --inventory`: every server's snapshot into `dir`, as
/// `NAME.json`, each written as it arrives. Exit 2 when a server could not
/// be read (the others are written).
pub fn collect(
    flags: &CollectFlags,
    inventories: &[PathBuf],
    groups: &[String],
    jobs: u16,
    dir: &Path,
) -> anyhow::Result<ExitCode> {
    let base = collect::connect::resolve_from_env(&flags.connect.args())?;
    let (targets, skipped) = targets(flags, inventories, groups, &base)?;
    if !dir.is_dir() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .with_context(|| format!("cannot create the snapshot directory {}", dir.display()))?;
    }
    let files = file_names(&targets);
    let mut failed = 0;
    for done in collect_all(flags, &targets, usize::from(jobs)) {
        let t = &targets[done.index];
        let facts = match done.result {
            Err(overdue) => Err(overdue.to_string()),
            Ok(r) => r,
        };
        match facts {
            Ok(facts) => {
                let path = dir.join(&files[done.index]);
                super::write_file(&path, &(facts.to_json() + "\n"), Perms::Private)?;
            }
            Err(e) => {
                failed += 1;
                mytune::stderr_line!("mytune: {}: {e}", t.name);
            }
        }
    }
    mytune::stderr_line!(
        "mytune: collected {} of {} server{} into {}{}",
        targets.len() - failed,
        targets.len(),
        if targets.len() == 1 { "" } else { "s" },
        dir.display(),
        if skipped > 0 {
            format!("; {skipped} inventory entries skipped")
        } else {
            String::new()
        }
    );
    Ok(ExitCode::from(if failed > 0 { 2 } else { 0 }))
}

/// A snapshot file name per target, from its name: letters, digits, `.`,
/// `-` and `_` kept, anything else `_`; never hidden, never twice.
fn file_names(targets: &[Target]) -> Vec<String> {
    let mut used = BTreeSet::new();
    targets
        .iter()
        .map(|t| {
            let mut stem: String = t
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            if stem.starts_with('.') || stem.is_empty() {
                stem.insert(0, '_');
            }
            let mut name = format!("{stem}.json");
            let mut n = 2;
            while !used.insert(name.clone()) {
                name = format!("{stem}-{n}.json");
                n += 1;
            }
            name
        })
        .collect()
}

/// Where `--format jsonl` writes each server's line as it is judged:
/// standard output (flushed per line, so a pipeline sees each server when
/// it is done), or the `-o` file, staged beside its place and renamed into
/// it at the end (a reader never sees half a run).
pub(super) struct LineOut {
    to: Lines,
    /// The first write that failed; no later line is tried.
    failed: Option<anyhow::Error>,
}

enum Lines {
    Stdout,
    File(PathBuf, mytune::atomic::Staged),
}

impl LineOut {
    pub(super) fn open(output: Option<&Path>) -> anyhow::Result<LineOut> {
        let to = match output {
            Some(path) => Lines::File(
                path.to_path_buf(),
                mytune::atomic::stage(path, b"", Perms::Private, mytune::atomic::Backup::None)?,
            ),
            None => Lines::Stdout,
        };
        Ok(LineOut { to, failed: None })
    }

    pub(super) fn write(&mut self, line: &str) {
        if self.failed.is_some() {
            return;
        }
        let written = match &mut self.to {
            Lines::Stdout => super::emit(line).map_err(anyhow::Error::from),
            Lines::File(_, staged) => staged.append(line.as_bytes()).map_err(anyhow::Error::from),
        };
        if let Err(e) = written {
            self.failed = Some(e);
        }
    }

    /// The first write error, or the file put in place.
    pub(super) fn finish(self) -> anyhow::Result<()> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        if let Lines::File(path, staged) = self.to {
            let written = staged.commit()?;
            super::tell_written(&path, &written);
        }
        Ok(())
    }
}

/// `checked 350 of 1000 servers` on standard error, redrawn in place, when
/// standard error is a terminal and there is more than one server.
struct Progress {
    total: usize,
    done: std::sync::atomic::AtomicUsize,
    shown: bool,
}

impl Progress {
    fn new(total: usize) -> Progress {
        use std::io::IsTerminal;
        Progress {
            total,
            done: std::sync::atomic::AtomicUsize::new(0),
            shown: total > 1 && std::io::stderr().is_terminal(),
        }
    }

    fn one_done(&self) {
        let n = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if self.shown {
            use std::io::Write;
            let _ = write!(std::io::stderr(), "\rchecked {n} of {} servers", self.total);
        }
    }

    fn clear(&self) {
        if self.shown {
            use std::io::Write;
            let _ = write!(std::io::stderr(), "\r{:40}\r", "");
        }
    }
}

/// "a, b or c".
fn or_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
