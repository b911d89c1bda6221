//! gen-cnf as a drop-in and output files (issue 15): the header says where
//! the file goes and that it holds no paths; `-o/--output FILE` on gen-cnf
//! and check; gen-limits writes nothing when no rule recommends a limit.

use crate::support::run::{stderr, stdout};
use std::process::Output;

fn mytune(args: &[&str]) -> Output {
    crate::support::run::mytune_command()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("COLUMNS", "120")
        .output()
        .expect("run mytune")
}

const HOST: [&str; 6] = ["--memory", "8G", "--cpus", "4", "--disk", "ssd"];

#[test]
fn gen_cnf_header_says_where_the_file_goes_and_that_it_has_no_paths() {
    let mut args = vec!["gen-cnf", "--target", "mariadb-10.11"];
    args.extend(HOST);
    let o = mytune(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let header = header_of(&out);
    for needle in [
        "/etc/mysql/mariadb.conf.d/99-mytune.cnf",
        "/etc/my.cnf.d/",
        "/etc/mysql/mysql.conf.d/",
        "holds no paths",
    ] {
        assert!(header.contains(needle), "header lacks {needle}:\n{out}");
    }
    for path_option in ["datadir", "socket", "pid_file", "log_error", "tmpdir"] {
        assert!(
            !out.lines().any(|l| l.starts_with(path_option)),
            "{path_option} set:\n{out}"
        );
    }
}

/// The header of a file under the default profile, as one line.
fn header_of(out: &str) -> String {
    out.lines()
        .take_while(|l| l.starts_with('#') || l.is_empty())
        .map(|l| l.trim_start_matches('#').trim())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The default profile leaves the slow log off and its header says so and
/// how to have it; with observability full the log is written and the note
/// goes.
#[test]
fn gen_cnf_header_says_the_default_leaves_the_slow_log_off() {
    let run = |extra: &[&str]| {
        let mut args = vec!["gen-cnf", "--target", "mariadb-10.11"];
        args.extend(HOST);
        args.extend(extra);
        let o = mytune(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let standard = run(&[]);
    let header = header_of(&standard);
    for needle in [
        "leaves the slow query log off",
        "SET GLOBAL slow_query_log = ON",
        "--observability full",
        "mytune explain MT501",
    ] {
        assert!(
            header.contains(needle),
            "header lacks {needle}:\n{standard}"
        );
    }
    assert!(
        !standard.lines().any(|l| l.starts_with("slow_query_log")),
        "{standard}"
    );
    let full = run(&["--observability", "full"]);
    assert!(
        !header_of(&full).contains("leaves the slow query log off"),
        "{full}"
    );
    assert!(full.lines().any(|l| l == "slow_query_log = ON"), "{full}");
}

#[test]
fn gen_cnf_output_writes_the_file_and_nothing_on_stdout() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("99-mytune.cnf");
    let mut args = vec!["gen-cnf", "--target", "mysql-8.0"];
    args.extend(HOST);
    let printed = stdout(&mytune(&args));
    args.extend(["-o", file.to_str().unwrap()]);
    let o = mytune(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), printed);
    assert!(stderr(&o).contains("wrote"), "{}", stderr(&o));
    // No temporary file left behind.
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    // An unwritable destination is an error, exit 2.
    let mut bad = args[..args.len() - 1].to_vec();
    bad.push("/nonexistent-dir/x.cnf");
    let o = mytune(&bad);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot write /nonexistent-dir/x.cnf"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn check_output_writes_the_report_without_colours() {
    let snap = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/snapshots/mysql80-overcommitted-8g-4cpu.json"
    );
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("report.txt");
    let plain = mytune(&["check", "--snapshot", snap, "--color", "never"]);
    let o = mytune(&["check", "--snapshot", snap, "-o", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), plain.status.code());
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written, stdout(&plain));
    assert!(!written.contains('\x1b'));
    let json = d.path().join("report.json");
    let o = mytune(&[
        "check",
        "--snapshot",
        snap,
        "--format",
        "json",
        "--output",
        json.to_str().unwrap(),
    ]);
    assert!(stdout(&o).is_empty());
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["command"], "check");
}

#[test]
fn gen_limits_writes_nothing_when_no_rule_recommends_a_limit() {
    let d = tempfile::tempdir().unwrap();
    let mut args = vec![
        "gen-limits",
        "--target",
        "mariadb-10.11",
        "--memory",
        "4G",
        "--cpus",
        "2",
        "--connections",
        "100",
    ];
    let o = mytune(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no rule recommends a process limit"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("systemctl"));
    args.extend(["--output-dir", d.path().to_str().unwrap()]);
    let o = mytune(&args);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
}

#[test]
fn gen_limits_still_writes_files_and_steps_when_a_rule_recommends_one() {
    let o = mytune(&[
        "gen-limits",
        "--target",
        "mysql-8.0",
        "--memory",
        "256G",
        "--cpus",
        "64",
        "--connections",
        "20000",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("LimitNOFILE="), "{out}");
    assert!(out.contains("# ==> apply <=="), "{out}");
    assert!(out.contains("systemctl restart mysql.service"), "{out}");
}

/// The Memory line's measured idle-connection figure comes from the memory
/// model (`model.idle_measured`): MariaDB's with one thread per connection,
/// the thread pool's where the plan turns it on, and none for a flavor it
/// was not measured on.
#[test]
fn the_memory_line_takes_the_measured_idle_connection_from_the_model() {
    let memory_line = |extra: &[&str]| {
        let mut args = vec!["gen-cnf", "--memory", "4G", "--cpus", "2"];
        args.extend(extra);
        let o = mytune(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        header_of(&stdout(&o))
            .split("Memory: ")
            .nth(1)
            .unwrap_or_default()
            .to_string()
    };
    let one_thread = memory_line(&["--target", "mariadb-10.11"]);
    assert!(
        one_thread.contains("resident on MariaDB 10.11 (62K)"),
        "{one_thread}"
    );
    let pooled = memory_line(&["--target", "mariadb-10.11", "--connections", "2000"]);
    assert!(
        pooled.contains("resident on MariaDB 10.11 (48K)"),
        "{pooled}"
    );
    let mysql = memory_line(&["--target", "mysql-8.0"]);
    assert!(mysql.contains("an assumption for this flavor"), "{mysql}");
}
