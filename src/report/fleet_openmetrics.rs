//! `check --format openmetrics`: the fleet's results in the text format
//! node_exporter's textfile collector reads (Prometheus exposition format,
//! ending with OpenMetrics' `# EOF`), so Prometheus scrapes them and
//! Alertmanager alerts on them. Every value is a gauge of the last run, one
//! series per server (label `server`, the inventory's name):
//!
//! - `mytune_check_success`: 1 when the server was checked, 0 when not;
//! - `mytune_check_duration_seconds`, `mytune_check_timestamp_seconds`
//!   (Unix time the check ended: alert when it grows old);
//! - `mytune_findings{severity}`: findings by severity (0 included);
//! - `mytune_findings_by_code{code,severity,family}`: findings by rule code,
//!   only codes with findings;
//! - `mytune_server_info{flavor,version}`: always 1;
//! - `mytune_inventory_problems`: inventory lines or hosts skipped.
//!
//! No sample carries a timestamp: the textfile collector refuses them.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::UNIX_EPOCH;

use crate::fleet::outcome::ServerOutcome;
use crate::rules::Severity;

/// A label value with `\`, `"` and newlines escaped as the format wants.
fn label(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

fn family(out: &mut String, name: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} gauge");
}

/// The metrics of a run; `inventory_problems` is the number of inventory
/// lines or hosts skipped.
pub fn render(outcomes: &[ServerOutcome], inventory_problems: usize) -> String {
    let mut out = String::new();
    family(
        &mut out,
        "mytune_check_success",
        "Whether mytune could check the server (1) or not (0) in its last run.",
    );
    for o in outcomes {
        let _ = writeln!(
            out,
            "mytune_check_success{{server=\"{}\"}} {}",
            label(&o.name),
            u8::from(o.status.is_ok())
        );
    }
    family(
        &mut out,
        "mytune_check_duration_seconds",
        "How long the last check of the server took, connection included.",
    );
    for o in outcomes {
        let _ = writeln!(
            out,
            "mytune_check_duration_seconds{{server=\"{}\"}} {:.3}",
            label(&o.name),
            o.duration.as_secs_f64()
        );
    }
    family(
        &mut out,
        "mytune_check_timestamp_seconds",
        "When the last check of the server ended, in seconds since the Unix epoch.",
    );
    for o in outcomes {
        let t = o
            .finished_at
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0);
        let _ = writeln!(
            out,
            "mytune_check_timestamp_seconds{{server=\"{}\"}} {t:.3}",
            label(&o.name)
        );
    }
    family(
        &mut out,
        "mytune_findings",
        "Findings on the server in the last check, by severity.",
    );
    for o in outcomes {
        let Some(c) = o.counts() else { continue };
        for (sev, n) in [("crit", c.crit), ("warn", c.warn), ("info", c.info)] {
            let _ = writeln!(
                out,
                "mytune_findings{{server=\"{}\",severity=\"{sev}\"}} {n}",
                label(&o.name)
            );
        }
    }
    family(
        &mut out,
        "mytune_findings_by_code",
        "Findings on the server in the last check, by rule code (see mytune explain CODE).",
    );
    for o in outcomes {
        let Ok(report) = &o.status else { continue };
        let mut by_code: BTreeMap<(&str, Severity, &str), usize> = BTreeMap::new();
        for f in &report.findings {
            *by_code
                .entry((f.code.as_str(), f.severity, f.family.as_str()))
                .or_default() += 1;
        }
        for ((code, sev, fam), n) in by_code {
            let _ = writeln!(
                out,
                "mytune_findings_by_code{{server=\"{}\",code=\"{}\",severity=\"{sev}\",family=\"{fam}\"}} {n}",
                label(&o.name),
                label(code),
            );
        }
    }
    family(
        &mut out,
        "mytune_server_info",
        "The server's flavor and version as mytune read them; always 1.",
    );
    for o in outcomes {
        let Ok(report) = &o.status else { continue };
        let _ = writeln!(
            out,
            "mytune_server_info{{server=\"{}\",flavor=\"{}\",version=\"{}\"}} 1",
            label(&o.name),
            report.header.flavor.as_str(),
            report.header.version
        );
    }
    family(
        &mut out,
        "mytune_inventory_problems",
        "Inventory lines or hosts mytune could not read and skipped in its last run.",
    );
    let _ = writeln!(out, "mytune_inventory_problems {inventory_problems}");
    out.push_str("# EOF\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_label_values() {
        assert_eq!(label("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }
}
