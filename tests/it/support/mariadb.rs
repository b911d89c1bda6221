//! Throw-away MariaDB servers for live tests and benchmarks.
//!
//! Live tests must never change the global settings of a shared server, so
//! each test that needs a server starts its own `mariadbd`: a private datadir
//! in a temporary directory, its own socket and TCP port on 127.0.0.1, and the
//! extra configuration the test asks for. The server is killed and its
//! directory removed when the [`TestServer`] is dropped.
//!
//! Start-up cost: `mariadb-install-db` takes about 1.4 s, so it runs once per
//! mariadbd version into a template datadir under cargo's `target/tmp`
//! (shared by all test binaries, created atomically); each server then copies
//! the template (about 22 MB) and starts in about 0.2 s.
//!
//! The template comes from a plain `mariadb-install-db` with
//! `--auth-root-authentication-method=normal`: `root@localhost` has an empty
//! password and the anonymous accounts (`''@localhost`, `''@HOSTNAME`) exist,
//! as on a fresh package install; tests that audit accounts rely on that.
//!
//! Use it from an integration test with
//! `#[path = "support/mariadb.rs"] mod mariadb;` and
//!
//! ```ignore
//! let Some(server) = mariadb::TestServer::start("max_connections = 50") else { return };
//! server.sql("CREATE USER u@'%'").unwrap();
//! ```
//!
//! When `mariadbd` is missing or does not start, `start` prints the reason and
//! returns `None` so the test can skip — unless `MYTUNE_REQUIRE_LIVE=1`, then
//! it panics with the reason.
//!
//! [`TestServer::start_as_user`] starts the server as a packaged one runs:
//! as an unprivileged OS user (`mysql`) from its first instruction, as
//! systemd's `User=mysql` starts it, not as root switching with `--user`
//! after reading its option files. Only then does a file the server cannot
//! read show: mariadbd skips an unreadable `!includedir` file without a
//! word, which a root server would have read.

#![allow(dead_code)]

use std::fs;
use std::io::Read;
use std::net::TcpListener;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long a server may take to accept connections.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// Settings every throw-away server gets before the test's own text (which
/// therefore wins): small memory and log files so several servers fit on a
/// small CI machine and start fast.
const BASE_CNF: &str = "\
innodb_buffer_pool_size = 32M
innodb_log_file_size = 8M
skip_name_resolve = ON
performance_schema = OFF
";

/// A running throw-away `mariadbd`. Killed and deleted on drop.
pub struct TestServer {
    /// TCP port on 127.0.0.1.
    pub port: u16,
    /// Unix socket path.
    pub socket: PathBuf,
    pub datadir: PathBuf,
    /// How long `start` took (template copy + server start-up).
    pub startup: Duration,
    child: Child,
    dir: tempfile::TempDir,
    mariadbd: PathBuf,
    /// The open-files limit the server starts under (`ulimit -n`), if set.
    nofile: Option<u64>,
    /// The OS user (uid, gid) the server runs as, when not the test's.
    os_user: Option<(u32, u32)>,
    /// What it listens on (`--bind-address`; `None`: 127.0.0.1).
    bind_address: Option<String>,
}

/// How a throw-away server is started, besides its option file.
#[derive(Debug, Clone, Default)]
struct Launch {
    /// `ulimit -n` for the server.
    nofile: Option<u64>,
    /// Run as this (uid, gid), owning its files.
    os_user: Option<(u32, u32)>,
    /// `--bind-address` (`None`: 127.0.0.1).
    bind_address: Option<String>,
}

impl TestServer {
    /// Start a server with `extra_cnf` added to its option file. A text
    /// without a `[group]` header goes into `[mariadbd]`.
    pub fn start(extra_cnf: &str) -> Option<TestServer> {
        match Self::try_start(extra_cnf) {
            Ok(s) => Some(s),
            Err(reason) => skip_or_panic(&format!("no throw-away mariadbd: {reason}")),
        }
    }

    /// Like [`TestServer::start`] but returns the reason instead of deciding
    /// whether to skip.
    pub fn try_start(extra_cnf: &str) -> Result<TestServer, String> {
        Self::try_start_with(extra_cnf, Launch::default())
    }

