//! `mytune check --inventory` end to end: throw-away mariadbd servers (see
//! `tests/it/support/mariadb.rs`) reached over TCP, next to servers that fail
//! in each way a fleet has: a port where nothing listens, a listener that
//! accepts and never answers, a name that does not resolve. Each failure is
//! that server's error, the others are reported, the run ends within one
//! deadline, and the exit status says so. JSON Lines are validated against
//! `docs/report-schema.json`.
//!
//! Skips with a printed reason when mariadbd is not installed, unless
//! `MYTUNE_REQUIRE_LIVE=1`.

use crate::support::mariadb;

use crate::support::report_schema;

use std::net::TcpListener;
use std::path::Path;
use std::process::Output;

use mariadb::TestServer;
use serde_json::Value;

fn mytune(args: &[&str]) -> Output {
    crate::support::run::mytune_command()
        .args(args)
        .env_remove("MYSQL_PWD")
        .env("NO_COLOR", "1")
        .output()
        .expect("mytune runs")
}

fn check_inventory(inventory: &Path, extra: &[&str]) -> Output {
    let inv = inventory.to_str().unwrap();
    let mut args = vec![
        "check",
        "--inventory",
        inv,
        "--no-defaults",
        "--user=root",
        "--connect-timeout=1",
    ];
    args.extend_from_slice(extra);
    mytune(&args)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn lines(o: &Output) -> Vec<Value> {
    text(&o.stdout)
        .lines()
        .map(|l| {
            let v: Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"));
            report_schema::validate(&v);
            v
        })
        .collect()
}

/// The lines in the order of `names`, each name once (a fleet run writes
/// each server's line as it finishes, not in inventory order).
fn ordered(l: Vec<Value>, names: &[&str]) -> Vec<Value> {
    let mut got: Vec<&str> = l.iter().map(|v| v["name"].as_str().unwrap()).collect();
    got.sort_unstable();
    let mut want = names.to_vec();
    want.sort_unstable();
    assert_eq!(got, want);
    names
        .iter()
        .map(|n| l.iter().find(|v| v["name"] == *n).unwrap().clone())
        .collect()
}

/// A TCP listener that answers every connection with bytes that are not
/// the MySQL protocol (an HTTP server on the wrong port), then closes it.
fn garbage() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for conn in l.incoming() {
            let Ok(mut c) = conn else { return };
            let _ = std::io::Write::write_all(
                &mut c,
                b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n\xff\xfe\x00garbage",
            );
        }
    });
    port
}

