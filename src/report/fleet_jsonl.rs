//! `check --format jsonl`: one JSON object per line and per server, so a log
//! pipeline (Loki, Elasticsearch, Telegraf's file input, `jq -c`) takes each
//! server as one record. A checked server's line is the `check --format
//! json` document plus `name`, `endpoint`, `status: "ok"`, `duration_secs`
//! and `checked_at`; a server that could not be checked has the envelope
//! (`schema_version`, `tool`, `command`), those fields, `status: "error"`
//! and the reason in `error`. The schema is `docs/report-schema.json`.

use serde::Serialize;

use super::REPORT_SCHEMA_VERSION;
use super::check_json::{CheckJson, document};
use crate::fleet::outcome::ServerOutcome;

#[derive(Serialize)]
struct Fleet<'a> {
    name: &'a str,
    endpoint: &'a str,
    status: &'static str,
    duration_secs: f64,
    checked_at: String,
}

#[derive(Serialize)]
struct Ok<'a> {
    #[serde(flatten)]
    fleet: Fleet<'a>,
    #[serde(flatten)]
    check: CheckJson<'a>,
}

#[derive(Serialize)]
struct Error<'a> {
    schema_version: u32,
    tool: &'static str,
    tool_version: &'static str,
    command: &'static str,
    #[serde(flatten)]
    fleet: Fleet<'a>,
    error: &'a str,
}

/// One line per server, in the order given. `verbose` as for `--format
/// json` (the rules that did not apply).
pub fn render(outcomes: &[ServerOutcome], verbose: bool) -> String {
    outcomes.iter().map(|o| line(o, verbose)).collect()
}

/// One server's line, newline included: a fleet run writes each as soon as
/// the server is judged, and keeps no report for it.
pub fn line(o: &ServerOutcome, verbose: bool) -> String {
    {
        let fleet = Fleet {
            name: &o.name,
            endpoint: &o.endpoint,
            status: if o.status.is_ok() { "ok" } else { "error" },
            duration_secs: (o.duration.as_secs_f64() * 1000.0).round() / 1000.0,
            checked_at: crate::collect::rfc3339_utc(o.finished_at),
        };
        let line = match &o.status {
            Result::Ok(report) => serde_json::to_string(&Ok {
                fleet,
                check: document(report, verbose),
            }),
            Err(reason) => serde_json::to_string(&Error {
                schema_version: REPORT_SCHEMA_VERSION,
                tool: "mytune",
                tool_version: env!("CARGO_PKG_VERSION"),
                command: "check",
                fleet,
                error: reason,
            }),
        };
        let mut out = line.expect("reports always serialize");
        out.push('\n');
        out
    }
}
