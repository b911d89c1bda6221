//! `gen-cnf`: the plan's server variables as one commented option file.
//!
//! Every option line has a comment above it naming the rule that decided it
//! and why, and what the value was before (the default, or the live
//! server's). Values are checked against the target's catalog before they
//! are written: a name the target does not have, or a value it would refuse
//! or silently change, is an error naming the rule, never a file that does
//! not start. The file is written through [`Document`], so with a base file
//! (`--base`) the user's own lines and comments stay as they were.
//!
//! A value a rule withholds until the server proves it safe (MT208's
//! `skip_name_resolve = ON`, which locks out every account defined by host
//! name) is written commented out, with what must be true before it is
//! uncommented: a file applied without reading it never carries it.

use super::plan::{Plan, Setting};
use super::{GenError, wrap};
use crate::catalog::{Catalog, VarInfo, VarKind};
use crate::cnf::{Document, Line, LineEnding, LineKind};
use crate::units;

/// Comment lines are wrapped to this width (plus `# `).
const COMMENT_WIDTH: usize = 96;

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
        let (info, value) = checked(catalog, plan, s)?;
        out.push((info.name.clone(), value, s));
    }
    Ok(out)
}

/// One setting against the target's catalog: its entry and the value as
/// written.
fn checked<'c>(
    catalog: &'c Catalog,
    plan: &Plan,
    s: &Setting,
) -> Result<(&'c VarInfo, String), GenError> {
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
    Ok((info, value))
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
    let group = plan.target.flavor.traits().own_group;
    let read = crate::cnf::server_groups(&plan.target);
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
        drop_moot_suppression(&mut doc, &read, &name, &s.code);
        // A line gen-cnf left commented out before is now set.
        remove_commented(&mut doc, &name, &format!("# {} {}:", s.code, s.rule_name));
        // A base file's own line is edited where the server reads it (its
        // `[mysqld]` for MariaDB too); a new option goes into `group`.
        doc.set_where_read(&read, group, &name, Some(&value), Some(&comment))
            .map_err(|e| GenError::Unwritable {
                code: s.code.to_string(),
                setting: name.clone(),
                value: value.clone(),
                why: e.to_string(),
            })?;
    }
    for w in plan.withheld.values() {
        let s = &w.setting;
        if s.name.contains(':') {
            continue;
        }
        let (info, value) = checked(catalog, plan, s)?;
        let mut comment = comment_for(s, &info.kind, origin);
        for line in wrap(&format!("Commented out: {}.", w.note), COMMENT_WIDTH) {
            comment.push('\n');
            comment.push_str(&line);
        }
        let marker = format!("# {} {}:", s.code, s.rule_name);
        write_commented(
            &mut doc, &read, group, &info.name, &value, &comment, &marker,
        );
    }
    Ok(doc.to_string())
}

/// Remove a commented-out setting `# name = …` that gen-cnf wrote before,
/// with its comment: the run of comment lines above it from the one that
/// starts with `marker` (`# CODE rule-name:`). A commented line without
/// that comment is the user's and stays.
fn remove_commented(doc: &mut Document, name: &str, marker: &str) {
    let prefix = format!("# {name} = ");
    let Some(i) = doc
        .lines
        .iter()
        .position(|l| l.kind == LineKind::Comment && l.text.trim_end().starts_with(&prefix))
    else {
        return;
    };
    let mut start = i;
    while start > 0 && doc.lines[start - 1].kind == LineKind::Comment {
        start -= 1;
    }
    if let Some(from) = (start..i)
        .rev()
        .find(|&k| doc.lines[k].text.starts_with(marker))
    {
        doc.lines.drain(from..=i);
    }
}

