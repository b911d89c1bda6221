//! `mytune check --snapshot`: the reports on saved facts, no server needed.
//! Every JSON output (and lint's) is validated against
//! `docs/report-schema.json`; text, markdown and colours are asserted on
//! content; drift is checked against an option file written here.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::support::report_schema;
use crate::support::run::stdout;
use report_schema::validate;

fn snapshot(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/snapshots")
        .join(name)
        .display()
        .to_string()
}

const MYSQL80: &str = "mysql80-overcommitted-8g-4cpu.json";

fn mytune(args: &[&str]) -> Output {
    crate::support::run::mytune_command()
        .args(args)
        .env("COLUMNS", "400")
        .output()
        .expect("mytune runs")
}

fn json(args: &[&str]) -> Value {
    let o = mytune(args);
    let v: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&o.stderr)));
    validate(&v);
    v
}

fn codes(v: &Value) -> Vec<&str> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect()
}

#[test]
fn mysql_80_snapshot_json_follows_the_schema_and_uses_set_persist() {
    let snap = snapshot(MYSQL80);
    let v = json(&["check", "--snapshot", &snap, "--format", "json", "-v"]);
    assert_eq!(v["schema_version"], 2);
    assert_eq!(v["target"], "mysql-8.0.32");
    assert_eq!(v["inputs"][0], format!("snapshot {snap}"));
    assert_eq!(v["server"]["counters"]["representative"], false);
    assert_eq!(v["server"]["counters"]["interval_secs"], 10.0);
    assert_eq!(v["host"]["memory"]["value"], 8u64 << 30);
    assert_eq!(v["host"]["memory"]["source"], "--memory");
    assert_eq!(v["option_group"], "mysqld");
    // Most severe first, then by family and code.
    let rank = |s: &str| {
        ["crit", "warn", "info"]
            .iter()
            .position(|x| *x == s)
            .unwrap()
    };
    let keys: Vec<(usize, String, String)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                rank(f["severity"].as_str().unwrap()),
                f["family"].as_str().unwrap().to_string(),
                f["code"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    for code in ["MT102", "MT301", "MT403"] {
        assert!(codes(&v).contains(&code), "{code} in {:?}", codes(&v));
    }
    let n = |sev: &str| keys.iter().filter(|k| k.0 == rank(sev)).count();
    assert_eq!(
        v["summary"],
        serde_json::json!({"crit": n("crit"), "warn": n("warn"), "info": n("info")})
    );
    let changes = v["suggested_changes"].as_array().unwrap();
    let change = |var: &str| {
        changes
            .iter()
            .find(|c| c["variable"] == var)
            .unwrap_or_else(|| panic!("a change for {var}: {changes:#?}"))
    };
    let pool = change("innodb_buffer_pool_size");
    assert_eq!(pool["code"], "MT102");
    assert_eq!(pool["current"], "7G");
    assert_eq!(pool["value"], "5G");
    assert_eq!(
        pool["apply"],
        serde_json::json!({"mode": "online", "statement": "SET PERSIST innodb_buffer_pool_size = 5368709120;", "persisted": true, "undo": "SET GLOBAL innodb_buffer_pool_size = 7516192768;"})
    );
    // The same in the three parts a DBA pastes.
    let paste = &v["paste"];
    assert!(
        paste["apply_now"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!(
                "SET PERSIST innodb_buffer_pool_size = 5368709120;"
            ))
    );
    assert!(
        paste["undo"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("RESET PERSIST innodb_buffer_pool_size;"))
    );
    assert!(paste["option_file"].as_array().unwrap().iter().any(|l| {
        l["variable"] == "innodb_buffer_pool_size"
            && l["value"] == "5G"
            && l["restart_only"] == false
    }));
    // One change per variable.
    let mut vars: Vec<&str> = changes
        .iter()
        .map(|c| c["variable"].as_str().unwrap())
        .collect();
    let total = vars.len();
    vars.sort();
    vars.dedup();
    assert_eq!(vars.len(), total);
    // A read-only variable needs a restart.
    if let Some(c) = changes
        .iter()
        .find(|c| c["variable"] == "innodb_buffer_pool_instances")
    {
        assert_eq!(c["apply"], serde_json::json!({"mode": "restart"}));
    }
    assert!(v["not_applicable"].is_array());
}

#[test]
fn text_report_has_header_tables_block_and_summary() {
    let snap = snapshot(MYSQL80);
    let o = mytune(&["check", "--snapshot", &snap, "--color", "never"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "warnings reach the default --fail-on warn"
    );
    let out = stdout(&o);
    assert!(
        out.starts_with(&format!(
            "mytune check: MySQL 8.0.32 (8.0.32) from snapshot {snap}\n"
        )),
        "{out}"
    );
    assert!(
        out.contains("\n  memory  8G (--memory)\n  cpus    4 (--cpus)\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "  uptime  2h 0m, less than a day: status counters may not show the real workload"
        ),
        "{out}"
    );
    assert!(out.contains("\nWARN ("), "{out}");
    assert!(out.contains("\nINFO ("), "{out}");
    assert!(out.find("\nWARN (") < out.find("\nINFO ("), "{out}");
    assert!(
        out.contains("│ innodb ┆ MT102 ┆ innodb_buffer_pool_size ┆ 7G → 5G "),
        "{out}"
    );
    assert!(
        out.contains("MT301 ┆ max_connections         ┆ 2000 → "),
        "{out}"
    );
    assert!(
        out.contains(
            "Suggested changes:\n\n\
             -- Apply now (SET PERSIST: survives a restart):\n\
             SET PERSIST innodb_buffer_pool_size = 5368709120;\n"
        ),
        "{out}"
    );
    assert!(out.contains("\nSET PERSIST max_connections = "), "{out}");
    // Today's values back, and the persisted ones gone.
    assert!(
        out.contains(
            "-- Undo (today's values):\n\
             SET GLOBAL innodb_buffer_pool_size = 7516192768;\n\
             RESET PERSIST innodb_buffer_pool_size;\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("[mysqld]\ninnodb_buffer_pool_size = 5G  # MT102\n"),
        "{out}"
    );
    let summary = out.lines().last().unwrap();
    assert!(summary.contains(" findings ("), "{summary}");
    assert!(
        summary.ends_with("at restart) for MySQL 8.0.32 (up 2h 0m)."),
        "{summary}"
    );
    assert!(!out.contains('\x1b'));

    assert!(
        stdout(&mytune(&[
            "check",
            "--snapshot",
            &snap,
            "--color",
            "always"
        ]))
        .contains("\x1b[")
    );
    // auto: not a terminal here, so no colour.
    assert!(!stdout(&mytune(&["check", "--snapshot", &snap])).contains('\x1b'));
    // --fail-on crit: MT302 (memory overcommitted) is crit; without the
    // memory family only warnings and infos remain.
    assert_eq!(
        mytune(&["check", "--snapshot", &snap, "--fail-on", "crit"])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        mytune(&[
            "check",
            "--snapshot",
            &snap,
            "--fail-on",
            "crit",
            "--skip",
            "memory"
        ])
        .status
        .code(),
        Some(0)
    );
    assert_eq!(
        mytune(&[
            "check",
            "--snapshot",
            &snap,
            "--skip",
            "innodb,memory",
            "--fail-on",
            "warn"
        ])
        .status
        .code(),
        Some(0)
    );
}

#[test]
fn markdown_report() {
    let snap = snapshot(MYSQL80);
    let md = stdout(&mytune(&[
        "check",
        "--snapshot",
        &snap,
        "--format",
        "markdown",
    ]));
    assert!(
        md.starts_with("# mytune check: MySQL 8.0.32\n\n| | |\n|---|---|\n| Server | 8.0.32 |\n"),
        "{md}"
    );
    assert!(md.contains("| Memory | 8G (--memory) |"), "{md}");
    assert!(md.contains("\n## WARN ("), "{md}");
    assert!(
        md.contains(
            "| Code | Family | Variable | Current → recommended | Why |\n|---|---|---|---|---|\n"
        ),
        "{md}"
    );
    // Values from the server as <code> elements: text also where Markdown
    // reads the report as raw HTML.
    assert!(md.contains("\n| MT102 `innodb-buffer-pool-too-large` | innodb | <code>innodb_buffer_pool_size</code> | <code>7G</code> → <code>5G</code> | innodb_buffer_pool_size is 7G,"), "{md}");
    assert!(
        md.contains(
            "\n## Suggested changes\n\n```sql\n-- Apply now (SET PERSIST: survives a restart):\n"
        ),
        "{md}"
    );
    assert!(
        md.contains("\n```ini\n[mysqld]\ninnodb_buffer_pool_size = 5G  # MT102\n"),
        "{md}"
    );
    assert!(md.contains("\nmax_connections = "), "{md}");
    assert!(md.contains("\n```\n"), "{md}");
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn drift_against_a_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = write(
        dir.path(),
        "my.cnf",
        "[mysqld]\n\
         user = mysql\n\
         max_connections = 100\n\
         sort_buffer_size = 4M\n\
         thread_handling = ONE-THREAD-PER-CONNECTION\n\
         innodb_buffer_pool_instances = 4\n\
         loose-innodb_bufer_pool_size = 1G\n\
         innodb_write_io_threads = 4\n\
         [client]\n\
         max_connections = 1\n",
    );
    let cfg = cnf.display().to_string();
    let v = json(&[
        "check",
        "--snapshot",
        &snapshot(MYSQL80),
        "--config",
        &cfg,
        "--format",
        "json",
        "--only",
        "config",
    ]);
    let by_code = |code: &str| -> Vec<&Value> {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == code)
            .collect()
    };
    // Dynamic and no way to tell the file is newer: changed online.
    let mt011 = by_code("MT011");
    assert_eq!(mt011.len(), 1, "{v:#}");
    assert_eq!(mt011[0]["variable"], "max_connections");
    assert_eq!(mt011[0]["current"], "2000");
    assert_eq!(mt011[0]["location"]["line"], 3);
    // Read-only: the server started with something else.
    let mt012 = by_code("MT012");
    assert_eq!(mt012.len(), 1, "{v:#}");
    assert_eq!(mt012[0]["variable"], "innodb_buffer_pool_instances");
    let mt013 = by_code("MT013");
    assert_eq!(mt013.len(), 1, "{v:#}");
    assert_eq!(mt013[0]["variable"], "innodb_bufer_pool_size");
    assert_eq!(mt013[0]["severity"], "warn");
    // user (not a system variable), 4M = 4194304, enum case, equal
    // values and [client] are not drift.
    assert_eq!(codes(&v).len(), 3, "{v:#}");
}

#[test]
fn unknown_option_without_loose_is_crit() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = write(
        dir.path(),
        "my.cnf",
        "[mysqld]\ninnodb_bufer_pool_size = 1G\n",
    );
    let v = json(&[
        "check",
        "--snapshot",
        &snapshot(MYSQL80),
        "--config",
        &cnf.display().to_string(),
        "--format",
        "json",
        "--only",
        "MT013",
    ]);
    assert_eq!(v["findings"][0]["severity"], "crit", "{v:#}");
}

#[test]
fn snapshot_errors_exit_2() {
    let o = mytune(&["check", "--snapshot", &snapshot("cnf-only-no-host.json")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no server facts"));
    let o = mytune(&["check", "--snapshot", "/nonexistent.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent.json"));
    let o = mytune(&[
        "check",
        "--snapshot",
        &snapshot(MYSQL80),
        "--interval",
        "1s",
    ]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "--snapshot and --interval conflict"
    );
    let o = mytune(&[
        "check",
        "--snapshot",
        &snapshot(MYSQL80),
        "--config",
        "/nonexistent.cnf",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent.cnf"));
}

#[test]
fn lint_json_follows_the_same_schema() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = write(
        dir.path(),
        "my.cnf",
        "[mysqld]\nquery_cache_size = 8M\nmax_connections = 10\nmax_connections = 20\nloose-innodb_bufer_pool_size = 1G\n",
    );
    let v = json(&[
        "lint",
        "--format",
        "json",
        "--target",
        "mysql-8.0",
        &cnf.display().to_string(),
    ]);
    assert_eq!(v["command"], "lint");
    assert!(!v["findings"].as_array().unwrap().is_empty());
}

/// Seed 000 §2.3's lines a running MariaDB 10.11 started with: the server
/// keeps removed InnoDB options as warned no-ops, so drift must not say it
/// "would refuse to start" (MT013 crit) about them.
/// The drift findings of `cnf` against a running MariaDB 10.11 (snapshot).
fn mariadb_drift(cnf: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let cnf = write(dir.path(), "my.cnf", cnf);
    json(&[
        "check",
        "--snapshot",
        &snapshot("mariadb1011-tuned-64g-16cpu.json"),
        "--config",
        &cnf.display().to_string(),
        "--format",
        "json",
        "--only",
        "MT011,MT012,MT013",
    ])
}

#[test]
fn drift_never_says_refuse_about_options_mariadb_keeps_as_no_ops() {
    let v = mariadb_drift(
        "[mysqld]\ninnodb_log_files_in_group = 2\ninnodb_thread_concurrency = 16\nlog_bin = mysql-bin\n",
    );
    let findings = v["findings"].as_array().unwrap();
    for f in findings {
        assert_ne!(f["severity"], "crit", "{v:#}");
        assert!(!f["message"].as_str().unwrap().contains("refuse"), "{v:#}");
    }
    let no_ops: Vec<_> = findings.iter().filter(|f| f["code"] == "MT013").collect();
    assert_eq!(no_ops.len(), 2, "{v:#}");
    assert!(
        no_ops[0]["message"].as_str().unwrap().contains("no-op"),
        "{v:#}"
    );
    // log_bin = NAME names the files; the running value ON is no drift.
    assert!(
        !findings.iter().any(|f| f["variable"] == "log_bin"),
        "{v:#}"
    );
}

/// A running open_files_limit below the file's: the process limit capped it.
#[test]
fn drift_names_the_process_limit_when_it_capped_open_files_limit() {
    let v = mariadb_drift("[mysqld]\nopen_files_limit = 65535\n");
    let f = &v["findings"][0];
    assert_eq!(f["variable"], "open_files_limit", "{v:#}");
    assert!(
        f["message"].as_str().unwrap().contains("LimitNOFILE"),
        "{v:#}"
    );
}

/// Issue 13, point 1: `check` takes the generators' profile flags and a
/// mytune.toml's profile, and `--memory`/`--cpus` describe a snapshot's host.
#[test]
fn check_takes_the_profile_and_describes_a_snapshots_host() {
    let snap = snapshot(MYSQL80);
    let v: serde_json::Value = serde_json::from_slice(
        &mytune(&[
            "check",
            "--snapshot",
            &snap,
            "--format",
            "json",
            "--memory",
            "4G",
            "--cpus",
            "2",
            "--durability",
            "relaxed",
            "--share",
            "0.5",
        ])
        .stdout,
    )
    .unwrap();
    assert_eq!(v["host"]["memory"]["value"], 4u64 << 30, "{v:#}");
    assert_eq!(v["host"]["memory"]["source"], "--memory");
    assert_eq!(v["host"]["cpus"]["value"], 2);
    let profile = v["context"]["profile"].as_str().unwrap();
    assert!(
        profile.starts_with(
            "durability relaxed, workload mixed, observability standard, connections not given, share 0.5 (flags)"
        ),
        "{profile}"
    );
    assert_eq!(v["context"]["budget"]["bytes"], 2u64 << 30);

    // A mytune.toml's profile, and the flags on top of it.
    let dir = tempfile::tempdir().unwrap();
    let toml = dir.path().join("mytune.toml");
    std::fs::write(&toml, "durability = \"relaxed\"\nconnections = 300\n").unwrap();
    let o = mytune(&[
        "check",
        "--snapshot",
        &snap,
        "--format",
        "json",
        "--project",
        toml.to_str().unwrap(),
        "--workload",
        "oltp",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let profile = v["context"]["profile"].as_str().unwrap();
    assert!(
        profile.starts_with(
            "durability relaxed, workload oltp, observability standard, connections 300, share 1 ("
        ),
        "{profile}"
    );
    assert!(profile.ends_with("mytune.toml and flags)"), "{profile}");
}
