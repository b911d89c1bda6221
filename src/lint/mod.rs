//! `mytune lint`: does the target server read an option file the way its
//! author meant?
//!
//! Reading is the cnf module's job and knowing variables is the catalog's;
//! this module only puts the two side by side and turns every disagreement
//! into a [`Finding`] with the file and line to fix. The structural checks
//! (MT0xx) are listed in [`checks`].
//!
//! A whole run ([`run::lint_files`]) adds the rule catalog: `mytune.toml`
//! ([`config`]) describes the host, sysctl and limits files ([`system`])
//! become host facts, inline comments ([`suppress`]) silence findings.

pub mod checks;
pub mod config;
pub mod limits_file;
pub mod run;
pub mod suppress;
pub mod sysctl_file;
pub mod system;
pub mod walk;

pub use run::{LintOptions, LintOutcome, lint_files};

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use crate::catalog::{Catalog, VarKind, VarStatus, edit_distance};
use crate::cnf::{self, LoadedFiles, Modifier, OptionEntry};
use crate::facts::{ConfigFacts, SourceLocation};
use crate::rules::{Finding, Severity};
use crate::target::Target;

use checks::Check;

/// Client-side option names that also exist as server variables; they are at
/// home in `[client]` and `[mysql]`, so they are not "server options in the
/// wrong group".
const CLIENT_OPTIONS: &[&str] = &[
    "host",
    "port",
    "socket",
    "user",
    "password",
    "protocol",
    "compress",
    "database",
    "default_character_set",
    "character_sets_dir",
    "plugin_dir",
    "default_auth",
    "max_allowed_packet",
    "net_buffer_length",
    "connect_timeout",
    "init_command",
    "bind_address",
    "local_infile",
    "ssl",
    "ssl_ca",
    "ssl_capath",
    "ssl_cert",
    "ssl_cipher",
    "ssl_crl",
    "ssl_crlpath",
    "ssl_key",
    "ssl_mode",
    "ssl_verify_server_cert",
    "tls_version",
    "tls_ciphersuites",
    "server_public_key_path",
    "get_server_public_key",
    "enable_cleartext_plugin",
    "secure_auth",
    "pipe",
    "shared_memory_base_name",
    "skip_ssl",
    "no_auto_rehash",
    "auto_rehash",
    "prompt",
    "pager",
    "safe_updates",
    "quick",
];

/// Groups of client programs whose contents mytune does not check.
const CLIENT_GROUPS: &[&str] = &["client", "mysql", "client-mariadb", "mariadb-client"];

/// Lint one option file (and what it includes) for `target`.
pub fn lint_file(path: &Path, target: &Target) -> Result<Vec<Finding>, LintError> {
    let catalog = Catalog::for_target(target).map_err(|e| LintError::Target(e.to_string()))?;
    let loaded = cnf::load(path).map_err(|e| LintError::Read(e.to_string()))?;
    let effective = loaded.effective(&cnf::server_groups(target));
    Ok(lint_loaded(&loaded, &effective, target, catalog))
}

/// Errors that stop a lint run (as opposed to findings).
#[derive(Debug, thiserror::Error)]
pub enum LintError {
    #[error("{0}")]
    Target(String),
    #[error("{0}")]
    Read(String),
}

/// Lint an already-read set of files. `effective` is `loaded.effective()`
/// for the target's server groups: the caller computes it once and also
/// hands it to the rule engine.
pub fn lint_loaded(
    loaded: &LoadedFiles,
    effective: &ConfigFacts,
    target: &Target,
    catalog: &Catalog,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for err in &loaded.errors {
        let sev = if err.kind.refused_by_server() {
            Severity::Crit
        } else {
            Severity::Warn
        };
        out.push(finding(
            &checks::SYNTAX_ERROR,
            sev,
            err.message.clone(),
            Some(err.location.clone()),
            None,
        ));
    }

    let server_groups = cnf::server_groups(target);
    let series_only = target.version.patch == 0;
    let mut unread_groups: BTreeMap<String, (SourceLocation, usize)> = BTreeMap::new();

    for e in &loaded.entries {
        let group = e.group_as_read();
        if server_groups.iter().any(|g| g == group) {
            check_server_entry(e, target, catalog, series_only, &mut out);
        } else if CLIENT_GROUPS.contains(&group) {
            check_client_entry(e, group, catalog, &mut out);
        } else if looks_like_server_group(group) {
            let slot = unread_groups
                .entry(e.group.clone())
                .or_insert((e.location.clone(), 0));
            slot.1 += 1;
        }
    }
    for (group, (loc, count)) in unread_groups {
        let hint = match nearest_server_group(&group, &server_groups) {
            Some(g) if g != group.trim() => format!(" (did you mean [{g}]?)"),
            _ => String::new(),
        };
        out.push(finding(
            &checks::UNREAD_GROUP,
            checks::UNREAD_GROUP.severity,
            format!(
                "group [{group}] is not read by {target}{hint}: {count} option{} there {} no effect",
                if count == 1 { "" } else { "s" },
                if count == 1 { "has" } else { "have" }
            ),
            Some(loc),
            None,
        ));
    }

    duplicates(loaded, effective, &mut out);
    out.sort_by(|a, b| by_location(a, b).then_with(|| a.code.cmp(&b.code)));
    out
}

