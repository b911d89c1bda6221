//! What `check` says with a low-privilege account on a throw-away mariadbd
//! (see `tests/it/support/mariadb.rs`): a fact the account cannot read is
//! unknown, never zero, and the README's monitoring account reads all of
//! them. Skips with a printed reason when mariadbd is not installed, unless
//! `MYTUNE_REQUIRE_LIVE=1`.

use crate::support::mariadb;

use mariadb::TestServer;
use serde_json::Value;

/// `check --format json` as `user` (password `pw`) over the socket.
fn check_as(server: &TestServer, user: &str) -> Value {
    let out = crate::support::run::mytune_command()
        .arg("check")
        .arg("--no-defaults")
        .arg(format!("--socket={}", server.socket.display()))
        .arg(format!("--user={user}"))
        .args(["--format", "json", "--skip", "security", "-v"])
        .env("MYSQL_PWD", "pw")
        .output()
        .expect("mytune runs");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)))
}

fn findings<'a>(v: &'a Value, code: &str) -> Vec<&'a str> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == code)
        .map(|f| f["message"].as_str().unwrap())
        .collect()
}

/// The GRANT lines of the README's monitoring account.
fn readme_grants() -> Vec<String> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme
        .split("## A monitoring account")
        .nth(1)
        .expect("the README documents a monitoring account");
    let block = section.split("```").nth(1).expect("its SQL block");
    block
        .lines()
        .filter(|l| l.starts_with("GRANT "))
        .map(|l| l.split(';').next().unwrap().to_string())
        .collect()
}

/// Issue 51, part 5: with `GRANT PROCESS` only, information_schema.TABLES
/// shows no table. check said "no user tables" and "InnoDB holds 0 bytes"
/// and sized the pool for no data; now the data size is unknown, MT016
/// says so with the grant that reads it, and no rule advises from it. The
/// README's monitoring account reads everything: no MT016.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn regression_51_a_process_only_account_leaves_the_data_size_unknown() {
    let Some(server) = TestServer::start("") else {
        return;
    };
    server.load_innodb_data(12);
    server
        .sql("CREATE USER mon@localhost IDENTIFIED BY 'pw'; GRANT PROCESS ON *.* TO mon@localhost")
        .expect("create the PROCESS-only account");
    let v = check_as(&server, "mon");
    let data = &v["context"]["data"];
    assert_eq!(data["complete"], false, "{data}");
    let gaps = findings(&v, "MT016");
    let size_gap = gaps
        .iter()
        .find(|m| m.starts_with("the data size per engine"))
        .unwrap_or_else(|| panic!("no MT016 for the data size: {gaps:?}"));
    assert!(
        size_gap.contains("SHOW VIEW (or SELECT) on *.*"),
        "{size_gap}"
    );
    assert!(size_gap.contains("unknown, not zero"), "{size_gap}");
    for f in v["findings"].as_array().unwrap() {
        let m = f["message"].as_str().unwrap();
        assert!(
            !m.contains("holds 0 bytes") && !m.contains("no user table"),
            "advice from a missing fact: {f:#}"
        );
    }
    assert!(findings(&v, "MT128").is_empty(), "{v:#}");
    // The data size against the pool (MT104) is not judged on a zero.
    let mt104: Vec<&str> = v["not_applicable"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["code"] == "MT104")
        .map(|n| n["reason"].as_str().unwrap())
        .collect();
    assert!(
        mt104
            .iter()
            .any(|r| r.contains("the InnoDB data size is unknown")),
        "{mt104:?}"
    );
    assert!(findings(&v, "MT409").is_empty(), "{v:#}");
    for m in findings(&v, "MT101") {
        assert!(m.contains("the InnoDB data size is unknown"), "{m}");
    }

    // The README's grants, to an account with a password.
    server
        .sql("CREATE USER mytune@localhost IDENTIFIED BY 'pw'")
        .expect("create the monitoring account");
    for g in readme_grants() {
        server.sql(&g).unwrap_or_else(|e| panic!("{g}: {e}"));
    }
    let v = check_as(&server, "mytune");
    assert!(
        findings(&v, "MT016").is_empty(),
        "{:?}",
        findings(&v, "MT016")
    );
    let data = &v["context"]["data"];
    assert_eq!(data["complete"], true, "{data}");
    assert!(
        data["engines"][0]["bytes"].as_u64().unwrap() > 1 << 20,
        "{data}"
    );
}
