//! A rule's body: its lets, condition, recommendations, message,
//! rationale and sources, each checked by its own helper so that every
//! mistake is reported, and the model expanded into them.

use super::*;
use super::{model::*, names::*, raw::*, rule::*};

/// The rest of a rule: its expressions (lets, condition, recommendations,
/// message) with the model expanded, its rationale and sources. Returns the
/// rule once its head is known.
pub(super) fn build_body(
    idx: &LineIndex,
    start: usize,
    raw: &RawRule,
    model: &Model,
) -> Result<impl FnOnce(Head) -> Rule, Vec<RuleError>> {
    let Body {
        mut exprs,
        variable,
        format,
        rationale,
        sources,
    } = check_body(idx, raw, model)?;
    let models = exprs.models(model);
    exprs.expand(model);
    let reads_status = exprs.reads_status();
    let name = raw.name.get_ref().clone();
    let origin = idx.at(start);
    Ok(move |h: Head| Rule {
        code: h.code,
        name,
        family: h.family,
        severity: h.severity,
        confidence: h.confidence,
        tags: h.tags,
        applies: h.applies,
        lets: exprs.lets,
        models,
        when: exprs.when,
        variable,
        format,
        recommend: exprs.recommend,
        message: exprs.message,
        rationale,
        sources,
        reads_status,
        origin,
    })
}

/// A rule's body as checked, before the model is expanded.
pub(super) struct Body {
    pub(super) exprs: Exprs,
    pub(super) variable: Option<String>,
    pub(super) format: Option<ValueFormat>,
    pub(super) rationale: String,
    pub(super) sources: Vec<Source>,
}

/// Check each part of a rule's body on its own, so that every mistake is
/// reported, not only the first.
pub(super) fn check_body(
    idx: &LineIndex,
    raw: &RawRule,
    model: &Model,
) -> Result<Body, Vec<RuleError>> {
    let mut errors = Vec::new();
    let (lets, let_types) = lets(idx, raw, model, &mut errors);
    let env = CheckEnv {
        lets: Some(&let_types),
        models: Some(&model.types),
        ..CheckEnv::default()
    };
    let when = keep(condition(idx, &raw.when, "when", &env), &mut errors);
    let recommend = recommendations(idx, raw, &env, &mut errors);
    let shown = shown_variable(idx, raw, &mut errors);
    let message = keep(message(idx, raw, &let_types, model), &mut errors);
    let rationale = keep(rationale(idx, raw), &mut errors);
    let sources = sources(idx, raw, &mut errors);
    match (when, recommend, shown, message, rationale, sources) {
        // The guard is for the lets: a broken one leaves no part missing,
        // only its error.
        (
            Some(when),
            Some(recommend),
            Some((variable, format)),
            Some(message),
            Some(rationale),
            Some(sources),
        ) if errors.is_empty() => Ok(Body {
            exprs: Exprs {
                lets,
                when,
                recommend,
                message,
            },
            variable,
            format,
            rationale,
            sources,
        }),
        _ => Err(errors),
    }
}

/// The value of a check that passed; a mistake goes to `errors`.
pub(super) fn keep<T>(checked: Result<T, RuleError>, errors: &mut Vec<RuleError>) -> Option<T> {
    checked.map_err(|e| errors.push(e)).ok()
}

/// The rule's lets (facts only, no let-to-let references) and the type of
/// each for the expressions that use them.
pub(super) fn lets(
    idx: &LineIndex,
    raw: &RawRule,
    model: &Model,
    errors: &mut Vec<RuleError>,
) -> (Vec<(String, Compiled)>, BTreeMap<String, Type>) {
    let env = CheckEnv {
        models: Some(&model.types),
        ..CheckEnv::default()
    };
    let mut lets = Vec::new();
    let mut types = BTreeMap::new();
    for (name, text) in &raw.lets {
        let named = keep(let_name(idx, name, text), errors);
        match keep(compile(idx, text, &env), errors) {
            Some((c, t)) if named.is_some() => {
                types.insert(name.clone(), t);
                lets.push((name.clone(), c));
            }
            // Every use accepts `Dyn`: a broken let is one error, not one
            // more at each use.
            _ => {
                types.insert(name.clone(), Type::Dyn);
            }
        }
    }
    (lets, types)
}

