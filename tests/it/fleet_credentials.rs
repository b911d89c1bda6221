//! How a fleet run logs in, against throw-away mariadbd servers (see
//! `tests/it/support/mariadb.rs`): each inventory entry may name its own
//! `--defaults-group-suffix` (its account in `[client_SUFFIX]` of an option
//! file, as the `mysql` client reads it), an inventory never carries a
//! password, `-p` asks once for the whole fleet, and `--interval` takes a
//! second status sample on every server.
//!
//! Skips with a printed reason when mariadbd (or `script`, for the
//! terminal the prompt needs) is missing, unless `MYTUNE_REQUIRE_LIVE=1`.

use crate::support::mariadb;

use std::io::{Read, Write};
use std::process::{Output, Stdio};

use mariadb::TestServer;
use serde_json::Value;

fn mytune(args: &[&str]) -> Output {
    crate::support::run::mytune_command()
        .args(args)
        .output()
        .expect("mytune runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The JSON lines of a run, by server name.
fn by_name(stdout: &str) -> std::collections::BTreeMap<String, Value> {
    stdout
        .lines()
        // On a terminal the progress count (standard error) shares the
        // lines: each object starts at its `{"name"`.
        .filter_map(|l| l.find('{').map(|i| &l[i..]))
        .map(|l| {
            let v: Value = serde_json::from_str(l.trim()).unwrap();
            crate::support::report_schema::validate(&v);
            (v["name"].as_str().unwrap().to_string(), v)
        })
        .collect()
}

/// An account that may read what a check reads, on 127.0.0.1.
fn account(server: &TestServer, user: &str, password: &str) {
    server
        .sql(&format!(
            "CREATE USER {user}@'127.0.0.1' IDENTIFIED BY '{password}'; \
             GRANT PROCESS, REPLICATION CLIENT, SELECT ON *.* TO {user}@'127.0.0.1'"
        ))
        .unwrap();
}

/// Regression test for a fleet with one account for every server: each
/// entry's `defaults_group_suffix` (plain list) or
/// `mytune_defaults_group_suffix` (Ansible) picks its own option group, the
/// passwords stay in the option file and out of every output, and an
/// inventory that holds a password is refused at that line.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn each_entry_logs_in_with_its_own_option_group() {
    let Some(a) = TestServer::start("") else {
        return;
    };
    let Some(b) = TestServer::start("") else {
        return;
    };
    account(&a, "mon_a", "pw-a-7193");
    account(&b, "mon_b", "pw-b-5528");
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("fleet.cnf");
    std::fs::write(
        &cnf,
        "[client]\nuser = nobody\n\n[client_east]\nuser = mon_a\npassword = pw-a-7193\n\n\
         [mytune_west]\nuser = mon_b\npassword = pw-b-5528\n",
    )
    .unwrap();
    let plain = dir.path().join("fleet.txt");
    std::fs::write(
        &plain,
        format!(
            "127.0.0.1:{} a defaults_group_suffix=_east\n\
             127.0.0.1:{} b mytune_defaults_group_suffix=_west\n\
             127.0.0.1:{} c password=secret-in-clear\n",
            a.port,
            b.port,
            a.port + 1
        ),
    )
    .unwrap();
    let yaml = dir.path().join("fleet.yml");
    std::fs::write(
        &yaml,
        format!(
            "all:\n  children:\n    east:\n      vars:\n        mytune_defaults_group_suffix: _east\n      hosts:\n        a:\n          ansible_host: 127.0.0.1\n          mysql_port: {}\n    west:\n      hosts:\n        b:\n          ansible_host: 127.0.0.1\n          mysql_port: {}\n          mytune_defaults_group_suffix: _west\n        c:\n          ansible_host: 127.0.0.1\n          mytune_password: secret-in-clear\n",
            a.port, b.port
        ),
    )
    .unwrap();
    for (inv, bad_line) in [(&plain, 3), (&yaml, 16)] {
        let out = mytune(&[
            "check",
            "--inventory",
            inv.to_str().unwrap(),
            &format!("--defaults-file={}", cnf.display()),
            "--connect-timeout=5",
            "--format=jsonl",
        ]);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        let lines = by_name(&stdout);
        assert_eq!(
            lines.keys().collect::<Vec<_>>(),
            ["a", "b"],
            "{stdout}\n{stderr}"
        );
        for (name, port) in [("a", a.port), ("b", b.port)] {
            assert_eq!(lines[name]["status"], "ok", "{}\n{stderr}", lines[name]);
            assert_eq!(lines[name]["endpoint"], format!("127.0.0.1:{port}"));
        }
        assert!(
            stderr.contains(&format!("{}:{bad_line}:", inv.display()))
                && stderr.contains("reads no password from an inventory"),
            "{stderr}"
        );
        for secret in ["pw-a-7193", "pw-b-5528", "secret-in-clear"] {
            assert!(!stdout.contains(secret) && !stderr.contains(secret));
        }
        // The server whose entry was refused is not checked; the others are.
        assert_eq!(out.status.code(), Some(1), "{stderr}");
    }

    // Without the suffixes, [client]'s user cannot log in anywhere.
    let none = dir.path().join("none.txt");
    std::fs::write(&none, format!("127.0.0.1:{} a\n", a.port)).unwrap();
    let out = mytune(&[
        "check",
        "--inventory",
        none.to_str().unwrap(),
        &format!("--defaults-file={}", cnf.display()),
        "--format=jsonl",
    ]);
    let lines = by_name(&text(&out.stdout));
    assert_eq!(lines["a"]["status"], "error", "{}", lines["a"]);
    assert!(lines["a"]["error"].as_str().unwrap().contains("nobody"));
}

/// Read from `r` until `needle` shows (or the end), returning what was read.
fn read_until(r: &mut impl Read, needle: &str) -> String {
    let mut seen = Vec::new();
    let mut buf = [0u8; 256];
    while !String::from_utf8_lossy(&seen).contains(needle) {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
        }
    }
    text(&seen)
}

