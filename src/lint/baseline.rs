//! A baseline: the findings a repository accepted on the day it adopted
//! mytune, so that lint reports only new ones (as ruff's `--add-noqa`,
//! hadolint's ignore list and cargo-deny's exemptions let a team adopt a
//! linter without fixing years of history first).
//!
//! Each entry is a finding's code, its file (relative to the baseline's
//! directory) and a fingerprint of the content of its line, not the line
//! number, so the entry still matches after lines are inserted above it.
//! A finding about a whole file (a rule with nothing to point at) is
//! fingerprinted by its code and variable alone. Entries count: two equal
//! lines with the same finding need two entries. An entry that matches
//! nothing any more is reported (MT022), like an unused suppression, so
//! the baseline only shrinks.
//!
//! The file is text, one entry per line with tab-separated columns, so a
//! review sees what was accepted: `MT004`, `conf/my.cnf`,
//! `5f0c1d2a9e8b7c63`, `innodb_log_file_size`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::facts::SourceLocation;
use crate::rules::Finding;

/// One accepted finding.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    pub code: String,
    /// Relative to the baseline's directory, `/`-separated.
    pub file: String,
    pub fingerprint: String,
    /// For readers of the file; not matched.
    pub variable: String,
    /// Where the entry is in the baseline file (1-based).
    pub line: u32,
}

/// A baseline file, read.
#[derive(Debug, Clone)]
pub struct Baseline {
    pub path: PathBuf,
    /// The directory entries' files are relative to (canonical).
    root: PathBuf,
    pub entries: Vec<Entry>,
}

/// A baseline file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{}:{line}: {message}", path.display())]
pub struct BaselineError {
    pub path: PathBuf,
    pub line: u32,
    pub message: String,
}

const HEADER: &str = "\
# mytune lint baseline: findings accepted when it was written. `mytune lint --baseline FILE`
# (or `baseline = \"FILE\"` in mytune.toml) reports only the others, and entries that match
# nothing any more (MT022). Written by `mytune lint --write-baseline FILE`; remove lines as
# findings are fixed. Columns: code, file (relative to this file), fingerprint of the line's
# content, variable.
";

