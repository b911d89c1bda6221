//! Inline suppressions: `# mytune: ignore MT101` on the line of a finding,
//! or alone on the line above it, silences that code there (several codes
//! separated by spaces or commas; no code silences every code). A
//! suppression that silences nothing is itself reported (MT009), so stale
//! ones do not pile up, as ruff does with `noqa`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::facts::SourceLocation;
use crate::rules::Finding;

const MARKER: &str = "mytune:";

/// One `mytune: ignore` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    pub location: SourceLocation,
    /// Upper-case codes; empty = every code.
    pub codes: Vec<String>,
    /// The comment is alone on its line, so it also covers the next line.
    pub own_line: bool,
}

impl Suppression {
    fn covers(&self, f: &Finding) -> bool {
        let Some(loc) = &f.location else {
            return false;
        };
        loc.file == self.location.file
            && (loc.line == self.location.line
                || (self.own_line && loc.line == self.location.line + 1))
            && (self.codes.is_empty() || self.codes.iter().any(|c| f.code == *c))
    }
}

/// Every suppression comment of a file's text.
pub fn scan(text: &str, file: &Path) -> Vec<Suppression> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(at) = line.find(MARKER) else {
            continue;
        };
        let before = &line[..at];
        let Some(comment) = before.find(['#', ';']) else {
            continue;
        };
        let rest = line[at + MARKER.len()..].trim_start();
        let Some(args) = rest.strip_prefix("ignore") else {
            continue;
        };
        if args.chars().next().is_some_and(|c| c.is_alphanumeric()) {
            continue;
        }
        let codes = args
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .take_while(|w| w.len() == 5 && w[..2].eq_ignore_ascii_case("MT"))
            .map(str::to_ascii_uppercase)
            .collect();
        out.push(Suppression {
            location: SourceLocation {
                file: file.to_path_buf(),
                line: (i + 1) as u32,
                column: (before[..comment].chars().count() + 1) as u32,
            },
            codes,
            own_line: before[..comment].trim().is_empty(),
        });
    }
    out
}

/// Drop the findings a suppression covers; return the kept findings and
/// the suppressions that covered nothing.
pub fn apply(
    findings: Vec<Finding>,
    suppressions: &[Suppression],
) -> (Vec<Finding>, Vec<Suppression>) {
    let mut used: BTreeSet<usize> = BTreeSet::new();
    let kept = findings
        .into_iter()
        .filter(|f| {
            let hits: Vec<usize> = suppressions
                .iter()
                .enumerate()
                .filter(|(_, s)| s.covers(f))
                .map(|(i, _)| i)
                .collect();
            used.extend(&hits);
            hits.is_empty()
        })
        .collect();
    let unused = suppressions
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, s)| s.clone())
        .collect();
    (kept, unused)
}

/// Read and scan files (unreadable ones are skipped: the lint run already
/// reported them).
pub fn scan_files<'a>(files: impl IntoIterator<Item = &'a PathBuf>) -> Vec<Suppression> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for f in files {
        if !seen.insert(f.clone()) {
            continue;
        }
        if let Ok(bytes) = std::fs::read(f) {
            out.extend(scan(&String::from_utf8_lossy(&bytes), f));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Confidence, Family, Severity};

    fn finding(code: &str, line: u32) -> Finding {
        Finding {
            code: crate::rules::Code::parse(code).unwrap(),
            name: "x".into(),
            family: Family::Config,
            severity: Severity::Warn,
            tags: vec![],
            message: "m".into(),
            variable: None,
            current: None,
            recommended: None,
            location: Some(SourceLocation {
                file: "f.cnf".into(),
                line,
                column: 1,
            }),
            rationale: String::new(),
            sources: vec![],
            confidence: Confidence::High,
            fix: None,
        }
    }

    #[test]
    fn same_line_line_above_and_unused() {
        let text = "[mysqld]\n\
                    max_connections = 5000 # mytune: ignore MT301\n\
                    # mytune: ignore MT101, MT102\n\
                    innodb_buffer_pool_size = 1G\n\
                    ; mytune: ignore\n\
                    key_buffer_size = 1G\n\
                    # mytune: ignore MT999\n\
                    sort_buffer_size = 1M # mytune: ignored-not-a-marker\n";
        let s = scan(text, Path::new("f.cnf"));
        assert_eq!(s.len(), 4);
        assert!(!s[0].own_line && s[0].codes == ["MT301"]);
        assert!(s[1].own_line && s[1].codes == ["MT101", "MT102"]);
        assert!(s[2].codes.is_empty());
        let (kept, unused) = apply(
            vec![
                finding("MT301", 2),
                finding("MT101", 4),
                finding("MT006", 4),
                finding("MT005", 6),
                finding("MT101", 2),
            ],
            &s,
        );
        let kept: Vec<_> = kept
            .iter()
            .map(|f| (f.code.as_str(), f.location.as_ref().unwrap().line))
            .collect();
        assert_eq!(kept, [("MT006", 4), ("MT101", 2)]);
        assert_eq!(unused.len(), 1);
        assert_eq!(unused[0].location.line, 7);
    }
}
