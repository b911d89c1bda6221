//! The upgrade advisor: `lint --from OLD --target NEW` reports what NEW
//! refuses or deprecates and every variable the file leaves at its default
//! whose default changes (MT023), from the catalogs; `--fix
//! --pin-defaults` writes the old defaults; `check --upgrade-to NEW` does
//! the same for a running server. One test per upgrade path.

#[path = "support/mariadb.rs"]
mod mariadb;

use std::fs;
use std::process::{Command, Output};

fn mytune(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mytune"))
        .args(args)
        .env("MYTUNE_DETECT_SERVER", "0")
        .output()
        .expect("run mytune")
}

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
    // Only the flag 8.4 adds, turned off: the old list whole would keep it on.
    assert!(
        text.contains("\noptimizer_switch = hash_set_operations=off\n"),
        "{text}"
    );
    // A deprecated variable is not pinned (it would draw its own warning).
    assert!(!text.contains("temptable_use_mmap"), "{text}");
    // group_replication_consistency is a server option in MySQL 8.0.41's
    // own --help: pinned like any other.
    assert!(
        text.contains("\ngroup_replication_consistency = EVENTUAL\n"),
        "{text}"
    );
    let found = upgrade("mysql-8.0", "mysql-8.4", &text);
    for var in [
        "innodb_io_capacity",
        "innodb_log_buffer_size",
        "optimizer_switch",
    ] {
        assert!(message(&found, "MT023", var).is_none(), "{var}: {found:?}");
    }
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
