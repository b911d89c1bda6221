//! One registry of every check mytune runs: the TOML rules of a rule set and
//! the checks written in Rust (lint's structural checks, check's drift,
//! skipped-part and error-log checks). `mytune rules`, `mytune explain`,
//! `--only`/`--skip` and the rule reference (`docs/rules.md`) all read this
//! table, so a new built-in check is listed, explained, selectable and
//! documented by adding its module to `src/checks/` and nowhere else.

use crate::rules::builtin_check::Check;
use crate::rules::{Family, ModelEntry, Rule, RuleSet, Severity};

/// Every built-in check, in code order: the modules of `src/checks/`.
pub fn builtins() -> Vec<&'static Check> {
    crate::checks::ALL.to_vec()
}

/// An entry of the registry: a built-in check or a rule of the set.
#[derive(Debug, Clone, Copy)]
pub enum Entry<'a> {
    /// A built-in check, with the rule set's model it may judge by.
    Builtin(&'static Check, &'a [ModelEntry]),
    Rule(&'a Rule),
}

impl Entry<'_> {
    pub fn code(&self) -> &str {
        match self {
            Entry::Builtin(b, _) => &b.code,
            Entry::Rule(r) => &r.code,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Entry::Builtin(b, _) => b.name,
            Entry::Rule(r) => &r.name,
        }
    }

    pub fn severity(&self) -> Severity {
        match self {
            Entry::Builtin(b, _) => b.severity,
            Entry::Rule(r) => r.severity,
        }
    }

    pub fn family(&self) -> Family {
        match self {
            Entry::Builtin(b, _) => b.family(),
            Entry::Rule(r) => r.family,
        }
    }

    /// What `mytune rules` shows in its "applies" column: the flavors and
    /// versions of a rule, the command a built-in check runs in.
    pub fn applies(&self) -> String {
        match self {
            Entry::Builtin(b, _) => format!("{} (built in)", b.runs),
            Entry::Rule(r) => r.applies.to_string(),
        }
    }

    /// `mytune explain CODE` as text, wrapped to `width`.
    pub fn explain(&self, width: u16) -> String {
        match self {
            Entry::Builtin(b, model) => b.explain(width, model),
            Entry::Rule(r) => crate::rules::docs::explain(r, width),
        }
    }

    /// `mytune explain CODE --format json`.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Entry::Builtin(b, model) => {
                let mut v = b.to_json(model);
                v["runs"] = b.runs.as_str().into();
                v
            }
            Entry::Rule(r) => serde_json::to_value(r).unwrap_or_default(),
        }
    }

    /// One row of `mytune rules --format json`.
    pub fn summary(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "code": self.code(),
            "name": self.name(),
            "severity": self.severity(),
            "family": self.family(),
            "applies": self.applies(),
        });
        match self {
            Entry::Builtin(b, _) => {
                v["builtin"] = true.into();
                v["runs"] = b.runs.as_str().into();
                v["tags"] = serde_json::json!(["config"]);
            }
            Entry::Rule(r) => {
                v["tags"] = serde_json::json!(r.tags);
            }
        }
        v
    }
}

/// The registry of one rule set: the built-in checks and its rules.
pub struct Registry<'a> {
    rules: &'a RuleSet,
}

impl<'a> Registry<'a> {
    pub fn new(rules: &'a RuleSet) -> Self {
        Registry { rules }
    }

    /// Every entry: the built-in checks (their codes are the lowest), then
    /// the rules in the set's order.
    pub fn entries(&self) -> Vec<Entry<'a>> {
        builtins()
            .into_iter()
            .map(|b| Entry::Builtin(b, self.rules.model()))
            .chain(self.rules.rules().iter().map(Entry::Rule))
            .collect()
    }

    /// An entry by code (any case) or name.
    pub fn get(&self, key: &str) -> Option<Entry<'a>> {
        if let Some(r) = self.rules.get(key) {
            return Some(Entry::Rule(r));
        }
        builtins()
            .into_iter()
            .find(|b| b.code.eq_ignore_ascii_case(key) || b.name.eq_ignore_ascii_case(key))
            .map(|b| Entry::Builtin(b, self.rules.model()))
    }

    /// Whether `--only`/`--skip` can select `key`: an entry's code or name,
    /// or a family (`config` is the built-in checks' family).
    pub fn selects(&self, key: &str) -> bool {
        self.get(key).is_some()
            || Family::ALL
                .iter()
                .any(|f| f.as_str().eq_ignore_ascii_case(key))
            || key.eq_ignore_ascii_case(Family::Config.as_str())
    }
}

/// The rule reference (`mytune rules --format markdown`, committed as
/// `docs/rules.md`): every entry of the registry of `rules`.
pub fn markdown(rules: &RuleSet) -> String {
    crate::rules::docs::markdown(rules, &builtins())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry has a code of the MTnnn form no other entry has, a name,
    /// a summary and a rationale; a built-in check without them fails here
    /// by name.
    #[test]
    fn every_entry_is_documented_under_a_code_of_its_own() {
        let set = RuleSet::builtin().unwrap();
        let registry = Registry::new(&set);
        let mut seen = std::collections::BTreeSet::new();
        for e in registry.entries() {
            let code = e.code();
            assert!(
                crate::rules::Code::parse(code).is_ok_and(|c| c == code),
                "{code}: not an MTnnn code"
            );
            assert!(
                seen.insert(code.to_string()),
                "{code}: two entries share it"
            );
            assert!(!e.name().is_empty(), "{code}: no name");
            if let Entry::Builtin(b, _) = e {
                assert!(!b.summary().trim().is_empty(), "{code}: no summary");
                assert!(!b.rationale().trim().is_empty(), "{code}: no rationale");
                for name in b.models {
                    assert!(
                        b.models(set.model()).any(|m| m.name == *name),
                        "{code}: judges by model.{name}, which the rule set does not define"
                    );
                }
            }
            assert_eq!(
                registry.get(code).map(|g| g.name().to_string()),
                Some(e.name().to_string())
            );
        }
        assert!(
            seen.len() > set.rules().len(),
            "the built-in checks are listed"
        );
    }
}
