//! Issue 51, part 7: what a finding says about the log, the server or a
//! default is true. Each claim is pinned against the real server (a
//! throw-away `mariadbd`, see `tests/it/support/mariadb.rs`, and its own
//! `--verbose --help`) or the catalog of the product it names. The live
//! tests skip with a printed reason when mariadbd is not installed, unless
//! `MYTUNE_REQUIRE_LIVE=1`.

use crate::support::mariadb;
use crate::support::snapshots;

use std::process::{Command, Output};

use mariadb::TestServer;
use mytune::catalog::Catalog;
use mytune::rules::{EvalInput, Profile, RuleSet};
use mytune::target::{Flavor, Target, Version};
use serde_json::Value;

fn check(server: &TestServer, extra: &[&str]) -> Value {
    let out: Output = crate::support::run::mytune_command()
        .arg("check")
        .args(server.mytune_args())
        .args(extra)
        .args(["--format", "json"])
        .env_remove("MYSQL_PWD")
        .output()
        .expect("mytune runs");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)))
}

fn finding<'a>(v: &'a Value, code: &str) -> Option<&'a Value> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == code)
}

fn message<'a>(v: &'a Value, code: &str) -> &'a str {
    finding(v, code).unwrap_or_else(|| panic!("no {code}: {v:#}"))["message"]
        .as_str()
        .unwrap()
}

/// The default `mariadbd --no-defaults --verbose --help` prints for `option`.
fn mariadbd_default(option: &str) -> Option<String> {
    let mariadbd = mariadb::find_program("mariadbd", &["/usr/sbin/mariadbd"])?;
    let out = Command::new(mariadbd)
        .args(["--no-defaults", "--verbose", "--help"])
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).lines().find_map(|l| {
        let mut words = l.split_whitespace();
        (words.next() == Some(option)).then(|| words.next().unwrap_or("").to_string())
    })
}

/// MT411 names the product whose default it recommends, and the value is
/// that product's default in its catalog: 16M on MariaDB, 64M on MySQL and
/// Percona Server 8.0 and 8.4 (never MySQL 8.0's 64M on MariaDB).
#[test]
fn regression_51_mt411_recommends_the_products_own_default() {
    let rules = RuleSet::builtin().unwrap();
    let cases = [
        (Flavor::Mariadb, Version::new(10, 6, 0), "MariaDB's"),
        (Flavor::Mariadb, Version::new(10, 11, 0), "MariaDB's"),
        (Flavor::Mariadb, Version::new(11, 4, 0), "MariaDB's"),
        (Flavor::Mysql, Version::new(8, 0, 36), "MySQL 8.0's"),
        (Flavor::Mysql, Version::new(8, 4, 0), "MySQL 8.0's"),
        (Flavor::Percona, Version::new(8, 0, 36), "MySQL 8.0's"),
    ];
    for (flavor, version, product) in cases {
        let target = Target::new(flavor, version);
        let catalog = Catalog::for_target(&target).expect("a catalog");
        let default = catalog
            .get("max_allowed_packet")
            .and_then(|v| v.default.clone())
            .expect("a catalog default");
        let mut facts = snapshots::snapshot("conmem-busy-mariadb1011-32g-16cpu.json");
        let s = snapshots::server(&mut facts);
        s.flavor = flavor;
        s.version = version;
        s.variables
            .insert("max_allowed_packet".into(), "4194304".into());
        let ev = rules.evaluate(&EvalInput::new(&facts, &Profile::default()));
        let f = snapshots::one(&ev, "MT411", "max_allowed_packet");
        let recommended = mytune::units::parse_size(f.recommended.as_deref().unwrap()).unwrap();
        assert_eq!(
            recommended.to_string(),
            default,
            "{flavor:?} {version}: {}",
            f.message
        );
        assert!(
            f.message.contains(&format!("is {product} default")),
            "{flavor:?} {version}: {}",
            f.message
        );
    }
}

/// The real server's default is the one MT411 cites, and a server below
/// it gets it.
#[test]
fn regression_51_mt411_matches_the_real_mariadbd_default() {
    let Some(server) = TestServer::start("max_allowed_packet = 4M") else {
        return;
    };
    let default = mariadbd_default("max-allowed-packet").expect("mariadbd prints its defaults");
    assert_eq!(default, "16777216");
    let v = check(&server, &[]);
    let f = finding(&v, "MT411").unwrap_or_else(|| panic!("MT411: {v:#}"));
    assert_eq!(f["recommended"], "16M", "{f:#}");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("16M is MariaDB's default"),
        "{f:#}"
    );
}

