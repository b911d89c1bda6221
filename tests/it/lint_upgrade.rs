//! The upgrade advisor: `lint --from OLD --target NEW` reports what NEW
//! refuses or deprecates and every variable the file leaves at its default
//! whose default changes (MT023), from the catalogs; `--fix
//! --pin-defaults` writes the old defaults; `check --upgrade-to NEW` does
//! the same for a running server. One test per upgrade path.

use crate::support::mariadb;

use crate::support::run::mytune;
use std::fs;

/// (code, variable, message) of lint --from FROM --target TO on `text`.
fn upgrade(from: &str, to: &str, text: &str) -> Vec<(String, String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    fs::write(&path, text).unwrap();
    let out = mytune(&[
        "lint",
        "--from",
        from,
        "--target",
        to,
        "--format",
        "json",
        path.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["variable"].as_str().unwrap_or("").to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn message<'a>(found: &'a [(String, String, String)], code: &str, var: &str) -> Option<&'a str> {
    found
        .iter()
        .find(|(c, v, _)| c == code && v == var)
        .map(|(_, _, m)| m.as_str())
}

#[test]
fn mysql_5_7_to_8_0_reports_removed_options_and_changed_defaults() {
    let found = upgrade(
        "mysql-5.7",
        "mysql-8.0",
        "[mysqld]\nquery_cache_size = 0\nmax_allowed_packet = 16M\n",
    );
    assert!(
        message(&found, "MT003", "query_cache_size").is_some(),
        "{found:?}"
    );
    let m = message(&found, "MT023", "character_set_server").expect("latin1 → utf8mb4");
    assert!(
        m.contains("from latin1 on MySQL 5.7.41 to utf8mb4 on MySQL 8.0.41"),
        "{m}"
    );
    // Set in the file: not a default that changes under it.
    assert!(message(&found, "MT023", "max_allowed_packet").is_none());
}

#[test]
fn mysql_8_0_to_8_4_lists_the_new_defaults() {
    let found = upgrade(
        "mysql-8.0",
        "mysql-8.4",
        "[mysqld]\ninnodb_buffer_pool_size = 4G\n",
    );
    for (var, change) in [
        (
            "innodb_io_capacity",
            "from 200 on MySQL 8.0.41 to 10000 on MySQL 8.4.0",
        ),
        ("innodb_log_buffer_size", "from 16M on MySQL 8.0.41 to 64M"),
        (
            "innodb_adaptive_hash_index",
            "from ON on MySQL 8.0.41 to OFF",
        ),
        (
            "innodb_change_buffering",
            "from all on MySQL 8.0.41 to none",
        ),
        (
            "temptable_max_ram",
            "from 1G on MySQL 8.0.41 to a value the server computes at start",
        ),
    ] {
        let m = message(&found, "MT023", var).unwrap_or_else(|| panic!("{var}: {found:?}"));
        assert!(m.contains(change), "{m}");
    }
    let instances = message(&found, "MT023", "innodb_buffer_pool_instances").unwrap();
    assert!(
        instances.contains("computes its default differently"),
        "{instances}"
    );
    let native = message(&found, "MT023", "mysql_native_password").unwrap();
    assert!(native.contains("off by default in MySQL 8.4.0"), "{native}");
}

#[test]
fn mariadb_10_6_to_10_11_and_10_11_to_11_4() {
    let found = upgrade("mariadb-10.6", "mariadb-10.11", "[mariadb]\n");
    let m = message(&found, "MT023", "explicit_defaults_for_timestamp").expect("OFF → ON");
    assert!(m.contains("from OFF on MariaDB 10.6"), "{m}");
    let found = upgrade(
        "mariadb-10.11",
        "mariadb-11.4",
        "[mariadb]\ninnodb_change_buffering = all\n",
    );
    assert!(
        message(&found, "MT023", "innodb_undo_tablespaces").is_some(),
        "{found:?}"
    );
    // Removed in 11.0: the server refuses it.
    assert!(
        message(&found, "MT003", "innodb_change_buffering").is_some(),
        "{found:?}"
    );
}

#[test]
fn pin_defaults_writes_the_old_defaults_and_the_upgrade_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    fs::write(&path, "[mysqld]\n# tuned\ninnodb_buffer_pool_size = 4G\n").unwrap();
    let p = path.to_str().unwrap();
    let out = mytune(&[
        "lint",
        "--from",
        "mysql-8.0",
        "--target",
        "mysql-8.4",
        "--fix",
        "--pin-defaults",
        p,
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("pinned the old defaults in 1 file(s)"));
    let text = fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("[mysqld]\n# tuned\ninnodb_buffer_pool_size = 4G\n"),
        "{text}"
    );
    assert!(text.contains("\ninnodb_io_capacity = 200\n"), "{text}");
    assert!(text.contains("\ninnodb_log_buffer_size = 16M\n"), "{text}");
    // The only flag difference is one 8.0 lacks (hash_set_operations): no
    // value is invented for it, so optimizer_switch is not written.
    assert!(!text.contains("optimizer_switch"), "{text}");
    // A deprecated variable is not pinned (it would draw its own warning).
    assert!(!text.contains("temptable_use_mmap"), "{text}");
    // group_replication_consistency is a server option in MySQL 8.0.41's
    // own --help: pinned like any other.
    assert!(
        text.contains("\ngroup_replication_consistency = EVENTUAL\n"),
        "{text}"
    );
    let found = upgrade("mysql-8.0", "mysql-8.4", &text);
    for var in ["innodb_io_capacity", "innodb_log_buffer_size"] {
        assert!(message(&found, "MT023", var).is_none(), "{var}: {found:?}");
    }
    let m = message(&found, "MT023", "optimizer_switch").unwrap();
    assert!(
        m.contains("adds hash_set_operations=on")
            && m.contains("stay at its default")
            && !m.contains("write "),
        "{m}"
    );
    // A pin a rule would contradict is not written, and the report says
    // why: with fsync written, MT121 recommends O_DIRECT (one plan).
    assert!(!text.contains("innodb_flush_method"), "{text}");
    let before = upgrade(
        "mysql-8.0",
        "mysql-8.4",
        "[mysqld]\ninnodb_buffer_pool_size = 4G\n",
    );
    let m = message(&before, "MT023", "innodb_flush_method").unwrap();
    assert!(m.contains("not pinned") && m.contains("MT121"), "{m}");
    // No rule finding about a variable the pins set.
    for (code, var, _) in &found {
        assert!(
            code.as_str() < "MT100" || !text.contains(&format!("\n{var} = ")),
            "{code} on the pinned {var}"
        );
    }
    // The pins themselves draw no option-file finding.
    assert!(
        !found
            .iter()
            .any(|(c, ..)| c.as_str() < "MT023" && c.as_str() >= "MT001"),
        "{found:?}"
    );
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn check_upgrade_to_reports_the_defaults_a_running_server_would_change() {
    let Some(server) = mariadb::TestServer::start("") else {
        return;
    };
    let mut args: Vec<String> = vec!["check".into()];
    args.extend(server.mytune_args());
    args.extend(
        [
            "--upgrade-to",
            "mariadb-11.4",
            "--format",
            "json",
            "--only",
            "MT023",
        ]
        .map(String::from),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = mytune(&args);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let undo = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["variable"] == "innodb_undo_tablespaces")
        .expect("a fresh 10.11 runs with 0 undo tablespaces; 11.4's default is 3");
    let m = undo["message"].as_str().unwrap();
    assert!(
        m.contains("default 0, which becomes 3 on MariaDB 11.4"),
        "{m}"
    );
    assert_eq!(undo["current"], "0");
}

/// `lint --fix --pin-defaults` on FILE_TEXT from FROM to TO: the pinned
/// file, and lint's findings on it (code, variable, message).
fn pinned(from: &str, to: &str, text: &str) -> (String, Vec<(String, String, String)>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    fs::write(&path, text).unwrap();
    let out = mytune(&[
        "lint",
        "--from",
        from,
        "--target",
        to,
        "--fix",
        "--pin-defaults",
        path.to_str().unwrap(),
    ]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("pinned the old defaults in 1 file(s)"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = fs::read_to_string(&path).unwrap();
    let found = upgrade(from, to, &text);
    (text, found)
}

/// Issue 50 (3): 10.6 has neither hash_join_cardinality nor cset_narrowing
/// (its catalog is MariaDB 10.6.12's own SYSTEM_VARIABLES), so nothing of
/// them is pinned "as 10.6's default", and no flag 10.6 had differs.
#[test]
fn pin_defaults_10_6_to_10_11_invents_no_optimizer_flag() {
    let (text, found) = pinned(
        "mariadb-10.6",
        "mariadb-10.11",
        "[mysqld]\nmax_connections = 100\n",
    );
    assert!(!text.contains("optimizer_switch"), "{text}");
    assert!(
        !text.contains("hash_join_cardinality") && !text.contains("cset_narrowing"),
        "{text}"
    );
    // What is pinned the 10.11 server takes as written (no clamped 8K
    // innodb_log_write_ahead_size, no TLSv1.1 it warns about).
    assert!(text.contains("\noptimizer_prune_level = 1\n"), "{text}");
    assert!(
        !text.contains("innodb_log_write_ahead_size") && !text.contains("tls_version"),
        "{text}"
    );
    assert!(
        !found
            .iter()
            .any(|(c, ..)| c.as_str() >= "MT001" && c.as_str() < "MT023"),
        "{found:?}"
    );
    let m = message(&found, "MT023", "optimizer_switch").unwrap();
    assert!(
        m.contains("MariaDB 10.6.12 had no such behaviour to keep"),
        "{m}"
    );
    let m = message(&found, "MT023", "innodb_log_write_ahead_size").unwrap();
    assert!(m.contains("not pinned") && m.contains("maximum 4K"), "{m}");
}

/// Issue 50 (3): MySQL 5.7 has none of the flags 8.0 adds to
/// optimizer_switch, so none is pinned (hypergraph_optimizer=on,
/// subquery_to_derived=on and use_invisible_indexes=on were); and 5.7's
/// sql_mode, whose NO_AUTO_CREATE_USER 8.0 refuses at start, is not
/// pinned either.
#[test]
fn pin_defaults_5_7_to_8_0_invents_no_optimizer_flag() {
    let (text, found) = pinned(
        "mysql-5.7",
        "mysql-8.0",
        "[mysqld]\nmax_connections = 100\n",
    );
    for flag in [
        "optimizer_switch",
        "hypergraph_optimizer",
        "subquery_to_derived",
        "use_invisible_indexes",
        "NO_AUTO_CREATE_USER",
    ] {
        assert!(!text.contains(flag), "{flag}: {text}");
    }
    assert!(text.contains("\ncharacter_set_server = latin1\n"), "{text}");
    assert!(
        !found
            .iter()
            .any(|(c, ..)| c.as_str() >= "MT001" && c.as_str() < "MT023"),
        "the pins draw no option-file finding: {found:?}"
    );
    let m = message(&found, "MT023", "sql_mode").unwrap();
    assert!(m.contains("does not accept NO_AUTO_CREATE_USER"), "{m}");
}

/// Issue 50 (3), on a real server: MariaDB 10.11 started on the file
/// `--pin-defaults` wrote for 10.6 runs every optimizer flag 10.6 had with
/// 10.6's default (from the 10.6 catalog) and every flag 10.6 lacked with
/// 10.11's default; every other pinned variable runs with 10.6's default.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn pinned_10_6_file_starts_10_11_with_10_6_behaviour() {
    use mytune::catalog::{Catalog, upgrade::same_value};
    let (text, _) = pinned(
        "mariadb-10.6",
        "mariadb-10.11",
        "[mysqld]\nmax_connections = 100\n",
    );
    let Some(server) = mariadb::TestServer::start(&text) else {
        return;
    };
    let old = Catalog::for_target(&"mariadb-10.6".parse().unwrap()).unwrap();
    let new = Catalog::for_target(&"mariadb-10.11".parse().unwrap()).unwrap();
    let flags = |v: &str| -> Vec<(String, String)> {
        v.trim()
            .split(',')
            .filter_map(|i| i.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let default_of = |c: &Catalog| {
        flags(
            c.get("optimizer_switch")
                .unwrap()
                .default
                .as_deref()
                .unwrap(),
        )
    };
    let (was, now) = (default_of(old), default_of(new));
    let running = flags(&server.sql("SELECT @@global.optimizer_switch").unwrap());
    assert!(!running.is_empty());
    for (flag, value) in &running {
        let expected = was
            .iter()
            .chain(now.iter())
            .find(|(k, _)| k == flag)
            .unwrap_or_else(|| panic!("{flag} is in neither catalog"));
        assert_eq!(
            value,
            &expected.1,
            "{flag}: 10.6 had it as {:?}",
            was.iter().find(|(k, _)| k == flag)
        );
    }
    for (flag, _) in &was {
        assert!(running.iter().any(|(k, _)| k == flag), "10.11 lacks {flag}");
    }
    // Every pinned variable runs with 10.6's default.
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains(" = "))
    {
        let (name, _) = line.split_once(" = ").unwrap();
        if name == "max_connections" {
            continue;
        }
        let var = old.get(name).unwrap();
        let running = server.sql(&format!("SELECT @@global.{name}")).unwrap();
        assert!(
            same_value(&var.kind, running.trim(), var.default.as_deref().unwrap()),
            "{name} runs with {running:?}, 10.6's default is {:?}",
            var.default
        );
        checked += 1;
    }
    assert!(checked >= 4, "{text}");
}