    /// Start a server that runs as the OS user `user` (e.g. `mysql`) from
    /// the start, owning its datadir and files, as a packaged server runs.
    /// Needs root; otherwise skips (or panics under MYTUNE_REQUIRE_LIVE=1).
    pub fn start_as_user(extra_cnf: &str, user: &str) -> Option<TestServer> {
        let launch = if !is_root() {
            Err(format!("starting a server as the user {user} needs root"))
        } else {
            os_user(user).map(|ids| Launch {
                os_user: Some(ids),
                ..Launch::default()
            })
        };
        match launch.and_then(|l| Self::try_start_with(extra_cnf, l)) {
            Ok(s) => Some(s),
            Err(reason) => skip_or_panic(&format!("no throw-away mariadbd as {user}: {reason}")),
        }
    }

    /// Start a server listening on `bind_address` instead of 127.0.0.1
    /// alone: `0.0.0.0` for a server that listens beyond loopback, as a
    /// production server does (rules such as MT208 are silent on a
    /// loopback-only server). Its accounts are the template's: root and the
    /// anonymous accounts match only clients on this machine.
    pub fn start_bound(extra_cnf: &str, bind_address: &str) -> Option<TestServer> {
        let launch = Launch {
            bind_address: Some(bind_address.to_string()),
            ..Launch::default()
        };
        match Self::try_start_with(extra_cnf, launch) {
            Ok(s) => Some(s),
            Err(reason) => skip_or_panic(&format!("no throw-away mariadbd: {reason}")),
        }
    }

    /// Start a server whose process may open at most `nofile` files (as a
    /// unit's `LimitNOFILE` would allow), so its start-up shows what the
    /// server does when the limit caps what it asks for.
    pub fn start_with_nofile(extra_cnf: &str, nofile: u64) -> Option<TestServer> {
        let launch = Launch {
            nofile: Some(nofile),
            ..Launch::default()
        };
        match Self::try_start_with(extra_cnf, launch) {
            Ok(s) => Some(s),
            Err(reason) => skip_or_panic(&format!("no throw-away mariadbd: {reason}")),
        }
    }

    fn try_start_with(extra_cnf: &str, launch: Launch) -> Result<TestServer, String> {
        let began = Instant::now();
        let mariadbd = find_program("mariadbd", &["/usr/sbin/mariadbd", "/usr/libexec/mariadbd"])
            .ok_or("mariadbd not found (install mariadb-server)")?;
        let template = template_datadir(&mariadbd)?;
        let mut last_err = String::new();
        // A free port can be taken between our probe and the server's bind:
        // retry a few times with a fresh one.
        for _ in 0..3 {
            let dir = tempfile::Builder::new()
                .prefix("mytune-db-")
                .tempdir()
                .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
            let datadir = dir.path().join("data");
            copy_dir(&template, &datadir)
                .map_err(|e| format!("cannot copy the template datadir: {e}"))?;
            let port = free_port()?;
            let socket = dir.path().join("sock");
            let cnf = dir.path().join("my.cnf");
            // A text with its own `[group]` header keeps it; otherwise it
            // continues the `[mariadbd]` group.
            let text = format!("[mariadbd]\n{BASE_CNF}\n{extra_cnf}\n");
            fs::write(&cnf, text).map_err(|e| format!("cannot write {}: {e}", cnf.display()))?;
            if let Some((uid, gid)) = launch.os_user {
                chown_tree(dir.path(), uid, gid)
                    .map_err(|e| format!("cannot give the server's files to uid {uid}: {e}"))?;
            }
            let log = dir.path().join("error.log");
            let child = spawn_server(
                &mariadbd,
                dir.path(),
                &datadir,
                &socket,
                port,
                launch.clone(),
            )?;
            let mut server = TestServer {
                port,
                socket,
                datadir,
                startup: Duration::ZERO,
                child,
                dir,
                mariadbd: mariadbd.clone(),
                nofile: launch.nofile,
                os_user: launch.os_user,
                bind_address: launch.bind_address.clone(),
            };
            match server.wait_ready(&log) {
                Ok(()) => {
                    server.startup = began.elapsed();
                    return Ok(server);
                }
                Err(e) => last_err = e, // dropped: killed and removed
            }
        }
        Err(last_err)
    }

