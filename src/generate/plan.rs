//! The recommendation set for one target: the rules evaluated to a fixed
//! point.
//!
//! Why a fixed point: rules read the current (or default) values of
//! variables that other rules change. MT301 (connections × per-connection
//! buffers vs memory) must see the buffer pool MT101 is about to set, not the
//! 128M default, or the generated file could promise more memory than the
//! host has. So the plan applies each round's recommendations as if they
//! were in an option file and evaluates again, until no recommendation
//! changes. The plan keeps every value ever recommended (a rule that stops
//! firing once its value is applied has still decided it) with the rule
//! that decided it last.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::GenError;
use crate::catalog::Catalog;
use crate::facts::{ConfigFacts, ConfigOption, Facts, SourceLocation};
use crate::rules::{EvalInput, Finding, NotApplicable, Profile, RuleSet};
use crate::target::Target;
use crate::units;

/// Recommendations of kernel parameters: `sysctl:net.core.somaxconn`.
pub const SYSCTL_PREFIX: &str = "sysctl:";
/// Recommendations of process limits: `limit:nofile`.
pub const LIMIT_PREFIX: &str = "limit:";
/// Other host settings (transparent huge pages, I/O scheduler): `host:NAME`.
pub const HOST_PREFIX: &str = "host:";

/// More rounds than this means two rules keep overriding each other.
pub const MAX_ROUNDS: usize = 8;

/// One value to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// The recommended name as the rule wrote it: a server variable
    /// (`innodb_buffer_pool_size`) or a namespaced OS setting
    /// (`sysctl:net.core.somaxconn`, `limit:nofile`).
    pub name: String,
    pub value: String,
    /// The rule that decided it, by code and name.
    pub code: crate::rules::Code,
    pub rule_name: String,
    /// The first sentence of the rule's rationale.
    pub why: String,
    /// The value before: the live server's, the option file's, or the
    /// target's default (server variables), or the host's (sysctl); `None`
    /// when unknown.
    pub baseline: Option<String>,
}

impl Setting {
    /// The baseline is already the recommended value.
    pub fn unchanged(&self) -> bool {
        self.baseline
            .as_deref()
            .is_some_and(|b| same_value(b, &self.value))
    }
}

/// The consistent set of recommendations for a target.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The target the file is for (the server's own when facts have one).
    pub target: Target,
    /// The catalog series used for names, defaults and ranges.
    pub catalog_target: Target,
    /// By recommended name.
    pub settings: BTreeMap<String, Setting>,
    /// Evaluation rounds until nothing changed.
    pub rounds: usize,
    /// Rules that could not be applied in the last round, with the reason.
    pub not_applicable: Vec<NotApplicable>,
    /// Findings of the last round from rules that recommend nothing: what
    /// the file cannot fix (MT211: the expected peak does not fit).
    pub unresolved: Vec<Finding>,
    /// Values a rule holds back until its `offer_if` holds (MT208's
    /// `skip_name_resolve = ON` while a login depends on host names, or
    /// while nobody read the accounts), by name: `gen-cnf` writes them
    /// commented out with the rule's note, never as a setting.
    pub withheld: BTreeMap<String, WithheldSetting>,
}

/// A setting the plan does not make, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WithheldSetting {
    pub setting: Setting,
    /// What must be true first (the rule's `withheld` text).
    pub note: String,
}

impl Plan {
    /// Server variables (names without a namespace), in name order.
    pub fn server_settings(&self) -> impl Iterator<Item = &Setting> {
        self.settings.values().filter(|s| !s.name.contains(':'))
    }

