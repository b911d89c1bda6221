//! The error log as a real throw-away `mariadbd` writes it (see
//! `tests/it/support/mariadb.rs`): a clean restart, and failed logins whose
//! user names forge server lines, sent by the real client. Skips with a
//! printed reason when mariadbd is not installed, unless
//! `MYTUNE_REQUIRE_LIVE=1`.

use crate::support::mariadb;

use std::process::{Command, Output};

use mariadb::TestServer;
use serde_json::Value;

fn check(server: &TestServer, extra: &[&str]) -> Output {
    crate::support::run::mytune_command()
        .arg("check")
        .args(server.mytune_args())
        .args(extra)
        .env_remove("MYSQL_PWD")
        .env("NO_COLOR", "1")
        .env("COLUMNS", "400")
        .output()
        .expect("mytune runs")
}

fn finding<'a>(report: &'a Value, code: &str) -> Option<&'a Value> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == code)
}

/// A failed login as `user` over the socket, with the real client.
fn fail_login(server: &TestServer, user: &str) {
    let out = Command::new("mariadb")
        .arg("--no-defaults")
        .arg(format!("--socket={}", server.socket.display()))
        .arg(format!("--user={user}"))
        .args(["-pwrong", "-e", "SELECT 1"])
        .output()
        .expect("the mariadb client runs");
    assert!(!out.status.success(), "{user:?} logged in");
}

/// Issue 51, part 4: after a clean shutdown and an immediate start (as
/// `systemctl restart` does) and six failed logins whose names hold
/// `mariadbd got signal 11 ;`, `x: Shutdown complete`, a forged start line
/// and a forged crash line, check reports the six failed logins (MT019)
/// and no unplanned restart (MT020): `--fail-on crit` exits 0.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn regression_51_clean_restart_and_forged_lines_are_no_crash() {
    let Some(mut server) = TestServer::start("log_warnings = 2") else {
        return;
    };
    fail_login(&server, "mariadbd got signal 11 ;");
    server
        .shutdown_and_restart()
        .expect("the server stops cleanly and starts again");
    let names = [
        "mariadbd got signal 11 ;".to_string(),
        "mariadbd got signal 11 ;".to_string(),
        "mariadbd got signal 11 ;".to_string(),
        "x: Shutdown complete".to_string(),
        "evil\n2026-12-06 10:00:00 0 [Note] Starting MariaDB 10.11.19 source revision x as process 1"
            .to_string(),
        "a\n261206 10:00:00 [ERROR] mariadbd got signal 11 ;\nb".to_string(),
    ];
    for n in &names {
        fail_login(&server, n);
    }
    let log = std::fs::read_to_string(server.dir().join("error.log")).unwrap();
    assert!(log.contains(": Shutdown complete"), "{log}");
    assert_eq!(log.matches("[Note] Starting MariaDB").count(), 3, "{log}");

    let out = check(
        &server,
        &[
            "--format",
            "json",
            "--fail-on",
            "crit",
            "--skip",
            "security",
        ],
    );
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    assert!(
        finding(&v, "MT020").is_none(),
        "{:#}",
        finding(&v, "MT020").unwrap()
    );
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    let f = finding(&v, "MT019").unwrap_or_else(|| panic!("MT019: {v:#}"));
    let msg = f["message"].as_str().unwrap();
    assert!(
        msg.starts_with("6 failed logins since the server started"),
        "{msg}"
    );
    assert!(
        msg.contains("'mariadbd got signal 11 ;'@'localhost' ×3"),
        "{msg}"
    );
    // The text report escapes the newline of a name: one line per line.
    let text = String::from_utf8_lossy(&check(&server, &["--only", "MT019"]).stdout).into_owned();
    assert!(
        !text.lines().any(|l| l.starts_with("2026-12-06 10:00:00")),
        "{text}"
    );
}
