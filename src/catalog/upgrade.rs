//! What changes under an unchanged option file when the server is
//! upgraded: the variables whose default differs between two catalogs.
//!
//! MySQL Shell's upgrade checker reports these for MySQL only; mytune has
//! the defaults of every series it knows, so the list comes from the
//! catalogs themselves (`innodb_io_capacity` 200 → 10000 from MySQL 8.0 to
//! 8.4 is in the data, not in a list kept here). What is kept here is only
//! the names whose catalog "default" is not a default at all: values of the
//! server run the catalog was captured from.

use super::{Catalog, VarInfo, VarKind};
use crate::cnf::canonical_name;

/// Names whose captured value describes the run the catalog came from
/// (its clock, its connection, its host, its start-up mode), or a
/// read-only fact of the build, not a default a file could keep.
const NOT_DEFAULTS: &[&str] = &[
    "timestamp",
    "pseudo_thread_id",
    "initialize",
    "initialize_insecure",
    "server_uuid",
    "hostname",
    "report_host",
    "wsrep_node_name",
    "wsrep_node_address",
    "wsrep_sst_receive_address",
    "character_set_system",
    "version",
    "version_comment",
    "version_compile_machine",
    "version_compile_os",
    "version_compile_zlib",
    "version_source_revision",
    "license",
];

/// One variable whose default changes.
#[derive(Debug, Clone, PartialEq)]
pub struct DefaultChange<'c> {
    /// The variable in the newer catalog.
    pub var: &'c VarInfo,
    /// The older series' default (`None`: computed by the server at start,
    /// from the host or other settings).
    pub old: Option<String>,
    pub new: Option<String>,
    /// For flag and list values, what the new default adds and drops
    /// (`hash_set_operations=on`).
    pub added: Vec<String>,
    pub dropped: Vec<String>,
    /// A plugin built in and always on in the older series, which the newer
    /// one turns off unless its enable option says otherwise (MySQL 8.4's
    /// `mysql_native_password`); `old` is then `ON`.
    pub builtin_turned_off: bool,
    /// The plugin the variable belongs to, in either catalog.
    pub plugin: Option<String>,
    /// When both defaults are computed and the computation changed: how
    /// each series computes it (from the catalogs' "computed default" note).
    pub rules: Option<(String, String)>,
}

/// The catalog's description of how the server computes a default.
fn computed_rule(v: &VarInfo) -> Option<&str> {
    v.note.as_deref()?.strip_prefix("computed default: ")
}

/// A default as compared: `None` when the server computes it.
fn normalized(kind: &VarKind, value: Option<&str>) -> Option<String> {
    let v = value?.trim();
    if v.is_empty() || v == "\\N" {
        return None;
    }
    Some(match kind {
        VarKind::Bool => match v.to_ascii_lowercase().as_str() {
            "on" | "1" | "true" | "yes" => "ON".into(),
            "off" | "0" | "false" | "no" => "OFF".into(),
            _ => v.to_string(),
        },
        VarKind::Float { .. } => v
            .parse::<f64>()
            .map_or_else(|_| v.to_string(), |f| format!("{f}")),
        VarKind::Enum { .. } | VarKind::Set { .. } => v.to_ascii_uppercase(),
        _ => v.to_string(),
    })
}

/// Does a running value (as `SHOW GLOBAL VARIABLES` prints it) equal a
/// catalog default of `kind`? Sizes compare as bytes, booleans in any
/// spelling, lists item by item.
pub fn same_value(kind: &VarKind, running: &str, default: &str) -> bool {
    let (a, b) = (
        normalized(kind, Some(running)),
        normalized(kind, Some(default)),
    );
    if a == b {
        return true;
    }
    let num = |v: &str| super::parse_number(v.trim(), true).ok();
    match (a, b) {
        (Some(x), Some(y)) if x.contains(',') || y.contains(',') => {
            let (mut xs, mut ys) = (
                items(&x.to_ascii_lowercase()),
                items(&y.to_ascii_lowercase()),
            );
            xs.sort();
            ys.sort();
            xs == ys
        }
        (Some(x), Some(y)) => num(&x).is_some() && num(&x) == num(&y),
        _ => false,
    }
}

/// The items of a comma-separated value (`sql_mode`, `optimizer_switch`).
fn items(v: &str) -> Vec<String> {
    v.split(',')
        .map(|i| i.trim().to_string())
        .filter(|i| !i.is_empty())
        .collect()
}

/// Two `name=on|off` flag lists (`optimizer_switch`) compared flag by flag.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlagDiff {
    /// Flags both lists have, with another value in each: (flag, old, new).
    pub changed: Vec<(String, String, String)>,
    /// Flags only the newer list has, with their value there: the older
    /// release had no such behaviour, so there is nothing of it to keep.
    pub only_new: Vec<(String, String)>,
    /// Flags only the older list has: the newer release refuses them.
    pub only_old: Vec<(String, String)>,
}