    /// Settings of one namespace (`SYSCTL_PREFIX`, `LIMIT_PREFIX`) with the
    /// name after the prefix.
    pub fn namespaced<'a>(
        &'a self,
        prefix: &'a str,
    ) -> impl Iterator<Item = (&'a str, &'a Setting)> {
        self.settings
            .values()
            .filter_map(move |s| s.name.strip_prefix(prefix).map(|n| (n, s)))
    }

    pub fn get(&self, name: &str) -> Option<&Setting> {
        self.settings.get(name)
    }

    /// What the file cannot fix, as sentences for a warning: the messages
    /// of the last round's findings from rules that recommend nothing (such
    /// as MT211, an expected peak whose worst-case memory does not fit).
    /// An info finding (MT128: the pool already holds all the data) is no
    /// shortfall.
    pub fn shortfalls(&self) -> Vec<String> {
        self.shortfall_findings()
            .map(|f| f.message.clone())
            .collect()
    }

    /// The shortfalls of rules of the OS family (`os`: gen-sysctl prints
    /// them) or of the others (`!os`: gen-cnf), each as "message (CODE)":
    /// a warning names its rule as every written line does.
    pub fn shortfalls_of_os(&self, os: bool) -> Vec<String> {
        self.shortfall_findings()
            .filter(|f| (f.family == crate::rules::Family::Os) == os)
            .map(|f| format!("{} ({})", f.message, f.code))
            .collect()
    }

    /// What the plan cannot change but the reader of the file should know
    /// (information-level findings without a recommendation: the ceiling of
    /// max_connections, MT213), of the OS family or of the others, each as
    /// "message (CODE)".
    pub fn notes_of_os(&self, os: bool) -> Vec<String> {
        self.unresolved
            .iter()
            .filter(|f| f.severity == crate::rules::Severity::Info)
            .filter(|f| (f.family == crate::rules::Family::Os) == os)
            .map(|f| format!("{} ({})", f.message, f.code))
            .collect()
    }

    /// The memory model's expected case as this plan leaves the server,
    /// from the rules' own `model.expected`, `model.peak`, `model.session`
    /// and `model.idle_measured`, so a generated file's header and `check`
    /// of that file say the same.
    pub fn expected_memory(
        &self,
        rules: &RuleSet,
        facts: &Facts,
        profile: &Profile,
    ) -> Option<ExpectedMemory> {
        let mut planned = facts.clone();
        for s in self.settings.values() {
            apply(&mut planned, &s.name, &s.value);
        }
        let catalog = Catalog::for_target(&self.target).ok()?;
        let defaults = |name: &str| catalog.get(name).and_then(|v| v.default.clone());
        let input = EvalInput::new(&planned, profile)
            .with_target(self.target)
            .with_defaults(&defaults);
        Some(ExpectedMemory {
            bytes: rules.model_number("expected", &input)?,
            connections: rules.model_number("peak", &input)?,
            per_connection: rules.model_number("session", &input)?,
            idle_measured: rules
                .model_number("idle_measured", &input)
                .filter(|b| *b >= 0.0),
        })
    }

    fn shortfall_findings(&self) -> impl Iterator<Item = &crate::rules::Finding> {
        self.unresolved
            .iter()
            .filter(|f| f.severity >= crate::rules::Severity::Warn)
    }
}

/// The memory model's expected case for a plan ([`Plan::expected_memory`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExpectedMemory {
    /// Bytes the server is expected to hold at its peak.
    pub bytes: f64,
    /// The connections counted (the peak).
    pub connections: f64,
    /// What each connection is counted at, from its buffers.
    pub per_connection: f64,
    /// What an idle connection was measured to hold resident on this
    /// flavor (`None`: not measured for it).
    pub idle_measured: Option<f64>,
}

