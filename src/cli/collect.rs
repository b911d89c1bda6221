//! The flags of a live collection, shared by every command that collects
//! (`collect`, and `check` against a live server): flatten [`CollectFlags`]
//! into the command and call [`CollectFlags::collect`].

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use mytune::collect::live::{CollectError, Deadline, progress_line};
use mytune::collect::{self, HostMode, ServerOptions};
use mytune::facts::Facts;
use mytune::units::{parse_duration, parse_time_box};

use super::connect::ConnectFlags;
use super::host::HostFlags;

/// Connection flags plus what to collect. A command using it must set
/// `#[command(disable_help_flag = true)]` (`-h` is the host, as in `mysql`).
#[derive(Debug, Clone, Args)]
pub struct CollectFlags {
    #[command(flatten)]
    pub connect: ConnectFlags,
    /// Sample status counters again after DURATION (e.g. 10s, 1m) for
    /// per-second rates.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub interval: Option<Duration>,
    /// Leave host facts out.
    #[arg(long, conflicts_with_all = ["memory", "cpus", "disk"])]
    pub no_host: bool,
    #[command(flatten)]
    pub host: HostFlags,
    /// Time box of the data-size query on information_schema.TABLES (InnoDB
    /// sizes come from persistent statistics and need none). At least 1ms:
    /// the server reads 0 as "no limit".
    #[arg(long, value_name = "DURATION", value_parser = parse_time_box, default_value = "500ms")]
    pub data_size_timeout: Duration,
    /// Give up the whole run after DURATION (the --interval is added to it):
    /// a server that answers too slowly ends with "timed out" and exit 2.
    /// With --inventory: each server's check, reported as that server's error.
    #[arg(long, value_name = "DURATION", value_parser = parse_time_box, default_value = "5m")]
    pub timeout: Duration,
}

impl CollectFlags {
    pub fn host_mode(&self) -> HostMode {
        HostMode {
            disabled: self.no_host,
            description: self.host.description(),
            paths: Default::default(),
            described_only: false,
        }
    }

    pub fn server_options(&self) -> ServerOptions {
        ServerOptions {
            interval: self.interval,
            data_size_timeout: self.data_size_timeout,
        }
    }

    /// Resolve the connection (option files, `MYSQL_PWD`, prompt) and
    /// collect, drawing a progress line on stderr while waiting for
    /// `--interval` when stderr is a terminal. Returns the facts and where
    /// they came from (for messages).
    pub fn collect(&self) -> Result<(Facts, String), CollectError> {
        let cfg = collect::connect::resolve_from_env(&self.connect.args())?;
        let _deadline = Deadline::start(
            self.timeout
                .saturating_add(self.interval.unwrap_or_default()),
        );
        let tty = std::io::stderr().is_terminal();
        let mut progress = |waited: Duration, total: Duration| {
            if tty {
                let _ = write!(std::io::stderr(), "\r{}", progress_line(waited, total));
                if waited >= total {
                    let _ = write!(std::io::stderr(), "\r{:width$}\r", "", width = 60);
                }
            }
        };
        let facts = collect::collect(
            &cfg,
            &self.server_options(),
            &self.host_mode(),
            &mut progress,
        )?;
        Ok((facts, cfg.endpoint()))
    }
}

/// Collect facts from a live server (and this host when the server is local).
#[derive(Debug, Args)]
#[command(disable_help_flag = true)]
pub struct CollectArgs {
    #[command(flatten)]
    pub flags: CollectFlags,
    /// Write the snapshot to FILE instead of standard output. A new FILE gets mode 0600 (it
    /// holds server data); a file replaced keeps its owner, group and mode (one mytune cannot
    /// give them back, or with other hard links, is refused: exit 2); a symbolic link at FILE is
    /// followed (its target is written, the link kept). With --inventory: the directory the
    /// snapshots go to (created 0700 if missing), one NAME.json per server.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Collect every server of this inventory (repeatable; the formats of `check --inventory`)
    /// into the directory -o names, one snapshot per server named after it, for `check
    /// --snapshot` later. A server that cannot be read is reported (exit 2) and the others are
    /// still written.
    #[arg(long, value_name = "FILE", requires = "out", conflicts_with_all = ["host", "socket", "protocol"])]
    pub inventory: Vec<PathBuf>,
    #[command(flatten)]
    pub fleet: FleetFlags,
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

/// What `check` and `collect` share with `--inventory`: which hosts, and
/// how many at once.
#[derive(Debug, Clone, Args)]
pub struct FleetFlags {
    /// With --inventory: only the hosts of this Ansible group (directly or through its child
    /// groups); repeat for several. A group no host is in is an error.
    #[arg(long, value_name = "GROUP", requires = "inventory")]
    pub group: Vec<String>,
    /// With --inventory: how many servers are handled at once (about 0.5 MiB of memory each).
    /// Each has its own deadline (--connect-timeout, --read-timeout for each reply, --timeout for
    /// the whole server), so a silent server never holds the others.
    #[arg(long, value_name = "N", default_value_t = 128, requires = "inventory",
          value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: u16,
}
