//! Applying the fixes of a lint run to the files, or showing them as a diff.
//!
//! A fix replaces whole lines, and is applied only where each line still
//! reads as it did when the fix was made; the file's other bytes (other
//! lines, line endings, bytes that are not UTF-8) are copied untouched.
//! Fixes are applied all or nothing: when two fixes want the same line
//! differently, the first wins and the other waits for the next run.
//! Files outside the paths the user gave (reached through `!include`) are
//! never written: their fixes are reported instead.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::atomic::{self, Backup, Perms, WriteError, Written};

use crate::rules::{Finding, Fix};

/// What applying the fixes of a run would change.
#[derive(Debug, Default)]
pub struct FixPlan {
    /// File → (bytes now, bytes fixed), for every file that changes.
    pub files: BTreeMap<PathBuf, (Vec<u8>, Vec<u8>)>,
    /// Findings whose fix is in `files`.
    pub applied: usize,
    /// Fixes left for the next run: they overlap an applied one.
    pub deferred: usize,
    /// Fixes not applied, with why (outside the paths given, the file
    /// changed since it was read).
    pub skipped: Vec<String>,
}

/// A file's lines with their endings, as bytes.
fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split_inclusive(|b| *b == b'\n').collect()
}

fn body(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Plan the fixes of `findings`. `may_write` says whether a file lies
/// under the paths given; `read` reads a file's bytes.
pub fn plan(
    findings: &[Finding],
    may_write: &dyn Fn(&Path) -> bool,
    read: &dyn Fn(&Path) -> std::io::Result<Vec<u8>>,
) -> FixPlan {
    let mut out = FixPlan::default();
    // File → its lines, edited in place as fixes are taken.
    let mut files: BTreeMap<PathBuf, (Vec<u8>, Vec<Vec<u8>>)> = BTreeMap::new();
    for f in findings {
        let Some(fix) = &f.fix else { continue };
        let at = f
            .location
            .as_ref()
            .map_or_else(String::new, |l| format!("{l}: "));
        if let Some(outside) = fix.edits.iter().find(|e| !may_write(&e.file)) {
            out.skipped.push(format!(
                "{at}{} ({}): not applied, {} is not under the paths given",
                crate::secrets::shown_description(fix),
                f.code,
                outside.file.display()
            ));
            continue;
        }
        match take(fix, &mut files, read) {
            Ok(true) => out.applied += 1,
            Ok(false) => out.deferred += 1,
            Err(why) => out.skipped.push(format!(
                "{at}{} ({}): not applied, {why}",
                crate::secrets::shown_description(fix),
                f.code
            )),
        }
    }
    for (path, (before, lines)) in files {
        let after: Vec<u8> = lines.concat();
        if after != before {
            out.files.insert(path, (before, after));
        }
    }
    out
}

/// Take one fix into `files`: `Ok(true)` taken (or already there),
/// `Ok(false)` a line it needs was changed by an earlier fix.
fn take(
    fix: &Fix,
    files: &mut BTreeMap<PathBuf, (Vec<u8>, Vec<Vec<u8>>)>,
    read: &dyn Fn(&Path) -> std::io::Result<Vec<u8>>,
) -> Result<bool, String> {
    for e in &fix.edits {
        if !files.contains_key(&e.file) {
            let bytes =
                read(&e.file).map_err(|err| format!("cannot read {}: {err}", e.file.display()))?;
            let lines = split_lines(&bytes)
                .into_iter()
                .map(<[u8]>::to_vec)
                .collect();
            files.insert(e.file.clone(), (bytes, lines));
        }
    }
    // Check every edit before changing anything.
    let mut changes = Vec::new();
    for e in &fix.edits {
        let (before, lines) = &files[&e.file];
        let i = usize::try_from(e.line).ok().and_then(|n| n.checked_sub(1));
        let Some(line) = i.and_then(|i| lines.get(i)) else {
            return Err(format!("{} has no line {}", e.file.display(), e.line));
        };
        let now = body(line);
        let original = i
            .and_then(|i| split_lines(before).get(i).map(|l| body(l).to_vec()))
            .unwrap_or_default();
        if now == e.text.as_bytes() {
            continue;
        }
        if original != e.old.as_bytes() {
            return Err(format!(
                "{}:{} changed since it was read",
                e.file.display(),
                e.line
            ));
        }
        if now != original.as_slice() {
            return Ok(false);
        }
        changes.push((e.file.clone(), i.unwrap_or(0), e.text.clone()));
    }
    for (file, i, text) in changes {
        let lines = &mut files.get_mut(&file).expect("read above").1;
        let ending_at = body(&lines[i]).len();
        let ending = lines[i][ending_at..].to_vec();
        let mut new = text.into_bytes();
        new.extend(ending);
        lines[i] = new;
    }
    Ok(true)
}

/// A unified diff of a plan, and the hunks it leaves out.
#[derive(Debug, Default)]
pub struct Diff {
    pub text: String,
    /// Per file, how many hunks were left out because one of their lines
    /// (changed or context) holds a secret.
    pub hidden: BTreeMap<PathBuf, usize>,
}

/// A unified diff of the plan, as `diff -u` prints it, file by file, with
/// each file's path as given on both sides (`patch -p0` applies it).
///
/// A hunk any line of which holds a secret ([`crate::secrets`]) is left out
/// whole: masked, it would no longer apply, and shown, it would print the
/// secret. [`Diff::hidden`] counts them so the caller can say that `--fix`
/// applies them.
pub fn diff(plan: &FixPlan) -> Diff {
    let mut out = Diff::default();
    for (path, (before, after)) in &plan.files {
        let a = String::from_utf8_lossy(before);
        let b = String::from_utf8_lossy(after);
        let name = path.display().to_string();
        let text = similar::TextDiff::from_lines(a.as_ref(), b.as_ref());
        let mut unified = text.unified_diff();
        unified.context_radius(3);
        let mut header = true;
        for hunk in unified.iter_hunks() {
            if hunk
                .iter_changes()
                .any(|c| crate::secrets::holds_secret(c.value().trim_end_matches(['\n', '\r'])))
            {
                *out.hidden.entry(path.clone()).or_default() += 1;
                continue;
            }
            if std::mem::take(&mut header) {
                let _ = write!(out.text, "--- {name}\n+++ {name}\n");
            }
            let _ = write!(out.text, "{hunk}");
        }
    }
    out
}

/// Write the plan's files by the rules of [`crate::atomic`]: each keeps its
/// owner, group and mode, a symbolic link is written through (its target is
/// the file fixed), and every file is staged before any is replaced, so one
/// that cannot be written safely leaves them all as they were. Returns each
/// file as given with what its write did.
pub fn write(plan: &FixPlan) -> Result<Vec<(PathBuf, Written)>, WriteError> {
    let files: Vec<(&Path, &[u8])> = plan
        .files
        .iter()
        .map(|(p, (_, after))| (p.as_path(), after.as_slice()))
        .collect();
    let written = atomic::write_all(&files, Perms::Shared, Backup::None)?;
    Ok(plan.files.keys().cloned().zip(written).collect())
}

/// Is `file` one of `given` or under a directory of it? Both sides are
/// compared as canonical paths.
pub fn under_given(file: &Path, given: &[PathBuf]) -> bool {
    let Ok(file) = std::fs::canonicalize(file) else {
        return false;
    };
    given.iter().any(|g| {
        std::fs::canonicalize(g).is_ok_and(|g| file == g || (g.is_dir() && file.starts_with(&g)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::LineEdit;

    fn finding_with(edits: Vec<LineEdit>) -> Finding {
        let mut f = crate::checks::duplicate_option::CHECK.finding(
            crate::rules::Severity::Warn,
            "m".into(),
            None,
            None,
        );
        f.fix = Some(Fix {
            description: "d".into(),
            edits,
        });
        f
    }

    fn edit(line: u32, old: &str, text: &str) -> LineEdit {
        LineEdit {
            file: PathBuf::from("a.cnf"),
            line,
            old: old.into(),
            text: text.into(),
        }
    }

    #[test]
    fn only_the_fixed_lines_change_and_endings_stay() {
        let before = b"[mysqld]\r\ntx_isolation = READ-COMMITTED\r\n\xff junk\nlast".to_vec();
        let read = |_: &Path| Ok(before.clone());
        let f = finding_with(vec![edit(
            2,
            "tx_isolation = READ-COMMITTED",
            "transaction_isolation = READ-COMMITTED",
        )]);
        let p = plan(&[f], &|_| true, &read);
        assert_eq!(p.applied, 1);
        let (_, after) = &p.files[Path::new("a.cnf")];
        assert_eq!(
            after.as_slice(),
            b"[mysqld]\r\ntransaction_isolation = READ-COMMITTED\r\n\xff junk\nlast"
        );
    }

    #[test]
    fn a_second_fix_of_the_same_line_waits_and_outside_paths_are_skipped() {
        let read = |_: &Path| Ok(b"[mysqld]\nx = 1\n".to_vec());
        let a = finding_with(vec![edit(2, "x = 1", "x = 2")]);
        let b = finding_with(vec![edit(2, "x = 1", "# x = 1")]);
        let p = plan(&[a.clone(), b], &|_| true, &read);
        assert_eq!((p.applied, p.deferred), (1, 1));
        let p = plan(&[a], &|_| false, &read);
        assert_eq!(p.applied, 0);
        assert_eq!(p.skipped.len(), 1);
        assert!(p.files.is_empty());
    }

    #[test]
    fn a_line_changed_since_reading_is_not_overwritten() {
        let read = |_: &Path| Ok(b"[mysqld]\nx = 3\n".to_vec());
        let p = plan(
            &[finding_with(vec![edit(2, "x = 1", "x = 2")])],
            &|_| true,
            &read,
        );
        assert_eq!(p.applied, 0);
        assert!(p.skipped[0].contains("changed since it was read"));
    }
}
