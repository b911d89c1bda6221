//! No output of mytune carries a secret of an option file or a server
//! (issue 50, point 5): lint's fix edits in JSON and SARIF, `--diff`,
//! baselines, every other lint format, and `check`/`collect` against a
//! throw-away server whose option file holds `report_password` and
//! `wsrep_sst_auth`. Every secret in these tests contains `S3cret`, so one
//! search of each output proves it.

use crate::support::mariadb;
use crate::support::report_schema;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

/// Duplicated credentials (MT006: `--fix` comments the first of each
/// out) and, further down, a duplicate without a secret whose hunk
/// `--diff` still shows.
const FILE: &str = "[mysqld]
report-password = S3cretA
report_password = S3cretB
wsrep-sst-auth = \"root:S3cretC\"
wsrep_sst_auth = root:S3cretD
# one
# two
# three
# four
# five
# six
# seven
max_connections = 100
max_connections = 200
";

fn mytune(args: &[&str]) -> Output {
    crate::support::run::mytune_command()
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run mytune")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn assert_no_secret(what: &str, s: &str) {
    assert!(!s.contains("S3cret"), "{what} shows a secret:\n{s}");
}

fn fixture() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    fs::write(&path, FILE).unwrap();
    let p = path.to_str().unwrap().to_string();
    (dir, p)
}

fn lint(path: &str, extra: &[&str]) -> Output {
    let mut args = vec!["lint", "--target", "mariadb-10.11"];
    args.extend_from_slice(extra);
    args.push(path);
    mytune(&args)
}

#[test]
fn lint_json_masks_the_secrets_of_fix_edits() {
    let (_dir, p) = fixture();
    let out = lint(&p, &["--format", "json"]);
    assert_no_secret("lint --format json", &text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    report_schema::validate(&v);
    let fixes: Vec<&serde_json::Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f.get("fix"))
        .collect();
    let masked: Vec<&&serde_json::Value> = fixes.iter().filter(|f| f["masked"] == true).collect();
    assert_eq!(masked.len(), 2, "{fixes:#?}");
    let edit = masked[0]["edits"][0]["text"].as_str().unwrap();
    assert!(edit.ends_with("report-password = ***"), "{edit}");
    // The fix without a secret is whole, and says nothing of masking.
    assert!(
        fixes.iter().any(|f| f.get("masked").is_none()
            && f["edits"][0]["text"]
                .as_str()
                .unwrap()
                .contains("max_connections = 100")),
        "{fixes:#?}"
    );
}

/// MariaDB takes `report_pass` as `report_password`; `--fix` writes the
/// full name, and the edit still shows no password.
#[test]
fn lint_json_masks_an_abbreviated_credential() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    fs::write(&path, "[mysqld]\nreport_pass = S3cretQ\n").unwrap();
    let out = lint(path.to_str().unwrap(), &["--format", "json"]);
    assert_no_secret("lint --format json", &text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fix = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|f| f.get("fix"))
        .expect("the prefix is fixed");
    assert_eq!(fix["edits"][0]["text"], "report_password = ***", "{fix:#}");
    assert_eq!(fix["masked"], true);
}

#[test]
fn lint_sarif_leaves_out_the_edits_of_secret_lines() {
    let (_dir, p) = fixture();
    let out = lint(&p, &["--format", "sarif"]);
    assert_no_secret("lint --format sarif", &text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    let about = |var: &str| -> Vec<&serde_json::Value> {
        results
            .iter()
            .filter(|r| r["ruleId"] == "MT006" && r["properties"]["variable"] == var)
            .collect()
    };
    for r in about("report_password")
        .into_iter()
        .chain(about("wsrep_sst_auth"))
    {
        assert!(r.get("fixes").is_none(), "{r:#}");
        let m = r["message"]["text"].as_str().unwrap();
        assert!(
            m.contains("`mytune lint --fix` mends it") && m.contains("holds a secret"),
            "{m}"
        );
    }
    let plain = about("max_connections");
    assert!(plain.iter().all(|r| r.get("fixes").is_some()), "{plain:#?}");
}

#[test]
fn lint_text_github_and_markdown_show_no_secret() {
    let (_dir, p) = fixture();
    for format in ["text", "github", "markdown"] {
        let out = lint(&p, &["--format", format]);
        assert_no_secret(format, &text(&out));
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("report_password"),
            "{format}"
        );
    }
}

