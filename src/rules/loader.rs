//! Loading rule files: TOML → checked [`Rule`]s, with every mistake reported
//! as one [`RuleError`] naming file:line:col.
//!
//! Sources are the built-in catalog and, optionally, a user directory
//! (`--rules DIR`, every `*.toml` in name order). A code may appear once per
//! source; a user rule replaces the built-in rule with the same code. The
//! merged set must not recommend two different values for one variable
//! under a profile both could match.

use crate::rules::Code;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::articles;
use super::builtin::BUILTIN_RULE_FILES;
use super::expr::{self, CheckEnv, ExprError, Namespace, Type};
use super::profile::{Durability, Observability, Workload};
use super::schema::{
    Applies, Compiled, Confidence, Family, HOST_SETTINGS, LIMIT_ITEMS, ProfileScope, Recommend,
    Rule, Severity, Source, ValueFormat, VersionRange,
};
use super::template::Template;
use crate::facts::SourceLocation;
use crate::target::Flavor;

/// A broken rule file: where, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct RuleError {
    pub location: SourceLocation,
    pub message: String,
}

impl fmt::Display for RuleError {
    /// `file:line:col: message` (`file: message` when there is no line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.location.line == 0 {
            write!(f, "{}: {}", self.location.file.display(), self.message)
        } else {
            write!(f, "{}: {}", self.location, self.message)
        }
    }
}

/// Every error of a rule catalog, in file order: a file that does not
/// parse, each broken rule, each clash between rules. A user fixing rule
/// files sees them all at once instead of one per run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct RuleErrors(pub Vec<RuleError>);

impl fmt::Display for RuleErrors {
    /// One error a line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl From<RuleError> for RuleErrors {
    fn from(e: RuleError) -> Self {
        RuleErrors(vec![e])
    }
}

/// The loaded catalog: rules in code order.
#[derive(Debug, Clone)]
pub struct RuleSet {
    rules: Vec<Rule>,
    model: Vec<ModelEntry>,
    /// Each rule's [`Rule::read_settings`], in rule order: listed once when
    /// the catalog loads, not on every check of a fleet.
    reads: Vec<BTreeSet<String>>,
}

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
struct Model {
    entries: Vec<ModelEntry>,
    types: BTreeMap<String, Type>,
}

impl Model {
    fn get(&self, name: &str) -> Option<&ModelEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// `e` with every `model.NAME` replaced by the entry's expansion.
    fn expand(&self, e: &expr::Expr) -> expr::Expr {
        e.substitute(&|f| {
            (f.ns == Namespace::Model)
                .then(|| self.get(&f.name).map(|m| m.expr.clone()))
                .flatten()
        })
    }

    /// The entries `e` uses, directly or through other entries, in
    /// definition order.
    fn used_by<'a>(&self, exprs: impl Iterator<Item = &'a expr::Expr>) -> Vec<String> {
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

impl RuleSet {
    /// The built-in catalog only.
    pub fn builtin() -> Result<RuleSet, RuleErrors> {
        RuleSet::load(None)
    }

    /// The built-in catalog plus the `*.toml` files of `user_dir`.
    pub fn load(user_dir: Option<&Path>) -> Result<RuleSet, RuleErrors> {
        let user = match user_dir {
            Some(dir) => read_dir(dir)?,
            None => Vec::new(),
        };
        let builtin: Vec<(PathBuf, String)> = BUILTIN_RULE_FILES
            .iter()
            .map(|(p, t)| (PathBuf::from(p), t.to_string()))
            .collect();
        RuleSet::from_sources(&builtin, &user)
    }

    /// Load from texts: `builtin` files must be named after their family
    /// (`innodb.toml`); `user` files override built-in rules by code.
    pub fn from_sources(
        builtin: &[(PathBuf, String)],
        user: &[(PathBuf, String)],
    ) -> Result<RuleSet, RuleErrors> {
        let mut errors = Vec::new();
        let builtin = parse_files(builtin, &mut errors);
        let user = parse_files(user, &mut errors);
        let mut model = Model::default();
        for (idx, raw) in builtin.iter().chain(user.iter()) {
            load_model(idx, raw, &mut model, &mut errors);
        }
        let base = load_source(&builtin, true, &model, &mut errors);
        let extra = load_source(&user, false, &model, &mut errors);
        let mut by_code: BTreeMap<Code, Rule> =
            base.into_iter().map(|r| (r.code.clone(), r)).collect();
        for r in extra {
            by_code.insert(r.code.clone(), r);
        }
        let rules: Vec<Rule> = by_code.into_values().collect();
        check_names(&rules, &mut errors);
        check_conflicts(&rules, &mut errors);
        if !errors.is_empty() {
            return Err(RuleErrors(errors));
        }
        let reads = rules.iter().map(Rule::read_settings).collect();
        Ok(RuleSet {
            rules,
            model: model.entries,
            reads,
        })
    }

    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// What each rule reads ([`Rule::read_settings`]), in the order of
    /// [`RuleSet::rules`].
    pub fn read_settings(&self) -> &[BTreeSet<String>] {
        &self.reads
    }

    /// The shared model entries, in definition order.
    pub fn model(&self) -> &[ModelEntry] {
        &self.model
    }

    /// A rule by code (`MT101`, any case) or name.
    pub fn get(&self, key: &str) -> Option<&Rule> {
        self.rules
            .iter()
            .find(|r| r.code.eq_ignore_ascii_case(key) || r.name == key)
    }
}

fn read_dir(dir: &Path) -> Result<Vec<(PathBuf, String)>, RuleError> {
    let io = |p: &Path, e: std::io::Error| RuleError {
        location: SourceLocation {
            file: p.to_path_buf(),
            line: 0,
            column: 0,
        },
        message: format!("cannot read rules: {e}"),
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            // Regular files of sane size only; a non-UTF-8 byte is an error
            // at its line and column.
            let text = crate::input::read_text(&p).map_err(|e| input_error(&p, e))?;
            Ok((p, text))
        })
        .collect()
}

