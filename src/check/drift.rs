//! Drift: the option files against the running server, the way
//! `pt-config-diff` compares them, but with the server's own reading of
//! values (sizes, `ON`/`OFF`/`1`/`0`, enum case, paths relative to the
//! datadir, block rounding and clamping).
//!
//! This is a comparison of facts, not a tuning heuristic, so it lives in Rust
//! with its own stable codes (MT011–MT013, next to lint's MT001–MT010) and the
//! same [`Check`] table shape `mytune explain` documents.
//!
//! - MT011: a file value differs from the running value, and the server could
//!   have been changed online (`SET GLOBAL` not persisted);
//! - MT012: a file value differs and the server cannot have read it (the file
//!   changed after the server started, or the variable is read-only): it
//!   needs a restart to take effect;
//! - MT013: an option in the file that the running server has no variable for
//!   (misspelled under `loose-`, a plugin that is not loaded, an option of
//!   another version).
//!
//! Options that are not system variables (`user`, `plugin-load-add`) cannot
//! be compared and are skipped, as are values that cannot be read with the
//! variable's type (e.g. `log-bin = NAME` against the boolean `log_bin`).

use std::path::Path;

use crate::catalog::{Catalog, Effect, LineContext, VarInfo, VarKind};
use crate::checks;
use crate::cnf::{Modifier, OptionEntry};
use crate::facts::{ConfigFacts, ConfigOption, ServerFacts};
use crate::rules::builtin_check::Check;
use crate::rules::{Finding, Severity};
use crate::units;

/// What drift compares.
pub struct DriftInput<'a> {
    pub config: &'a ConfigFacts,
    pub server: &'a ServerFacts,
    /// The target's variable catalog, when there is one for it.
    pub catalog: Option<&'a Catalog>,
    /// Was this option file modified after the server started? (`None`:
    /// unknown, e.g. a snapshot read on another machine.)
    pub edited_after_start: &'a dyn Fn(&Path) -> Option<bool>,
}

/// Drift findings, in option-name order.
pub fn drift(input: &DriftInput) -> Vec<Finding> {
    let datadir = input.server.variables.get("datadir").map(String::as_str);
    let mut out = Vec::new();
    for opt in input.config.options.values() {
        let info = input
            .catalog
            .and_then(|c| c.resolve_option(&opt.name))
            .map(|(v, _)| v);
        if info.is_some_and(|v| !v.sysvar) {
            continue;
        }
        // Credentials are not stored, so they cannot be compared, and a
        // finding would print the file's value.
        if crate::facts::server::is_credential_name(&opt.name) {
            continue;
        }
        let var_name = info.map_or(opt.name.as_str(), |v| v.name.as_str());
        let Some(running) = input.server.variables.get(var_name) else {
            let edited = (input.edited_after_start)(&opt.location.file);
            let ctx = LineContext {
                target: Some(input.server.target()),
                ..LineContext::default()
            };
            out.push(unknown(opt, info.is_some(), input.catalog, &ctx, edited));
            continue;
        };
        let kind = info.map(|v| &v.kind);
        if same_value(kind, &opt.value, running, datadir) != Some(false) {
            continue;
        }
        let edited = (input.edited_after_start)(&opt.location.file);
        out.push(differs(opt, var_name, running, info, edited, input.server));
    }
    out
}

/// An option the running server has no variable for. The server is
/// running, so it accepted every line it read at its start: only a file
/// edited since, whose line the catalog says the server refuses, can stop
/// the next start.
fn unknown(
    opt: &ConfigOption,
    in_catalog: bool,
    catalog: Option<&Catalog>,
    ctx: &LineContext,
    edited_after_start: Option<bool>,
) -> Finding {
    let entry = OptionEntry {
        group: opt.group.clone(),
        raw_name: opt.name.clone(),
        name: opt.name.clone(),
        value: Some(opt.value.clone()),
        modifier: if opt.loose {
            Modifier::Loose
        } else {
            Modifier::None
        },
        loose: opt.loose,
        location: opt.location.clone(),
    };
    let judged = catalog.map(|c| c.judge_line(&entry, ctx));
    let refused = judged
        .as_ref()
        .and_then(|js| js.iter().find(|j| j.effect == Effect::Refuses));
    let ignored = catalog.and_then(|c| c.ignored_message(&opt.name));
    let why = if ignored.is_some() {
        "the server accepts it as a no-op and ignores it (it warns at start-up)"
    } else if in_catalog {
        "the running server has no such variable (a plugin that is not loaded?)"
    } else {
        "neither the running server nor its version's catalog knows it"
    };
    let (severity, tail) = match (refused, edited_after_start) {
        (Some(_), Some(true)) if !opt.loose => (
            Severity::Crit,
            "the file changed after the server started, and the server refuses this line: \
             the next start will fail"
                .to_string(),
        ),
        // Whether the server read this file as it is now is unknown (a
        // snapshot): the next start with it fails.
        (Some(_), None) if !opt.loose => (
            Severity::Crit,
            "without loose- the server refuses to start with this line, so the next start \
             with this file will fail"
                .to_string(),
        ),
        _ if opt.loose => (
            Severity::Warn,
            "the loose- prefix makes the server skip it with a warning".to_string(),
        ),
        _ => (
            Severity::Warn,
            "the server started with this line, so it skips it; remove it".to_string(),
        ),
    };
    let mut f = finding(
        &checks::option_unknown_to_server::CHECK,
        severity,
        format!(
            "{} = {} in the option file: {why}; {tail}",
            opt.name, opt.value
        ),
        opt,
    );
    f.current = None;
    f
}

