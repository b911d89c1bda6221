//! The facts a `check` report opens with: which server, the memory and CPUs
//! sizing used and where those figures came from, and how long the server
//! has been up, which says how far its status counters can be trusted.

use std::fmt::Write;

use serde::Serialize;

use crate::facts::host::OtherProcesses;
use crate::facts::{Facts, Skipped};
use crate::rules::evaluate::MIN_REPRESENTATIVE_UPTIME_SECS;
use crate::target::{Flavor, Target, Version};
use crate::units;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Header {
    pub flavor: Flavor,
    pub version: Version,
    /// `SELECT VERSION()` as the server printed it.
    pub version_string: String,
    /// Where the facts came from: the endpoint (`socket /run/mysqld.sock`,
    /// `127.0.0.1:3306`) or `snapshot FILE`.
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collected_at: Option<String>,
    /// Effective memory sizing uses (`None`: no host facts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<Resource>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpus: Option<Resource>,
    pub uptime_secs: u64,
    pub counters: Counters,
    /// Option files compared with the running server (`--config`).
    pub config_files: Vec<String>,
    /// Statements the collection sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queries: Option<u32>,
    /// What could not be collected, and why.
    pub skipped: Vec<Skipped>,
    /// What was read of the error log, or why nothing was (only filled
    /// under `-v`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_log: Option<String>,
    /// The profile the findings were judged with, and where it came from.
    #[serde(default)]
    pub profile: String,
    /// The memory the server may use, and what it was derived from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
    /// Data and index bytes per storage engine outside the system schemas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<DataSummary>,
    /// `Max_used_connections` of `max_connections`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connections: Option<ConnectionUse>,
    /// The running configuration's memory at the peak of connections seen
    /// (or announced): expected and worst case (the rules' model, MT302 and
    /// MT305).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_use: Option<MemoryUse>,
}

