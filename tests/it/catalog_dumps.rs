//! Real `SHOW GLOBAL VARIABLES` captures (shared/fixtures/dumps) against the
//! catalogs: every variable a real server of the series reports is known and
//! not removed, and the value it reports passes `validate()` (what a server
//! runs with must be something it accepts).
//!
//! And every real variable list of shared/catalog/ (help outputs, variable
//! tables, test-suite results of MySQL 5.7 to 9.x, MariaDB 10.2 to 12.x,
//! PXC 5.6), written as an option file and linted for its own release, has
//! no unknown name (issue 52): a name of an older or newer series is an
//! entry of the nearest catalog (removed since, or introduced in, a
//! release), an option of debug builds says so.

use crate::support::shared as shared_support;
use shared_support::shared_path;

use std::collections::BTreeMap;

use std::path::Path;

use mytune::catalog::{Catalog, VarKind};
use mytune::target::Target;

/// Keys mysqltuner adds to its "Variables" map itself: one `have_<engine>`
/// per engine SHOW ENGINES lists (mysqltuner.pl, `$myvar{"have_$engine"}`,
/// with `_engine` after federated and blackhole) and its Galera and thread
/// pool probes. No server has variables of those names.
const MYSQLTUNER_MADE: &[&str] = &[
    "have_archive",
    "have_blackhole_engine",
    "have_csv",
    "have_federated_engine",
    "have_innodb",
    "have_memory",
    "have_mrg_myisam",
    "have_myisam",
    "have_ndbcluster",
    "have_ndbinfo",
    "have_performance_schema",
    "have_aria",
    "have_sequence",
    "have_galera",
    "have_threadpool",
];

/// The "Variables" map of a mysqltuner result.json, real names only (a few
/// keys in these files are mangled, e.g. "_password_proxy_users", and
/// [`MYSQLTUNER_MADE`] are mysqltuner's own).
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
                    && !MYSQLTUNER_MADE.contains(&k.as_str())
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

/// Names of a `mysqld --verbose --help` output: its "Variables
/// (--variable-name=value)" table.
fn help_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut on = false;
    for line in text.lines() {
        if line.starts_with("Variables (--variable-name=value)") {
            on = true;
            continue;
        }
        // "To see what values a running MySQL server is using" (MariaDB:
        // "what variables").
        if line.starts_with("To see what") {
            break;
        }
        if !on || line.starts_with("---") || line.starts_with("and boolean") {
            continue;
        }
        if let Some(name) = line.split_whitespace().next() {
            out.push(name.to_string());
        }
    }
    out
}

/// `VARIABLE_NAME<TAB>name` lines of a mysql-test sysvars_*.result.
fn result_names(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("VARIABLE_NAME\t"))
        .map(str::to_string)
        .collect()
}

/// The first column of a tab-separated table with a header line.
fn tsv_names(text: &str) -> Vec<String> {
    text.lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next())
        .map(str::to_string)
        .collect()
}

