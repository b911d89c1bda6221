//! What the server binary itself said when asked (`scripts/probe-mariadbd.py`):
//! no-op options, prefix forms, first-pass options, bounds it clamps to,
//! character sets, locales. Embedded from the probe's table; read once.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use crate::target::{Flavor, Target};

/// What the server binary itself told `scripts/probe-mariadbd.py`.
#[derive(Debug, Default)]
pub(in crate::catalog) struct ServerFacts {
    /// Names accepted as no-ops, with the server's warning.
    pub(in crate::catalog) ignored: HashMap<String, String>,
    /// Options that take `maximum-`.
    pub(in crate::catalog) maximum: HashSet<String>,
    /// Options that take `autoset-` (bare).
    pub(in crate::catalog) autoset: HashSet<String>,
    /// Plugin options that also take a `plugin-` prefix.
    pub(in crate::catalog) plugin_form: HashSet<String>,
    /// Options of the first pass.
    pub(in crate::catalog) early: HashSet<String>,
    /// Numeric options with min ≥ 0 that still take a sign (clamped).
    pub(in crate::catalog) signed: HashSet<String>,
    /// System variables without an option of the same name.
    pub(in crate::catalog) not_option: HashSet<String>,
    /// Deprecated options the server starts with without a warning.
    pub(in crate::catalog) silent_deprecated: HashSet<String>,
    /// Options the server warns are deprecated, beyond the catalog's.
    pub(in crate::catalog) warns_deprecated: HashSet<String>,
    /// Storage engines available without loading a plugin.
    pub(in crate::catalog) engines: HashSet<String>,
    /// A bare name is refused: the option requires a value.
    pub(in crate::catalog) arg_required: HashSet<String>,
    /// The option takes no value at all.
    pub(in crate::catalog) no_arg: HashSet<String>,
    pub(in crate::catalog) charsets: HashSet<String>,
    /// Collation → its character set.
    pub(in crate::catalog) collations: HashMap<String, String>,
    /// Locale names `lc_messages` / `lc_time_names` take (lowercase).
    pub(in crate::catalog) locales: HashSet<String>,
    /// Bounds the server clamps to with a warning, where the catalog has
    /// none.
    pub(in crate::catalog) min: HashMap<String, i128>,
    pub(in crate::catalog) max: HashMap<String, i128>,
    /// 0 is taken without a warning below the catalog's minimum.
    pub(in crate::catalog) zero_silent: HashSet<String>,
    /// Read with a C `int` conversion after the range check: a value above
    /// 2147483647 wraps instead of being clamped (`log_warnings`).
    pub(in crate::catalog) int_read: HashSet<String>,
}

pub(in crate::catalog) const MARIADB_10_11: &str =
    include_str!("../../data/catalog/mariadb-10.11-server.tsv");

/// A server binary that was asked, and the series its answers stand for.
pub(in crate::catalog) struct Probe {
    pub flavor: Flavor,
    /// The table `scripts/probe-mariadbd.py` wrote.
    pub table: &'static str,
    /// The series of the flavor its answers stand for: every series from
    /// this one on (a later series no catalog knows yet included).
    pub stands_in_from: (u32, u32),
    /// The plugin libraries it ships and the options each adds (file name,
    /// table): added to the catalog of every series it stands in for, so
    /// a built-in or loadable plugin's options are known.
    pub plugins: Option<(&'static str, &'static str)>,
}

/// Every probe, and the series each stands in for: one row per server
/// binary asked. A series of a flavor with no row here has no probed
/// facts (MySQL's and Percona's behaviour comes from their manuals and
/// source, in the catalogs).
pub(in crate::catalog) const PROBES: &[Probe] = &[
    // MariaDB 10.11.19, the only MariaDB server here, stands in for every
    // other MariaDB series (as it did before this table). Only 10.11 was
    // asked; names a series removed on its own stay removed in its catalog.
    Probe {
        flavor: Flavor::Mariadb,
        table: MARIADB_10_11,
        stands_in_from: (10, 4),
        // 10.6 and 11.4 ship the same plugins.
        plugins: Some((
            "mariadb-10.11-plugins.tsv",
            include_str!("../../data/catalog/mariadb-10.11-plugins.tsv"),
        )),
    },
];

/// The probe whose answers hold for `t`: its own series, or one it stands
/// in for.
pub(in crate::catalog) fn probe_for(t: Target) -> Option<&'static Probe> {
    let series = (t.version.major, t.version.minor);
    PROBES
        .iter()
        .find(|p| p.flavor == t.flavor && series >= p.stands_in_from)
}