/// A TCP listener that accepts connections and never says a word, as a
/// hung server or a firewall that swallows packets after the handshake.
fn blackhole() -> (TcpListener, u16) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    (l, port)
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn failing_servers_are_their_own_errors_and_hold_nothing() {
    let Some(a) = TestServer::start("") else {
        return;
    };
    let Some(b) = TestServer::start("max_connections = 40") else {
        return;
    };
    let (_hole, hole_port) = blackhole();
    let closed = mariadb::free_port().unwrap();
    let junk = garbage();
    let dir = tempfile::tempdir().unwrap();
    let inv = dir.path().join("fleet.txt");
    std::fs::write(
        &inv,
        format!(
            "# test fleet\n\
             127.0.0.1:{} alpha memory=8G cpus=2\n\
             127.0.0.1:{} beta\n\
             127.0.0.1:{hole_port} silent\n\
             127.0.0.1:{closed} closed\n\
             db.nosuch.invalid:3306 nxdomain\n\
             db9:not-a-port broken\n\
             127.0.0.1:{} alpha-again\n\
             127.0.0.1:{junk} garbage\n",
            a.port, b.port, a.port
        ),
    )
    .unwrap();

    let out = check_inventory(&inv, &["--format", "jsonl"]);
    let stderr = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}\n{stderr}",
        text(&out.stdout)
    );

    let l = ordered(
        lines(&out),
        &["alpha", "beta", "silent", "closed", "nxdomain", "garbage"],
    );
    let status: Vec<&str> = l.iter().map(|v| v["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["ok", "ok", "error", "error", "error", "error"]);
    // The silent server ends at its own connect deadline (the run's is
    // 1 s), as mytune records it: a deadline, not a performance figure.
    let silent = l[2]["duration_secs"].as_f64().unwrap();
    assert!(silent < 5.0, "{}", l[2]);

    // alpha's host is the inventory's; beta's is unknown: a fleet entry
    // never gets this machine's facts, even on a loopback address.
    assert_eq!(l[0]["host"]["memory"]["value"], 8u64 << 30);
    assert_eq!(l[0]["host"]["memory"]["source"], "inventory");
    assert_eq!(l[0]["host"]["cpus"]["value"], 2);
    assert!(l[1]["host"].is_null(), "{:#}", l[1]["host"]);
    assert!(
        l[1]["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["what"] == "host" && s["reason"].as_str().unwrap().contains("inventory")),
        "{:#}",
        l[1]["skipped"]
    );
    assert_eq!(l[0]["endpoint"], format!("127.0.0.1:{}", a.port));
    assert!(
        l[0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "MT702")
    );

    let err = |i: usize| l[i]["error"].as_str().unwrap().to_string();
    assert!(err(2).contains("timed out"), "{}", err(2));
    assert!(err(3).contains("nothing is listening"), "{}", err(3));
    assert!(err(4).contains("db.nosuch.invalid:3306"), "{}", err(4));
    assert!(
        err(5).starts_with(&format!("cannot connect to 127.0.0.1:{junk}")),
        "{}",
        err(5)
    );
    for failed in &l[2..] {
        assert!(failed.get("findings").is_none(), "{failed}");
    }

    // The bad line and the duplicate, each with file:line.
    let file = inv.display().to_string();
    assert!(
        stderr.contains(&format!("{file}:7: 'not-a-port' is not a TCP port")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{file}:8: alpha-again is 127.0.0.1:{}, already listed as alpha ({file}:2): checked once", a.port)),
        "{stderr}"
    );
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn the_text_summary_fits_80_columns_and_says_why() {
    let Some(a) = TestServer::start("") else {
        return;
    };
    let closed = mariadb::free_port().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let inv = dir.path().join("fleet.ini");
    std::fs::write(
        &inv,
        format!(
            "[mysql]\n\
             a-server-with-a-rather-long-inventory-name ansible_host=127.0.0.1 mysql_port={}\n\
             down ansible_host=127.0.0.1 mysql_port={closed} ansible_port=22\n",
            a.port
        ),
    )
    .unwrap();
    let out = check_inventory(&inv, &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}{}", text(&out.stderr));
    for line in stdout.lines() {
        assert!(
            line.chars().count() <= 80,
            "{} columns: {line}",
            line.chars().count()
        );
    }
    assert!(stdout.starts_with("SERVER "), "{stdout}");
    assert!(
        stdout.contains("a-server-with-a-r… mariadb 10."),
        "{stdout}"
    );
    assert!(stdout.contains("MT702"), "{stdout}");
    assert!(
        stdout.contains("\nNot checked:\n  down: cannot connect to 127.0.0.1:"),
        "{stdout}"
    );
    assert!(stdout.contains("2 servers: 1 checked, 1 not;"), "{stdout}");

    // --details: each checked server's full report after the summary.
    let details = check_inventory(&inv, &["--details"]);
    let d = text(&details.stdout);
    assert!(
        d.contains("── a-server-with-a-rather-long-inventory-name ──\nmytune check: MariaDB"),
        "{d}"
    );
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn exit_status_follows_fail_on_when_every_server_answers() {
    let Some(a) = TestServer::start("") else {
        return;
    };
    let Some(b) = TestServer::start("") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let inv = dir.path().join("fleet.yml");
    std::fs::write(
        &inv,
        format!(
            "all:\n  children:\n    mysql:\n      hosts:\n        a:\n          ansible_host: 127.0.0.1\n          mysql_port: {}\n        b:\n          ansible_host: 127.0.0.1\n          mytune_port: {}\n    web:\n      hosts:\n        www1:\n          ansible_host: 127.0.0.1\n          mysql_port: {}\n",
            a.port,
            b.port,
            mariadb::free_port().unwrap()
        ),
    )
    .unwrap();
    // The web servers of the same inventory are left out with --group.
    let all = check_inventory(&inv, &["--format", "jsonl"]);
    assert_eq!(all.status.code(), Some(2));
    assert_eq!(lines(&all).len(), 3);
    let typo = check_inventory(&inv, &["--group", "mysq"]);
    assert_eq!(typo.status.code(), Some(2));
    assert!(text(&typo.stderr).contains("--group: no host of the inventories is in mysq"));
    // Fresh servers let root in without a password: crit (MT702).
    let crit = check_inventory(
        &inv,
        &["--group", "mysql", "--fail-on", "crit", "--format", "jsonl"],
    );
    assert_eq!(crit.status.code(), Some(1), "{}", text(&crit.stderr));
    assert_eq!(lines(&crit).len(), 2);
    let quiet = check_inventory(
        &inv,
        &["--group=mysql", "--fail-on", "crit", "--skip", "security"],
    );
    assert_eq!(quiet.status.code(), Some(0), "{}", text(&quiet.stdout));
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn a_server_slower_than_timeout_is_given_up_alone() {
    let Some(a) = TestServer::start("") else {
        return;
    };
    let (_hole, hole_port) = blackhole();
    let dir = tempfile::tempdir().unwrap();
    let inv = dir.path().join("fleet.txt");
    std::fs::write(
        &inv,
        format!("127.0.0.1:{hole_port} hung\n127.0.0.1:{} fine\n", a.port),
    )
    .unwrap();
    // The connection alone may take 30 s; the whole server only 1 s.
    let out = mytune(&[
        "check",
        "--inventory",
        inv.to_str().unwrap(),
        "--no-defaults",
        "--user=root",
        "--connect-timeout=30",
        "--timeout=1s",
        "--format=jsonl",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let l = ordered(lines(&out), &["hung", "fine"]);
    assert_eq!(l[0]["status"], "error");
    // mytune's own record of the hung server: its --timeout, not the 30 s
    // the connection was allowed.
    let hung = l[0]["duration_secs"].as_f64().unwrap();
    assert!(hung < 5.0, "{}", l[0]);
    assert!(
        l[0]["error"]
            .as_str()
            .unwrap()
            .contains("gave up after 1 s (--timeout)"),
        "{}",
        l[0]
    );
    assert_eq!(l[1]["status"], "ok");
}

/// Regression test for JSON Lines kept to the end of the run: each
/// server's line is written as soon as it is judged, so a server still
/// being waited for holds no other server's line (and a run keeps no
/// report per server). With `-o` the file appears whole, at the end.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn jsonl_lines_are_written_as_servers_finish() {
    let Some(a) = TestServer::start("") else {
        return;
    };
    let (_hole, hole_port) = blackhole();
    let dir = tempfile::tempdir().unwrap();
    let inv = dir.path().join("fleet.txt");
    std::fs::write(
        &inv,
        format!("127.0.0.1:{hole_port} hung\n127.0.0.1:{} fine\n", a.port),
    )
    .unwrap();
    let args = |extra: &[&str]| {
        let mut v: Vec<String> = [
            "check",
            "--inventory",
            inv.to_str().unwrap(),
            "--no-defaults",
            "--user=root",
            "--connect-timeout=30",
            "--timeout=5s",
            "--format=jsonl",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let mut child = crate::support::run::mytune_command()
        .args(args(&[]))
        .env_remove("MYSQL_PWD")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The hung server is first in the inventory and ends last: its line
    // comes after the one of the server that answered.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut first).unwrap();
    let first: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(first["name"], "fine", "{first}");
    assert_eq!(first["status"], "ok", "{first}");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(2));
    let second: Value = serde_json::from_str(rest.trim()).unwrap();
    report_schema::validate(&second);
    assert_eq!(second["name"], "hung");
    assert_eq!(second["status"], "error");

    let file = dir.path().join("fleet.jsonl");
    let with_o = args(&["-o", file.to_str().unwrap()]);
    let out = mytune(&with_o.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    let written = std::fs::read_to_string(&file).unwrap();
    let names: Vec<String> = written
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            report_schema::validate(&v);
            v["name"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(names, ["fine", "hung"]);
    // Nothing is left beside it (the staged file was renamed).
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn a_password_is_never_printed() {
    let Some(a) = TestServer::start("") else {
        return;
    };
    a.sql("CREATE USER mon@'127.0.0.1' IDENTIFIED BY 'right-pw-4821'; GRANT PROCESS, REPLICATION CLIENT ON *.* TO mon@'127.0.0.1'")
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let inv = dir.path().join("fleet.txt");
    std::fs::write(&inv, format!("127.0.0.1:{} a\n", a.port)).unwrap();
    let cnf = dir.path().join("client.cnf");
    // The fleet's account in [client_fleet], read with --defaults-group-suffix
    // as the mysql client reads it; [client] alone has another password.
    std::fs::write(
        &cnf,
        "[client]\nuser=mon\npassword=wrong-pw-9917\n[client_fleet]\nuser=mon\npassword=right-pw-4821\n",
    )
    .unwrap();
    for (suffix, code) in [(None, 2), (Some("_fleet"), 1)] {
        let mut cmd = crate::support::run::mytune_command();
        cmd.args(["check", "--inventory", inv.to_str().unwrap()])
            .arg(format!("--defaults-file={}", cnf.display()))
            .args(["--format", "jsonl"])
            .env_remove("MYSQL_PWD")
            .env_remove("MYSQL_GROUP_SUFFIX");
        if let Some(sfx) = suffix {
            cmd.arg(format!("--defaults-group-suffix={sfx}"));
        }
        let out = cmd.output().unwrap();
        let all = text(&out.stdout) + &text(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{all}");
        assert!(!all.contains("pw-"), "{all}");
    }
}

#[test]
fn nothing_left_to_check_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let inv = dir.path().join("fleet.txt");
    std::fs::write(&inv, "# only bad lines\nhost:0\n/\x01 x y z\n").unwrap();
    let out = check_inventory(&inv, &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("fleet.txt:2:"), "{stderr}");
    assert!(stderr.contains("no server to check in"), "{stderr}");
    // A missing inventory is exit 2 with its name.
    let missing = check_inventory(&dir.path().join("nope.txt"), &[]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("nope.txt"));
    // json and markdown report one server.
    let json = check_inventory(&inv, &["--format", "json"]);
    assert_eq!(json.status.code(), Some(2));
    assert!(text(&json.stderr).contains("use text, jsonl or openmetrics"));
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn collect_writes_one_snapshot_per_server_for_check_later() {
    let Some(a) = TestServer::start("") else {
        return;
    };
    let closed = mariadb::free_port().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let inv = dir.path().join("fleet.txt");
    std::fs::write(
        &inv,
        format!(
            "127.0.0.1:{} db/alpha memory=8G\n127.0.0.1:{closed} down\n",
            a.port
        ),
    )
    .unwrap();
    let snaps = dir.path().join("snapshots");
    let out = mytune(&[
        "collect",
        "--inventory",
        inv.to_str().unwrap(),
        "--no-defaults",
        "--user=root",
        "--connect-timeout=1",
        "-o",
        snaps.to_str().unwrap(),
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("mytune: down: cannot connect to 127.0.0.1:"),
        "{stderr}"
    );
    assert!(stderr.contains("collected 1 of 2 servers into"), "{stderr}");
    let names: Vec<String> = std::fs::read_dir(&snaps)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["db_alpha.json"]);
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&snaps), 0o700);
    let snap = snaps.join("db_alpha.json");
    assert_eq!(mode(&snap), 0o600);

    // Judged offline later, with the host the inventory described.
    let later = mytune(&[
        "check",
        "--snapshot",
        snap.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_slice(&later.stdout).unwrap();
    report_schema::validate(&v);
    assert_eq!(v["host"]["memory"]["value"], 8u64 << 30);
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "MT702")
    );
}
