//! Connecting like the `mysql` client: the same flags, option files and
//! environment, resolved with the same precedence, into one [`mysql::Opts`].
//!
//! Precedence (highest first): command-line flags; `MYSQL_PWD` (password
//! only; deprecated and insecure, other users may see a process's
//! environment); option files, `[client]` then `[mytune]`, later files
//! winning. `--defaults-file` replaces the default file list,
//! `--defaults-extra-file` adds a file after the global ones (before the
//! user's `~/.my.cnf`), `--no-defaults` reads none.
//!
//! The password is held in a [`Secret`] (its `Debug` prints `***`), goes to
//! the driver in memory only, and is scrubbed from every error text we pass
//! on. The session is made read-only right after connecting.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use crate::cnf;
use crate::collect::host::is_loopback_host;

/// A password. Never printed: `Debug` shows `***` and there is no `Display`.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: impl Into<String>) -> Self {
        Secret(s.into())
    }
    /// The password itself, for the driver only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl FromStr for Secret {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Secret(s.to_string()))
    }
}

/// `--protocol`, as the `mysql` client spells it: how to reach a server
/// named `localhost` (or none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// TCP, to 127.0.0.1 when the host is `localhost` or not given.
    Tcp,
    /// The Unix socket.
    Socket,
}

impl FromStr for Protocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_uppercase().as_str() {
            "TCP" => Ok(Protocol::Tcp),
            "SOCKET" => Ok(Protocol::Socket),
            other => Err(format!(
                "unknown protocol '{other}' (expected TCP or SOCKET; PIPE and MEMORY are Windows-only)"
            )),
        }
    }
}

/// `--ssl-mode`, as the `mysql` client spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SslMode {
    Disabled,
    /// TLS when the server offers it, without verifying its certificate;
    /// not attempted over a socket or loopback (the traffic stays local).
    #[default]
    Preferred,
    Required,
    VerifyCa,
    VerifyIdentity,
}

impl FromStr for SslMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_uppercase().replace('-', "_").as_str() {
            "DISABLED" => Ok(SslMode::Disabled),
            "PREFERRED" => Ok(SslMode::Preferred),
            "REQUIRED" => Ok(SslMode::Required),
            "VERIFY_CA" => Ok(SslMode::VerifyCa),
            "VERIFY_IDENTITY" => Ok(SslMode::VerifyIdentity),
            other => Err(format!(
                "unknown ssl-mode '{other}' (expected DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY)"
            )),
        }
    }
}

/// How to reach a server, as the `mysql` client's flags say it (each `None`:
/// not given; option files and `MYSQL_PWD` fill in). The command line that
/// reads them is the binary's.
#[derive(Debug, Clone, Default)]
pub struct ConnectArgs {
    /// Server host name or IP; `localhost` (the default) means the socket.
    /// `--host` alone means this host: the local server over its socket
    /// (whatever the option files say) and this host's facts.
    pub host: Option<String>,
    /// TCP port (default 3306).
    pub port: Option<u16>,
    /// User name (default: your login name).
    pub user: Option<String>,
    /// Password; `-p` or `--password` without a value prompts on the terminal.
    /// Give the value attached (`-pSECRET`, `--password=SECRET`). Prefer an
    /// option file: a password on the command line is visible to other users.
    /// MYSQL_PWD is read when no password flag is given (deprecated and
    /// insecure: other users may read a process's environment).
    pub password: Option<Option<Secret>>,
    /// Unix socket file.
    pub socket: Option<PathBuf>,
    /// TCP or SOCKET. As with the `mysql` client, `-h localhost` means the
    /// socket unless --protocol=TCP; a port alone (no host) means TCP to
    /// 127.0.0.1.
    pub protocol: Option<Protocol>,
    /// Read only this option file (instead of the default ones).
    pub defaults_file: Option<PathBuf>,
    /// Read this option file too, after the global ones.
    pub defaults_extra_file: Option<PathBuf>,
    /// Read no option file.
    pub no_defaults: bool,
    /// Also read the option groups with this suffix, [client_SUFFIX] and [mytune_SUFFIX] for
    /// `--defaults-group-suffix=_SUFFIX` (a fleet's own account next to the usual one), as the
    /// mysql client does. Default: the MYSQL_GROUP_SUFFIX environment variable.
    pub defaults_group_suffix: Option<String>,
    /// TLS use: DISABLED, PREFERRED (default), REQUIRED, VERIFY_CA, VERIFY_IDENTITY.
    pub ssl_mode: Option<SslMode>,
    /// CA certificate file (PEM) for VERIFY_CA / VERIFY_IDENTITY.
    pub ssl_ca: Option<PathBuf>,
    /// Seconds the whole connection may take: TCP connect, handshake, TLS
    /// and login (default 10; at least 1).
    pub connect_timeout: Option<u64>,
    /// Seconds to wait for each reply of the server (default 30; at least 1).
    pub read_timeout: Option<u64>,
}

impl ConnectArgs {
    /// `--host` given alone: check this host (its server, if one answers).
    pub fn this_host(&self) -> bool {
        self.host.as_deref() == Some("")
    }
}

