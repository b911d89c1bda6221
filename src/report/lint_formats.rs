//! `lint --format`: one row per format, with its name, its help and its
//! renderer. The command line lists the formats from this table and the
//! command renders through it, so a new format is its renderer and its row.

use crate::report::json::Report;
use crate::rules::Finding;
use crate::target::Target;

/// What every lint renderer may use.
pub struct LintView<'a> {
    pub findings: &'a [Finding],
    /// What was linted, for people ("my.cnf", "3 files (1 error above: …)").
    pub what: &'a str,
    /// The files read, for machines.
    pub inputs: Vec<String>,
    pub targets: &'a [Target],
    /// Where each target came from (`--target`, a mytune.toml, …).
    pub target_origins: &'a [String],
    /// The width a terminal gives the text report.
    pub width: Option<u16>,
}

/// One output format of `lint`.
pub struct LintFormat {
    pub name: &'static str,
    /// The line `--help` shows for it.
    pub help: &'static str,
    /// For people: "no findings" must not read as a clean bill when some
    /// input could not be checked.
    pub human: bool,
    pub render: fn(&LintView) -> String,
}

pub const LINT_FORMATS: &[LintFormat] = &[
    LintFormat {
        name: "text",
        help: "Findings for people, one a line, with the target each file was judged for",
        human: true,
        render: text,
    },
    LintFormat {
        name: "json",
        help: "The JSON report, with where each target came from",
        human: false,
        render: json,
    },
    LintFormat {
        name: "sarif",
        help: "SARIF 2.1.0, for code-scanning upload",
        human: false,
        render: |v| super::sarif::render(v.findings),
    },
    LintFormat {
        name: "github",
        help: "GitHub Actions workflow-command annotations",
        human: false,
        render: |v| super::github::render(v.findings),
    },
    LintFormat {
        name: "markdown",
        help: "A Markdown table (pull-request comments, job summaries)",
        human: true,
        render: |v| super::markdown::render(v.findings, v.what),
    },
];

/// The format called `name` (one of [`LINT_FORMATS`]).
pub fn by_name(name: &str) -> Option<&'static LintFormat> {
    LINT_FORMATS.iter().find(|f| f.name == name)
}

/// The text report's first line: the target(s) and where each came from.
fn target_line(targets: &[Target], origins: &[String]) -> String {
    let list = targets
        .iter()
        .zip(origins)
        .map(|(t, o)| format!("{t} ({o})"))
        .collect::<Vec<_>>()
        .join(", ");
    let noun = if targets.len() == 1 {
        "target"
    } else {
        "targets"
    };
    format!("mytune lint: {noun} {list}")
}

fn text(v: &LintView) -> String {
    format!(
        "{}\n{}",
        target_line(v.targets, v.target_origins),
        super::text::findings_to_width(v.findings, v.what, v.width)
    )
}

/// lint's JSON report: the common envelope plus where the target came from.
#[derive(serde::Serialize)]
struct LintJson<'a> {
    #[serde(flatten)]
    report: Report<'a>,
    /// `--target`, a mytune.toml's path, `the server installed on this host`
    /// or `default` (comma-separated like `target` when files have several).
    target_origin: String,
}

fn json(v: &LintView) -> String {
    let targets = v
        .targets
        .iter()
        .map(Target::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let report = LintJson {
        report: Report::new("lint", targets, v.inputs.clone(), v.findings),
        target_origin: v.target_origins.join(", "),
    };
    format!(
        "{}\n",
        serde_json::to_string_pretty(&report).expect("reports always serialize")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_a_unique_name_and_help() {
        let mut names: Vec<&str> = LINT_FORMATS.iter().map(|f| f.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), LINT_FORMATS.len());
        assert!(LINT_FORMATS.iter().all(|f| !f.help.is_empty()));
        assert!(by_name("sarif").is_some() && by_name("xml").is_none());
    }
}
