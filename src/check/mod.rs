//! `mytune check`: the report on one live server (or a snapshot of it).
//!
//! The pieces, each plain data so the renderers in `crate::report` only
//! format them:
//!
//! - [`header`]: who the server is, the memory and CPUs sizing used and where
//!   they came from, uptime and how far that lets status counters be trusted;
//! - [`drift`]: option files against running values (MT011–MT013);
//! - [`coherent`]: the rules evaluated as one plan (no finding contradicts
//!   another's recommendation);
//! - [`changes`]: the suggested-changes block, each change online (with the
//!   statement the flavor supports) or at restart;
//! - [`select`]: `--only` / `--skip` by code, name or family;
//! - [`skipped`]: parts not read for a missing privilege (MT016);
//! - [`errorlog`]: what the server's error log says (MT017–MT020);
//! - [`pipeline`]: all of it on one server's facts ([`run`]), as `mytune
//!   check` and the fleet call it.
//!
//! Nothing here decides what is a problem: tuning findings come from the
//! rules, drift from comparing facts.

pub mod changes;
pub mod coherent;
pub mod drift;
pub mod errorlog;
pub mod header;
pub mod pipeline;
pub mod select;
pub mod skipped;

use serde::Serialize;

use crate::rules::finding::Counts;
use crate::rules::{Finding, NotApplicable};

pub use changes::{Apply, SuggestedChange};
pub use header::Header;
pub use pipeline::{CheckError, Checked, Input, Settings, run};
pub use select::Selection;

/// Everything `check` reports, in the order it is shown.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    pub header: Header,
    /// Most severe first, then by family and code.
    pub findings: Vec<Finding>,
    /// The option-file group the suggested changes belong in (`mysqld`,
    /// `mariadb`).
    pub option_group: String,
    pub changes: Vec<SuggestedChange>,
    /// Rules that did not apply, with the reason (only filled under `-v`).
    pub not_applicable: Vec<NotApplicable>,
    pub summary: Counts,
}

impl CheckReport {
    /// Assemble a report: order the findings, derive the changes from them.
    pub fn new(
        header: Header,
        mut findings: Vec<Finding>,
        catalog: Option<&crate::catalog::Catalog>,
        not_applicable: Vec<NotApplicable>,
    ) -> CheckReport {
        findings.sort_by(|a, b| {
            b.severity
                .cmp(&a.severity)
                .then_with(|| a.family.as_str().cmp(b.family.as_str()))
                .then_with(|| a.code.cmp(&b.code))
        });
        let target = header.target();
        let changes = changes::suggest(&findings, &target, catalog);
        CheckReport {
            option_group: target.flavor.traits().own_group.to_string(),
            summary: Counts::of(&findings),
            header,
            findings,
            changes,
            not_applicable,
        }
    }
}
