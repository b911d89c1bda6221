//! The `check` report as JSON: lint's envelope (`schema_version`, `tool`,
//! `command`, `target`, `inputs`, `summary`, `findings`) plus the server and
//! host header, the suggested changes and, under `-v`, the rules that did not
//! apply. The schema is `docs/report-schema.json`.

use serde::Serialize;

use super::json::Report;
use crate::check::changes::Paste;
use crate::check::header::{Budget, ConnectionUse, Counters, DataSummary, MemoryUse, Resource};
use crate::check::{CheckReport, SuggestedChange};
use crate::facts::Skipped;
use crate::rules::NotApplicable;
use crate::target::{Flavor, Version};

#[derive(Debug, Serialize)]
pub struct CheckJson<'a> {
    /// lint's envelope, field for field (the schema shares it).
    #[serde(flatten)]
    pub envelope: Report<'a>,
    pub server: Server<'a>,
    pub host: Option<Host<'a>>,
    pub option_group: &'a str,
    pub suggested_changes: &'a [SuggestedChange],
    /// The same changes in the three parts a DBA pastes.
    pub paste: Paste,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_applicable: Option<&'a [NotApplicable]>,
    pub skipped: &'a [Skipped],
    /// Only with -v: what was read of the error log, or why nothing was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_log: Option<&'a str>,
    /// What the findings were judged against: the profile, the memory the
    /// server may use, its data, connection use and memory use.
    pub context: Context<'a>,
}

#[derive(Debug, Serialize)]
pub struct Context<'a> {
    pub profile: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<&'a Budget>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<&'a DataSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connections: Option<&'a ConnectionUse>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_use: Option<&'a MemoryUse>,
}

#[derive(Debug, Serialize)]
pub struct Server<'a> {
    pub flavor: Flavor,
    pub version: Version,
    pub version_string: &'a str,
    pub source: &'a str,
    pub collected_at: Option<&'a str>,
    pub uptime_secs: u64,
    pub counters: &'a Counters,
    pub queries: Option<u32>,
}

#[derive(Debug, Serialize)]
pub struct Host<'a> {
    pub memory: Option<&'a Resource>,
    pub cpus: Option<&'a Resource>,
}

/// `verbose`: include `not_applicable` (an empty list included).
pub fn render(r: &CheckReport, verbose: bool) -> String {
    serde_json::to_string_pretty(&document(r, verbose)).expect("reports always serialize") + "\n"
}

/// The report as the JSON document [`render`] prints (also each ok line of
/// `--format jsonl`).
pub fn document(r: &CheckReport, verbose: bool) -> CheckJson<'_> {
    let h = &r.header;
    let mut inputs = vec![h.source.clone()];
    inputs.extend(h.config_files.iter().cloned());
    CheckJson {
        envelope: Report::new("check", h.target().to_string(), inputs, &r.findings),
        server: Server {
            flavor: h.flavor,
            version: h.version,
            version_string: &h.version_string,
            source: &h.source,
            collected_at: h.collected_at.as_deref(),
            uptime_secs: h.uptime_secs,
            counters: &h.counters,
            queries: h.queries,
        },
        host: (h.memory.is_some() || h.cpus.is_some()).then_some(Host {
            memory: h.memory.as_ref(),
            cpus: h.cpus.as_ref(),
        }),
        option_group: &r.option_group,
        suggested_changes: &r.changes,
        paste: crate::check::changes::paste(&r.changes),
        not_applicable: verbose.then_some(r.not_applicable.as_slice()),
        skipped: &h.skipped,
        error_log: h.error_log.as_deref(),
        context: Context {
            profile: &h.profile,
            budget: h.budget.as_ref(),
            data: h.data.as_ref(),
            connections: h.connections.as_ref(),
            memory_use: h.memory_use.as_ref(),
        },
    }
}
