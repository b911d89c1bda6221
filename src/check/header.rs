//! The facts a `check` report opens with: which server, the memory and CPUs
//! sizing used and where those figures came from, and how long the server
//! has been up, which says how far its status counters can be trusted.

use serde::Serialize;

use crate::facts::{Facts, Skipped};
use crate::rules::evaluate::MIN_REPRESENTATIVE_UPTIME_SECS;
use crate::target::{Flavor, Target, Version};

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
