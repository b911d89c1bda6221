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

mod body;
mod conflicts;
mod model;
mod names;
mod raw;
mod rule;

use conflicts::check_conflicts;
pub use model::ModelEntry;
use model::{Model, load_model};
use raw::{LineIndex, RawFile};
use rule::build_rule;

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
