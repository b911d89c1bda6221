//! Renderers: turn a list of findings into text for people or data for
//! machines. One file per format; renderers only format, they never decide
//! what is a finding or how severe it is.

pub mod check_formats;
pub mod check_json;
pub mod check_markdown;
pub mod check_text;
pub mod fleet_jsonl;
pub mod fleet_openmetrics;
pub mod fleet_text;
pub mod github;
pub mod json;
pub mod lint_formats;
pub mod markdown;
pub mod safe;
pub mod sarif;
pub mod text;

use crate::rules::{Finding, Severity};

/// Version of the JSON report schema (`docs/report-schema.json`). Bump it when a
/// field changes meaning or is removed.
pub const REPORT_SCHEMA_VERSION: u32 = 2;

/// The findings grouped by severity, most severe first, empty groups left
/// out: the sections of the text and Markdown check reports.
pub fn by_severity(findings: &[Finding]) -> Vec<(Severity, Vec<&Finding>)> {
    [Severity::Crit, Severity::Warn, Severity::Info]
        .into_iter()
        .map(|sev| (sev, findings.iter().filter(|f| f.severity == sev).collect()))
        .filter(|(_, rows): &(Severity, Vec<&Finding>)| !rows.is_empty())
        .collect()
}

/// Consecutive findings of one rule with the same message, as one group:
/// a rule that recommends several variables for one reason (MT815's two
/// dirty ratios, MT304's four buffers) is one row of a table, not one row
/// per variable with the message repeated.
pub fn fold_same_message<'a>(rows: &[&'a Finding]) -> Vec<Vec<&'a Finding>> {
    let mut out: Vec<Vec<&Finding>> = Vec::new();
    for f in rows {
        match out.last_mut() {
            Some(g) if g[0].code == f.code && g[0].message == f.message => g.push(f),
            _ => out.push(vec![f]),
        }
    }
    out
}
