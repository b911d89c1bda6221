//! The connection flags of every command that talks to a server, spelled
//! as the `mysql` client spells them; [`ConnectFlags::args`] hands them to
//! the library's resolution (option files, `MYSQL_PWD`, the prompt).

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use mytune::collect::ConnectArgs;
use mytune::collect::connect::{Protocol, Secret, SslMode};

/// Connection flags shared by every command that talks to a server. Use with
/// `#[command(flatten)]` in a command that disables clap's `-h` help flag.
#[derive(Debug, Clone, Default, Args)]
pub struct ConnectFlags {
    /// Server host name or IP; `localhost` (the default) means the socket.
    /// `--host` alone means this host: the local server over its socket
    /// (whatever the option files say) and this host's facts.
    #[arg(
        short = 'h',
        long,
        value_name = "HOST",
        num_args = 0..=1,
        default_missing_value = ""
    )]
    pub host: Option<String>,
    /// TCP port (default 3306).
    #[arg(short = 'P', long, value_name = "PORT")]
    pub port: Option<u16>,
    /// User name (default: your login name).
    #[arg(short = 'u', long, value_name = "USER")]
    pub user: Option<String>,
    /// Password; `-p` or `--password` without a value prompts on the terminal.
    /// Give the value attached (`-pSECRET`, `--password=SECRET`). Prefer an
    /// option file: a password on the command line is visible to other users.
    /// MYSQL_PWD is read when no password flag is given (deprecated and
    /// insecure: other users may read a process's environment).
    #[arg(short = 'p', long, value_name = "PASSWORD", num_args = 0..=1)]
    pub password: Option<Option<Secret>>,
    /// Unix socket file.
    #[arg(short = 'S', long, value_name = "PATH")]
    pub socket: Option<PathBuf>,
    /// TCP or SOCKET. As with the `mysql` client, `-h localhost` means the
    /// socket unless --protocol=TCP; a port alone (no host) means TCP to
    /// 127.0.0.1.
    #[arg(long, value_name = "PROTOCOL", ignore_case = true)]
    pub protocol: Option<Protocol>,
    /// Read only this option file (instead of the default ones).
    #[arg(long, value_name = "FILE")]
    pub defaults_file: Option<PathBuf>,
    /// Read this option file too, after the global ones.
    #[arg(long, value_name = "FILE")]
    pub defaults_extra_file: Option<PathBuf>,
    /// Read no option file.
    #[arg(long)]
    pub no_defaults: bool,
    /// Also read the option groups with this suffix, [client_SUFFIX] and [mytune_SUFFIX] for
    /// `--defaults-group-suffix=_SUFFIX` (a fleet's own account next to the usual one), as the
    /// mysql client does. Default: the MYSQL_GROUP_SUFFIX environment variable.
    #[arg(long, value_name = "SUFFIX")]
    pub defaults_group_suffix: Option<String>,
    /// TLS use: DISABLED, PREFERRED (default), REQUIRED, VERIFY_CA, VERIFY_IDENTITY.
    #[arg(long, value_name = "MODE", ignore_case = true)]
    pub ssl_mode: Option<SslModeArg>,
    /// CA certificate file (PEM) for VERIFY_CA / VERIFY_IDENTITY.
    #[arg(long, value_name = "FILE")]
    pub ssl_ca: Option<PathBuf>,
    /// Seconds the whole connection may take: TCP connect, handshake, TLS
    /// and login (default 10; at least 1).
    #[arg(long, value_name = "SECS")]
    pub connect_timeout: Option<u64>,
    /// Seconds to wait for each reply of the server (default 30; at least 1).
    #[arg(long, value_name = "SECS")]
    pub read_timeout: Option<u64>,
}

impl ConnectFlags {
    /// What the flags say, for [`mytune::collect::connect::resolve_from_env`].
    pub fn args(&self) -> ConnectArgs {
        ConnectArgs {
            host: self.host.clone(),
            port: self.port,
            user: self.user.clone(),
            password: self.password.clone(),
            socket: self.socket.clone(),
            protocol: self.protocol,
            defaults_file: self.defaults_file.clone(),
            defaults_extra_file: self.defaults_extra_file.clone(),
            no_defaults: self.no_defaults,
            defaults_group_suffix: self.defaults_group_suffix.clone(),
            ssl_mode: self.ssl_mode.map(SslModeArg::mode),
            ssl_ca: self.ssl_ca.clone(),
            connect_timeout: self.connect_timeout,
            read_timeout: self.read_timeout,
        }
    }

    /// `--host` given alone: check this host (its server, if one answers).
    pub fn this_host(&self) -> bool {
        self.host.as_deref() == Some("")
    }
}

/// `--ssl-mode`'s values, as the `mysql` client spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SslModeArg {
    Disabled,
    /// TLS when the server offers it, without verifying its certificate;
    /// not attempted over a socket or loopback (the traffic stays local).
    Preferred,
    Required,
    VerifyCa,
    VerifyIdentity,
}

impl SslModeArg {
    pub fn mode(self) -> SslMode {
        match self {
            SslModeArg::Disabled => SslMode::Disabled,
            SslModeArg::Preferred => SslMode::Preferred,
            SslModeArg::Required => SslMode::Required,
            SslModeArg::VerifyCa => SslMode::VerifyCa,
            SslModeArg::VerifyIdentity => SslMode::VerifyIdentity,
        }
    }
}
