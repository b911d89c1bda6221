//! Machine-readable findings. The envelope carries a schema version so
//! consumers can tell when a field changes meaning.

use serde::Serialize;

use super::REPORT_SCHEMA_VERSION;
use crate::rules::Finding;
use crate::rules::finding::Counts;

#[derive(Debug, Serialize)]
pub struct Report<'a> {
    pub schema_version: u32,
    pub tool: &'static str,
    pub tool_version: &'static str,
    /// What was examined: `lint` or `check`.
    pub command: &'a str,
    /// The target flavor and version the findings are for.
    pub target: String,
    pub inputs: Vec<String>,
    pub summary: Counts,
    pub findings: &'a [Finding],
}

impl<'a> Report<'a> {
    pub fn new(
        command: &'a str,
        target: String,
        inputs: Vec<String>,
        findings: &'a [Finding],
    ) -> Self {
        Report {
            schema_version: REPORT_SCHEMA_VERSION,
            tool: "mytune",
            tool_version: env!("CARGO_PKG_VERSION"),
            command,
            target,
            inputs,
            summary: Counts::of(findings),
            findings,
        }
    }

    pub fn render(&self) -> String {
        serde_json::to_string_pretty(self).expect("reports always serialize") + "\n"
    }
}
