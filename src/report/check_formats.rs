//! `check --format`: one row per format, with its name, its help, how it
//! renders one server and how a fleet (`--inventory`). The command line
//! lists the formats from this table and the command renders through it, so
//! a new one-server format is its renderer and its row.

use crate::check::CheckReport;

/// How a one-server report is drawn.
#[derive(Debug, Clone, Copy)]
pub struct OneStyle {
    pub color: bool,
    pub width: u16,
    /// `-v`: also the rules that did not apply.
    pub verbose: bool,
}

/// How a fleet is reported in a format (the fleet's renderers differ in
/// what they keep while servers are checked, so the fleet path knows each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fleet {
    /// A summary line per server (and `--details`: each report after it).
    Summary,
    /// One JSON object per server, written as each is done.
    Jsonl,
    /// Metrics for node_exporter's textfile collector.
    Openmetrics,
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
    pub fleet: Option<Fleet>,
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
        fleet: Some(Fleet::Summary),
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
        fleet: Some(Fleet::Jsonl),
        host_only_json: false,
    },
    CheckFormat {
        name: "openmetrics",
        help: "Metrics for node_exporter's textfile collector (and Prometheus)",
        one: None,
        fleet: Some(Fleet::Openmetrics),
        host_only_json: false,
    },
];

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