fn differs(
    opt: &ConfigOption,
    var: &str,
    running: &str,
    info: Option<&VarInfo>,
    edited_after_start: Option<bool>,
    server: &ServerFacts,
) -> Finding {
    let read_only = info.is_some_and(|v| !v.dynamic);
    let (check, why) = if edited_after_start == Some(true) {
        (
            &checks::option_not_loaded::CHECK,
            "the file changed after the server started, so the value takes effect at the next restart (unless it was also changed online since)",
        )
    } else if read_only {
        (
            &checks::option_not_loaded::CHECK,
            "the variable is read-only, so the server started with another value (a command-line option, another file, or the file changed since)",
        )
    } else {
        (
            &checks::option_file_drift::CHECK,
            "changed online and not persisted? the next restart brings back the file's value",
        )
    };
    let capped;
    let why = if var == "open_files_limit"
        && edited_after_start != Some(true)
        && units::parse_size(running).ok() < units::parse_size(&opt.value).ok()
    {
        capped = open_files_capped(server);
        capped.as_str()
    } else {
        why
    };
    let mut f = finding(
        check,
        check.severity,
        format!(
            "{var} is {running} on the running server but {} in the option file: {why}",
            opt.value
        ),
        opt,
    );
    f.variable = Some(var.to_string());
    f.current = Some(running.to_string());
    f
}

/// Why the running `open_files_limit` is below the file's: the process's
/// limit capped it. The error log is cited only when it holds the line
/// (MariaDB writes it to standard error before it opens its log: under
/// systemd it is in the journal, not in the file).
fn open_files_capped(server: &ServerFacts) -> String {
    let cause = "the server could not raise its open-files limit that far: the process's hard \
                 limit (LimitNOFILE in the service unit, or ulimit -n) caps it";
    let logged = server
        .error_log
        .as_ref()
        .filter(|l| crate::check::errorlog::usable(l))
        .and_then(|l| l.events.open_files.as_ref());
    match logged {
        Some(o) => format!(
            "{cause}, as the error log says at the current start ('Could not increase number of \
             max_open_files to more than {} (request: {})', MT018)",
            o.limit, o.requested
        ),
        None => cause.to_string(),
    }
}

fn finding(check: &Check, severity: Severity, message: String, opt: &ConfigOption) -> Finding {
    let mut f = check.finding(
        severity,
        message,
        Some(opt.location.clone()),
        Some(opt.name.clone()),
    );
    f.tags.push("drift".to_string());
    f
}

/// Do the file value and the running value mean the same thing for a
/// variable of `kind`? `None` when a value cannot be read as that type, so
/// the two are not comparable.
pub fn same_value(
    kind: Option<&VarKind>,
    file: &str,
    running: &str,
    datadir: Option<&str>,
) -> Option<bool> {
    let file = file.trim();
    let running = running.trim();
    if file.eq_ignore_ascii_case(running) {
        return Some(true);
    }
    match kind {
        Some(VarKind::Bool) => Some(bool_of(file)? == bool_of(running)?),
        Some(VarKind::Integer { min, max }) => {
            let f = int_of(file)?;
            let f = clamp_i(f, *min, *max);
            Some(f == int_of(running)?)
        }
        Some(VarKind::Size { min, max, block }) => {
            let mut f = units::parse_size(file).ok()?;
            if let Some(min) = min {
                f = f.max(*min);
            }
            if let Some(max) = max {
                f = f.min(*max);
            }
            let r = units::parse_size(running).ok()?;
            if let Some(b) = block.filter(|b| *b > 1) {
                Some(f / b == r / b)
            } else {
                Some(f == r)
            }
        }
        Some(VarKind::Float { .. }) => {
            let f: f64 = file.parse().ok()?;
            let r: f64 = running.parse().ok()?;
            Some((f - r).abs() <= 1e-6 * f.abs().max(r.abs()).max(1.0))
        }
        Some(VarKind::Enum { values }) => {
            let f = enum_of(file, values);
            let r = enum_of(running, values);
            Some(f.eq_ignore_ascii_case(&r))
        }
        Some(VarKind::Set { values: _ }) => Some(set_of(file) == set_of(running)),
        // `log_bin = NAME` names the files and turns the log on: the
        // running value is ON, not the name.
        Some(VarKind::Path) if bool_of(running).is_some() && bool_of(file).is_none() => {
            Some(bool_of(running) == Some(!file.is_empty()))
        }
        Some(VarKind::Path) => Some(path_of(file, datadir) == path_of(running, datadir)),
        Some(VarKind::String) => Some(false),
        None => {
            // No catalog entry: numbers (with suffixes) compare as numbers,
            // booleans as booleans, anything else as text.
            if let (Ok(f), Ok(r)) = (units::parse_size(file), units::parse_size(running)) {
                return Some(f == r);
            }
            if let (Some(f), Some(r)) = (bool_of(file), bool_of(running)) {
                return Some(f == r);
            }
            Some(false)
        }
    }
}

