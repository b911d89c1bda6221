//! `--read-timeout` against real slow replies (issue 51, part 8): a
//! throw-away `mariadbd` (see `tests/it/support/mariadb.rs`) whose account
//! audit waits on a table lock another session holds, and a TCP proxy in
//! front of one that holds back the reply to one chosen statement. A reply
//! that does not come in time never becomes the next statement's reply:
//! the connection is dropped and another opened (the part is skipped, an
//! MT016 finding), or the run ends with a named error. Skips with a
//! printed reason when mariadbd is not installed, unless
//! `MYTUNE_REQUIRE_LIVE=1`.

use crate::support::mariadb;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mariadb::TestServer;
use serde_json::Value;

fn mytune(args: &[String]) -> (Output, Duration) {
    let began = Instant::now();
    let out = crate::support::run::mytune_command()
        .args(args)
        .env_remove("MYSQL_PWD")
        .env("NO_COLOR", "1")
        .output()
        .expect("mytune runs");
    (out, began.elapsed())
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

fn finding<'a>(v: &'a Value, code: &str) -> Option<&'a Value> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == code)
}

fn args(base: Vec<String>, extra: &[&str]) -> Vec<String> {
    let mut a = vec!["check".to_string()];
    a.extend(base);
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

/// A root session holding `LOCK TABLES mysql.global_priv WRITE` until it
/// is dropped.
struct Lock(std::process::Child);

impl Lock {
    fn hold(server: &TestServer) -> Lock {
        // Killed and waited for on drop, a failed assertion included.
        let lock = Lock(
            server
                .client()
                .arg("-e")
                .arg("LOCK TABLES mysql.global_priv WRITE; SELECT SLEEP(60)")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("the client runs"),
        );
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let n = server
                .sql("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(60)%'")
                .unwrap();
            if n.trim() == "1" {
                return lock;
            }
            assert!(Instant::now() < deadline, "the lock was not taken");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The account audit waits on a lock past `--read-timeout 3`: it is
/// skipped as an MT016 finding naming the timeout, which the default
/// `--fail-on warn` gate sees, and every other reply is the right one (the
/// data size is InnoDB's, not the audit's account names).
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn regression_51_an_audit_past_the_read_timeout_is_mt016_and_shifts_nothing() {
    let Some(server) = TestServer::start("") else {
        return;
    };
    server.load_innodb_data(10);
    let lock = Lock::hold(&server);
    let (out, took) = mytune(&args(
        server.mytune_args(),
        &["--read-timeout", "3", "--format", "json", "--skip", "os"],
    ));
    drop(lock);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(1), "{v:#}");
    assert!(took < Duration::from_secs(20), "{took:?}");
    let f = finding(&v, "MT016").unwrap_or_else(|| panic!("no MT016: {v:#}"));
    let msg = f["message"].as_str().unwrap();
    assert!(
        msg.starts_with("the account audit") && msg.contains("(--read-timeout)"),
        "{msg}"
    );
    assert!(finding(&v, "MT702").is_none(), "{v:#}");
    let engines: Vec<&str> = v["context"]["data"]["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["engine"].as_str().unwrap())
        .collect();
    assert_eq!(engines, ["InnoDB"], "{v:#}");
    assert!(
        v["server"]["version_string"]
            .as_str()
            .unwrap()
            .contains("MariaDB"),
        "{v:#}"
    );
    // Without the lock the audit runs: MT702 (root without a password).
    let (out, _) = mytune(&args(
        server.mytune_args(),
        &["--read-timeout", "3", "--format", "json", "--skip", "os"],
    ));
    let v = json(&out);
    assert!(finding(&v, "MT016").is_none(), "{v:#}");
    assert!(finding(&v, "MT702").is_some(), "{v:#}");
}

/// A TCP proxy to `127.0.0.1:server_port` that holds back the reply to the
/// first statement containing `needle` by `delay`.
struct Proxy {
    port: u16,
    connections: Arc<AtomicUsize>,
}

fn proxy(server_port: u16, needle: &'static str, delay: Duration) -> Proxy {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let connections = Arc::new(AtomicUsize::new(0));
    let fired = Arc::new(AtomicBool::new(false));
    let count = connections.clone();
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(client) = client else { return };
            count.fetch_add(1, Ordering::SeqCst);
            let Ok(server) = TcpStream::connect(("127.0.0.1", server_port)) else {
                return;
            };
            let hold = Arc::new(AtomicBool::new(false));
            let (c_in, s_out) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            let (hold_in, fired_in) = (hold.clone(), fired.clone());
            std::thread::spawn(move || to_server(c_in, s_out, hold_in, fired_in, needle));
            std::thread::spawn(move || to_client(server, client, hold, delay));
        }
    });
    Proxy { port, connections }
}

