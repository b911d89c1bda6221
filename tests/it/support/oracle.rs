//! The real `mariadbd` as the judge of an option file.
//!
//! mytune claims to know what the server does with every line of an option
//! file: refuse to start, start but warn (adjust, ignore), or start clean.
//! This module asks the installed server the same question, so tests can
//! compare the two (the differential test, `tests/it/differential_mariadb.rs`).
//!
//! Two ways of asking, cheapest first:
//!
//! 1. `mariadbd --defaults-file=F --verbose --help` parses every option the
//!    way a start does and exits. A non-zero exit status is a refusal.
//! 2. Otherwise a real start on a private copy of a template datadir (own
//!    socket, port, pid file and error log): some checks happen only then
//!    (a storage engine name, a plugin whose options failed to parse and is
//!    disabled, InnoDB's checks of its files). The server either exits
//!    (refuses) or accepts connections; its error log then tells whether it
//!    warned.
//!
//! The including test declares `mod mariadb` (tests/it/support/mariadb.rs)
//! beside `mod oracle`.
//!
//! Warnings are the `[Warning]`/`[ERROR]` lines (and the `[Note]` about unique
//! option prefixes) that an empty option file does not also produce; digits
//! are masked when comparing, so "Could not increase number of
//! max_open_files … (request: 32043)" stays an environmental line whatever
//! the request (the process limit of the machine, not the option file).

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::fs;
use std::io::Read;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::mariadb;

/// The server's verdict on an option file, in the three classes mytune uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    Refuses,
    Warns,
    Clean,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Refuses => "refuses",
            Class::Warns => "warns",
            Class::Clean => "clean",
        }
    }
}

/// What the server did, and the lines that show it.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub class: Class,
    /// New warning and error lines (timestamps stripped).
    pub lines: Vec<String>,
    /// `help` or `start`: which way of asking decided.
    pub via: &'static str,
}

/// How long a real start may take before it counts as hanging.
const START_TIMEOUT: Duration = Duration::from_secs(40);

/// Warnings a real start prints because of the template datadir, not
/// because of the option under test: the template has accounts defined by
/// host name, which `skip_name_resolve` makes the server ignore (a fact
/// about the accounts, which `mytune check` reports from the grant tables).
/// The readiness probe itself (a connection closed before authenticating)
/// is logged as an aborted connection.
const ENVIRONMENTAL: &[&str] = &[
    "ignored in --skip-name-resolve mode",
    "This connection closed normally without authentication",
    // The server's probe of the datadir's case sensitivity races with a
    // parallel start on the same file system (`vm.lower-test`).
    ".lower-test'",
    // server_audit's allocator report when `--help` exits with the plugin
    // loaded, whatever its options.
    "Memory not freed:",
    // The readiness probe's connection, closed before the handshake, as
    // the server logs it at log_warnings 4 and above.
    "Could not read packet:",
];

/// What `debug_exit_info` prints at exit (getrusage): output the option
/// asks for, not a warning.
const RESOURCE_USAGE: &[&str] = &[
    "User time ",
    "Maximum resident set size",
    "Non-physical pagefaults",
    "Blocks in ",
    "Voluntary context switches",
];

pub struct Oracle {
    mariadbd: PathBuf,
    template: PathBuf,
    /// `Ver 10.11.19-MariaDB-…`: the version as the server prints it.
    pub version: String,
    baseline_help: BTreeSet<String>,
    baseline_start: BTreeSet<String>,
}

impl Oracle {
    /// Find `mariadbd`, make the template datadir, and learn what an empty
    /// option file prints (both ways), or say why not.
    /// The oracle, or `None` after printing why a test that needs it skips
    /// (a panic under `MYTUNE_REQUIRE_LIVE=1`), as [`TestServer::start`]
    /// does for a server.
    ///
    /// [`TestServer::start`]: crate::support::mariadb::TestServer::start
    pub fn start_or_skip(what: &str) -> Option<Oracle> {
        match Oracle::new() {
            Ok(o) => Some(o),
            Err(reason) => crate::support::mariadb::skip_or_panic(&format!("{what}: {reason}")),
        }
    }

