//! The deployment profile: what the operator told mytune about how the
//! server is meant to be run. Rules read it as `profile.*` and may scope a
//! recommendation to it; nothing is assumed beyond these defaults.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Whether commits must survive a crash (`strict`, the default) or may trade
/// the last second for speed (`relaxed`, only when asked for).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Durability {
    #[default]
    Strict,
    Relaxed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Workload {
    Oltp,
    Olap,
    #[default]
    Mixed,
}

/// What the server keeps for diagnosis, and pays for in throughput (the
/// knob-search bench measures how much; the rules state it):
/// - `standard` (the default) leaves both as the server ships them: no slow
///   query log, which costs 1-2 % with server-side prepared statements,
///   unless the server's counters show few of those (MT501), and the
///   Performance Schema on in MySQL and Percona, off in MariaDB;
/// - `full` keeps a slow query log at 1 s and the Performance Schema on;
/// - `lean` gives up both, turning the Performance Schema off where it is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Observability {
    Full,
    #[default]
    Standard,
    Lean,
}

impl Observability {
    pub fn as_str(self) -> &'static str {
        match self {
            Observability::Full => "full",
            Observability::Standard => "standard",
            Observability::Lean => "lean",
        }
    }
}

impl FromStr for Observability {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "full" => Ok(Observability::Full),
            "standard" => Ok(Observability::Standard),
            "lean" => Ok(Observability::Lean),
            _ => Err(format!(
                "unknown observability '{s}' (expected full, standard or lean)"
            )),
        }
    }
}

impl fmt::Display for Observability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Durability {
    pub fn as_str(self) -> &'static str {
        match self {
            Durability::Strict => "strict",
            Durability::Relaxed => "relaxed",
        }
    }
}

impl Workload {
    pub fn as_str(self) -> &'static str {
        match self {
            Workload::Oltp => "oltp",
            Workload::Olap => "olap",
            Workload::Mixed => "mixed",
        }
    }
}

impl FromStr for Durability {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "strict" => Ok(Durability::Strict),
            "relaxed" => Ok(Durability::Relaxed),
            _ => Err(format!(
                "unknown durability '{s}' (expected strict or relaxed)"
            )),
        }
    }
}

impl FromStr for Workload {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "oltp" => Ok(Workload::Oltp),
            "olap" => Ok(Workload::Olap),
            "mixed" => Ok(Workload::Mixed),
            _ => Err(format!(
                "unknown workload '{s}' (expected oltp, olap or mixed)"
            )),
        }
    }
}

impl fmt::Display for Durability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Workload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    #[serde(default)]
    pub durability: Durability,
    #[serde(default)]
    pub workload: Workload,
    #[serde(default)]
    pub observability: Observability,
    /// Expected peak concurrent connections, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connections: Option<u64>,
    /// The share of the host's memory and CPUs the server may use, in
    /// (0, 1]; 1 = a dedicated host.
    #[serde(default = "full_share")]
    pub share: f64,
}

fn full_share() -> f64 {
    1.0
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            durability: Durability::default(),
            workload: Workload::default(),
            observability: Observability::default(),
            connections: None,
            share: 1.0,
        }
    }
}

impl fmt::Display for Profile {
    /// `durability strict, workload mixed, observability standard, connections
    /// not given, share 1`: the generators' headers and check's profile line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "durability {}, workload {}, observability {}, connections {}, share {}",
            self.durability,
            self.workload,
            self.observability,
            self.connections
                .map_or("not given".to_string(), |c| c.to_string()),
            self.share
        )
    }
}

impl Profile {
    /// Reject values no rule could make sense of.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.share > 0.0 && self.share <= 1.0) {
            return Err(format!(
                "profile share must be in (0, 1], found {}",
                self.share
            ));
        }
        Ok(())
    }
}
