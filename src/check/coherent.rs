//! One plan per report: every finding of `check` is judged against the
//! server as this report's own suggested changes would leave it.
//!
//! Why: rules read variables that other rules change. Evaluated once on the
//! live values, MT113 sized the redo log for a pool MT101 was about to
//! replace, MT805 sized the network for a `max_connections` MT301 was about
//! to cut, and two rules could recommend two values for one variable. A DBA
//! who applies the block and checks again must not be asked for more
//! changes to the same variables.
//!
//! So the recommendations are first taken to a fixed point (the generators'
//! [`plan`]). Then each rule is evaluated once more on the live facts with
//! the plan's changes applied, except the variables the rule itself
//! recommends, which keep their live values: its premise is the planned
//! server, its "current → recommended" is the live value against the plan's.
//! A finding whose premise uses a planned value says so ("with this report's
//! innodb_buffer_pool_size = 16768M (MT101): …"), and every recommendation of
//! a variable is the plan's one value. Applying the block and checking again
//! evaluates the plan's last round, where nothing changes any more.

use std::collections::{BTreeMap, BTreeSet};

use crate::facts::Facts;
use crate::generate::plan::{self, Plan, same_value};
use crate::rules::{EvalInput, Finding, NotApplicable, Profile, RuleSet};

/// The findings of one coherent report.
#[derive(Debug, Clone, Default)]
pub struct Coherent {
    pub findings: Vec<Finding>,
    pub not_applicable: Vec<NotApplicable>,
    /// The plan the findings share; `None` when it could not be built (no
    /// catalog for the server, or rules that do not converge), in which case
    /// the findings are one evaluation of the live values.
    pub plan: Option<Plan>,
    /// Why there is no plan, for `-v`.
    pub plan_error: Option<String>,
}

/// Evaluate `rules` on `facts` (which must have server facts) as one plan.
pub fn evaluate(
    rules: &RuleSet,
    facts: &Facts,
    profile: &Profile,
    known: &dyn Fn(&str) -> bool,
) -> Coherent {
    // The server's compiled-in defaults, for rules that tell a value
    // someone raised from the stock one (`default("key_buffer_size")`).
    let catalog = facts
        .server
        .as_ref()
        .and_then(|s| crate::catalog::Catalog::for_target(&s.target()).ok());
    let defaults = |name: &str| {
        catalog
            .and_then(|c| c.get(name))
            .and_then(|v| v.default.clone())
    };
    let defaults: &dyn crate::rules::Defaults = &defaults;
    let single = |plan_error: Option<String>| {
        let ev = rules.evaluate(
            &EvalInput::new(facts, profile)
                .with_known_variables(known)
                .with_defaults(defaults),
        );
        Coherent {
            findings: ev.findings,
            not_applicable: ev.not_applicable,
            plan: None,
            plan_error,
        }
    };
    let Some(server) = &facts.server else {
        return single(None);
    };
    let mut plan = match plan::build(rules, facts, profile, server.target()) {
        Ok(p) => p,
        Err(e) => return single(Some(e.to_string())),
    };
    // A rule that decided a value in an early round of the plan, judged
    // again with the later changes in place, may want another one (a pool
    // rounded to the instance count MT122 set after MT101 had decided):
    // take it into the plan and judge again, a few times at most.
    // One copy of the facts for every rule and pass: the plan's values in
    // place, each rule's own variables put back to their live values while
    // it is judged (a copy per rule and pass cost more than the judging).
    let mut work = facts.clone();
    for _ in 0..MAX_PASSES {
        let (out, overrides) = judge(rules, facts, &mut work, profile, known, defaults, &plan);
        if overrides.is_empty() {
            return Coherent {
                plan: Some(plan),
                ..out
            };
        }
        for (var, value) in overrides {
            if let Some(s) = plan.settings.get_mut(&var) {
                s.value = value;
            }
        }
    }
    let (mut out, overrides) = judge(rules, facts, &mut work, profile, known, defaults, &plan);
    for f in &mut out.findings {
        if let (Some(var), Some(rec)) = (&f.variable, &mut f.recommended)
            && let Some(v) = overrides.get(var)
        {
            *rec = v.clone();
        }
    }
    out.plan = Some(plan);
    out
}

/// Re-judging the plan's deciders settles in one or two passes; more means
/// two rules keep moving each other's premise.
const MAX_PASSES: usize = 4;

