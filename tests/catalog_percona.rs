//! Real variable lists written out as option files and linted as a user's
//! file would be (`mytune::lint::lint_file`, so prefixes, dashes and plugin
//! names are read as lint reads them): at most 2% of the names may be called
//! unknown (MT002). Percona Server 8.0.27's own lists (help defaults table,
//! MyRocks and audit_log `SHOW VARIABLES` blocks, with the plugins declared
//! by `plugin-load-add` as a real file would), the PXC 8.0 wsrep index, and
//! the MySQL / MariaDB dumps of shared/fixtures/dumps.
//!
//! Also: a bare series means its newest known release everywhere.
//!
//! The shared lists are read from `../shared` (or /work/shared); where they
//! are absent the tests skip with a printed reason.

#[path = "support/shared.rs"]
mod shared_support;
use shared_support::shared_dir;

use std::collections::BTreeMap;
use std::path::Path;

use mytune::catalog::Catalog;
use mytune::lint::lint_file;
use mytune::target::{Target, Version};

fn read(rel: &str) -> Option<String> {
    let path = shared_dir()?.join(rel);
    match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(_) => {
            eprintln!("skipped: {} is absent", path.display());
            None
        }
    }
}

const P80: &str =
    "catalog/percona/percona-server-8.0.27-18__session-replay-tools_percona-server-8.0.27-18__";

/// The "Variables (--variable-name=value)" table of a mysqld --help output.
fn help_defaults(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut on = false;
    for line in text.lines() {
        if line.starts_with("Variables (--variable-name=value)") {
            on = true;
            continue;
        }
        if !on
            || line.starts_with("---")
            || line.trim().is_empty()
            || line.starts_with("and boolean")
        {
            continue;
        }
        if line.starts_with("To see what values") {
            break;
        }
        let mut parts = line.splitn(2, char::is_whitespace);
        let name = parts.next().unwrap_or("").to_string();
        let value = parts.next().map(str::trim).unwrap_or("");
        let value = (!value.is_empty() && value != "(No default value)" && !value.contains("####"))
            .then(|| value.to_string());
        out.push((name, value));
    }
    out
}

/// The `Variable_name<TAB>Value` lines after the first line starting with `start`.
fn show_block(text: &str, start: &str) -> Vec<(String, Option<String>)> {
    let mut lines = text
        .lines()
        .skip_while(|l| !l.to_lowercase().starts_with(start));
    lines.next();
    lines
        .filter(|l| !l.starts_with("Variable_name\t"))
        .map_while(|l| {
            let (k, v) = l.split_once('\t')?;
            k.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
                .then(|| (k.to_string(), Some(v.to_string())))
        })
        .collect()
}

fn mysqltuner(text: &str) -> Vec<(String, Option<String>)> {
    let json: serde_json::Value = serde_json::from_str(text).expect("valid JSON");
    let vars = json["Variables"].as_object().expect("a Variables map");
    vars.iter()
        // A few keys of these files are mangled ("_password_proxy_users").
        .filter(|(k, _)| k.starts_with(|c: char| c.is_ascii_lowercase()))
        .map(|(k, v)| {
            let s = match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.clone(), Some(s))
        })
        .collect()
}

fn tsv(text: &str) -> Vec<(String, Option<String>)> {
    text.lines()
        .filter_map(|l| l.split_once('\t'))
        .filter(|(k, _)| *k != "Variable_name")
        .map(|(k, v)| (k.to_ascii_lowercase(), Some(v.to_string())))
        .collect()
}

