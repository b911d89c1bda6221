//! Option names: prefixes and the canonical form.
//!
//! The server (`my_getopt.cc`) first looks the whole name up; only when that
//! fails does it strip one of the prefixes `skip`, `disable`, `enable`,
//! `maximum`, `loose` (followed by `-` or `_`) and look again, repeating until
//! a name matches — so `loose-skip-name-resolve` works. Because "whole name
//! first" needs the list of option names, and this module must not depend on
//! the catalog, it takes a predicate; [`split_name`] uses the short list of
//! real options that begin with a prefix word (the same list the server uses
//! when it records where a variable came from, `update_variable_source`).

use super::Modifier;

/// Server options whose own name starts with a prefix word, canonical form.
/// `skip-name-resolve` sets `skip_name_resolve = ON`; it does not turn a
/// `name_resolve` option OFF.
pub const OPTIONS_NAMED_WITH_A_PREFIX: &[&str] = &[
    "skip_name_resolve",
    "skip_networking",
    "skip_show_database",
    "skip_external_locking",
    "skip_grant_tables",
    "skip_slave_start",
    "skip_replica_start",
];

/// Options that may be given more than once, each occurrence adding one
/// item (a database, a table pattern, a plugin list) instead of replacing
/// the earlier ones. From the MySQL 5.7/8.0/9.x manual (Using Option Files;
/// Replication and Binary Logging Options; Plugin Loading; Performance
/// Schema Startup Configuration), MariaDB's `--help` texts and the MariaDB
/// Knowledge Base page "Replication Filters". `user` is the exception the
/// other way: mysqld uses the first one.
pub const REPEATABLE_OPTIONS: &[&str] = &[
    "replicate_do_db",
    "replicate_ignore_db",
    "replicate_do_table",
    "replicate_ignore_table",
    "replicate_wild_do_table",
    "replicate_wild_ignore_table",
    "replicate_rewrite_db",
    "binlog_do_db",
    "binlog_ignore_db",
    "plugin_load_add",
    "performance_schema_instrument",
    "performance_schema_consumer",
    "debug",
    "ignore_db_dir",
];

/// Is `canonical` an option whose occurrences accumulate?
pub fn is_repeatable(canonical: &str) -> bool {
    REPEATABLE_OPTIONS.contains(&canonical)
}

/// Options whose value is a list of `flag=on|off` settings: each occurrence
/// changes only the flags it names and keeps the others as the earlier
/// lines left them (the option parser's flag sets start from the current
/// value, MySQL and MariaDB alike: `optimizer_switch = index_merge=off`
/// then `optimizer_switch = mrr=on` runs with both), so no occurrence is
/// without effect. The MariaDB Knowledge Base "optimizer_switch" and the
/// MySQL manual "Switchable Optimizations" say a value names only the flags
/// it changes.
pub const FLAG_SET_OPTIONS: &[&str] = &[
    "optimizer_switch",
    "optimizer_trace",
    "optimizer_trace_features",
];

/// Is `canonical` a flag set ([`FLAG_SET_OPTIONS`])?
pub fn is_flag_set(canonical: &str) -> bool {
    FLAG_SET_OPTIONS.contains(&canonical)
}

/// `later`'s flags applied over `earlier`'s: one `flag=value` per flag, in
/// first-mention order. `default` in `later` resets every flag first, so
/// `later` alone is the result.
pub fn merge_flags(earlier: &str, later: &str) -> String {
    let items = |v: &str| -> Vec<(String, String)> {
        v.split(',')
            .map(str::trim)
            .filter(|i| !i.is_empty())
            .map(|i| match i.split_once('=') {
                Some((f, x)) => (f.trim().to_ascii_lowercase(), x.trim().to_string()),
                None => (i.to_ascii_lowercase(), String::new()),
            })
            .collect()
    };
    let new = items(later);
    if new.iter().any(|(f, _)| f == "default") {
        return later.to_string();
    }
    let mut out = items(earlier);
    for (f, x) in new {
        match out.iter_mut().find(|(g, _)| *g == f) {
            Some(slot) => slot.1 = x,
            None => out.push((f, x)),
        }
    }
    out.into_iter()
        .map(|(f, x)| if x.is_empty() { f } else { format!("{f}={x}") })
        .collect::<Vec<_>>()
        .join(",")
}

