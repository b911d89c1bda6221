//! `mytune lint`: does the target server read an option file the way its
//! author meant?
//!
//! Reading is the cnf module's job and knowing variables is the catalog's;
//! this module only puts the two side by side and turns every disagreement
//! into a [`Finding`] with the file and line to fix. The structural checks
//! (MT0xx) are modules of [`crate::checks`].
//!
//! A whole run ([`run::lint_files`]) adds the rule catalog: `mytune.toml`
//! ([`config`]) describes the host, sysctl and limits files ([`system`])
//! become host facts, inline comments ([`suppress`]) silence findings.

pub mod apply;
pub mod baseline;
pub mod baseline_dest;
pub mod config;
pub mod fix;
pub mod limits_file;
pub mod run;
pub mod suppress;
pub mod sysctl_file;
pub mod system;
pub mod upgrade;
pub mod walk;

pub use run::{BaselineChoice, LintOptions, LintOutcome, lint_files};

use crate::catalog::Resolve;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::catalog::{
    Catalog, Effect, LineContext, Reason, edit_distance, plugins_in_load_value, written_name,
};
use crate::cnf::{self, LoadedFiles, Modifier, OptionEntry};
use crate::facts::{ConfigFacts, SourceLocation};
use crate::rules::{Finding, Severity};
use crate::target::Target;

use crate::checks;
use crate::rules::builtin_check::Check;

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

/// Groups other programs of the server package read, with the options each
/// takes that share a name with a server variable (from the programs'
/// manual pages: mysqld_safe, myisamchk, mysqldump/mariadb-dump,
/// mysqladmin, mysqlbinlog). A server option there is not read by the
/// server. `None`: a program whose options mytune does not know (backup and
/// SST tools), so nothing there is judged.
const PROGRAM_GROUPS: &[(&str, &str, Option<&[&str]>)] = &[
    // The server library an application links (libmariadbd, libmysqld)
    // reads it; the server does not.
    ("embedded", "the embedded server library", Some(&[])),
    (
        "mysqld_safe",
        "mysqld_safe",
        Some(&[
            "basedir",
            "core_file_size",
            "datadir",
            "ledir",
            "log_error",
            "malloc_lib",
            "mysqld",
            "mysqld_version",
            "nice",
            "open_files_limit",
            "pid_file",
            "plugin_dir",
            "port",
            "skip_kill_mysqld",
            "skip_syslog",
            "syslog",
            "syslog_tag",
            "socket",
            "timezone",
            "user",
            "flush_caches",
            "numa_interleave",
            "mysqld_safe_log_timestamps",
            "wsrep_urls",
            "wsrep_provider",
            "wsrep_new_cluster",
        ]),
    ),
    ("safe_mysqld", "mysqld_safe", None),
    ("mariadbd-safe", "mariadbd-safe", None),
    ("mysqld_multi", "mysqld_multi", None),
    (
        "myisamchk",
        "myisamchk",
        Some(&[
            "key_buffer_size",
            "sort_buffer_size",
            "read_buffer_size",
            "write_buffer_size",
            "myisam_sort_buffer_size",
            "myisam_block_size",
            "decode_bits",
            "ft_max_word_len",
            "ft_min_word_len",
            "ft_stopword_file",
            "sort_key_blocks",
            "stats_method",
            "key_cache_block_size",
            "tmpdir",
            "character_sets_dir",
            "defaults_file",
        ]),
    ),
    ("isamchk", "isamchk", None),
    ("aria_chk", "aria_chk", None),
    ("mysqldump", "mysqldump", None),
    ("mariadb-dump", "mariadb-dump", None),
    ("mysqladmin", "mysqladmin", None),
    ("mysqlbinlog", "mysqlbinlog", None),
    ("mysqlcheck", "mysqlcheck", None),
    ("mysqlimport", "mysqlimport", None),
    ("mysqlhotcopy", "mysqlhotcopy", None),
    ("mysql_upgrade", "mysql_upgrade", None),
    ("xtrabackup", "xtrabackup", None),
    ("mariabackup", "mariabackup", None),
    ("mariadb-backup", "mariadb-backup", None),
    ("sst", "the Galera SST script", None),
];