/// Every rule judged on the facts as `plan` leaves them (its own variables
/// at their live values), and the values deciders now want instead. `work`
/// is a copy of `facts` that this sets to the plan's values; it is left so.
fn judge(
    rules: &RuleSet,
    facts: &Facts,
    work: &mut Facts,
    profile: &Profile,
    known: &dyn Fn(&str) -> bool,
    defaults: &dyn crate::rules::Defaults,
    plan: &Plan,
) -> (Coherent, BTreeMap<String, String>) {
    let changed: Vec<&plan::Setting> = plan.settings.values().filter(|s| !s.unchanged()).collect();
    // The plan's values (this pass's: a decider's may have moved since the
    // last), and the live ones where the plan no longer changes anything.
    for s in plan.settings.values() {
        if s.unchanged() {
            plan::restore(work, facts, &s.name);
        } else {
            plan::apply(work, &s.name, &s.value);
        }
    }
    let mut out = Coherent::default();
    let mut overrides: BTreeMap<String, String> = BTreeMap::new();
    for (rule, read) in rules.rules().iter().zip(rules.read_settings()) {
        // Names Rule::read_settings cannot list (not identifiers) are
        // searched for.
        let reads_setting = |name: &str| {
            read.contains(name)
                || (!name.starts_with("sysctl:")
                    && !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && rule.reads(name))
        };
        let own: BTreeSet<&str> = rule.recommend.iter().map(|r| r.variable.as_str()).collect();
        let kept: Vec<&&plan::Setting> = changed
            .iter()
            .filter(|s| own.contains(s.name.as_str()))
            .collect();
        for s in &kept {
            plan::restore(work, facts, &s.name);
        }
        let ev = rules.evaluate_rule(
            rule,
            &EvalInput::new(work, profile)
                .with_known_variables(known)
                .with_defaults(defaults),
        );
        for s in &kept {
            plan::apply(work, &s.name, &s.value);
        }
        let premise: Vec<&&plan::Setting> = changed
            .iter()
            .filter(|s| !own.contains(s.name.as_str()) && reads_setting(&s.name))
            .collect();
        let live = if premise.is_empty() {
            None
        } else {
            Some(
                rules.evaluate_rule(
                    rule,
                    &EvalInput::new(facts, profile)
                        .with_known_variables(known)
                        .with_defaults(defaults),
                ),
            )
        };
        let same_as_live = live.as_ref().is_none_or(|l| l.findings == ev.findings);
        out.not_applicable.extend(ev.not_applicable);
        if rule.recommend.is_empty()
            && let Some(l) = &live
            && !same_as_live
        {
            // A rule that only reports describes the server as it is; when
            // the plan's changes end the problem, say so.
            if !l.findings.is_empty() {
                let by: BTreeSet<&str> = premise.iter().map(|s| s.code.as_str()).collect();
                for mut f in l.findings.clone() {
                    if ev.findings.is_empty() {
                        f.message.push_str(&format!(
                            "; the suggested changes of {} resolve it",
                            join(&by.iter().map(|c| c.to_string()).collect::<Vec<_>>())
                        ));
                    }
                    out.findings.push(f);
                }
                continue;
            }
        }
        for mut f in ev.findings {
            // A report-only finding about a variable the plan sets (MT128 on
            // the pool MT101 sets) only restates that change: the change's
            // own finding speaks for the variable.
            if rule.recommend.is_empty()
                && f.variable
                    .as_deref()
                    .is_some_and(|v| changed.iter().any(|s| s.name == v))
            {
                continue;
            }
            if !premise.is_empty() && !same_as_live {
                let with: Vec<String> = premise
                    .iter()
                    .map(|s| format!("{} = {} ({})", shown_name(&s.name), s.value, s.code))
                    .collect();
                f.message = format!("with this report's {}: {}", join(&with), f.message);
            }
            if let (Some(var), Some(rec)) = (&f.variable, &f.recommended)
                && let Some(s) = plan.get(var)
                && !same_value(&s.value, rec)
                && rule.code == s.code
            {
                // The rule that decided the plan's value, judged again with
                // the other changes in place (a buffer pool rounded to the
                // new instance count): its value is the report's.
                overrides.insert(var.clone(), rec.clone());
            } else if let (Some(var), Some(rec)) = (&f.variable, &f.recommended)
                && let Some(s) = plan.get(var)
                && !same_value(&s.value, rec)
            {
                // Another rule has the last word on this variable: one value
                // per variable, the plan's.
                if f.current
                    .as_deref()
                    .is_some_and(|c| same_value(c, &s.value))
                {
                    continue;
                }
                f.message.push_str(&format!(
                    " (this report's plan sets {} = {}, decided by {})",
                    shown_name(var),
                    s.value,
                    s.code
                ));
                f.recommended = Some(s.value.clone());
            }
            out.findings.push(f);
        }
    }
    (out, overrides)
}

fn shown_name(name: &str) -> &str {
    name.strip_prefix(plan::SYSCTL_PREFIX).unwrap_or(name)
}

fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use crate::rules::RuleSet;

    /// `read_settings` lists exactly the settings `reads` says yes to, for
    /// every built-in rule and every setting any rule reads (and a few no
    /// rule does).
    #[test]
    fn read_settings_agrees_with_reads() {
        let rules = RuleSet::builtin().unwrap();
        let mut names: BTreeSet<String> = rules
            .rules()
            .iter()
            .flat_map(|r| r.read_settings())
            .collect();
        assert!(names.len() > 50, "{names:?}");
        assert!(names.iter().any(|n| n.starts_with("sysctl:")), "{names:?}");
        names.extend([
            "innodb_buffer_pool".into(),
            "sysctl:vm".into(),
            "max".into(),
        ]);
        for rule in rules.rules() {
            let read = rule.read_settings();
            for name in &names {
                assert_eq!(
                    read.contains(name),
                    rule.reads(name),
                    "{} {name}",
                    rule.code
                );
            }
        }
    }
}