pub(super) fn let_name(
    idx: &LineIndex,
    name: &str,
    text: &Spanned<String>,
) -> Result<(), RuleError> {
    if canonical_variable(name).as_deref() == Some(name) {
        return Ok(());
    }
    Err(idx.err(
        text.span().start,
        format!("'{name}' is not a let name (lowercase letters, digits, '_')"),
    ))
}

/// An expression that must be a condition: `when`, `offer_if`.
pub(super) fn condition(
    idx: &LineIndex,
    text: &Spanned<String>,
    what: &str,
    env: &CheckEnv,
) -> Result<Compiled, RuleError> {
    let (c, t) = compile(idx, text, env)?;
    if !matches!(t, Type::Bool | Type::Dyn) {
        return Err(idx.err(
            idx.content_start(text.span().start),
            format!(
                "type error: '{what}' must be a condition, found {}",
                t.describe()
            ),
        ));
    }
    Ok(c)
}

/// Every `[[rule.recommend]]`, each checked whatever the others hold.
pub(super) fn recommendations(
    idx: &LineIndex,
    raw: &RawRule,
    env: &CheckEnv,
    errors: &mut Vec<RuleError>,
) -> Option<Vec<Recommend>> {
    let checked: Vec<Option<Recommend>> = raw
        .recommend
        .iter()
        .map(|r| recommendation(idx, r.get_ref(), env, errors))
        .collect();
    checked.into_iter().collect()
}

/// One recommendation, every field checked.
pub(super) fn recommendation(
    idx: &LineIndex,
    r: &RawRecommend,
    env: &CheckEnv,
    errors: &mut Vec<RuleError>,
) -> Option<Recommend> {
    let variable = keep(setting(idx, &r.variable), errors);
    let value = keep(recommended_value(idx, &r.value, env), errors);
    let format = keep(
        r.format.as_ref().map(|f| parse_field(idx, f)).transpose(),
        errors,
    );
    let profile = match &r.profile {
        Some(p) => profile_scope(idx, p, errors),
        None => Some(ProfileScope::default()),
    };
    let offer_if = r
        .offer_if
        .as_ref()
        .map(|text| condition(idx, text, "offer_if", env));
    let offer_if = keep(offer_if.transpose(), errors);
    let withheld = keep(withheld(idx, r, env), errors);
    Some(Recommend {
        variable: variable?,
        value: value?,
        profile: profile?,
        format: format?.unwrap_or_default(),
        offer_if: offer_if?,
        withheld: withheld?,
        location: idx.at(r.variable.span().start),
    })
}

/// A recommended or shown setting name, canonical.
pub(super) fn setting(idx: &LineIndex, s: &Spanned<String>) -> Result<String, RuleError> {
    canonical_setting(s.get_ref()).map_err(|e| idx.err(s.span().start, e))
}

pub(super) fn recommended_value(
    idx: &LineIndex,
    text: &Spanned<String>,
    env: &CheckEnv,
) -> Result<Compiled, RuleError> {
    let (value, t) = compile(idx, text, env)?;
    if t == Type::Version {
        return Err(idx.err(
            idx.content_start(text.span().start),
            "type error: a recommended value cannot be a version",
        ));
    }
    Ok(value)
}