/// Lint one option file (and what it includes) for `target`.
pub fn lint_file(path: &Path, target: &Target) -> Result<Vec<Finding>, LintError> {
    let target = &target.resolved();
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
    let server_groups = cnf::server_groups(target);
    for err in &loaded.errors {
        let (sev, message) = match unread_line_error(err, &server_groups) {
            Some(message) => (Severity::Warn, message),
            None if err.kind.refused_by_server() => (Severity::Crit, err.message.clone()),
            None => (Severity::Warn, err.message.clone()),
        };
        out.push(finding(
            &checks::option_file_syntax_error::CHECK,
            sev,
            message,
            Some(err.location.clone()),
            None,
        ));
    }

    let mut ctx = loaded_plugins(loaded, &server_groups);
    ctx.target = Some(target.resolved());
    let fixes = fix::FixContext {
        loaded,
        effective,
        catalog,
        ctx: &ctx,
    };
    let mut unread_groups: BTreeMap<String, (SourceLocation, usize)> = BTreeMap::new();

    for e in &loaded.entries {
        if let Some(v) = e.value.as_deref().filter(|v| is_placeholder(v)) {
            out.push(finding(
                &checks::option_file_syntax_error::CHECK,
                Severity::Warn,
                format!(
                    "{} = {v} looks like an unrendered template placeholder (a my.cnf.in or a \
                     configuration-management template); the server reads it literally",
                    e.raw_name
                ),
                Some(e.location.clone()),
                Some(e.name.clone()),
            ));
        }
        let group = e.group_as_read();
        if server_groups.iter().any(|g| g == group) {
            check_server_entry(e, catalog, &ctx, &fixes, &mut out);
        } else if CLIENT_GROUPS.contains(&group) {
            check_client_entry(e, group, catalog, &mut out);
        } else if let Some((_, program, known)) =
            PROGRAM_GROUPS.iter().find(|(g, _, _)| *g == group)
        {
            if let Some(known) = known {
                check_program_entry(e, program, known, catalog, effective, &mut out);
            }
        } else if looks_like_server_group(group) {
            let slot = unread_groups
                .entry(e.group.clone())
                .or_insert((e.location.clone(), 0));
            slot.1 += 1;
        }
    }
    for (group, (loc, count)) in unread_groups {
        let hint = match (
            group_reader(&group, target),
            nearest_server_group(&group, &server_groups),
        ) {
            (Some(reader), _) => format!(" ({reader} reads it)"),
            (None, Some(g)) if g != group.trim() => format!(" (did you mean [{g}]?)"),
            _ => String::new(),
        };
        out.push(finding(
            &checks::server_option_in_unread_group::CHECK,
            checks::server_option_in_unread_group::CHECK.severity,
            format!(
                "group [{group}] is not read by {target}{hint}: {count} option{} there {} no effect",
                if count == 1 { "" } else { "s" },
                if count == 1 { "has" } else { "have" }
            ),
            Some(loc),
            None,
        ));
    }

    duplicates(loaded, effective, &fixes, &mut out);
    needs_another(effective, catalog, &mut out);
    pairs(effective, catalog, &ctx, &mut out);
    relative_includes(loaded, catalog, &mut out);
    binlog_without_name(loaded, effective, catalog, &mut out);
    out.sort_by(|a, b| by_location(a, b).then_with(|| a.code.cmp(&b.code)));
    out
}

/// The server that does read a group another product's or release's files
/// use: `[mariadb]`, `[mariadbd-10.11]`, `[galera]` are MariaDB's server's,
/// `[mysqld-8.4]` a release's of the series it names.
fn group_reader(group: &str, target: &Target) -> Option<String> {
    let g = cnf::group_as_read(group).to_ascii_lowercase();
    let (base, series) = match g.split_once('-') {
        Some((b, s)) if s.chars().next().is_some_and(|c| c.is_ascii_digit()) => (b, Some(s)),
        _ => (g.as_str(), None),
    };
    let mariadb = matches!(base, "mariadb" | "mariadbd")
        || (series.is_none() && matches!(g.as_str(), "galera" | "client-server"));
    if mariadb && target.dialect() != crate::target::Dialect::Mariadb {
        return Some(match series {
            Some(s) => format!("MariaDB {s}'s server"),
            None => "MariaDB's server".to_string(),
        });
    }
    if base == "mysqld"
        && let Some(s) = series
    {
        return Some(format!("the {s} server"));
    }
    None
}