/// Regression test for the prompt of `-p` with a fleet: asked once on the
/// terminal, the answer used for every server, and never echoed.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn dash_p_asks_once_for_the_whole_fleet() {
    let Some(script) = mariadb::find_program("script", &["/usr/bin/script"]) else {
        mariadb::skip_or_panic::<()>(
            "script not found (install bsdutils): no terminal to prompt on",
        );
        return;
    };
    let Some(a) = TestServer::start("") else {
        return;
    };
    let Some(b) = TestServer::start("") else {
        return;
    };
    let Some(c) = TestServer::start("") else {
        return;
    };
    for s in [&a, &b, &c] {
        account(s, "mon", "one-answer-3310");
    }
    let dir = tempfile::tempdir().unwrap();
    let inv = dir.path().join("fleet.txt");
    std::fs::write(
        &inv,
        format!(
            "127.0.0.1:{} a\n127.0.0.1:{} b\n127.0.0.1:{} c\n",
            a.port, b.port, c.port
        ),
    )
    .unwrap();
    // Standard error to a file: the terminal then carries the prompt (on
    // /dev/tty) and the JSON lines, no progress count between them.
    let err = dir.path().join("stderr.txt");
    let cmd = format!(
        "{} check --inventory {} --no-defaults --user=mon -p --format=jsonl 2>{}",
        env!("CARGO_BIN_EXE_mytune"),
        inv.display(),
        err.display()
    );
    // mytune's test defaults (no MYSQL_PWD and the like) for the command
    // run inside script's terminal.
    let defaults = crate::support::run::mytune_command();
    let mut child = std::process::Command::new(&script)
        .args(["-qec", &cmd, "/dev/null"])
        .envs(
            defaults
                .get_envs()
                .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v.to_owned()))),
        )
        .env_remove("MYSQL_PWD")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script runs");
    let mut out = child.stdout.take().unwrap();
    // The answer goes in once the prompt is there (echo is off by then).
    let before = read_until(&mut out, "Enter password:");
    assert!(before.contains("Enter password:"), "{before}");
    // rpassword prints the prompt and then turns the terminal's echo off:
    // an answer typed within that instant is echoed, by the terminal, not
    // by mytune (a loaded machine showed it once). Answer as a person
    // would, after the prompt has settled.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"one-answer-3310\n").unwrap();
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    let all = format!(
        "{before}{rest}\nstderr: {}",
        std::fs::read_to_string(&err).unwrap_or_default()
    );
    assert_eq!(all.matches("Enter password:").count(), 1, "{all}");
    assert!(!all.contains("one-answer-3310"), "{all}");
    let lines = by_name(&rest);
    assert_eq!(lines.len(), 3, "{all}");
    for (name, l) in &lines {
        assert_eq!(l["status"], "ok", "{name}: {l}");
    }
    // Fresh servers: anonymous accounts without a password (MT702, crit).
    assert_eq!(status.code(), Some(1), "{all}");
}

/// Regression test for `--interval` with a fleet: every server gets its
/// second status sample (rates over the interval, not since start-up), and
/// the interval is added to each server's --timeout, not spent once per
/// server in turn.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn interval_samples_every_server_of_the_fleet() {
    let Some(a) = TestServer::start("") else {
        return;
    };
    let Some(b) = TestServer::start("") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let inv = dir.path().join("fleet.txt");
    std::fs::write(
        &inv,
        format!("127.0.0.1:{} a\n127.0.0.1:{} b\n", a.port, b.port),
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "check",
            "--inventory",
            inv.to_str().unwrap(),
            "--no-defaults",
            "--user=root",
            "--format=jsonl",
        ];
        args.extend_from_slice(extra);
        let out = mytune(&args);
        by_name(&text(&out.stdout))
    };
    // A --timeout shorter than the interval still lets each server finish:
    // the interval is added to it.
    let sampled = run(&["--interval=2s", "--timeout=2s"]);
    assert_eq!(sampled.len(), 2);
    for (name, l) in &sampled {
        assert_eq!(l["status"], "ok", "{name}: {l}");
        let secs = l["server"]["counters"]["interval_secs"]
            .as_f64()
            .unwrap_or_else(|| panic!("{name} has no second sample: {l}"));
        assert!(secs >= 2.0, "{name}: {secs}");
        assert!(l["duration_secs"].as_f64().unwrap() >= 2.0, "{l}");
    }
    let once = run(&[]);
    for (name, l) in &once {
        assert!(
            l["server"]["counters"].get("interval_secs").is_none(),
            "{name}: {l}"
        );
    }
}