/// The probed facts for a target (see [`PROBES`]): each probe's table is
/// read once, on first use. The tables are embedded and their test proves
/// each reads whole, so a line one cannot read is left out rather than
/// stopping a lint run.
pub(in crate::catalog) fn server_facts(t: Target) -> Option<&'static ServerFacts> {
    static FACTS: OnceLock<Vec<ServerFacts>> = OnceLock::new();
    let probe = probe_for(t)?;
    let index = PROBES.iter().position(|p| std::ptr::eq(p, probe))?;
    FACTS
        .get_or_init(|| PROBES.iter().map(|p| parse_facts(p.table).0).collect())
        .get(index)
}

/// The facts of the probe's table, and every line it could not read (as
/// "line N: why"), so a new kind of fact or a malformed row fails the
/// table's test instead of being skipped in silence.
pub(in crate::catalog) fn parse_facts(text: &str) -> (ServerFacts, Vec<String>) {
    let mut f = ServerFacts::default();
    let mut errors = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut cols = line.splitn(3, '\t');
        let (Some(name), Some(fact)) = (cols.next(), cols.next()) else {
            errors.push(format!("line {}: not NAME<TAB>FACT[<TAB>TEXT]", n + 1));
            continue;
        };
        let msg = cols.next().unwrap_or("").to_string();
        match fact {
            "ignored" => {
                f.ignored.insert(name.to_string(), msg);
            }
            "maximum" => {
                f.maximum.insert(name.to_string());
            }
            "autoset" => {
                f.autoset.insert(name.to_string());
            }
            "plugin-form" => {
                f.plugin_form.insert(name.to_string());
            }
            "early" => {
                f.early.insert(name.to_string());
            }
            "signed" => {
                f.signed.insert(name.to_string());
            }
            "not-option" => {
                f.not_option.insert(name.to_string());
            }
            "silent-deprecated" => {
                f.silent_deprecated.insert(name.to_string());
            }
            "charset" => {
                f.charsets.insert(name.to_string());
            }
            "warns-deprecated" => {
                f.warns_deprecated.insert(name.to_string());
            }
            "engine" => {
                f.engines.insert(name.to_string());
            }
            "arg-required" => {
                f.arg_required.insert(name.to_string());
            }
            "no-arg" => {
                f.no_arg.insert(name.to_string());
            }
            "collation" => {
                f.collations.insert(name.to_string(), msg.clone());
            }
            "locale" => {
                f.locales.insert(name.to_string());
            }
            "int-read" => {
                f.int_read.insert(name.to_string());
            }
            "min" | "max" => match msg.trim().parse::<i128>() {
                Ok(v) => {
                    let map = if fact == "min" {
                        &mut f.min
                    } else {
                        &mut f.max
                    };
                    map.insert(name.to_string(), v);
                }
                Err(_) => errors.push(format!("line {}: {fact} of {name} is not a number", n + 1)),
            },
            "zero-silent" => {
                f.zero_silent.insert(name.to_string());
            }
            other => errors.push(format!("line {}: no fact is called {other:?}", n + 1)),
        }
    }
    (f, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probed_table_reads_whole() {
        let (facts, errors) = parse_facts(MARIADB_10_11);
        assert!(errors.is_empty(), "{}", errors.join("\n"));
        assert!(!facts.ignored.is_empty() && !facts.charsets.is_empty());
    }

    /// Which series the probe stands for is a row of PROBES, not a
    /// comparison of flavors: every supported MariaDB series has it, no
    /// other flavor does.
    #[test]
    fn the_probe_stands_for_the_series_its_row_names() {
        for t in crate::catalog::Catalog::supported() {
            let has = probe_for(t).is_some();
            assert_eq!(has, t.flavor == Flavor::Mariadb, "{t}");
        }
        let later: Target = "mariadb-12.0".parse().unwrap();
        assert!(
            probe_for(later).is_some(),
            "a later series: the row says so"
        );
        let older: Target = "mariadb-10.3".parse().unwrap();
        assert!(probe_for(older).is_none(), "a series before the row's");
    }

    #[test]
    fn an_unknown_fact_is_an_error_with_its_line() {
        let (_, errors) = parse_facts("# probe\nsort_buffer_size\tmaximum\nx\tbogus\n");
        assert_eq!(errors, ["line 3: no fact is called \"bogus\""]);
    }
}