/// A bad option line in a group the server never reads (`[xtrabackup]`,
/// `[client]`): the server's reader passes over the lines of such groups
/// without parsing them as options, so the server starts; the program that
/// reads the group is the one that meets the bad name. The message for it,
/// or `None` when the server reads the line.
fn unread_line_error(err: &cnf::CnfError, server_groups: &[String]) -> Option<String> {
    use cnf::CnfErrorKind;
    if !matches!(
        err.kind,
        CnfErrorKind::InvalidOptionName | CnfErrorKind::EmptyOptionName
    ) {
        return None;
    }
    let group = cnf::group_as_read(err.group.as_deref()?);
    if server_groups.iter().any(|g| g == group) {
        return None;
    }
    let reader = PROGRAM_GROUPS
        .iter()
        .find(|(g, _, _)| *g == group)
        .map(|(_, program, _)| program.to_string())
        .unwrap_or_else(|| {
            if CLIENT_GROUPS.contains(&group) || group.starts_with("client") {
                "the client programs".to_string()
            } else {
                "a program that reads it".to_string()
            }
        });
    let (head, rest) = err
        .message
        .split_once("; the server")
        .unwrap_or((err.message.as_str(), ""));
    let unquoted = if rest.contains("not quoted") {
        " (the line is not quoted: it may hold a password)"
    } else {
        ""
    };
    Some(format!(
        "{head}; [{group}] is a group the server never reads, so the server starts and ignores the line, \
         but {reader} reads it as one option name it does not know{unquoted}"
    ))
}

/// MySQL 5.7 (and its Percona Server and PXC) refuses to start with the
/// binary log on and no `server_id` given: server_id defaults to 0 there.
/// MySQL 8.0 defaults it to 1 and starts. Which is which is the catalog's
/// default of server_id, so the same file is judged per version. Source:
/// the MySQL 5.7 manual, "Binary Logging Options and Variables" (`--log-bin`:
/// without `--server-id` the server is not allowed to start, from 5.7.3).
fn binlog_needs_server_id(
    effective: &ConfigFacts,
    catalog: &Catalog,
    ctx: &LineContext,
    out: &mut Vec<Finding>,
) {
    let release = ctx.target.unwrap_or_else(|| catalog.release());
    let default_id = catalog.get("server_id").and_then(|v| v.default.as_deref());
    if default_id != Some("0")
        || release.version < crate::target::Version::new(5, 7, 3)
        || effective.options.contains_key("server_id")
    {
        return;
    }
    let Some(log_bin) = effective.options.get("log_bin") else {
        return;
    };
    let v = log_bin.value.trim();
    if v.eq_ignore_ascii_case("off") || v == "0" || v.eq_ignore_ascii_case("false") {
        return;
    }
    out.push(finding(
        &checks::invalid_option_value::CHECK,
        Severity::Crit,
        format!(
            "the binary log is on (log_bin) but server_id is not set, and on {} it defaults to 0: the \
             server will not start (\"You have enabled the binary log, but you haven't provided the \
             mandatory server-id\"); set server_id to a value unique in the topology",
            crate::catalog::release_name(release)
        ),
        Some(log_bin.location.clone()),
        Some("server_id".into()),
    ));
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
    catalog: &Catalog,
    ctx: &LineContext,
    fixes: &fix::FixContext,
    out: &mut Vec<Finding>,
) {
    for j in catalog.judge_line(e, ctx) {
        let mended = fixes.for_judgement(e, &j.reason, j.var);
        let severity = match (j.effect, &j.reason) {
            (Effect::Refuses, _) => Severity::Crit,
            // A deliberate loose- option of an absent plugin: the server
            // only notes it in its log.
            (Effect::Warns, Reason::Unknown { suggestions })
                if e.loose && suggestions.is_empty() =>
            {
                Severity::Info
            }
            // Most builds have it (the manual documents it); the finding
            // says which lack it.
            (Effect::Warns, Reason::BuildDependent { .. }) => Severity::Info,
            // A deliberate loose- option of a later release.
            (Effect::Warns, Reason::Introduced { .. }) if e.loose => Severity::Info,
            (Effect::Warns, _) => Severity::Warn,
            (Effect::Applies, _) => continue,
        };
        let check = match &j.reason {
            Reason::Unknown { suggestions } if e.loose && !suggestions.is_empty() => {
                &checks::loose_option_hides_typo::CHECK
            }
            Reason::Unknown { .. }
            | Reason::PluginNotLoaded { .. }
            | Reason::BuildDependent { .. }
            | Reason::Introduced { .. } => &checks::unknown_option::CHECK,
            Reason::Removed { .. } => &checks::option_removed_in_target::CHECK,
            Reason::Deprecated { .. } => &checks::option_deprecated::CHECK,
            Reason::Prefix { .. } | Reason::AmbiguousPrefix { .. } => {
                &checks::option_name_prefix::CHECK
            }
            Reason::BadValue | Reason::Adjusted { .. } => &checks::invalid_option_value::CHECK,
        };
        let variable = j
            .var
            .map(|v| v.name.clone())
            .unwrap_or_else(|| e.name.clone());
        // A credential's value never reaches a report.
        let message = match e.value.as_deref() {
            Some(v) if !v.is_empty() && crate::facts::server::is_credential(&variable, v) => {
                j.message.replace(v, "***")
            }
            _ => j.message,
        };
        let mut f = finding(
            check,
            severity,
            message,
            Some(e.location.clone()),
            Some(variable),
        );
        f.fix = mended;
        out.push(f);
    }
}

