//! The evaluator: facts + profile → findings, a consistent recommendation
//! set, and the rules that could not be applied.
//!
//! It judges nothing itself: every decision comes from a rule. The only
//! engine-level behaviours are generic: a missing fact makes a rule not
//! applicable (never a finding), status-based findings on a server up less
//! than a day get lower confidence, a recommendation the target has no
//! variable for is dropped, and a finding is not reported for a variable
//! that already has the recommended value.

use std::collections::BTreeMap;

use super::expr::{self, EngineFigure, EvalError, FactRef, Namespace, Scope, Value};
use super::fact_table::FactSource;
use super::finding::{Evaluation, Finding, NotApplicable, Recommendation, Withheld};
use super::loader::RuleSet;
use super::profile::Profile;
use super::schema::{Recommend, Rule, Setting, ValueFormat};
use crate::facts::host::Limit;
use crate::facts::{Facts, SourceLocation};
use crate::target::Target;
use crate::units;

/// Status counters of a server younger than this are not representative.
pub const MIN_REPRESENTATIVE_UPTIME_SECS: u64 = 86_400;

/// Supplies a variable's default for the target when neither the server nor
/// the option files have it (the lint command passes the variable catalog).
pub trait Defaults {
    fn default_of(&self, name: &str) -> Option<String>;
}

impl<F: Fn(&str) -> Option<String>> Defaults for F {
    fn default_of(&self, name: &str) -> Option<String> {
        self(name)
    }
}

/// Everything an evaluation reads.
#[derive(Clone, Copy)]
pub struct EvalInput<'a> {
    pub facts: &'a Facts,
    pub profile: &'a Profile,
    /// The target when there are no server facts (`--target mysql-8.0`).
    /// Server facts, when present, win.
    pub target: Option<Target>,
    pub defaults: Option<&'a dyn Defaults>,
    /// Does the target have this variable? (`None` = assume yes.)
    pub known_variable: Option<&'a dyn Fn(&str) -> bool>,
}

impl<'a> EvalInput<'a> {
    pub fn new(facts: &'a Facts, profile: &'a Profile) -> EvalInput<'a> {
        EvalInput {
            facts,
            profile,
            target: None,
            defaults: None,
            known_variable: None,
        }
    }

    pub fn with_target(mut self, target: Target) -> Self {
        self.target = Some(target);
        self
    }

    pub fn with_defaults(mut self, defaults: &'a dyn Defaults) -> Self {
        self.defaults = Some(defaults);
        self
    }

    pub fn with_known_variables(mut self, known: &'a dyn Fn(&str) -> bool) -> Self {
        self.known_variable = Some(known);
        self
    }

    /// Server facts win over the given target.
    pub fn effective_target(&self) -> Option<Target> {
        self.facts
            .server
            .as_ref()
            .map(|s| s.target())
            .or(self.target)
    }
}

impl RuleSet {
    pub fn evaluate(&self, input: &EvalInput) -> Evaluation {
        let mut out = Evaluation::default();
        let target = input.effective_target();
        for rule in self.rules() {
            evaluate_rule(rule, input, target, &mut out);
        }
        out
    }
}

impl RuleSet {
    /// Evaluate one rule of the set (`check` evaluates each rule on the facts
    /// as its report's plan leaves them).
    pub fn evaluate_rule(&self, rule: &Rule, input: &EvalInput) -> Evaluation {
        let mut out = Evaluation::default();
        evaluate_rule(rule, input, input.effective_target(), &mut out);
        out
    }
}

impl RuleSet {
    /// The number a rule's `let.NAME` evaluates to on `input` (the report
    /// header shows MT302's worst-case memory this way, so the model is
    /// written once, in the rule). `None` when the rule or the let does not
    /// exist or a fact is missing.
    pub fn let_number(&self, code: &str, name: &str, input: &EvalInput) -> Option<f64> {
        let rule = self.get(code)?;
        let target = input.effective_target();
        let mut scope = FactScope::new(input, target, Some(rule));
        let (_, compiled) = rule.lets.iter().find(|(n, _)| n == name)?;
        expr::eval(&compiled.expr, &mut scope).ok()?.as_num().ok()
    }