/// MT708 says what the server's local_infile does, as the real server
/// shows: OFF refuses LOAD DATA LOCAL from a client that allows it, ON
/// accepts it, and a client that refuses is refused whatever the server
/// says (its own setting, not the server's, guards it).
#[test]
fn regression_51_mt708_describes_the_servers_setting() {
    let Some(server) = TestServer::start("local_infile = ON") else {
        return;
    };
    let file = server.dir().join("rows.csv");
    std::fs::write(&file, "1,a\n").unwrap();
    server
        .sql("CREATE DATABASE app; CREATE TABLE app.t (id INT, v CHAR(5))")
        .unwrap();
    let load = |client_allows: bool| {
        let mut cmd = server.client();
        cmd.arg(format!("--local-infile={}", u8::from(client_allows)))
            .arg("-e")
            .arg(format!(
                "LOAD DATA LOCAL INFILE '{}' INTO TABLE app.t FIELDS TERMINATED BY ','",
                file.display()
            ));
        let out = cmd.output().expect("the client runs");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert!(load(true).0, "ON: {}", load(true).1);
    let (ok, err) = load(false);
    assert!(
        !ok && err.contains("ERROR 4166"),
        "the client's own setting: {err}"
    );
    let v = check(&server, &[]);
    let msg = message(&v, "MT708");
    assert!(!msg.contains("hostile server read"), "{msg}");
    assert!(
        msg.contains("stops clients loading local files into this server"),
        "{msg}"
    );
    server.sql("SET GLOBAL local_infile = OFF").unwrap();
    let (ok, err) = load(true);
    assert!(
        !ok && err.contains("ERROR 4166"),
        "the server's setting: {err}"
    );
    assert!(finding(&check(&server, &[]), "MT708").is_none());
}

/// MT502 lowers long_query_time only for a slow log that is on or that
/// this report turns on (MT501); with the log off and left off it is
/// silent. Slow_queries counts either way, so MT503 is not affected.
#[test]
fn regression_51_mt502_only_with_the_slow_log_on() {
    let Some(server) = TestServer::start("slow_query_log = OFF\nlong_query_time = 10") else {
        return;
    };
    let lean = check(&server, &["--observability", "lean"]);
    assert!(finding(&lean, "MT501").is_none(), "{lean:#}");
    assert!(finding(&lean, "MT502").is_none(), "{lean:#}");
    // The default profile leaves it off on a fresh server (too few
    // statements to weigh its cost): nothing about the threshold.
    let standard = check(&server, &[]);
    assert!(finding(&standard, "MT501").is_none(), "{standard:#}");
    assert!(finding(&standard, "MT502").is_none(), "{standard:#}");
    // observability full asks for the log (MT501), so the threshold
    // matters: the plan sets both.
    let full = check(&server, &["--observability", "full"]);
    assert!(finding(&full, "MT501").is_some(), "{full:#}");
    assert!(finding(&full, "MT502").is_some(), "{full:#}");
    server.sql("SET GLOBAL slow_query_log = ON").unwrap();
    let on = check(&server, &["--observability", "lean"]);
    assert_eq!(
        finding(&on, "MT502").expect("MT502 with the log on")["recommended"],
        "1"
    );
}

/// MT012 cites "Could not increase number of max_open_files" only when
/// the error log holds it, and then MT018 reports it too. The server
/// writes the line to standard error before it opens its log: started as
/// mysqld_safe starts it, that is the log; under systemd it is the journal
/// (here: the same log without the lines written to standard error).
#[test]
fn regression_51_mt012_cites_the_error_log_only_when_it_says_so() {
    let Some(server) = TestServer::start_with_nofile("open_files_limit = 5000", 1024) else {
        return;
    };
    let cnf = server.dir().join("my.cnf").display().to_string();
    let log_path = server.dir().join("error.log");
    let log = std::fs::read_to_string(&log_path).unwrap();
    assert!(
        log.contains("Could not increase number of max_open_files"),
        "{log}"
    );
    let v = check(&server, &["--config", &cnf]);
    let msg = message(&v, "MT012");
    assert!(msg.starts_with("open_files_limit is 1024"), "{msg}");
    assert!(
        msg.contains("as the error log says at the current start ('Could not increase number of max_open_files to more than 1024"),
        "{msg}"
    );
    assert!(finding(&v, "MT018").is_some(), "{v:#}");

    // The same log without what went to standard error.
    let journal_elsewhere: String = log
        .lines()
        .filter(|l| {
            !l.contains("Could not increase number of max_open_files")
                && !l.contains("Changed limits")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&log_path, journal_elsewhere).unwrap();
    let v = check(&server, &["--config", &cnf]);
    let msg = message(&v, "MT012");
    assert!(msg.contains("caps it"), "{msg}");
    assert!(!msg.contains("error log"), "{msg}");
    assert!(finding(&v, "MT018").is_none(), "{v:#}");
}