/// The plugins the files load (`plugin-load`, `plugin-load-add`,
/// `early-plugin-load` in the server's groups), by plugin name.
fn loaded_plugins(loaded: &LoadedFiles, server_groups: &[String]) -> LineContext {
    let mut ctx = LineContext::default();
    for e in &loaded.entries {
        if !server_groups.iter().any(|g| g == e.group_as_read()) {
            continue;
        }
        if e.name == "innodb_page_size" {
            ctx.innodb_page_size = e
                .value
                .as_deref()
                .and_then(|v| crate::catalog::parse_number(v.trim(), true).ok());
        }
        if e.name == "getopt_prefix_matching" {
            ctx.no_prefix_matching = match e.modifier {
                Modifier::Skip | Modifier::Disable => true,
                Modifier::Enable => false,
                _ => e.value.as_deref().is_some_and(|v| {
                    matches!(
                        v.trim().to_ascii_lowercase().as_str(),
                        "0" | "off" | "false"
                    )
                }),
            };
        }
        if !matches!(
            e.name.as_str(),
            "plugin_load" | "plugin_load_add" | "early_plugin_load"
        ) {
            continue;
        }
        ctx.plugins
            .extend(plugins_in_load_value(e.value.as_deref().unwrap_or("")));
    }
    // file_key_management without its key file fails to initialize
    // ("file-key-management-filename is not set").
    let has_key_file = loaded.entries.iter().any(|e| {
        server_groups.iter().any(|g| g == e.group_as_read())
            && e.name == "file_key_management_filename"
            && e.value.as_deref().is_some_and(|v| !v.trim().is_empty())
    });
    if ctx.plugins.contains("file_key_management") && !has_key_file {
        ctx.keyless_plugins.insert("file_key_management".into());
    }
    ctx
}

/// A group another program reads (`[myisamchk]`, `[mysqld_safe]`): a
/// server option there that the program does not take is never applied.
fn check_program_entry(
    e: &OptionEntry,
    program: &str,
    known: &[&str],
    catalog: &Catalog,
    effective: &ConfigFacts,
    out: &mut Vec<Finding>,
) {
    if known.contains(&e.name.as_str()) {
        return;
    }
    let Some((info, _)) = catalog.resolve_option(&written_name(e)) else {
        return;
    };
    if !info.sysvar {
        return;
    }
    let instead = match effective.options.get(&info.name) {
        Some(o) => format!("{} (from {})", o.value, o.location),
        None => match &info.default {
            Some(d) => format!("{d} (its default)"),
            None => "its default".to_string(),
        },
    };
    out.push(finding(
        &checks::server_option_in_unread_group::CHECK,
        checks::server_option_in_unread_group::CHECK.severity,
        format!(
            "{} under [{}] is not applied: only {program} reads that group, and the server runs \
             with {} = {instead}; move it to [mysqld]",
            info.name,
            e.group_as_read(),
            info.name
        ),
        Some(e.location.clone()),
        Some(info.name.clone()),
    ));
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
            &checks::server_option_in_unread_group::CHECK,
            checks::server_option_in_unread_group::CHECK.severity,
            format!(
                "{} is a server option, but [{group}] is read by client programs only; move it to [mysqld]",
                info.name
            ),
            Some(e.location.clone()),
            Some(info.name.clone()),
        ));
    }
}

