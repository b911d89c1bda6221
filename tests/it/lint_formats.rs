//! Output formats of `mytune lint` on one fixture project: SARIF validated
//! against the official SARIF 2.1.0 JSON schema (vendored in
//! tests/fixtures/sarif/, as shipped in the serde-sarif crate, `$id`
//! https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json),
//! GitHub annotations, Markdown and JSON checked structurally.

use std::process::Output;

const PROJECT: &str = "tests/fixtures/lint/project";
const RULES: &str = "tests/fixtures/lint/rules";

/// The official file's `language` pattern
/// (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`, on `run` and
/// `toolComponent`) has a stray `]` that Rust regex engines refuse, so the
/// schema would not compile with it.
const BROKEN_PATTERN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";

/// The vendored schema less that broken pattern: mytune never writes a
/// `language`, so dropping it loses no check of our output.
fn sarif_schema() -> serde_json::Value {
    fn strip(v: &mut serde_json::Value, removed: &mut usize) {
        match v {
            serde_json::Value::Object(m) => {
                if m.get("pattern").and_then(|p| p.as_str()) == Some(BROKEN_PATTERN) {
                    m.remove("pattern");
                    *removed += 1;
                }
                m.values_mut().for_each(|v| strip(v, removed));
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(|v| strip(v, removed)),
            _ => {}
        }
    }
    let mut schema: serde_json::Value =
        serde_json::from_str(include_str!("../fixtures/sarif/sarif-schema-2.1.0.json")).unwrap();
    let mut removed = 0;
    strip(&mut schema, &mut removed);
    assert_eq!(removed, 2, "the vendored schema changed");
    schema
}

/// The log validates against the vendored SARIF 2.1.0 schema.
fn assert_valid_sarif(log: &serde_json::Value) {
    let schema = sarif_schema();
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "SARIF schema errors:\n{}",
        errors.join("\n")
    );
}

fn lint(format: &str) -> Output {
    crate::support::run::mytune_command()
        .args(["lint", "--rules", RULES, "--format", format, PROJECT])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run mytune")
}

#[test]
fn sarif_validates_against_the_schema_and_carries_rule_metadata() {
    let o = lint("sarif");
    assert_eq!(o.status.code(), Some(1));
    let log: serde_json::Value = serde_json::from_slice(&o.stdout).expect("SARIF is JSON");
    assert_valid_sarif(&log);

    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "mytune");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in results {
        let idx = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(
            rules[idx]["id"], r["ruleId"],
            "ruleIndex points at its rule"
        );
        let region = &r["locations"][0]["physicalLocation"]["region"];
        assert!(region["startLine"].as_u64().unwrap() >= 1);
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        assert!(uri.starts_with("tests/fixtures/lint/project/"), "{uri}");
    }
    let mt004 = rules.iter().find(|r| r["id"] == "MT004").unwrap();
    assert_eq!(mt004["name"], "option-deprecated");
    assert!(
        mt004["helpUri"]
            .as_str()
            .unwrap()
            .starts_with("https://dev.mysql.com/")
    );
    assert!(
        mt004["help"]["text"]
            .as_str()
            .unwrap()
            .contains("Deprecated options")
    );
    let deprecated = results.iter().find(|r| r["ruleId"] == "MT004").unwrap();
    // mytune.toml turns MT004 into crit: SARIF error.
    assert_eq!(deprecated["level"], "error");
    assert_eq!(
        deprecated["locations"][0]["physicalLocation"]["region"]["startLine"],
        6
    );
    let somaxconn = results.iter().find(|r| r["ruleId"] == "MT898").unwrap();
    assert_eq!(somaxconn["level"], "warning");
    assert!(
        somaxconn["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("etc/sysctl.d/90-db.conf")
    );
}

#[test]
fn sarif_of_a_clean_run_is_valid_too() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("clean my.cnf");
    std::fs::write(&f, "[client]\nport = 3306\n").unwrap();
    let o = crate::support::run::mytune_command()
        .args(["lint", "--format", "sarif", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let log: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let schema = sarif_schema();
    assert!(jsonschema::is_valid(&schema, &log));
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 0);
}

#[test]
fn github_annotations() {
    let o = lint("github");
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert!(!lines.is_empty());
    assert!(lines.iter().all(|l| l.starts_with("::error ")
        || l.starts_with("::warning ")
        || l.starts_with("::notice ")));
    assert!(lines.contains(&"::error file=tests/fixtures/lint/project/etc/mysql/my.cnf,line=6,col=1,title=MT004 option-deprecated::expire_logs_days is deprecated since MySQL 8.0.3; use binlog_expire_logs_seconds instead (`mytune lint --fix` mends it: replace expire_logs_days with binlog_expire_logs_seconds)"), "{out}");
    assert!(
        lines.iter().any(|l| l
            .starts_with("::notice file=tests/fixtures/lint/project/etc/mysql/my.cnf,line=7,")
            && l.contains("title=MT301 ")),
        "{out}"
    );
    // Property values escape ',' and ':'.
    assert!(
        lines
            .iter()
            .all(|l| l.split("::").nth(1).unwrap().matches("title=").count() == 1)
    );
}