    /// A number of the shared model (`model.NAME`) on these facts: the
    /// report's header shows the memory model's figures this way, so they
    /// are the rules' own.
    pub fn model_number(&self, name: &str, input: &EvalInput) -> Option<f64> {
        let entry = self.model().iter().find(|m| m.name == name)?;
        let target = input.effective_target();
        let mut scope = FactScope::new(input, target, None);
        expr::eval(&entry.expr, &mut scope).ok()?.as_num().ok()
    }
}

fn not_applicable(out: &mut Evaluation, rule: &Rule, reason: impl Into<String>) {
    out.not_applicable.push(NotApplicable {
        code: rule.code.clone(),
        reason: reason.into(),
    });
}

fn evaluate_rule(rule: &Rule, input: &EvalInput, target: Option<Target>, out: &mut Evaluation) {
    if !rule.applies.is_universal() {
        match target {
            None => {
                return not_applicable(
                    out,
                    rule,
                    format!(
                        "needs server.version (applies to {}; no server facts and no target given)",
                        rule.applies
                    ),
                );
            }
            Some(t) if !rule.applies.matches(t) => {
                return not_applicable(
                    out,
                    rule,
                    format!("applies to {}; the target is {t}", rule.applies),
                );
            }
            Some(_) => {}
        }
    }
    let mut scope = FactScope::new(input, target, Some(rule));
    match expr::eval(&rule.when.expr, &mut scope).and_then(|v| v.as_bool()) {
        Ok(true) => {}
        Ok(false) => return,
        Err(e) => return not_applicable(out, rule, e.to_string()),
    }

    // Per variable, the most specific entry whose profile scope matches.
    let mut chosen: Vec<&Recommend> = Vec::new();
    for rec in &rule.recommend {
        if !scope_matches(rec, input.profile) {
            continue;
        }
        match chosen.iter_mut().find(|c| c.variable == rec.variable) {
            Some(c) if rec.profile.specificity() > c.profile.specificity() => *c = rec,
            Some(_) => {}
            None => chosen.push(rec),
        }
    }
    let mut recs: Vec<(&Recommend, String)> = Vec::new();
    let mut withheld: Vec<(&Recommend, String)> = Vec::new();
    let mut dropped = 0;
    for rec in chosen {
        let value = match expr::eval(&rec.value.expr, &mut scope)
            .and_then(|v| format_value(&v, rec.format))
        {
            Ok(v) => v,
            Err(e) => return not_applicable(out, rule, format!("{}: {e}", rec.variable)),
        };
        if let Some(known) = input.known_variable
            && Setting::parse(&rec.variable).is_server()
            && !known(&rec.variable)
        {
            dropped += 1;
            let t = target.map(|t| t.to_string()).unwrap_or("the target".into());
            not_applicable(
                out,
                rule,
                format!(
                    "{}: {t} has no such variable (recommendation dropped)",
                    rec.variable
                ),
            );
            continue;
        }
        // A value safe only when the facts prove it: a missing fact
        // withholds it as a false condition does.
        if let Some(cond) = &rec.offer_if {
            match expr::eval(&cond.expr, &mut scope).and_then(|v| v.as_bool()) {
                Ok(true) => {}
                Ok(false) | Err(EvalError::Missing { .. }) => {
                    withheld.push((rec, value));
                    continue;
                }
                Err(e) => {
                    return not_applicable(out, rule, format!("{} offer_if: {e}", rec.variable));
                }
            }
        }
        scope
            .recs
            .insert(rec.variable.clone(), Value::Str(value.clone()));
        recs.push((rec, value));
    }
    if dropped > 0 && recs.is_empty() && withheld.is_empty() {
        return;
    }
    let mut notes = Vec::new();
    for (rec, _) in &withheld {
        let Some(t) = &rec.withheld else { continue };
        match t.render(&mut scope) {
            Ok(n) => notes.push(n),
            Err(e) => {
                return not_applicable(out, rule, format!("{} withheld: {e}", rec.variable));
            }
        }
    }

    let mut message = match rule.message.render(&mut scope) {
        Ok(m) => m,
        Err(e) => return not_applicable(out, rule, format!("message: {e}")),
    };
    let mut confidence = rule.confidence;
    if rule.reads_status
        && let Some(server) = &input.facts.server
        && server.uptime_secs < MIN_REPRESENTATIVE_UPTIME_SECS
    {
        confidence = confidence.lowered();
        message.push_str(&format!(
            " (confidence lowered to {confidence}: the server has been up only {}, so its status counters may not be representative)",
            duration(server.uptime_secs)
        ));
    }
    let finding = |variable: Option<String>,
                   current: Option<String>,
                   recommended: Option<String>,
                   location: Option<SourceLocation>| Finding {
        code: rule.code.clone(),
        name: rule.name.clone(),
        family: rule.family,
        severity: rule.severity,
        tags: rule.tags.clone(),
        message: message.clone(),
        variable,
        current,
        recommended,
        location,
        rationale: rule.rationale.clone(),
        sources: rule.sources.clone(),
        confidence,
        fix: None,
    };

    let had_withheld = !withheld.is_empty();
    for ((rec, value), note) in withheld.into_iter().zip(notes) {
        let (current, location) = match scope.current(&rec.variable) {
            Ok((val, loc)) => (
                Some(format_value(&val, rec.format).unwrap_or_else(|_| val.to_string())),
                loc,
            ),
            Err(_) => (None, None),
        };
        out.withheld
            .entry(rec.variable.clone())
            .or_insert_with(|| Withheld {
                variable: rec.variable.clone(),
                value: value.clone(),
                code: rule.code.clone(),
                rationale: rule.rationale.clone(),
                note,
            });
        if current
            .as_deref()
            .is_some_and(|c| c.eq_ignore_ascii_case(&value))
        {
            continue;
        }
        // The finding stays, recommending nothing.
        out.findings
            .push(finding(Some(rec.variable.clone()), current, None, location));
    }
    if recs.is_empty() {
        if had_withheld {
            return;
        }
        let (current, location) = match &rule.variable {
            Some(v) => match scope.current(v) {
                Ok((val, loc)) => {
                    let shown = match rule.format {
                        Some(f) => format_value(&val, f).unwrap_or_else(|_| val.to_string()),
                        None => val.to_string(),
                    };
                    (Some(shown), loc)
                }
                Err(_) => (None, None),
            },
            None => (None, None),
        };
        out.findings
            .push(finding(rule.variable.clone(), current, None, location));
        return;
    }
    for (rec, value) in recs {
        let (current, location) = match scope.current(&rec.variable) {
            Ok((val, loc)) => (
                Some(format_value(&val, rec.format).unwrap_or_else(|_| val.to_string())),
                loc,
            ),
            Err(_) => (None, None),
        };
        out.recommendations
            .entry(rec.variable.clone())
            .or_insert_with(|| Recommendation {
                variable: rec.variable.clone(),
                value: value.clone(),
                code: rule.code.clone(),
                rationale: rule.rationale.clone(),
            });
        if current
            .as_deref()
            .is_some_and(|c| c.eq_ignore_ascii_case(&value))
        {
            continue;
        }
        out.findings.push(finding(
            Some(rec.variable.clone()),
            current,
            Some(value),
            location,
        ));
    }
}