/// Options that do nothing without another one the file leaves off, where
/// the server says so at start-up.
fn needs_another(effective: &ConfigFacts, catalog: &Catalog, out: &mut Vec<Finding>) {
    for opt in effective.options.values() {
        let Some(needed) = catalog.requires(&opt.name) else {
            continue;
        };
        // Turned off (log_slave_updates = OFF, skip-log-slave-updates, an
        // expiry of 0), the option asks nothing of the other: the server
        // does not warn.
        // (An enum's 0 is its first value, not "off": binlog_format = 0 is
        // MIXED, and the server warns. An empty number is 0.)
        let v = opt.value.trim();
        let numeric_or_bool = catalog.get(&opt.name).is_none_or(|i| {
            !matches!(
                i.kind,
                crate::catalog::VarKind::Enum { .. } | crate::catalog::VarKind::Set { .. }
            )
        });
        if numeric_or_bool
            && (v.eq_ignore_ascii_case("off")
                || v == "0"
                || v.is_empty()
                || v.eq_ignore_ascii_case("false"))
        {
            continue;
        }
        // Set in the files, else the target's default (the binary log is
        // on by default from MySQL 8.0).
        let on = effective
            .options
            .get(needed)
            .map(|o| o.value.clone())
            .or_else(|| catalog.get(needed).and_then(|v| v.default.clone()))
            .is_some_and(|v| !v.eq_ignore_ascii_case("off") && v != "0");
        if !on {
            out.push(finding(
                &checks::option_without_effect::CHECK,
                checks::option_without_effect::CHECK.severity,
                format!(
                    "{} has no effect without {needed}, which is off: the server warns at start-up",
                    opt.name
                ),
                Some(opt.location.clone()),
                Some(opt.name.clone()),
            ));
        }
    }
}

