//! `mytune rules` and `mytune explain` as a user runs them: output, formats,
//! and exit code 2 with one `file:line:col: message` line for a broken rule
//! file.

use crate::support::run::{mytune, stderr, stdout};

#[test]
fn rules_lists_the_catalog_as_a_table() {
    let o = mytune(&["rules"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for needle in [
        "code",
        "applies",
        "MT101",
        "innodb-buffer-pool-too-small",
        "mysql < 8.0; mariadb; percona < 8.0",
    ] {
        assert!(out.contains(needle), "{needle} missing from:\n{out}");
    }
}

/// The JSON listing is the registry: the built-in checks first (MT001
/// runs in lint), then the rules.
#[test]
fn rules_as_json_lists_the_builtin_checks_and_the_rules() {
    let o = mytune(&["rules", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v[0]["code"], "MT001");
    assert_eq!(v[0]["builtin"], true);
    assert_eq!(v[0]["runs"], "lint");
    assert_eq!(v[0]["family"], "config");
    let builtin = mytune::registry::builtins().len();
    assert!(v[builtin - 1]["builtin"] == true && v[builtin]["builtin"].is_null());
    let first = &v[builtin];
    assert_eq!(first["code"], "MT101");
    assert_eq!(first["name"], "innodb-buffer-pool-too-small");
    assert_eq!(first["severity"], "warn");
    assert_eq!(first["family"], "innodb");
    assert_eq!(first["applies"], "all");
}

#[test]
fn explain_prints_a_rule_in_full() {
    let o = mytune(&["explain", "MT401"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for needle in [
        "MT401 query-cache-enabled-multicore",
        "severity:   warn",
        "when:",
        "recommend:  query_cache_type = \"OFF\"",
        "Rationale:",
        "outdated",
        "Mysql单节点调优 (MySQL single-node tuning), §1.2.2",
        "https://mariadb.com/kb/en/query-cache/",
    ] {
        assert!(out.contains(needle), "{needle} missing from:\n{out}");
    }
    let o = mytune(&["explain", "MT401", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["recommend"][1]["variable"], "query_cache_size");
}

/// A built-in check is explained like a rule, in text and JSON, by code or
/// by name, and the JSON says where it runs.
#[test]
fn explain_prints_a_builtin_check_by_code_or_name() {
    let o = mytune(&["explain", "mt019"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("MT019 access-denied-burst\n"),
        "{}",
        stdout(&o)
    );
    let o = mytune(&["explain", "access-denied-burst", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["code"], "MT019");
    assert_eq!(v["runs"], "check: error log");
}

#[test]
fn explain_unknown_code_is_an_error() {
    let o = mytune(&["explain", "MT000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no rule 'MT000'"), "{}", stderr(&o));
}

#[test]
fn broken_rule_file_exits_2_with_one_located_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.toml");
    std::fs::write(
        &path,
        "[[rule]]\ncode = \"MT901\"\nname = \"x-y\"\nfamily = \"compat\"\nseverity = \"warn\"\nwhen = \"host.cpus > \"\nmessage = \"m\"\nrationale = \"r\"\n\
         [[rule.sources]]\ntitle = \"t\"\n",
    )
    .unwrap();
    for cmd in [&["rules"][..], &["explain", "MT101"][..]] {
        let mut args = cmd.to_vec();
        let d = dir.path().to_str().unwrap();
        args.extend(["--rules", d]);
        let o = mytune(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(
            err,
            format!(
                "{}:6:21: expected a value, found the end of the expression\n",
                path.display()
            )
        );
        assert!(o.stdout.is_empty());
    }
}

/// A file with several broken rules reports every one, and each rule every
/// mistake of its head (code, labels, applies) and of its body, each on
/// its own located line (cargo-deny's model).
#[test]
fn every_broken_rule_of_a_file_is_reported_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.toml");
    std::fs::write(
        &path,
        "[[rule]]\ncode = \"MT9999\"\nname = \"a\"\nfamily = \"compat\"\nseverity = \"info\"\n\
         when = \"true\"\nmessage = \"m\"\nrationale = \"r\"\n\n\
         [[rule]]\ncode = \"MT998\"\nname = \"b\"\nfamily = \"compat\"\nseverity = \"bogus\"\n\
         when = \"true\"\nmessage = \"m\"\nrationale = \"r\"\n",
    )
    .unwrap();
    let o = mytune(&["rules", "--rules", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    let at = path.display().to_string();
    // Every mistake of each rule: the first rule's code and its missing
    // sources, the second's severity and its missing sources.
    let expected = [
        "2:8: 'MT9999' is not a rule code",
        "2:8: rule MT9999 has no sources",
        "14:12: unknown severity 'bogus'",
        "11:8: rule MT998 has no sources",
    ];
    assert_eq!(lines.len(), expected.len(), "{err}");
    for (line, want) in lines.iter().zip(expected) {
        assert!(line.starts_with(&format!("{at}:{want}")), "{err}");
    }
}

/// Each kind of broken rule file, through the binary: exit code 2 and one
/// `file:line:col: message` line on stderr.
#[test]
fn every_broken_kind_is_one_located_line() {
    let head =
        "[[rule]]\ncode = \"MT901\"\nname = \"x-y\"\nfamily = \"compat\"\nseverity = \"warn\"\n";
    let tail = "message = \"m\"\nrationale = \"r\"\n[[rule.sources]]\ntitle = \"t\"\n";
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "bad TOML",
            format!("{head}when = \"true\"\n{tail}[[rule]\n"),
            ":11:8: invalid TOML: unclosed array table",
        ),
        (
            "unknown namespace",
            format!("{head}when = \"bogus.x > 1\"\n{tail}"),
            ":6:9: unknown namespace 'bogus.'",
        ),
        (
            "unknown function",
            format!("{head}when = \"frob(1) > 1\"\n{tail}"),
            ":6:9: unknown function 'frob'",
        ),
        (
            "type error",
            format!("{head}when = \"host.memory > \\\"lots\\\"\"\n{tail}"),
            ":6:",
        ),
        (
            "duplicate code",
            format!(
                "{head}when = \"true\"\n{tail}{}",
                format!("{head}when = \"true\"\n{tail}").replace("x-y", "z-w")
            ),
            ":12:8: duplicate code MT901",
        ),
    ];
    for (what, text, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.toml");
        std::fs::write(&path, &text).unwrap();
        let o = mytune(&["rules", "--rules", dir.path().to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{what}");
        let err = stderr(&o);
        let prefix = format!("{}{expected}", path.display());
        assert!(
            err.starts_with(&prefix),
            "{what}: {err:?} should start with {prefix:?}"
        );
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
    }
}