/// `name=value` pairs of a flag list; `None` when an item is not one.
fn flag_pairs(v: &str) -> Option<Vec<(String, String)>> {
    v.split(',')
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .map(|i| {
            i.split_once('=')
                .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_ascii_lowercase()))
        })
        .collect()
}

/// Compare two flag lists flag by flag; `None` when either is not a
/// `name=value` list (then it is a plain value or a set of names).
pub fn flag_diff(old: &str, new: &str) -> Option<FlagDiff> {
    let (before, after) = (flag_pairs(old)?, flag_pairs(new)?);
    if before.is_empty() || after.is_empty() {
        return None;
    }
    let mut d = FlagDiff::default();
    for (k, v) in &after {
        match before.iter().find(|(b, _)| b == k) {
            Some((_, was)) if was != v => d.changed.push((k.clone(), was.clone(), v.clone())),
            Some(_) => {}
            None => d.only_new.push((k.clone(), v.clone())),
        }
    }
    d.only_old = before
        .into_iter()
        .filter(|(k, _)| !after.iter().any(|(a, _)| a == k))
        .collect();
    Some(d)
}

/// Every variable both catalogs have (current or deprecated in `new`)
/// whose default differs, sorted by name.
pub fn default_changes<'c>(old: &Catalog, new: &'c Catalog) -> Vec<DefaultChange<'c>> {
    let mut out = Vec::new();
    for var in new.iter() {
        if !var.status.exists()
            || !var.sysvar
            || var.kind == VarKind::Path
            || NOT_DEFAULTS.contains(&var.name.as_str())
            || var.name.starts_with("have_")
        {
            continue;
        }
        let Some(before) = old.get(&var.name).filter(|v| v.status.exists()) else {
            continue;
        };
        let a = normalized(&before.kind, before.default.as_deref());
        let b = normalized(&var.kind, var.default.as_deref());
        if a.is_none() && b.is_none() {
            if let (Some(x), Some(y)) = (computed_rule(before), computed_rule(var))
                && x != y
            {
                out.push(DefaultChange {
                    var,
                    old: None,
                    new: None,
                    added: Vec::new(),
                    dropped: Vec::new(),
                    builtin_turned_off: false,
                    plugin: var.plugin.clone(),
                    rules: Some((x.to_string(), y.to_string())),
                });
            }
            continue;
        }
        if a == b {
            continue;
        }
        let (mut added, mut dropped) = (Vec::new(), Vec::new());
        if let (Some(x), Some(y)) = (&a, &b)
            && (x.contains(',') || y.contains(','))
        {
            let (xs, ys) = (items(x), items(y));
            added = ys.iter().filter(|i| !xs.contains(i)).cloned().collect();
            dropped = xs.iter().filter(|i| !ys.contains(i)).cloned().collect();
            if added.is_empty() && dropped.is_empty() {
                // The same items in another order.
                continue;
            }
        }
        out.push(DefaultChange {
            var,
            old: before.default.clone().filter(|_| a.is_some()),
            new: var.default.clone().filter(|_| b.is_some()),
            added,
            dropped,
            builtin_turned_off: false,
            plugin: var.plugin.clone().or_else(|| before.plugin.clone()),
            rules: None,
        });
    }
    // An enable option new in `new` for a plugin the catalog notes as built
    // in and off by default: before, the plugin simply ran.
    for var in new.iter() {
        let enable =
            matches!(&var.kind, VarKind::Enum { values } if values.iter().any(|v| v == "FORCE"));
        let builtin_off = var
            .note
            .as_deref()
            .is_some_and(|n| n.contains("built-in, disabled-by-default"));
        if enable
            && builtin_off
            && old.get(&var.name).is_none()
            && var.default.as_deref() == Some("OFF")
        {
            out.push(DefaultChange {
                var,
                old: Some("ON".into()),
                new: Some("OFF".into()),
                added: Vec::new(),
                dropped: Vec::new(),
                builtin_turned_off: true,
                plugin: var.plugin.clone(),
                rules: None,
            });
        }
    }
    out.sort_by(|x, y| x.var.name.cmp(&y.var.name));
    out
}