#[test]
fn markdown_table() {
    let o = lint("markdown");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("## mytune lint\n"), "{out}");
    assert!(out.contains("| severity | code | location | message |"));
    assert!(out.contains(
        "| crit | [MT004](https://dev.mysql.com/doc/refman/8.0/en/added-deprecated-removed.html \"option-deprecated\") | <code>tests/fixtures/lint/project/etc/mysql/my.cnf:6:1</code> |"
    ), "{out}");
    let rows = out
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| severity"))
        .count();
    let json: serde_json::Value = serde_json::from_slice(&lint("json").stdout).unwrap();
    assert_eq!(rows, json["findings"].as_array().unwrap().len());
}

#[test]
fn json_and_text_agree() {
    let json: serde_json::Value = serde_json::from_slice(&lint("json").stdout).unwrap();
    let text = String::from_utf8_lossy(&lint("text").stdout).into_owned();
    let n = json["findings"].as_array().unwrap().len();
    // The target line, one line per finding, the summary, and how many
    // of them --fix mends.
    let fixable = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f.get("fix").is_some())
        .count();
    assert!(fixable > 0);
    assert_eq!(text.lines().count(), n + 3, "{text}");
    assert!(
        text.ends_with(&format!(
            "{fixable} of them can be fixed with `mytune lint --fix` (`--diff` shows how).\n"
        )),
        "{text}"
    );
    assert!(
        text.starts_with(
            "mytune lint: target mysql-8.0.41 (tests/fixtures/lint/project/mytune.toml)\n"
        ),
        "{text}"
    );
    assert_eq!(
        json["target_origin"],
        "tests/fixtures/lint/project/mytune.toml"
    );
    assert!(text.contains(&format!(
        "\nFound {n} problems ({} crit, {} warn, {} info) in 5 files for mysql-8.0.41.\n",
        json["summary"]["crit"], json["summary"]["warn"], json["summary"]["info"]
    )));
}

/// A finding `lint --fix` mends carries the edit as a SARIF fix (a
/// replacement of the line's text), and the GitHub annotation names the
/// fix.
#[test]
fn sarif_carries_fixes_and_github_points_to_lint_fix() {
    let run = |format: &str| {
        crate::support::run::mytune_command()
            .args([
                "lint",
                "--target",
                "mysql-8.0",
                "--format",
                format,
                "tests/fixtures/fix/mixed.cnf",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("run mytune")
    };
    let o = run("sarif");
    let log: serde_json::Value = serde_json::from_slice(&o.stdout).expect("SARIF is JSON");
    assert_valid_sarif(&log);
    let results = log["runs"][0]["results"].as_array().unwrap();
    let tx = results
        .iter()
        .find(|r| {
            r["ruleId"] == "MT003"
                && r["message"]["text"]
                    .as_str()
                    .unwrap()
                    .starts_with("tx_isolation")
        })
        .unwrap();
    let change = &tx["fixes"][0]["artifactChanges"][0];
    assert_eq!(
        change["artifactLocation"]["uri"],
        "tests/fixtures/fix/mixed.cnf"
    );
    let rep = &change["replacements"][0];
    let old = "  tx-isolation = READ-COMMITTED   # the old name, with its comment kept";
    assert_eq!(rep["deletedRegion"]["startLine"], 3);
    assert_eq!(rep["deletedRegion"]["startColumn"], 1);
    assert_eq!(rep["deletedRegion"]["endColumn"], old.chars().count() + 1);
    assert_eq!(
        rep["insertedContent"]["text"],
        "  transaction-isolation = READ-COMMITTED   # the old name, with its comment kept"
    );
    // Not mechanical: no fix.
    let unsafe_line = results
        .iter()
        .find(|r| {
            r["message"]["text"]
                .as_str()
                .unwrap()
                .starts_with("innodb_locks_unsafe_for_binlog")
        })
        .unwrap();
    assert!(unsafe_line.get("fixes").is_none());

    let gh = String::from_utf8(run("github").stdout).unwrap();
    let line = gh
        .lines()
        .find(|l| l.contains("tx_isolation was removed"))
        .unwrap();
    assert!(
        line.contains("`mytune lint --fix` mends it: rename")
            || line.contains("`mytune lint --fix` mends it: replace"),
        "{line}"
    );
    let text = String::from_utf8(run("text").stdout).unwrap();
    assert!(
        text.contains("of them can be fixed with `mytune lint --fix`"),
        "{text}"
    );
}
