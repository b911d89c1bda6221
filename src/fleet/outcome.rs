//! What a fleet run knows of one server when it is over: its report, or why
//! there is none. The renderers (`crate::report::fleet_*`) format a list of
//! these; they decide nothing.

use std::time::{Duration, SystemTime};

use crate::check::CheckReport;
use crate::rules::Severity;
use crate::rules::finding::Counts;

/// One server of the run.
#[derive(Debug, Clone)]
pub struct ServerOutcome {
    /// The inventory's name for it.
    pub name: String,
    /// How it was reached (`db1:3306`, `socket /run/mysqld/mysqld.sock`).
    pub endpoint: String,
    /// The report, or why the server could not be checked.
    pub status: Result<CheckReport, String>,
    /// Connection, collection and judgement.
    pub duration: Duration,
    /// When its check ended.
    pub finished_at: SystemTime,
}

impl ServerOutcome {
    pub fn counts(&self) -> Option<Counts> {
        self.status.as_ref().ok().map(|r| r.summary)
    }

    /// Keep only what the summary and the metrics show, and the exit
    /// status needs: the flavor and version, the counts, each finding's
    /// code, family and severity, and the first (most severe) finding's
    /// message. A fleet run then keeps well under a KiB per server, not the
    /// whole report, until it writes them (JSON Lines are written before).
    pub fn slim(&mut self) {
        if let Ok(r) = &mut self.status {
            for (i, f) in r.findings.iter_mut().enumerate() {
                if i > 0 {
                    f.message = String::new();
                }
                f.name = String::new();
                f.rationale = String::new();
                f.sources = Vec::new();
                f.tags = Vec::new();
                f.fix = None;
                f.location = None;
                f.variable = None;
                f.current = None;
                f.recommended = None;
            }
            r.findings.shrink_to_fit();
            r.changes = Vec::new();
            r.not_applicable = Vec::new();
            let h = &mut r.header;
            h.version_string = String::new();
            h.source = String::new();
            h.config_files = Vec::new();
            h.skipped = Vec::new();
            h.error_log = None;
            h.profile = String::new();
            h.data = None;
        }
    }

    /// Whether a finding at or above `level` exists.
    pub fn reaches(&self, level: Severity) -> bool {
        self.status
            .as_ref()
            .is_ok_and(|r| crate::rules::finding::reaches(&r.findings, level))
    }
}

/// The exit status of a fleet run: 2 when a server could not be checked,
/// else 1 when a finding reaches `fail_on`, else 0.
pub fn exit_status(outcomes: &[ServerOutcome], fail_on: Severity) -> u8 {
    if outcomes.iter().any(|o| o.status.is_err()) {
        2
    } else if outcomes.iter().any(|o| o.reaches(fail_on)) {
        1
    } else {
        0
    }
}
