//! The collector: gathers host and server facts into one [`Facts`] value. It
//! never judges; rules do that later, possibly from a saved snapshot.
//!
//! - [`host`] reads this machine (`/proc`, `/sys`, cgroups, systemd units),
//!   with [`cgroup`], [`proc`] and [`sysctl`] holding the file parsers;
//! - [`connect`] resolves connection settings like the `mysql` client;
//! - [`server`] runs the few read-only queries, [`audit`] classifies accounts;
//! - [`errorlog`] reads a bounded tail of a local server's error log.
//!
//! Host facts are collected only when the server is local (socket or
//! loopback): for a remote server they would describe the wrong machine.
//! A host described with `--memory/--cpus/--disk` is used instead when given.

pub mod addresses;
pub mod audit;
pub mod cgroup;
pub mod connect;
pub mod counters;
pub mod errorlog;
pub mod host;
pub mod live;
pub mod proc;
pub mod server;
pub mod sysctl;

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::facts::{Facts, Skipped};

pub use connect::{ConnectArgs, ConnectError, ConnectionConfig};
pub use host::{HostDescription, HostPaths};
pub use server::{ServerError, ServerOptions, Session};

/// Which host facts to include.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostMode {
    /// `--no-host`: none at all.
    pub disabled: bool,
    /// `--memory/--cpus/--disk`.
    pub description: HostDescription,
    /// Where to read a local host from.
    pub paths: HostPaths,
    /// A fleet entry: this machine is never taken for the server's host,
    /// whatever its address says (a loopback address may be a tunnel or a
    /// proxy), so neither its facts nor its error log are read; only the
    /// `description` is used.
    pub described_only: bool,
}

/// Collect a snapshot: connect, read the server, then the host when it is
/// the server's machine (or as described).
pub fn collect(
    cfg: &ConnectionConfig,
    server_opts: &ServerOptions,
    host_mode: &HostMode,
    progress: &mut dyn FnMut(Duration, Duration),
) -> Result<Facts, ServerError> {
    let collected_at = rfc3339_utc(SystemTime::now());
    let mut session = Session::open(cfg)?;
    let (mut server, mut skipped) = server::collect(&mut session, server_opts, progress)?;
    let on_this_machine = server.is_local && !host_mode.described_only;
    // The error log is a file on the server's machine: read only when that
    // is this one.
    server.error_log = Some(if on_this_machine {
        errorlog::collect(&server.variables, server.uptime_secs, SystemTime::now())
    } else {
        crate::facts::ErrorLogFacts {
            setting: server
                .variables
                .get("log_error")
                .cloned()
                .unwrap_or_default(),
            ..Default::default()
        }
    });

    let host = if host_mode.disabled {
        None
    } else {
        let local = on_this_machine.then(|| {
            let hints = host::ServerHints {
                pid_file: non_empty_path(server.variables.get("pid_file")),
                datadir: non_empty_path(server.variables.get("datadir")),
            };
            host::collect(&host_mode.paths, &hints)
        });
        if !host_mode.description.is_empty() {
            Some(host::describe(&host_mode.description, local))
        } else {
            if local.is_none() {
                skipped.push(Skipped {
                    what: "host".into(),
                    reason: if host_mode.described_only {
                        "a fleet entry's host is described by the inventory (memory, cpus, disk) \
                         or --memory, --cpus and --disk"
                    } else {
                        "the server is remote; describe its host with --memory, --cpus and --disk"
                    }
                    .into(),
                });
            }
            local
        }
    };

    Ok(Facts {
        collected_at: Some(collected_at),
        host,
        server: Some(server),
        skipped,
        ..Facts::default()
    })
}

fn non_empty_path(v: Option<&String>) -> Option<PathBuf> {
    v.filter(|s| !s.is_empty()).map(PathBuf::from)
}

/// `2026-11-30T09:00:00Z` for a time (UTC, whole seconds).
pub fn rfc3339_utc(t: SystemTime) -> String {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_utc_times() {
        assert_eq!(rfc3339_utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        assert_eq!(
            rfc3339_utc(UNIX_EPOCH + Duration::from_secs(1_796_029_200)),
            "2026-11-30T09:00:00Z"
        );
        assert_eq!(
            rfc3339_utc(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000-02-29T00:00:00Z"
        );
    }
}