/// The profiles a recommendation is scoped to, every key checked.
pub(super) fn profile_scope(
    idx: &LineIndex,
    table: &Spanned<BTreeMap<String, Spanned<String>>>,
    errors: &mut Vec<RuleError>,
) -> Option<ProfileScope> {
    let mut profile = ProfileScope::default();
    let mut sound = true;
    for (key, val) in table.get_ref() {
        let (slot, checked) = match key.as_str() {
            "durability" => (
                &mut profile.durability,
                parse_field::<Durability>(idx, val).map(drop),
            ),
            "workload" => (
                &mut profile.workload,
                parse_field::<Workload>(idx, val).map(drop),
            ),
            "observability" => (
                &mut profile.observability,
                parse_field::<Observability>(idx, val).map(drop),
            ),
            other => {
                errors.push(idx.err(
                    table.span().start,
                    format!(
                        "unknown profile key '{other}' (a recommendation can be scoped to durability, workload or observability)"
                    ),
                ));
                sound = false;
                continue;
            }
        };
        match keep(checked, errors) {
            Some(()) => *slot = Some(val.get_ref().to_ascii_lowercase()),
            None => sound = false,
        }
    }
    sound.then_some(profile)
}

/// A recommendation's `withheld` template, which comes with an `offer_if`
/// and only with one.
pub(super) fn withheld(
    idx: &LineIndex,
    r: &RawRecommend,
    env: &CheckEnv,
) -> Result<Option<Template>, RuleError> {
    match (&r.withheld, &r.offer_if) {
        // A withheld value has no `rec.` of its own; the template says
        // why it is not offered.
        (Some(text), Some(_)) => Template::compile(text.get_ref(), env)
            .map(Some)
            .map_err(|e| idx.expr_err(text, e)),
        (Some(text), None) => Err(idx.err(
            text.span().start,
            "`withheld` says why a value is not offered; it needs an `offer_if`",
        )),
        (None, Some(_)) => Err(idx.err(
            r.variable.span().start,
            "a recommendation with `offer_if` needs `withheld`: why the value is not offered and what to do first",
        )),
        (None, None) => Ok(None),
    }
}

/// The rule's own `variable` (for a rule that recommends nothing) and its
/// `format`.
pub(super) fn shown_variable(
    idx: &LineIndex,
    raw: &RawRule,
    errors: &mut Vec<RuleError>,
) -> Option<(Option<String>, Option<ValueFormat>)> {
    let variable = keep(
        raw.variable.as_ref().map(|v| setting(idx, v)).transpose(),
        errors,
    );
    let format = match &raw.format {
        Some(f) if raw.variable.is_none() => Err(idx.err(
            f.span().start,
            "`format` says how the rule's `variable` is shown; this rule names no variable",
        )),
        Some(f) => parse_field(idx, f).map(Some),
        None => Ok(None),
    };
    let format = keep(format, errors);
    Some((variable?, format?))
}

/// The message template: it may use the lets and `rec.` of each
/// recommended variable.
pub(super) fn message(
    idx: &LineIndex,
    raw: &RawRule,
    let_types: &BTreeMap<String, Type>,
    model: &Model,
) -> Result<Template, RuleError> {
    let mut recs = BTreeSet::new();
    let mut any_rec = false;
    for r in &raw.recommend {
        match canonical_setting(r.get_ref().variable.get_ref()) {
            Ok(name) => {
                recs.insert(name);
            }
            // That variable's error is reported with its recommendation;
            // the message may name it in any spelling.
            Err(_) => any_rec = true,
        }
    }
    let env = CheckEnv {
        lets: Some(let_types),
        recs: Some(&recs),
        any_rec,
        models: Some(&model.types),
    };
    Template::compile(raw.message.get_ref(), &env).map_err(|e| idx.expr_err(&raw.message, e))
}

pub(super) fn rationale(idx: &LineIndex, raw: &RawRule) -> Result<String, RuleError> {
    let text = raw.rationale.get_ref().trim();
    if text.is_empty() {
        return Err(idx.err(raw.rationale.span().start, "the rationale is empty"));
    }
    Ok(text.to_string())
}

/// The rule's sources: at least one, each checked.
pub(super) fn sources(
    idx: &LineIndex,
    raw: &RawRule,
    errors: &mut Vec<RuleError>,
) -> Option<Vec<Source>> {
    if raw.sources.is_empty() {
        errors.push(idx.err(
            raw.code.span().start,
            format!(
                "rule {} has no sources (add an article section or a manual page)",
                raw.code.get_ref()
            ),
        ));
        return None;
    }
    let checked: Vec<Option<Source>> = raw
        .sources
        .iter()
        .map(|s| keep(source(idx, s), errors))
        .collect();
    checked.into_iter().collect()
}