/// Client to server, packet by packet (3-byte length, sequence id): a
/// command (sequence 0) holding `needle` makes the next reply wait.
fn to_server(
    mut from: TcpStream,
    mut to: TcpStream,
    hold: Arc<AtomicBool>,
    fired: Arc<AtomicBool>,
    needle: &str,
) {
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 16384];
    loop {
        let n = match from.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        buf.extend_from_slice(&chunk[..n]);
        while buf.len() >= 4 {
            let len = usize::from(buf[0]) | usize::from(buf[1]) << 8 | usize::from(buf[2]) << 16;
            if buf.len() < 4 + len {
                break;
            }
            let packet: Vec<u8> = buf.drain(..4 + len).collect();
            let payload = &packet[4..];
            let is_query = packet[3] == 0 && payload.first() == Some(&0x03);
            if is_query
                && payload
                    .windows(needle.len())
                    .any(|w| w == needle.as_bytes())
                && !fired.swap(true, Ordering::SeqCst)
            {
                hold.store(true, Ordering::SeqCst);
            }
            if to.write_all(&packet).is_err() {
                return;
            }
        }
    }
    let _ = to.shutdown(std::net::Shutdown::Write);
}

fn to_client(mut from: TcpStream, mut to: TcpStream, hold: Arc<AtomicBool>, delay: Duration) {
    let mut chunk = [0u8; 16384];
    loop {
        let n = match from.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if hold.swap(false, Ordering::SeqCst) {
            std::thread::sleep(delay);
        }
        if to.write_all(&chunk[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(std::net::Shutdown::Write);
}

fn tcp_args(port: u16) -> Vec<String> {
    vec![
        "--no-defaults".into(),
        "--host=127.0.0.1".into(),
        format!("--port={port}"),
        "--user=root".into(),
    ]
}

/// The reply to the very first statement (the read-only session) comes
/// 5 s late with `--read-timeout 3`: before, every later reply was off by
/// one ("the server reported a version mytune cannot read: ''"). Now the
/// connection is replaced and the report is the one a direct run gives.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn regression_51_a_late_first_reply_shifts_no_later_one() {
    let Some(server) = TestServer::start("") else {
        return;
    };
    let p = proxy(
        server.port,
        "SET SESSION TRANSACTION READ ONLY",
        Duration::from_secs(5),
    );
    let extra = ["--read-timeout", "3", "--format", "json", "--skip", "os"];
    let (out, _) = mytune(&args(tcp_args(p.port), &extra));
    let v = json(&out);
    assert_eq!(p.connections.load(Ordering::SeqCst), 2, "one reconnect");
    let (direct, _) = mytune(&args(tcp_args(server.port), &extra));
    let d = json(&direct);
    assert_eq!(v["server"]["version_string"], d["server"]["version_string"]);
    assert_eq!(out.status.code(), direct.status.code(), "{v:#}");
    let codes = |v: &Value| -> Vec<String> {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["code"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(codes(&v), codes(&d));
    assert!(finding(&v, "MT702").is_some(), "the audit ran: {v:#}");
}

/// A statement the report cannot do without (the variables) past the read
/// timeout ends the run with a named error (exit 2), never with a report
/// built from another statement's reply.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn regression_51_a_late_reply_to_the_variables_is_a_named_error() {
    let Some(server) = TestServer::start("") else {
        return;
    };
    let p = proxy(server.port, "SHOW GLOBAL VARIABLES", Duration::from_secs(5));
    let (out, took) = mytune(&args(
        tcp_args(p.port),
        &["--read-timeout", "3", "--format", "json"],
    ));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("SHOW GLOBAL VARIABLES failed")
            && err.contains("timed out after 3 s waiting for the server's reply (--read-timeout)"),
        "{err}"
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
}
