//! Real `SHOW GLOBAL VARIABLES` captures (shared/fixtures/dumps) against the
//! catalogs: every variable a real server of the series reports is known and
//! not removed, and the value it reports passes `validate()` (what a server
//! runs with must be something it accepts).

#[path = "support/shared.rs"]
mod shared_support;
use shared_support::shared_path;

use std::collections::BTreeMap;

use mytune::catalog::{Catalog, VarKind};

/// The "Variables" map of a mysqltuner result.json, real names only (a few
/// keys in these files are mangled, e.g. "_password_proxy_users").
fn mysqltuner_vars(file: &str) -> Option<BTreeMap<String, String>> {
    let path = shared_path("fixtures/dumps")?.join(file);
    let text = std::fs::read_to_string(&path).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let vars = json.get("Variables")?.as_object()?;
    Some(
        vars.iter()
            .filter(|(k, _)| {
                k.starts_with(|c: char| c.is_ascii_lowercase())
                    && k.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            })
            .map(|(k, v)| {
                let s = match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (k.clone(), s)
            })
            .collect(),
    )
}

fn tsv_vars(file: &str) -> Option<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(shared_path("fixtures/dumps")?.join(file)).ok()?;
    Some(
        text.lines()
            .filter_map(|l| l.split_once('\t'))
            .filter(|(k, _)| *k != "Variable_name")
            .map(|(k, v)| (k.to_ascii_lowercase(), v.to_string()))
            .collect(),
    )
}

/// Check a capture against a catalog; `known_gaps` are names whose status or
/// value may disagree, each explained where it is passed.
fn check(target: &str, vars: &BTreeMap<String, String>, known_gaps: &[&str]) {
    let cat = Catalog::for_target(&target.parse().unwrap()).unwrap();
    assert_eq!(cat.target().to_string(), target);
    let mut bad = Vec::new();
    for (name, value) in vars {
        let Some(v) = cat.get(name) else {
            bad.push(format!("{name}: unknown"));
            continue;
        };
        if v.status.is_removed() && !known_gaps.contains(&name.as_str()) {
            bad.push(format!("{name}: catalog says {}", v.status));
        }
        // Values as SHOW VARIABLES prints them: booleans as ON/OFF, sizes in
        // bytes. Strings and paths accept anything; empty means unset.
        if value.is_empty()
            || matches!(v.kind, VarKind::String | VarKind::Path)
            || known_gaps.contains(&name.as_str())
        {
            continue;
        }
        if let Err(e) = v.validate(value) {
            bad.push(format!("{name} = {value:?}: {e}"));
        }
    }
    assert!(
        vars.len() > 400,
        "{target}: only {} variables in the capture",
        vars.len()
    );
    assert!(
        bad.is_empty(),
        "{target}: {} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn mysql_8_0_32_capture() {
    let Some(vars) = mysqltuner_vars(
        "mysql-8.0.32__major_MySQLTuner-perl__examples__github__result__mysql__8__result.json",
    ) else {
        eprintln!("skipped: shared/fixtures/dumps (mysql 8.0.32) is absent");
        return;
    };
    // innodb_support_xa: removed in 8.0.0 per the manual; mysqltuner adds it.
    check("mysql-8.0", &vars, &["innodb_support_xa"]);
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn mysql_5_7_41_capture() {
    let Some(vars) = mysqltuner_vars(
        "mysql-5.7.41__major_MySQLTuner-perl__examples__github__result__mysql__5.7__result.json",
    ) else {
        eprintln!("skipped: shared/fixtures/dumps (mysql 5.7.41) is absent");
        return;
    };
    check("mysql-5.7", &vars, &[]);
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn mariadb_10_11_19_capture() {
    let Some(vars) = tsv_vars("mariadb-10.11.19_show-global-variables.tsv") else {
        eprintln!("skipped: shared/fixtures/dumps (mariadb 10.11.19) is absent");
        return;
    };
    // innodb_lru_flush_size: deprecated and ignored in 10.11; the server
    // reports 0, below the minimum of 1 it enforces on input.
    check("mariadb-10.11", &vars, &["innodb_lru_flush_size"]);
}
