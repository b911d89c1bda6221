//! Sources users can follow: every text a user reads names the articles by
//! their public titles and the manuals by their pages, never by the project's
//! internal names for them (a word "seed", a file name like
//! `000_c0584d0eda19c705.txt`). Checked on every rule's `explain` (text and
//! JSON), its message, rationale and sources, the rule listing and reference,
//! the generated files' comments, and lint and check reports in every format.

use std::path::Path;

use crate::support::run::mytune;
use mytune::rules::articles::ARTICLES;
use mytune::rules::{RuleSet, docs};

/// stdout and stderr of a run that must not fail with a usage or load error.
fn run(args: &[&str]) -> String {
    let o = mytune(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        matches!(o.status.code(), Some(0) | Some(1)),
        "mytune {args:?} exited {:?}: {err}",
        o.status.code()
    );
    String::from_utf8_lossy(&o.stdout).into_owned() + &err
}

/// A file name of the source documents: three digits, `_`, 16 hex digits, `.txt`.
fn has_source_file_name(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    (0..b.len()).find_map(|i| {
        let end = i + 3 + 1 + 16 + 4;
        if end > b.len() {
            return None;
        }
        let ok = b[i..i + 3].iter().all(u8::is_ascii_digit)
            && b[i + 3] == b'_'
            && b[i + 4..i + 20]
                .iter()
                .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
            && &b[i + 20..end] == b".txt";
        ok.then(|| &text[i..end])
    })
}

/// Every offending line of `text`, labelled with `what`.
fn offences(what: &str, text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.to_lowercase().contains("seed") || has_source_file_name(l).is_some())
        .map(|l| format!("{what}: {l}"))
        .collect()
}

fn assert_clean(found: Vec<String>) {
    assert!(
        found.is_empty(),
        "user-facing text names the sources internally ({} lines):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_file_name_detector_works() {
    assert_eq!(
        has_source_file_name("see 000_c0584d0eda19c705.txt, §1.2.2"),
        Some("000_c0584d0eda19c705.txt")
    );
    assert_eq!(has_source_file_name("§1.2.2 of Mysql单节点调优"), None);
    assert_eq!(offences("x", "a Seed 000 b").len(), 1);
}

#[test]
fn every_rule_cites_by_title() {
    let set = RuleSet::builtin().expect("built-in rules load");
    let mut found = Vec::new();
    for r in set.rules() {
        found.extend(offences(&format!("{} message", r.code), &r.message.text));
        found.extend(offences(&format!("{} rationale", r.code), &r.rationale));
        for s in &r.sources {
            found.extend(offences(&format!("{} source", r.code), &s.to_string()));
            if s.article.is_some() {
                let title = s.title.as_deref().unwrap_or_default();
                assert!(
                    ARTICLES.iter().any(|a| a.citation() == title),
                    "{}: an article source shows the registry's title, got {title:?}",
                    r.code
                );
            }
        }
        found.extend(offences(
            &format!("{} docs::explain", r.code),
            &docs::explain(r, 100),
        ));
    }
    found.extend(offences(
        "rules reference",
        &mytune::registry::markdown(&set),
    ));
    assert_clean(found);
}

#[test]
fn explain_and_rules_commands_cite_by_title() {
    let set = RuleSet::builtin().expect("built-in rules load");
    let mut found = Vec::new();
    for r in set.rules() {
        let code = r.code.as_str();
        found.extend(offences(
            &format!("explain {code}"),
            &run(&["explain", code]),
        ));
        let json = run(&["explain", code, "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&json).expect("explain JSON");
        for s in v["sources"].as_array().expect("sources") {
            assert!(s.get("seed").is_none(), "{code}: {s}");
            if s.get("article").is_some() {
                assert!(
                    s["title"].is_string(),
                    "{code}: an article source has a title: {s}"
                );
            }
        }
        found.extend(offences(&format!("explain {code} --format json"), &json));
    }
    for format in ["table", "json", "markdown"] {
        found.extend(offences(
            &format!("rules --format {format}"),
            &run(&["rules", "--format", format]),
        ));
    }
    assert_clean(found);
}

#[test]
fn generated_files_cite_by_title() {
    let hosts: [&[&str]; 2] = [
        &["--target", "mariadb-10.11", "--memory", "8G", "--cpus", "4"],
        &[
            "--target",
            "percona-8.0",
            "--memory",
            "64G",
            "--cpus",
            "24",
            "--connections",
            "100000",
        ],
    ];
    let mut found = Vec::new();
    for host in hosts {
        for cmd in ["gen-cnf", "gen-sysctl", "gen-limits"] {
            let mut args = vec![cmd];
            args.extend_from_slice(host);
            let out = run(&args);
            assert!(!out.trim().is_empty(), "{args:?} printed nothing");
            found.extend(offences(&args.join(" "), &out));
        }
        let mut args = vec!["gen-cnf", "--durability", "relaxed", "--workload", "olap"];
        args.extend_from_slice(host);
        found.extend(offences(&args.join(" "), &run(&args)));
    }
    assert_clean(found);
}

#[test]
fn lint_and_check_reports_cite_by_title() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    // The example files are named after the articles' internal numbers; lint
    // copies under a neutral name so that only the report itself is judged.
    let mut found = Vec::new();
    for (example, target) in [
        ("examples/seed000-1gb-vps.cnf", "mysql-8.0"),
        ("examples/seed000-best-practice.cnf", "mariadb-10.11"),
        ("examples/seed003-100k-connections.cnf", "percona-8.0"),
        ("examples/seed002-my.cnf", "mysql-5.7"),
    ] {
        let cnf = dir.path().join("my.cnf");
        std::fs::copy(root.join(example), &cnf).unwrap();
        let cnf = cnf.to_str().unwrap();
        for format in ["text", "json", "sarif", "markdown", "github"] {
            let out = run(&["lint", "--target", target, "--format", format, cnf]);
            found.extend(offences(&format!("lint {example} --format {format}"), &out));
        }
    }
    for snapshot in [
        "cachelog-mysql57-busy-16g-8cpu.json",
        "conmem-busy-mariadb1011-32g-16cpu.json",
        "innodb-mysql80-64g-32cpu.json",
    ] {
        let path = root.join("tests/fixtures/snapshots").join(snapshot);
        let path = path.to_str().unwrap();
        for format in ["text", "json", "markdown"] {
            let out = run(&["check", "--snapshot", path, "--format", format]);
            found.extend(offences(
                &format!("check {snapshot} --format {format}"),
                &out,
            ));
        }
    }
    assert_clean(found);
}