fn scope_matches(rec: &Recommend, profile: &Profile) -> bool {
    rec.profile
        .durability
        .as_deref()
        .is_none_or(|d| d == profile.durability.as_str())
        && rec
            .profile
            .workload
            .as_deref()
            .is_none_or(|w| w == profile.workload.as_str())
        && rec
            .profile
            .observability
            .as_deref()
            .is_none_or(|o| o == profile.observability.as_str())
}

/// Render a value for an option file.
fn format_value(v: &Value, format: ValueFormat) -> Result<String, EvalError> {
    match format {
        ValueFormat::Size => {
            let n = v.as_num()?;
            if n < 0.0 {
                return Err(EvalError::Invalid(format!(
                    "a size cannot be negative ({})",
                    expr::value::format_num(n)
                )));
            }
            Ok(units::format_size(n.floor() as u64))
        }
        ValueFormat::Bool => Ok(if v.as_bool()? { "ON" } else { "OFF" }.into()),
        ValueFormat::String => Ok(v.as_text()),
        ValueFormat::Number => match v {
            Value::Text { text, .. } => Ok(match expr::value::text_to_num(text) {
                Some(n) => expr::value::format_num(n),
                None => text.clone(),
            }),
            Value::Num(n) => {
                let r = n.round();
                Ok(expr::value::format_num(if (n - r).abs() < 1e-9 {
                    r
                } else {
                    *n
                }))
            }
            other => Ok(other.to_string()),
        },
    }
}

