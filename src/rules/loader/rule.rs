//! A rule's head (code, family, name; severity, confidence, tags; the
//! versions it applies to), each part checked on its own, and the rule
//! built from its head and body.

use super::*;
use super::{body::*, model::*, names::*, raw::*};

/// A rule's head: who it is and how it is labelled, each part checked on
/// its own so a rule with several mistakes reports each.
pub(super) struct Head {
    pub(super) code: Code,
    pub(super) family: Family,
    pub(super) severity: Severity,
    pub(super) confidence: Confidence,
    pub(super) tags: Vec<String>,
    pub(super) applies: Applies,
}

/// The code, family and name of a rule, consistent with each other and,
/// for a built-in rule, with its file.
pub(super) fn identity(
    idx: &LineIndex,
    raw: &RawRule,
    file_family: Option<Family>,
    builtin: bool,
) -> Result<(Code, Family), RuleError> {
    // As written (MT, not mt), and not a built-in check's MT0xx.
    let written = raw.code.get_ref();
    let Some(code) = Code::parse(written)
        .ok()
        .filter(|c| c == written && c.digit() != 0)
    else {
        return Err(idx.err(
            raw.code.span().start,
            format!(
                "'{written}' is not a rule code (expected MT followed by three digits, e.g. MT101)"
            ),
        ));
    };
    let family: Family = parse_field(idx, &raw.family)?;
    let digit = code.digit();
    if digit != family.code_digit() {
        return Err(idx.err(
            raw.code.span().start,
            format!(
                "code {code} is outside the {family} range (MT{}xx)",
                family.code_digit()
            ),
        ));
    }
    if builtin
        && let Some(ff) = file_family
        && ff != family
    {
        return Err(idx.err(
            raw.family.span().start,
            format!(
                "family '{family}' in the {ff} file (one file per family: rules/{family}.toml)"
            ),
        ));
    }
    if !is_kebab(raw.name.get_ref()) {
        return Err(idx.err(
            raw.name.span().start,
            format!(
                "'{}' is not a kebab-case name (e.g. innodb-buffer-pool-too-small)",
                raw.name.get_ref()
            ),
        ));
    }
    Ok((code, family))
}

/// Severity, confidence and tags.
pub(super) fn labels(
    idx: &LineIndex,
    raw: &RawRule,
) -> Result<(Severity, Confidence, Vec<String>), RuleError> {
    let severity: Severity = parse_field(idx, &raw.severity)?;
    let confidence: Confidence = match &raw.confidence {
        Some(c) => parse_field(idx, c)?,
        None => Confidence::High,
    };
    let mut tags = Vec::new();
    for t in &raw.tags {
        if !is_kebab(t.get_ref()) {
            return Err(idx.err(
                t.span().start,
                format!("'{}' is not a kebab-case tag", t.get_ref()),
            ));
        }
        tags.push(t.get_ref().clone());
    }
    Ok((severity, confidence, tags))
}

/// Which flavors and versions the rule applies to.
pub(super) fn applies(idx: &LineIndex, raw: &RawRule) -> Result<Applies, RuleError> {
    Ok(match &raw.applies {
        None => Applies::default(),
        Some(table) => {
            let mut a = Applies::none();
            for (name, range) in table.get_ref() {
                let r: VersionRange = parse_field(idx, range)?;
                match Flavor::bases().find(|f| f.as_str() == name) {
                    Some(flavor) => a = a.with(flavor, r),
                    None => {
                        let names: Vec<&str> = Flavor::bases().map(Flavor::as_str).collect();
                        return Err(idx.err(
                            table.span().start,
                            format!(
                                "unknown flavor '{name}' in applies (expected one of {})",
                                names.join(", ")
                            ),
                        ));
                    }
                }
            }
            if a.is_empty() {
                return Err(idx.err(table.span().start, "applies names no flavor"));
            }
            a
        }
    })
}

/// Build a rule, reporting every mistake of its head (identity, labels,
/// applies) and of its body (lets, condition, recommendations, message,
/// rationale, sources), not only the first of all.
pub(super) fn build_rule(
    idx: &LineIndex,
    start: usize,
    raw: &RawRule,
    file_family: Option<Family>,
    builtin: bool,
    model: &Model,
) -> Result<Rule, Vec<RuleError>> {
    let mut errors = Vec::new();
    let identity = identity(idx, raw, file_family, builtin).map_err(|e| errors.push(e));
    let labels = labels(idx, raw).map_err(|e| errors.push(e));
    let applies = applies(idx, raw).map_err(|e| errors.push(e));
    let body = build_body(idx, start, raw, model).map_err(|e| errors.extend(e));
    match (identity, labels, applies, body) {
        (Ok((code, family)), Ok((severity, confidence, tags)), Ok(applies), Ok(body)) => {
            Ok(body(Head {
                code,
                family,
                severity,
                confidence,
                tags,
                applies,
            }))
        }
        _ => Err(errors),
    }
}
