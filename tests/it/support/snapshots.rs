//! The made-up facts snapshots of `tests/fixtures/snapshots/` and the small
//! lookups on an evaluation that the rule tests share. Use with
//! `#[path = "support/snapshots.rs"] mod snapshots;`.

#![allow(dead_code)]

use std::path::Path;

use mytune::facts::{Facts, ServerFacts};
use mytune::rules::{Evaluation, Finding};

/// Read `tests/fixtures/snapshots/NAME` as facts.
pub fn snapshot(name: &str) -> Facts {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/snapshots")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("snapshot exists");
    Facts::from_json(&text).expect("snapshot parses")
}

/// The findings of one rule.
pub fn findings<'a>(ev: &'a Evaluation, code: &str) -> Vec<&'a Finding> {
    ev.findings.iter().filter(|f| f.code == code).collect()
}

/// The finding of rule `code` about `variable`; panics when there is none.
pub fn one<'a>(ev: &'a Evaluation, code: &str, variable: &str) -> &'a Finding {
    ev.findings
        .iter()
        .find(|f| f.code == code && f.variable.as_deref() == Some(variable))
        .unwrap_or_else(|| panic!("no {code} finding for {variable}: {:#?}", ev.findings))
}

/// Why rule `code` was not applicable (empty when it was).
pub fn not_applicable<'a>(ev: &'a Evaluation, code: &str) -> Vec<&'a str> {
    ev.not_applicable
        .iter()
        .filter(|n| n.code == code)
        .map(|n| n.reason.as_str())
        .collect()
}

/// The server facts of a snapshot that has them.
pub fn server(facts: &mut Facts) -> &mut ServerFacts {
    facts.server.as_mut().expect("server facts")
}

/// Hold `got` to the expected-output file `path` (`MYTUNE_BLESS=1`: write
/// it instead); a difference is pushed to `failures` under `code`.
pub fn expect_output(code: &str, path: &Path, got: &str, failures: &mut Vec<String>) {
    if std::env::var_os("MYTUNE_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(path, got).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if got != expected {
        failures.push(format!(
            "{code}: output changed (MYTUNE_BLESS=1 writes it anew)\n--- expected\n{expected}--- got\n{got}"
        ));
    }
}