/// Client settings read from option files (`[client]`, `[mytune]`, …).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FileSettings {
    pub host: Option<String>,
    pub port: Option<u16>,
    pub user: Option<String>,
    pub password: Option<Secret>,
    /// A bare `password` line: prompt for it.
    pub password_prompt: bool,
    pub socket: Option<PathBuf>,
    pub protocol: Option<Protocol>,
    pub ssl_mode: Option<SslMode>,
    pub ssl_ca: Option<PathBuf>,
    pub connect_timeout: Option<u64>,
    pub read_timeout: Option<u64>,
}

impl FileSettings {
    /// Apply one effective option (canonical name: lowercase, `_`). Options a
    /// client does not use are ignored, as the `mysql` client ignores options
    /// of other programs in `[client]`. A bad value is an error naming it
    /// (never echoing a password).
    pub fn apply(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let v = value.unwrap_or("");
        match name {
            "host" => self.host = Some(v.to_string()),
            "port" => {
                self.port = Some(
                    v.trim()
                        .parse()
                        .map_err(|_| format!("port = '{v}' is not a TCP port number"))?,
                )
            }
            "user" => self.user = Some(v.to_string()),
            // A bare `password` asks for it on the terminal, as in `mysql`.
            "password" => match value {
                Some(v) => {
                    self.password = Some(Secret::new(v));
                    self.password_prompt = false;
                }
                None => {
                    self.password = None;
                    self.password_prompt = true;
                }
            },
            "socket" => self.socket = Some(PathBuf::from(v)),
            "protocol" => self.protocol = Some(v.parse()?),
            "ssl_mode" => self.ssl_mode = Some(v.parse()?),
            "ssl_ca" => self.ssl_ca = Some(PathBuf::from(v)),
            "connect_timeout" => {
                self.connect_timeout =
                    Some(v.trim().parse().map_err(|_| {
                        format!("connect_timeout = '{v}' is not a number of seconds")
                    })?)
            }
            "read_timeout" | "net_read_timeout" => {
                self.read_timeout = Some(
                    v.trim()
                        .parse()
                        .map_err(|_| format!("{name} = '{v}' is not a number of seconds"))?,
                )
            }
            _ => {}
        }
        Ok(())
    }

    /// Lay `later` over `self`: what `later` sets wins.
    pub fn merge(&mut self, later: FileSettings) {
        self.host = later.host.or(self.host.take());
        self.port = later.port.or(self.port);
        self.user = later.user.or(self.user.take());
        if later.password.is_some() || later.password_prompt {
            self.password = later.password;
            self.password_prompt = later.password_prompt;
        }
        self.socket = later.socket.or(self.socket.take());
        self.protocol = later.protocol.or(self.protocol);
        self.ssl_mode = later.ssl_mode.or(self.ssl_mode);
        self.ssl_ca = later.ssl_ca.or(self.ssl_ca.take());
        self.connect_timeout = later.connect_timeout.or(self.connect_timeout);
        self.read_timeout = later.read_timeout.or(self.read_timeout);
    }
}

/// Everything needed to open a connection, after precedence was applied.
#[derive(Debug, Clone, PartialEq)]
pub struct ConnectionConfig {
    /// TCP host; `None` means the Unix socket.
    pub host: Option<String>,
    pub port: u16,
    /// Socket path when connecting over a socket.
    pub socket: Option<PathBuf>,
    pub user: String,
    pub password: Option<Secret>,
    pub ssl_mode: SslMode,
    pub ssl_ca: Option<PathBuf>,
    pub connect_timeout: Duration,
    pub read_timeout: Duration,
    /// Option files that were read, in order.
    pub files_read: Vec<PathBuf>,
}

impl ConnectionConfig {
    /// Where we connect, for messages: `socket /run/mysqld/mysqld.sock` or
    /// `127.0.0.1:3306`.
    pub fn endpoint(&self) -> String {
        match (&self.host, &self.socket) {
            (Some(h), _) => format!("{h}:{}", self.port),
            (None, Some(s)) => format!("socket {}", s.display()),
            (None, None) => format!("localhost:{}", self.port),
        }
    }

    /// Over a socket or to a loopback address: host facts describe the
    /// server's machine.
    pub fn is_local(&self) -> bool {
        match &self.host {
            None => true,
            Some(h) => is_loopback_host(h),
        }
    }
}

/// Default socket paths tried when none is configured, as packaged servers
/// place them.
pub const DEFAULT_SOCKETS: [&str; 4] = [
    "/run/mysqld/mysqld.sock",
    "/var/run/mysqld/mysqld.sock",
    "/var/lib/mysql/mysql.sock",
    "/tmp/mysql.sock",
];

/// The option files to read for these flags, in order.
pub fn option_files(args: &ConnectArgs) -> Vec<PathBuf> {
    if args.no_defaults {
        return Vec::new();
    }
    if let Some(f) = &args.defaults_file {
        return vec![f.clone()];
    }
    let mut files = default_files();
    if let Some(extra) = &args.defaults_extra_file {
        // After the global files, before the user's own.
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let pos = files
            .iter()
            .position(|f| home.as_ref().is_some_and(|h| f.starts_with(h)))
            .unwrap_or(files.len());
        files.insert(pos, extra.clone());
    }
    files
}

