//! One fixture and one expected output per lint check: each directory of
//! `tests/fixtures/lint-checks/` is named for a check's code and holds the
//! files it lints, `args` (the arguments of `mytune lint`, one a line) and
//! `expected.txt` (the checks' findings of the run, `file:line CODE
//! severity: message`, tuning rules left out). A check without a fixture,
//! a fixture that does not show its check, or an output that changed fails
//! here by name. `MYTUNE_BLESS=1` writes the expected files anew; read the
//! diff before committing it.

use std::path::{Path, PathBuf};

use crate::support::run::mytune_command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lint-checks")
}

/// The built-in checks' findings of `mytune lint ARGS` in `dir`, one a line.
fn findings(dir: &Path) -> String {
    let args = std::fs::read_to_string(dir.join("args")).expect("an args file");
    let out = mytune_command()
        .arg("lint")
        .args(args.lines().filter(|l| !l.is_empty()))
        .args(["--format", "json"])
        .current_dir(dir)
        .output()
        .expect("run mytune");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: no JSON report ({e}): {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let mut lines = Vec::new();
    for f in v["findings"].as_array().expect("findings") {
        if f["family"] != "config" {
            continue;
        }
        let loc = &f["location"];
        lines.push(format!(
            "{}:{} {} {}: {}",
            loc["file"].as_str().unwrap_or("-"),
            loc["line"].as_u64().unwrap_or(0),
            f["code"].as_str().unwrap_or("?"),
            f["severity"].as_str().unwrap_or("?"),
            f["message"].as_str().unwrap_or("")
        ));
    }
    lines.join("\n") + "\n"
}

#[test]
fn every_lint_check_has_a_fixture_whose_output_is_its_snapshot() {
    let mut failures = Vec::new();
    let lint = mytune::checks::ALL
        .iter()
        .filter(|c| c.runs == mytune::rules::builtin_check::Runs::Lint);
    for check in lint {
        let dir = fixtures().join(check.code.as_str());
        if !dir.is_dir() {
            failures.push(format!(
                "{} ({}): no fixture in {}",
                check.code,
                check.name,
                dir.display()
            ));
            continue;
        }
        let got = findings(&dir);
        if !got.contains(&format!(" {} ", check.code)) {
            failures.push(format!(
                "{}: the fixture does not show it:\n{got}",
                check.code
            ));
        }
        crate::support::snapshots::expect_output(
            &check.code,
            &dir.join("expected.txt"),
            &got,
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