/// information_schema.SYSTEM_VARIABLES as mysqltuner writes it: quoted
/// records joined without a newline; a record starts where a quote is
/// followed by `"NAME","`.
fn csv_names(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for (i, _) in text.match_indices('"') {
        if i > 0 && b[i - 1] != b'"' {
            continue;
        }
        let rest = &text[i + 1..];
        let end = rest
            .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(0);
        if end > 0 && rest.as_bytes()[0].is_ascii_uppercase() && rest[end..].starts_with("\",\"") {
            out.push(rest[..end].to_ascii_lowercase());
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The names lint calls unknown in an option file setting each of `names`.
fn unknown_names(target: &str, names: &[String]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    let mut text = String::from("[mysqld]\n");
    let mut seen = std::collections::BTreeSet::new();
    for n in names {
        let n = n.to_ascii_lowercase().replace('-', "_");
        if seen.insert(n.clone()) {
            text.push_str(&format!("{n} = 1\n"));
        }
    }
    std::fs::write(&path, &text).unwrap();
    let t: Target = target.parse().unwrap();
    let mut out: Vec<String> = mytune::lint::lint_file(Path::new(&path), &t)
        .unwrap()
        .into_iter()
        .filter(|f| f.code == "MT002" && f.message.starts_with("unknown option"))
        .map(|f| f.variable.unwrap_or(f.message))
        .collect();
    out.sort();
    out
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn every_real_variable_list_lints_with_no_unknown_name() {
    // (file under shared/catalog, its form, the release it is of)
    let lists: &[(&str, &str, &str)] = &[
        (
            "help/mysql-5.7.18_mysqld--help-notwin.result",
            "help",
            "mysql-5.7.18",
        ),
        (
            "help/mysql-8.0.41_mysqld--help-notwin.result",
            "help",
            "mysql-8.0.41",
        ),
        (
            "help/mysql-8.4.x-planetscale-fork__planetscale_mysql-server__mysqld--help-notwin.result",
            "help",
            "mysql-8.4",
        ),
        (
            "help/mysql-9.x__AKJUS_mysql-server__mysqld--help-notwin.result",
            "help",
            "mysql-9.1",
        ),
        (
            "help/mariadb-10.4.12-fork_mysqld--help.result",
            "help",
            "mariadb-10.4.12",
        ),
        (
            "help/mariadb-10.11.19_mariadbd--verbose--help.txt",
            "help",
            "mariadb-10.11.19",
        ),
        (
            "help/mariadb-12.x-dev__MariaDB_server__mysqld--help.result",
            "help",
            "mariadb-12.0",
        ),
        (
            "pxc/pxc-5.6.22-25.8__maginatics_pxc-from-apt-source__mysql-test__r__mysqld--help-notwin.result",
            "help",
            "pxc-5.6.22",
        ),
        (
            "sysvars/mariadb-10.11.19_information_schema.SYSTEM_VARIABLES.tsv",
            "tsv",
            "mariadb-10.11.19",
        ),
        (
            "sysvars/mariadb-10.4.12-fork_sysvars_server_notembedded.result",
            "result",
            "mariadb-10.4.12",
        ),
        (
            "sysvars/mariadb-10.4.12-fork_sysvars_aria.result",
            "result",
            "mariadb-10.4.12",
        ),
        (
            "sysvars/mariadb-10.4.12-fork_sysvars_wsrep.result",
            "result",
            "mariadb-10.4.12",
        ),
        (
            "sysvars/mariadb-10.4.12-fork_sysvars_innodb.result",
            "result",
            "mariadb-10.4.12",
        ),
        (
            "sysvars/mariadb-11.0-or-11.1__MariaDB_server__sysvars_server_notembedded.result",
            "result",
            "mariadb-11.1",
        ),
        (
            "sysvars/mariadb-12.x-13.0dev__grooverdan_mariadb-server__sysvars_innodb.result",
            "result",
            "mariadb-12.0",
        ),
    ];
    let mut all: Vec<(String, &str, String)> = lists
        .iter()
        .map(|(f, k, t)| (f.to_string(), *k, t.to_string()))
        .collect();
    for v in [
        "10.2.44", "10.3.38", "10.4.28", "10.5.19", "10.6.12", "10.7.8", "10.8.7", "10.9.5",
    ] {
        all.push((
            format!(
                "sysvars/mysqltuner-examples_mariadb-{v}_information_schema.SYSTEM_VARIABLES.csv"
            ),
            "csv",
            format!("mariadb-{v}"),
        ));
    }
    let mut bad = Vec::new();
    let mut read = 0;
    for (file, kind, target) in &all {
        let Some(path) = shared_path(&format!("catalog/{file}")) else {
            eprintln!("skipped: shared/catalog/{file} is absent");
            continue;
        };
        let text = std::fs::read_to_string(path).unwrap();
        let names = match *kind {
            "help" => help_names(&text),
            "result" => result_names(&text),
            "tsv" => tsv_names(&text),
            _ => csv_names(&text),
        };
        assert!(names.len() > 15, "{file}: {} names read", names.len());
        read += 1;
        let unknown = unknown_names(target, &names);
        println!(
            "{file} as {target}: {} names, {} unknown",
            names.len(),
            unknown.len()
        );
        if !unknown.is_empty() {
            bad.push(format!("{file} ({target}): {}", unknown.join(" ")));
        }
    }
    assert!(read > 0 || cfg!(mytune_no_shared));
    assert!(bad.is_empty(), "unknown names:\n{}", bad.join("\n"));
}

/// Every variable dump of shared/fixtures/dumps (mysqltuner results,
/// `SHOW GLOBAL VARIABLES` tables, pt-mysql-summary samples of MySQL,
/// Percona Server, PXC and MariaDB 5.5 to 10.11), written as an option file
/// and linted for the release in its name, has no unknown name: an older
/// release's name is an entry of the nearest catalog (issue 52).
#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn every_fixture_dump_lints_with_no_unknown_name() {
    let Some(dir) = shared_path("fixtures/dumps") else {
        eprintln!("skipped: shared/fixtures/dumps is absent");
        return;
    };
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|f| f.contains("variables") || f.ends_with("result.json"))
        .collect();
    files.sort();
    let mut bad = Vec::new();
    for file in &files {
        // `flavor-version__…` or `flavor-version_…`.
        let release = file.split('_').next().unwrap();
        let vars = if file.ends_with(".json") {
            mysqltuner_vars(file)
        } else {
            tsv_vars(file)
        }
        .unwrap();
        assert!(vars.len() > 100, "{file}: {} names read", vars.len());
        let names: Vec<String> = vars.into_keys().collect();
        let unknown = unknown_names(release, &names);
        println!(
            "{file} as {release}: {} names, {} unknown",
            names.len(),
            unknown.len()
        );
        if !unknown.is_empty() {
            bad.push(format!("{file} ({release}): {}", unknown.join(" ")));
        }
    }
    assert!(
        files.len() >= 10,
        "only {} dumps in shared/fixtures/dumps",
        files.len()
    );
    assert!(bad.is_empty(), "unknown names:\n{}", bad.join("\n"));
}