const PREFIXES: [(&str, Modifier); 5] = [
    ("skip_", Modifier::Skip),
    ("disable_", Modifier::Disable),
    ("enable_", Modifier::Enable),
    ("maximum_", Modifier::Maximum),
    ("loose_", Modifier::Loose),
];

/// Lowercase, `-` → `_`, no prefix handling.
pub fn canonical_name(raw: &str) -> String {
    raw.chars()
        .map(|c| {
            if c == '-' {
                '_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// Split a raw option name into (canonical name, deciding modifier, loose),
/// treating the names in [`OPTIONS_NAMED_WITH_A_PREFIX`] as whole names.
pub fn split_name(raw: &str) -> (String, Modifier, bool) {
    split_name_with(raw, |n| OPTIONS_NAMED_WITH_A_PREFIX.contains(&n))
}

/// [`split_name`] with a caller-supplied "is this a whole option name"
/// predicate (the catalog can pass every known variable). The predicate gets
/// canonical names.
///
/// The modifier is the last prefix stripped, as in the server:
/// `loose-skip-x` → (`x`, Skip, loose), `skip-loose-x` → (`x`, Loose, loose)
/// because the server lets the innermost prefix decide.
pub fn split_name_with(raw: &str, is_option: impl Fn(&str) -> bool) -> (String, Modifier, bool) {
    let full = canonical_name(raw);
    let mut name: &str = &full;
    let mut modifier = Modifier::None;
    let mut loose = false;
    'strip: loop {
        if is_option(name) {
            break;
        }
        for (prefix, m) in PREFIXES {
            if let Some(rest) = name.strip_prefix(prefix)
                && !rest.is_empty()
            {
                name = rest;
                modifier = m;
                loose |= m == Modifier::Loose;
                continue 'strip;
            }
        }
        break;
    }
    (name.to_string(), modifier, loose)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_flag_set_changes_only_its_own_flags() {
        assert_eq!(
            merge_flags("index_merge=off,mrr=off", "mrr=on,rowid_filter=off"),
            "index_merge=off,mrr=on,rowid_filter=off"
        );
        assert_eq!(
            merge_flags("index_merge=off", "default,mrr=on"),
            "default,mrr=on"
        );
    }

    #[test]
    fn prefixes_combine() {
        assert_eq!(
            split_name("loose-skip-name-resolve"),
            ("skip_name_resolve".into(), Modifier::Loose, true)
        );
        assert_eq!(
            split_name("loose-skip-log-bin"),
            ("log_bin".into(), Modifier::Skip, true)
        );
        assert_eq!(
            split_name("Loose_Innodb-Buffer_pool-size"),
            ("innodb_buffer_pool_size".into(), Modifier::Loose, true)
        );
        assert_eq!(
            split_name("disable-log-bin"),
            ("log_bin".into(), Modifier::Disable, false)
        );
        assert_eq!(
            split_name("enable_performance_schema"),
            ("performance_schema".into(), Modifier::Enable, false)
        );
        assert_eq!(
            split_name("maximum-sort-buffer-size"),
            ("sort_buffer_size".into(), Modifier::Maximum, false)
        );
        assert_eq!(split_name("skip"), ("skip".into(), Modifier::None, false));
        assert_eq!(split_name("skip-"), ("skip_".into(), Modifier::None, false));
    }

    #[test]
    fn whole_names_win() {
        assert_eq!(
            split_name("skip-name-resolve"),
            ("skip_name_resolve".into(), Modifier::None, false)
        );
        assert_eq!(
            split_name("skip-external-locking"),
            ("skip_external_locking".into(), Modifier::None, false)
        );
        assert_eq!(
            split_name_with("skip-federated", |n| n == "skip_federated"),
            ("skip_federated".into(), Modifier::None, false)
        );
    }
}