/// The memory the server may use: the host's (or cgroup's) times the
/// profile's share, and at most what the host's other processes leave.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Budget {
    pub bytes: u64,
    pub memory_bytes: u64,
    pub share: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_processes: Option<OtherProcesses>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DataSummary {
    /// Engine, bytes (data + index), tables; largest first.
    pub engines: Vec<EngineData>,
    /// false: the query was time-boxed or not every table was visible, so
    /// the figures are lower bounds.
    pub complete: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineData {
    pub engine: String,
    pub bytes: u64,
    pub tables: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConnectionUse {
    pub max_used: u64,
    pub max_connections: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connected: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MemoryUse {
    /// The memory model's expected case: the connections of the peak
    /// (seen, announced, or max_connections), the thread pool's running
    /// statements with their buffers.
    pub expected_bytes: u64,
    /// The connections the expected case counts.
    pub expected_connections: u64,
    /// Every allowed connection (or pool thread) running a statement with
    /// all its buffers and an in-memory temporary table.
    pub worst_case_bytes: u64,
}

impl Header {
    /// The context lines every renderer shows after the host lines: label
    /// and text.
    pub fn context_lines(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if let Some(b) = &self.budget {
            let mut text = format!("{} the server may use", units::human_size(b.bytes));
            let shared = (b.memory_bytes as f64 * b.share) as u64;
            match &b.other_processes {
                Some(o) if b.bytes < shared => {
                    let _ = write!(
                        text,
                        ": {} less {} kept for {} other processes holding {}",
                        units::human_size(shared),
                        units::human_size(shared - b.bytes),
                        o.count,
                        units::human_size(o.resident_bytes),
                    );
                }
                Some(o) => {
                    let _ = write!(
                        text,
                        " ({} held by {} other processes)",
                        units::human_size(o.resident_bytes),
                        o.count
                    );
                }
                None => {}
            }
            if let Some(o) = &b.other_processes
                && !o.largest.is_empty()
            {
                let largest: Vec<String> = o
                    .largest
                    .iter()
                    .take(3)
                    .map(|g| {
                        if g.processes > 1 {
                            format!(
                                "{} x{} {}",
                                g.name,
                                g.processes,
                                units::human_size(g.resident_bytes)
                            )
                        } else {
                            format!("{} {}", g.name, units::human_size(g.resident_bytes))
                        }
                    })
                    .collect();
                let _ = write!(text, "; largest: {}", largest.join(", "));
            }
            if b.share < 1.0 {
                let _ = write!(text, "; share {}", b.share);
            }
            out.push(("budget", text));
        }
        if let Some(d) = &self.data {
            let text = if d.engines.is_empty() && !d.complete {
                // An account that sees no table: not an empty server.
                "unknown: this account sees no table (MT016)".to_string()
            } else if d.engines.is_empty() {
                "no user tables".to_string()
            } else {
                d.engines
                    .iter()
                    .map(|e| {
                        format!(
                            "{} {} in {} table{}",
                            e.engine,
                            units::human_size(e.bytes),
                            e.tables,
                            if e.tables == 1 { "" } else { "s" }
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let partial = if d.complete || d.engines.is_empty() {
                ""
            } else {
                " (at least: partial count)"
            };
            out.push(("data", format!("{text}{partial}")));
        }
        if let Some(c) = &self.connections {
            let mut text = format!(
                "{} of max_connections {} at the peak (Max_used_connections)",
                c.max_used, c.max_connections
            );
            if let Some(now) = c.connected {
                let _ = write!(text, ", {now} now");
            }
            out.push(("conns", text));
        }
        if let Some(m) = &self.memory_use {
            let text = format!(
                "expected {} at {} connection{}, worst case {} (each of them running a statement with all its buffers and a temporary table at once)",
                units::human_size(m.expected_bytes),
                m.expected_connections,
                if m.expected_connections == 1 { "" } else { "s" },
                units::human_size(m.worst_case_bytes)
            );
            out.push(("mem use", text));
        }
        if !self.profile.is_empty() {
            out.push(("profile", self.profile.clone()));
        }
        out
    }
}

/// A sizing figure and where it came from (`/proc/meminfo`, `cgroup v2
/// memory.max`, `--memory`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Resource {
    pub value: u64,
    pub source: String,
}

/// How far the status counters describe the workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Counters {
    /// The server has been up at least [`MIN_REPRESENTATIVE_UPTIME_SECS`];
    /// below that the rule engine lowers the confidence of status-based
    /// findings.
    pub representative: bool,
    /// Seconds between the two status samples of `--interval`, when taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval_secs: Option<f64>,
    /// One sentence for people.
    pub note: String,
}

impl Header {
    /// The header of a report on `facts`; `None` without server facts.
    pub fn from_facts(facts: &Facts, source: String, config_files: Vec<String>) -> Option<Header> {
        let server = facts.server.as_ref()?;
        let host = facts.host.as_ref();
        let representative = server.uptime_secs >= MIN_REPRESENTATIVE_UPTIME_SECS;
        let interval_secs = server.sample.as_ref().map(|s| s.interval_secs);
        let mut note = if representative {
            format!(
                "{}: status counters cover at least a day of work",
                duration(server.uptime_secs)
            )
        } else {
            format!(
                "{}, less than a day: status counters may not show the real workload; counter-based findings have low confidence",
                duration(server.uptime_secs)
            )
        };
        if let Some(i) = interval_secs {
            note.push_str(&format!("; rates measured over {i:.0}s"));
        }
        Some(Header {
            flavor: server.flavor,
            version: server.version,
            version_string: server.version_string.clone(),
            source,
            collected_at: facts.collected_at.clone(),
            // 0 is "not known" (a remote host described with --memory only):
            // shown as unknown, never as "0 CPUs".
            memory: host
                .filter(|h| h.memory.effective_bytes > 0)
                .map(|h| Resource {
                    value: h.memory.effective_bytes,
                    source: h.memory.effective_source.clone(),
                }),
            cpus: host.filter(|h| h.cpu.effective > 0).map(|h| Resource {
                value: u64::from(h.cpu.effective),
                source: h.cpu.effective_source.clone(),
            }),
            uptime_secs: server.uptime_secs,
            counters: Counters {
                representative,
                interval_secs,
                note,
            },
            config_files,
            queries: server.queries,
            skipped: facts.skipped.clone(),
            profile: String::new(),
            budget: None,
            data: server.data_size.as_ref().map(|d| {
                let mut engines: Vec<EngineData> = d
                    .engines
                    .iter()
                    .map(|(name, e)| EngineData {
                        engine: name.clone(),
                        bytes: e.data_bytes.saturating_add(e.index_bytes),
                        tables: e.tables,
                    })
                    .collect();
                engines.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.engine.cmp(&b.engine)));
                DataSummary {
                    engines,
                    complete: d.complete,
                }
            }),
            connections: {
                let num = |m: &std::collections::BTreeMap<String, String>, k: &str| {
                    m.get(k).and_then(|v| v.trim().parse::<u64>().ok())
                };
                match (
                    num(&server.status, "max_used_connections"),
                    num(&server.variables, "max_connections"),
                ) {
                    (Some(max_used), Some(max_connections)) => Some(ConnectionUse {
                        max_used,
                        max_connections,
                        connected: num(&server.status, "threads_connected"),
                    }),
                    _ => None,
                }
            },
            memory_use: None,
            error_log: None,
        })
    }

    pub fn target(&self) -> Target {
        Target::new(self.flavor, self.version)
    }
}

/// `3d 4h`, `2h 5m`, `42s`.
pub fn duration(secs: u64) -> String {
    let (d, h, m, s) = (
        secs / 86_400,
        secs % 86_400 / 3600,
        secs % 3600 / 60,
        secs % 60,
    );
    if d > 0 {
        format!("{d}d {h}h")
    } else if h > 0 {
        format!("{h}h {m}m")
    } else if m > 0 {
        format!("{m}m {s}s")
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_uptimes() {
        assert_eq!(duration(42), "42s");
        assert_eq!(duration(125), "2m 5s");
        assert_eq!(duration(7500), "2h 5m");
        assert_eq!(duration(3 * 86_400 + 4 * 3600 + 5), "3d 4h");
    }
}