/// Is `name` one the changes are about (canonical comparison)?
pub fn is_named(change: &DefaultChange, name: &str) -> bool {
    change.var.name == canonical_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::Target;

    fn changes(a: &str, b: &str) -> Vec<(String, Option<String>, Option<String>)> {
        let old = Catalog::for_target(&a.parse::<Target>().unwrap()).unwrap();
        let new = Catalog::for_target(&b.parse::<Target>().unwrap()).unwrap();
        default_changes(old, new)
            .into_iter()
            .map(|c| (c.var.name.clone(), c.old, c.new))
            .collect()
    }

    fn has(
        list: &[(String, Option<String>, Option<String>)],
        name: &str,
        old: Option<&str>,
        new: Option<&str>,
    ) -> bool {
        list.iter()
            .any(|(n, o, w)| n == name && o.as_deref() == old && w.as_deref() == new)
    }

    #[test]
    fn mysql_8_0_to_8_4_from_the_catalogs() {
        let c = changes("mysql-8.0", "mysql-8.4");
        assert!(
            has(&c, "innodb_io_capacity", Some("200"), Some("10000")),
            "{c:?}"
        );
        assert!(has(
            &c,
            "innodb_log_buffer_size",
            Some("16777216"),
            Some("67108864")
        ));
        assert!(has(
            &c,
            "innodb_adaptive_hash_index",
            Some("ON"),
            Some("OFF")
        ));
        assert!(has(
            &c,
            "innodb_change_buffering",
            Some("all"),
            Some("none")
        ));
        assert!(has(&c, "temptable_max_ram", Some("1073741824"), None));
        assert!(!c.iter().any(|(n, ..)| n == "timestamp"));
        // Built in and always on in 8.0, off by default in 8.4.
        assert!(has(&c, "mysql_native_password", Some("ON"), Some("OFF")));
        // Computed in both, by another rule in 8.4.
        let old = Catalog::for_target(&"mysql-8.0".parse::<Target>().unwrap()).unwrap();
        let new = Catalog::for_target(&"mysql-8.4".parse::<Target>().unwrap()).unwrap();
        let instances = default_changes(old, new)
            .into_iter()
            .find(|c| c.var.name == "innodb_buffer_pool_instances")
            .expect("innodb_buffer_pool_instances");
        let (a, b) = instances.rules.unwrap();
        assert!(
            a.starts_with("8, or 1") && b.contains("a quarter of the logical CPUs"),
            "{a} / {b}"
        );
    }

    #[test]
    fn mysql_5_7_to_8_0_from_the_catalogs() {
        let c = changes("mysql-5.7", "mysql-8.0");
        assert!(
            has(&c, "character_set_server", Some("latin1"), Some("utf8mb4")),
            "{c:?}"
        );
        assert!(has(
            &c,
            "max_allowed_packet",
            Some("4194304"),
            Some("67108864")
        ));
        assert!(
            !c.iter().any(|(n, ..)| n == "initialize"
                || n == "pseudo_thread_id"
                || n.starts_with("have_"))
        );
    }

    #[test]
    fn mariadb_10_11_to_11_4_from_the_catalogs() {
        let c = changes("mariadb-10.11", "mariadb-11.4");
        assert!(
            has(&c, "innodb_undo_tablespaces", Some("0"), Some("3")),
            "{c:?}"
        );
    }

    /// The flags MariaDB 10.6.12 has (its catalog, from the server's own
    /// `information_schema.SYSTEM_VARIABLES`) keep their value in 10.11;
    /// the two 10.11 adds are new, not changed.
    #[test]
    fn optimizer_switch_10_6_to_10_11_differs_only_by_new_flags() {
        let old = Catalog::for_target(&"mariadb-10.6".parse::<Target>().unwrap()).unwrap();
        let new = Catalog::for_target(&"mariadb-10.11".parse::<Target>().unwrap()).unwrap();
        let (a, b) = (
            old.get("optimizer_switch")
                .unwrap()
                .default
                .as_deref()
                .unwrap(),
            new.get("optimizer_switch")
                .unwrap()
                .default
                .as_deref()
                .unwrap(),
        );
        let d = flag_diff(a, b).unwrap();
        assert!(d.changed.is_empty() && d.only_old.is_empty(), "{d:?}");
        assert_eq!(
            d.only_new,
            [
                ("hash_join_cardinality".to_string(), "off".to_string()),
                ("cset_narrowing".to_string(), "off".to_string())
            ]
        );
        assert!(flag_diff("ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES", b).is_none());
    }

    #[test]
    fn mariadb_10_6_to_10_11_from_the_catalogs() {
        let c = changes("mariadb-10.6", "mariadb-10.11");
        assert!(
            has(
                &c,
                "explicit_defaults_for_timestamp",
                Some("OFF"),
                Some("ON")
            ),
            "{c:?}"
        );
        assert!(has(&c, "optimizer_prune_level", Some("1"), Some("2")));
        assert!(!c.iter().any(|(n, ..)| n == "wsrep_node_name"));
    }
}
