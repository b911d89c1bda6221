//! The arguments of `gen-cnf`, `gen-sysctl` and `gen-limits`, and what the
//! three share ([`GenArgs`]: the target, the host, the profile, the rules).

use std::path::PathBuf;

use clap::Args;

use mytune::target::Target;

#[derive(Debug, Args)]
pub struct GenArgs {
    #[arg(
        long,
        value_name = "FLAVOR-VERSION",
        value_parser = super::parse_target,
        help = super::target_help(
            "The server the file is for.",
            "the server installed here (mariadbd/mysqld --version), else mysql-8.0"
        )
    )]
    pub target: Option<Target>,
    #[command(flatten)]
    pub host: super::host::HostFlags,
    #[command(flatten)]
    pub profile: super::profile::ProfileArgs,
    #[command(flatten)]
    pub rules: super::RulesDir,
    /// Start from a live server's facts saved by `mytune collect` (FILE, or -
    /// for standard input): its current values instead of the defaults, its
    /// version as the target, its host unless one is described.
    #[arg(long, value_name = "FILE")]
    pub from_snapshot: Option<PathBuf>,
}

/// Write a commented option file from the rules' recommendations.
///
/// With --from-server, connection options work like the `mysql` client's
/// (flags, MYSQL_PWD, then the [client] and [mytune] groups of the usual
/// option files); the session is read-only.
#[derive(Debug, Args)]
#[command(disable_help_flag = true)]
pub struct GenCnfArgs {
    #[command(flatten)]
    pub common: GenArgs,
    /// Edit this option file instead of writing a new one: its values are
    /// the starting point, its other lines and comments are kept.
    #[arg(long, value_name = "FILE")]
    pub base: Option<PathBuf>,
    /// Start from a live server's current values (connect with the options
    /// below) and set only what the rules recommend.
    #[arg(long, conflicts_with = "from_snapshot")]
    pub from_server: bool,
    #[command(flatten)]
    pub connect: super::connect::ConnectFlags,
    /// With --from-server: give up after DURATION in all ("timed out",
    /// exit 2).
    #[arg(long, value_name = "DURATION", default_value = "5m",
          value_parser = mytune::units::parse_time_box)]
    pub timeout: std::time::Duration,
    /// With --base: what to do with lines of the file the target's server
    /// refuses at start-up (`keep` them as they are, with a warning, or
    /// `drop` them: commented out with the reason). Without it such lines
    /// are an error (exit 2) that lists them.
    #[arg(long, value_enum, value_name = "WHAT", requires = "base")]
    pub refused: Option<Refused>,
    /// Write the option file to FILE instead of standard output. A new FILE gets mode 0644 less
    /// the umask, so the server's user can read it; a file replaced (--base F -o F) keeps its
    /// owner, group and mode (one mytune cannot give them back, or with other hard links, is
    /// refused: exit 2); a symbolic link at FILE is followed (its target is written, the link
    /// kept).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

/// What `--base` does with the lines the server refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Refused {
    /// Keep them as written (the file will not start that server).
    Keep,
    /// Comment them out, saying why.
    Drop,
}

/// `gen-sysctl`: a sysctl.d file of kernel parameters.
#[derive(Debug, Args)]
pub struct GenSysctlArgs {
    #[command(flatten)]
    pub common: GenArgs,
    /// Also write the values the host already has, and every parameter the
    /// rules read at its current value.
    #[arg(long)]
    pub all: bool,
}

/// `gen-limits`: a limits.d file and a systemd drop-in.
#[derive(Debug, Args)]
pub struct GenLimitsArgs {
    #[command(flatten)]
    pub common: GenArgs,
    /// The server's OS user.
    #[arg(long, default_value = "mysql")]
    pub user: String,
    /// The server's systemd unit. Default: mariadb.service for MariaDB,
    /// mysql.service otherwise.
    #[arg(long)]
    pub unit: Option<String>,
    /// Write the files under DIR at their install paths (DIR/etc/...)
    /// instead of printing them. A new file gets mode 0644 less the umask;
    /// a file replaced is kept as NAME.bak and keeps its owner, group and
    /// mode (one mytune cannot give them back, or with other hard links, is
    /// refused: exit 2, and neither file is written); a symbolic link there
    /// is followed (its target is written, the link kept).
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
}
