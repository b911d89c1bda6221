//! SARIF 2.1.0 (the OASIS static-analysis format that code-scanning
//! services ingest): one run, the rules that produced findings as
//! `tool.driver.rules` (name, summary, rationale as help, first source URL as
//! helpUri), one result per finding with its file:line region. Severity maps
//! to SARIF levels one to one (crit error, warn warning, info note). A
//! finding `lint --fix` can mend carries the edit as a SARIF `fix`, so code
//! scanning can offer it — unless the edit's lines hold a secret: then the
//! message names the fix and the edit stays out.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};

use super::safe::escape;
use crate::rules::{Finding, Fix, Severity};

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Crit => "error",
        Severity::Warn => "warning",
        Severity::Info => "note",
    }
}

/// A relative path as a URI reference (forward slashes, reserved bytes
/// percent-encoded); an absolute path as a `file://` URI.
pub fn path_uri(p: &Path) -> String {
    let s = p.to_string_lossy().replace('\\', "/");
    let s = s.strip_prefix("./").unwrap_or(&s).to_string();
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    if p.is_absolute() {
        format!("file://{out}")
    } else {
        out
    }
}

/// The SARIF log for `findings`.
pub fn render(findings: &[Finding]) -> String {
    // One rule descriptor per code, in code order.
    let mut rules: BTreeMap<&str, &Finding> = BTreeMap::new();
    for f in findings {
        rules.entry(f.code.as_str()).or_insert(f);
    }
    let index: BTreeMap<&str, usize> = rules.keys().enumerate().map(|(i, c)| (*c, i)).collect();
    let descriptors: Vec<Value> = rules
        .values()
        .map(|f| {
            let mut d = json!({
                "id": f.code,
                "name": f.name,
                "shortDescription": { "text": f.name.replace('-', " ") },
                "fullDescription": { "text": f.rationale },
                "help": {
                    "text": f.rationale,
                    "markdown": help_markdown(f),
                },
                "defaultConfiguration": { "level": level(f.severity) },
                "properties": {
                    "tags": f.tags,
                    "family": f.family.as_str(),
                },
            });
            if let Some(url) = f.sources.iter().find_map(|s| s.url.as_deref()) {
                d["helpUri"] = json!(url);
            }
            d
        })
        .collect();
    let results: Vec<Value> = findings
        .iter()
        .map(|f| {
            // A code-scanning service applies a fix's text as it stands, so
            // a fix whose lines hold a secret is named, never carried.
            let secret_fix = f.fix.as_ref().and_then(crate::secrets::masked_fix);
            let message = match &secret_fix {
                Some(m) => format!(
                    "{} (`mytune lint --fix` mends it: {}; the edit is not included here because its \
                     line holds a secret)",
                    f.message, m.description
                ),
                None => f.message.clone(),
            };
            // No control character reaches a viewer (JSON would carry it).
            let message = escape(&message);
            let mut r = json!({
                "ruleId": f.code,
                "ruleIndex": index[f.code.as_str()],
                "level": level(f.severity),
                "message": { "text": message },
                "properties": { "confidence": f.confidence.as_str() },
            });
            if let Some(loc) = &f.location {
                let mut region = json!({ "startLine": loc.line.max(1) });
                if loc.column > 0 {
                    region["startColumn"] = json!(loc.column);
                }
                r["locations"] = json!([{
                    "physicalLocation": {
                        "artifactLocation": { "uri": path_uri(&loc.file) },
                        "region": region,
                    }
                }]);
            }
            if let (Some(fix), None) = (&f.fix, &secret_fix) {
                r["fixes"] = json!([sarif_fix(fix)]);
            }
            for (key, v) in [
                ("variable", &f.variable),
                ("current", &f.current),
                ("recommended", &f.recommended),
            ] {
                if let Some(v) = v {
                    r["properties"][key] = json!(escape(v));
                }
            }
            r
        })
        .collect();
    let log = json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "mytune",
                    "version": env!("CARGO_PKG_VERSION"),
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "rules": descriptors,
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    });
    serde_json::to_string_pretty(&log).expect("SARIF always serializes") + "\n"
}

/// A fix as SARIF's `fix`: per file, each line's text (up to, not
/// including, its line ending) replaced by the new text. Columns count
/// Unicode code points, as the run's `columnKind` says.
fn sarif_fix(fix: &Fix) -> Value {
    let mut by_file: BTreeMap<&Path, Vec<Value>> = BTreeMap::new();
    for e in &fix.edits {
        by_file.entry(e.file.as_path()).or_default().push(json!({
            "deletedRegion": {
                "startLine": e.line,
                "startColumn": 1,
                "endLine": e.line,
                "endColumn": e.old.chars().count() + 1,
            },
            "insertedContent": { "text": e.text },
        }));
    }
    let changes: Vec<Value> = by_file
        .into_iter()
        .map(|(file, replacements)| {
            json!({
                "artifactLocation": { "uri": path_uri(file) },
                "replacements": replacements,
            })
        })
        .collect();
    json!({
        "description": { "text": escape(&fix.description) },
        "artifactChanges": changes,
    })
}

fn help_markdown(f: &Finding) -> String {
    let mut s = format!("**{}** ({})\n\n{}\n", f.name, f.code, f.rationale);
    if !f.sources.is_empty() {
        s.push_str("\nSources:\n");
        for src in &f.sources {
            let label = src.title.as_deref().unwrap_or("manual");
            let mut line = match &src.url {
                Some(u) => format!("- [{label}]({u})"),
                None => format!("- {label}"),
            };
            if let Some(sec) = &src.section {
                line.push_str(&format!(", {sec}"));
            }
            s.push_str(&line);
            s.push('\n');
        }
    }
    s
}
