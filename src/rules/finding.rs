//! What evaluation produces: findings (for `check` and `lint`), the
//! recommendation set (for `gen-cnf`), and the rules that could not be
//! applied, each with its reason. Plain data; renderers only format it.

use std::collections::BTreeMap;

use crate::rules::Code;
use serde::Serialize;

use super::schema::{Confidence, Family, Setting, Severity, Source};
use crate::facts::SourceLocation;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub code: Code,
    pub name: String,
    pub family: Family,
    pub severity: Severity,
    pub tags: Vec<String>,
    pub message: String,
    /// The variable the finding is about, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variable: Option<String>,
    /// Its current value (sizes rendered like the recommendation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current: Option<String>,
    /// The value the rule recommends, ready for an option file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recommended: Option<String>,
    /// Where the current value was set, when it came from an option file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceLocation>,
    pub rationale: String,
    /// Article sections and manual pages (structured, so a SARIF writer can
    /// link the URL).
    pub sources: Vec<Source>,
    pub confidence: Confidence,
    /// The mechanical edit that mends it (`mytune lint --fix`), when there
    /// is exactly one correct answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
}

/// Edits that mend a finding. Each replaces one whole line by one line, so
/// applying a fix never moves another line and every other finding's
/// location stays true.
///
/// Serialized (the JSON report) with every secret its lines hold shown as
/// `***` and `"masked": true` ([`crate::secrets::masked_fix`]): the real
/// lines stay with `lint --fix`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, for a user (`rename tx_isolation to
    /// transaction_isolation`).
    pub description: String,
    pub edits: Vec<LineEdit>,
}

impl Serialize for Fix {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let masked = crate::secrets::masked_fix(self);
        let shown = masked.as_ref().unwrap_or(self);
        let mut st = s.serialize_struct("Fix", 2 + usize::from(masked.is_some()))?;
        st.serialize_field("description", &shown.description)?;
        st.serialize_field("edits", &shown.edits)?;
        if masked.is_some() {
            st.serialize_field("masked", &true)?;
        }
        st.end()
    }
}

/// One line's replacement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineEdit {
    pub file: std::path::PathBuf,
    /// 1-based.
    pub line: u32,
    /// The line as it is now (without its line ending): a fix is applied
    /// only to the line it was made for.
    #[serde(skip)]
    pub old: String,
    /// The line it becomes (without its line ending).
    pub text: String,
}

/// One setting of the consistent recommendation set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Recommendation {
    pub variable: String,
    /// Ready for an option file (`4G`, `16`, `OFF`).
    pub value: String,
    /// The rule that recommends it.
    pub code: Code,
    pub rationale: String,
}

impl Recommendation {
    /// What the recommendation sets: a server variable, a sysctl key, a
    /// resource limit or another host setting (generators split on this).
    pub fn setting(&self) -> Setting<'_> {
        Setting::parse(&self.variable)
    }
}

/// A recommendation whose `offer_if` does not hold: not offered (no
/// suggested change, no option-file line) but written commented out by
/// `gen-cnf`, with `note` saying why and what to do first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Withheld {
    pub variable: String,
    /// The value it would have (`ON`).
    pub value: String,
    pub code: Code,
    pub rationale: String,
    /// The rule's `withheld` text.
    pub note: String,
}

/// A rule that did not run to a verdict, and why ("needs host.memory (no
/// host facts)", "applies to mysql < 8.0; target is mysql-8.0.32").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotApplicable {
    pub code: Code,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Evaluation {
    /// In rule-code order.
    pub findings: Vec<Finding>,
    pub recommendations: BTreeMap<String, Recommendation>,
    /// Recommendations held back because their `offer_if` does not hold.
    pub withheld: BTreeMap<String, Withheld>,
    pub not_applicable: Vec<NotApplicable>,
}

impl Evaluation {
    /// The most severe finding, if any.
    pub fn worst(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }
}

/// How many findings of each severity: the summary every report carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Counts {
    pub crit: usize,
    pub warn: usize,
    pub info: usize,
}

impl Counts {
    pub fn of(findings: &[Finding]) -> Counts {
        let mut c = Counts::default();
        for f in findings {
            match f.severity {
                Severity::Crit => c.crit += 1,
                Severity::Warn => c.warn += 1,
                Severity::Info => c.info += 1,
            }
        }
        c
    }

    pub fn total(&self) -> usize {
        self.crit + self.warn + self.info
    }
}

/// Does any finding reach `threshold`? (Decides exit code 1.)
pub fn reaches(findings: &[Finding], threshold: Severity) -> bool {
    findings.iter().any(|f| f.severity >= threshold)
}