fn duration(secs: u64) -> String {
    match secs {
        s if s < 120 => format!("{s}s"),
        s if s < 7200 => format!("{}m", s / 60),
        s => format!("{}h {}m", s / 3600, (s % 3600) / 60),
    }
}

/// Resolves facts for one rule evaluation.
struct FactScope<'a> {
    input: &'a EvalInput<'a>,
    target: Option<Target>,
    /// The rule whose `let.` names resolve (none for a model entry).
    rule: Option<&'a Rule>,
    lets: BTreeMap<String, Result<Value, EvalError>>,
    recs: BTreeMap<String, Value>,
}

impl<'a> FactScope<'a> {
    fn new(
        input: &'a EvalInput<'a>,
        target: Option<Target>,
        rule: Option<&'a Rule>,
    ) -> FactScope<'a> {
        FactScope {
            input,
            target,
            rule,
            lets: BTreeMap::new(),
            recs: BTreeMap::new(),
        }
    }

    /// `var.NAME`: server variable, else option-file value, else default.
    /// The location is set when the value came from an option file (or the
    /// server's value equals the option file's).
    fn var(&self, name: &str) -> Result<(Value, Option<SourceLocation>), EvalError> {
        let fact = format!("var.{name}");
        let option = self
            .input
            .facts
            .config
            .as_ref()
            .and_then(|c| c.options.get(name));
        if let Some(server) = &self.input.facts.server {
            let v = server
                .variables
                .get(name)
                .ok_or_else(|| EvalError::missing(&fact, "the server does not report it"))?;
            let loc = option
                .filter(|o| same_setting(&o.value, v))
                .map(|o| o.location.clone());
            return Ok((Value::text(v.clone(), fact), loc));
        }
        if let Some(o) = option {
            return Ok((Value::text(o.value.clone(), fact), Some(o.location.clone())));
        }
        if let Some(d) = self.input.defaults.and_then(|d| d.default_of(name)) {
            return Ok((Value::text(d, fact), None));
        }
        let why = if self.input.facts.config.is_some() {
            "no server facts, not set in the option files, no default known"
        } else {
            "no server facts, no option files, no default known"
        };
        Err(EvalError::missing(fact, why))
    }
}

/// The memory the server may use: the profile's share of the host's, and
/// never more than what the host's other processes leave (their resident
/// memory, when it was read here). Shared pages make that sum an upper
/// bound, so at least a tenth of the share is left however much they seem to
/// hold.
pub fn memory_budget(h: &crate::facts::HostFacts, share: f64) -> u64 {
    let mem = h.memory.effective_bytes;
    let shared = (mem as f64 * share) as u64;
    match kept_for_others(h) {
        Some(kept) => shared.min(mem.saturating_sub(kept)).max(shared / 10),
        None => shared,
    }
}

/// What the budget keeps for the host's other processes: their resident
/// memory rounded up to a step of about 1/32 of the memory (the power of
/// two above it, at least 256M: 1G on a 24G host), so
/// that processes growing and shrinking a little between two runs do not
/// move the budget, and with it every size planned from it.
pub fn kept_for_others(h: &crate::facts::HostFacts) -> Option<u64> {
    let o = h.other_processes.as_ref()?;
    let step = (h.memory.effective_bytes / 32)
        .next_power_of_two()
        .max(256 << 20);
    Some(o.resident_bytes.div_ceil(step) * step)
}