/// FNV-1a, 64 bits: stable across versions and platforms (the fingerprint
/// is stored in repositories), and enough to tell lines of one file apart.
fn fnv1a(parts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// A line's content as fingerprinted: trimmed, runs of blanks as one space,
/// a secret's value as `***` ([`crate::secrets::mask_line`]): a fast hash of
/// a line holding a password, stored in a repository, would let anyone try
/// passwords against it offline.
fn normalized(line: &str) -> String {
    crate::secrets::mask_line(line)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The content of the line a finding points at (`None` for a finding
/// about the whole file: no location, or column 0).
fn line_content(loc: &SourceLocation, read: &dyn Fn(&Path) -> Option<String>) -> Option<String> {
    if loc.column == 0 {
        return None;
    }
    let text = read(&loc.file)?;
    text.lines()
        .nth(usize::try_from(loc.line).ok()?.checked_sub(1)?)
        .map(normalized)
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// `file` relative to `root`, `/`-separated; absolute when outside it.
fn relative(file: &Path, root: &Path) -> String {
    let file = canonical(file);
    let rel = file.strip_prefix(root).unwrap_or(&file);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
        .replace("//", "/")
}

/// A finding's (code, file, fingerprint), relative to `root`.
fn identify(
    f: &Finding,
    root: &Path,
    read: &dyn Fn(&Path) -> Option<String>,
) -> Option<(String, String, String)> {
    let loc = f.location.as_ref()?;
    let file = relative(&loc.file, root);
    let content = line_content(loc, read);
    let variable = f.variable.as_deref().unwrap_or("");
    let fp = match &content {
        Some(c) => fnv1a(&[&f.code, c]),
        None => fnv1a(&[&f.code, "(file)", variable]),
    };
    Some((f.code.to_string(), file, fp))
}

fn root_of(path: &Path) -> PathBuf {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    canonical(dir)
}

/// The baseline text for `findings`, to be written at `path`.
pub fn render(findings: &[Finding], path: &Path, read: &dyn Fn(&Path) -> Option<String>) -> String {
    let root = root_of(path);
    let mut rows: Vec<String> = findings
        .iter()
        .filter_map(|f| {
            let (code, file, fp) = identify(f, &root, read)?;
            let var = f.variable.clone().unwrap_or_else(|| "-".into());
            Some(format!("{code}\t{file}\t{fp}\t{var}"))
        })
        .collect();
    rows.sort();
    let mut out = HEADER.to_string();
    for r in rows {
        out.push_str(&r);
        out.push('\n');
    }
    out
}

impl Baseline {
    /// Read a baseline file.
    pub fn load(path: &Path) -> Result<Baseline, BaselineError> {
        let text = crate::input::read_text(path).map_err(|e| BaselineError {
            path: path.to_path_buf(),
            line: 0,
            message: e.to_string(),
        })?;
        Baseline::parse(&text, path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<Baseline, BaselineError> {
        let mut entries = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            let ok = cols.len() >= 3
                && crate::rules::Code::parse(cols[0]).is_ok_and(|c| c == cols[0])
                && cols[2].len() == 16
                && cols[2].bytes().all(|b| b.is_ascii_hexdigit());
            if !ok {
                return Err(BaselineError {
                    path: path.to_path_buf(),
                    line: n,
                    message: "expected CODE<TAB>FILE<TAB>FINGERPRINT[<TAB>VARIABLE] \
                              (as `mytune lint --write-baseline` writes it)"
                        .into(),
                });
            }
            entries.push(Entry {
                code: cols[0].to_string(),
                file: cols[1].to_string(),
                fingerprint: cols[2].to_string(),
                variable: cols.get(3).unwrap_or(&"-").to_string(),
                line: n,
            });
        }
        Ok(Baseline {
            path: path.to_path_buf(),
            root: root_of(path),
            entries,
        })
    }

    /// Drop the findings the baseline accepts. Returns the entries that
    /// matched nothing, among those whose file was linted (`linted`):
    /// an entry for a file this run did not look at is not stale.
    pub fn apply(
        &self,
        findings: Vec<Finding>,
        linted: &[PathBuf],
        read: &dyn Fn(&Path) -> Option<String>,
    ) -> (Vec<Finding>, Vec<&Entry>) {
        let mut left: BTreeMap<(String, String, String), Vec<&Entry>> = BTreeMap::new();
        for e in &self.entries {
            left.entry((e.code.clone(), e.file.clone(), e.fingerprint.clone()))
                .or_default()
                .push(e);
        }
        let kept = findings
            .into_iter()
            .filter(|f| {
                let Some(id) = identify(f, &self.root, read) else {
                    return true;
                };
                match left.get_mut(&id) {
                    Some(v) if !v.is_empty() => {
                        v.pop();
                        false
                    }
                    _ => true,
                }
            })
            .collect();
        let linted: Vec<String> = linted.iter().map(|p| relative(p, &self.root)).collect();
        let mut stale: Vec<&Entry> = left
            .into_values()
            .flatten()
            .filter(|e| linted.contains(&e.file))
            .collect();
        stale.sort_by_key(|e| e.line);
        (kept, stale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_are_stable_and_ignore_spacing() {
        assert_eq!(
            fnv1a(&["MT004", "a = 1"]),
            fnv1a(&["MT004", &normalized("  a   = 1 ")])
        );
        assert_ne!(fnv1a(&["MT004", "a = 1"]), fnv1a(&["MT005", "a = 1"]));
        // FNV-1a of the one byte 0xff (checked against a second implementation):
        // baselines written today must match tomorrow.
        assert_eq!(fnv1a(&[""]), "af64724c8602eb6e");
    }

    /// The fingerprint of a line holding a password does not depend on the
    /// password (it could be tried against the hash offline).
    #[test]
    fn a_secret_line_is_fingerprinted_without_its_value() {
        assert_eq!(
            normalized("report_password = s3cret # x"),
            "report_password = *** # x"
        );
        assert_eq!(
            fnv1a(&["MT006", &normalized("wsrep_sst_auth = root:one")]),
            fnv1a(&["MT006", &normalized("wsrep_sst_auth = root:two")])
        );
    }

    #[test]
    fn a_malformed_line_is_an_error_with_its_line() {
        let e = Baseline::parse("# c\nMT004\tx\tnothex\n", Path::new("b.txt")).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().starts_with("b.txt:2: expected CODE"));
    }
}
