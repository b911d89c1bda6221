//! The command-line flags of a live collection, shared by every command that
//! collects (`collect`, and `check` against a live server): flatten
//! [`CollectFlags`] into the command and call [`CollectFlags::collect`].
//! Parsing only; nothing here touches a server until `collect` is called.

use std::io::{IsTerminal, Write};
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
        let cfg = collect::connect::resolve_from_env(&self.connect)?;
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

/// The overall `--timeout`: a thread that ends the process with exit 2 and
/// "timed out after N s" unless the guard is dropped first. Per-read
/// timeouts cannot bound a server that sends a byte every few seconds; this
/// does, whatever the server does.
pub struct Deadline {
    _done: std::sync::mpsc::Sender<()>,
}

impl Deadline {
    /// Arm the deadline; it is disarmed when the guard is dropped.
    pub fn start(limit: Duration) -> Deadline {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let _ = std::thread::Builder::new()
            .name("mytune-deadline".into())
            .spawn(move || {
                if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(limit) {
                    crate::stderr_line!(
                        "mytune: error: timed out after {} s: the server is too slow to answer (--timeout)",
                        limit.as_secs()
                    );
                    std::process::exit(2);
                }
            });
        Deadline { _done: tx }
    }
}

/// A duration that must not be 0 (the server and the driver read 0 as
/// "no limit").
pub fn parse_time_box(s: &str) -> Result<Duration, String> {
    let d = parse_duration(s)?;
    if d < Duration::from_millis(1) {
        return Err(format!(
            "'{s}' would mean no limit at all; give at least 1ms (e.g. 500ms, 10s)"
        ));
    }
    Ok(d)
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
    crate::units::parse_memory(s)
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
        assert!(parse_time_box("0ms").unwrap_err().contains("no limit"));
        assert!(parse_time_box("0").is_err());
        assert_eq!(parse_time_box("1ms"), Ok(Duration::from_millis(1)));
    }

    #[test]
    fn draws_progress() {
        assert_eq!(
            progress_line(Duration::from_secs(5), Duration::from_secs(10)),
            "sampling status [##########----------]   5s / 10s"
        );
    }
}