/// Settings the server checks against each other at start-up (MariaDB,
/// each seen in its log): a collation of another character set than the
/// server's refuses the start; an io_capacity above io_capacity_max and a
/// max_allowed_packet below net_buffer_length are adjusted with a warning.
fn pairs(effective: &ConfigFacts, catalog: &Catalog, ctx: &LineContext, out: &mut Vec<Finding>) {
    if catalog.target().dialect() != crate::target::Dialect::Mariadb {
        binlog_needs_server_id(effective, catalog, ctx, out);
        return;
    }
    // file_key_management without its key file fails to initialize
    // ("file-key-management-filename is not set"): the server starts
    // without keys, or not at all where an option needs them (MT005).
    if ctx.plugins.contains("file_key_management")
        && !effective
            .options
            .contains_key("file_key_management_filename")
        && let Some(at) = effective
            .options
            .get("plugin_load_add")
            .or_else(|| effective.options.get("plugin_load"))
    {
        out.push(finding(
            &checks::option_without_effect::CHECK,
            checks::option_without_effect::CHECK.severity,
            "file_key_management is loaded without file_key_management_filename: the plugin fails to \
             initialize (\"file-key-management-filename is not set\"), so the server has no \
             encryption keys"
                .into(),
            Some(at.location.clone()),
            Some("file_key_management_filename".into()),
        ));
    }
    let get = |n: &str| effective.options.get(n);
    let value = |n: &str| -> Option<String> {
        get(n)
            .map(|o| o.value.clone())
            .or_else(|| catalog.get(n).and_then(|v| v.default.clone()))
    };
    let number = |n: &str| value(n).and_then(|v| crate::catalog::parse_number(v.trim(), true).ok());
    // InnoDB turned off (skip-innodb, innodb = OFF) while an engine the
    // server needs at start is InnoDB: "Unknown/unsupported storage engine:
    // InnoDB". With other default engines it starts, and warns that the
    // replication state table (InnoDB) cannot be read.
    if let Some(innodb) = get("innodb").filter(|o| {
        let v = o.value.trim();
        v.eq_ignore_ascii_case("off") || v == "0" || v.eq_ignore_ascii_case("false")
    }) {
        let needs: Vec<String> = [
            "default_storage_engine",
            "default_tmp_storage_engine",
            "enforce_storage_engine",
        ]
        .iter()
        .filter(|n| value(n).is_some_and(|v| v.trim().eq_ignore_ascii_case("innodb")))
        .map(|n| n.to_string())
        .collect();
        let (severity, what) = if needs.is_empty() && get("default_storage_engine").is_some() {
            (
                Severity::Warn,
                "the server starts without it and warns that it cannot load the replication state \
                 (mysql.gtid_slave_pos is an InnoDB table)"
                    .to_string(),
            )
        } else {
            let needs = if needs.is_empty() {
                "default_storage_engine".to_string()
            } else {
                needs.join(" and ")
            };
            (
                Severity::Crit,
                format!(
                    "{needs} is InnoDB, so the server will not start (\"Unknown/unsupported storage \
                     engine: InnoDB\"); set default_storage_engine (and default_tmp_storage_engine) to \
                     another engine, or leave InnoDB on"
                ),
            )
        };
        out.push(finding(
            &checks::invalid_option_value::CHECK,
            severity,
            format!(
                "InnoDB is turned off ({} = {}): {what}",
                innodb.name, innodb.value
            ),
            Some(innodb.location.clone()),
            Some("innodb".into()),
        ));
    }
    if let Some(coll) = get("collation_server") {
        let charset = value("character_set_server").map(|c| catalog.server_charset(&c));
        if let (Some(of), Some(charset)) = (catalog.collation_charset(coll.value.trim()), charset)
            && of != charset
        {
            out.push(finding(
                &checks::invalid_option_value::CHECK,
                Severity::Crit,
                format!(
                    "collation_server = {} is a collation of {of}, but the server's character set is {charset}{}: \
                     the server will not start (\"COLLATION … is not valid for CHARACTER SET\"); set \
                     character_set_server = {of} too",
                    coll.value.trim(),
                    if get("character_set_server").is_none() { " (its default)" } else { "" }
                ),
                Some(coll.location.clone()),
                Some("collation_server".into()),
            ));
        }
    }
    // `high_set`: only when the file sets `high` (innodb_io_capacity_max's
    // default is computed from innodb_io_capacity).
    let pair = |low: &str, high: &str, high_set: bool, what: &str, out: &mut Vec<Finding>| {
        if high_set && get(high).is_none() {
            return;
        }
        let (Some(a), Some(b)) = (number(low), number(high)) else {
            return;
        };
        let at = get(low).or_else(|| get(high));
        if a > b
            && let Some(at) = at
        {
            out.push(finding(
                &checks::invalid_option_value::CHECK,
                Severity::Warn,
                format!("{low} ({a}) is above {high} ({b}): {what}"),
                Some(at.location.clone()),
                Some(at.name.clone()),
            ));
        }
    };
    pair(
        "innodb_io_capacity",
        "innodb_io_capacity_max",
        true,
        "the server warns and lowers innodb_io_capacity to it",
        out,
    );
    pair(
        "net_buffer_length",
        "max_allowed_packet",
        false,
        "the server warns (\"Please rectify\")",
        out,
    );
}

/// MariaDB resolves a relative `!include`/`!includedir` path against its
/// working directory, not the including file's directory (a start from
/// `/` skips `!include inc.cnf` beside the file): point at it.
fn relative_includes(loaded: &LoadedFiles, catalog: &Catalog, out: &mut Vec<Finding>) {
    if !catalog.target().flavor.traits().includes_relative_to_cwd {
        return;
    }
    for (file, text) in loaded.files.iter().zip(&loaded.texts) {
        if !text.contains("!include") {
            continue;
        }
        for (i, line) in cnf::Document::parse(text).lines.iter().enumerate() {
            let path = match &line.kind {
                cnf::LineKind::Include { path } | cnf::LineKind::IncludeDir { path } => path,
                _ => continue,
            };
            if Path::new(path).is_absolute() {
                continue;
            }
            out.push(finding(
                &checks::option_file_syntax_error::CHECK,
                Severity::Warn,
                format!(
                    "{path} is a relative path: the server resolves it against its working directory \
                     (/ under systemd), not this file's directory, so it usually reads nothing; write the \
                     absolute path"
                ),
                Some(SourceLocation {
                    file: file.clone(),
                    line: u32::try_from(i + 1).unwrap_or(u32::MAX),
                    column: line.column.max(1),
                }),
                None,
            ));
        }
    }
}

