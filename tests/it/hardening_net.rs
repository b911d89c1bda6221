//! Issue 14's hostile servers and secrets over the wire, against the binary.
//!
//! The misbehaving servers are local `TcpListener`s on 127.0.0.1 inside each
//! test (one that accepts and never answers, one that sends a byte every
//! 1.5 s); the others are throw-away `mariadbd`s (one killed 3 s into
//! `--interval 10s`, one with `report_password` set). Every run is bounded in
//! time. Live tests skip visibly without `mariadbd` and are required with
//! `MYTUNE_REQUIRE_LIVE=1`.

use crate::support::mariadb;

use crate::support::run::stderr;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

/// Run mytune with no option files and no MYSQL_PWD; fail the test if it is
/// still running after `limit`.
fn run(args: &[&str], limit: Duration) -> (Output, Duration) {
    let start = Instant::now();
    let mut child = crate::support::run::mytune_command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mytune");
    loop {
        if child.try_wait().unwrap().is_some() {
            let out = child.wait_with_output().unwrap();
            return (out, start.elapsed());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mytune {args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A server on 127.0.0.1 that runs `serve` on each connection, on its own
/// thread (the threads end with the test process).
fn hostile_server(serve: fn(std::net::TcpStream)) -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            std::thread::spawn(move || serve(s));
        }
    });
    port
}

/// Accept, then say nothing until the client goes away.
fn silent(mut s: std::net::TcpStream) {
    let mut buf = [0u8; 64];
    while matches!(s.read(&mut buf), Ok(n) if n > 0) {}
}

/// A plausible start of a MariaDB handshake, one byte every 1.5 s.
fn dripping(mut s: std::net::TcpStream) {
    let greeting = b"\x5b\x00\x00\x00\x0a5.5.5-10.11.19-MariaDB\x00";
    for b in greeting.iter().cycle().take(200) {
        if s.write_all(&[*b]).is_err() {
            return;
        }
        std::thread::sleep(Duration::from_millis(1500));
    }
}

fn tcp_args(port: u16) -> Vec<String> {
    vec![
        "check".into(),
        "--no-defaults".into(),
        "-h".into(),
        "127.0.0.1".into(),
        "-P".into(),
        port.to_string(),
        "-u".into(),
        "root".into(),
    ]
}