/// Order findings by file (byte order of the path, cheaper than comparing
/// path components), line, column; findings without a location first.
pub(crate) fn by_location(a: &Finding, b: &Finding) -> std::cmp::Ordering {
    match (&a.location, &b.location) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, Some(_)) => std::cmp::Ordering::Less,
        (Some(_), None) => std::cmp::Ordering::Greater,
        (Some(x), Some(y)) => x
            .file
            .as_os_str()
            .cmp(y.file.as_os_str())
            .then(x.line.cmp(&y.line))
            .then(x.column.cmp(&y.column)),
    }
}

fn check_server_entry(
    e: &OptionEntry,
    target: &Target,
    catalog: &Catalog,
    series_only: bool,
    out: &mut Vec<Finding>,
) {
    let written = written_name(e);
    let Some((info, _prefix)) = catalog.resolve_option(&written) else {
        let suggestion = suggest_cached(catalog, &e.name);
        let suggestion = suggestion.as_deref();
        let hint = suggestion
            .map(|s| format!(" (did you mean {s}?)"))
            .unwrap_or_default();
        if e.loose {
            if let Some(s) = suggestion {
                out.push(finding(
                    &checks::LOOSE_TYPO,
                    checks::LOOSE_TYPO.severity,
                    format!(
                        "{} is unknown to {target} and loose- hides it: did you mean {s}?",
                        e.raw_name
                    ),
                    Some(e.location.clone()),
                    Some(e.name.clone()),
                ));
            }
        } else {
            out.push(finding(
                &checks::UNKNOWN_OPTION,
                checks::UNKNOWN_OPTION.severity,
                format!(
                    "unknown option {} for {target}{hint}; the server will not start",
                    e.raw_name
                ),
                Some(e.location.clone()),
                Some(e.name.clone()),
            ));
        }
        return;
    };
    let status = if series_only {
        info.status.clone()
    } else {
        info.status_at(target.version)
    };
    let when = |s: &VarStatus| {
        s.since()
            .map(|v| format!("{} {v}", target.flavor))
            .unwrap_or_else(|| target.to_string())
    };
    let instead = |s: &VarStatus| {
        s.replacement()
            .map(|r| format!("; use {r} instead"))
            .unwrap_or_default()
    };
    match &status {
        VarStatus::Removed { .. } => {
            let (sev, effect) = if e.loose {
                (
                    Severity::Warn,
                    "loose- makes the server skip it, so it has no effect",
                )
            } else {
                (Severity::Crit, "the server will not start with it")
            };
            out.push(finding(
                &checks::REMOVED_OPTION,
                sev,
                format!(
                    "{} was removed in {}: {effect}{}",
                    info.name,
                    when(&status),
                    instead(&status)
                ),
                Some(e.location.clone()),
                Some(info.name.clone()),
            ));
            return;
        }
        VarStatus::Deprecated { .. } => {
            out.push(finding(
                &checks::DEPRECATED_OPTION,
                checks::DEPRECATED_OPTION.severity,
                format!(
                    "{} is deprecated since {}{}",
                    info.name,
                    when(&status),
                    instead(&status)
                ),
                Some(e.location.clone()),
                Some(info.name.clone()),
            ));
        }
        VarStatus::Current => {}
    }
    if e.modifier == Modifier::Maximum {
        return;
    }
    if let Some(value) = &e.value
        && let Err(why) = info.check_value(value)
    {
        let (sev, effect) = if why.adjusted {
            (
                Severity::Warn,
                "the server adjusts it and runs with another value than the one written",
            )
        } else {
            (Severity::Crit, "the server will not start with it")
        };
        out.push(finding(
            &checks::INVALID_VALUE,
            sev,
            format!(
                "{} = {}: {}; {effect}",
                info.name,
                shown(&info.name, value),
                why.message
                    .replace(value.as_str(), &shown(&info.name, value))
            ),
            Some(e.location.clone()),
            Some(info.name.clone()),
        ));
    } else if e.value.is_none()
        && e.modifier == Modifier::None
        && matches!(
            info.kind,
            VarKind::Enum { .. }
                | VarKind::Integer { .. }
                | VarKind::Size { .. }
                | VarKind::Float { .. }
        )
        && info.name != written_name(e).trim_start_matches("skip_")
    {
        // A bare name on a numeric/enum option: the server asks for a value.
        out.push(finding(
            &checks::INVALID_VALUE,
            checks::INVALID_VALUE.severity,
            format!(
                "{} needs a value ({}); a bare name is not accepted",
                info.name,
                info.kind.name()
            ),
            Some(e.location.clone()),
            Some(info.name.clone()),
        ));
    }
}