impl FactScope<'_> {
    /// The current value of what a finding is about, and where it was set.
    /// A server variable is read as `var.NAME`; when the server does not
    /// report it (an option-only name such as `skip_grant_tables` on MySQL)
    /// the option-file value stands in. Host settings (`sysctl:`, `limit:`,
    /// `host:`) are read from the host facts.
    fn current(&mut self, name: &str) -> Result<(Value, Option<SourceLocation>), EvalError> {
        let host = |what: &str| EvalError::missing(what.to_string(), "no host facts");
        match Setting::parse(name) {
            Setting::Server(v) => match self.var(v) {
                Err(e @ EvalError::Missing { .. }) => {
                    let option = self
                        .input
                        .facts
                        .config
                        .as_ref()
                        .and_then(|c| c.options.get(v));
                    match option {
                        Some(o) => Ok((
                            Value::text(o.value.clone(), format!("cnf.{v}")),
                            Some(o.location.clone()),
                        )),
                        None => Err(e),
                    }
                }
                other => other,
            },
            Setting::Sysctl(k) => self.sysctl(k).map(|v| (v, None)),
            Setting::Limit(item) => {
                let h = self.input.facts.host.as_ref().ok_or_else(|| host(name))?;
                let p = h.server_process.as_ref();
                let limit = match item {
                    "nofile" => p.and_then(|p| p.nofile_soft).or(h.systemd_limit_nofile),
                    "nproc" => p.and_then(|p| p.nproc_soft),
                    _ => None,
                };
                match limit {
                    Some(l) => Ok((Value::text(limit_text(l), name.to_string()), None)),
                    None => Err(EvalError::missing(
                        name,
                        "the server process limit is unknown",
                    )),
                }
            }
            Setting::Host(k) => self
                .fact(&FactRef {
                    ns: Namespace::Host,
                    name: k.to_string(),
                })
                .map(|v| (v, None)),
        }
    }
}

fn limit_text(l: Limit) -> String {
    match l {
        Limit::Value(v) => v.to_string(),
        Limit::Unlimited(_) => "unlimited".into(),
    }
}