pub(super) fn source(idx: &LineIndex, s: &Spanned<RawSource>) -> Result<Source, RuleError> {
    let r = s.get_ref();
    match &r.article {
        Some(_) if r.title.is_some() || r.url.is_some() => Err(idx.err(
            s.span().start,
            "an article source takes its title and url from the article registry; give only `article` and `section`",
        )),
        Some(key) => Source::article(key.get_ref(), r.section.clone()).ok_or_else(|| {
            idx.err(
                key.span().start,
                format!(
                    "unknown article `{}`; known articles: {}",
                    key.get_ref(),
                    articles::keys().join(", ")
                ),
            )
        }),
        None if r.title.is_none() && r.url.is_none() => Err(idx.err(
            s.span().start,
            "a source needs an article, a title or a url",
        )),
        None => Ok(Source {
            article: None,
            title: r.title.clone(),
            section: r.section.clone(),
            url: r.url.clone(),
        }),
    }
}

/// A checked rule's expressions, before and after the model is expanded
/// into them.
pub(super) struct Exprs {
    pub(super) lets: Vec<(String, Compiled)>,
    pub(super) when: Compiled,
    pub(super) recommend: Vec<Recommend>,
    pub(super) message: Template,
}

/// A recommendation's expressions: value, `offer_if`, `withheld`.
pub(super) fn recommend_exprs(r: &Recommend) -> impl Iterator<Item = &expr::Expr> {
    std::iter::once(&r.value.expr)
        .chain(r.offer_if.iter().map(|c| &c.expr))
        .chain(r.withheld.iter().flat_map(|t| t.exprs()))
}

impl Exprs {
    /// Every expression: condition, lets, values, `offer_if`, `withheld`,
    /// message.
    pub(super) fn all(&self) -> impl Iterator<Item = &expr::Expr> {
        std::iter::once(&self.when.expr)
            .chain(self.lets.iter().map(|(_, c)| &c.expr))
            .chain(self.recommend.iter().flat_map(recommend_exprs))
            .chain(self.message.exprs())
    }

    /// The model entries the rule uses, as (name, text as written).
    pub(super) fn models(&self, model: &Model) -> Vec<(String, String)> {
        model
            .used_by(self.all())
            .into_iter()
            .filter_map(|n| model.get(&n).map(|m| (m.name.clone(), m.text.clone())))
            .collect()
    }

    /// Expand the model: evaluation, conflict checks and `Rule::reads` see
    /// plain facts.
    pub(super) fn expand(&mut self, model: &Model) {
        let expand = |e: &expr::Expr| model.expand(e);
        self.when.expr = expand(&self.when.expr);
        for (_, c) in &mut self.lets {
            c.expr = expand(&c.expr);
        }
        for r in &mut self.recommend {
            r.value.expr = expand(&r.value.expr);
            if let Some(c) = &mut r.offer_if {
                c.expr = expand(&c.expr);
            }
            if let Some(t) = &mut r.withheld {
                t.map_exprs(&expand);
            }
        }
        self.message.map_exprs(&expand);
    }

    /// Whether the verdict rests on status counters (a short uptime lowers
    /// its confidence): the condition, lets and values. A message that only
    /// mentions a counter (MT301 says the peak seen so far) does not.
    pub(super) fn reads_status(&self) -> bool {
        let mut reads = false;
        let mut note = |f: &expr::FactRef| {
            reads |= matches!(f.ns, Namespace::Status | Namespace::Rate);
        };
        std::iter::once(&self.when.expr)
            .chain(self.lets.iter().map(|(_, c)| &c.expr))
            .chain(self.recommend.iter().flat_map(recommend_exprs))
            .for_each(|e| e.for_each_fact(&mut note));
        reads
    }
}
