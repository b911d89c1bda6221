//! `mytune lint` end to end: the binary on the seed examples, on inline files
//! and on the real-world option files in ../shared/fixtures/mycnf.

use crate::support::shared as shared_support;
use shared_support::shared_dir;

use crate::support::run::{mytune, stdout};
use std::path::{Path, PathBuf};

/// The lines of the text report that carry `code`.
fn lines_with<'a>(out: &'a str, code: &str) -> Vec<&'a str> {
    out.lines()
        .filter(|l| l.contains(&format!(" {code} ")))
        .collect()
}

fn write_cnf(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn seed000_vps_config_for_mysql_80() {
    let o = mytune(&[
        "lint",
        "--target",
        "mysql-8.0",
        "examples/seed000-1gb-vps.cnf",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let removed = lines_with(&out, "MT003");
    for name in ["query_cache_size", "query_cache_limit"] {
        assert!(
            removed
                .iter()
                .any(|l| l.contains(&format!("{name} was removed in MySQL 8.0.3"))),
            "{name} not reported removed:\n{out}"
        );
    }
    let deprecated = lines_with(&out, "MT004");
    for name in ["innodb_log_files_in_group", "innodb_log_file_size"] {
        assert!(
            deprecated.iter().any(|l| l
                .contains(&format!("{name} is deprecated since MySQL 8.0.30"))
                && l.contains("use innodb_redo_log_capacity")),
            "{name} not reported deprecated since 8.0.30:\n{out}"
        );
    }
    assert!(
        deprecated
            .iter()
            .any(|l| l.contains("expire_logs_days") && l.contains("use binlog_expire_logs_seconds")),
        "{out}"
    );
    assert!(
        lines_with(&out, "MT002").is_empty(),
        "false unknown options:\n{out}"
    );
    assert!(
        lines_with(&out, "MT001").is_empty(),
        "false syntax errors:\n{out}"
    );
    // Findings point at the right lines.
    let line_of = |name: &str| {
        std::fs::read_to_string("examples/seed000-1gb-vps.cnf")
            .unwrap()
            .lines()
            .position(|l| l.starts_with(name))
            .unwrap()
            + 1
    };
    assert!(out.contains(&format!(
        "examples/seed000-1gb-vps.cnf:{}:1: MT003 [crit] query_cache_size",
        line_of("query_cache_size")
    )));
}

#[test]
fn seed000_vps_config_for_mariadb_1011() {
    let o = mytune(&[
        "lint",
        "--target",
        "mariadb-10.11",
        "examples/seed000-1gb-vps.cnf",
    ]);
    let out = stdout(&o);
    assert!(
        lines_with(&out, "MT003")
            .iter()
            .any(|l| l.contains("innodb_log_files_in_group was removed in MariaDB")),
        "{out}"
    );
    assert!(
        !out.contains("query_cache"),
        "MariaDB still has the query cache:\n{out}"
    );
    assert!(
        lines_with(&out, "MT002").is_empty(),
        "false unknown options:\n{out}"
    );
}

#[test]
fn seed003_template_line_is_reported_not_a_crash() {
    for target in ["mysql-8.0", "percona-8.0", "mariadb-10.11"] {
        let o = mytune(&[
            "lint",
            "--target",
            target,
            "examples/seed003-100k-connections.cnf",
        ]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{target}: {out}");
        let syntax = lines_with(&out, "MT001");
        assert_eq!(syntax.len(), 1, "{target}: {out}");
        assert!(
            syntax[0].starts_with("examples/seed003-100k-connections.cnf:4:")
                && syntax[0].contains("{{ mysqldir }}"),
            "{out}"
        );
    }
}

#[test]
fn thread_pool_is_enterprise_only_on_mysql() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_cnf(
        dir.path(),
        "pool.cnf",
        "[mysqld]\nthread_handling=pool-of-threads\n",
    );
    let f = f.to_str().unwrap();
    let o = mytune(&["lint", "--target", "mysql-8.0", f]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let invalid = lines_with(&out, "MT005");
    assert!(
        invalid.len() == 1 && invalid[0].contains("Enterprise"),
        "{out}"
    );
    for target in ["percona-8.0", "mariadb-10.11"] {
        // The rule catalog may advise on the defaults; the option itself is valid.
        let o = mytune(&["lint", "--target", target, f]);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{target}: {}",
            stdout(&o)
        );
        assert!(
            lines_with(&stdout(&o), "MT005").is_empty(),
            "{target}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn typos_groups_duplicates_and_loose() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_cnf(
        dir.path(),
        "mixed.cnf",
        "[mysqld]\n\
         innodb_bufer_pool_size = 1G\n\
         loose-max_conections = 10\n\
         loose-some_plugin_option = 1\n\
         max_connections = 500\n\
         max_connections = 600\n\
         \n\
         [client]\n\
         port = 3306\n\
         innodb_buffer_pool_size = 1G\n\
         \n\
         [mysqd]\n\
         max_connections = 10\n",
    );
    let o = mytune(&["lint", "--target", "mysql-8.0", f.to_str().unwrap()]);
    let out = stdout(&o);
    let unknown = lines_with(&out, "MT002");
    assert_eq!(unknown.len(), 2, "{out}");
    assert!(
        unknown[0].contains(":2:1:")
            && unknown[0].contains("[crit]")
            && unknown[0].contains("did you mean innodb_buffer_pool_size")
    );
    // A loose- option of an absent plugin: the server notes it, so does lint.
    assert!(
        unknown[1].contains(":4:1:") && unknown[1].contains("[info]"),
        "{out}"
    );
    let loose = lines_with(&out, "MT008");
    assert_eq!(
        loose.len(),
        1,
        "a loose plugin option without a near name is fine:\n{out}"
    );
    assert!(loose[0].contains(":3:1:") && loose[0].contains("max_connections"));
    let dup = lines_with(&out, "MT006");
    assert_eq!(dup.len(), 1, "{out}");
    assert!(
        dup[0].contains(":5:1:") && dup[0].contains("(500) is ignored") && dup[0].contains(":6:1")
    );
    let groups = lines_with(&out, "MT007");
    assert_eq!(groups.len(), 2, "{out}");
    assert!(
        groups
            .iter()
            .any(|l| l.contains(":10:1:") && l.contains("[client]"))
    );
    assert!(
        groups
            .iter()
            .any(|l| l.contains(":13:1:") && l.contains("did you mean [mysqld]"))
    );
    assert!(!out.contains(":9:1:"), "port belongs in [client]:\n{out}");
}

#[test]
fn mariadb_groups_are_not_read_by_mysql() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_cnf(
        dir.path(),
        "g.cnf",
        "[mariadb]\nmax_connections = 10\n[mysqld-5.7]\nquery_cache_size=0\n",
    );
    let f = f.to_str().unwrap();
    let out = stdout(&mytune(&["lint", "--target", "mysql-8.0", f]));
    assert_eq!(lines_with(&out, "MT007").len(), 2, "{out}");
    let out = stdout(&mytune(&["lint", "--target", "mariadb-10.11", f]));
    // MariaDB reads [mariadb]; [mysqld-5.7] is for another version.
    let groups = lines_with(&out, "MT007");
    assert_eq!(groups.len(), 1, "{out}");
    assert!(groups[0].contains("[mysqld-5.7]"));
}

#[test]
fn json_output_and_exit_codes() {
    let o = mytune(&["lint", "--format", "json", "examples/seed000-1gb-vps.cnf"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(v["schema_version"], 2);
    // The default target, a bare series, means its newest known release.
    assert_eq!(v["target"], "mysql-8.0.41");
    let findings = v["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    let qc = findings
        .iter()
        .find(|f| f["variable"] == "query_cache_size")
        .expect("query_cache_size finding");
    assert_eq!(qc["code"], "MT003");
    assert_eq!(qc["severity"], "crit");
    assert_eq!(qc["location"]["file"], "examples/seed000-1gb-vps.cnf");
    assert!(qc["location"]["line"].as_u64().unwrap() > 1);
    assert_eq!(
        v["summary"]["crit"].as_u64().unwrap() as usize,
        findings.iter().filter(|f| f["severity"] == "crit").count()
    );

    // --fail-on: only crit findings count.
    let dir = tempfile::tempdir().unwrap();
    let f = write_cnf(dir.path(), "dep.cnf", "[mysqld]\nexpire_logs_days = 7\n");
    let f = f.to_str().unwrap();
    assert_eq!(mytune(&["lint", f]).status.code(), Some(1));
    assert_eq!(
        mytune(&["lint", "--fail-on", "crit", f]).status.code(),
        Some(0)
    );
    // A file with nothing for the server (the catalog's rules, which also
    // judge the defaults of a server file, have nothing to say): exit 0.
    let clean = write_cnf(dir.path(), "clean.cnf", "[client]\nport = 3306\n");
    let o = mytune(&["lint", clean.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("No problems found"));
    // I/O and usage errors: 2.
    let missing = mytune(&["lint", "/nonexistent/my.cnf"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/my.cnf"));
    // Nothing was read: the error is the whole answer (issue 15).
    assert!(stdout(&missing).is_empty(), "{}", stdout(&missing));
    assert_eq!(
        mytune(&["lint", "--target", "oracle-19", f]).status.code(),
        Some(2)
    );
    assert_eq!(mytune(&["lint"]).status.code(), Some(2));
    assert_eq!(
        mytune(&["lint", "--fail-on", "fatal", f]).status.code(),
        Some(2)
    );
}

#[test]
fn malformed_input_gives_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_cnf(
        dir.path(),
        "bad.cnf",
        "max_connections = 5\n[mysqld\nkey = \"unterminated\n",
    );
    let out = stdout(&mytune(&["lint", f.to_str().unwrap()]));
    let syntax = lines_with(&out, "MT001");
    assert!(syntax.len() >= 2, "{out}");
    assert!(syntax.iter().any(|l| l.contains("bad.cnf:1:")), "{out}");
    assert!(syntax.iter().any(|l| l.contains("bad.cnf:2:")), "{out}");
    // Binary junk is an error, not a crash.
    let bin = dir.path().join("bin.cnf");
    std::fs::write(&bin, [0x5b, 0x6d, 0xff, 0xfe, 0x00, 0x0a]).unwrap();
    let o = mytune(&["lint", bin.to_str().unwrap()]);
    assert!(matches!(o.status.code(), Some(1) | Some(2)), "{o:?}");
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn every_shared_fixture_lints_without_a_panic() {
    let Some(shared) = shared_dir() else {
        eprintln!("skipped: ../shared/fixtures is absent");
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared.join("fixtures/mycnf"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 10);
    for target in [
        "mysql-5.7",
        "mysql-8.0",
        "mysql-8.4",
        "mariadb-10.6",
        "mariadb-10.11",
        "mariadb-11.4",
        "percona-8.0",
    ] {
        for f in &files {
            let o = mytune(&[
                "lint",
                "--target",
                target,
                "--format",
                "json",
                f.to_str().unwrap(),
            ]);
            let code = o.status.code();
            assert!(
                matches!(code, Some(0) | Some(1)),
                "{target} {}: exit {code:?}\n{}",
                f.display(),
                String::from_utf8_lossy(&o.stderr)
            );
            serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("valid JSON");
        }
    }
}

/// Issue 15: one rule with one reason for several variables (MT304's four
/// per-connection buffers) prints the message once; the other lines keep
/// their file:line:col and name their variable.
#[test]
fn one_reason_for_several_variables_is_printed_once() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_cnf(
        dir.path(),
        "my.cnf",
        "[mysqld]\nsort_buffer_size = 16M\njoin_buffer_size = 16M\nread_buffer_size = 16M\n",
    );
    let out = stdout(&mytune(&[
        "lint",
        "--target",
        "mysql-8.0",
        f.to_str().unwrap(),
    ]));
    let lines = lines_with(&out, "MT304");
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("are allocated per connection"))
            .count(),
        1,
        "{out}"
    );
    assert!(
        lines[1].ends_with("MT304 [warn] join_buffer_size: as above"),
        "{out}"
    );
    assert!(lines[1].contains("my.cnf:3:1: "), "{out}");
}
