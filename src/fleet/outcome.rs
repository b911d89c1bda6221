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

    /// Drop what only the full report shows (each finding's rationale,
    /// sources and fix, the suggested changes, the rules that did not
    /// apply), for outputs that count and name findings: the summary and
    /// the metrics. A fleet run then keeps a few KiB per server, not the
    /// whole report, until it writes them.
    pub fn slim(&mut self) {
        if let Ok(r) = &mut self.status {
            for f in &mut r.findings {
                f.rationale = String::new();
                f.sources = Vec::new();
                f.tags = Vec::new();
                f.fix = None;
                f.location = None;
            }
            r.changes = Vec::new();
            r.not_applicable = Vec::new();
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
