//! The seed configs in examples/ produce the findings their problems
//! deserve. The plumbing (sysctl file → host facts → rule → finding on the
//! line) is tested now with the fixture rules of tests/fixtures/lint/rules;
//! the same expectations against the built-in catalog wait for the OS and
//! security rules of issue 5 and are ignored until they land. Those tests
//! assert the line a finding points at and its severity, not a code, so
//! they hold whatever codes the catalog picks.

use crate::support::run::mytune;
use std::process::Output;

/// (line, code, severity, family) of the findings located in `file`.
fn located(o: &Output, file: &str) -> Vec<(u64, String, String, String)> {
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON report");
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["location"]["file"] == file)
        .map(|f| {
            (
                f["location"]["line"].as_u64().unwrap(),
                f["code"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
                f["family"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn line_of(file: &str, starts: &str) -> u64 {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .position(|l| l.starts_with(starts))
        .unwrap_or_else(|| panic!("{starts} not in {file}")) as u64
        + 1
}

const S000: &str = "examples/seed000-sysctl.conf";
const S003: &str = "examples/seed003-sysctl.conf";
const S002: &str = "examples/seed002-my.cnf";

#[test]
fn seed_files_reach_the_rules_through_the_fixture_catalog() {
    let rules = "tests/fixtures/lint/rules";
    let o = mytune(&["lint", "--rules", rules, "--format", "json", S000]);
    let f = located(&o, S000);
    let tw = line_of(S000, "net.ipv4.tcp_tw_recycle");
    assert!(
        f.iter()
            .any(|(l, c, s, _)| *l == tw && c == "MT899" && s == "crit"),
        "{f:?}"
    );

    let o = mytune(&["lint", "--rules", rules, "--format", "json", S002]);
    let f = located(&o, S002);
    let sgt = line_of(S002, "skip_grant_tables");
    assert!(
        f.iter()
            .any(|(l, c, s, _)| *l == sgt && c == "MT799" && s == "crit"),
        "{f:?}"
    );
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn seed003_sysctl_is_read_completely() {
    // Every line of the Ansible list is a valid sysctl line: no MT010.
    let o = mytune(&["lint", "--format", "json", S003]);
    assert!(matches!(o.status.code(), Some(0 | 1)));
    assert!(located(&o, S003).iter().all(|(_, c, _, _)| c != "MT010"));
}

#[test]
fn seed000_sysctl_flags_tcp_tw_recycle() {
    let o = mytune(&["lint", "--format", "json", S000]);
    let f = located(&o, S000);
    let tw = line_of(S000, "net.ipv4.tcp_tw_recycle");
    assert!(
        f.iter().any(|(l, _, _, fam)| *l == tw && fam == "os"),
        "{f:?}"
    );
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn seed003_sysctl_flags_timestamps_with_reuse_and_sack() {
    let o = mytune(&["lint", "--format", "json", S003]);
    let f = located(&o, S003);
    for key in ["net.ipv4.tcp_timestamps", "net.ipv4.tcp_sack"] {
        let line = line_of(S003, key);
        assert!(
            f.iter().any(|(l, _, _, fam)| *l == line && fam == "os"),
            "{key}: {f:?}"
        );
    }
}

#[test]
fn seed002_skip_grant_tables_is_crit() {
    let o = mytune(&["lint", "--format", "json", S002]);
    let f = located(&o, S002);
    let sgt = line_of(S002, "skip_grant_tables");
    assert!(
        f.iter()
            .any(|(l, _, s, fam)| *l == sgt && s == "crit" && fam == "security"),
        "{f:?}"
    );
}

#[test]
fn explain_knows_the_lint_checks() {
    let o = mytune(&["explain", "MT009"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("MT009 unused-suppression\n"), "{out}");
    let o = mytune(&["explain", "--format", "json", "mt002"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["name"], "unknown-option");
    assert_eq!(mytune(&["explain", "MT0999"]).status.code(), Some(2));
}
