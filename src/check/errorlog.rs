//! Error-log evidence (MT017–MT020): what the server itself wrote about its
//! start and its life since, from the bounded tail the collector parsed
//! ([`crate::facts::ErrorLogFacts`]).
//!
//! - MT017: options the server ignored, removed or adjusted at its start
//!   (and, as info, deprecated names and prefixes);
//! - MT018: the open-files limit capped what the server asked for, so it
//!   lowered `open_files_limit` (and perhaps `max_connections` and
//!   `table_open_cache`);
//! - MT019: failed logins since the start, a warning when they come in a
//!   burst;
//! - MT020: the run before the current start crashed or stopped without a
//!   shutdown.
//!
//! Nothing is drawn from a log whose last start does not agree with the
//! server's uptime (another server's log, or a log the server no longer
//! writes). A log that was not read is never a finding: `check -v` says why.

use std::collections::BTreeSet;

use crate::checks;
use crate::facts::ServerFacts;
use crate::facts::errorlog::{ErrorLogFacts, ErrorLogStatus, OptionWarningKind, StopKind};
use crate::rules::builtin_check::Check;
use crate::rules::{EvalInput, Finding, RuleSet, Severity};
use crate::units;

/// MT019's thresholds: the rule set's model entries (rules/security.toml)
/// the check names in `models`, so they are kept, shown and changed with
/// the rules rather than in code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailedLogins {
    /// Failed logins from this many on are an info finding.
    pub noted: u64,
    /// This many within one minute are a burst (warn).
    pub burst_per_minute: u64,
}

impl FailedLogins {
    /// From `rules`' model on these facts; an entry missing, or not a whole
    /// number, is an error naming it.
    pub fn from_rules(rules: &RuleSet, input: &EvalInput) -> Result<FailedLogins, String> {
        use checks::access_denied_burst::{BURST_PER_MINUTE, NOTED};
        let number = |name: &str| {
            rules
                .model_number(name, input)
                .filter(|n| *n >= 1.0 && n.fract() == 0.0)
                .map(|n| n as u64)
                .ok_or_else(|| {
                    format!("model.{name}: MT019 needs it as a whole number of at least 1")
                })
        };
        Ok(FailedLogins {
            noted: number(NOTED)?,
            burst_per_minute: number(BURST_PER_MINUTE)?,
        })
    }
}

/// What the findings need beyond the log.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// Options other findings already report as unknown to the server
    /// (drift's MT013), normalized: not reported twice.
    pub reported_options: BTreeSet<String>,
    /// Another finding (MT801) already gives the LimitNOFILE value.
    pub nofile_recommended_by: Option<crate::rules::Code>,
    /// MT019's thresholds; without them (a rule set lacking the entries)
    /// failed logins are not judged.
    pub failed_logins: Option<FailedLogins>,
}

/// Is the log evidence about this server's current run?
pub fn usable(log: &ErrorLogFacts) -> bool {
    log.status == ErrorLogStatus::Read && log.start_matches_uptime != Some(false)
}