/// The files the `mysql` client reads by default.
fn default_files() -> Vec<PathBuf> {
    cnf::default_files()
}

/// The groups read for connection settings. The flavor is not known before
/// connecting, so every flavor's client groups are read (`[client]`,
/// MariaDB's `[client-server]` and `[client-mariadb]`); then `[mytune]`. With a
/// `--defaults-group-suffix`, each of them with the suffix too.
pub fn client_groups(suffix: Option<&str>) -> Vec<String> {
    let groups = cnf::any_client_groups(&["mytune"]);
    match suffix.filter(|s| !s.is_empty()) {
        Some(sfx) => {
            let suffixed: Vec<String> = groups.iter().map(|g| format!("{g}{sfx}")).collect();
            groups.into_iter().chain(suffixed).collect()
        }
        None => groups,
    }
}

/// `--defaults-group-suffix`, else `MYSQL_GROUP_SUFFIX` (as the client).
fn group_suffix(args: &ConnectArgs) -> Option<String> {
    args.defaults_group_suffix
        .clone()
        .or_else(|| std::env::var("MYSQL_GROUP_SUFFIX").ok())
        .filter(|s| !s.is_empty())
}

/// The `[client]`/`[mytune]` options of one file and what it includes, as
/// (canonical name, value) pairs in reading order (the last one wins); a bare
/// name has no value. Files that are writable by everyone are ignored, as
/// the client ignores them; problems the client refuses to start with are
/// errors naming file, line and column.
fn client_options(
    path: &Path,
    suffix: Option<&str>,
) -> Result<Vec<(String, Option<String>)>, String> {
    let loaded = cnf::load(path).map_err(|e| e.to_string())?;
    if let Some(e) = loaded.errors.iter().find(|e| e.kind.refused_by_server()) {
        return Err(e.to_string());
    }
    let ignored: Vec<&Path> = loaded
        .errors
        .iter()
        .filter(|e| e.kind == cnf::CnfErrorKind::WorldWritable)
        .map(|e| e.location.file.as_path())
        .collect();
    let groups = client_groups(suffix);
    // The driver sends a password as UTF-8 text; one with other bytes would
    // go out altered (U+FFFD), so it is refused instead.
    let bad_bytes: Vec<(&Path, u32)> = loaded
        .errors
        .iter()
        .filter(|e| e.kind == cnf::CnfErrorKind::InvalidUtf8)
        .map(|e| (e.location.file.as_path(), e.location.line))
        .collect();
    if let Some(e) = loaded.entries.iter().find(|e| {
        groups.iter().any(|g| g == e.group_as_read())
            && matches!(e.name.as_str(), "password" | "pass")
            && bad_bytes.contains(&(e.location.file.as_path(), e.location.line))
    }) {
        return Err(format!(
            "{}: the password is not UTF-8 text, and mytune can only send it altered; \
             give it with -p (prompt) or MYSQL_PWD",
            e.location
        ));
    }
    Ok(loaded
        .entries
        .into_iter()
        .filter(|e| groups.iter().any(|g| g == e.group_as_read()))
        .filter(|e| !ignored.contains(&e.location.file.as_path()))
        .filter(|e| matches!(e.modifier, cnf::Modifier::None | cnf::Modifier::Loose))
        .map(|e| (e.name, e.value))
        .collect())
}

/// Read the client settings of `files` (missing files are skipped, as the
/// `mysql` client skips them; an explicit `--defaults-file` must exist).
pub fn load_file_settings(args: &ConnectArgs) -> Result<FileSettings, ConnectError> {
    let mut settings = FileSettings::default();
    for file in option_files(args) {
        if !file.exists() {
            if args.defaults_file.as_ref() == Some(&file)
                || args.defaults_extra_file.as_ref() == Some(&file)
            {
                return Err(ConnectError::Options(format!(
                    "option file {} does not exist",
                    file.display()
                )));
            }
            continue;
        }
        let mut one = FileSettings::default();
        for (name, value) in
            client_options(&file, group_suffix(args).as_deref()).map_err(ConnectError::Options)?
        {
            one.apply(&name, value.as_deref())
                .map_err(|e| ConnectError::Options(format!("{}: {e}", file.display())))?;
        }
        settings.merge(one);
    }
    Ok(settings)
}

