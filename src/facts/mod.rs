//! The facts model: everything mytune knows about one host, one server and
//! its option files, as plain data.
//!
//! The collector fills a [`Facts`]; rules read it; nothing in between judges.
//! Because it is one serde value it can be saved as a JSON snapshot
//! (`mytune collect`) and read back (`mytune check --snapshot`), which is how
//! rules are unit-tested without a server. Each part is optional: a snapshot
//! of a remote server has no host part, a lint run has only the config part,
//! and rules that need a missing part are *not applicable*.

pub mod config;
pub mod errorlog;
pub mod host;
pub mod server;

use serde::{Deserialize, Serialize};

pub use config::{ConfigFacts, ConfigOption, SourceLocation};
pub use errorlog::ErrorLogFacts;
pub use host::HostFacts;
pub use server::ServerFacts;

/// Version of the snapshot format. Bump it when a field changes meaning or is
/// removed; adding an optional field does not need a bump.
pub const SCHEMA_VERSION: u32 = 1;

/// Everything known about one deployment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Facts {
    /// [`SCHEMA_VERSION`] of the writer.
    pub schema_version: u32,
    /// `mytune` version that wrote the snapshot.
    #[serde(default)]
    pub mytune_version: String,
    /// When the collection started, RFC 3339 UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collected_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<HostFacts>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<ServerFacts>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<ConfigFacts>,
    /// What could not be gathered and why ("needs PROCESS", "timed out").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<Skipped>,
}

impl Default for Facts {
    fn default() -> Self {
        Facts {
            schema_version: SCHEMA_VERSION,
            mytune_version: env!("CARGO_PKG_VERSION").to_string(),
            collected_at: None,
            host: None,
            server: None,
            config: None,
            skipped: Vec::new(),
        }
    }
}

/// A part of the collection that was left out, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// What was not collected, e.g. `accounts` or `data_size`.
    pub what: String,
    /// Why, e.g. `needs SELECT on mysql.global_priv`.
    pub reason: String,
}

impl Facts {
    /// Read a snapshot, rejecting versions this build does not understand.
    pub fn from_json(text: &str) -> Result<Facts, String> {
        let mut facts: Facts =
            serde_json::from_str(text).map_err(|e| format!("not a mytune snapshot: {e}"))?;
        if facts.schema_version > SCHEMA_VERSION {
            return Err(format!(
                "snapshot schema {} is newer than this mytune understands ({SCHEMA_VERSION})",
                facts.schema_version
            ));
        }
        if let Some(h) = &facts.host {
            // 0 with no source means "not known" (a remote host described
            // with --memory only); 0 that a source claims is not a host.
            if h.memory.effective_bytes == 0 && !h.memory.effective_source.is_empty() {
                return Err(format!(
                    "the snapshot's host has 0 bytes of memory (from {}); not a real host",
                    h.memory.effective_source
                ));
            }
            if h.cpu.effective == 0 && !h.cpu.effective_source.is_empty() {
                return Err(format!(
                    "the snapshot's host has 0 CPUs (from {}); not a real host",
                    h.cpu.effective_source
                ));
            }
        }
        // Snapshots written before credentials were redacted may hold them.
        if let Some(s) = &mut facts.server {
            server::redact_credentials(&mut s.variables);
        }
        Ok(facts)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("facts always serialize")
    }
}
