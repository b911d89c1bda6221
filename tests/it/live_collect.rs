//! Live collection against throw-away mariadbd servers (see
//! `tests/it/support/mariadb.rs`): a normal collection, interval sampling, wrong
//! password, nothing listening, a USAGE-only account, and the snapshot
//! round trip. They skip with a printed reason when mariadbd is not
//! installed, unless `MYTUNE_REQUIRE_LIVE=1`.

use crate::support::mariadb;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

use mytune::collect::{self, ConnectionConfig, HostMode, ServerOptions};
use mytune::facts::Facts;
use mytune::target::Flavor;

use mariadb::TestServer;

fn collect_with(cfg: &ConnectionConfig, interval: Option<Duration>) -> Facts {
    let opts = ServerOptions {
        interval,
        ..Default::default()
    };
    collect::collect(cfg, &opts, &HostMode::default(), &mut |_, _| {}).expect("collection works")
}

/// Run the binary without reading any option file or `MYSQL_PWD`.
fn mytune(args: &[&str]) -> Output {
    crate::support::run::mytune_command()
        .arg("collect")
        .arg("--no-defaults")
        .args(args)
        .output()
        .expect("mytune runs")
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn normal_collection_over_socket() {
    let Some(server) = TestServer::start("max_connections = 77") else {
        return;
    };
    eprintln!("throw-away server started in {:?}", server.startup);
    server
        .sql("CREATE DATABASE app; CREATE TABLE app.t (id INT PRIMARY KEY, v VARCHAR(20)) ENGINE=InnoDB; INSERT INTO app.t VALUES (1,'a'); CREATE TABLE app.m (id INT) ENGINE=MyISAM")
        .unwrap();
    let facts = collect_with(&server.connection("root", None), None);
    let s = facts.server.as_ref().unwrap();
    assert_eq!(s.flavor, Flavor::Mariadb);
    assert!(s.version_string.contains("MariaDB"));
    assert_eq!(
        s.variables.get("max_connections").map(String::as_str),
        Some("77")
    );
    assert!(
        s.status.contains_key("questions"),
        "status names are lowercase"
    );
    assert!(s.is_local);
    assert!(s.sample.is_none());
    let queries = s.queries.unwrap();
    assert!(queries <= 20, "query budget: {queries}");
    let accounts = s.accounts.as_ref().expect("root can read the grant tables");
    assert!(
        accounts
            .anonymous
            .iter()
            .any(|a| a.user.is_empty() && a.host == "localhost"),
        "a fresh install has anonymous accounts: {accounts:?}"
    );
    assert!(
        accounts
            .without_password
            .iter()
            .any(|a| a.user == "root" && a.host == "localhost")
    );
    let ds = s.data_size.as_ref().unwrap();
    assert!(ds.complete);
    assert_eq!(ds.engines.get("InnoDB").map(|e| e.tables), Some(1));
    assert_eq!(ds.engines.get("MyISAM").map(|e| e.tables), Some(1));
    assert!(facts.skipped.is_empty(), "{:?}", facts.skipped);
    // Local server: host facts are there and found this very server process.
    let host = facts.host.as_ref().expect("host facts for a local server");
    assert!(host.memory.effective_bytes > 0);
    assert!(host.cpu.effective >= 1);
    let proc = host
        .server_process
        .as_ref()
        .expect("server process found via pid_file");
    assert_eq!(proc.name, "mariadbd");
    assert!(proc.nofile_soft.is_some());
    // The session was read-only.
    assert_eq!(
        server.sql("SELECT COUNT(*) FROM app.t").unwrap().trim(),
        "1"
    );

    // The binary reaches the same server with the harness's flags.
    let o = crate::support::run::mytune_command()
        .arg("collect")
        .args(server.mytune_args())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cli = Facts::from_json(&String::from_utf8_lossy(&o.stdout)).unwrap();
    assert_eq!(cli.server.unwrap().variables["max_connections"], "77");

    // Snapshot round trip: collect → JSON → load → equal.
    let json = facts.to_json();
    let back = Facts::from_json(&json).unwrap();
    assert_eq!(back, facts);
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn interval_sampling_over_tcp_via_the_cli() {
    let Some(server) = TestServer::start("") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("snap.json");
    let port = server.port.to_string();
    let o = mytune(&[
        "-h",
        "127.0.0.1",
        "-P",
        &port,
        "-u",
        "root",
        "--interval",
        "1s",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let facts = Facts::from_json(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let s = facts.server.unwrap();
    let sample = s.sample.expect("a second sample");
    assert!(sample.interval_secs >= 1.0, "{}", sample.interval_secs);
    let q0: u64 = s.status["questions"].parse().unwrap();
    let q1: u64 = sample.status["questions"].parse().unwrap();
    assert!(q1 > q0, "counters moved: {q0} → {q1}");
    assert!(s.queries.unwrap() <= 21);
    assert!(facts.host.is_some(), "loopback TCP counts as local");
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn wrong_password_is_a_clear_error_with_exit_2() {
    let Some(server) = TestServer::start("") else {
        return;
    };
    server
        .sql("CREATE USER app@'127.0.0.1' IDENTIFIED BY 'right-pass-123'")
        .unwrap();
    let port = server.port.to_string();
    let o = mytune(&[
        "-h",
        "127.0.0.1",
        "-P",
        &port,
        "-u",
        "app",
        "-pWrongSecret987",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("Access denied for user 'app'"), "{err}");
    assert!(!err.contains("WrongSecret987"), "password leaked: {err}");
    assert!(o.stdout.is_empty());
    // The same with MYSQL_PWD.
    let o = crate::support::run::mytune_command()
        .args([
            "collect",
            "--no-defaults",
            "-h",
            "127.0.0.1",
            "-P",
            &port,
            "-u",
            "app",
        ])
        .env("MYSQL_PWD", "WrongSecret987")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&o.stderr).contains("WrongSecret987"));
    // And the right one works.
    let o = mytune(&[
        "-h",
        "127.0.0.1",
        "-P",
        &port,
        "-u",
        "app",
        "--password=right-pass-123",
        "--no-host",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("right-pass-123"));
    let facts = Facts::from_json(&String::from_utf8_lossy(&o.stdout)).unwrap();
    assert!(facts.host.is_none(), "--no-host");

    // A described host replaces the collected figures.
    let o = mytune(&[
        "-h",
        "127.0.0.1",
        "-P",
        &port,
        "-u",
        "app",
        "--password=right-pass-123",
        "--memory",
        "64G",
        "--cpus",
        "16",
        "--disk",
        "ssd",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let facts = Facts::from_json(&String::from_utf8_lossy(&o.stdout)).unwrap();
    let host = facts.host.unwrap();
    assert_eq!(host.source, mytune::facts::host::HostSource::Described);
    assert_eq!(host.memory.effective_bytes, 64 << 30);
    assert_eq!(host.cpu.effective, 16);
    assert_eq!(
        host.datadir_disk.unwrap().kind,
        mytune::facts::host::DiskKind::Ssd
    );
}

#[test]
fn nothing_listening_is_exit_2() {
    // A port nobody listens on: bind one, then let it go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
        .to_string();
    let o = mytune(&["-h", "127.0.0.1", "-P", &port, "-u", "root"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("nothing is listening"), "{err}");
    let sock = PathBuf::from("/nonexistent-dir/mysqld.sock");
    let o = mytune(&["-S", sock.to_str().unwrap(), "-u", "root"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("nothing is listening"), "{err}");
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn usage_only_account_gives_a_degraded_snapshot() {
    let Some(server) = TestServer::start("") else {
        return;
    };
    server
        .sql("CREATE USER lowpriv@localhost IDENTIFIED BY 'low-pass-42'; CREATE DATABASE app; CREATE TABLE app.t (id INT) ENGINE=InnoDB")
        .unwrap();
    let facts = collect_with(&server.connection("lowpriv", Some("low-pass-42")), None);
    let s = facts.server.as_ref().unwrap();
    assert!(!s.variables.is_empty(), "variables need no privilege");
    assert!(!s.status.is_empty());
    assert!(s.accounts.is_none());
    let reason = |what: &str| {
        facts
            .skipped
            .iter()
            .find(|k| k.what == what)
            .map(|k| k.reason.clone())
            .unwrap_or_default()
    };
    assert_eq!(reason("accounts"), "needs SELECT on mysql.global_priv");
    assert!(
        reason("data_size").starts_with("needs SHOW VIEW (or SELECT) on *.*"),
        "{:?}",
        facts.skipped
    );
    assert!(!s.data_size.as_ref().unwrap().complete);
    assert!(
        s.grants[0].starts_with("GRANT USAGE ON *.* TO `lowpriv`@`localhost`"),
        "{:?}",
        s.grants
    );
    assert!(
        !s.grants
            .iter()
            .any(|g| g.contains("PASSWORD") || g.contains("*E465")),
        "no password hash in a snapshot: {:?}",
        s.grants
    );

    // Through the binary: exit 0 and the skipped parts are named.
    let o = crate::support::run::mytune_command()
        .args([
            "collect",
            "--no-defaults",
            "-S",
            server.socket.to_str().unwrap(),
            "-u",
            "lowpriv",
            "--no-host",
        ])
        .env("MYSQL_PWD", "low-pass-42")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("skipped accounts: needs SELECT on mysql.global_priv"),
        "{err}"
    );
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn data_size_without_persistent_statistics_uses_information_schema() {
    let Some(server) = TestServer::start("innodb_stats_persistent = OFF") else {
        return;
    };
    server
        .sql("CREATE DATABASE app; CREATE TABLE app.a (id INT) ENGINE=InnoDB; CREATE TABLE app.b (id INT) ENGINE=InnoDB; CREATE TABLE app.c (id INT) ENGINE=Aria")
        .unwrap();
    let facts = collect_with(&server.connection("root", None), None);
    let ds = facts.server.unwrap().data_size.unwrap();
    assert!(ds.complete);
    assert_eq!(ds.engines["InnoDB"].tables, 2);
    assert!(ds.engines["InnoDB"].data_bytes > 0);
    assert_eq!(ds.engines["Aria"].tables, 1);
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn skip_grant_tables_is_reported() {
    let Some(server) = TestServer::start("skip_grant_tables = ON") else {
        return;
    };
    let facts = collect_with(&server.connection("anyone", None), None);
    let s = facts.server.unwrap();
    let accounts = s.accounts.expect("grant tables are readable by anyone now");
    assert!(accounts.grant_tables_skipped);
}

/// Make a CA and a server certificate for 127.0.0.1 with the openssl CLI.
fn make_certs(dir: &std::path::Path) -> Result<(), String> {
    let run = |args: &[&str]| -> Result<(), String> {
        let o = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .map_err(|e| format!("openssl: {e}"))?;
        if o.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&o.stderr).into_owned())
        }
    };
    run(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=mytune test CA",
        "-keyout",
        "ca-key.pem",
        "-out",
        "ca.pem",
    ])?;
    run(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=127.0.0.1",
        "-keyout",
        "server-key.pem",
        "-out",
        "server.csr",
    ])?;
    std::fs::write(
        dir.join("ext.cnf"),
        "subjectAltName = IP:127.0.0.1, DNS:localhost\n",
    )
    .map_err(|e| e.to_string())?;
    run(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca-key.pem",
        "-CAcreateserial",
        "-days",
        "2",
        "-extfile",
        "ext.cnf",
        "-out",
        "server.pem",
    ])?;
    // A certificate of the same CA for another name only.
    std::fs::write(
        dir.join("wrong.cnf"),
        "subjectAltName = DNS:db.example.com\n",
    )
    .map_err(|e| e.to_string())?;
    run(&[
        "req",
        "-new",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=db.example.com",
        "-keyout",
        "wrong-key.pem",
        "-out",
        "wrong.csr",
    ])?;
    run(&[
        "x509",
        "-req",
        "-in",
        "wrong.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca-key.pem",
        "-CAcreateserial",
        "-days",
        "2",
        "-extfile",
        "wrong.cnf",
        "-out",
        "wrong.pem",
    ])?;
    // A second, unrelated CA for the negative case.
    run(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=other CA",
        "-keyout",
        "other-key.pem",
        "-out",
        "other.pem",
    ])
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn tls_modes() {
    let certs = tempfile::tempdir().unwrap();
    if let Err(e) = make_certs(certs.path()) {
        assert!(
            std::env::var_os("MYTUNE_REQUIRE_LIVE").is_none_or(|v| v != "1"),
            "cannot make certificates with the openssl command: {e}"
        );
        eprintln!("skipping TLS test: cannot make certificates: {e}");
        return;
    }
    let p = |f: &str| certs.path().join(f).display().to_string();
    let cnf = format!(
        "ssl_ca = {}\nssl_cert = {}\nssl_key = {}\n",
        p("ca.pem"),
        p("server.pem"),
        p("server-key.pem")
    );
    let Some(server) = TestServer::start(&cnf) else {
        return;
    };
    let port = server.port.to_string();
    let tcp = [
        "-h",
        "127.0.0.1",
        "-P",
        port.as_str(),
        "-u",
        "root",
        "--no-host",
    ];
    for mode in [
        vec!["--ssl-mode=REQUIRED"],
        vec!["--ssl-mode=VERIFY_CA", "--ssl-ca", &p("ca.pem")],
        vec!["--ssl-mode=VERIFY_IDENTITY", "--ssl-ca", &p("ca.pem")],
    ] {
        let o = mytune(&[&tcp[..], &mode[..]].concat());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{mode:?}: {err}");
        let facts = Facts::from_json(&String::from_utf8_lossy(&o.stdout)).unwrap();
        let accepts: u64 = facts.server.unwrap().status["ssl_finished_accepts"]
            .parse()
            .unwrap();
        assert!(accepts >= 1, "{mode:?}: the session used TLS");
    }
    // A certificate from another CA is refused.
    let o = mytune(
        &[
            &tcp[..],
            &["--ssl-mode=VERIFY_CA", "--ssl-ca", &p("other.pem")][..],
        ]
        .concat(),
    );
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    // VERIFY_IDENTITY checks the name the client connected to: localhost
    // over TCP matches the certificate's DNS name.
    let o = mytune(&[
        "-h",
        "localhost",
        "--protocol",
        "TCP",
        "-P",
        port.as_str(),
        "-u",
        "root",
        "--no-host",
        "--ssl-mode=VERIFY_IDENTITY",
        "--ssl-ca",
        &p("ca.pem"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    // A certificate of the trusted CA for another name: VERIFY_CA accepts
    // it, VERIFY_IDENTITY refuses it.
    let cnf = format!(
        "ssl_ca = {}\nssl_cert = {}\nssl_key = {}\n",
        p("ca.pem"),
        p("wrong.pem"),
        p("wrong-key.pem")
    );
    let Some(wrong) = TestServer::start(&cnf) else {
        return;
    };
    let port = wrong.port.to_string();
    let tcp = [
        "-h",
        "127.0.0.1",
        "-P",
        port.as_str(),
        "-u",
        "root",
        "--no-host",
    ];
    let ca = p("ca.pem");
    let o = mytune(&[&tcp[..], &["--ssl-mode=VERIFY_CA", "--ssl-ca", &ca][..]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = mytune(
        &[
            &tcp[..],
            &["--ssl-mode=VERIFY_IDENTITY", "--ssl-ca", &ca][..],
        ]
        .concat(),
    );
    assert_eq!(
        o.status.code(),
        Some(2),
        "a certificate for db.example.com must not pass for 127.0.0.1: {}",
        String::from_utf8_lossy(&o.stderr)
    );

    // A server without TLS and --ssl-mode=REQUIRED: a clear error, exit 2.
    let Some(plain) = TestServer::start("") else {
        return;
    };
    let port = plain.port.to_string();
    let o = mytune(&[
        "-h",
        "127.0.0.1",
        "-P",
        &port,
        "-u",
        "root",
        "--ssl-mode=REQUIRED",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("does not offer TLS"), "{err}");
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn option_files_like_the_mysql_client() {
    let Some(server) = TestServer::start("") else {
        return;
    };
    server
        .sql("CREATE USER app@localhost IDENTIFIED BY 'file-pass-77'")
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("client.cnf");
    std::fs::write(
        &cnf,
        format!(
            "[client]\nuser = app\npassword = file-pass-77\n[mytune]\nsocket = {}\n",
            server.socket.display()
        ),
    )
    .unwrap();
    let run = |args: &[&str]| {
        crate::support::run::mytune_command()
            .arg("collect")
            .args(args)
            .arg("--no-host")
            .output()
            .unwrap()
    };
    let file = format!("--defaults-file={}", cnf.display());
    let o = run(&[&file]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A flag beats the file: a wrong password from the command line fails.
    let o = run(&[&file, "--password=not-this-one"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("Access denied for user 'app'"), "{err}");
    assert!(
        !err.contains("file-pass-77") && !err.contains("not-this-one"),
        "{err}"
    );
    // --defaults-extra-file is read too (after the global files; a
    // ~/.my.cnf with other [client] settings would win over it, as in mysql).
    let extra = format!("--defaults-extra-file={}", cnf.display());
    let o = run(&[&extra]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A broken option file is an error naming the place, exit 2.
    let bad = dir.path().join("bad.cnf");
    std::fs::write(&bad, "[client\nuser = app\n").unwrap();
    let o = run(&[&format!("--defaults-file={}", bad.display())]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.cnf:1"), "{err}");
}

/// The design card's own usage, `mytune check --host`, ended with "a value
/// is required for '--host <HOST>'". Alone it means this host: the local
/// server over its socket (whatever the option files name), and with no
/// server here the host's own findings with a note.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn check_host_alone_means_this_host() {
    let Some(server) = TestServer::start("max_connections = 61") else {
        return;
    };
    let socket = server.socket.display().to_string();
    let run = |args: &[&str]| {
        crate::support::run::mytune_command()
            .args(args)
            .output()
            .expect("mytune runs")
    };
    let o = run(&[
        "check",
        "--host",
        "--no-defaults",
        "-S",
        &socket,
        "-u",
        "root",
        "--format",
        "json",
    ]);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["server"]["source"].as_str(),
        Some(format!("socket {socket}").as_str()),
        "{v:#}"
    );
    assert!(v["host"].is_object(), "this host's facts: {v:#}");

    // No server answers: the host's findings, a note, no error.
    let dir = tempfile::tempdir().unwrap();
    let gone = dir.path().join("no.sock").display().to_string();
    let o = run(&["check", "--host", "--no-defaults", "-S", &gone]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{err}");
    assert!(
        err.contains("no server answers on this host") && err.contains("host's own findings"),
        "{err}"
    );
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("in this host (no server)."),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // With a value, --host keeps the client's meaning: that host.
    let o = run(&[
        "check",
        "--no-defaults",
        "--host=127.0.0.1",
        "-P",
        "1",
        "-u",
        "x",
    ]);
    assert_eq!(o.status.code(), Some(2), "no server on port 1 is an error");
}