/// The findings the log supports.
pub fn findings(server: &ServerFacts, ctx: &Context) -> Vec<Finding> {
    let Some(log) = server.error_log.as_ref().filter(|l| usable(l)) else {
        return Vec::new();
    };
    let ev = &log.events;
    let at_start = log
        .current_start
        .as_deref()
        .map(|s| format!("at its start ({s})"))
        .unwrap_or_else(|| "at its start".into());
    let mut out = Vec::new();

    // MT017: one finding per kind group.
    let pick = |kinds: &[OptionWarningKind], skip_reported: bool| -> Vec<String> {
        ev.options
            .iter()
            .filter(|w| kinds.contains(&w.kind))
            .filter(|w| !(skip_reported && ctx.reported_options.contains(&w.option)))
            .map(|w| {
                let what = match (w.kind, &w.detail) {
                    (OptionWarningKind::Removed, _) => {
                        "removed; a no-op kept for old option files".to_string()
                    }
                    (OptionWarningKind::Unknown, _) => {
                        "unknown; skipped because of loose-".to_string()
                    }
                    (OptionWarningKind::Adjusted, Some(d)) => d.clone(),
                    (OptionWarningKind::Adjusted, None) => "adjusted".to_string(),
                    (OptionWarningKind::Deprecated, Some(d)) if !d.is_empty() => {
                        format!("deprecated; use {d}")
                    }
                    (OptionWarningKind::Deprecated, _) => "deprecated".to_string(),
                    (OptionWarningKind::Prefix, Some(full)) => format!("a prefix of {full}"),
                    (OptionWarningKind::Prefix, None) => "a prefix".to_string(),
                };
                format!("{} ({what})", w.option)
            })
            .collect()
    };
    let single = |kinds: &[OptionWarningKind], skip: bool| -> Option<String> {
        let names: Vec<&String> = ev
            .options
            .iter()
            .filter(|w| kinds.contains(&w.kind))
            .filter(|w| !(skip && ctx.reported_options.contains(&w.option)))
            .map(|w| &w.option)
            .collect();
        (names.len() == 1).then(|| names[0].clone())
    };
    let ignored = pick(
        &[OptionWarningKind::Removed, OptionWarningKind::Unknown],
        true,
    );
    if !ignored.is_empty() {
        out.push(finding(
            &checks::option_ignored_at_startup::CHECK,
            Severity::Warn,
            format!(
                "{at_start} the server ignored {}: remove them from the option file",
                ignored.join(", ")
            ),
            single(
                &[OptionWarningKind::Removed, OptionWarningKind::Unknown],
                true,
            ),
        ));
    }
    let adjusted = pick(&[OptionWarningKind::Adjusted], false);
    if !adjusted.is_empty() {
        out.push(finding(
            &checks::option_ignored_at_startup::CHECK,
            Severity::Warn,
            format!(
                "{at_start} the server did not take these values as written: {}; write a value in range in the option file (or remove the line)",
                adjusted.join(", ")
            ),
            single(&[OptionWarningKind::Adjusted], false),
        ));
    }
    let soft = pick(
        &[OptionWarningKind::Deprecated, OptionWarningKind::Prefix],
        false,
    );
    if !soft.is_empty() {
        out.push(finding(
            &checks::option_ignored_at_startup::CHECK,
            Severity::Info,
            format!(
                "{at_start} the server warned about {}: they work today; write the full, current names so the next version still reads them",
                soft.join(", ")
            ),
            single(
                &[OptionWarningKind::Deprecated, OptionWarningKind::Prefix],
                false,
            ),
        ));
    }

    // MT018.
    if ev.open_files.is_some() || !ev.changed_limits.is_empty() {
        let mut msg = match &ev.open_files {
            Some(o) => format!(
                "{at_start} the server asked for {} open files and the process limit allowed only {}, so open_files_limit is {}",
                o.requested, o.limit, o.limit
            ),
            None => format!("{at_start} the process's open-files limit was too low"),
        };
        if !ev.changed_limits.is_empty() {
            let lowered: Vec<String> = ev
                .changed_limits
                .iter()
                .map(|c| format!("{} to {} (asked {})", c.variable, c.value, c.requested))
                .collect();
            msg.push_str(&format!("; it also lowered {}", lowered.join(" and ")));
        }
        let target = match (&ctx.nofile_recommended_by, &ev.open_files) {
            (Some(code), _) => format!(" to the value {code} gives"),
            (None, Some(o)) => format!(" to at least {}", o.requested),
            (None, None) => String::new(),
        };
        msg.push_str(&format!(
            ": raise LimitNOFILE in the server's systemd unit (nofile in limits.conf when systemd does not start it){target}, then restart"
        ));
        let mut f = finding(
            &checks::open_files_limit_capped::CHECK,
            Severity::Warn,
            msg,
            Some("open_files_limit".into()),
        );
        f.current = server.variables.get("open_files_limit").cloned();
        out.push(f);
    }

    // MT019.
    if let Some(ad) = &ev.access_denied
        && let Some(limits) = ctx.failed_logins
        && ad.count >= limits.noted
    {
        let burst = ad.peak_per_minute >= limits.burst_per_minute;
        let since = if log.current_start.is_some() {
            "since the server started".to_string()
        } else {
            format!(
                "in the last {} of the error log",
                units::human_size(log.bytes_read)
            )
        };
        let when = match (&ad.first, &ad.last) {
            (Some(a), Some(b)) if a != b => format!(" ({a} to {b})"),
            (Some(a), _) => format!(" ({a})"),
            _ => String::new(),
        };
        let top: Vec<String> = ad
            .top
            .iter()
            .map(|t| format!("{} ×{}", t.account, t.count))
            .collect();
        let advice = if burst {
            "a burst like this is a client retrying with a wrong password or someone guessing passwords: find the client, and block the address if it is not yours"
        } else {
            "a client with a wrong or stale password? fix it before it becomes a burst"
        };
        let mut f = finding(
            &checks::access_denied_burst::CHECK,
            if burst {
                Severity::Warn
            } else {
                Severity::Info
            },
            format!(
                "{} failed logins {since}{when} for {} account(s), most from {}; at most {} within one minute: {advice}",
                ad.count,
                ad.accounts,
                top.join(", "),
                ad.peak_per_minute
            ),
            None,
        );
        f.tags.push("security".into());
        out.push(f);
    }

    // MT020.
    let mut parts: Vec<String> = Vec::new();
    let mut severity = None;
    if let Some(stop) = &ev.previous_stop {
        let at = stop
            .at
            .as_deref()
            .map(|a| format!(" at {a}"))
            .unwrap_or_default();
        let restarted = stop
            .restarted_at
            .as_deref()
            .map(|r| format!("; it restarted at {r}"))
            .unwrap_or_default();
        let recovery = if stop.recovery {
            " with InnoDB crash recovery"
        } else {
            ""
        };
        match stop.kind {
            StopKind::Crash => {
                severity = Some(Severity::Crit);
                parts.push(format!(
                    "the server crashed ({}){at}{restarted}{recovery}: read the crash report before the restart in the error log, and report a repeated crash as a bug",
                    stop.detail.as_deref().unwrap_or("crash")
                ));
            }
            StopKind::Unclean => {
                severity = Some(Severity::Warn);
                let last = if stop.at.is_some() {
                    format!(
                        "the run before the current start logged its last line{at} and no shutdown"
                    )
                } else {
                    "the server did not shut down cleanly before its current start".to_string()
                };
                parts.push(format!(
                    "{last}{restarted}{recovery}: it was killed (the kernel's out-of-memory killer? see dmesg or journalctl -k), or the machine lost power"
                ));
            }
            StopKind::Clean => {}
        }
    }
    if !ev.earlier_crashes.is_empty() {
        severity = severity.or(Some(Severity::Warn));
        let when: Vec<String> = ev
            .earlier_crashes
            .iter()
            .map(|c| {
                format!(
                    "{} ({})",
                    c.at.as_deref().unwrap_or("time not logged"),
                    c.detail.as_deref().unwrap_or("crash")
                )
            })
            .collect();
        parts.push(format!(
            "{} earlier crash(es) in the error log: {}",
            ev.earlier_crashes.len(),
            when.join(", ")
        ));
    }
    if let Some(sev) = severity {
        out.push(finding(
            &checks::unplanned_restart::CHECK,
            sev,
            parts.join("; "),
            None,
        ));
    }
    out
}

