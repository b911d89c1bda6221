//! The shared `[model]` table: named expressions any rule may use as
//! `model.NAME`, each checked against the entries before it and expanded
//! into the rules that use it.

use super::*;
use super::{names::*, raw::*};

/// One entry of the catalog's shared `[model]` table: a named expression
/// that any rule may use as `model.NAME`, so a model several rules judge
/// by (the memory model) is written once. An entry may use the entries
/// written before it; rules get every entry expanded into their own
/// expressions when the catalog loads.
#[derive(Debug, Clone)]
pub struct ModelEntry {
    pub name: String,
    /// The expression as written.
    pub text: String,
    /// With the model entries it uses expanded.
    pub expr: expr::Expr,
    pub ty: Type,
    /// The entries it uses, directly or through others (in definition order).
    pub uses: Vec<String>,
    pub location: SourceLocation,
}

/// The model entries loaded so far.
#[derive(Debug, Default)]
pub(super) struct Model {
    pub(super) entries: Vec<ModelEntry>,
    pub(super) types: BTreeMap<String, Type>,
}

impl Model {
    pub(super) fn get(&self, name: &str) -> Option<&ModelEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// `e` with every `model.NAME` replaced by the entry's expansion.
    pub(super) fn expand(&self, e: &expr::Expr) -> expr::Expr {
        e.substitute(&|f| {
            (f.ns == Namespace::Model)
                .then(|| self.get(&f.name).map(|m| m.expr.clone()))
                .flatten()
        })
    }

    /// The entries `e` uses, directly or through other entries, in
    /// definition order.
    pub(super) fn used_by<'a>(&self, exprs: impl Iterator<Item = &'a expr::Expr>) -> Vec<String> {
        let mut names = BTreeSet::new();
        for e in exprs {
            e.for_each_fact(&mut |f| {
                if f.ns == Namespace::Model
                    && let Some(m) = self.get(&f.name)
                {
                    names.insert(m.name.clone());
                    names.extend(m.uses.iter().cloned());
                }
            });
        }
        self.entries
            .iter()
            .filter(|m| names.contains(&m.name))
            .map(|m| m.name.clone())
            .collect()
    }
}

/// Add a file's `[model]` entries, in the order they are written: each may
/// use the entries before it (so there are no cycles), and a name is
/// defined once in the whole catalog.
pub(super) fn load_model(
    idx: &LineIndex,
    raw: &RawFile,
    model: &mut Model,
    errors: &mut Vec<RuleError>,
) {
    let mut entries: Vec<(&String, &Spanned<String>)> = raw.model.iter().collect();
    entries.sort_by_key(|(_, text)| text.span().start);
    for (name, text) in entries {
        if let Some(first) = model.get(name) {
            errors.push(idx.err(
                text.span().start,
                format!(
                    "model.{name} is defined twice (first at {})",
                    first.location
                ),
            ));
            continue;
        }
        match model_entry(idx, name, text, model) {
            Ok(entry) => {
                model.types.insert(name.clone(), entry.ty);
                model.entries.push(entry);
            }
            Err(e) => {
                errors.push(e);
                // Uses of a broken entry are not errors of their own.
                model.types.insert(name.clone(), Type::Dyn);
            }
        }
    }
}

/// One `[model]` entry, checked against the entries before it.
pub(super) fn model_entry(
    idx: &LineIndex,
    name: &str,
    text: &Spanned<String>,
    model: &Model,
) -> Result<ModelEntry, RuleError> {
    if canonical_variable(name).as_deref() != Some(name) {
        return Err(idx.err(
            text.span().start,
            format!("'{name}' is not a model name (lowercase letters, digits, '_')"),
        ));
    }
    let env = CheckEnv {
        models: Some(&model.types),
        ..CheckEnv::default()
    };
    let (c, ty) = compile(idx, text, &env)?;
    let uses = model.used_by(std::iter::once(&c.expr));
    let expr = model.expand(&c.expr);
    // The evaluator recurses once per level: the expansion is bounded
    // like any written expression.
    if expr.depth() > expr::MAX_DEPTH {
        return Err(idx.err(
            text.span().start,
            format!(
                "model.{name} expands to {} levels of nesting (more than {} levels): split it",
                expr.depth(),
                expr::MAX_DEPTH
            ),
        ));
    }
    Ok(ModelEntry {
        name: name.to_string(),
        text: c.text,
        expr,
        ty,
        uses,
        location: idx.at(text.span().start),
    })
}