/// The binary log on without a name, where the server warns about it
/// ([`Catalog::warns_unnamed_binlog`]): `log_bin` bare or empty, or
/// `flashback` (which turns it on) without `log_bin`, unless `log_basename`
/// or `log_bin_index` names the files.
fn binlog_without_name(
    loaded: &LoadedFiles,
    effective: &ConfigFacts,
    catalog: &Catalog,
    out: &mut Vec<Finding>,
) {
    if !catalog.warns_unnamed_binlog() {
        return;
    }
    let get = |n: &str| effective.options.get(n);
    let off = |v: &str| {
        let v = v.trim();
        v.eq_ignore_ascii_case("off") || v == "0" || v.eq_ignore_ascii_case("false")
    };
    if get("log_basename").is_some() || get("log_bin_index").is_some() {
        return;
    }
    // The line as written: a bare `log_bin` has no value (the effective
    // options show it as ON, which would name the log "ON").
    let written_empty = |o: &crate::facts::ConfigOption| {
        loaded
            .entries
            .iter()
            .find(|e| e.location == o.location)
            .is_some_and(|e| {
                !matches!(
                    e.modifier,
                    crate::cnf::Modifier::Skip | crate::cnf::Modifier::Disable
                ) && e.value.as_deref().is_none_or(|v| v.trim().is_empty())
            })
    };
    let unnamed = match (get("log_bin"), get("flashback")) {
        (Some(o), _) if written_empty(o) => Some(o),
        (None, Some(o)) if !off(&o.value) => Some(o),
        _ => None,
    };
    if let Some(o) = unnamed {
        out.push(finding(
            &checks::binary_log_without_basename::CHECK,
            checks::binary_log_without_basename::CHECK.severity,
            format!(
                "{} turns the binary log on without a name: its files are named after the host, and the server warns that replication breaks when the host is renamed; set log_bin = mysql-bin (or log_basename)",
                if o.name == "flashback" { "flashback" } else { "log_bin without a value" }
            ),
            Some(o.location.clone()),
            Some(o.name.clone()),
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
fn duplicates(
    loaded: &LoadedFiles,
    effective: &ConfigFacts,
    fixes: &fix::FixContext,
    out: &mut Vec<Finding>,
) {
    let by_location: HashMap<&SourceLocation, &OptionEntry> =
        loaded.entries.iter().map(|e| (&e.location, e)).collect();
    for opt in effective.options.values() {
        for loc in &opt.shadowed {
            let earlier = by_location.get(loc).and_then(|e| e.value.clone());
            let same = earlier.as_deref().map(str::to_ascii_lowercase)
                == Some(opt.value.to_ascii_lowercase());
            if same {
                // The server does the same either way: nothing to report.
                continue;
            }
            let what = match &earlier {
                Some(v) => format!("this value ({}) is ignored", shown(&opt.name, v)),
                None => "this line has no effect".to_string(),
            };
            let mut f = finding(
                &checks::duplicate_option::CHECK,
                Severity::Warn,
                format!("{} is set again at {}: {what}", opt.name, opt.location),
                Some(loc.clone()),
                Some(opt.name.clone()),
            );
            f.fix = fixes.for_shadowed(loc, &opt.location);
            out.push(f);
        }
    }
}

/// `@MYSQL_TCP_PORT@` (autoconf/CMake `configure_file`), `{{ port }}`
/// (Jinja, Go templates), `${PORT}`, `<%= port %>` (ERB).
fn is_placeholder(v: &str) -> bool {
    let at = v.len() > 2
        && v.starts_with('@')
        && v.ends_with('@')
        && v[1..v.len() - 1]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
    at || ["{{", "{%", "${", "<%"].iter().any(|m| v.contains(m))
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