/// Write `vars` under [mysqld] (after `preamble` lines), lint the file for
/// `target`, and return the names lint calls unknown plus the name count.
fn unknown_names(
    target: &str,
    preamble: &[&str],
    vars: &[(String, Option<String>)],
) -> (Vec<String>, usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    let mut text = String::from("[mysqld]\n");
    for l in preamble {
        text.push_str(l);
        text.push('\n');
    }
    let mut names: BTreeMap<&str, ()> = BTreeMap::new();
    for (name, value) in vars {
        if names.insert(name.as_str(), ()).is_some() {
            continue;
        }
        match value {
            Some(v) if !v.is_empty() => {
                let v = v.replace('\\', "\\\\").replace('"', "\\\"");
                text.push_str(&format!("{name} = \"{v}\"\n"));
            }
            Some(_) => text.push_str(&format!("{name} = \"\"\n")),
            None => text.push_str(&format!("{name}\n")),
        }
    }
    std::fs::write(&path, &text).unwrap();
    let t: Target = target.parse().unwrap();
    let findings = lint_file(Path::new(&path), &t).expect("lint runs");
    // A system variable the catalog knows but the server has no option for
    // (`foreign_key_checks`) is refused too, for that reason, not unknown.
    let mut unknown: Vec<String> = findings
        .iter()
        .filter(|f| f.code == "MT002" && !f.message.contains("not a server option"))
        .map(|f| f.variable.clone().unwrap_or_else(|| f.message.clone()))
        .collect();
    unknown.sort();
    unknown.dedup();
    (unknown, names.len())
}

