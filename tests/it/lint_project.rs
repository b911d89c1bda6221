//! `mytune lint` on a committed deployment (tests/fixtures/lint/project):
//! mytune.toml found upward (target, host, severity overrides, ignores per
//! code and per path), sysctl/limits/drop-in files as host facts, inline
//! suppressions and unused ones, directory walking and --exclude, exit codes.
//! The fixture rules of tests/fixtures/lint/rules stand in for the OS rules.

use crate::support::run::{mytune, stdout};
use std::process::Output;

const PROJECT: &str = "tests/fixtures/lint/project";
const RULES: &str = "tests/fixtures/lint/rules";

/// (location, code, severity) of every finding of a JSON report.
fn findings(o: &Output) -> Vec<(String, String, String)> {
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON report");
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let loc = &f["location"];
            (
                format!(
                    "{}:{}",
                    loc["file"].as_str().unwrap_or("-"),
                    loc["line"].as_u64().unwrap_or(0)
                ),
                f["code"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn has(f: &[(String, String, String)], loc: &str, code: &str) -> Option<String> {
    f.iter()
        .find(|(l, c, _)| l.ends_with(loc) && c == code)
        .map(|(_, _, s)| s.clone())
}

#[test]
fn project_directory_with_config_and_system_files() {
    let o = mytune(&["lint", "--rules", RULES, "--format", "json", PROJECT]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let f = findings(&o);
    let dump = format!("{f:#?}");
    // [severity] MT004 = "deny": a deprecation becomes crit.
    assert_eq!(
        has(&f, "my.cnf:6", "MT004").as_deref(),
        Some("crit"),
        "{dump}"
    );
    // [severity] MT301 = "info"; the host memory comes from mytune.toml.
    assert_eq!(
        has(&f, "my.cnf:7", "MT301").as_deref(),
        Some("info"),
        "{dump}"
    );
    // ignore = ["MT006"]: the duplicate max_connections is not reported.
    assert!(!f.iter().any(|(_, c, _)| c == "MT006"), "{dump}");
    // Inline suppressions: the line above (MT101) and the same line (MT402).
    assert!(has(&f, "my.cnf:3", "MT101").is_none(), "{dump}");
    assert!(has(&f, "my.cnf:8", "MT402").is_none(), "{dump}");
    // An unused suppression is reported.
    assert_eq!(
        has(&f, "my.cnf:9", "MT009").as_deref(),
        Some("warn"),
        "{dump}"
    );
    // sysctl.d: somaxconn below the configured back_log, located on the sysctl line;
    // the suppressed tcp_tw_recycle is not reported; a broken line is MT010.
    assert!(has(&f, "90-db.conf:1", "MT898").is_some(), "{dump}");
    assert!(!f.iter().any(|(_, c, _)| c == "MT899"), "{dump}");
    assert!(has(&f, "90-db.conf:4", "MT010").is_some(), "{dump}");
    // per-path-ignores "legacy/**" = ["*"]: nothing from legacy/, not even the
    // somaxconn finding its default back_log would raise.
    assert!(!f.iter().any(|(l, _, _)| l.contains("legacy")), "{dump}");
    assert_eq!(
        f.iter().filter(|(_, c, _)| c == "MT898").count(),
        1,
        "{dump}"
    );
    // The drop-in is read as a drop-in (no syntax errors).
    assert!(!f.iter().any(|(l, _, _)| l.contains("service.d")), "{dump}");
}

#[test]
fn target_from_config_and_command_line_override() {
    let o = mytune(&["lint", "--format", "json", PROJECT]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // A bare series (mytune.toml says mysql-8.0) means its newest known release.
    assert_eq!(v["target"], "mysql-8.0.41");
    let o = mytune(&[
        "lint",
        "--target",
        "mariadb-10.11",
        "--format",
        "json",
        PROJECT,
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["target"], "mariadb-10.11.19");
    // expire_logs_days is current in MariaDB: no MT004.
    assert!(!findings(&o).iter().any(|(_, c, _)| c == "MT004"));
}

#[test]
fn explicit_config_allow_and_fail_on() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("strict.toml");
    std::fs::write(
        &cfg,
        "memory = \"4G\"\ncpus = 4\n[severity]\nMT004 = \"allow\"\nMT009 = \"allow\"\nMT010 = \"allow\"\nMT301 = \"allow\"\nMT006 = \"info\"\nMT809 = \"warn\"\n",
    )
    .unwrap();
    let cfg = cfg.to_str().unwrap();
    let o = mytune(&["lint", "--config", cfg, "--format", "json", PROJECT]);
    let f = findings(&o);
    for code in ["MT004", "MT009", "MT010", "MT301"] {
        assert!(!f.iter().any(|(_, c, _)| c == code), "{code}: {f:#?}");
    }
    // No per-path ignores in this config: legacy/ is linted (MT003 crit).
    assert_eq!(
        has(&f, "old.cnf:2", "MT003").as_deref(),
        Some("crit"),
        "{f:#?}"
    );
    // max_connections = 5000 twice: the server does the same either way,
    // so the repeat is not a finding at all.
    assert_eq!(has(&f, "my.cnf:4", "MT006"), None, "{f:#?}");
    assert_eq!(o.status.code(), Some(1));
    // --exclude drops legacy/.
    let o = mytune(&[
        "lint",
        "--config",
        cfg,
        "--exclude",
        "**/legacy/**",
        PROJECT,
    ]);
    assert!(!stdout(&o).contains("legacy"), "{}", stdout(&o));
    assert!(!stdout(&o).contains(" MT003 "), "{}", stdout(&o));
    // --fail-on: a run whose findings are all below the threshold exits 0.
    let o = mytune(&[
        "lint",
        "--config",
        cfg,
        "--fail-on",
        "crit",
        "--format",
        "json",
        "tests/fixtures/lint/project/etc/sysctl.d",
    ]);
    let f = findings(&o);
    assert!(f.iter().all(|(_, _, s)| s != "crit"), "{f:#?}");
    assert_eq!(o.status.code(), Some(0), "{f:#?}");
}

#[test]
fn bad_config_is_exit_2_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mytune.toml"),
        "memory = \"4G\"\nbogus = 1\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("my.cnf"),
        "[mysqld]\nmax_connections = 10\n",
    )
    .unwrap();
    let o = mytune(&["lint", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("mytune.toml: 2:1:") && err.contains("bogus"),
        "{err}"
    );
}

#[test]
fn verbose_says_why_host_rules_do_not_apply() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("my.cnf");
    std::fs::write(&f, "[mysqld]\ninnodb_buffer_pool_size = 128M\n").unwrap();
    let o = mytune(&["lint", "-v", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no mytune.toml"), "{err}");
    assert!(
        err.contains("MT101 not applicable: needs host.budget"),
        "{err}"
    );
    // Quiet without -v.
    assert!(mytune(&["lint", f.to_str().unwrap()]).stderr.is_empty());
}

#[test]
fn missing_path_is_exit_2() {
    let o = mytune(&["lint", "tests/fixtures/lint/nope"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A rule that reads a process limit (MT801 reads `host.server_nofile`,
/// a limit by its row of the fact table) is located on the limits file
/// line that sets it.
#[test]
fn a_limit_rule_is_located_on_the_limits_file_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("limits.d")).unwrap();
    std::fs::write(
        dir.path().join("my.cnf"),
        "[mysqld]\nmax_connections = 5000\ntable_open_cache = 4000\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("limits.d/90-mysql.conf"),
        "mysql soft nofile 1024\nmysql hard nofile 1024\n",
    )
    .unwrap();
    let d = dir.path().to_str().unwrap();
    let o = mytune(&["lint", "--target", "mariadb-10.11", "--format", "json", d]);
    let f = findings(&o);
    assert!(
        f.iter()
            .any(|(l, c, _)| c == "MT801" && l.ends_with("90-mysql.conf:1")),
        "{f:?}"
    );
}