    pub fn new() -> Result<Oracle, String> {
        let mariadbd =
            mariadb::find_program("mariadbd", &["/usr/sbin/mariadbd", "/usr/libexec/mariadbd"])
                .ok_or("mariadbd not found (install mariadb-server)")?;
        let template = mariadb::template_datadir(&mariadbd)?;
        let out = Command::new(&mariadbd)
            .arg("--version")
            .output()
            .map_err(|e| format!("cannot run {}: {e}", mariadbd.display()))?;
        let version = String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .nth(2)
            .unwrap_or("")
            .to_string();
        let mut oracle = Oracle {
            mariadbd,
            template,
            version,
            baseline_help: BTreeSet::new(),
            baseline_start: BTreeSet::new(),
        };
        let dir = tempfile::Builder::new()
            .prefix("mytune-oracle-base-")
            .tempdir()
            .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        let cnf = dir.path().join("my.cnf");
        fs::write(&cnf, "[mysqld]\n").map_err(|e| e.to_string())?;
        let (code, lines) = oracle.help(&cnf)?;
        if code != Some(0) {
            return Err(format!(
                "mariadbd --help fails on an empty option file: {lines:?}"
            ));
        }
        oracle.baseline_help = lines.iter().map(|l| mask(l)).collect();
        match oracle.start(&cnf, dir.path())? {
            (true, lines) => oracle.baseline_start = lines.iter().map(|l| mask(l)).collect(),
            (false, lines) => {
                return Err(format!(
                    "mariadbd does not start with an empty option file: {lines:?}"
                ));
            }
        }
        Ok(oracle)
    }

    /// `major.minor.patch` of the installed server, e.g. `10.11.19`.
    pub fn release(&self) -> String {
        self.version
            .split('-')
            .next()
            .unwrap_or(&self.version)
            .to_string()
    }

    /// Judge the option file `cnf` (other files it includes may sit beside
    /// it). `scratch` is an empty directory for the datadir, socket and log.
    pub fn judge(&self, cnf: &Path, scratch: &Path) -> Result<Verdict, String> {
        let (code, lines) = self.help(cnf)?;
        let new_help = self.new_lines(&lines, &self.baseline_help);
        if code != Some(0) {
            return Ok(Verdict {
                class: Class::Refuses,
                lines: new_help,
                via: "help",
            });
        }
        let (up, lines) = self.start(cnf, scratch)?;
        let new_start = self.new_lines(&lines, &self.baseline_start);
        let class = if !up {
            Class::Refuses
        } else if new_start.is_empty() && new_help.is_empty() {
            Class::Clean
        } else {
            Class::Warns
        };
        let mut all = new_help;
        for l in new_start {
            if !all.contains(&l) {
                all.push(l);
            }
        }
        Ok(Verdict {
            class,
            lines: all,
            via: "start",
        })
    }