/// Apply precedence: flags > `MYSQL_PWD` > option files > defaults. `prompt`
/// is called when `-p` was given without a value; `env_password` is
/// `MYSQL_PWD`; `login` the OS user name (the default user).
pub fn resolve(
    args: &ConnectArgs,
    files: FileSettings,
    env_password: Option<Secret>,
    login: Option<String>,
    prompt: &mut dyn FnMut() -> Result<Secret, ConnectError>,
) -> Result<ConnectionConfig, ConnectError> {
    let password = match &args.password {
        Some(Some(p)) => Some(p.clone()),
        Some(None) => Some(prompt()?),
        None => match (env_password, files.password) {
            (Some(p), _) => Some(p),
            (None, Some(p)) => Some(p),
            (None, None) if files.password_prompt => Some(prompt()?),
            (None, None) => None,
        },
    };
    // `--host` alone: this host's server, whatever the files say.
    let host = match args.host.as_deref() {
        Some("") => None,
        Some(h) => Some(h.to_string()),
        None => files.host,
    };
    let port = args.port.or(files.port).unwrap_or(3306);
    let socket = args.socket.clone().or(files.socket);
    // Like the client: `localhost` means the socket unless --protocol=TCP;
    // no host means the socket too, unless only a port was asked for on
    // the command line (then TCP to 127.0.0.1, as the MariaDB client does).
    let protocol = args.protocol.or(files.protocol);
    let (host, socket) = match host.as_deref() {
        None | Some("localhost") => {
            let sock = socket.or_else(|| {
                DEFAULT_SOCKETS
                    .iter()
                    .map(PathBuf::from)
                    .find(|p| p.exists())
            });
            let port_alone = host.is_none() && args.port.is_some() && args.socket.is_none();
            let tcp = match protocol {
                Some(Protocol::Tcp) => true,
                Some(Protocol::Socket) => false,
                None => port_alone || sock.is_none(),
            };
            match sock {
                Some(s) if !tcp => (None, Some(s)),
                None if protocol == Some(Protocol::Socket) => {
                    return Err(ConnectError::Options(
                        "--protocol=SOCKET, but no socket was given (--socket) and none of the usual \
                         ones exists"
                            .into(),
                    ));
                }
                _ => (Some("127.0.0.1".to_string()), None),
            }
        }
        Some(h) => (Some(h.to_string()), None),
    };
    let connect_timeout = args.connect_timeout.or(files.connect_timeout).unwrap_or(10);
    let read_timeout = args.read_timeout.or(files.read_timeout).unwrap_or(30);
    // 0 would mean "wait forever" to the driver (and panics the standard
    // library's connect): refused rather than documented.
    for (name, v) in [
        ("--connect-timeout", connect_timeout),
        ("--read-timeout", read_timeout),
    ] {
        if v == 0 {
            return Err(ConnectError::Options(format!(
                "{name} 0 would wait forever; give a number of seconds of at least 1"
            )));
        }
    }
    Ok(ConnectionConfig {
        host,
        port,
        socket,
        user: args
            .user
            .clone()
            .or(files.user)
            .or(login)
            .unwrap_or_else(|| "root".into()),
        password,
        ssl_mode: args.ssl_mode.or(files.ssl_mode).unwrap_or_default(),
        ssl_ca: args.ssl_ca.clone().or(files.ssl_ca),
        connect_timeout: Duration::from_secs(connect_timeout),
        read_timeout: Duration::from_secs(read_timeout),
        files_read: option_files(args)
            .into_iter()
            .filter(|f| f.exists())
            .collect(),
    })
}

/// Resolve from the real environment: option files, `MYSQL_PWD`, `$USER`,
/// and a prompt on `/dev/tty`.
pub fn resolve_from_env(args: &ConnectArgs) -> Result<ConnectionConfig, ConnectError> {
    if matches!(args.password, Some(Some(_))) {
        // What the mysql client says: the value stays visible in `ps`.
        crate::stderr_line!(
            "mytune: [Warning] Using a password on the command line interface can be insecure."
        );
    }
    let files = load_file_settings(args)?;
    let env_password = std::env::var("MYSQL_PWD").ok().map(Secret::new);
    let login = std::env::var("USER")
        .or_else(|_| std::env::var("LOGNAME"))
        .ok();
    resolve(args, files, env_password, login, &mut prompt_password)
}

/// [`resolve_from_env`] with `suffix` as `--defaults-group-suffix`: a
/// fleet host's own option groups (`[client_SUFFIX]`, `[mytune_SUFFIX]`).
/// `prompt` answers a prompt (the run asks once and gives every host the
/// same answer).
pub fn resolve_with_suffix(
    args: &ConnectArgs,
    suffix: &str,
    prompt: &mut dyn FnMut() -> Result<Secret, ConnectError>,
) -> Result<ConnectionConfig, ConnectError> {
    let mut args = args.clone();
    args.defaults_group_suffix = Some(suffix.to_string());
    let files = load_file_settings(&args)?;
    let env_password = std::env::var("MYSQL_PWD").ok().map(Secret::new);
    let login = std::env::var("USER")
        .or_else(|_| std::env::var("LOGNAME"))
        .ok();
    resolve(&args, files, env_password, login, prompt)
}

/// Ask for the password on the terminal (`/dev/tty`), without echo.
pub fn prompt_password() -> Result<Secret, ConnectError> {
    if std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .is_err()
    {
        return Err(ConnectError::Options(
            "-p/--password without a value needs a terminal to ask on; give the password in an option file ([client] password=...) or MYSQL_PWD".into(),
        ));
    }
    rpassword::prompt_password("Enter password: ")
        .map(Secret::new)
        .map_err(|e| {
            ConnectError::Options(format!("cannot read the password from the terminal: {e}"))
        })
}