/// Evaluate `rules` on `facts` for `target` until the recommendations stop
/// changing. Variable defaults and "does the target have it" come from the
/// target's variable catalog; namespaced OS settings (`sysctl:`, `limit:`,
/// `host:`) are always kept.
pub fn build(
    rules: &RuleSet,
    facts: &Facts,
    profile: &Profile,
    target: Target,
) -> Result<Plan, GenError> {
    profile.validate().map_err(GenError::Profile)?;
    let target = facts.server.as_ref().map_or(target, |s| s.target());
    let catalog = Catalog::for_target(&target)?;
    let defaults = |name: &str| catalog.get(name).and_then(|v| v.default.clone());
    // Namespaced names (`sysctl:`, `limit:`, `host:`) are OS settings, not
    // server variables: the catalog does not judge them.
    let known = |name: &str| {
        name.contains(':')
            || catalog
                .get(name)
                .is_some_and(|v| !v.status_at(target.version).is_removed())
    };

    let mut settings: BTreeMap<String, Setting> = BTreeMap::new();
    let mut current = facts.clone();
    // MariaDB accepts many options it has removed and ignores them ("was
    // removed. It does nothing now"), so such a line is no starting value:
    // `innodb_buffer_pool_instances = 8` in a base file must not make MariaDB
    // 10.6+'s buffer pool unit 1G. (MySQL refuses a removed option, which
    // lint reports; its value stays, as lint's rule evaluation sees it.)
    if target.flavor.traits().removed_options_are_noops
        && let Some(config) = current.config.as_mut()
    {
        config.options.retain(|name, _| {
            !catalog
                .get(name)
                .is_some_and(|v| v.status_at(target.version).is_removed())
        });
    }
    let mut round = 0;
    loop {
        round += 1;
        let eval = rules.evaluate(
            &EvalInput::new(&current, profile)
                .with_target(target)
                .with_defaults(&defaults)
                .with_known_variables(&known),
        );
        let mut changing = Vec::new();
        for (name, rec) in &eval.recommendations {
            if settings
                .get(name)
                .is_some_and(|s| same_value(&s.value, &rec.value))
            {
                continue;
            }
            changing.push(name.clone());
            let rule = rules.get(&rec.code);
            let baseline = settings
                .get(name)
                .map(|s| s.baseline.clone())
                .unwrap_or_else(|| baseline_of(facts, name, &defaults));
            settings.insert(
                name.clone(),
                Setting {
                    name: name.clone(),
                    value: rec.value.clone(),
                    code: rec.code.clone(),
                    rule_name: rule.map(|r| r.name.clone()).unwrap_or_default(),
                    why: super::first_sentence(&rec.rationale).to_string(),
                    baseline,
                },
            );
            apply(&mut current, name, &rec.value);
        }
        if changing.is_empty() {
            let withheld = eval
                .withheld
                .iter()
                .filter(|(name, _)| !settings.contains_key(*name))
                .map(|(name, w)| {
                    let setting = Setting {
                        name: name.clone(),
                        value: w.value.clone(),
                        code: w.code.clone(),
                        rule_name: rules
                            .get(&w.code)
                            .map(|r| r.name.clone())
                            .unwrap_or_default(),
                        why: super::first_sentence(&w.rationale).to_string(),
                        baseline: baseline_of(facts, name, &defaults),
                    };
                    let note = w.note.clone();
                    (name.clone(), WithheldSetting { setting, note })
                })
                .collect();
            return Ok(Plan {
                target,
                catalog_target: catalog.target(),
                settings,
                rounds: round,
                not_applicable: eval.not_applicable,
                unresolved: eval
                    .findings
                    .into_iter()
                    .filter(|f| rules.get(&f.code).is_some_and(|r| r.recommend.is_empty()))
                    .collect(),
                withheld,
            });
        }
        if round >= MAX_ROUNDS {
            return Err(GenError::NotConverged {
                rounds: round,
                changing,
            });
        }
    }
}

/// The value a setting has before the plan changes it.
fn baseline_of(
    facts: &Facts,
    name: &str,
    defaults: &dyn Fn(&str) -> Option<String>,
) -> Option<String> {
    if let Some(key) = name.strip_prefix(SYSCTL_PREFIX) {
        return facts.host.as_ref().and_then(|h| h.sysctl.get(key).cloned());
    }
    if name.contains(':') {
        return None;
    }
    if let Some(s) = &facts.server {
        return s.variables.get(name).cloned();
    }
    if let Some(o) = facts.config.as_ref().and_then(|c| c.options.get(name)) {
        return Some(o.value.clone());
    }
    defaults(name)
}