fn same_setting(a: &str, b: &str) -> bool {
    if a.eq_ignore_ascii_case(b) {
        return true;
    }
    match (expr::value::text_to_num(a), expr::value::text_to_num(b)) {
        (Some(x), Some(y)) => x == y,
        _ => match (expr::value::text_to_bool(a), expr::value::text_to_bool(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}

impl Scope for FactScope<'_> {
    fn fact(&mut self, r: &FactRef) -> Result<Value, EvalError> {
        let name = r.name.as_str();
        // Named only when a value or an error needs it (not for `var.`,
        // the most read namespace, which names its own).
        let fact = || r.to_string();
        let missing = |why: &str| Err(EvalError::missing(fact(), why));
        let facts = self.input.facts;
        match r.ns {
            Namespace::Var => self.var(name).map(|(v, _)| v),
            Namespace::Cnf => match &facts.config {
                None => missing("no option files read"),
                Some(c) => match c.options.get(name) {
                    Some(o) => Ok(Value::text(o.value.clone(), fact())),
                    None => missing("not set in the option files"),
                },
            },
            Namespace::Status => match &facts.server {
                None => missing("no server facts"),
                Some(s) => match s.status.get(name) {
                    Some(v) => Ok(Value::text(v.clone(), fact())),
                    None => missing("the server does not report it"),
                },
            },
            Namespace::Rate => {
                let Some(s) = &facts.server else {
                    return missing("no server facts");
                };
                let Some(first) = s.status.get(name) else {
                    return missing("the server does not report it");
                };
                let first = Value::text(first.clone(), format!("status.{name}")).as_num()?;
                if let Some(sample) = &s.sample
                    && sample.interval_secs > 0.0
                    && let Some(end) = sample.status.get(name)
                {
                    let end = Value::text(end.clone(), format!("status.{name}")).as_num()?;
                    return Ok(Value::Num((end - first) / sample.interval_secs));
                }
                if s.uptime_secs == 0 {
                    // No rate yet: a missing fact, so coalesce() can fall back.
                    return missing("the server uptime is 0 and there is no second sample");
                }
                Ok(Value::Num(first / s.uptime_secs as f64))
            }
            Namespace::Host | Namespace::Server | Namespace::Profile => {
                let Some(def) = super::fact_table::get(r.ns, name) else {
                    return missing("not a fact of that namespace");
                };
                (def.get)(&FactSource {
                    facts,
                    profile: self.input.profile,
                    target: self.target,
                    fact: r,
                })
            }
            Namespace::Let => {
                if let Some(v) = self.lets.get(name) {
                    return v.clone();
                }
                let Some((_, c)) = self
                    .rule
                    .and_then(|rule| rule.lets.iter().find(|(n, _)| n == name))
                else {
                    return missing("no such let");
                };
                let v = expr::eval(&c.expr, self);
                self.lets.insert(name.to_string(), v.clone());
                v
            }
            // The loader expands model entries into the rules that use them.
            Namespace::Model => missing("a model entry the catalog did not expand"),
            Namespace::Rec => match self.recs.get(name) {
                Some(v) => Ok(v.clone()),
                None => missing("not recommended for this profile or target"),
            },
        }
    }

    fn sysctl(&mut self, name: &str) -> Result<Value, EvalError> {
        let fact = format!("sysctl(\"{name}\")");
        match &self.input.facts.host {
            None => Err(EvalError::missing(fact, "no host facts")),
            Some(h) => match h.sysctl.get(name) {
                Some(v) => Ok(Value::text(v.clone(), fact)),
                None if h.sysctl.is_empty() => {
                    Err(EvalError::missing(fact, "no sysctl values collected"))
                }
                None => Err(EvalError::missing(fact, "the kernel does not report it")),
            },
        }
    }

    fn kernel(&mut self, name: &str) -> Result<Value, EvalError> {
        let fact = format!("kernel(\"{name}\")");
        match &self.input.facts.host {
            None => Err(EvalError::missing(fact, "no host facts")),
            Some(h) if h.kernel_counters.is_empty() => Err(EvalError::missing(
                fact,
                "the kernel's counters were not read (a described host, or no /proc)",
            )),
            Some(h) => match h.kernel_counters.get(name) {
                Some(v) => Ok(Value::Num(*v as f64)),
                None => Err(EvalError::missing(fact, "the kernel does not report it")),
            },
        }
    }

    fn default_value(&mut self, name: &str) -> Result<Value, EvalError> {
        let fact = format!("default(\"{name}\")");
        match self.input.defaults.and_then(|d| d.default_of(name)) {
            Some(v) => Ok(Value::text(v, fact)),
            None => Err(EvalError::missing(fact, "no default known for the target")),
        }
    }

    fn sysctl_absent(&mut self, name: &str) -> bool {
        self.input
            .facts
            .host
            .as_ref()
            .is_some_and(|h| !h.sysctl.is_empty() && !h.sysctl.contains_key(name))
    }

    fn engine(&mut self, engine: &str, figure: EngineFigure) -> Result<Value, EvalError> {
        let func = match figure {
            EngineFigure::Tables => "engine_tables",
            EngineFigure::Bytes => "engine_bytes",
        };
        let fact = format!("{func}(\"{engine}\")");
        let Some(server) = &self.input.facts.server else {
            return Err(EvalError::missing(fact, "no server facts"));
        };
        let Some(ds) = &server.data_size else {
            return Err(EvalError::missing(fact, "the data size was not collected"));
        };
        if !ds.complete {
            return Err(EvalError::missing(
                fact,
                "the data size summary is partial (timed out or not every table visible)",
            ));
        }
        let total: u64 = ds
            .engines
            .iter()
            .filter(|(name, _)| engine == "*" || name.eq_ignore_ascii_case(engine))
            .map(|(_, e)| match figure {
                EngineFigure::Tables => e.tables,
                EngineFigure::Bytes => e.data_bytes.saturating_add(e.index_bytes),
            })
            .fold(0u64, u64::saturating_add);
        Ok(Value::Num(total as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::host::{HostFacts, Limit, ProcessLimits};
    use crate::rules::RuleSet;

    fn eval_when(when: &str, host: Option<HostFacts>) -> Evaluation {
        let rule = format!(
            "[[rule]]\ncode = \"MT899\"\nname = \"probe\"\nfamily = \"os\"\nseverity = \"info\"\n\
             when = '{when}'\nmessage = \"m\"\nrationale = \"r\"\n[[rule.sources]]\ntitle = \"t\"\n"
        );
        let set = RuleSet::from_sources(&[("t.toml".into(), rule)], &[]).expect("rule loads");
        let facts = Facts {
            host,
            ..Facts::default()
        };
        set.evaluate(&EvalInput::new(&facts, &Profile::default()))
    }

    /// Every fact of the fact table reads a value of the type its row
    /// declares, or says why it is missing: on a real snapshot (a server
    /// with its account audit) and on no facts at all.
    #[test]
    fn every_fact_reads_a_value_of_its_declared_type_or_says_why_not() {
        use crate::rules::expr::ast::Namespace;
        use crate::rules::expr::value::Type;
        let snapshot = Facts::from_json(include_str!(
            "../../tests/fixtures/snapshots/secos-mariadb-fresh-install-2g.json"
        ))
        .expect("the snapshot reads");
        assert!(
            snapshot
                .server
                .as_ref()
                .is_some_and(|s| s.accounts.is_some())
        );
        let profile = Profile::default();
        let mut read = 0;
        for facts in [snapshot, Facts::default()] {
            let input = EvalInput::new(&facts, &profile);
            let mut scope = FactScope::new(&input, input.effective_target(), None);
            for ns in [Namespace::Host, Namespace::Server, Namespace::Profile] {
                for f in crate::rules::fact_table::table(ns).unwrap() {
                    let r = FactRef {
                        ns,
                        name: f.name.to_string(),
                    };
                    match (scope.fact(&r), f.ty) {
                        (Ok(Value::Num(_)), Type::Num)
                        | (Ok(Value::Str(_)), Type::Str)
                        | (Ok(Value::Bool(_)), Type::Bool)
                        | (Ok(Value::Version(_)), Type::Version) => read += 1,
                        (Err(EvalError::Missing { why, .. }), _) if !why.is_empty() => {}
                        (other, ty) => panic!("{r}: {other:?} for a fact of type {ty:?}"),
                    }
                }
            }
        }
        assert!(read > 30, "{read} facts read");
    }

    /// Other processes holding 262M or 300M (as they move between two runs
    /// a minute apart) leave the same budget: 1G is kept for them on 24G.
    #[test]
    fn the_budget_does_not_move_with_other_processes() {
        let budget = |held: u64| {
            let mut h = HostFacts::default();
            h.memory.effective_bytes = 24 << 30;
            h.other_processes = Some(crate::facts::host::OtherProcesses {
                resident_bytes: held,
                count: 20,
                largest: Vec::new(),
            });
            memory_budget(&h, 1.0)
        };
        assert_eq!(budget(262 << 20), 23 << 30);
        assert_eq!(budget(300 << 20), budget(262 << 20));
        assert_eq!(budget(1500 << 20), 22 << 30);
    }

    fn host(soft: Option<Limit>, hard: Option<Limit>) -> HostFacts {
        HostFacts {
            server_process: Some(ProcessLimits {
                pid: 7,
                name: "mariadbd".into(),
                nofile_soft: soft,
                nofile_hard: hard,
                ..ProcessLimits::default()
            }),
            ..HostFacts::default()
        }
    }

    #[test]
    fn server_nofile_limits() {
        let h = host(Some(Limit::Value(1024)), Some(Limit::UNLIMITED));
        let ev = eval_when(
            "host.server_nofile == 1024 && host.server_nofile_hard > 1000000000",
            Some(h),
        );
        assert_eq!(ev.findings.len(), 1, "{:?}", ev.not_applicable);

        let ev = eval_when("host.server_nofile_hard > 0", Some(host(None, None)));
        assert_eq!(
            ev.not_applicable[0].reason,
            "needs host.server_nofile_hard (the server process limits were not read)"
        );
        let ev = eval_when("host.server_nofile > 0", Some(HostFacts::default()));
        assert_eq!(
            ev.not_applicable[0].reason,
            "needs host.server_nofile (the server process's open-files limit is unknown)"
        );
    }
}