fn finding(
    check: &Check,
    severity: Severity,
    message: String,
    variable: Option<String>,
) -> Finding {
    let mut f = check.finding(severity, message, None, variable);
    f.tags = vec!["error-log".to_string()];
    f
}

/// The variable that decides whether this server logs failed logins, and
/// the value from which it does: `log_error_verbosity` 3 where it rules the
/// error log, else `log_warnings` 2 (the flavor table's
/// `error_verbosity_since`).
fn failed_login_setting(server: &ServerFacts) -> (&'static str, u64) {
    let verbosity = server
        .flavor
        .traits()
        .error_verbosity_since
        .is_some_and(|v| server.version >= v)
        && server.variables.contains_key("log_error_verbosity");
    if verbosity {
        ("log_error_verbosity", 3)
    } else {
        ("log_warnings", 2)
    }
}

/// Are failed logins written to the error log by this server's settings?
/// `None` when the variables do not tell.
pub fn logs_access_denied(server: &ServerFacts) -> Option<bool> {
    let (name, from) = failed_login_setting(server);
    let value = server.variables.get(name)?.parse::<u64>().ok()?;
    Some(value >= from)
}

/// One sentence for `check -v`: what was read of the error log, or why
/// nothing was.
pub fn note(server: &ServerFacts) -> String {
    let Some(log) = &server.error_log else {
        return "not collected (facts from a mytune without error-log support)".into();
    };
    let path = log.path.as_deref().unwrap_or(log.setting.as_str());
    let reason = log.reason.as_deref().unwrap_or("");
    let mut s = match log.status {
        ErrorLogStatus::NotLocal => "not read: the server is not on this machine".to_string(),
        ErrorLogStatus::Stderr => format!(
            "not read: log_error is {}; journald-only or console: journalctl -u mariadb (or -u mysql) shows it",
            if log.setting.is_empty() {
                "empty (standard error)".to_string()
            } else {
                format!("{} (standard error)", log.setting)
            }
        ),
        ErrorLogStatus::Absent => format!(
            "not read: {path} is absent on this machine (a server in a container, or a log removed since)"
        ),
        ErrorLogStatus::Unreadable => format!("not read: {path} is unreadable: {reason}"),
        ErrorLogStatus::NotAFile => format!("not read: {path} is not a regular file"),
        ErrorLogStatus::Read => {
            let mut s = format!(
                "read {} of {} {}{}",
                units::human_size(log.bytes_read),
                units::human_size(log.file_bytes),
                path,
                if log.truncated { " (its tail)" } else { "" }
            );
            match (&log.current_start, log.start_matches_uptime) {
                (Some(start), Some(false)) => s.push_str(&format!(
                    "; its last start ({start}) does not agree with the server's uptime: another server's log, or one this server no longer writes; no finding drawn from it"
                )),
                (Some(start), _) => s.push_str(&format!(
                    "; current start {start}, {} start(s) in the tail",
                    log.events.starts
                )),
                (None, _) => s.push_str(
                    "; no server start in it (the log grew or was rotated since): start-up warnings not seen",
                ),
            }
            s
        }
    };
    if log.status == ErrorLogStatus::Read && logs_access_denied(server) == Some(false) {
        let (name, from) = failed_login_setting(server);
        s.push_str(&format!(
            "; failed logins are not logged ({name} below {from})"
        ));
    }
    s
}

/// The option name drift reported, normalized like the log's.
pub fn normalized_option(name: &str) -> Option<String> {
    crate::collect::errorlog::option_name(name)
}
