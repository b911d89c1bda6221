//! The check pipeline on one server's facts, as a library function:
//! [`run`] takes the facts (collected live or read from a snapshot), the
//! option files and the settings of a run, and returns the report the
//! renderers print. `mytune check` and the fleet call it once per server;
//! tests call it without the binary.
//!
//! Reading the server is not part of it (see `crate::collect`): the same
//! facts give the same report whether they were just collected or saved.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::catalog::{Catalog, Resolve};
use crate::check::drift::{self, DriftInput};
use crate::check::{CheckReport, Header, Selection, errorlog, header, skipped};
use crate::cnf;
use crate::facts::{ConfigFacts, Facts, ServerFacts};
use crate::rules::{Code, EvalInput, Finding, Profile, RuleSet};
use crate::target::Target;

/// The rule that plans the process's open-files limit (rules/os.toml): the
/// error log's "could not increase max_open_files" defers to its advice
/// when it is reported.
pub const NOFILE_RULE: Code = Code::from_static("MT801");

/// What every server of a run is judged with.
#[derive(Debug, Clone, Copy)]
pub struct Settings<'a> {
    pub rules: &'a RuleSet,
    /// `--only` / `--skip`.
    pub selection: &'a Selection,
    /// The server's option files (`--config`; includes followed, later
    /// files win): compared with the running values, seen by the rules.
    pub config: &'a [PathBuf],
    /// `--upgrade-to`: also report what that release changes.
    pub upgrade_to: Option<Target>,
    /// Keep the rules that did not apply, and the error log's note.
    pub verbose: bool,
}

/// One server to judge.
#[derive(Debug, Clone)]
pub struct Input {
    pub facts: Facts,
    /// Where the facts came from, for the header (an endpoint, a snapshot).
    pub source: String,
    /// The facts were just read from the server (not a snapshot): only then
    /// can an option file's modification time be compared with its start.
    pub live: bool,
    pub profile: Profile,
    /// Where the profile came from, for the header.
    pub profile_source: String,
}

/// A server's report, with what the run should tell on standard error.
#[derive(Debug, Clone)]
pub struct Checked {
    pub report: CheckReport,
    /// Notes (`note: …`): a stand-in catalog, a plan judged on live values.
    pub notes: Vec<String>,
    /// Problems in the option files a server would stop on (`mytune lint`
    /// reports them in full).
    pub file_problems: Vec<String>,
}

/// Why a server could not be judged.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("the snapshot has no server facts (collected with a server connection?)")]
    NoServer,
    #[error("{0}")]
    OptionFile(String),
    #[error("{0}")]
    Upgrade(String),
    /// The rule set lacks what a built-in check judges by.
    #[error("the rule set: {0}")]
    Rules(String),
}