#[test]
fn a_server_that_never_answers_fails_within_the_connect_timeout_in_words() {
    let port = hostile_server(silent);
    let mut args = tcp_args(port);
    args.extend(["--connect-timeout".into(), "2".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (o, took) = run(&args, Duration::from_secs(20));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(took < Duration::from_secs(5), "took {took:?}: {err}");
    assert!(err.contains("timed out after 2 s"), "{err}");
    for raw in ["CodecError", "IoError", "os error 11", "DriverError"] {
        assert!(!err.contains(raw), "raw driver text {raw}: {err}");
    }
}

#[test]
fn a_server_sending_a_byte_every_1_5_s_fails_within_the_connect_timeout() {
    let port = hostile_server(dripping);
    let mut args = tcp_args(port);
    args.extend([
        "--connect-timeout".into(),
        "2".into(),
        "--read-timeout".into(),
        "3".into(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (o, took) = run(&args, Duration::from_secs(20));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(took < Duration::from_secs(5), "took {took:?}: {err}");
    assert!(err.contains("timed out after 2 s"), "{err}");
}

#[test]
fn the_overall_timeout_bounds_the_whole_run() {
    let port = hostile_server(silent);
    let mut args = tcp_args(port);
    args.extend([
        "--connect-timeout".into(),
        "30".into(),
        "--timeout".into(),
        "1s".into(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (o, took) = run(&args, Duration::from_secs(20));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(took < Duration::from_secs(4), "took {took:?}: {err}");
    assert!(err.contains("timed out after 1 s"), "{err}");
}

#[test]
fn zero_timeouts_are_refused_not_taken_as_no_limit() {
    let port = hostile_server(silent);
    for extra in [
        &["--read-timeout", "0"][..],
        &["--connect-timeout", "0"],
        &["--timeout", "0s"],
        &["--data-size-timeout", "0ms"],
    ] {
        let mut args = tcp_args(port);
        args.extend(extra.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (o, took) = run(&args, Duration::from_secs(20));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(took < Duration::from_secs(3), "{extra:?} took {took:?}");
        assert!(
            err.contains("would wait forever") || err.contains("would mean no limit"),
            "{extra:?}: {err}"
        );
    }
}

#[test]
fn a_missing_ssl_ca_file_is_named_as_such() {
    let port = hostile_server(silent);
    let mut args = tcp_args(port);
    args.extend([
        "--ssl-mode".into(),
        "VERIFY_CA".into(),
        "--ssl-ca".into(),
        "/nonexistent.pem".into(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (o, _) = run(&args, Duration::from_secs(20));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--ssl-ca /nonexistent.pem: no such file"),
        "{err}"
    );
    assert!(!err.contains("nothing is listening"), "{err}");
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn a_server_killed_during_the_interval_is_reported_at_once_in_words() {
    let Some(server) = mariadb::TestServer::start("") else {
        return;
    };
    let mut args: Vec<String> = vec!["collect".into()];
    args.extend(server.mytune_args());
    args.extend(["--interval".into(), "10s".into(), "--no-host".into()]);
    let killer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(3));
        drop(server);
    });
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (o, took) = run(&args, Duration::from_secs(30));
    killer.join().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(took < Duration::from_secs(6), "took {took:?}: {err}");
    assert!(err.contains("the server stopped answering"), "{err}");
    assert!(
        !err.contains("IoError") && !err.contains("CodecError"),
        "{err}"
    );
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn snapshots_keep_no_credential_and_are_owner_only() {
    let Some(server) =
        mariadb::TestServer::start("report_password = SECRET123\nreport_user = repl")
    else {
        return;
    };
    server
        .sql("CREATE USER 'pw'@'localhost' IDENTIFIED BY 'hunter22'")
        .unwrap();
    let hash = server.sql("SELECT PASSWORD('hunter22')").unwrap();
    let hash = hash.trim();
    let out = server.dir().join("snap.json");
    let mut args: Vec<String> = vec!["collect".into()];
    args.extend(server.mytune_args());
    args.extend([
        "--no-host".into(),
        "--out".into(),
        out.display().to_string(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (o, _) = run(&args, Duration::from_secs(30));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("SECRET123"), "report_password stored");
    assert!(!text.contains(hash), "a password hash stored");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v["server"]["variables"]["report_password"],
        "(set; value not stored)"
    );
    assert_eq!(v["server"]["variables"]["report_user"], "repl");
    // The audit still tells accounts with and without a password apart.
    let without: Vec<String> = v["server"]["accounts"]["without_password"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            format!(
                "{}@{}",
                a["user"].as_str().unwrap(),
                a["host"].as_str().unwrap()
            )
        })
        .collect();
    assert!(without.iter().any(|a| a == "root@localhost"), "{without:?}");
    assert!(!without.iter().any(|a| a.starts_with("pw@")), "{without:?}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn the_account_audit_query_sends_no_hash_over_the_wire() {
    let Some(server) = mariadb::TestServer::start("") else {
        return;
    };
    server
        .sql("CREATE USER 'pw'@'%' IDENTIFIED BY 'hunter22'")
        .unwrap();
    server
        .sql("CREATE USER 'alt'@'%' IDENTIFIED VIA mysql_native_password USING PASSWORD('x1y2z3') OR unix_socket")
        .unwrap();
    // The plain statement and the one the collector sends, with the proxy
    // grants and loopback logins folded in.
    let folded = mytune::collect::server::accounts_sql(
        mytune::target::Flavor::Mariadb,
        mytune::target::Version::new(10, 11, 0),
    );
    for sql in [mytune::collect::server::GLOBAL_PRIV_SQL, folded.as_str()] {
        let rows = server.sql(sql).unwrap();
        assert!(rows.contains("pw\t%"), "{rows}");
        assert!(
            rows.contains("\"authentication_string\":\"*\""),
            "the hashes are replaced on the server: {rows}"
        );
        for pw in ["hunter22", "x1y2z3"] {
            let hash = server.sql(&format!("SELECT PASSWORD('{pw}')")).unwrap();
            assert!(!rows.contains(hash.trim()), "hash of {pw} in {rows}");
        }
    }
    assert!(Path::new(&server.socket).exists());
}

#[test]
fn a_password_on_the_command_line_prints_the_mysql_clients_warning() {
    let port = hostile_server(silent);
    let mut args = tcp_args(port);
    args.extend(["-pSECRET123".into(), "--connect-timeout".into(), "1".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (o, _) = run(&args, Duration::from_secs(20));
    let err = stderr(&o);
    assert!(
        err.contains("Using a password on the command line interface can be insecure."),
        "{err}"
    );
    assert!(!err.contains("SECRET123"), "{err}");
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn parts_skipped_for_a_missing_privilege_are_warn_findings_naming_it() {
    let Some(server) = mariadb::TestServer::start("") else {
        return;
    };
    server
        .sql("CREATE USER lowpriv@localhost IDENTIFIED BY 'low-pass-42'")
        .unwrap();
    let o = crate::support::run::mytune_command()
        .args([
            "check",
            "--no-defaults",
            "-S",
            server.socket.to_str().unwrap(),
            "-u",
            "lowpriv",
            "--format",
            "json",
        ])
        .env("MYSQL_PWD", "low-pass-42")
        .output()
        .unwrap();
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}", stderr(&o)));
    let mt014: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "MT016")
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert!(
        mt014
            .iter()
            .any(|m| m.contains("needs SELECT on mysql.global_priv")),
        "{mt014:?}"
    );
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "MT016" && f["severity"] == "warn")
    );
    // The default gate (--fail-on warn) does not pass on what was never read.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}