/// `[client]`/`[mysql]`: flag options only the server knows.
fn check_client_entry(e: &OptionEntry, group: &str, catalog: &Catalog, out: &mut Vec<Finding>) {
    if CLIENT_OPTIONS.contains(&e.name.as_str()) {
        return;
    }
    if let Some((info, _)) = catalog.resolve_option(&written_name(e))
        && info.sysvar
    {
        out.push(finding(
            &checks::UNREAD_GROUP,
            checks::UNREAD_GROUP.severity,
            format!(
                "{} is a server option, but [{group}] is read by client programs only; move it to [mysqld]",
                info.name
            ),
            Some(e.location.clone()),
            Some(info.name.clone()),
        ));
    }
}

/// A value as a message may show it: credentials (`report_password`, ...) as
/// `***`.
fn shown(name: &str, value: &str) -> String {
    if crate::facts::server::is_credential(name, value) {
        "***".to_string()
    } else {
        value.to_string()
    }
}

/// Earlier occurrences of an option in the server's groups have no effect.
fn duplicates(loaded: &LoadedFiles, effective: &ConfigFacts, out: &mut Vec<Finding>) {
    let by_location: HashMap<&SourceLocation, &OptionEntry> =
        loaded.entries.iter().map(|e| (&e.location, e)).collect();
    for opt in effective.options.values() {
        for loc in &opt.shadowed {
            let earlier = by_location.get(loc).and_then(|e| e.value.clone());
            let same = earlier.as_deref().map(str::to_ascii_lowercase)
                == Some(opt.value.to_ascii_lowercase());
            let sev = if same { Severity::Info } else { Severity::Warn };
            let what = match &earlier {
                Some(v) if !same => format!("this value ({}) is ignored", shown(&opt.name, v)),
                _ => "this line has no effect".to_string(),
            };
            out.push(finding(
                &checks::DUPLICATE_OPTION,
                sev,
                format!("{} is set again at {}: {what}", opt.name, opt.location),
                Some(loc.clone()),
                Some(opt.name.clone()),
            ));
        }
    }
}

/// `catalog.suggest`, remembered per target and name: the same unknown
/// option (often a plugin's `loose-` option) recurs in every file of a
/// repository, and the search is the costliest step of a lint run.
fn suggest_cached(catalog: &Catalog, name: &str) -> Option<String> {
    type Cache = Mutex<HashMap<(Target, String), Option<String>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    let key = (catalog.target(), name.to_string());
    if let Some(hit) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return hit;
    }
    let found = catalog.suggest(name).map(str::to_string);
    if let Ok(mut c) = cache.lock() {
        c.insert(key, found.clone());
    }
    found
}

/// The option name as written, without `loose-` but with any other prefix,
/// canonical form.
fn written_name(e: &OptionEntry) -> String {
    match e.modifier {
        Modifier::None | Modifier::Loose => e.name.clone(),
        m => format!("{}_{}", m.as_str(), e.name),
    }
}

fn looks_like_server_group(group: &str) -> bool {
    let g = group.trim();
    g.starts_with("mysqld")
        || g.starts_with("mariadb")
        || g == "server"
        || g == "client-server"
        || ["mysqld", "mariadb", "mariadbd", "server"]
            .iter()
            .any(|known| edit_distance(g, known, 2) <= 2)
}

fn nearest_server_group<'a>(group: &str, server_groups: &'a [String]) -> Option<&'a str> {
    server_groups
        .iter()
        .map(|g| (edit_distance(group.trim(), g, 2), g))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, g)| g.as_str())
}

pub(crate) fn finding(
    check: &Check,
    severity: Severity,
    message: String,
    location: Option<SourceLocation>,
    variable: Option<String>,
) -> Finding {
    check.finding(severity, message, location, variable)
}