/// Make the next round see `name = value`: a server variable when there are
/// server facts (they win over option files), and an option-file value,
/// since applying the plan writes the line into the option files (rules
/// that read what the file asks for, `cnf.max_connections` in MT801, must
/// see the plan's value, not today's line); a sysctl as the host's value.
/// Other namespaced settings (limits, `host:`) have no fact to update.
pub fn apply(facts: &mut Facts, name: &str, value: &str) {
    if let Some(key) = name.strip_prefix(SYSCTL_PREFIX) {
        if let Some(h) = facts.host.as_mut() {
            h.sysctl.insert(key.to_string(), value.to_string());
        }
        return;
    }
    if name.contains(':') {
        return;
    }
    if let Some(s) = facts.server.as_mut() {
        s.variables.insert(name.to_string(), value.to_string());
        // The live server read no option file mytune saw: only its values.
        let Some(config) = facts.config.as_mut() else {
            return;
        };
        if let Some(o) = config.options.get_mut(name) {
            o.value = value.to_string();
            return;
        }
    }
    let config = facts.config.get_or_insert_with(ConfigFacts::default);
    config.options.insert(
        name.to_string(),
        ConfigOption {
            name: name.to_string(),
            value: value.to_string(),
            location: SourceLocation {
                file: PathBuf::from("<generated>"),
                line: 0,
                column: 0,
            },
            group: "mysqld".into(),
            loose: false,
            shadowed: Vec::new(),
        },
    );
}

/// Undo [`apply`] of `name`: its value in `facts` back to the one in
/// `live`, the facts `facts` was copied from (absent there: absent here).
pub fn restore(facts: &mut Facts, live: &Facts, name: &str) {
    fn put(map: &mut BTreeMap<String, String>, key: &str, live: Option<&String>) {
        match live {
            Some(v) => {
                if map.get(key) != Some(v) {
                    map.insert(key.to_string(), v.clone());
                }
            }
            None => {
                map.remove(key);
            }
        }
    }
    if let Some(key) = name.strip_prefix(SYSCTL_PREFIX) {
        if let Some(h) = facts.host.as_mut() {
            put(
                &mut h.sysctl,
                key,
                live.host.as_ref().and_then(|l| l.sysctl.get(key)),
            );
        }
        return;
    }
    if name.contains(':') {
        return;
    }
    if let Some(s) = facts.server.as_mut() {
        put(
            &mut s.variables,
            name,
            live.server.as_ref().and_then(|l| l.variables.get(name)),
        );
        // `apply` set the option-file value too: undone below.
    }
    let Some(config) = facts.config.as_mut() else {
        return;
    };
    match live.config.as_ref().and_then(|c| c.options.get(name)) {
        Some(o) => {
            config.options.insert(name.to_string(), o.clone());
        }
        None => {
            config.options.remove(name);
            // Made by `apply` alone: gone with its last option.
            if live.config.is_none() && config.options.is_empty() {
                facts.config = None;
            }
        }
    }
}

/// Two option values mean the same: equal text (any case), equal numbers
/// (`1G` = `1073741824`), or equal booleans (`ON` = `1`).
pub fn same_value(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim(), b.trim());
    if a.eq_ignore_ascii_case(b) {
        return true;
    }
    if let (Ok(x), Ok(y)) = (units::parse_size(a), units::parse_size(b)) {
        return x == y;
    }
    match (as_bool(a), as_bool(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

fn as_bool(s: &str) -> Option<bool> {
    match s.to_ascii_uppercase().as_str() {
        "ON" | "TRUE" | "YES" | "1" => Some(true),
        "OFF" | "FALSE" | "NO" | "0" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_compare_like_the_server_reads_them() {
        assert!(same_value("1G", "1073741824"));
        assert!(same_value("on", "1"));
        assert!(same_value("O_DIRECT", "o_direct"));
        assert!(!same_value("1G", "1M"));
        assert!(!same_value("ON", "2"));
    }
}