    /// Kill the server without a shutdown (SIGKILL, as the OOM killer does)
    /// and start it again on the same datadir and error log.
    pub fn kill_and_restart(&mut self) -> Result<(), String> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.respawn()
    }

    /// Shut the server down cleanly (`mariadb-admin shutdown`: it logs
    /// `Shutdown complete`) and start it again at once on the same datadir
    /// and error log, as `systemctl restart` does.
    pub fn shutdown_and_restart(&mut self) -> Result<(), String> {
        let admin = find_program("mariadb-admin", &["/usr/bin/mariadb-admin"])
            .ok_or("mariadb-admin not found (install mariadb-client)")?;
        let out = Command::new(admin)
            .arg("--no-defaults")
            .arg("-uroot")
            .arg(format!("--socket={}", self.socket.display()))
            .arg("shutdown")
            .output()
            .map_err(|e| format!("cannot run mariadb-admin: {e}"))?;
        output_text(out)?;
        let status = self
            .child
            .wait()
            .map_err(|e| format!("the server did not stop: {e}"))?;
        if !status.success() {
            return Err(format!("the server stopped with {status}"));
        }
        self.respawn()
    }

    fn respawn(&mut self) -> Result<(), String> {
        let _ = fs::remove_file(&self.socket);
        self.child = spawn_server(
            &self.mariadbd,
            self.dir.path(),
            &self.datadir,
            &self.socket,
            self.port,
            Launch {
                nofile: self.nofile,
                os_user: self.os_user,
                bind_address: self.bind_address.clone(),
            },
        )?;
        let log = self.dir.path().join("error.log");
        self.wait_ready(&log)
    }

    fn wait_ready(&mut self, log: &Path) -> Result<(), String> {
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!(
                    "mariadbd exited ({status}) during start-up: {}",
                    log_tail(log)
                ));
            }
            if let Ok(mut s) = UnixStream::connect(&self.socket) {
                // A server that accepts sends its handshake packet first.
                let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
                let mut buf = [0u8; 4];
                if s.read_exact(&mut buf).is_ok() {
                    return Ok(());
                }
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "mariadbd did not accept connections within {START_TIMEOUT:?}: {}",
                    log_tail(log)
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The temporary directory holding datadir, socket and logs.
    /// How mytune connects to this server: its socket, as `user`.
    pub fn connection(
        &self,
        user: &str,
        password: Option<&str>,
    ) -> mytune::collect::ConnectionConfig {
        mytune::collect::ConnectionConfig {
            host: None,
            port: 3306,
            socket: Some(self.socket.clone()),
            user: user.into(),
            password: password.map(mytune::collect::connect::Secret::new),
            ssl_mode: Default::default(),
            ssl_ca: None,
            connect_timeout: Duration::from_secs(10),
            read_timeout: Duration::from_secs(30),
            files_read: Vec::new(),
        }
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// A `mariadb` client command logged in as root over the socket, without
    /// reading any option file.
    pub fn client(&self) -> Command {
        let mut cmd = Command::new("mariadb");
        cmd.arg("--no-defaults")
            .arg("-uroot")
            .arg(format!("--socket={}", self.socket.display()))
            .arg("--batch")
            .arg("--skip-column-names");
        cmd
    }

    /// Connection flags for `mytune` as root over the socket, reading no
    /// option file: `mytune collect` + these reach this server.
    pub fn mytune_args(&self) -> Vec<String> {
        vec![
            "--no-defaults".into(),
            format!("--socket={}", self.socket.display()),
            "--user=root".into(),
        ]
    }

    /// Run SQL as root; returns the client's stdout (tab-separated rows).
    /// About 80M of InnoDB data in `app.t` (`doublings` = 18; each more
    /// doubles it), with fresh statistics: rules judge the buffer pool
    /// against the data, and a fresh server has none.
    pub fn load_innodb_data(&self, doublings: u32) {
        self.sql(
            "CREATE DATABASE app; CREATE TABLE app.t (id INT AUTO_INCREMENT PRIMARY KEY, pad CHAR(255)) ENGINE=InnoDB; \
             INSERT INTO app.t (pad) VALUES (REPEAT('x', 255));",
        )
        .expect("create table");
        for _ in 0..doublings {
            self.sql("INSERT INTO app.t (pad) SELECT pad FROM app.t")
                .expect("double the rows");
        }
        self.sql("ANALYZE TABLE app.t").expect("analyze");
    }

    pub fn sql(&self, sql: &str) -> Result<String, String> {
        let out = self
            .client()
            .arg("-e")
            .arg(sql)
            .output()
            .map_err(|e| format!("cannot run the mariadb client: {e}"))?;
        output_text(out)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        // A throw-away server needs no clean shutdown: its datadir goes too.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Print why a live test cannot run and return `None`, or panic when
/// `MYTUNE_REQUIRE_LIVE=1` makes live tests required.
pub fn skip_or_panic<T>(reason: &str) -> Option<T> {
    if std::env::var("MYTUNE_REQUIRE_LIVE").as_deref() == Ok("1") {
        panic!("{reason} (MYTUNE_REQUIRE_LIVE=1)");
    }
    eprintln!("skipping live test: {reason}");
    None
}

fn output_text(out: Output) -> Result<String, String> {
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

pub fn find_program(name: &str, fallbacks: &[&str]) -> Option<PathBuf> {
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    fallbacks.iter().map(PathBuf::from).find(|p| p.is_file())
}

/// The bench arguments that switch the slow log on at a 1 s threshold: the setting MT501's
/// rationale measures with both benches (knob-cost counts it, knob-wall times and traces it).
pub const SLOW_LOG_AT_ONE_SECOND: [&str; 4] = [
    "--change",
    "slow_query_log=ON",
    "--change",
    "long_query_time=1",
];

/// The first of NEEDED (program, Debian package, fallback paths) that is not installed, as the
/// reason a bench test skips: "PROGRAM not found (install PACKAGE)".
pub fn missing_program(needed: &[(&str, &str, &[&str])]) -> Option<String> {
    needed
        .iter()
        .find(|(program, _, fallbacks)| find_program(program, fallbacks).is_none())
        .map(|(program, package, _)| format!("{program} not found (install {package})"))
}

/// Runs the bench's Python script `bench/SCRIPT` with ARGS and returns what it printed;
/// panics with its output and error output when it fails.
pub fn run_bench_script<I, S>(python: &Path, script: &str, args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("bench")
        .join(script);
    let out = Command::new(python)
        .arg(&path)
        .args(args)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "bench/{script} failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    stdout
}

pub fn is_root() -> bool {
    // Effective uid from /proc avoids a libc dependency.
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|u| u == "0"))
        })
        .unwrap_or(false)
}

