//! What the server makes of an option line's value: numbers as `my_getopt`
//! reads them, booleans, enums and sets, sizes InnoDB rounds, time zones,
//! character sets and names; the bounds it clamps to.

use std::collections::HashMap;

use super::plugins::{
    FATAL_PLUGINS, MARIADB_KEY_MANAGEMENT_PLUGINS, MARIADB_NEEDS_KEY_MANAGEMENT,
    MARIADB_PLUGIN_PREFIXES,
};
use super::{Effect, Judgement, LineContext, MARIADB_ON_STOPS, Reason};
use crate::catalog::server_facts::{ServerFacts, server_facts};
use crate::catalog::{ArgKind, Catalog, VarInfo, VarKind};
use crate::cnf::{Modifier, OptionEntry, canonical_name};
use crate::target::Dialect;
use crate::units;

impl Catalog {
    pub(in crate::catalog) fn judge_value<'c>(
        &'c self,
        e: &OptionEntry,
        info: &'c VarInfo,
        ctx: &LineContext,
    ) -> Option<Judgement<'c>> {
        let plugin_fatal = self.target().dialect() == Dialect::Mariadb
            && FATAL_PLUGINS
                .iter()
                .any(|p| info.name.starts_with(p) && info.name[p.len()..].starts_with('_'));
        let bad = |why: String| self.plugin_value_error(info, why, plugin_fatal);
        let facts = server_facts(self.target());
        // A debug build's option: a release server takes any text for it
        // (`debug_exit_info=abc` starts; it only prints resource usage at
        // exit).
        if self.target().dialect() == Dialect::Mariadb && info.name == "debug_exit_info" {
            return None;
        }
        // `skip-host-cache` names the option skip_host_cache itself: no
        // prefix is in play then.
        // The server still reads `skip_symbolic_links` as skip- and
        // `symbolic_links` when that is an option. With skip-, disable- or
        // enable- it ignores any value written.
        let whole = canonical_name(e.raw_name.trim_start_matches("loose-"));
        let modifier = if info.name == whole {
            [
                ("skip_", Modifier::Skip),
                ("disable_", Modifier::Disable),
                ("enable_", Modifier::Enable),
            ]
            .iter()
            .find(|(p, _)| {
                whole
                    .strip_prefix(p)
                    .and_then(|rest| self.get(rest))
                    .is_some_and(|v| v.kind == VarKind::Bool || self.is_modifier_form(info))
            })
            .map_or(Modifier::None, |(_, m)| *m)
        } else {
            e.modifier
        };
        let no_arg = match facts {
            Some(f) => f.no_arg.contains(&info.name),
            None => info.arg == ArgKind::NoArg,
        };
        if no_arg
            && (e.value.is_some() || modifier != Modifier::None && modifier != Modifier::Loose)
        {
            return Some(Judgement {
                effect: Effect::Refuses,
                message: format!(
                    "{} takes no value (write the bare name); the server will not start",
                    info.name
                ),
                reason: Reason::BadValue,
                var: Some(info),
            });
        }
        let adjusted = |why: String, runs_with: Option<String>| Judgement {
            effect: Effect::Warns,
            message: why,
            reason: Reason::Adjusted { runs_with },
            var: Some(info),
        };
        // The value the prefix implies.
        let value: String = match (modifier, e.value.as_deref()) {
            (Modifier::Maximum, v) => {
                if !self.takes_maximum(info) {
                    return Some(bad(format!(
                        "maximum-{} cannot be set: it has no session value to limit",
                        info.name
                    )));
                }
                v.unwrap_or("").to_string()
            }
            (Modifier::Skip | Modifier::Disable, _) => "0".into(),
            (Modifier::Enable, _) => "1".into(),
            (_, Some(v)) => v.to_string(),
            (_, None) => {
                // MariaDB: what the server answered; MySQL and Percona: the
                // help output's `=#` / `[=#]`, else the kind.
                let required = match facts {
                    Some(f) => f.arg_required.contains(&info.name),
                    None => match info.arg {
                        ArgKind::Required => true,
                        ArgKind::Optional | ArgKind::NoArg => false,
                        ArgKind::Unknown => {
                            !matches!(info.kind, VarKind::Bool | VarKind::String | VarKind::Path)
                        }
                    },
                };
                if required {
                    return Some(bad(format!(
                        "{} needs a value ({}); a bare name is refused",
                        info.name,
                        info.kind.name()
                    )));
                }
                match info.kind {
                    // An optional argument: a bare number is 1, a bare
                    // boolean ON (judged as ON below), a bare enum its
                    // first value.
                    VarKind::Integer { .. }
                    | VarKind::Size { .. }
                    | VarKind::Float { .. }
                    | VarKind::Bool => "1".into(),
                    _ => return None,
                }
            }
        };
        let v = value.trim();
        // Encryption turned on (a boolean ON, an enum's ON or FORCE) without
        // a key management plugin.
        let turns_on = match &info.kind {
            VarKind::Bool => ["on", "true", "1"]
                .iter()
                .any(|a| a.eq_ignore_ascii_case(v)),
            VarKind::Enum { values } => {
                enum_index(values, v).is_some_and(|i| !values[i].eq_ignore_ascii_case("off"))
            }
            _ => false,
        };
        if self.target().dialect() == Dialect::Mariadb
            && MARIADB_NEEDS_KEY_MANAGEMENT.contains(&info.name.as_str())
            && turns_on
            && !MARIADB_KEY_MANAGEMENT_PLUGINS
                .iter()
                .any(|p| ctx.plugins.contains(*p) && !ctx.keyless_plugins.contains(*p))
        {
            let innodb = if info.name.starts_with("innodb_") {
                " (InnoDB: \"cannot enable encryption, encryption plugin is not available\"; InnoDB \
                 does not start, and it is the default storage engine)"
            } else {
                ""
            };
            return Some(Judgement {
                effect: Effect::Refuses,
                message: match ctx.keyless_plugins.iter().min() {
                    Some(p) => format!(
                        "{} = {value} needs a key management plugin; the files load {p} without \
                         {p}_filename, so it fails to initialize and no key is available{innodb}; \
                         the server will not start",
                        info.name
                    ),
                    None => format!(
                        "{} = {value} needs a key management plugin (plugin-load-add = \
                         file_key_management, with its key file), which these files do not \
                         load{innodb}; the server will not start",
                        info.name
                    ),
                },
                reason: Reason::BadValue,
                var: Some(info),
            });
        }
        match &info.kind {
            VarKind::Bool => {
                const OK: [&str; 6] = ["on", "off", "true", "false", "1", "0"];
                const ON: [&str; 3] = ["on", "true", "1"];
                if self.target().dialect() == Dialect::Mariadb
                    && ON.iter().any(|a| a.eq_ignore_ascii_case(v))
                    && let Some((_, why)) = MARIADB_ON_STOPS.iter().find(|(n, _)| *n == info.name)
                {
                    return Some(Judgement {
                        effect: Effect::Refuses,
                        message: format!("{} = {value} {why}", info.name),
                        reason: Reason::BadValue,
                        var: Some(info),
                    });
                }
                if OK.iter().any(|a| a.eq_ignore_ascii_case(v)) {
                    None
                } else {
                    Some(adjusted(
                        format!(
                            "{} = {value}: '{v}' is not a boolean (ON, OFF, TRUE, FALSE, 1, 0): \
                             the server warns and {}",
                            info.name,
                            if plugin_fatal {
                                "ignores the line"
                            } else {
                                "sets it OFF"
                            }
                        ),
                        Some("OFF".into()),
                    ))
                }
            }
            VarKind::Integer { min, max } => {
                let unsigned = min.is_none_or(|m| m >= 0)
                    && !server_facts(self.target()).is_some_and(|f| f.signed.contains(&info.name));
                let n = match parse_number(v, unsigned) {
                    Ok(n) => n,
                    Err(why) => return Some(bad(format!("{} = {value}: {why}", info.name))),
                };
                let (min, max) = &self.bounds(info, *min, *max);
                if self.zero_is_silent(info, n, *min) {
                    return None;
                }
                if let Some(j) = self.judge_innodb_size(info, n, *min, &value, ctx) {
                    return Some(j);
                }
                if self.target().dialect() == Dialect::Mariadb
                    && info.name == "lower_case_table_names"
                    && n == 2
                {
                    return Some(adjusted(
                        "lower_case_table_names = 2 is for case-insensitive file systems: on a \
                         case-sensitive one (Linux's) the server warns and runs with 0"
                            .into(),
                        None,
                    ));
                }
                // Within the range the server takes it silently, and what
                // runs (a 32-bit read sign-extended) is as verbose as the
                // maximum: only a clamped value changes meaning.
                if max.is_some_and(|m| n > m)
                    && server_facts(self.target()).is_some_and(|f| f.int_read.contains(&info.name))
                {
                    // The server checks the range, warns that it adjusted the
                    // value to its maximum, then reads the text again as a C
                    // int: what runs is the value modulo 2^32, sign-extended.
                    // No fix: the maximum would mean another value again.
                    let runs = int_read(n);
                    return Some(adjusted(
                        format!(
                            "{} = {value}: above 2147483647 the server reads this option as a \
                             32-bit number and runs with {runs}, although it warns that it \
                             adjusted the value to {}",
                            info.name,
                            max.map_or_else(|| "its maximum".to_string(), |m| m.to_string())
                        ),
                        None,
                    ));
                }
                range(info, n, *min, *max, None).map(|(why, to)| adjusted(why, Some(to)))
            }
            VarKind::Size { min, max, block } => {
                let n = match parse_number(v, true) {
                    Ok(n) => n,
                    Err(why) => return Some(bad(format!("{} = {value}: {why}", info.name))),
                };
                let (lo, hi) = self.bounds(info, min.map(i128::from), max.map(i128::from));
                if self.zero_is_silent(info, n, lo) {
                    return None;
                }
                if let Some(j) = self.judge_innodb_size(info, n, lo, &value, ctx) {
                    return Some(j);
                }
                range(info, n, lo, hi, block.filter(|b| *b > 1).map(i128::from))
                    .map(|(why, to)| adjusted(why, Some(to)))
            }
            VarKind::Float { min, max } => {
                let f: f64 = match v.parse::<f64>().ok().filter(|f| f.is_finite()) {
                    Some(f) => f,
                    None if v.is_empty() => 0.0,
                    None => {
                        return Some(bad(format!(
                            "{} = {value}: '{v}' is not a decimal number",
                            info.name
                        )));
                    }
                };
                let clamp = min
                    .filter(|lo| f < *lo)
                    .map(|lo| ("below the minimum", lo))
                    .or_else(|| max.filter(|hi| f > *hi).map(|hi| ("above the maximum", hi)));
                clamp.map(|(what, to)| {
                    adjusted(
                        format!(
                            "{} = {value} is {what} {to}: the server warns and runs with {to}",
                            info.name
                        ),
                        Some(to.to_string()),
                    )
                })
            }
            VarKind::Enum { values } => {
                if let Some(i) = enum_index(values, v) {
                    return self.needs_provider(info, &values[i], ctx);
                }
                let mut why = format!(
                    "{} = {value}: '{v}' is not one of {}",
                    info.name,
                    values.join(", ")
                );
                if let Some(note) = &info.note {
                    why.push_str(&format!(" ({note})"));
                }
                Some(self.plugin_value_error(info, why, plugin_fatal))
            }
            VarKind::Set { values } => {
                let bad_items: Vec<&str> = v
                    .split(',')
                    .map(str::trim)
                    .filter(|item| !item.is_empty())
                    .filter(|item| !set_item_ok(info, values, item))
                    .collect();
                let items: Vec<&str> = v.split(',').map(str::trim).collect();
                if bad_items.is_empty() && info.name == "log_slow_filter" && v.is_empty() {
                    return Some(adjusted(
                        "log_slow_filter is empty: the server warns and logs every kind (ALL)"
                            .into(),
                        Some("ALL".into()),
                    ));
                }
                if bad_items.is_empty()
                    && info.name == "log_output"
                    && items.len() > 1
                    && items.iter().any(|i| i.eq_ignore_ascii_case("none"))
                {
                    return Some(adjusted(
                        format!(
                            "log_output = {value}: NONE wins over the other values, so the server \
                             warns and writes neither the general nor the slow log"
                        ),
                        Some("NONE".into()),
                    ));
                }
                if bad_items.is_empty()
                    && self.target().dialect() == Dialect::Mariadb
                    && info.name == "tls_version"
                    && items.iter().any(|i| {
                        i.eq_ignore_ascii_case("tlsv1.0") || i.eq_ignore_ascii_case("tlsv1.1")
                    })
                {
                    return Some(adjusted(
                        format!(
                            "tls_version = {value}: TLSv1.0 and TLSv1.1 are insecure, and the server warns \
                             about them; use TLSv1.2,TLSv1.3"
                        ),
                        None,
                    ));
                }
                if bad_items.is_empty() {
                    None
                } else {
                    let why = format!(
                        "{} = {value}: '{}' {} not allowed; accepted (comma-separated): {}",
                        info.name,
                        bad_items.join(","),
                        if bad_items.len() == 1 { "is" } else { "are" },
                        values.join(", ")
                    );
                    Some(self.plugin_value_error(info, why, plugin_fatal))
                }
            }
            VarKind::String | VarKind::Path if info.name == "default_time_zone" => {
                self.judge_time_zone(info, v)
            }
            VarKind::String => {
                if let Some(j) = self.judge_string_syntax(info, v, &value, plugin_fatal) {
                    return Some(j);
                }
                self.judge_name_value(info, v, &value)
            }
            VarKind::Path => self.judge_name_value(info, v, &value),
        }
    }

    /// `default_time_zone`: SYSTEM or an offset the server can read, else a
    /// named zone, which needs the time zone tables (mysql_tzinfo_to_sql):
    /// without them the server stops ("Illegal or unknown default time
    /// zone"). Whether they are loaded is a fact of the datadir, so a named
    /// zone is a warning.
    pub(in crate::catalog) fn judge_time_zone<'c>(
        &'c self,
        info: &'c VarInfo,
        v: &str,
    ) -> Option<Judgement<'c>> {
        if v.eq_ignore_ascii_case("system") {
            return None;
        }
        if let Some(rest) = v.strip_prefix(['+', '-']) {
            let ok = rest.split_once(':').is_some_and(|(h, m)| {
                h.len() <= 2
                    && m.len() == 2
                    && h.parse::<u32>().is_ok_and(|h| h <= 14)
                    && m.parse::<u32>().is_ok_and(|m| m < 60)
            });
            return (!ok).then(|| Judgement {
                effect: Effect::Refuses,
                message: format!(
                    "default_time_zone = {v} is not an offset the server reads (+HH:MM, -12:59 to \
                     +14:00); the server will not start"
                ),
                reason: Reason::BadValue,
                var: Some(info),
            });
        }
        Some(Judgement {
            effect: Effect::Warns,
            message: format!(
                "default_time_zone = {v} is a named zone: it works only when the time zone tables \
                 are loaded (mysql_tzinfo_to_sql); on a server without them it will not start"
            ),
            reason: Reason::Adjusted { runs_with: None },
            var: Some(info),
        })
    }

    /// Character-set and collation names, which the server checks at
    /// start-up (MariaDB: the names the server lists).
    pub(in crate::catalog) fn judge_name_value<'c>(
        &'c self,
        info: &'c VarInfo,
        v: &str,
        value: &str,
    ) -> Option<Judgement<'c>> {
        let facts = server_facts(self.target())?;
        let lower = v.to_ascii_lowercase();
        if info.name == "character_set_server" && !facts.charsets.is_empty() {
            return self.judge_server_charsets(info, &lower, value, facts);
        }
        let (known, what) =
            if info.name.starts_with("character_set_") && info.name != "character_set_dir" {
                (
                    facts.charsets.contains(&lower) || lower == "utf8",
                    "character set",
                )
            } else if matches!(
                info.name.as_str(),
                "default_storage_engine"
                    | "default_tmp_storage_engine"
                    | "enforce_storage_engine"
                    | "storage_engine"
            ) {
                (
                    facts.engines.is_empty() || facts.engines.contains(&lower),
                    "storage engine",
                )
            } else if matches!(info.name.as_str(), "lc_messages" | "lc_time_names") {
                (
                    facts.locales.is_empty() || facts.locales.contains(&lower),
                    "locale",
                )
            } else if info.name.starts_with("collation_") {
                (
                    facts.collations.contains_key(&lower)
                        || lower.starts_with("utf8_")
                            && facts
                                .collations
                                .contains_key(&lower.replacen("utf8_", "utf8mb3_", 1)),
                    "collation",
                )
            } else {
                return None;
            };
        if known || facts.charsets.is_empty() {
            return None;
        }
        Some(Judgement {
            effect: Effect::Refuses,
            message: format!(
                "{} = {value}: the server knows no {what} '{v}'; the server will not start",
                info.name
            ),
            reason: Reason::BadValue,
            var: Some(info),
        })
    }

    /// `character_set_server` (MariaDB) is a list: the server takes the
    /// first name it knows, printing an error for each unknown one before
    /// it, and stops only when it knows none. A character set clients cannot
    /// use (ucs2, utf16, utf16le, utf32) is the server's but not the
    /// clients' default: it warns and gives them latin1.
    pub(in crate::catalog) fn judge_server_charsets<'c>(
        &'c self,
        info: &'c VarInfo,
        lower: &str,
        value: &str,
        facts: &ServerFacts,
    ) -> Option<Judgement<'c>> {
        let known = |c: &str| facts.charsets.contains(c) || c == "utf8";
        let names: Vec<&str> = lower.split(',').map(str::trim).collect();
        let Some(first) = names.iter().position(|c| known(c)) else {
            return Some(Judgement {
                effect: Effect::Refuses,
                message: format!(
                    "{} = {value}: the server knows no character set {}; the server will not start",
                    info.name,
                    names
                        .iter()
                        .map(|n| format!("'{n}'"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
                reason: Reason::BadValue,
                var: Some(info),
            });
        };
        let chosen = names[first];
        let adjusted = |why: String| Judgement {
            effect: Effect::Warns,
            message: why,
            reason: Reason::Adjusted {
                runs_with: Some(chosen.to_string()),
            },
            var: Some(info),
        };
        if first > 0 {
            return Some(adjusted(format!(
                "{} = {value}: the server knows no character set {}, prints an error for it and uses {chosen}, \
                 the first it knows",
                info.name,
                names[..first]
                    .iter()
                    .map(|n| format!("'{n}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        if ["ucs2", "utf16", "utf16le", "utf32"].contains(&chosen) {
            return Some(adjusted(format!(
                "{} = {value}: clients cannot use {chosen}, so the server warns and gives them latin1 as \
                 their default character set",
                info.name
            )));
        }
        None
    }

    /// What the server checks in the text of some string options when it
    /// reads them: replication filter rules, the proxy protocol networks,
    /// a plugin's enable value.
    pub(in crate::catalog) fn judge_string_syntax<'c>(
        &'c self,
        info: &'c VarInfo,
        v: &str,
        value: &str,
        plugin_fatal: bool,
    ) -> Option<Judgement<'c>> {
        let refuse = |why: String| Judgement {
            effect: Effect::Refuses,
            message: format!("{} = {value}: {why}; the server will not start", info.name),
            reason: Reason::BadValue,
            var: Some(info),
        };
        let v = v.trim();
        match info.name.as_str() {
            // "Could not add do table rule" / "Bad syntax in
            // replicate-rewrite-db": the rule is parsed at start-up.
            "replicate_do_table" | "replicate_ignore_table" => {
                let ok = v
                    .split_once('.')
                    .is_some_and(|(db, t)| !db.is_empty() && !t.is_empty());
                (!ok).then(|| refuse("a table rule is written db_name.table_name".into()))
            }
            // InnoDB parses the path at start-up: "syntax error in file
            // path or size specified is less than 1 megabyte".
            "innodb_data_file_path" | "innodb_temp_data_file_path"
                if self.target().dialect() == Dialect::Mariadb =>
            {
                data_file_path_error(v).map(|why| {
                    refuse(format!(
                        "{why} (written path:size[:autoextend[:max:size]], files joined by ';', \
                         sizes of at least 1M); InnoDB does not start, and it is the default \
                         storage engine"
                    ))
                })
            }
            "replicate_wild_do_table" | "replicate_wild_ignore_table" => (!v.contains('.'))
                .then(|| refuse("a table pattern is written db_pattern.table_pattern".into())),
            "replicate_rewrite_db" => {
                let ok = v
                    .split_once("->")
                    .is_some_and(|(a, b)| !a.trim().is_empty() && !b.trim().is_empty());
                (!ok).then(|| refuse("a rewrite rule is written from_name->to_name".into()))
            }
            "performance_schema_instrument" if v.is_empty() && self.target().dialect() == Dialect::Mariadb => {
                Some(Judgement {
                    effect: Effect::Warns,
                    message: "performance_schema_instrument is empty: the server warns (\"Missing value for \
                              performance_schema_instrument\") and ignores the line"
                        .into(),
                    reason: Reason::Adjusted { runs_with: None },
                    var: Some(info),
                })
            }
            "proxy_protocol_networks" if self.target().dialect() == Dialect::Mariadb => {
                let bad = v.split(',').map(str::trim).find(|item| {
                    let addr = item.split_once('/').map_or(*item, |(a, _)| a);
                    !(item.is_empty()
                        || *item == "*"
                        || item.eq_ignore_ascii_case("localhost")
                        || addr.parse::<std::net::IpAddr>().is_ok()
                            && item
                                .split_once('/')
                                .is_none_or(|(_, m)| !m.is_empty() && m.bytes().all(|b| b.is_ascii_digit())))
                });
                bad.map(|item| {
                    refuse(format!(
                        "'{item}' is not a network (an address, address/prefix length, localhost or *)"
                    ))
                })
            }
            // A plugin's enable option takes ON, OFF, FORCE or
            // FORCE_PLUS_PERMANENT; anything else fails the plugin's option
            // parsing and the server disables the plugin.
            _ if self.target().dialect() == Dialect::Mariadb && is_enable_option(info) => {
                let ok = ["on", "off", "force", "force_plus_permanent", "1", "0", "true", "false"]
                    .iter()
                    .any(|a| a.eq_ignore_ascii_case(v));
                let fatal = plugin_fatal || FATAL_PLUGINS.contains(&info.name.as_str());
                (!ok).then(|| {
                    self.plugin_value_error(
                        info,
                        format!(
                            "{} = {value}: '{v}' is not ON, OFF, FORCE or FORCE_PLUS_PERMANENT (the plugin's \
                             enable option)",
                            info.name
                        ),
                        fatal,
                    )
                })
            }
            _ => None,
        }
    }

    /// InnoDB's own start-up checks of sizes (MariaDB): the buffer pool's
    /// minimum for the default page size, and sizes no machine can give
    /// (the pool must be mapped, the redo log preallocated). Also
    /// `aria_block_size`, fixed when the Aria files were made.
    pub(in crate::catalog) fn judge_innodb_size<'c>(
        &'c self,
        info: &'c VarInfo,
        n: i128,
        min: Option<i128>,
        value: &str,
        ctx: &LineContext,
    ) -> Option<Judgement<'c>> {
        if self.target().dialect() != Dialect::Mariadb {
            return None;
        }
        const MIB: i128 = 1 << 20;
        const PIB: i128 = 1 << 50;
        let refuse = |why: String| Judgement {
            effect: Effect::Refuses,
            message: format!("{} = {value}: {why}; the server will not start", info.name),
            reason: Reason::BadValue,
            var: Some(info),
        };
        let runs = n.max(min.unwrap_or(0));
        match info.name.as_str() {
            "innodb_buffer_pool_size"
                if runs < 6 * MIB && ctx.innodb_page_size.is_none_or(|p| p == 16384) =>
            {
                Some(refuse(
                    "with the default innodb_page_size = 16K, InnoDB needs a buffer pool of at least 6M \
                     (\"innodb_page_size=16384 requires innodb_buffer_pool_size >= 6 MiB\")"
                        .into(),
                ))
            }
            // The pool's address space is reserved at start: more than the
            // 128 PiB a 64-bit Linux process can address cannot be mapped.
            "innodb_buffer_pool_size" | "innodb_buffer_pool_size_max" if runs > 128 * PIB => Some(refuse(
                "more than a 64-bit Linux process can address (128 PiB), so InnoDB cannot map the buffer pool"
                    .into(),
            )),
            // The redo log file is preallocated whole at start.
            "innodb_log_file_size" if runs > PIB => Some(refuse(
                "InnoDB preallocates the whole redo log at start, and no disk holds more than a petabyte in \
                 one file"
                    .into(),
            )),
            // Fixed when the datadir was made: the checked datadir is the
            // usual one, made with the defaults (Aria 8K, InnoDB 16K).
            "aria_block_size" if n != 8192 => Some(refuse(
                "the Aria block size is fixed when the datadir's Aria files are created (8K by default): on \
                 a datadir made with another size Aria does not start (\"Block size in control file … is \
                 different than given aria_block_size\"); set it only before initializing a new datadir"
                    .into(),
            )),
            "innodb_page_size" => {
                let pages = n.clamp(4096, 65536);
                if pages.count_ones() != 1 {
                    Some(refuse(format!(
                        "InnoDB takes a page size of 4K, 8K, 16K, 32K or 64K, and {} is none (\"Invalid page \
                         size\"): InnoDB does not start, and it is the default storage engine",
                        units::format_size(pages as u64)
                    )))
                } else if pages != 16384 {
                    Some(refuse(format!(
                        "the page size is fixed when the datadir is created (16K unless set then): on a datadir \
                         made with another size InnoDB does not start (\"Data file './ibdata1' uses page size \
                         16384, but the innodb_page_size start-up parameter is {pages}\"); set it only before \
                         initializing a new datadir"
                    )))
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// An enum or set value the server cannot read: a refusal, except in a
    /// MariaDB plugin that is not needed to start (the plugin is disabled).
    pub(in crate::catalog) fn plugin_value_error<'c>(
        &'c self,
        info: &'c VarInfo,
        why: String,
        fatal: bool,
    ) -> Judgement<'c> {
        let plugin = self.target().dialect() == Dialect::Mariadb
            && (is_enable_option(info)
                || info.plugin.is_some()
                || MARIADB_PLUGIN_PREFIXES
                    .iter()
                    .any(|p| info.name.starts_with(p) && info.name[p.len()..].starts_with('_')));
        if plugin && !fatal {
            Judgement {
                effect: Effect::Warns,
                message: format!("{why}; the server disables the plugin the option belongs to"),
                reason: Reason::BadValue,
                var: Some(info),
            }
        } else {
            Judgement {
                effect: Effect::Refuses,
                message: format!("{why}; the server will not start"),
                reason: Reason::BadValue,
                var: Some(info),
            }
        }
    }
}

impl Catalog {
    /// A numeric option's bounds: the catalog's, else what the server was
    /// seen to clamp to (MariaDB's probed facts).
    pub(in crate::catalog) fn bounds(
        &self,
        info: &VarInfo,
        min: Option<i128>,
        max: Option<i128>,
    ) -> (Option<i128>, Option<i128>) {
        let facts = server_facts(self.target());
        let probed = |m: Option<&HashMap<String, i128>>| m.and_then(|m| m.get(&info.name).copied());
        (
            min.or_else(|| probed(facts.map(|f| &f.min))),
            max.or_else(|| probed(facts.map(|f| &f.max))),
        )
    }

    /// A value from 0 up to the catalog's minimum the server takes without
    /// a word (`max_relay_log_size = 0` means max_binlog_size; 4095 rounds
    /// down to it).
    pub(in crate::catalog) fn zero_is_silent(
        &self,
        info: &VarInfo,
        n: i128,
        min: Option<i128>,
    ) -> bool {
        n >= 0
            && min.is_some_and(|m| n < m)
            && server_facts(self.target()).is_some_and(|f| f.zero_silent.contains(&info.name))
    }

    /// The character set the server runs with for a `character_set_server`
    /// value: MariaDB reads a list and takes the first name it knows
    /// (`ucs2,latin1` is ucs2); elsewhere the value itself. `utf8` is
    /// `utf8mb3`.
    pub fn server_charset(&self, value: &str) -> String {
        let lower = value.trim().to_ascii_lowercase();
        let chosen = match server_facts(self.target()) {
            Some(facts) => lower
                .split(',')
                .map(str::trim)
                .find(|c| facts.charsets.contains(*c) || *c == "utf8")
                .unwrap_or(lower.as_str()),
            None => lower.as_str(),
        };
        if chosen == "utf8" {
            "utf8mb3".to_string()
        } else {
            chosen.to_string()
        }
    }

    /// The character set of a collation the server knows (MariaDB: from the
    /// server; `utf8_…` is `utf8mb3_…`).
    pub fn collation_charset(&self, collation: &str) -> Option<&str> {
        let facts = server_facts(self.target())?;
        let lower = collation.to_ascii_lowercase();
        let key = if lower.starts_with("utf8_") {
            lower.replacen("utf8_", "utf8mb3_", 1)
        } else {
            lower
        };
        facts
            .collations
            .get(&key)
            .map(String::as_str)
            .filter(|c| !c.is_empty())
    }
}

/// A plugin's enable option as the catalog has it: a string that is no
/// system variable, ON by default (`innodb`, `feedback`, `thread_pool_stats`).
pub(in crate::catalog) fn is_enable_option(v: &VarInfo) -> bool {
    v.kind == VarKind::String
        && !v.sysvar
        && v.default
            .as_deref()
            .is_some_and(|d| ["ON", "OFF", "FORCE", "FORCE_PLUS_PERMANENT"].contains(&d))
}

/// A set item: a value or (a flag set such as optimizer_switch)
/// `flag=on|off|default`.
pub(in crate::catalog) fn set_item_ok(info: &VarInfo, values: &[String], item: &str) -> bool {
    if info.name == "optimizer_switch"
        || info
            .note
            .as_deref()
            .is_some_and(|n| n.starts_with("flag set"))
    {
        let (flag, state) = item.split_once('=').unwrap_or((item, ""));
        return (flag.eq_ignore_ascii_case("default") && state.is_empty())
            || (values.iter().any(|a| a.eq_ignore_ascii_case(flag))
                && ["on", "off", "default"]
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(state)));
    }
    values.iter().any(|a| a.eq_ignore_ascii_case(item))
}

/// An enum value as the parser finds it: the value, a unique prefix of
/// one, or its index; an empty value is index 0.
pub fn enum_index(values: &[String], v: &str) -> Option<usize> {
    if let Some(i) = values.iter().position(|a| a.eq_ignore_ascii_case(v)) {
        return Some(i);
    }
    if v.is_empty() {
        return (!values.is_empty()).then_some(0);
    }
    let lower = v.to_ascii_lowercase();
    let prefixed: Vec<usize> = values
        .iter()
        .enumerate()
        .filter(|(_, a)| a.to_ascii_lowercase().starts_with(&lower))
        .map(|(i, _)| i)
        .collect();
    if prefixed.len() == 1 {
        return Some(prefixed[0]);
    }
    v.parse::<usize>().ok().filter(|i| *i < values.len())
}

/// A number as `my_getopt` reads it: a leading (signed) integer, then at
/// most one suffix letter; the rest of the text is ignored.
pub fn parse_number(v: &str, unsigned: bool) -> Result<i128, String> {
    let bytes = v.as_bytes();
    let mut i = 0;
    let neg = match bytes.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    if neg && unsigned {
        return Err(format!("'{v}' is negative, and the option takes no sign"));
    }
    let start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    let digits = &v[start..i];
    let mut n: i128 = if digits.is_empty() {
        0
    } else {
        digits
            .parse::<i128>()
            .ok()
            .filter(|n| *n <= i128::from(u64::MAX))
            .ok_or_else(|| format!("'{v}' is beyond the 64-bit range"))?
    };
    if let Some(c) = v[i..].chars().next() {
        match units::suffix_multiplier(c) {
            Some(m) => n = n.saturating_mul(i128::from(m)),
            None => {
                return Err(format!(
                    "'{v}' has the unknown suffix '{c}' (the server takes K, M, G, T, P or E)"
                ));
            }
        }
    }
    Ok(if neg { -n } else { n })
}

/// Why InnoDB refuses an `innodb_data_file_path` value, as mariadbd 10.11
/// did when started with each form (`ON`, `ibdata1`, `ibdata1:abc`,
/// `ibdata1:512K`, `12MB`, a trailing `;`, `autoextend` before the last
/// file, `:max` without a size, an unknown attribute all refused; `12M`,
/// `12m`, `12582912` (bytes), `:autoextend:max:100M` and two files
/// started). `None` when it parses.
fn data_file_path_error(v: &str) -> Option<String> {
    let size = |s: &str| -> Option<u64> {
        let digits = s.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let unit = &s[digits.len()..];
        let n: u64 = digits.parse().ok()?;
        let mult: u64 = match unit {
            "" => 1,
            "K" | "k" => 1 << 10,
            "M" | "m" => 1 << 20,
            "G" | "g" => 1 << 30,
            "T" | "t" => 1 << 40,
            _ => return None,
        };
        n.checked_mul(mult)
    };
    let files: Vec<&str> = v.split(';').collect();
    for (i, file) in files.iter().enumerate() {
        let mut parts = file.split(':');
        let path = parts.next().unwrap_or("");
        if path.is_empty() {
            return Some(format!("'{file}' names no file"));
        }
        let Some(bytes) = parts.next().map(size) else {
            return Some(format!("'{file}' gives no size"));
        };
        match bytes {
            None => return Some(format!("'{file}' has no size InnoDB can read")),
            Some(b) if b < 1 << 20 => {
                return Some(format!("'{file}' is smaller than 1 megabyte"));
            }
            Some(_) => {}
        }
        let rest: Vec<&str> = parts.collect();
        let ok = match rest.as_slice() {
            [] => true,
            ["newraw"] | ["raw"] => true,
            ["autoextend"] => i + 1 == files.len(),
            ["autoextend", "max", max] => i + 1 == files.len() && size(max).is_some(),
            _ => false,
        };
        if !ok {
            return Some(
                if rest.first() == Some(&"autoextend") && i + 1 < files.len() {
                    format!("'{file}': only the last file may autoextend")
                } else {
                    format!(
                        "'{file}': '{}' is not autoextend[:max:size]",
                        rest.join(":")
                    )
                },
            );
        }
    }
    None
}

/// What a server that reads a number with C's `atoi` runs with: the value
/// modulo 2^32 as a signed 32-bit int, stored sign-extended in an unsigned
/// 64-bit variable (`log_warnings = 4294967296` runs as 0).
fn int_read(n: i128) -> u64 {
    let low = (n.rem_euclid(1 << 32)) as u32 as i32;
    i64::from(low) as u64
}

/// Clamping and rounding: `(message, the value the server runs with)`.
pub(in crate::catalog) fn range(
    info: &VarInfo,
    n: i128,
    min: Option<i128>,
    max: Option<i128>,
    block: Option<i128>,
) -> Option<(String, String)> {
    let show = |x: i128| match info.kind {
        VarKind::Size { .. } if x >= 0 => units::format_size(x as u64),
        _ => x.to_string(),
    };
    if let Some(lo) = min
        && n < lo
    {
        return Some((
            format!(
                "{} = {} is below the minimum {}: the server warns and runs with {}",
                info.name,
                show(n),
                show(lo),
                show(lo)
            ),
            lo.to_string(),
        ));
    }
    if let Some(hi) = max
        && n > hi
    {
        return Some((
            format!(
                "{} = {} is above the maximum {}: the server warns and runs with {}",
                info.name,
                show(n),
                show(hi),
                show(hi)
            ),
            hi.to_string(),
        ));
    }
    if let Some(b) = block
        && n % b != 0
    {
        let to = n - n % b;
        return Some((
            format!(
                "{} = {} is not a multiple of {}: the server rounds it down to {}",
                info.name,
                show(n),
                show(b),
                show(to)
            ),
            to.to_string(),
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_like_my_getopt() {
        assert_eq!(parse_number("16MB", true), Ok(16 << 20));
        assert_eq!(parse_number("2MiB", true), Ok(2 << 20));
        assert_eq!(parse_number("1e3", true), Ok(1 << 60));
        assert_eq!(parse_number("", true), Ok(0));
        assert!(parse_number("-1", true).is_err());
        assert_eq!(parse_number("-1", false), Ok(-1));
        assert!(parse_number("1.5G", true).is_err());
        assert!(parse_number("16 M", true).is_err());
        assert!(parse_number("abc", true).is_err());
        assert!(parse_number("99999999999999999999999", true).is_err());
    }

    #[test]
    fn data_file_paths_parse_as_mariadbd_10_11_started_them() {
        for ok in [
            "ibdata1:12M:autoextend",
            "ibdata1:12M",
            "ibdata1:12m:autoextend",
            "ibdata1:12582912:autoextend",
            "ibdata1:12M:autoextend:max:100M",
            "ibdata1:12M;ibdata2:10M:autoextend",
        ] {
            assert_eq!(data_file_path_error(ok), None, "{ok}");
        }
        for bad in [
            "ON",
            "ibdata1",
            "ibdata1:",
            "ibdata1:abc",
            "ibdata1:512K",
            "ibdata1:12M:autoextend;",
            "ibdata1:12M:autoextend;ibdata2:10M",
            "ibdata1:12MB:autoextend",
            ":12M:autoextend",
            "ibdata1:12M:foo",
            "ibdata1:12M:autoextend:max",
        ] {
            assert!(data_file_path_error(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn an_int_read_value_wraps_as_mariadbd_10_11_ran_it() {
        // What `mariadbd --log-warnings=N --verbose --help` printed (10.11.19).
        for (n, runs) in [
            (4_294_967_296, 0),
            (4_294_967_297, 1),
            (99_999_999_999, 1_215_752_191),
            (2_147_483_648, 18_446_744_071_562_067_968),
            (3_000_000_000, 18_446_744_072_414_584_320),
            (4_294_967_295, u64::MAX),
        ] {
            assert_eq!(int_read(n), runs, "{n}");
        }
    }

    #[test]
    fn enum_values_by_name_prefix_or_index() {
        let v: Vec<String> = ["STATEMENT", "ROW", "MIXED"].map(String::from).to_vec();
        assert_eq!(enum_index(&v, "row"), Some(1));
        assert_eq!(enum_index(&v, "ST"), Some(0));
        assert_eq!(enum_index(&v, "2"), Some(2));
        assert_eq!(enum_index(&v, "3"), None);
        assert_eq!(enum_index(&v, ""), Some(0));
        assert_eq!(enum_index(&v, "bogus"), None);
    }
}
