//! The fixes `mytune lint --fix` applies: edits with one correct mechanical
//! answer, built beside the finding they mend.
//!
//! A fix must leave the server reading the file as it did, except where the
//! fix says so: the effective configuration (the variables `mariadbd
//! --verbose --help` prints, and a real start's) is the same before and
//! after, which `tests/it/fix_differential.rs` proves against the real server
//! over a generated corpus. So only what the server itself does or
//! documents is mechanical:
//! - a unique prefix of an option name becomes the name the server expands
//!   it to (MariaDB expands prefixes; MySQL 8.0 does not);
//! - a removed or deprecated option whose documented replacement means the
//!   same ([`crate::catalog::replacements`]) becomes the replacement, with
//!   the value converted;
//! - a removed option the server ignores, or one it refuses and nothing
//!   replaces (the query cache on MySQL 8.0), is commented out with why;
//! - a number the server clamps or rounds becomes the number it runs with;
//! - of a single-value option set twice in one group, the line that has no
//!   effect is commented out.
//!
//! A misspelt name is never renamed: the closest name by spelling is often
//! another setting (`innodb_log_size` is as near `innodb_page_size` as
//! `innodb_log_file_size`, and the first stops InnoDB on an existing
//! datadir), so it stays a finding with ranked suggestions. A value the
//! server does not read (`slow_query_log = /var/log/slow.log`) is not
//! rewritten to what it falls back to either: the author meant something
//! else, which only they know.
//!
//! Tuning values are never changed here: that is `gen-cnf --base`'s job.
//! Every edit replaces one line by one line (a removed line becomes a
//! comment), so line numbers never move, and a fixed line is judged again
//! by the catalog before the fix is offered: a fix that would itself draw
//! a finding about the name is not a fix.

use std::path::Path;

use crate::catalog::replacements::{self, Conversion};
use crate::catalog::{Catalog, Effect, LineContext, Reason, VarInfo, VarKind, parse_number};
use crate::cnf::{self, LoadedFiles, Modifier, OptionEntry};
use crate::facts::{ConfigFacts, SourceLocation};
use crate::rules::{Fix, LineEdit};
use crate::units::format_size;

/// What a fix is built from: the files as read and what they mean.
pub struct FixContext<'a> {
    pub loaded: &'a LoadedFiles,
    pub effective: &'a ConfigFacts,
    pub catalog: &'a Catalog,
    pub ctx: &'a LineContext,
}

/// The parts of an option line a fix rewrites.
struct Parts<'t> {
    indent: &'t str,
    /// The name as written, prefixes included.
    name: &'t str,
    /// `= value` as written (spacing and quotes kept), or empty.
    value: &'t str,
    /// The trailing comment with the space before it, or empty.
    comment: &'t str,
}

fn parts(text: &str) -> Option<Parts<'_>> {
    let body_start = text.len() - text.trim_start().len();
    let end = cnf::comment_start(text).unwrap_or(text.len());
    if end < body_start {
        return None;
    }
    let body = text[body_start..end].trim_end();
    let body_end = body_start + body.len();
    let name_len = body
        .find(|c: char| c == '=' || c.is_whitespace())
        .unwrap_or(body.len());
    Some(Parts {
        indent: &text[..body_start],
        name: &body[..name_len],
        value: &body[name_len..],
        comment: &text[body_end..],
    })
}

/// The prefix words written before the name (`loose-`, `skip-`), as
/// written.
fn written_prefix<'t>(raw: &'t str, e: &OptionEntry) -> &'t str {
    let cut = raw.len().saturating_sub(e.name.len());
    if raw.is_char_boundary(cut) && cnf::canonical_name(&raw[cut..]) == e.name {
        &raw[..cut]
    } else {
        ""
    }
}

/// `name` in the writing style of `like`: dashes when the line used only
/// dashes.
fn styled(name: &str, like: &str) -> String {
    if like.contains('-') && !like.contains('_') {
        name.replace('_', "-")
    } else {
        name.to_string()
    }
}