/// Judge one server: the rules as one plan, drift against the option files,
/// parts skipped for a privilege, the error log, `--upgrade-to`, the
/// selection, and the header.
pub fn run(settings: &Settings, input: Input) -> Result<Checked, CheckError> {
    let Input {
        mut facts,
        source,
        live,
        profile,
        profile_source,
    } = input;
    let mut notes = Vec::new();
    let mut file_problems = Vec::new();
    let target = facts
        .server
        .as_ref()
        .map(|s| s.target())
        .ok_or(CheckError::NoServer)?;
    let catalog = Catalog::for_target(&target).ok();
    if let Some(note) = Catalog::stand_in_note(&target) {
        notes.push(note.to_string());
    }
    if !settings.config.is_empty() {
        facts.config = Some(load_config(settings.config, &target, &mut file_problems)?);
    }
    let facts = facts;
    let server = facts.server.as_ref().ok_or(CheckError::NoServer)?;

    // A variable the target has: in its catalog and not removed as of its
    // version (no catalog for the target: assume yes).
    let known = |name: &str| {
        catalog.is_none_or(|c| {
            c.get(name)
                .is_some_and(|v| !v.status_at(target.version).is_removed())
        })
    };
    let evaluation = super::coherent::evaluate(settings.rules, &facts, &profile, &known);
    if settings.verbose
        && let Some(e) = &evaluation.plan_error
    {
        notes.push(format!("findings judged on the live values only: {e}"));
    }

    let mut findings = evaluation.findings;
    if let Some(config) = &facts.config {
        findings.extend(drift::drift(&DriftInput {
            config,
            server,
            catalog,
            edited_after_start: &edited_after_start(live, server),
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
            .filter(|f| f.code == crate::checks::option_unknown_to_server::CHECK.code)
            .filter_map(|f| f.variable.as_deref().and_then(errorlog::normalized_option))
            .collect(),
        nofile_recommended_by: findings
            .iter()
            .find(|f| f.code == NOFILE_RULE && settings.selection.keeps_finding(f))
            .map(|f| f.code.clone()),
        failed_logins: Some(
            errorlog::FailedLogins::from_rules(settings.rules, &EvalInput::new(&facts, &profile))
                .map_err(CheckError::Rules)?,
        ),
    };
    findings.extend(errorlog::findings(server, &log_ctx));
    if let Some(to) = settings.upgrade_to {
        findings.extend(upgrade_findings(server, target, to, settings.config)?);
    }
    findings.retain(|f| settings.selection.keeps_finding(f));
    let not_applicable = if settings.verbose {
        evaluation
            .not_applicable
            .into_iter()
            .filter(|n| {
                settings.selection.keeps_not_applicable(n, |code| {
                    settings
                        .rules
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
    let mut header =
        Header::from_facts(&facts, source, config_files).ok_or(CheckError::NoServer)?;
    header.profile = format!("{profile} ({profile_source})");
    if let Some(h) = facts.host.as_ref().filter(|h| h.memory.effective_bytes > 0) {
        header.budget = Some(header::Budget {
            bytes: crate::rules::evaluate::memory_budget(h, profile.share),
            memory_bytes: h.memory.effective_bytes,
            share: profile.share,
            other_processes: h.other_processes.clone(),
        });
    }
    let live_input = EvalInput::new(&facts, &profile);
    let model = |name| {
        settings
            .rules
            .model_number(name, &live_input)
            .map(|v| v.max(0.0) as u64)
    };
    if let (Some(expected), Some(peak), Some(worst)) =
        (model("expected"), model("peak"), model("worst"))
    {
        header.memory_use = Some(header::MemoryUse {
            expected_bytes: expected,
            expected_connections: peak,
            worst_case_bytes: worst,
        });
    }
    if settings.verbose {
        header.error_log = Some(errorlog::note(server));
    }
    Ok(Checked {
        report: CheckReport::new(header, findings, catalog, not_applicable),
        notes,
        file_problems,
    })
}

/// "Was this file edited since the server started?", answerable only when
/// the facts were just read from a server on this machine. `Uptime` counts
/// whole seconds from a whole-second start time, so now - uptime is within
/// a second of the real start either way: a file counts as edited after the
/// start only when its modification time is more than a second later
/// (never a false "edited").
fn edited_after_start(live: bool, server: &ServerFacts) -> impl Fn(&Path) -> Option<bool> {
    let started = (live && server.is_local).then(|| {
        SystemTime::now() - Duration::from_secs(server.uptime_secs) + Duration::from_secs(1)
    });
    move |file: &Path| {
        let started = started?;
        let modified = std::fs::metadata(file).ok()?.modified().ok()?;
        Some(modified > started)
    }
}

/// Read the option files and keep what the target's server groups say
/// (later files win). Problems a server would stop on go to `problems`.
fn load_config(
    paths: &[PathBuf],
    target: &Target,
    problems: &mut Vec<String>,
) -> Result<ConfigFacts, CheckError> {
    let groups = cnf::server_groups(target);
    let mut merged = ConfigFacts {
        groups: groups.clone(),
        ..ConfigFacts::default()
    };
    for path in paths {
        let loaded = cnf::load(path).map_err(|e| CheckError::OptionFile(e.to_string()))?;
        problems.extend(loaded.errors.iter().map(|e| e.to_string()));
        let eff = loaded.effective(&groups);
        merged.files.extend(eff.files);
        merged.options.extend(eff.options);
    }
    Ok(merged)
}

/// `--upgrade-to NEW`: the defaults that change under the running server,
/// and lint of its option files against NEW.
fn upgrade_findings(
    server: &ServerFacts,
    from: Target,
    to: Target,
    config: &[PathBuf],
) -> Result<Vec<Finding>, CheckError> {
    let upgrade = |e: &dyn std::fmt::Display| CheckError::Upgrade(e.to_string());
    let old = Catalog::for_target(&from).map_err(|e| upgrade(&e))?;
    let new = Catalog::for_target(&to).map_err(|e| upgrade(&e))?;
    let changes = crate::catalog::upgrade::default_changes(old, new);
    let from = from.resolved();
    let mut out =
        crate::lint::upgrade::running_default_findings(&changes, new, &server.variables, from, to);
    for file in config {
        let loaded = cnf::load(file).map_err(|e| CheckError::OptionFile(e.to_string()))?;
        let effective = loaded.effective(&cnf::server_groups(&to));
        out.extend(
            crate::lint::lint_loaded(&loaded, &effective, &to, new)
                .into_iter()
                .filter(|f| {
                    use crate::checks::{
                        option_deprecated, option_removed_in_target, unknown_option,
                    };
                    [
                        unknown_option::CHECK,
                        option_removed_in_target::CHECK,
                        option_deprecated::CHECK,
                    ]
                    .iter()
                    .any(|c| c.made(f))
                }),
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nofile_rule_is_the_one_that_plans_the_open_files_limit() {
        let rules = RuleSet::builtin().unwrap();
        let rule = rules.get(&NOFILE_RULE).expect("MT801 is a built-in rule");
        let planned: Vec<&str> = rule.recommend.iter().map(|r| r.variable.as_str()).collect();
        assert_eq!(planned, ["limit:nofile"]);
    }
}