fn assert_few_unknown(
    what: &str,
    target: &str,
    preamble: &[&str],
    vars: &[(String, Option<String>)],
) {
    let (unknown, total) = unknown_names(target, preamble, vars);
    let pct = 100.0 * unknown.len() as f64 / total as f64;
    println!(
        "{what} vs {target}: {} of {total} names unknown ({pct:.2}%)",
        unknown.len()
    );
    assert!(total > 30, "{what}: only {total} names read");
    assert!(
        pct <= 2.0,
        "{what} vs {target}: {} of {total} unknown ({pct:.2}%):\n{}",
        unknown.len(),
        unknown.join("\n")
    );
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn percona_8_0_27_variables_are_known_to_percona_8_0() {
    let (Some(help), Some(rocks), Some(audit)) = (
        read(&format!("{P80}mysql-test__r__mysqld--help-notwin.result")),
        read(&format!(
            "{P80}mysql-test__suite__rocksdb__r__rocksdb.result"
        )),
        read(&format!(
            "{P80}plugin__audit_log__tests__mtr__audit_log_new.result"
        )),
    ) else {
        eprintln!("skipped: the Percona Server 8.0.27 lists of shared/catalog/percona are absent");
        return;
    };
    let mut vars = help_defaults(&help);
    let n_help = vars.len();
    let r = show_block(&rocks, "show variables where variable_name like 'rocksdb%'");
    let a = show_block(&audit, "show variables like 'audit_log%'");
    assert!(
        n_help > 400 && r.len() > 150 && a.len() == 18,
        "{n_help} {} {}",
        r.len(),
        a.len()
    );
    vars.extend(r);
    vars.extend(a);
    assert_few_unknown(
        "Percona Server 8.0.27 (help + rocksdb + audit_log)",
        "percona-8.0",
        &[
            "plugin-load-add = ha_rocksdb.so",
            "plugin-load-add = audit_log.so",
        ],
        &vars,
    );
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn percona_5_7_22_variables_are_known_to_percona_5_7() {
    const P57: &str = "catalog/percona/percona-server-5.7.22-22-fork__gaopengcarl_percona-server-locks-detail-5.7.22__mysql-test__";
    let (Some(help), Some(rocks)) = (
        read(&format!("{P57}r__mysqld--help-notwin.result")),
        read(&format!("{P57}suite__rocksdb__r__rocksdb.result")),
    ) else {
        eprintln!("skipped: the Percona Server 5.7.22 lists of shared/catalog/percona are absent");
        return;
    };
    let mut vars = help_defaults(&help);
    let r = show_block(&rocks, "show variables where variable_name like 'rocksdb%'");
    assert!(r.len() > 100, "{}", r.len());
    vars.extend(r);
    assert_few_unknown(
        "Percona Server 5.7.22 (help + rocksdb)",
        "percona-5.7",
        &["plugin-load-add = ha_rocksdb.so"],
        &vars,
    );
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn pxc_8_0_wsrep_index_is_known_to_pxc_8_0() {
    let Some(index) =
        read("catalog/pxc/pxc-8.0-docs__percona_pxc-docs__docs__wsrep-system-index.md")
    else {
        return;
    };
    let vars: Vec<(String, Option<String>)> = index
        .lines()
        .filter_map(|l| l.strip_prefix("### `")?.split('`').next())
        .map(|n| {
            (
                n.trim_end_matches("=name").to_string(),
                Some("1".to_string()),
            )
        })
        .collect();
    assert!(vars.len() > 50, "{}", vars.len());
    assert_few_unknown("PXC 8.0 wsrep index", "pxc-8.0", &[], &vars);
    // Percona Server without Galera does not know them.
    let (unknown, _) = unknown_names("percona-8.0", &[], &vars);
    assert!(
        unknown.iter().any(|n| n.starts_with("wsrep")),
        "{unknown:?}"
    );
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn mysql_and_mariadb_dumps_are_known_to_their_catalogs() {
    let dumps = [
        (
            "mysql-8.0.32__major_MySQLTuner-perl__examples__github__result__mysql__8__result.json",
            "mysql-8.0",
        ),
        (
            "mysql-5.7.41__major_MySQLTuner-perl__examples__github__result__mysql__5.7__result.json",
            "mysql-5.7",
        ),
        (
            "mysql-5.6.51__major_MySQLTuner-perl__examples__github__result__mysql__5.6__result.json",
            "mysql-5.6",
        ),
        (
            "mariadb-10.11.19_show-global-variables.tsv",
            "mariadb-10.11",
        ),
        (
            "mariadb-10.9.5__major_MySQLTuner-perl__examples__github__result__mariadb__10.9__result.json",
            "mariadb-10.9",
        ),
    ];
    for (file, target) in dumps {
        let Some(text) = read(&format!("fixtures/dumps/{file}")) else {
            continue;
        };
        let vars = if file.ends_with(".json") {
            mysqltuner(&text)
        } else {
            tsv(&text)
        };
        assert_few_unknown(file, target, &[], &vars);
    }
}

#[test]
fn a_bare_series_is_its_newest_known_release() {
    let t: Target = "mysql-8.0".parse().unwrap();
    let r = t.resolved();
    assert_eq!(r.version, Version::new(8, 0, 41));
    assert_eq!(r, Catalog::for_target(&t).unwrap().release());
    assert_eq!(
        "percona-8.0"
            .parse::<Target>()
            .unwrap()
            .resolved()
            .to_string(),
        "percona-8.0.36"
    );
    assert_eq!(
        "pxc-8.0".parse::<Target>().unwrap().resolved().to_string(),
        "pxc-8.0.33"
    );
    assert_eq!(
        "mysql-8.0.25"
            .parse::<Target>()
            .unwrap()
            .resolved()
            .to_string(),
        "mysql-8.0.25"
    );

    // Deprecations follow the same release the rules see: innodb_log_file_size
    // is deprecated since 8.0.30, so bare mysql-8.0 (8.0.41) says so and 8.0.25 does not.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    std::fs::write(&path, "[mysqld]\ninnodb_log_file_size = 1G\n").unwrap();
    let deprecated = |target: &str| {
        lint_file(&path, &target.parse().unwrap())
            .unwrap()
            .into_iter()
            .filter(|f| f.variable.as_deref() == Some("innodb_log_file_size"))
            .map(|f| f.message)
            .find(|m| m.contains("deprecated"))
    };
    let m = deprecated("mysql-8.0").expect("deprecated on bare mysql-8.0");
    assert!(m.contains("8.0.30"), "{m}");
    assert!(deprecated("mysql-8.0.41").is_some());
    assert!(deprecated("mysql-8.0.25").is_none());
}
