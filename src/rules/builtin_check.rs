//! A check written in Rust rather than as a TOML rule: its identity and
//! documentation. The checks themselves are the modules of `crate::checks`
//! (one each); the registry (`crate::registry`) lists, explains and
//! documents them like rules. The type lives here, beside `Finding`,
//! because both lint and check make findings of it.

use std::fmt;

use crate::facts::SourceLocation;
use crate::rules::ModelEntry;
use crate::rules::schema::Source;
use crate::rules::{Confidence, Family, Finding, Severity};

/// One built-in check: its identity. Its documentation is its module's doc
/// comment ([`Check::summary`], [`Check::rationale`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub code: crate::rules::Code,
    pub name: &'static str,
    pub runs: Runs,
    /// Severity in the common case; a finding may be raised or lowered
    /// (e.g. a `loose-` option the server would only warn about).
    pub severity: Severity,
    /// The rule set's `[model]` entries the check judges by (thresholds
    /// kept with the rules, not in code); `explain` and the reference show
    /// their values.
    pub models: &'static [&'static str],
    pub sources: &'static [&'static str],
}

// `DOCS`: (code, summary, rationale) of every module of `crate::checks`,
// from its doc comment; written by build.rs (`build/builtin_checks.rs`),
// which refuses a module without one.
include!(concat!(env!("OUT_DIR"), "/builtin_check_docs.rs"));

/// Where a built-in check runs: what `mytune rules` shows in its "applies"
/// column and what the rule reference says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runs {
    /// `mytune lint` (and `check --upgrade-to`, against the new release).
    Lint,
    /// `mytune check --config`: the option files against the running server.
    CheckConfig,
    /// `mytune check`: what it could not collect.
    Check,
    /// `mytune check`: the server's error log.
    ErrorLog,
}

impl Runs {
    pub fn as_str(self) -> &'static str {
        match self {
            Runs::Lint => "lint",
            Runs::CheckConfig => "check --config",
            Runs::Check => "check",
            Runs::ErrorLog => "check: error log",
        }
    }
}

impl fmt::Display for Runs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Check {
    /// What the check finds, in one line (the first paragraph of its
    /// module's doc comment, without the full stop).
    pub fn summary(&self) -> &'static str {
        self.doc().0
    }

    /// Why it matters and what to do (the rest of its doc comment).
    pub fn rationale(&self) -> &'static str {
        self.doc().1
    }

    fn doc(&self) -> (&'static str, &'static str) {
        DOCS.iter()
            .find(|(code, _, _)| self.code == *code)
            .map_or(("", ""), |(_, summary, rationale)| (summary, rationale))
    }

    /// A finding of this check (tagged `config`), with the check's rationale
    /// and sources; shared by lint's structural checks and check's drift.
    pub fn finding(
        &self,
        severity: Severity,
        message: String,
        location: Option<SourceLocation>,
        variable: Option<String>,
    ) -> Finding {
        Finding {
            code: self.code.clone(),
            name: self.name.to_string(),
            family: self.family(),
            severity,
            tags: vec!["config".to_string()],
            message,
            variable,
            current: None,
            recommended: None,
            location,
            rationale: self.rationale().to_string(),
            sources: self.sources.iter().map(|url| Source::link(*url)).collect(),
            confidence: self.confidence(),
            fix: None,
        }
    }

    /// Whether `finding` is one of this check's.
    pub fn made(&self, finding: &Finding) -> bool {
        finding.code == self.code
    }

    pub fn family(&self) -> Family {
        Family::Config
    }

    pub fn confidence(&self) -> Confidence {
        Confidence::High
    }

    /// The entries of `model` (a rule set's) this check judges by.
    pub fn models<'m>(&self, model: &'m [ModelEntry]) -> impl Iterator<Item = &'m ModelEntry> {
        model
            .iter()
            .filter(|m| self.models.contains(&m.name.as_str()))
    }

    /// `mytune explain MT00x`, in the layout of a rule's explanation, with
    /// the values of the `model` entries it judges by.
    pub fn explain(&self, width: u16, model: &[ModelEntry]) -> String {
        let w = usize::from(width);
        let mut s = format!(
            "{} {}\nfamily: config (built in, not a TOML rule) · severity: {}\n\n{}\n\n{}\n",
            self.code,
            self.name,
            self.severity,
            crate::wrap::fill(&format!("{}.", self.summary()), w, ""),
            crate::wrap::fill(self.rationale(), w, "")
        );
        for (i, m) in self.models(model).enumerate() {
            if i == 0 {
                s.push('\n');
            }
            let line = format!("  model {} = {} ({})", m.name, m.text, m.location);
            s.push_str(&crate::wrap::fill(&line, w, "    "));
            s.push('\n');
        }
        if !self.sources.is_empty() {
            s.push_str("\nsources:\n");
            for u in self.sources {
                s.push_str(&crate::wrap::fill(&format!("  - {u}"), w, "    "));
                s.push('\n');
            }
        }
        s
    }

    pub fn to_json(&self, model: &[ModelEntry]) -> serde_json::Value {
        let models: serde_json::Map<String, serde_json::Value> = self
            .models(model)
            .map(|m| (m.name.clone(), m.text.clone().into()))
            .collect();
        serde_json::json!({
            "code": self.code,
            "name": self.name,
            "family": "config",
            "severity": self.severity,
            "summary": self.summary(),
            "rationale": self.rationale(),
            "models": models,
            "sources": self.sources,
        })
    }
}