impl FixContext<'_> {
    fn line(&self, loc: &SourceLocation) -> Option<&str> {
        self.loaded.line_text(loc)
    }

    /// The entry's line and its parts, when the line is the entry's.
    fn entry_line(&self, e: &OptionEntry) -> Option<(String, String, String)> {
        let text = self.line(&e.location)?;
        let p = parts(text)?;
        if p.name != e.raw_name {
            return None;
        }
        Some((
            text.to_string(),
            format!("{}{}", p.indent, written_prefix(p.name, e)),
            p.comment.to_string(),
        ))
    }

    fn edit(&self, loc: &SourceLocation, old: String, text: String) -> LineEdit {
        LineEdit {
            file: loc.file.clone(),
            line: loc.line,
            old,
            text,
        }
    }

    /// Is `name` set by another line the server reads with this one? Then
    /// renaming this line to it would make a duplicate, and which of the two
    /// the author meant is not mechanical.
    fn set_elsewhere(&self, e: &OptionEntry, name: &str) -> bool {
        self.effective
            .options
            .get(name)
            .is_some_and(|o| o.location != e.location || !o.shadowed.is_empty())
    }

    /// The line renamed to `name`, its value kept as written.
    fn rename(&self, e: &OptionEntry, name: &str) -> Option<LineEdit> {
        if self.set_elsewhere(e, name) {
            return None;
        }
        let (old, lead, comment) = self.entry_line(e)?;
        let p = parts(&old)?;
        let text = format!(
            "{lead}{}{}{comment}",
            styled(name, p.name.trim_start_matches(lead.trim_start())),
            p.value
        );
        Some(self.edit(&e.location, old.clone(), text))
    }

    /// A unique prefix written out as the name the server expands it to.
    /// The server matches the whole name as written (after `loose-`)
    /// before it strips `skip-` and the other prefix words, so
    /// `skip-name-r` is `skip-name-resolve`, not `skip-` + `name-r…`: the
    /// prefix words written stay only when the server stripped them.
    fn expand_prefix(&self, e: &OptionEntry, full: &str) -> Option<LineEdit> {
        let whole = cnf::canonical_name(
            e.raw_name
                .trim_start_matches("loose-")
                .trim_start_matches("loose_"),
        );
        if !full.starts_with(&whole) {
            return self.rename(e, full);
        }
        if self.set_elsewhere(e, full) {
            return None;
        }
        let old = self.line(&e.location)?.to_string();
        let p = parts(&old)?;
        if p.name != e.raw_name {
            return None;
        }
        let loose = &p.name[..p.name.len()
            - p.name
                .trim_start_matches("loose-")
                .trim_start_matches("loose_")
                .len()];
        let written = &p.name[loose.len()..];
        let text = format!(
            "{}{loose}{}{}{}",
            p.indent,
            styled(full, written),
            p.value,
            p.comment
        );
        Some(self.edit(&e.location, old.clone(), text))
    }

    /// The line as `name = value` (prefix words other than `loose-`
    /// dropped: the value says it all).
    fn rewrite(&self, e: &OptionEntry, name: &str, value: &str) -> Option<LineEdit> {
        if name != e.name && self.set_elsewhere(e, name) {
            return None;
        }
        let (old, _, comment) = self.entry_line(e)?;
        let p = parts(&old)?;
        let loose = if e.loose { "loose-" } else { "" };
        let text = format!(
            "{}{loose}{} = {}{comment}",
            p.indent,
            styled(name, p.name),
            cnf::format_value(value)
        );
        Some(self.edit(&e.location, old.clone(), text))
    }

    /// The line commented out, with why.
    fn comment_out(&self, loc: &SourceLocation, why: &str) -> Option<LineEdit> {
        let old = self.line(loc)?.to_string();
        let p = parts(&old)?;
        let text = format!("{}# mytune: dropped, {why}: {}", p.indent, old.trim());
        Some(self.edit(loc, old.clone(), text))
    }

    /// Would the rewritten line draw a finding about its name, or be
    /// refused? Then it is no fix: a line the server refuses for its value
    /// (`profil = ON`, taken as `profiling_history_size`) is refused under
    /// its full name too, and renaming it only hides where the problem is.
    fn judged_clean(&self, e: &OptionEntry, edit: &LineEdit) -> bool {
        let text = format!("[{}]\n{}\n", e.group, edit.text);
        let loaded = cnf::load_str(&text, Path::new("fix.cnf"));
        let Some(new) = loaded.entries.first() else {
            // Commented out: nothing left to judge.
            return !edit.text.trim_start().starts_with('#') || loaded.errors.is_empty();
        };
        if !loaded.errors.is_empty() {
            return false;
        }
        self.catalog.judge_line(new, self.ctx).iter().all(|j| {
            let about_name = matches!(
                j.reason,
                Reason::Unknown { .. }
                    | Reason::PluginNotLoaded { .. }
                    | Reason::Removed { .. }
                    | Reason::Deprecated { .. }
                    | Reason::Prefix { .. }
                    | Reason::AmbiguousPrefix { .. }
            );
            !about_name && j.effect != Effect::Refuses
        })
    }

    fn checked(&self, e: &OptionEntry, description: String, edits: Vec<LineEdit>) -> Option<Fix> {
        let own = edits
            .iter()
            .find(|x| x.file == e.location.file && x.line == e.location.line);
        if own.is_some_and(|x| !self.judged_clean(e, x)) {
            return None;
        }
        Some(Fix { description, edits })
    }

    /// The fix for one judgement of a server-group line.
    pub fn for_judgement(
        &self,
        e: &OptionEntry,
        reason: &Reason,
        var: Option<&VarInfo>,
    ) -> Option<Fix> {
        let release =
            crate::catalog::release_name(self.ctx.target.unwrap_or_else(|| self.catalog.target()));
        match reason {
            Reason::Prefix { full, .. } => {
                let edit = self.expand_prefix(e, full)?;
                self.checked(e, format!("write the full name {full}"), vec![edit])
            }
            Reason::Removed { ignored: true, .. } => {
                let edit = self.comment_out(&e.location, &format!("{release} ignores it"))?;
                Some(Fix {
                    description: format!("comment out {}: {release} ignores it", e.raw_name),
                    edits: vec![edit],
                })
            }
            Reason::Removed {
                replacement: Some(new),
                ..
            }
            | Reason::Deprecated {
                replacement: Some(new),
                ..
            } => self.replace(e, var?, new),
            // A name the legacy table documents a successor for: dropping
            // the line would lose what the author wanted (a slow log), and
            // no server reads it as its successor.
            Reason::Removed {
                replacement: None,
                since,
                ..
            } if e.modifier != Modifier::Maximum
                && crate::catalog::legacy::lookup(
                    var.map_or(e.name.as_str(), |v| v.name.as_str()),
                )
                .is_none() =>
            {
                let when = since.map(|v| format!(" in {v}")).unwrap_or_default();
                let why = format!("removed{when} ({release} refuses it)");
                let edit = self.comment_out(&e.location, &why)?;
                Some(Fix {
                    description: format!("comment out {}: {why}", e.raw_name),
                    edits: vec![edit],
                })
            }
            Reason::Adjusted { runs_with: Some(v) } => {
                let var = var?;
                if !matches!(
                    var.kind,
                    VarKind::Integer { .. } | VarKind::Size { .. } | VarKind::Float { .. }
                ) {
                    return None;
                }
                // Sizes as an option file writes them (32768 → 32K).
                let v = match var.kind {
                    VarKind::Size { .. } => parse_number(v, true)
                        .ok()
                        .and_then(|n| u64::try_from(n).ok())
                        .map_or_else(|| v.clone(), format_size),
                    _ => v.clone(),
                };
                let v = &v;
                let edit = self.rewrite(e, &var.name, v)?;
                self.checked(
                    e,
                    format!("write the value the server runs with: {} = {v}", var.name),
                    vec![edit],
                )
            }
            _ => None,
        }
    }

    /// A removed or deprecated option whose replacement means the same.
    fn replace(&self, e: &OptionEntry, var: &VarInfo, new: &str) -> Option<Fix> {
        let row = replacements::lookup(&var.name, new)?;
        let value = || -> Option<String> {
            match e.modifier {
                Modifier::Skip | Modifier::Disable => Some("OFF".into()),
                Modifier::Enable => Some("ON".into()),
                _ => e.value.clone().or_else(|| Some("ON".into())),
            }
        };
        let description = format!("replace {} with {new}", var.name);
        // The replacement already set in the same groups wins: this line
        // only draws the server's warning.
        if row.conversion != Conversion::Redo && self.effective.options.contains_key(new) {
            let at = &self.effective.options[new].location;
            let edit = self.comment_out(&e.location, &format!("{new} at line {} wins", at.line))?;
            return Some(Fix {
                description: format!("comment out {}: {new} at {at} wins", var.name),
                edits: vec![edit],
            });
        }
        let edits = match &row.conversion {
            Conversion::Same => match e.modifier {
                Modifier::Skip | Modifier::Disable | Modifier::Enable => {
                    vec![self.rewrite(e, new, &value()?)?]
                }
                _ => vec![self.rename(e, new)?],
            },
            Conversion::Scale(n) => {
                let v = parse_number(value()?.trim(), true).ok()?;
                let scaled = u64::try_from(v).ok()?.checked_mul(*n)?;
                vec![self.rewrite(e, new, &scaled.to_string())?]
            }
            Conversion::Value(v) => vec![self.rewrite(e, new, v)?],
            Conversion::Redo => return self.redo(e, new, description),
        };
        self.checked(e, description, edits)
    }

    /// `innodb_log_file_size` × `innodb_log_files_in_group` →
    /// `innodb_redo_log_capacity`, one fix for both lines: the capacity on
    /// the first of them, the other commented out.
    fn redo(&self, e: &OptionEntry, new: &str, description: String) -> Option<Fix> {
        let opts = &self.effective.options;
        let size = opts.get("innodb_log_file_size");
        let files = opts.get("innodb_log_files_in_group");
        let entry_at =
            |loc: &SourceLocation| self.loaded.entries.iter().find(|x| x.location == *loc);
        // Only the lines the server applies; an earlier duplicate is its
        // own finding.
        let mine = [size, files]
            .iter()
            .flatten()
            .any(|o| o.location == e.location);
        if !mine {
            return None;
        }
        if let Some(cap) = opts.get(new) {
            let why = format!("{new} at line {} wins", cap.location.line);
            let edits = [size, files]
                .iter()
                .flatten()
                .map(|o| self.comment_out(&o.location, &why))
                .collect::<Option<Vec<_>>>()?;
            return Some(Fix {
                description: format!(
                    "comment out the old redo log settings: {new} at {} wins",
                    cap.location
                ),
                edits,
            });
        }
        let default = |name: &str| self.catalog.get(name).and_then(|v| v.default.clone());
        let number = |v: &str| {
            parse_number(v.trim(), true)
                .ok()
                .and_then(|n| u64::try_from(n).ok())
        };
        let bytes = number(
            &size
                .map(|o| o.value.clone())
                .or_else(|| default("innodb_log_file_size"))?,
        )?;
        let count = number(
            &files
                .map(|o| o.value.clone())
                .or_else(|| default("innodb_log_files_in_group"))?,
        )?;
        let capacity = bytes.checked_mul(count)?;
        let (first, second) = match (size, files) {
            (Some(s), Some(f))
                if f.location.line < s.location.line && f.location.file == s.location.file =>
            {
                (f, Some(s))
            }
            (Some(s), f) => (s, f),
            (None, Some(f)) => (f, None),
            (None, None) => return None,
        };
        let first_entry = entry_at(&first.location)?;
        let mut edits = vec![self.rewrite(first_entry, new, &format_size(capacity))?];
        if let Some(o) = second {
            edits.push(self.comment_out(
                &o.location,
                &format!("folded into {new} at line {}", first.location.line),
            )?);
        }
        self.checked(first_entry, description, edits)
    }

    /// An earlier line of a single-value option set again later in the same
    /// group: commented out.
    pub fn for_shadowed(&self, shadowed: &SourceLocation, winner: &SourceLocation) -> Option<Fix> {
        let earlier = self
            .loaded
            .entries
            .iter()
            .find(|x| x.location == *shadowed)?;
        let later = self.loaded.entries.iter().find(|x| x.location == *winner)?;
        // Another group may be read by another server: leave it.
        if !earlier
            .group_as_read()
            .eq_ignore_ascii_case(later.group_as_read())
        {
            return None;
        }
        let at = if winner.file == shadowed.file {
            format!("line {}", winner.line)
        } else {
            winner.to_string()
        };
        let edit = self.comment_out(shadowed, &format!("set again at {at}"))?;
        Some(Fix {
            description: format!(
                "comment out {}: it is set again at {winner}",
                earlier.raw_name
            ),
            edits: vec![edit],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_keep_indent_value_and_comment() {
        let p = parts("  tx-isolation = READ-COMMITTED   # old name").unwrap();
        assert_eq!(p.indent, "  ");
        assert_eq!(p.name, "tx-isolation");
        assert_eq!(p.value, " = READ-COMMITTED");
        assert_eq!(p.comment, "   # old name");
        let bare = parts("skip-name-resolve").unwrap();
        assert_eq!(
            (bare.name, bare.value, bare.comment),
            ("skip-name-resolve", "", "")
        );
    }
}
