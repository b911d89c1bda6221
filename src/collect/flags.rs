//! The command-line flags of a live collection, shared by every command that
//! collects (`collect`, and `check` against a live server): flatten
//! [`CollectFlags`] into the command and call [`CollectFlags::collect`].
//! Parsing only; nothing here touches a server until `collect` is called.

use std::io::IsTerminal;
use std::time::Duration;

use clap::Args;

use crate::collect::{self, ConnectArgs, HostDescription, HostMode, ServerError, ServerOptions};
use crate::facts::Facts;
use crate::facts::host::DiskKind;

/// Connection flags plus what to collect. A command using it must set
/// `#[command(disable_help_flag = true)]` (`-h` is the host, as in `mysql`).
#[derive(Debug, Clone, Args)]
pub struct CollectFlags {
    #[command(flatten)]
    pub connect: ConnectArgs,
    /// Sample status counters again after DURATION (e.g. 10s, 1m) for
    /// per-second rates.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub interval: Option<Duration>,
    /// Leave host facts out.
    #[arg(long, conflicts_with_all = ["memory", "cpus", "disk"])]
    pub no_host: bool,
    /// Describe the server's host: its memory (e.g. 64G). Needed for host
    /// rules when the server is remote.
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory: Option<u64>,
    /// Describe the server's host: its CPUs.
    #[arg(long, value_name = "N")]
    pub cpus: Option<u32>,
    /// Describe the server's host: its data disk.
    #[arg(long, value_enum, value_name = "KIND")]
    pub disk: Option<DiskArg>,
    /// Time box of the data-size query on information_schema.TABLES (InnoDB
    /// sizes come from persistent statistics and need none).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "500ms")]
    pub data_size_timeout: Duration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiskArg {
    Ssd,
    Hdd,
}

/// Why a collection from flags failed.
#[derive(Debug, thiserror::Error)]
pub enum CollectError {
    #[error(transparent)]
    Connect(#[from] collect::ConnectError),
    #[error(transparent)]
    Server(#[from] ServerError),
}

impl CollectFlags {
    pub fn host_mode(&self) -> HostMode {
        HostMode {
            disabled: self.no_host,
            description: HostDescription {
                memory_bytes: self.memory,
                cpus: self.cpus,
                disk: self.disk.map(|d| match d {
                    DiskArg::Ssd => DiskKind::Ssd,
                    DiskArg::Hdd => DiskKind::Hdd,
                }),
            },
            paths: Default::default(),
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
        let cfg = collect::connect::resolve_from_env(&self.connect)?;
        let tty = std::io::stderr().is_terminal();
        let mut progress = |waited: Duration, total: Duration| {
            if tty {
                eprint!("\r{}", progress_line(waited, total));
                if waited >= total {
                    eprint!("\r{:width$}\r", "", width = 60);
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

/// `sampling status [##########----------]   5s / 10s`
pub fn progress_line(waited: Duration, total: Duration) -> String {
    const WIDTH: usize = 20;
    let frac = if total.is_zero() {
        1.0
    } else {
        (waited.as_secs_f64() / total.as_secs_f64()).min(1.0)
    };
    let filled = (frac * WIDTH as f64).round() as usize;
    format!(
        "sampling status [{}{}] {:>3}s / {}s",
        "#".repeat(filled),
        "-".repeat(WIDTH - filled),
        waited.as_secs(),
        total.as_secs()
    )
}

/// `500ms`, `10s`, `2m`, `1h`, or a bare number of seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num
        .parse()
        .map_err(|_| format!("'{s}' is not a duration (e.g. 500ms, 10s, 2m)"))?;
    let secs = match unit.trim() {
        "ms" => n / 1000.0,
        "" | "s" => n,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        other => {
            return Err(format!(
                "'{s}' has an unknown unit '{other}' (use ms, s, m or h)"
            ));
        }
    };
    Duration::try_from_secs_f64(secs).map_err(|_| format!("'{s}' is out of range"))
}

fn parse_memory(s: &str) -> Result<u64, String> {
    crate::units::parse_size(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_durations() {
        assert_eq!(parse_duration("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("10"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("ten").is_err());
        assert!(parse_duration("5d").is_err());
        assert!(parse_duration("-1s").is_err());
    }

    #[test]
    fn draws_progress() {
        assert_eq!(
            progress_line(Duration::from_secs(5), Duration::from_secs(10)),
            "sampling status [##########----------]   5s / 10s"
        );
    }
}
