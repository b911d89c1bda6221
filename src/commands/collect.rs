//! `mytune collect`: gather host and server facts into a JSON snapshot that
//! `mytune check --snapshot FILE` reads later.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Args;

use mytune::collect::{self, ConnectArgs, HostDescription, HostMode, ServerOptions};
use mytune::facts::host::DiskKind;

/// Collect facts from a live server (and this host when the server is local).
///
/// Connection options work like the `mysql` client's: flags, then the
/// MYSQL_PWD environment variable (password only; deprecated and insecure:
/// other users may read a process's environment), then option files
/// ([client] then [mytune] groups of /etc/my.cnf, /etc/mysql/my.cnf,
/// ~/.my.cnf). The session is read-only.
#[derive(Debug, Args)]
#[command(disable_help_flag = true)]
pub struct CollectArgs {
    #[command(flatten)]
    pub connect: ConnectArgs,
    /// Sample status counters again after DURATION (e.g. 10s, 1m) for
    /// per-second rates.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub interval: Option<Duration>,
    /// Write the snapshot to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Leave host facts out.
    #[arg(long, conflicts_with_all = ["memory", "cpus", "disk"])]
    pub no_host: bool,
    /// Describe the server's host: its memory (e.g. 64G).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory: Option<u64>,
    /// Describe the server's host: its CPUs.
    #[arg(long, value_name = "N")]
    pub cpus: Option<u32>,
    /// Describe the server's host: its data disk.
    #[arg(long, value_enum, value_name = "KIND")]
    pub disk: Option<DiskArg>,
    /// Time box of the data-size summary (information_schema.TABLES).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "5s")]
    pub data_size_timeout: Duration,
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiskArg {
    Ssd,
    Hdd,
}

pub fn run(args: CollectArgs) -> anyhow::Result<ExitCode> {
    let cfg = collect::connect::resolve_from_env(&args.connect)?;
    let host_mode = HostMode {
        disabled: args.no_host,
        description: HostDescription {
            memory_bytes: args.memory,
            cpus: args.cpus,
            disk: args.disk.map(|d| match d {
                DiskArg::Ssd => DiskKind::Ssd,
                DiskArg::Hdd => DiskKind::Hdd,
            }),
        },
        paths: Default::default(),
    };
    let server_opts = ServerOptions {
        interval: args.interval,
        data_size_timeout: args.data_size_timeout,
    };
    let tty = std::io::stderr().is_terminal();
    let mut progress = |waited: Duration, total: Duration| {
        if tty {
            eprint!("\r{}", progress_line(waited, total));
            if waited >= total {
                eprint!("\r{:width$}\r", "", width = 60);
            }
        }
    };
    let facts = collect::collect(&cfg, &server_opts, &host_mode, &mut progress)?;
    let json = facts.to_json();
    match &args.out {
        Some(path) => std::fs::write(path, json + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => {
            let mut out = std::io::stdout().lock();
            writeln!(out, "{json}").context("cannot write the snapshot")?;
        }
    }
    if let Some(server) = &facts.server {
        eprintln!(
            "mytune: collected {} {} from {} in {} queries{}",
            server.flavor,
            server.version,
            cfg.endpoint(),
            server.queries.unwrap_or(0),
            match &args.out {
                Some(p) => format!(", wrote {}", p.display()),
                None => String::new(),
            }
        );
    }
    for s in &facts.skipped {
        eprintln!("mytune: skipped {}: {}", s.what, s.reason);
    }
    Ok(ExitCode::SUCCESS)
}

/// `sampling status [########------------]  4s / 10s`
fn progress_line(waited: Duration, total: Duration) -> String {
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
    mytune::units::parse_size(s)
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
    }

    #[test]
    fn draws_progress() {
        assert_eq!(
            progress_line(Duration::from_secs(5), Duration::from_secs(10)),
            "sampling status [##########----------]   5s / 10s"
        );
    }
}