/// An unreadable rule file as a [`RuleError`], positioned when it can be.
fn input_error(p: &Path, e: crate::input::InputError) -> RuleError {
    use crate::input::InputError;
    let (line, column) = match &e {
        InputError::NotUtf8 { line, column, .. } => (*line, *column),
        _ => (0, 0),
    };
    let message = match &e {
        InputError::NotUtf8 { .. } => {
            "bytes that are not UTF-8; rule files are UTF-8 text".to_string()
        }
        InputError::Io { cause, .. } => format!("cannot read rules: {cause}"),
        other => {
            let full = other.to_string();
            let prefix = format!("{}: ", p.display());
            full.strip_prefix(&prefix).unwrap_or(&full).to_string()
        }
    };
    RuleError {
        location: SourceLocation {
            file: p.to_path_buf(),
            line,
            column,
        },
        message,
    }
}

/// Byte offset → 1-based line and column (in characters).
struct LineIndex<'a> {
    file: &'a Path,
    text: &'a str,
}

impl LineIndex<'_> {
    fn at(&self, offset: usize) -> SourceLocation {
        let mut offset = offset.min(self.text.len());
        // Escapes in a TOML string can shift an expression offset off a
        // character boundary; step back to one.
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line = before.matches('\n').count() as u32 + 1;
        let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let column = before[line_start..].chars().count() as u32 + 1;
        SourceLocation {
            file: self.file.to_path_buf(),
            line,
            column,
        }
    }

    fn err(&self, offset: usize, message: impl Into<String>) -> RuleError {
        RuleError {
            location: self.at(offset),
            message: message.into(),
        }
    }

    /// Where the content of the TOML string whose token starts at `start`
    /// begins (after the quotes, and after the newline that opens a
    /// multi-line string).
    fn content_start(&self, start: usize) -> usize {
        let rest = &self.text[start.min(self.text.len())..];
        if rest.starts_with("\"\"\"") || rest.starts_with("'''") {
            let after = &rest[3..];
            if after.starts_with("\r\n") {
                start + 5
            } else if after.starts_with('\n') {
                start + 4
            } else {
                start + 3
            }
        } else if rest.starts_with('"') || rest.starts_with('\'') {
            start + 1
        } else {
            start
        }
    }

    /// An error inside an expression string: exact when the string has no
    /// escapes.
    fn expr_err(&self, s: &Spanned<String>, e: ExprError) -> RuleError {
        self.err(self.content_start(s.span().start) + e.span.start, e.message)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    /// The shared model (`[model]`): `NAME = "expression"`.
    #[serde(default)]
    model: BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    rule: Vec<Spanned<RawRule>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    code: Spanned<String>,
    name: Spanned<String>,
    family: Spanned<String>,
    severity: Spanned<String>,
    #[serde(default)]
    confidence: Option<Spanned<String>>,
    #[serde(default)]
    tags: Vec<Spanned<String>>,
    #[serde(default)]
    applies: Option<Spanned<BTreeMap<String, Spanned<String>>>>,
    #[serde(default, rename = "let")]
    lets: BTreeMap<String, Spanned<String>>,
    when: Spanned<String>,
    #[serde(default)]
    variable: Option<Spanned<String>>,
    #[serde(default)]
    format: Option<Spanned<String>>,
    #[serde(default)]
    recommend: Vec<Spanned<RawRecommend>>,
    message: Spanned<String>,
    rationale: Spanned<String>,
    #[serde(default)]
    sources: Vec<Spanned<RawSource>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecommend {
    variable: Spanned<String>,
    value: Spanned<String>,
    #[serde(default)]
    profile: Option<Spanned<BTreeMap<String, Spanned<String>>>>,
    #[serde(default)]
    format: Option<Spanned<String>>,
    #[serde(default)]
    offer_if: Option<Spanned<String>>,
    #[serde(default)]
    withheld: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSource {
    article: Option<Spanned<String>>,
    section: Option<String>,
    title: Option<String>,
    url: Option<String>,
}

/// Parse every file of one source.
/// The files that parse as rule files; an error for each that does not.
fn parse_files<'a>(
    files: &'a [(PathBuf, String)],
    errors: &mut Vec<RuleError>,
) -> Vec<(LineIndex<'a>, RawFile)> {
    let mut out = Vec::new();
    for (path, text) in files {
        let idx = LineIndex { file: path, text };
        match toml::from_str::<RawFile>(text) {
            Ok(raw) => out.push((idx, raw)),
            Err(e) => {
                let offset = e.span().map(|s| s.start).unwrap_or(0);
                errors.push(idx.err(offset, format!("invalid TOML: {}", e.message().trim())));
            }
        }
    }
    out
}

/// Add a file's `[model]` entries, in the order they are written: each may
/// use the entries before it (so there are no cycles), and a name is
/// defined once in the whole catalog.
fn load_model(idx: &LineIndex, raw: &RawFile, model: &mut Model, errors: &mut Vec<RuleError>) {
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
fn model_entry(
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

/// Load every file of one source; codes must be unique within it.
fn load_source(
    files: &[(LineIndex, RawFile)],
    builtin: bool,
    model: &Model,
    errors: &mut Vec<RuleError>,
) -> Vec<Rule> {
    let mut seen: HashMap<String, SourceLocation> = HashMap::new();
    let mut out = Vec::new();
    for (idx, raw) in files {
        let path = idx.file;
        let file_family = if builtin {
            path.file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse::<Family>().ok())
        } else {
            None
        };
        for spanned in &raw.rule {
            let start = spanned.span().start;
            let raw = spanned.get_ref();
            let code_loc = idx.at(raw.code.span().start);
            if let Some(first) = seen.get(raw.code.get_ref()) {
                errors.push(RuleError {
                    location: code_loc,
                    message: format!(
                        "duplicate code {} (already used at {first})",
                        raw.code.get_ref()
                    ),
                });
                continue;
            }
            seen.insert(raw.code.get_ref().clone(), code_loc);
            match build_rule(idx, start, raw, file_family, builtin, model) {
                Ok(rule) => out.push(rule),
                Err(e) => errors.extend(e),
            }
        }
    }
    out
}

fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// `Innodb-Buffer-Pool` → `innodb_buffer_pool`, or `None` if not a name.
pub fn canonical_variable(s: &str) -> Option<String> {
    let c = s.trim().to_ascii_lowercase().replace('-', "_");
    (!c.is_empty()
        && c.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'))
    .then_some(c)
}

/// A recommended name: a server variable ([`canonical_variable`]) or a
/// namespaced host setting (`sysctl:net.core.somaxconn`, `limit:nofile`,
/// `host:thp`; see [`super::schema::Setting`]). Sysctl keys keep their dots
/// and dashes (`fs.file-max`) and are lowercased.
pub fn canonical_setting(s: &str) -> Result<String, String> {
    let s = s.trim();
    let Some((ns, key)) = s.split_once(':') else {
        return canonical_variable(s).ok_or_else(|| format!("'{s}' is not a variable name"));
    };
    let key = key.trim().to_ascii_lowercase();
    match ns.trim() {
        "sysctl" => {
            let ok = key.contains('.')
                && !key.starts_with('.')
                && !key.ends_with('.')
                && key
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b));
            if ok {
                Ok(format!("sysctl:{key}"))
            } else {
                Err(format!(
                    "'{key}' is not a sysctl key (expected a dotted name such as net.core.somaxconn)"
                ))
            }
        }
        "limit" if LIMIT_ITEMS.contains(&key.as_str()) => Ok(format!("limit:{key}")),
        "limit" => Err(format!(
            "unknown limit '{key}' (expected {})",
            LIMIT_ITEMS.join(", ")
        )),
        "host" if HOST_SETTINGS.contains(&key.as_str()) => Ok(format!("host:{key}")),
        "host" => Err(format!(
            "unknown host setting '{key}' (expected {})",
            HOST_SETTINGS.join(", ")
        )),
        other => Err(format!(
            "unknown setting namespace '{other}:' (expected a server variable, sysctl:KEY, limit:ITEM or host:NAME)"
        )),
    }
}

fn parse_field<T: std::str::FromStr<Err = String>>(
    idx: &LineIndex,
    s: &Spanned<String>,
) -> Result<T, RuleError> {
    s.get_ref()
        .parse()
        .map_err(|e: String| idx.err(s.span().start, e))
}

fn compile(
    idx: &LineIndex,
    s: &Spanned<String>,
    env: &CheckEnv,
) -> Result<(Compiled, Type), RuleError> {
    let (e, t) = expr::compile(s.get_ref(), env).map_err(|e| idx.expr_err(s, e))?;
    Ok((
        Compiled {
            text: s.get_ref().trim().to_string(),
            expr: e,
        },
        t,
    ))
}

/// A rule's head: who it is and how it is labelled, each part checked on
/// its own so a rule with several mistakes reports each.
struct Head {
    code: Code,
    family: Family,
    severity: Severity,
    confidence: Confidence,
    tags: Vec<String>,
    applies: Applies,
}

/// The code, family and name of a rule, consistent with each other and,
/// for a built-in rule, with its file.
fn identity(
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
fn labels(
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
fn applies(idx: &LineIndex, raw: &RawRule) -> Result<Applies, RuleError> {
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
fn build_rule(
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

/// The rest of a rule: its expressions (lets, condition, recommendations,
/// message) with the model expanded, its rationale and sources. Returns the
/// rule once its head is known.
fn build_body(
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
struct Body {
    exprs: Exprs,
    variable: Option<String>,
    format: Option<ValueFormat>,
    rationale: String,
    sources: Vec<Source>,
}

/// Check each part of a rule's body on its own, so that every mistake is
/// reported, not only the first.
fn check_body(idx: &LineIndex, raw: &RawRule, model: &Model) -> Result<Body, Vec<RuleError>> {
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
fn keep<T>(checked: Result<T, RuleError>, errors: &mut Vec<RuleError>) -> Option<T> {
    checked.map_err(|e| errors.push(e)).ok()
}

/// The rule's lets (facts only, no let-to-let references) and the type of
/// each for the expressions that use them.
fn lets(
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

fn let_name(idx: &LineIndex, name: &str, text: &Spanned<String>) -> Result<(), RuleError> {
    if canonical_variable(name).as_deref() == Some(name) {
        return Ok(());
    }
    Err(idx.err(
        text.span().start,
        format!("'{name}' is not a let name (lowercase letters, digits, '_')"),
    ))
}

/// An expression that must be a condition: `when`, `offer_if`.
fn condition(
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
fn recommendations(
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
fn recommendation(
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
fn setting(idx: &LineIndex, s: &Spanned<String>) -> Result<String, RuleError> {
    canonical_setting(s.get_ref()).map_err(|e| idx.err(s.span().start, e))
}

fn recommended_value(
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
fn profile_scope(
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
fn withheld(
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
fn shown_variable(
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
fn message(
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

fn rationale(idx: &LineIndex, raw: &RawRule) -> Result<String, RuleError> {
    let text = raw.rationale.get_ref().trim();
    if text.is_empty() {
        return Err(idx.err(raw.rationale.span().start, "the rationale is empty"));
    }
    Ok(text.to_string())
}

/// The rule's sources: at least one, each checked.
fn sources(idx: &LineIndex, raw: &RawRule, errors: &mut Vec<RuleError>) -> Option<Vec<Source>> {
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

fn source(idx: &LineIndex, s: &Spanned<RawSource>) -> Result<Source, RuleError> {
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
struct Exprs {
    lets: Vec<(String, Compiled)>,
    when: Compiled,
    recommend: Vec<Recommend>,
    message: Template,
}

/// A recommendation's expressions: value, `offer_if`, `withheld`.
fn recommend_exprs(r: &Recommend) -> impl Iterator<Item = &expr::Expr> {
    std::iter::once(&r.value.expr)
        .chain(r.offer_if.iter().map(|c| &c.expr))
        .chain(r.withheld.iter().flat_map(|t| t.exprs()))
}

impl Exprs {
    /// Every expression: condition, lets, values, `offer_if`, `withheld`,
    /// message.
    fn all(&self) -> impl Iterator<Item = &expr::Expr> {
        std::iter::once(&self.when.expr)
            .chain(self.lets.iter().map(|(_, c)| &c.expr))
            .chain(self.recommend.iter().flat_map(recommend_exprs))
            .chain(self.message.exprs())
    }

    /// The model entries the rule uses, as (name, text as written).
    fn models(&self, model: &Model) -> Vec<(String, String)> {
        model
            .used_by(self.all())
            .into_iter()
            .filter_map(|n| model.get(&n).map(|m| (m.name.clone(), m.text.clone())))
            .collect()
    }

    /// Expand the model: evaluation, conflict checks and `Rule::reads` see
    /// plain facts.
    fn expand(&mut self, model: &Model) {
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
    fn reads_status(&self) -> bool {
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

fn check_names(rules: &[Rule], errors: &mut Vec<RuleError>) {
    let mut seen: HashMap<&str, &Rule> = HashMap::new();
    for r in rules {
        if let Some(first) = seen.insert(r.name.as_str(), r) {
            errors.push(RuleError {
                location: r.origin.clone(),
                message: format!(
                    "rule {} reuses the name '{}' of {} ({})",
                    r.code, r.name, first.code, first.origin
                ),
            });
        }
    }
}

/// No two recommendations for one variable may disagree under a profile
/// both could match, for a target both apply to. Inside one rule a more
/// specific profile scope may refine a broader one.
fn check_conflicts(rules: &[Rule], errors: &mut Vec<RuleError>) {
    let mut by_var: BTreeMap<&str, Vec<(&Rule, &Recommend)>> = BTreeMap::new();
    for rule in rules {
        for rec in &rule.recommend {
            by_var.entry(&rec.variable).or_default().push((rule, rec));
        }
    }
    for (var, entries) in by_var {
        for (i, (ra, a)) in entries.iter().enumerate() {
            for (rb, b) in &entries[i + 1..] {
                if !a.profile.compatible(&b.profile) {
                    continue;
                }
                let same_rule = ra.code == rb.code;
                if !same_rule && !ra.applies.overlaps(&rb.applies) {
                    continue;
                }
                let same_value = canonical(ra, &a.value.expr) == canonical(rb, &b.value.expr)
                    && a.format == b.format;
                if same_rule {
                    if a.profile == b.profile {
                        errors.push(RuleError {
                            location: b.location.clone(),
                            message: format!(
                                "rule {} recommends {var} twice for {} (first at {})",
                                rb.code, b.profile, a.location
                            ),
                        });
                        continue;
                    }
                    if same_value
                        || a.profile.strictly_within(&b.profile)
                        || b.profile.strictly_within(&a.profile)
                    {
                        continue;
                    }
                } else if same_value {
                    continue;
                }
                errors.push(RuleError {
                    location: b.location.clone(),
                    message: format!(
                        "conflicting recommendations for {var}: {} recommends `{}` ({}) and {} recommends `{}` ({}) where both apply ({} / {})",
                        ra.code,
                        a.value.text,
                        a.location,
                        rb.code,
                        b.value.text,
                        b.location,
                        a.profile,
                        b.profile
                    ),
                });
            }
        }
    }
}

/// The canonical text of a recommended value with the rule's lets expanded,
/// so two rules compare by what they compute, not by their let names.
fn canonical(rule: &Rule, e: &expr::Expr) -> String {
    e.substitute(&|f| {
        if f.ns != Namespace::Let {
            return None;
        }
        rule.lets
            .iter()
            .find(|(n, _)| *n == f.name)
            .map(|(_, c)| c.expr.clone())
    })
    .to_string()
}
