//! `skip_name_resolve = ON` only when no login depends on names (issue 50,
//! point 4), against throw-away mariadbd servers (`tests/it/support/mariadb.rs`).
//!
//! The servers resolve client names (`skip_name_resolve = OFF` after the
//! harness's own `ON`; later lines win) and listen on 0.0.0.0, beyond
//! loopback, so MT208 applies; the template's host-name accounts (root and
//! the anonymous account at this machine's name) are dropped first, so each
//! test starts from no login that depends on names and adds its own:
//!
//! - a host-name account keeps the switch out of `check` (text and JSON) and
//!   MT208 names it; only IP, `%` and `localhost` accounts let it in;
//! - a `localhost` account used over TCP 127.0.0.1 keeps it out until the
//!   user has an account at 127.0.0.1;
//! - `gen-cnf` without a server writes the line commented out with the
//!   condition; `--from-server` names the account, and writes the line only
//!   when no login depends on names;
//! - a real restart with the uncommented line shows why: the server ignores
//!   the host-name account and refuses the `localhost` account over TCP;
//! - the logins that restart refuses are not blamed on max_connect_errors.
//!
//! They skip with a printed reason when mariadbd is not installed, unless
//! `MYTUNE_REQUIRE_LIVE=1`.

use crate::support::mariadb;
use crate::support::report_schema;

use std::path::Path;
use std::process::Output;

use crate::support::run::stdout;
use mariadb::TestServer;
use mytune::cnf;
use mytune::collect::connect::{self, Secret};
use mytune::facts::Facts;
use mytune::facts::host::DiskKind;
use mytune::generate::{self, cnf::Origin};
use mytune::rules::{Profile, RuleSet};
use serde_json::Value;

/// A server that resolves names and listens beyond loopback, without the
/// template's host-name accounts.
fn resolving_server() -> Option<TestServer> {
    let server = TestServer::start_bound("skip_name_resolve = OFF", "0.0.0.0")?;
    let names = server
        .sql(
            "SELECT CONCAT(QUOTE(User), '@', QUOTE(Host)) FROM mysql.global_priv \
             WHERE Host NOT IN ('localhost', '127.0.0.1', '::1', '')",
        )
        .expect("list accounts");
    for account in names.lines() {
        server
            .sql(&format!("DROP USER {account}"))
            .expect("drop a host-name account");
    }
    let left = server
        .sql("SELECT COUNT(*) FROM mysql.proxies_priv WHERE Host NOT IN ('localhost', '127.0.0.1', '::1', '')")
        .unwrap();
    assert_eq!(left.trim(), "0", "proxy grants of the dropped accounts");
    Some(server)
}

fn mytune(args: &[&str]) -> Output {
    crate::support::run::mytune_command()
        .args(args)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "400")
        .output()
        .expect("mytune runs")
}

fn check(server: &TestServer, extra: &[&str]) -> Output {
    let mut args = vec!["check".to_string()];
    args.extend(server.mytune_args());
    args.extend(extra.iter().map(|s| s.to_string()));
    mytune(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

fn check_json(server: &TestServer) -> Value {
    let o = check(server, &["--format", "json", "-v"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}):\n{}\n{}",
            stdout(&o),
            String::from_utf8_lossy(&o.stderr)
        )
    });
    report_schema::validate(&v);
    v
}

fn finding<'a>(report: &'a Value, code: &str) -> Option<&'a Value> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == code)
}

/// The MT208 finding, which must be there (the server resolves names and
/// listens beyond loopback).
fn mt208(report: &Value) -> &Value {
    finding(report, "MT208").unwrap_or_else(|| panic!("no MT208: {report:#}"))
}