/// Why a connection failed. Texts never contain the password.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("cannot connect to {endpoint}: nothing is listening there ({detail})")]
    NotListening { endpoint: String, detail: String },
    #[error("{endpoint} refused the login: {message}")]
    AccessDenied { endpoint: String, message: String },
    #[error("cannot connect to {endpoint}: {message}")]
    Failed { endpoint: String, message: String },
    #[error("{0}")]
    Options(String),
}

/// Replace every occurrence of the password in `text` with `***`. Very
/// short passwords (under 3 characters) are not scrubbed: they would mangle
/// ordinary words and cannot be hidden by scrubbing anyway.
pub fn scrub(text: &str, password: Option<&Secret>) -> String {
    match password {
        Some(p) if p.expose().chars().count() >= 3 => text.replace(p.expose(), "***"),
        _ => text.to_string(),
    }
}

/// Build driver options. The connection never prefers a socket behind our
/// back (`prefer_socket(false)`) and sets `max_allowed_packet` so the driver
/// does not spend a query reading it.
pub fn driver_opts(cfg: &ConnectionConfig) -> Result<mysql::Opts, ConnectError> {
    let mut b = mysql::OptsBuilder::new()
        .user(Some(cfg.user.clone()))
        .pass(cfg.password.as_ref().map(|p| p.expose().to_string()))
        .prefer_socket(false)
        .max_allowed_packet(Some(64 << 20))
        .tcp_connect_timeout(Some(cfg.connect_timeout))
        .read_timeout(Some(cfg.read_timeout))
        .write_timeout(Some(cfg.read_timeout))
        .stmt_cache_size(0);
    match (&cfg.host, &cfg.socket) {
        (Some(h), _) => b = b.ip_or_hostname(Some(h.clone())).tcp_port(cfg.port),
        (None, Some(s)) => b = b.socket(Some(s.to_string_lossy().into_owned())),
        (None, None) => b = b.ip_or_hostname(Some("127.0.0.1")).tcp_port(cfg.port),
    }
    let tls = match cfg.ssl_mode {
        SslMode::Disabled => None,
        SslMode::Preferred if cfg.is_local() => None,
        SslMode::Preferred | SslMode::Required => Some(
            mysql::SslOpts::default()
                .with_danger_accept_invalid_certs(true)
                .with_danger_skip_domain_validation(true),
        ),
        SslMode::VerifyCa | SslMode::VerifyIdentity => {
            let ca = cfg.ssl_ca.clone().ok_or_else(|| {
                ConnectError::Options(
                    "--ssl-mode=VERIFY_CA/VERIFY_IDENTITY needs --ssl-ca FILE".into(),
                )
            })?;
            Some(
                mysql::SslOpts::default()
                    .with_root_cert_path(Some(ca))
                    .with_danger_skip_domain_validation(cfg.ssl_mode == SslMode::VerifyCa),
            )
        }
    };
    if cfg.host.is_some() {
        b = b.ssl_opts(tls);
    }
    Ok(b.into())
}

