//! Option names from old manuals that no supported series has, with
//! what replaced them (`data/legacy-options.tsv`).
//!
//! An old option file still carries `log-slow-queries = /var/log/slow.log`.
//! Both MySQL 8.0 and MariaDB 10.11 refuse the name, and the closest name
//! by spelling (`log_slow_query`, a boolean) would read the path as OFF. The
//! finding names the documented successor instead, which here takes two
//! lines; `lint --fix` leaves the line alone, since no server reads it as
//! its successor.

use std::sync::OnceLock;

/// One row: a removed name and what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Legacy {
    pub name: String,
    pub removed_in: String,
    pub instead: String,
    pub source: String,
}

const DATA: &str = include_str!("../../data/legacy-options.tsv");

fn table() -> &'static [Legacy] {
    static TABLE: OnceLock<Vec<Legacy>> = OnceLock::new();
    TABLE.get_or_init(|| parse(DATA).expect("data/legacy-options.tsv is valid"))
}

fn parse(text: &str) -> Result<Vec<Legacy>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let [name, removed_in, instead, source] = line.split('\t').collect::<Vec<_>>()[..] else {
            return Err(format!("line {}: 4 columns expected", i + 1));
        };
        out.push(Legacy {
            name: name.into(),
            removed_in: removed_in.into(),
            instead: instead.into(),
            source: source.into(),
        });
    }
    Ok(out)
}

/// The row for a canonical option name, if it is a legacy one.
pub fn lookup(name: &str) -> Option<&'static Legacy> {
    table().iter().find(|l| l.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_names_a_public_source() {
        assert!(table().len() >= 5);
        assert!(table().iter().all(|l| l.source.starts_with("https://")));
        assert_eq!(
            lookup("log_slow_queries").map(|l| l.instead.as_str()),
            Some("slow_query_log = ON and slow_query_log_file = PATH")
        );
    }
}