    /// The value of every variable after parsing `cnf`, from the table at
    /// the end of `--verbose --help` (names with dashes, as printed).
    pub fn variables(&self, cnf: &Path) -> Result<Vec<(String, String)>, String> {
        let out = self
            .help_command(cnf)
            .stderr(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run mariadbd: {e}"))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let mut vars = Vec::new();
        let mut table = false;
        for line in text.lines() {
            if line.starts_with("Variables (--variable-name=value)") {
                table = true;
                continue;
            }
            if !table || line.starts_with("---") || line.trim().is_empty() {
                continue;
            }
            let mut it = line.splitn(2, char::is_whitespace);
            if let (Some(name), Some(value)) = (it.next(), it.next()) {
                vars.push((name.to_string(), value.trim().to_string()));
            }
        }
        Ok(vars)
    }

    fn help_command(&self, cnf: &Path) -> Command {
        let mut cmd = Command::new(&self.mariadbd);
        cmd.arg(format!("--defaults-file={}", cnf.display()));
        if mariadb::is_root() {
            cmd.arg("--user=root");
        }
        cmd.arg("--verbose").arg("--help").stdin(Stdio::null());
        cmd
    }

    /// Exit code and the interesting stderr lines of `--verbose --help`.
    fn help(&self, cnf: &Path) -> Result<(Option<i32>, Vec<String>), String> {
        let out = self
            .help_command(cnf)
            .stdout(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run mariadbd: {e}"))?;
        let text = String::from_utf8_lossy(&out.stderr);
        Ok((out.status.code(), interesting(&text, true)))
    }

    /// Start for real; `(accepted connections, interesting log lines)`.
    fn start(&self, cnf: &Path, scratch: &Path) -> Result<(bool, Vec<String>), String> {
        self.start_then(cnf, scratch, |_| ())
            .map(|(up, lines, _)| (up, lines))
    }

    /// The global variables of a real start with `cnf` (`SHOW GLOBAL
    /// VARIABLES`, values naming the scratch directory masked), or `None`
    /// when the server does not start. Some lines are read only by a
    /// storage engine as it starts (InnoDB's checks of its files), which
    /// `--verbose --help` does not do.
    pub fn started_variables(
        &self,
        cnf: &Path,
        scratch: &Path,
    ) -> Result<Option<Vec<(String, String)>>, String> {
        let (up, _, vars) = self.start_then(cnf, scratch, |socket| {
            let out = Command::new("mariadb")
                .arg("--no-defaults")
                .arg("-uroot")
                .arg(format!("--socket={}", socket.display()))
                .args(["--batch", "--skip-column-names"])
                .args(["-e", "SHOW GLOBAL VARIABLES"])
                .output()
                .map_err(|e| format!("cannot run the mariadb client: {e}"))?;
            if !out.status.success() {
                return Err(String::from_utf8_lossy(&out.stderr).into_owned());
            }
            let scratch_text = scratch.display().to_string();
            Ok(String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter_map(|l| l.split_once('\t'))
                // Different in every start: the port each is given, the
                // server's random id.
                .filter(|(n, _)| !["port", "report_port", "server_uid"].contains(n))
                .map(|(n, v)| (n.to_string(), v.replace(&scratch_text, "<scratch>")))
                .collect::<Vec<_>>())
        })?;
        match (up, vars) {
            (true, Some(v)) => v.map(Some),
            _ => Ok(None),
        }
    }

    /// [`Oracle::start`], calling `on_up` with the socket while the server
    /// accepts connections.
    fn start_then<T>(
        &self,
        cnf: &Path,
        scratch: &Path,
        on_up: impl FnOnce(&Path) -> T,
    ) -> Result<(bool, Vec<String>, Option<T>), String> {
        let datadir = scratch.join("data");
        let _ = fs::remove_dir_all(&datadir);
        mariadb::copy_dir(&self.template, &datadir)
            .map_err(|e| format!("cannot copy the template datadir: {e}"))?;
        let socket = scratch.join("sock");
        let log = scratch.join("error.log");
        let _ = fs::remove_file(&log);
        let port = mariadb::free_port()?;
        let mut cmd = Command::new(&self.mariadbd);
        cmd.arg(format!("--defaults-file={}", cnf.display()))
            .arg(format!("--datadir={}", datadir.display()))
            .arg(format!("--socket={}", socket.display()))
            .arg(format!("--port={port}"))
            .arg("--bind-address=127.0.0.1")
            .arg(format!("--pid-file={}", scratch.join("pid").display()))
            .arg(format!("--log-error={}", log.display()))
            // A private tmpdir (see tests/it/support/mariadb.rs).
            .arg(format!("--tmpdir={}", scratch.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if mariadb::is_root() {
            cmd.arg("--user=root");
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot run mariadbd: {e}"))?;
        let deadline = Instant::now() + START_TIMEOUT;
        let up = loop {
            if let Ok(Some(_)) = child.try_wait() {
                break false;
            }
            if let Ok(mut s) = UnixStream::connect(&socket) {
                let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
                let mut buf = [0u8; 4];
                if s.read_exact(&mut buf).is_ok() {
                    break true;
                }
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "mariadbd neither started nor exited within {START_TIMEOUT:?}"
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let value = up.then(|| on_up(&socket));
        let _ = child.kill();
        let _ = child.wait();
        let text = fs::read_to_string(&log).unwrap_or_default();
        let _ = fs::remove_dir_all(&datadir);
        Ok((up, interesting(&text, false), value))
    }

    fn new_lines(&self, lines: &[String], baseline: &BTreeSet<String>) -> Vec<String> {
        lines
            .iter()
            .filter(|l| !baseline.contains(&mask(l)))
            .filter(|l| !ENVIRONMENTAL.iter().any(|e| l.contains(e)))
            .cloned()
            .collect()
    }
}

/// Warning and error lines without their timestamp and thread id. In help
/// mode every line counts (the server prints only problems there, some
/// without a level); in a real start only warnings, errors and the unique
/// prefix note do.
fn interesting(text: &str, help: bool) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let body = strip_timestamp(line);
        if body.trim().is_empty() {
            continue;
        }
        let counts = body.starts_with("[Warning]")
            || body.starts_with("[ERROR]")
            || body.contains("Using unique option prefix")
            || (help
                && !body.starts_with("[Note]")
                && !RESOURCE_USAGE.iter().any(|r| body.starts_with(r)));
        if counts && !out.iter().any(|l: &String| l == body) {
            out.push(body.to_string());
        }
    }
    out
}

/// `2026-12-01  9:56:28 0 [Warning] text` → `[Warning] text`.
fn strip_timestamp(line: &str) -> &str {
    match line.find(" [") {
        Some(i) if line.as_bytes().first().is_some_and(u8::is_ascii_digit) => &line[i + 1..],
        _ => line,
    }
}

/// Digit runs as one `#`, so a line differing only in its numbers matches.
fn mask(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Names a throw-away server cannot be probed with: they change where it
/// writes or what it is (paths, the user, networking, running modes that
/// do not start a server), or only print something.
pub const NOT_PROBED: &[&str] = &[
    "basedir",
    "bind_address",
    "bootstrap",
    "character_sets_dir",
    "chroot",
    "datadir",
    "defaults_extra_file",
    "defaults_file",
    "defaults_group_suffix",
    "gdb",
    "help",
    "init_file",
    "install",
    "install_manual",
    "lc_messages_dir",
    "log_basename",
    "log_error",
    "no_defaults",
    "pid_file",
    "plugin_dir",
    "port",
    "print_defaults",
    "remove",
    "socket",
    "standalone",
    "tmpdir",
    "user",
    "verbose",
    "version",
    "wsrep_provider",
    "wsrep_on",
    "debug",
    "debug_gdb",
    "debug_no_sync",
    "core_file",
    "skip_networking",
    "port_open_timeout",
    "thread_pool_exact_stats",
    "secure_file_priv",
    "innodb_data_home_dir",
    "innodb_log_group_home_dir",
    "innodb_undo_directory",
    "innodb_tmpdir",
    "aria_log_dir_path",
    "init_rpl_role",
    "temp_pool",
    "memlock",
    "silent_startup",
    "log_tc",
    "tc_heuristic_recover",
    "innodb_data_file_path",
    "innodb_temp_data_file_path",
    "innodb_page_size",
    "innodb_undo_tablespaces",
    "innodb_force_recovery",
    "innodb_read_only",
    "aria_readonly",
    "innodb_encrypt_log",
    "innodb_encrypt_tables",
    "innodb_encrypt_temporary_tables",
    "innodb_default_encryption_key_id",
    "ssl",
    "ssl_ca",
    "ssl_capath",
    "ssl_cert",
    "ssl_key",
    "ssl_crl",
    "ssl_crlpath",
    "ssl_cipher",
    "general_log_file",
    "slow_query_log_file",
    "log_bin_index",
    "relay_log",
    "relay_log_index",
    "relay_log_info_file",
    "master_info_file",
    "log_bin",
    "log_slow_query_file",
    "plugin_load",
    "plugin_load_add",
    "plugin_maturity",
    "init_connect",
    "init_slave",
    "server_audit_file_path",
    "stack_trace",
    "myisam_recover_options",
    "large_pages",
    "transaction_alloc_block_size",
    "thread_stack",
    // TLS set-up depends on the certificates the build and host provide.
    "skip_ssl",
    // A second listening port: parallel throw-away servers given the same
    // one collide ("Address already in use"), as port does.
    "extra_port",
];

/// Drop lines that point the server at this machine's paths or users, and
/// the buffer pool sizes of bigger hosts (this one cannot map them).
pub fn strip_paths(text: &str) -> String {
    text.lines()
        .filter(|l| {
            let name = l
                .split('=')
                .next()
                .unwrap_or("")
                .trim()
                .trim_start_matches("loose-")
                .trim_start_matches("loose_")
                .replace('-', "_");
            !NOT_PROBED.contains(&name.as_str()) && name != "innodb_buffer_pool_size"
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// A plausible value for a name whose values are not the point.
pub fn sample_value(kind: &mytune::catalog::VarKind, default: Option<&str>) -> String {
    use mytune::catalog::VarKind;
    match kind {
        VarKind::Bool => "ON".into(),
        VarKind::Enum { values } => values.first().cloned().unwrap_or_default(),
        VarKind::Set { values } => values.first().cloned().unwrap_or_default(),
        VarKind::Integer { .. } | VarKind::Size { .. } | VarKind::Float { .. } => {
            default.filter(|d| !d.is_empty()).unwrap_or("1").into()
        }
        VarKind::String | VarKind::Path => default.unwrap_or("x").into(),
    }
}

/// [`sample_value`] for a name: a time zone needs tables to be named.
pub fn sample_for(name: &str, kind: &mytune::catalog::VarKind, default: Option<&str>) -> String {
    if name == "default_time_zone" {
        return "SYSTEM".into();
    }
    sample_value(kind, default)
}

/// A small, seeded PRNG (xorshift64*): a sample must reproduce from the
/// seed alone, without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// The first `n` of `items` shuffled from `seed` (a partial Fisher-Yates):
/// the same seed gives the same sample.
pub fn seeded_sample<T>(mut items: Vec<T>, n: usize, seed: u64) -> Vec<T> {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let n = n.min(items.len());
    for i in 0..n {
        let j = i + (rng.next() as usize) % (items.len() - i);
        items.swap(i, j);
    }
    items.truncate(n);
    items
}

/// How much of a differential corpus one run judges: everything with
/// `MYTUNE_{name}_FULL=1`, else a sample of `MYTUNE_{name}_SAMPLE` cases
/// (default `sample`) drawn with `MYTUNE_{name}_SEED` (default 1).
pub struct Sampling {
    pub full: bool,
    pub seed: u64,
    pub n: usize,
}

pub fn sampling(name: &str, sample: usize) -> Sampling {
    let var = |what: &str| std::env::var(format!("MYTUNE_{name}_{what}")).ok();
    Sampling {
        full: var("FULL").as_deref() == Some("1"),
        seed: var("SEED").and_then(|s| s.parse().ok()).unwrap_or(1),
        n: var("SAMPLE").and_then(|s| s.parse().ok()).unwrap_or(sample),
    }
}