/// Open a connection within `--connect-timeout` in all. The driver's own
/// timeouts are per TCP connect and per read, so a server that accepts and
/// never answers, or answers a byte at a time, would hold it much longer:
/// the connection is made on a helper thread and given up at the deadline
/// (the thread, blocked in a read, ends with the process).
pub fn open(cfg: &ConnectionConfig) -> Result<mysql::Conn, ConnectError> {
    if let Some(ca) = &cfg.ssl_ca
        && !ca.is_file()
    {
        return Err(ConnectError::Options(format!(
            "--ssl-ca {}: {}",
            ca.display(),
            if ca.exists() {
                "not a regular file"
            } else {
                "no such file"
            }
        )));
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let worker_cfg = cfg.clone();
    std::thread::Builder::new()
        .name("mytune-connect".into())
        .spawn(move || {
            let _ = tx.send(open_blocking(&worker_cfg));
        })
        .map_err(|e| ConnectError::Failed {
            endpoint: cfg.endpoint(),
            message: format!("cannot start the connection: {e}"),
        })?;
    match rx.recv_timeout(cfg.connect_timeout) {
        Ok(result) => result,
        Err(_) => Err(ConnectError::Failed {
            endpoint: cfg.endpoint(),
            message: format!(
                "timed out after {} s: connected, but the server did not complete the handshake and login (--connect-timeout)",
                cfg.connect_timeout.as_secs()
            ),
        }),
    }
}

/// [`open`] without the overall deadline. With `PREFERRED` and a server
/// without TLS, retry in plain text, as the `mysql` client does.
fn open_blocking(cfg: &ConnectionConfig) -> Result<mysql::Conn, ConnectError> {
    let opts = driver_opts(cfg)?;
    match mysql::Conn::new(opts) {
        Ok(c) => Ok(c),
        Err(mysql::Error::DriverError(mysql::DriverError::TlsNotSupported))
            if cfg.ssl_mode == SslMode::Preferred =>
        {
            let plain = ConnectionConfig {
                ssl_mode: SslMode::Disabled,
                ..cfg.clone()
            };
            mysql::Conn::new(driver_opts(&plain)?).map_err(|e| classify(cfg, e))
        }
        Err(e) => Err(classify(cfg, e)),
    }
}

/// Turn a driver error into a [`ConnectError`] with the password scrubbed.
pub fn classify(cfg: &ConnectionConfig, e: mysql::Error) -> ConnectError {
    use std::io::ErrorKind;
    let endpoint = cfg.endpoint();
    let text = describe(&e, cfg);
    let not_listening = |kind: ErrorKind| {
        matches!(
            kind,
            ErrorKind::ConnectionRefused | ErrorKind::NotFound | ErrorKind::AddrNotAvailable
        )
    };
    match &e {
        mysql::Error::MySqlError(me) if me.code == 1045 || me.code == 1698 => {
            let mut message = scrub(&me.message, cfg.password.as_ref());
            // A fresh MariaDB or Debian install lets root in through the
            // socket only (unix_socket authentication): a password over TCP
            // is refused whatever it is.
            if cfg.user == "root" && cfg.host.is_some() {
                message.push_str(
                    "; root often logs in through unix_socket authentication, which works over the \
                     socket only: run mytune as the system root user without -h (or with --socket), \
                     or use a monitoring account",
                );
            }
            ConnectError::AccessDenied { endpoint, message }
        }
        mysql::Error::IoError(io) if not_listening(io.kind()) => ConnectError::NotListening {
            endpoint,
            detail: text,
        },
        mysql::Error::DriverError(mysql::DriverError::CouldNotConnect(Some((_, desc, kind))))
            if not_listening(*kind) =>
        {
            ConnectError::NotListening {
                endpoint,
                detail: scrub(desc, cfg.password.as_ref()),
            }
        }
        mysql::Error::DriverError(mysql::DriverError::CouldNotConnect(Some((_, desc, _)))) => {
            ConnectError::Failed {
                endpoint,
                message: scrub(desc, cfg.password.as_ref()),
            }
        }
        mysql::Error::DriverError(mysql::DriverError::ConnectTimeout) => ConnectError::Failed {
            endpoint,
            message: format!(
                "timed out after {} s: no answer to the TCP connection (--connect-timeout)",
                cfg.connect_timeout.as_secs()
            ),
        },
        mysql::Error::DriverError(mysql::DriverError::TlsNotSupported) => ConnectError::Failed {
            endpoint,
            message: "the server does not offer TLS, but --ssl-mode requires it".into(),
        },
        _ => ConnectError::Failed {
            endpoint,
            message: describe(&e, cfg),
        },
    }
}

/// A driver error in words, password scrubbed. The driver's `Display` is
/// its `Debug` (`CodecError { IO error: ... }`) and never says "timed out".
pub fn describe(e: &mysql::Error, cfg: &ConnectionConfig) -> String {
    use mysql_common::proto::codec::error::PacketCodecError;
    use std::io::ErrorKind;
    let io_words = |io: &std::io::Error| match io.kind() {
        ErrorKind::WouldBlock | ErrorKind::TimedOut => format!(
            "timed out after {} s waiting for the server's reply (--read-timeout)",
            cfg.read_timeout.as_secs()
        ),
        ErrorKind::UnexpectedEof
        | ErrorKind::ConnectionReset
        | ErrorKind::ConnectionAborted
        | ErrorKind::BrokenPipe => {
            "the server closed the connection (did it stop or restart?)".to_string()
        }
        _ => format!("network error: {io}"),
    };
    let text = match e {
        mysql::Error::IoError(io) => io_words(io),
        mysql::Error::CodecError(PacketCodecError::Io(io)) => io_words(io),
        mysql::Error::CodecError(PacketCodecError::PacketTooLarge) => {
            "the server sent a packet larger than max_allowed_packet".to_string()
        }
        mysql::Error::CodecError(_) => {
            "the server's reply is not the MySQL protocol (out of sync or corrupt)".to_string()
        }
        mysql::Error::MySqlError(me) => format!("server error {}: {}", me.code, me.message),
        mysql::Error::DriverError(mysql::DriverError::Timeout) => format!(
            "timed out after {} s waiting for the server (--read-timeout)",
            cfg.read_timeout.as_secs()
        ),
        mysql::Error::DriverError(mysql::DriverError::UnexpectedPacket)
        | mysql::Error::DriverError(mysql::DriverError::PacketOutOfSync) => {
            "the server's reply is not the MySQL protocol (unexpected packet)".to_string()
        }
        mysql::Error::DriverError(d) => d.to_string(),
        mysql::Error::TlsError(t) => format!("TLS failed: {t}"),
        mysql::Error::UrlError(u) => u.to_string(),
        mysql::Error::FromValueError(_) | mysql::Error::FromRowError(_) => {
            "a reply mytune could not read".to_string()
        }
    };
    scrub(&text, cfg.password.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_prompt() -> Result<Secret, ConnectError> {
        panic!("must not prompt")
    }

    #[test]
    fn a_group_suffix_adds_the_suffixed_groups() {
        assert_eq!(
            client_groups(Some("_fleet")),
            [
                "client",
                "client-server",
                "client-mariadb",
                "mytune",
                "client_fleet",
                "client-server_fleet",
                "client-mariadb_fleet",
                "mytune_fleet"
            ]
        );
        assert_eq!(client_groups(Some("")), client_groups(None));
    }

    #[test]
    fn secret_never_debug_prints() {
        let s = Secret::new("hunter2");
        assert_eq!(format!("{s:?}"), "***");
        let args = ConnectArgs {
            password: Some(Some(s)),
            ..Default::default()
        };
        assert!(!format!("{args:?}").contains("hunter2"));
    }

    #[test]
    fn flags_beat_env_beat_files() {
        let files = FileSettings {
            user: Some("fileuser".into()),
            password: Some(Secret::new("filepw")),
            host: Some("db.example".into()),
            port: Some(3307),
            ..Default::default()
        };
        let args = ConnectArgs::default();
        let c = resolve(
            &args,
            files.clone(),
            Some(Secret::new("envpw")),
            None,
            &mut no_prompt,
        )
        .unwrap();
        assert_eq!(c.password, Some(Secret::new("envpw")));
        assert_eq!(c.user, "fileuser");
        assert_eq!(c.host.as_deref(), Some("db.example"));
        assert_eq!(c.port, 3307);

        let args = ConnectArgs {
            user: Some("flaguser".into()),
            password: Some(Some(Secret::new("flagpw"))),
            port: Some(3310),
            ..Default::default()
        };
        let c = resolve(
            &args,
            files.clone(),
            Some(Secret::new("envpw")),
            None,
            &mut no_prompt,
        )
        .unwrap();
        assert_eq!(c.password, Some(Secret::new("flagpw")));
        assert_eq!(c.user, "flaguser");
        assert_eq!(c.port, 3310);

        let c = resolve(&ConnectArgs::default(), files, None, None, &mut no_prompt).unwrap();
        assert_eq!(c.password, Some(Secret::new("filepw")));
    }

    /// `-h localhost -P 3401` went over TCP although `localhost` means the
    /// socket; as with the client, only --protocol=TCP (or a port without a
    /// host) chooses TCP.
    #[test]
    fn localhost_means_the_socket_unless_protocol_tcp() {
        let dir = tempfile::tempdir().unwrap();
        let sock = dir.path().join("mysqld.sock");
        std::fs::write(&sock, "").unwrap();
        let files = FileSettings {
            socket: Some(sock.clone()),
            ..Default::default()
        };
        let resolve_with = |host: Option<&str>, port: Option<u16>, protocol: Option<Protocol>| {
            let args = ConnectArgs {
                host: host.map(str::to_string),
                port,
                protocol,
                ..Default::default()
            };
            resolve(&args, files.clone(), None, None, &mut no_prompt).unwrap()
        };
        let c = resolve_with(Some("localhost"), Some(3401), None);
        assert_eq!((c.host, c.socket), (None, Some(sock.clone())));
        let c = resolve_with(Some("localhost"), Some(3401), Some(Protocol::Tcp));
        assert_eq!(c.host.as_deref(), Some("127.0.0.1"));
        assert_eq!(c.port, 3401);
        let c = resolve_with(None, Some(3401), None);
        assert_eq!(c.host.as_deref(), Some("127.0.0.1"));
        let c = resolve_with(None, Some(3401), Some(Protocol::Socket));
        assert_eq!(c.socket, Some(sock));
        assert!("pipe".parse::<Protocol>().is_err());
    }

    #[test]
    fn bare_password_flag_prompts() {
        let args = ConnectArgs {
            password: Some(None),
            ..Default::default()
        };
        let mut asked = 0;
        let c = resolve(
            &args,
            FileSettings::default(),
            Some(Secret::new("env")),
            None,
            &mut || {
                asked += 1;
                Ok(Secret::new("typed"))
            },
        )
        .unwrap();
        assert_eq!(asked, 1);
        assert_eq!(c.password, Some(Secret::new("typed")));
    }

    #[test]
    fn later_files_win_and_bad_values_are_errors() {
        let mut a = FileSettings::default();
        a.apply("user", Some("a")).unwrap();
        a.apply("port", Some("3306")).unwrap();
        let mut b = FileSettings::default();
        b.apply("user", Some("b")).unwrap();
        a.merge(b);
        assert_eq!(a.user.as_deref(), Some("b"));
        assert_eq!(a.port, Some(3306));
        assert!(a.apply("port", Some("many")).is_err());
        assert!(a.apply("ssl_mode", Some("sometimes")).is_err());
        a.apply("ssl_mode", Some("verify_ca")).unwrap();
        assert_eq!(a.ssl_mode, Some(SslMode::VerifyCa));
        a.apply("default_character_set", Some("utf8mb4")).unwrap();
    }

    #[test]
    fn host_and_port_choose_the_transport() {
        let tcp = ConnectArgs {
            host: Some("127.0.0.1".into()),
            port: Some(3307),
            ..Default::default()
        };
        let c = resolve(
            &tcp,
            FileSettings::default(),
            None,
            Some("me".into()),
            &mut no_prompt,
        )
        .unwrap();
        assert_eq!(c.host.as_deref(), Some("127.0.0.1"));
        assert_eq!(c.endpoint(), "127.0.0.1:3307");
        assert_eq!(c.user, "me");
        assert!(c.is_local());

        let sock = ConnectArgs {
            socket: Some("/tmp/x.sock".into()),
            ..Default::default()
        };
        let c = resolve(&sock, FileSettings::default(), None, None, &mut no_prompt).unwrap();
        assert_eq!(c.host, None);
        assert_eq!(c.endpoint(), "socket /tmp/x.sock");

        let remote = ConnectArgs {
            host: Some("db.example.com".into()),
            ..Default::default()
        };
        let c = resolve(&remote, FileSettings::default(), None, None, &mut no_prompt).unwrap();
        assert!(!c.is_local());
    }

    #[test]
    fn defaults_file_replaces_and_extra_file_adds() {
        let only = ConnectArgs {
            defaults_file: Some("/x/only.cnf".into()),
            ..Default::default()
        };
        assert_eq!(option_files(&only), vec![PathBuf::from("/x/only.cnf")]);
        let extra = ConnectArgs {
            defaults_extra_file: Some("/x/extra.cnf".into()),
            ..Default::default()
        };
        let files = option_files(&extra);
        assert!(files.contains(&PathBuf::from("/x/extra.cnf")));
        assert_eq!(files[0], PathBuf::from("/etc/my.cnf"));
        let none = ConnectArgs {
            no_defaults: true,
            ..Default::default()
        };
        assert!(option_files(&none).is_empty());
    }

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn only(file: &Path) -> ConnectArgs {
        ConnectArgs {
            defaults_file: Some(file.to_path_buf()),
            ..Default::default()
        }
    }

    #[test]
    fn reads_client_and_mytune_groups_later_lines_winning() {
        let dir = tempfile::tempdir().unwrap();
        let f = write(
            dir.path(),
            "my.cnf",
            "[mysqld]\nuser = mysql\nport = 1\n\n[client]\nuser = clientuser\npassword = \"p w#1\"\nport = 3307\nhost = db.example\n\n[mytune]\nuser = tuner\nssl-mode = REQUIRED\n",
        );
        let s = load_file_settings(&only(&f)).unwrap();
        assert_eq!(s.user.as_deref(), Some("tuner"));
        assert_eq!(s.password, Some(Secret::new("p w#1")));
        assert_eq!(s.port, Some(3307), "[mysqld] is not read");
        assert_eq!(s.host.as_deref(), Some("db.example"));
        assert_eq!(s.ssl_mode, Some(SslMode::Required));
    }

    #[test]
    fn option_file_errors_name_the_place() {
        let dir = tempfile::tempdir().unwrap();
        let f = write(dir.path(), "bad.cnf", "user = nogroup\n[client]\n");
        let err = load_file_settings(&only(&f)).unwrap_err().to_string();
        assert!(err.contains("bad.cnf:1"), "{err}");
        let f = write(dir.path(), "port.cnf", "[client]\nport = many\n");
        let err = load_file_settings(&only(&f)).unwrap_err().to_string();
        assert!(err.contains("port.cnf") && err.contains("many"), "{err}");
        let missing = ConnectArgs {
            defaults_file: Some(dir.path().join("none.cnf")),
            ..Default::default()
        };
        assert!(
            load_file_settings(&missing)
                .unwrap_err()
                .to_string()
                .contains("does not exist")
        );
    }

    #[test]
    fn bare_password_in_a_file_prompts() {
        let dir = tempfile::tempdir().unwrap();
        let f = write(dir.path(), "my.cnf", "[client]\npassword\n");
        let files = load_file_settings(&only(&f)).unwrap();
        assert!(files.password_prompt);
        let mut asked = false;
        let c = resolve(&only(&f), files.clone(), None, None, &mut || {
            asked = true;
            Ok(Secret::new("typed"))
        })
        .unwrap();
        assert!(asked);
        assert_eq!(c.password, Some(Secret::new("typed")));
        // MYSQL_PWD answers it without a prompt.
        let c = resolve(
            &only(&f),
            files,
            Some(Secret::new("env")),
            None,
            &mut no_prompt,
        )
        .unwrap();
        assert_eq!(c.password, Some(Secret::new("env")));
    }

    #[test]
    fn world_writable_files_are_ignored() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let f = write(dir.path(), "open.cnf", "[client]\nuser = intruder\n");
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o666)).unwrap();
        let s = load_file_settings(&only(&f)).unwrap();
        assert_eq!(s.user, None);
    }

    #[test]
    fn a_password_that_is_not_utf8_is_refused_not_altered() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("my.cnf");
        std::fs::write(&p, b"[client]\npassword = SECRET\xffxyz\n").unwrap();
        let e = load_file_settings(&only(&p)).unwrap_err().to_string();
        assert!(e.contains("my.cnf:2:1: the password is not UTF-8"), "{e}");
        assert!(!e.contains("SECRET"), "{e}");
    }

    #[test]
    fn scrubs_passwords() {
        let p = Secret::new("s3cret");
        assert_eq!(scrub("bad s3cret here", Some(&p)), "bad *** here");
        assert_eq!(scrub("no password", None), "no password");
    }
}