#[test]
fn lint_diff_leaves_out_hunks_with_secrets_and_says_fix_applies_them() {
    let (dir, p) = fixture();
    let out = lint(&p, &["--diff"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_no_secret("lint --diff", &format!("{stdout}{stderr}"));
    // The hunk of the line without a secret is shown, and applies.
    assert!(stdout.contains("-max_connections = 100\n"), "{stdout}");
    assert!(
        !stdout.contains("report") && !stdout.contains("wsrep"),
        "{stdout}"
    );
    assert!(
        stderr.contains("1 change(s) to") && stderr.contains("`mytune lint --fix` applies them"),
        "{stderr}"
    );
    // Paths as given: relative ones, so that `patch -p0` takes them.
    let out = crate::support::run::mytune_command()
        .current_dir(dir.path())
        .args(["lint", "--target", "mariadb-10.11", "--diff", "my.cnf"])
        .output()
        .unwrap();
    let relative = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        relative.starts_with("--- my.cnf\n+++ my.cnf\n"),
        "{relative}"
    );
    // What is shown applies as it stands (patch is part of any build host).
    let mut patch = Command::new("patch")
        .current_dir(dir.path())
        .args(["--dry-run", "-p0"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("patch (GNU patch) is installed");
    {
        use std::io::Write;
        let mut stdin = patch.stdin.take().unwrap();
        stdin.write_all(relative.as_bytes()).unwrap();
    }
    let done = patch.wait_with_output().unwrap();
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stdout)
    );
    // --fix applies what --diff left out: the credentials are still there,
    // only their first, ignored lines are commented out.
    let out = lint(&p, &["--fix"]);
    assert_no_secret("lint --fix", &text(&out));
    let fixed = fs::read_to_string(&p).unwrap();
    assert!(fixed.contains("\nreport_password = S3cretB\n"), "{fixed}");
    assert!(
        fixed.contains("# mytune: dropped, set again at line 3: report-password = S3cretA"),
        "{fixed}"
    );
}

#[test]
fn lint_baseline_holds_no_secret_nor_a_hash_of_one() {
    let (dir, p) = fixture();
    let baseline = dir.path().join("baseline.txt");
    let out = lint(&p, &["--write-baseline", baseline.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    let written = fs::read_to_string(&baseline).unwrap();
    assert_no_secret("the baseline", &written);
    // Another password on the same line keeps the entry matching: the
    // fingerprint was taken without the value.
    let other = FILE.replace("S3cretA", "S3cretZ");
    fs::write(&p, other).unwrap();
    let out = lint(
        &p,
        &["--baseline", baseline.to_str().unwrap(), "--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["findings"].as_array().unwrap().len(), 0, "{v:#}");
}

/// `check` and `collect` on a server whose option file holds credentials:
/// the running values are not stored, and the file's lines are not quoted.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn check_and_collect_show_no_secret_of_the_server_or_its_file() {
    let cnf =
        "report_password = S3cretOld\nreport_password = S3cretG\nwsrep_sst_auth = root:S3cretH\n";
    let Some(server) = mariadb::TestServer::start(cnf) else {
        return;
    };
    assert_eq!(
        server.sql("SELECT @@report_password").unwrap().trim(),
        "S3cretG",
        "the server runs with the secret"
    );
    let config = server.dir().join("my.cnf");
    let config = config.to_str().unwrap();
    let base = server.mytune_args();
    let run = |extra: &[&str]| {
        let mut args: Vec<&str> = vec!["check"];
        args.extend(base.iter().map(String::as_str));
        args.extend_from_slice(&["--config", config]);
        args.extend_from_slice(extra);
        mytune(&args)
    };
    for format in ["text", "json", "markdown"] {
        let out = run(&["--format", format, "-v"]);
        assert!(
            out.status.code().is_some_and(|c| c < 2),
            "{format}: {}",
            text(&out)
        );
        assert_no_secret(&format!("check --format {format}"), &text(&out));
    }
    let mut args: Vec<&str> = vec!["collect"];
    args.extend(base.iter().map(String::as_str));
    let out = mytune(&args);
    assert!(out.status.success(), "{}", text(&out));
    assert_no_secret("collect", &text(&out));
    let snapshot = Path::new(server.dir()).join("snap.json");
    fs::write(&snapshot, &out.stdout).unwrap();
    let out = mytune(&[
        "check",
        "--snapshot",
        snapshot.to_str().unwrap(),
        "--config",
        config,
    ]);
    assert_no_secret("check --snapshot", &text(&out));
}
