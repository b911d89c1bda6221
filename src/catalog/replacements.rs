//! Which replacement of a removed or deprecated option has the same meaning,
//! and how its value follows from the old one.
//!
//! The catalogs say what replaces an option (`tx_isolation` →
//! `transaction_isolation`), but not whether writing the new name is a
//! mechanical fix: `log_warnings` → `log_error_verbosity` maps its levels
//! differently, `innodb_locks_unsafe_for_binlog` → `transaction_isolation`
//! changes the isolation level. `data/replacements.tsv` lists the pairs
//! where it is, with the manual page that says so; `lint --fix` offers a
//! fix for exactly those.

use std::sync::OnceLock;

/// How the replacement's value follows from the old line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conversion {
    /// The value as written.
    Same,
    /// The value times this factor (`expire_logs_days` → seconds).
    Scale(u64),
    /// This value, whatever was written (`skip-host-cache` →
    /// `host_cache_size = 0`).
    Value(String),
    /// `innodb_log_file_size × innodb_log_files_in_group`.
    Redo,
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replacement {
    pub old: String,
    pub new: String,
    pub conversion: Conversion,
    /// The manual page that documents the replacement.
    pub source: String,
}

const DATA: &str = include_str!("../../data/replacements.tsv");

fn table() -> &'static [Replacement] {
    static TABLE: OnceLock<Vec<Replacement>> = OnceLock::new();
    TABLE.get_or_init(|| parse(DATA).expect("data/replacements.tsv is valid"))
}

fn parse(text: &str) -> Result<Vec<Replacement>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let [old, new, conversion, source] = cols[..] else {
            return Err(format!("line {}: 4 columns expected", i + 1));
        };
        let conversion = match conversion.split_once(':') {
            None if conversion == "same" => Conversion::Same,
            None if conversion == "redo" => Conversion::Redo,
            Some(("scale", n)) => Conversion::Scale(
                n.parse()
                    .map_err(|e| format!("line {}: scale {n}: {e}", i + 1))?,
            ),
            Some(("value", v)) => Conversion::Value(v.to_string()),
            _ => return Err(format!("line {}: unknown conversion {conversion}", i + 1)),
        };
        out.push(Replacement {
            old: old.to_string(),
            new: new.to_string(),
            conversion,
            source: source.to_string(),
        });
    }
    Ok(out)
}

/// The row for `old` replaced by `new`, if the pair is a mechanical fix.
pub fn lookup(old: &str, new: &str) -> Option<&'static Replacement> {
    table().iter().find(|r| r.old == old && r.new == new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_names_a_source_for_every_row() {
        let t = table();
        assert!(t.len() >= 10);
        assert!(t.iter().all(|r| r.source.starts_with("https://")));
        assert_eq!(
            lookup("expire_logs_days", "binlog_expire_logs_seconds").map(|r| &r.conversion),
            Some(&Conversion::Scale(86400))
        );
        assert!(lookup("log_warnings", "log_error_verbosity").is_none());
    }

    #[test]
    fn every_pair_is_a_replacement_some_catalog_names() {
        use crate::catalog::Catalog;
        for r in table() {
            let named = Catalog::supported().iter().any(|t| {
                Catalog::for_target(t)
                    .ok()
                    .and_then(|c| c.get(&r.old))
                    .is_some_and(|v| v.status.replacement() == Some(r.new.as_str()))
            });
            assert!(
                named,
                "{} → {}: no catalog names this replacement",
                r.old, r.new
            );
        }
    }
}