fn bool_of(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "on" | "1" | "true" | "yes" => Some(true),
        "off" | "0" | "false" | "no" => Some(false),
        _ => None,
    }
}

fn int_of(s: &str) -> Option<i128> {
    if let Ok(n) = s.parse::<i128>() {
        return Some(n);
    }
    units::parse_size(s).ok().map(i128::from)
}

fn clamp_i(v: i128, min: Option<i128>, max: Option<i128>) -> i128 {
    let v = min.map_or(v, |m| v.max(m));
    max.map_or(v, |m| v.min(m))
}

/// An enum value by name, or by its index when written as a number.
fn enum_of(s: &str, values: &[String]) -> String {
    match s.parse::<usize>() {
        Ok(i) if i < values.len() && !values.iter().any(|v| v == s) => values[i].clone(),
        _ => s.to_string(),
    }
}

fn set_of(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s
        .split(',')
        .map(|p| p.trim().to_ascii_lowercase())
        .filter(|p| !p.is_empty())
        .collect();
    v.sort();
    v.dedup();
    v
}

/// A path as the server resolves it: relative to the datadir, without
/// `./` and trailing slashes.
fn path_of(s: &str, datadir: Option<&str>) -> String {
    let s = s.trim_end_matches('/');
    let rel = s.strip_prefix("./").unwrap_or(s);
    if rel.starts_with('/') {
        return rel.to_string();
    }
    match datadir {
        Some(d) => format!("{}/{rel}", d.trim_end_matches('/')),
        None => rel.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size() -> VarKind {
        VarKind::Size {
            min: Some(1024),
            max: None,
            block: Some(1024),
        }
    }

    #[test]
    fn sizes_compare_as_bytes_with_block_rounding_and_clamping() {
        assert_eq!(
            same_value(Some(&size()), "32M", "33554432", None),
            Some(true)
        );
        assert_eq!(same_value(Some(&size()), "1000", "1024", None), Some(true));
        assert_eq!(same_value(Some(&size()), "2049", "2048", None), Some(true));
        assert_eq!(
            same_value(Some(&size()), "64M", "33554432", None),
            Some(false)
        );
        assert_eq!(same_value(Some(&size()), "lots", "33554432", None), None);
    }

    #[test]
    fn booleans_enums_sets_and_paths() {
        assert_eq!(
            same_value(Some(&VarKind::Bool), "1", "ON", None),
            Some(true)
        );
        assert_eq!(
            same_value(Some(&VarKind::Bool), "OFF", "ON", None),
            Some(false)
        );
        assert_eq!(
            same_value(Some(&VarKind::Bool), "mysql-bin", "ON", None),
            None
        );
        let e = VarKind::Enum {
            values: vec!["O_DIRECT".into(), "fsync".into()],
        };
        assert_eq!(
            same_value(Some(&e), "o_direct", "O_DIRECT", None),
            Some(true)
        );
        assert_eq!(same_value(Some(&e), "1", "fsync", None), Some(true));
        let s = VarKind::Set { values: vec![] };
        assert_eq!(
            same_value(
                Some(&s),
                "STRICT_TRANS_TABLES,NO_ZERO_DATE",
                "NO_ZERO_DATE,STRICT_TRANS_TABLES",
                None
            ),
            Some(true)
        );
        assert_eq!(
            same_value(
                Some(&VarKind::Path),
                "error.log",
                "/var/lib/mysql/error.log",
                Some("/var/lib/mysql/")
            ),
            Some(true)
        );
        assert_eq!(
            same_value(Some(&VarKind::Path), "/tmp/", "/tmp", None),
            Some(true)
        );
        let i = VarKind::Integer {
            min: Some(1),
            max: Some(100_000),
        };
        assert_eq!(same_value(Some(&i), "1K", "1024", None), Some(true));
        assert_eq!(same_value(Some(&i), "999999", "100000", None), Some(true));
        assert_eq!(same_value(Some(&i), "77", "300", None), Some(false));
        assert_eq!(same_value(None, "16M", "16777216", None), Some(true));
    }
}