fn suggests_skip_name_resolve(report: &Value) -> bool {
    report["suggested_changes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["variable"] == "skip_name_resolve")
}

/// The text report's suggested-changes block (empty when it has none).
fn paste_block(text: &str) -> &str {
    text.find("Suggested changes:").map_or("", |i| &text[i..])
}

/// A connection over TCP to 127.0.0.1, kept open by the caller.
fn tcp_login(server: &TestServer, user: &str, password: &str) -> Result<mysql::Conn, String> {
    let mut cfg = server.connection(user, Some(password));
    cfg.host = Some("127.0.0.1".into());
    cfg.port = server.port;
    cfg.socket = None;
    cfg.password = Some(Secret::new(password));
    connect::open(&cfg).map_err(|e| e.to_string())
}

fn socket_login(server: &TestServer, user: &str, password: &str) -> Result<mysql::Conn, String> {
    connect::open(&server.connection(user, Some(password))).map_err(|e| e.to_string())
}

fn gen_cnf(args: &[&str]) -> String {
    let mut all = vec!["gen-cnf"];
    all.extend(args);
    let out = mytune(&all);
    assert!(
        out.status.success(),
        "gen-cnf {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout(&out)
}

fn gen_cnf_from(server: &TestServer) -> String {
    let socket = server.socket.to_str().unwrap().to_string();
    gen_cnf(&[
        "--from-server",
        "--no-defaults",
        "-S",
        &socket,
        "-u",
        "root",
        "--memory",
        "2G",
    ])
}

/// The comment block right above `# skip_name_resolve = ON`, as one line.
fn withheld_comment(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let i = lines
        .iter()
        .position(|l| *l == "# skip_name_resolve = ON")
        .unwrap_or_else(|| panic!("no commented skip_name_resolve line:\n{text}"));
    let mut block: Vec<&str> = lines[..i]
        .iter()
        .rev()
        .take_while(|l| l.starts_with("# ") && !l.starts_with("# MT") || l.starts_with("# MT208"))
        .copied()
        .collect();
    block.reverse();
    block
        .iter()
        .map(|l| l.trim_start_matches("# "))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The options a server reading `group` takes from `text`.
fn options(text: &str, group: &str) -> Vec<String> {
    let loaded = cnf::load_str(text, Path::new("generated.cnf"));
    assert!(loaded.errors.is_empty(), "{:?}\n{text}", loaded.errors);
    loaded
        .effective(&[group.to_string()])
        .options
        .into_keys()
        .collect()
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn a_host_name_account_keeps_skip_name_resolve_out_of_check_and_mt208_names_it() {
    let Some(server) = resolving_server() else {
        return;
    };
    server
        .sql("CREATE USER 'app'@'web1.example.com' IDENTIFIED BY 'secret'")
        .expect("create user");

    let v = check_json(&server);
    assert!(
        !suggests_skip_name_resolve(&v),
        "{:#}",
        v["suggested_changes"]
    );
    let f = mt208(&v);
    assert!(f["recommended"].is_null(), "{f:#}");
    assert_eq!(f["current"], "OFF", "{f:#}");
    let message = f["message"].as_str().unwrap();
    assert!(
        message.contains(
            "but 1 login(s) would stop matching under skip_name_resolve = ON: 'app'@'web1.example.com' (host name); recreate each by IP address first"
        ),
        "{message}"
    );
    // Other changes are still suggested: only this one is held back.
    assert!(
        !v["suggested_changes"].as_array().unwrap().is_empty(),
        "{v:#}"
    );

    let text = stdout(&check(&server, &[]));
    let block = paste_block(&text);
    assert!(!block.is_empty(), "{text}");
    assert!(!block.contains("skip_name_resolve"), "{block}");
    let row = text
        .lines()
        .find(|l| l.contains("MT208"))
        .unwrap_or_else(|| panic!("no MT208 row: {text}"));
    assert!(!row.contains("→"), "MT208 recommends nothing: {row}");
    assert!(text.contains("'app'@'web1.example.com'"), "{text}");
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn only_ip_any_host_and_localhost_accounts_let_skip_name_resolve_in() {
    let Some(server) = resolving_server() else {
        return;
    };
    server
        .sql(
            "CREATE USER 'net'@'10.0.0.%' IDENTIFIED BY 'a'; \
             CREATE USER 'ops'@'%' IDENTIFIED BY 'b'; \
             CREATE USER 'mask'@'192.168.1.0/255.255.255.0' IDENTIFIED BY 'c'; \
             CREATE USER 'loc'@'localhost' IDENTIFIED BY 'd';",
        )
        .expect("create users");
    // A localhost client over the socket is localhost whatever the setting.
    let _socket = socket_login(&server, "loc", "d").expect("loc logs in over the socket");

    let v = check_json(&server);
    let change = v["suggested_changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["variable"] == "skip_name_resolve")
        .unwrap_or_else(|| panic!("no skip_name_resolve change: {v:#}"));
    assert_eq!(change["value"], "ON");
    assert_eq!(change["code"], "MT208");
    let f = mt208(&v);
    assert_eq!(f["recommended"], "ON", "{f:#}");
    assert!(
        f["message"].as_str().unwrap().contains(
            "no account, role, proxy grant or TCP loopback login depends on a host name: set skip_name_resolve = ON"
        ),
        "{f:#}"
    );
    let text = stdout(&check(&server, &[]));
    assert!(
        paste_block(&text).contains("\nskip_name_resolve = ON  # MT208\n"),
        "{text}"
    );
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn a_localhost_account_used_over_tcp_loopback_keeps_skip_name_resolve_out() {
    let Some(server) = resolving_server() else {
        return;
    };
    server
        .sql("CREATE USER 'tcp'@'localhost' IDENTIFIED BY 'pw'")
        .expect("create user");
    // With names resolved, the TCP client on 127.0.0.1 is `localhost`.
    let mut conn = tcp_login(&server, "tcp", "pw").expect("tcp@localhost logs in over TCP");
    let me: String = mysql::prelude::Queryable::query_first(&mut conn, "SELECT CURRENT_USER()")
        .unwrap()
        .unwrap();
    assert_eq!(me, "tcp@localhost");

    let v = check_json(&server);
    assert!(
        !suggests_skip_name_resolve(&v),
        "{:#}",
        v["suggested_changes"]
    );
    let message = mt208(&v)["message"].as_str().unwrap().to_string();
    assert!(
        message.contains(
            "'tcp'@'localhost' (used over TCP loopback, seen as localhost:PORT; no 'tcp'@'127.0.0.1' or 'tcp'@'::1' account)"
        ),
        "{message}"
    );

    // The same user at 127.0.0.1 keeps the client in after the switch.
    server
        .sql("CREATE USER 'tcp'@'127.0.0.1' IDENTIFIED BY 'pw'")
        .expect("create the twin");
    let v = check_json(&server);
    assert!(suggests_skip_name_resolve(&v), "{:#}", mt208(&v));
    drop(conn);
}

#[test]
fn gen_cnf_without_a_server_writes_skip_name_resolve_commented_out() {
    for (target, group) in [("mariadb-10.11", "mariadb"), ("mysql-8.0", "mysqld")] {
        let text = gen_cnf(&[
            "--target", target, "--memory", "8G", "--cpus", "4", "--disk", "ssd",
        ]);
        assert!(
            !options(&text, group).contains(&"skip_name_resolve".to_string()),
            "{target}: the server would read skip_name_resolve:\n{text}"
        );
        let comment = withheld_comment(&text);
        assert!(
            comment.starts_with("MT208 name-resolve-enabled: "),
            "{comment}"
        );
        assert!(
            comment.ends_with(
                "Commented out: uncomment once no account is defined by host name; check with SELECT user, host FROM mysql.user."
            ),
            "{target}: {comment}"
        );
    }

    // Generating again on the generated file writes the block once.
    let rules = RuleSet::builtin().unwrap();
    let target = "mariadb-10.11".parse().unwrap();
    let facts = Facts {
        host: Some(mytune::collect::host::describe(
            &mytune::collect::host::HostDescription {
                memory_bytes: Some(8 << 30),
                cpus: Some(4),
                disk: Some(DiskKind::Ssd),
            },
            None,
        )),
        ..Facts::default()
    };
    let plan = generate::plan::build(&rules, &facts, &Profile::default(), target).unwrap();
    let first = generate::cnf::render(&plan, &["test".into()], None, Origin::Defaults).unwrap();
    let mut facts2 = facts.clone();
    facts2.config =
        Some(cnf::load_str(&first, Path::new("first.cnf")).effective(&cnf::server_groups(&target)));
    let plan2 = generate::plan::build(&rules, &facts2, &Profile::default(), target).unwrap();
    let second = generate::cnf::render(&plan2, &[], Some(&first), Origin::BaseFile).unwrap();
    assert_eq!(
        second.matches("\n# skip_name_resolve = ON\n").count(),
        1,
        "{second}"
    );
    assert_eq!(second.matches("Commented out:").count(), 1, "{second}");

    // Once the value is offered (the plan sets it), the block gives way to
    // the line.
    let withheld = plan.withheld["skip_name_resolve"].setting.clone();
    let mut offered = plan.clone();
    offered.withheld.clear();
    offered
        .settings
        .insert("skip_name_resolve".into(), withheld);
    let third = generate::cnf::render(&offered, &[], Some(&first), Origin::BaseFile).unwrap();
    assert!(!third.contains("# skip_name_resolve"), "{third}");
    assert!(!third.contains("Commented out:"), "{third}");
    assert!(third.contains("\nskip_name_resolve = ON\n"), "{third}");
    assert!(
        options(&third, "mariadb").contains(&"skip_name_resolve".to_string()),
        "{third}"
    );
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn gen_cnf_from_server_names_the_host_name_account_and_writes_the_line_only_without_one() {
    let Some(server) = resolving_server() else {
        return;
    };
    server
        .sql("CREATE USER 'app'@'web1.example.com' IDENTIFIED BY 'secret'")
        .expect("create user");
    let text = gen_cnf_from(&server);
    assert!(
        !options(&text, "mariadb").contains(&"skip_name_resolve".to_string()),
        "{text}"
    );
    let comment = withheld_comment(&text);
    assert!(
        comment.contains(
            "Commented out: uncomment once these logins no longer depend on host names (recreate each by IP address first): 'app'@'web1.example.com' (host name)."
        ),
        "{comment}"
    );

    // The accounts were read and none depends on names: the line is set.
    server
        .sql("DROP USER 'app'@'web1.example.com'")
        .expect("drop user");
    let text = gen_cnf_from(&server);
    assert!(text.contains("\nskip_name_resolve = ON\n"), "{text}");
    assert!(!text.contains("# skip_name_resolve"), "{text}");
}

/// Why the line is withheld, on a real restart: with the commented line of
/// gen-cnf uncommented, the server skips the host-name account at start
/// (its error log says so, and it no longer knows the account), and the
/// `localhost` account that logged in over TCP 127.0.0.1 before is refused.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn the_uncommented_line_locks_out_host_name_and_tcp_localhost_accounts() {
    let Some(mut server) = resolving_server() else {
        return;
    };
    server
        .sql(
            "CREATE USER 'app'@'web1.example.com' IDENTIFIED BY 'secret'; \
             CREATE USER 'tcp'@'localhost' IDENTIFIED BY 'pw';",
        )
        .expect("create users");
    assert!(tcp_login(&server, "tcp", "pw").is_ok(), "before the switch");
    server
        .sql("SHOW GRANTS FOR 'app'@'web1.example.com'")
        .expect("the account is known before the switch");

    let text = gen_cnf_from(&server);
    assert!(text.contains("\n# skip_name_resolve = ON\n"), "{text}");
    // gen-cnf's commented line, uncommented.
    let line = text
        .lines()
        .find(|l| l.starts_with("# skip_name_resolve"))
        .and_then(|l| l.strip_prefix("# "))
        .unwrap();
    let cnf_path = server.dir().join("my.cnf");
    let mut cnf_text = std::fs::read_to_string(&cnf_path).unwrap();
    cnf_text.push_str(&format!("\n[mariadb]\n{line}\n"));
    std::fs::write(&cnf_path, cnf_text).unwrap();
    server.kill_and_restart().expect("restart with the line");

    assert_eq!(
        server.sql("SELECT @@skip_name_resolve").unwrap().trim(),
        "1"
    );
    let log = std::fs::read_to_string(server.dir().join("error.log")).unwrap();
    assert!(
        log.contains("'user' entry 'app@web1.example.com' ignored in --skip-name-resolve mode"),
        "{log}"
    );
    let err = server
        .sql("SHOW GRANTS FOR 'app'@'web1.example.com'")
        .expect_err("the server no longer knows the account");
    assert!(err.contains("There is no such grant defined"), "{err}");
    let err = tcp_login(&server, "tcp", "pw").expect_err("tcp@localhost over TCP after the switch");
    assert!(
        err.contains("Access denied for user 'tcp'@'127.0.0.1'"),
        "{err}"
    );
    // Over the socket the client is still localhost.
    assert!(socket_login(&server, "tcp", "pw").is_ok());
}

/// The failures the switch causes are failed logins: the re-check must not
/// blame them on max_connect_errors (MT205; loopback clients are never
/// blocked), with the host cache (performance_schema = ON) or without it
/// (then not applicable: the global counters cannot tell which host
/// failed), and MT204 names the cause.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn logins_refused_after_skip_name_resolve_are_not_blamed_on_max_connect_errors() {
    for ps in ["ON", "OFF"] {
        // The harness's base configuration has skip_name_resolve = ON.
        let Some(server) = TestServer::start(&format!(
            "max_connect_errors = 10\nperformance_schema = {ps}"
        )) else {
            return;
        };
        server
            .sql("CREATE USER 'tcp'@'localhost' IDENTIFIED BY 'pw'")
            .expect("create user");
        // 1000 attempts, a tenth of them over TCP 127.0.0.1 and refused.
        for i in 0..1000 {
            if i % 10 == 0 {
                let err = tcp_login(&server, "tcp", "pw").expect_err("refused over TCP");
                assert!(
                    err.contains("Access denied for user 'tcp'@'127.0.0.1'"),
                    "{err}"
                );
            } else {
                socket_login(&server, "tcp", "pw").expect("the socket still works");
            }
        }
        let v = check_json(&server);
        assert!(
            finding(&v, "MT205").is_none(),
            "performance_schema = {ps}: MT205 blamed max_connect_errors: {:#}",
            finding(&v, "MT205").unwrap()
        );
        let na: Vec<&Value> = v["not_applicable"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["code"] == "MT205")
            .collect();
        assert_eq!(
            na.len(),
            usize::from(ps == "OFF"),
            "performance_schema = {ps}: {na:?}"
        );
        let mt204 = finding(&v, "MT204")
            .unwrap_or_else(|| panic!("performance_schema = {ps}: no MT204: {v:#}"));
        let message = mt204["message"].as_str().unwrap();
        assert!(
            message.contains(
                "with skip_name_resolve = ON also clients of a 'user'@'localhost' account that connect over TCP 127.0.0.1"
            ),
            "{message}"
        );
    }
}

/// An account that cannot read the grant tables (or the proxy grants, or
/// other accounts' connections) gets MT208 saying what it could not read,
/// and no change.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn without_the_privileges_to_read_the_logins_skip_name_resolve_is_not_suggested() {
    let Some(server) = resolving_server() else {
        return;
    };
    server
        .sql(
            "CREATE USER 'blind'@'localhost'; GRANT PROCESS ON *.* TO 'blind'@'localhost'; \
             CREATE USER 'half'@'localhost'; GRANT SELECT ON mysql.global_priv TO 'half'@'localhost'; \
             CREATE USER 'nosee'@'localhost'; GRANT SELECT ON mysql.* TO 'nosee'@'localhost';",
        )
        .expect("create users");
    let socket = format!("--socket={}", server.socket.display());
    for (user, unread) in [
        (
            "blind",
            "mytune could not read the accounts (needs SELECT on mysql.global_priv)",
        ),
        (
            "half",
            "mytune could not read the proxy grants and the logins over TCP loopback (needs SELECT on mysql.proxies_priv), so it cannot tell",
        ),
        (
            "nosee",
            "mytune could not read other accounts' connections over TCP loopback (needs PROCESS), so it cannot tell",
        ),
    ] {
        let out = mytune(&[
            "check",
            "--no-defaults",
            &socket,
            &format!("--user={user}"),
            "--format",
            "json",
        ]);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{user}: not JSON ({e}): {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        report_schema::validate(&v);
        assert!(!suggests_skip_name_resolve(&v), "{user}: {v:#}");
        let f = mt208(&v);
        assert!(f["recommended"].is_null(), "{user}: {f:#}");
        assert!(
            f["message"].as_str().unwrap().contains(unread),
            "{user}: {f:#}"
        );
    }
}