pub fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free TCP port: {e}"))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("no free TCP port: {e}"))
}

fn log_tail(log: &Path) -> String {
    let text = fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(5)..].join(" | ");
    if tail.is_empty() {
        format!("(no error log at {})", log.display())
    } else {
        tail
    }
}

/// Serializes template creation among the tests of one binary (other test
/// binaries are covered by the atomic rename).
static TEMPLATE_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The template datadir for this mariadbd version, created on first use.
pub fn template_datadir(mariadbd: &Path) -> Result<PathBuf, String> {
    let _guard = TEMPLATE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let version = Command::new(mariadbd)
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", mariadbd.display()))?;
    let version = String::from_utf8_lossy(&version.stdout);
    let key: String = version
        .split_whitespace()
        .nth(2)
        .unwrap_or("unknown")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let template = base.join(format!("mariadb-template-{key}"));
    if template.join("mysql").is_dir() {
        return Ok(template);
    }
    fs::create_dir_all(&base).map_err(|e| format!("cannot create {}: {e}", base.display()))?;
    let staging = tempfile::Builder::new()
        .prefix("mariadb-template-staging-")
        .tempdir_in(&base)
        .map_err(|e| format!("cannot create a staging directory: {e}"))?;
    let datadir = staging.path().join("data");
    let install = find_program("mariadb-install-db", &["/usr/bin/mariadb-install-db"])
        .ok_or("mariadb-install-db not found (install mariadb-server)")?;
    let mut cmd = Command::new(install);
    cmd.arg("--no-defaults")
        .arg("--auth-root-authentication-method=normal")
        .arg(format!("--datadir={}", datadir.display()))
        .arg("--innodb-log-file-size=8M")
        .arg("--innodb-buffer-pool-size=32M")
        // A private tmpdir: see TestServer::try_start.
        .arg(format!("--tmpdir={}", staging.path().display()));
    if is_root() {
        cmd.arg("--user=root");
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run mariadb-install-db: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "mariadb-install-db failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    // Another test binary may have won the race; either template is good.
    match fs::rename(&datadir, &template) {
        Ok(()) => Ok(template),
        Err(_) if template.join("mysql").is_dir() => Ok(template),
        Err(e) => Err(format!("cannot move the template into place: {e}")),
    }
}

pub fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// Start `mariadbd` on a throw-away server's files (its error log is
/// appended to, as a restarted server's is), under `ulimit -n nofile` when
/// given (as a unit's `LimitNOFILE` would start it).
fn spawn_server(
    mariadbd: &Path,
    dir: &Path,
    datadir: &Path,
    socket: &Path,
    port: u16,
    launch: Launch,
) -> Result<Child, String> {
    let mut args = vec![
        format!("--defaults-file={}", dir.join("my.cnf").display()),
        format!("--datadir={}", datadir.display()),
        format!("--socket={}", socket.display()),
        format!("--port={port}"),
        format!(
            "--bind-address={}",
            launch.bind_address.as_deref().unwrap_or("127.0.0.1")
        ),
        format!("--pid-file={}", dir.join("pid").display()),
        format!("--log-error={}", dir.join("error.log").display()),
        // Its own temporary directory: a server starting removes leftover
        // `#sql*` files from its tmpdir, which in a shared /tmp are the
        // temporary tables of other servers starting (or bootstrapping) at
        // the same moment.
        format!("--tmpdir={}", dir.display()),
    ];
    if is_root() && launch.os_user.is_none() {
        args.push("--user=root".into());
    }
    let mut cmd = match launch.nofile {
        // The shell lowers the limit, then becomes the server. Root could
        // raise it again (CAP_SYS_RESOURCE): setpriv drops that capability
        // from the bounding set first, as a unit's non-root server lacks it.
        Some(n) => {
            let mut c = if is_root() {
                let setpriv = find_program("setpriv", &["/usr/bin/setpriv"])
                    .ok_or("setpriv not found (util-linux): root could raise the limit")?;
                let mut c = Command::new(setpriv);
                c.args(["--bounding-set", "-sys_resource", "sh"]);
                c
            } else {
                Command::new("sh")
            };
            c.arg("-c")
                // Standard error into the error log, as mysqld_safe and
                // init scripts send it: the server reports the limit before
                // it opens its log.
                .arg(format!(
                    "ulimit -n {n} && exec \"$0\" \"$@\" 2>>'{}'",
                    dir.join("error.log").display()
                ))
                .arg(mariadbd)
                .args(&args);
            c
        }
        None => {
            let mut c = Command::new(mariadbd);
            c.args(&args);
            c
        }
    };
    if let Some((uid, gid)) = launch.os_user {
        // Set before exec; as root, std also drops the supplementary groups.
        use std::os::unix::process::CommandExt;
        cmd.uid(uid).gid(gid);
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", mariadbd.display()))
}

/// The (uid, gid) of the OS user `name`, from /etc/passwd.
pub fn os_user(name: &str) -> Result<(u32, u32), String> {
    let passwd = fs::read_to_string("/etc/passwd").map_err(|e| format!("/etc/passwd: {e}"))?;
    passwd
        .lines()
        .find_map(|l| {
            let f: Vec<&str> = l.split(':').collect();
            (f.len() > 3 && f[0] == name).then(|| Some((f[2].parse().ok()?, f[3].parse().ok()?)))?
        })
        .ok_or_else(|| format!("no OS user {name} in /etc/passwd"))
}

/// Give `dir` and everything under it to (uid, gid), links themselves
/// rather than their targets.
pub fn chown_tree(dir: &Path, uid: u32, gid: u32) -> std::io::Result<()> {
    std::os::unix::fs::lchown(dir, Some(uid), Some(gid))?;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            chown_tree(&entry.path(), uid, gid)?;
        } else {
            std::os::unix::fs::lchown(entry.path(), Some(uid), Some(gid))?;
        }
    }
    Ok(())
}
