//! `check --format`: one row per format, with its name, its help, how it
//! renders one server and how a fleet (`--inventory`). The command line
//! lists the formats from this table and the command renders through it, so
//! a new format, for one server or a fleet, is its renderer and its row.

use crate::check::CheckReport;
use crate::fleet::outcome::ServerOutcome;
use crate::rules::Severity;

/// How a one-server report is drawn.
#[derive(Debug, Clone, Copy)]
pub struct OneStyle {
    pub color: bool,
    pub width: u16,
    /// `-v`: also the rules that did not apply.
    pub verbose: bool,
}

/// What a fleet report is drawn with.
#[derive(Debug, Clone, Copy)]
pub struct FleetStyle {
    /// `-v`: also the rules that did not apply.
    pub verbose: bool,
    /// `--details`: each server's report after the summary.
    pub details: bool,
    pub fail_on: Severity,
    /// Inventory entries that were skipped (not servers checked).
    pub inventory_problems: usize,
}

/// How a format reports a fleet: what it needs while servers are checked,
/// and how it is written.
pub struct FleetFormat {
    /// A line per server, written as each is judged: no report is kept for
    /// the end. (A snapshot, a fleet of one, is rendered whole.)
    pub stream: Option<fn(&ServerOutcome, &FleetStyle) -> String>,
    /// The whole report once every server is done.
    pub render: fn(&[ServerOutcome], &FleetStyle) -> String,
    /// Whether the report reads whole reports at the end; else each
    /// server's outcome keeps only its counts and names once judged.
    pub keeps_reports: fn(&FleetStyle) -> bool,
    /// Written for another program's user to read (node_exporter's):
    /// readable by all, so it holds names, versions and counts only.
    pub shared_file: bool,
}

/// One output format of `check`.
pub struct CheckFormat {
    pub name: &'static str,
    /// The line `--help` shows for it.
    pub help: &'static str,
    /// One server's report; `None`: a fleet format, which reports even one
    /// server (a snapshot) as a fleet of one.
    pub one: Option<fn(&CheckReport, &OneStyle) -> String>,
    /// With `--inventory`; `None`: the format reports one server only.
    pub fleet: Option<FleetFormat>,
    /// `check --host` with no server: the host's findings as the JSON
    /// report (else as text).
    pub host_only_json: bool,
}

pub const CHECK_FORMATS: &[CheckFormat] = &[
    CheckFormat {
        name: "text",
        help: "The report for people; with --inventory a summary line per server",
        one: Some(|r, s| {
            super::check_text::render(
                r,
                super::check_text::Style {
                    color: s.color,
                    width: s.width,
                },
            )
        }),
        fleet: Some(FleetFormat {
            stream: None,
            render: summary,
            keeps_reports: |s| s.details,
            shared_file: false,
        }),
        host_only_json: false,
    },
    CheckFormat {
        name: "json",
        help: "The JSON report of one server",
        one: Some(|r, s| super::check_json::render(r, s.verbose)),
        fleet: None,
        host_only_json: true,
    },
    CheckFormat {
        name: "markdown",
        help: "The report of one server as Markdown",
        one: Some(|r, _| super::check_markdown::render(r)),
        fleet: None,
        host_only_json: false,
    },
    CheckFormat {
        name: "jsonl",
        help: "One JSON object per line and server: the json report plus name, endpoint and status \
               (ok, or error with the reason), each written as its server is done",
        one: None,
        fleet: Some(FleetFormat {
            stream: Some(|o, s| super::fleet_jsonl::line(o, s.verbose)),
            render: |all, s| super::fleet_jsonl::render(all, s.verbose),
            keeps_reports: |_| true,
            shared_file: false,
        }),
        host_only_json: false,
    },
    CheckFormat {
        name: "openmetrics",
        help: "Metrics for node_exporter's textfile collector (and Prometheus)",
        one: None,
        fleet: Some(FleetFormat {
            stream: None,
            render: |all, s| super::fleet_openmetrics::render(all, s.inventory_problems),
            keeps_reports: |_| false,
            shared_file: true,
        }),
        host_only_json: false,
    },
];

/// The fleet summary: a line per server, and with `--details` each
/// server's report after it.
fn summary(outcomes: &[ServerOutcome], style: &FleetStyle) -> String {
    let mut text = super::fleet_text::render(outcomes, style.inventory_problems, style.fail_on);
    if style.details {
        for o in outcomes {
            if let Ok(report) = &o.status {
                text.push_str(&format!("\n── {} ──\n", super::safe::escape(&o.name)));
                text.push_str(&super::check_text::render(
                    report,
                    super::check_text::Style {
                        color: false,
                        width: super::fleet_text::WIDTH as u16,
                    },
                ));
            }
        }
    }
    text
}

/// The format called `name` (one of [`CHECK_FORMATS`]).
pub fn by_name(name: &str) -> Option<&'static CheckFormat> {
    CHECK_FORMATS.iter().find(|f| f.name == name)
}

/// The formats that report one server only, for the message that refuses
/// them with `--inventory`.
pub fn one_server_only() -> Vec<&'static str> {
    CHECK_FORMATS
        .iter()
        .filter(|f| f.fleet.is_none())
        .map(|f| f.name)
        .collect()
}

/// The formats a fleet can be reported in.
pub fn fleet_formats() -> Vec<&'static str> {
    CHECK_FORMATS
        .iter()
        .filter(|f| f.fleet.is_some())
        .map(|f| f.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_reports_one_server_or_a_fleet_under_a_name_of_its_own() {
        let mut names: Vec<&str> = CHECK_FORMATS.iter().map(|f| f.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), CHECK_FORMATS.len());
        for f in CHECK_FORMATS {
            assert!(f.one.is_some() || f.fleet.is_some(), "{}", f.name);
            assert!(!f.help.is_empty(), "{}", f.name);
        }
        assert_eq!(one_server_only(), ["json", "markdown"]);
        assert_eq!(fleet_formats(), ["text", "jsonl", "openmetrics"]);
    }
}