/// Write `# name = value`, which no server applies, with `comment` (one or
/// more lines) above it: after the line of `name` the server reads (from
/// `read`), else after the last option of `group`, creating it if needed.
/// A block written before for the same setting (a base file generated
/// earlier; its comment starts with `marker`) is replaced, so generating
/// twice writes it once.
fn write_commented(
    doc: &mut Document,
    read: &[String],
    group: &str,
    name: &str,
    value: &str,
    comment: &str,
    marker: &str,
) {
    let ending = doc
        .lines
        .iter()
        .map(|l| l.ending)
        .find(|e| *e != LineEnding::None)
        .unwrap_or(LineEnding::Lf);
    let option_text = format!("# {name} = {value}");
    let mut block: Vec<Line> = comment
        .lines()
        .map(|l| Line::parse(format!("# {l}").trim_end(), ending))
        .collect();
    block.push(Line::parse(&option_text, ending));
    remove_commented(doc, name, marker);

    let want = crate::cnf::canonical_name(name);
    let groups = doc.line_groups();
    let read_here = |g: &str| {
        read.iter()
            .any(|r| crate::cnf::group_as_read(g).eq_ignore_ascii_case(r))
    };
    let is_option = |l: &Line| match &l.kind {
        LineKind::Option { raw_name, .. } => {
            let (n, modifier, _) = crate::cnf::split_name(raw_name);
            n == want && modifier != crate::cnf::Modifier::Maximum
        }
        _ => false,
    };
    let after_option = doc
        .lines
        .iter()
        .zip(&groups)
        .rposition(|(l, g)| is_option(l) && g.is_some_and(read_here))
        .map(|i| i + 1);
    let header = doc.lines.iter().rposition(
        |l| matches!(&l.kind, LineKind::Group { name } if name.trim().eq_ignore_ascii_case(group)),
    );
    let at = match (after_option, header) {
        (Some(at), _) => at,
        (None, Some(h)) => {
            let end = doc.lines[h + 1..]
                .iter()
                .position(|l| matches!(l.kind, LineKind::Group { .. }))
                .map_or(doc.lines.len(), |p| h + 1 + p);
            doc.lines[h + 1..end]
                .iter()
                .rposition(|l| {
                    matches!(
                        l.kind,
                        LineKind::Option { .. }
                            | LineKind::Include { .. }
                            | LineKind::IncludeDir { .. }
                            | LineKind::Error
                    )
                })
                .map_or(h + 1, |p| h + 2 + p)
        }
        (None, None) => {
            if doc.lines.last().is_some_and(|l| l.kind != LineKind::Blank) {
                block.insert(0, Line::parse("", ending));
            }
            block.insert(
                usize::from(block[0].kind == LineKind::Blank),
                Line::parse(&format!("[{group}]"), ending),
            );
            doc.lines.len()
        }
    };
    if at > 0 && doc.lines[at - 1].ending == LineEnding::None {
        doc.lines[at - 1].ending = ending;
    }
    doc.lines.splice(at..at, block);
}

/// Remove a `# mytune: ignore CODE` comment alone on the line above the
/// option line the server applies, when CODE is exactly the rule whose
/// recommendation is about to replace the value: the suppression silenced
/// that rule's finding about the old value, the new value is the rule's own,
/// so it would silence nothing and lint would report it (MT009). The
/// generated comment block takes its place. A suppression naming other codes
/// too, or every code, stays.
fn drop_moot_suppression(doc: &mut Document, read: &[String], name: &str, code: &str) {
    let want = crate::cnf::canonical_name(name);
    let groups = doc.line_groups();
    let last = doc
        .lines
        .iter()
        .zip(&groups)
        .rposition(|(line, g)| match (&line.kind, g) {
            (LineKind::Option { raw_name, .. }, Some(g)) => {
                let (n, modifier, _) = crate::cnf::split_name(raw_name);
                n == want
                    && modifier != crate::cnf::Modifier::Maximum
                    && read
                        .iter()
                        .any(|r| crate::cnf::group_as_read(g).eq_ignore_ascii_case(r))
            }
            _ => false,
        });
    let Some(i) = last.filter(|&i| i > 0) else {
        return;
    };
    let above = &doc.lines[i - 1];
    if above.kind != LineKind::Comment {
        return;
    }
    let found = crate::lint::suppress::scan(&above.text, std::path::Path::new(""));
    if found.len() == 1 && found[0].own_line && found[0].codes == [code] {
        doc.lines.remove(i - 1);
    }
}
