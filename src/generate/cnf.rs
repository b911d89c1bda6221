//! `gen-cnf`: the plan's server variables as one commented option file.
//!
//! Every option line has a comment above it naming the rule that decided it
//! and why, and what the value was before (the default, or the live
//! server's). Values are checked against the target's catalog before they
//! are written: a name the target does not have, or a value it would refuse
//! or silently change, is an error naming the rule, never a file that does
//! not start. The file is written through [`Document`], so with a base file
//! (`--base`) the user's own lines and comments stay as they were.

use super::plan::{Plan, Setting};
use super::{GenError, wrap};
use crate::catalog::{Catalog, VarKind};
use crate::cnf::Document;
use crate::target::{Flavor, Target};
use crate::units;

/// Comment lines are wrapped to this width (plus `# `).
const COMMENT_WIDTH: usize = 96;

/// The option group a generated file uses: `[mariadb]` is read only by
/// MariaDB servers (a MySQL server sharing the file ignores it), `[mysqld]`
/// by MySQL and Percona Server.
pub fn group_for(target: &Target) -> &'static str {
    match target.flavor {
        Flavor::Mariadb => "mariadb",
        Flavor::Mysql | Flavor::Percona | Flavor::Pxc => "mysqld",
    }
}

/// A value as it goes into the file: sizes with the largest exact suffix,
/// fractions without the trailing zeros the server prints (`10.000000`
/// becomes `10`).
pub fn file_value(kind: &VarKind, value: &str) -> String {
    match kind {
        VarKind::Size { .. } => match units::parse_size(value) {
            Ok(n) => units::format_size(n),
            Err(_) => value.to_string(),
        },
        VarKind::Float { .. } if value.contains('.') && value.parse::<f64>().is_ok() => value
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string(),
        _ => value.to_string(),
    }
}

/// Check every server setting of `plan` against the target's catalog and
/// return them as `(name, value as written, setting)`.
pub fn checked_settings(plan: &Plan) -> Result<Vec<(String, String, &Setting)>, GenError> {
    let catalog = Catalog::for_target(&plan.target)?;
    let mut out = Vec::new();
    for s in plan.server_settings() {
        let info = catalog
            .get(&s.name)
            .filter(|v| !v.status_at(plan.target.version).is_removed())
            .ok_or_else(|| GenError::UnknownVariable {
                code: s.code.clone(),
                variable: s.name.clone(),
                target: plan.target.to_string(),
            })?;
        let value = file_value(&info.kind, &s.value);
        info.check_value(&value).map_err(|e| GenError::BadValue {
            code: s.code.clone(),
            variable: s.name.clone(),
            value: value.clone(),
            target: plan.target.to_string(),
            message: e.message,
        })?;
        out.push((info.name.clone(), value, s));
    }
    Ok(out)
}

/// Where the values a plan starts from came from, for the comments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The target's defaults (a new file).
    Defaults,
    /// A live server or a snapshot of one.
    Server,
    /// An existing option file (`--base`), else the defaults.
    BaseFile,
}

/// The comment above one option line.
fn comment_for(s: &Setting, kind: &VarKind, origin: Origin) -> String {
    let mut text = format!("{} {}: {}", s.code, s.rule_name, s.why);
    let (now, already) = match origin {
        Origin::Defaults => ("default", "the default is already"),
        Origin::Server => ("the server has", "the server already has"),
        Origin::BaseFile => ("was", "already"),
    };
    match &s.baseline {
        Some(b) if s.unchanged() => text.push_str(&format!(" ({already} {})", file_value(kind, b))),
        Some(b) => text.push_str(&format!(" ({now} {})", file_value(kind, b))),
        None => {}
    }
    wrap(&text, COMMENT_WIDTH).join("\n")
}

/// Render the option file. `header` lines become `# ` comments at the top of
/// a new file; with `base` (the text of an existing option file) the
/// settings are edited into it instead and its header is left alone.
/// `origin` says where the plan's starting values came from.
pub fn render(
    plan: &Plan,
    header: &[String],
    base: Option<&str>,
    origin: Origin,
) -> Result<String, GenError> {
    let settings = checked_settings(plan)?;
    let catalog = Catalog::for_target(&plan.target)?;
    let group = group_for(&plan.target);
    let mut doc = match base {
        Some(text) => Document::parse(text),
        None => {
            let mut text = String::new();
            for h in header {
                for line in wrap(h, COMMENT_WIDTH) {
                    text.push_str(&format!("# {line}\n"));
                }
            }
            text.push_str(&format!("\n[{group}]\n"));
            Document::parse(&text)
        }
    };
    for (name, value, s) in settings {
        let kind = catalog
            .get(&name)
            .map(|v| v.kind.clone())
            .unwrap_or(VarKind::String);
        let comment = comment_for(s, &kind, origin);
        doc.set(group, &name, Some(&value), Some(&comment))
            .map_err(|e| GenError::Unwritable {
                code: s.code.clone(),
                setting: name.clone(),
                value: value.clone(),
                why: e.to_string(),
            })?;
    }
    Ok(doc.to_string())
}
