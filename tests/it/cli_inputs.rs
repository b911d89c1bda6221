//! Wrong inputs must not pass CI (issue 15): no option file under the given
//! paths, an unreadable path or an unknown target exits 2 with one clear
//! line, never "No problems found".

use crate::support::run::{stderr, stdout};
use std::process::Output;

fn mytune_in(dir: &std::path::Path, args: &[&str]) -> Output {
    crate::support::run::mytune_command()
        .args(args)
        .current_dir(dir)
        .env("PATH", "/nonexistent")
        .output()
        .expect("run mytune")
}

/// Exit 2, nothing on stdout that reads as a clean run, and `needle` in the
/// first line of stderr.
fn refused(o: &Output, needle: &str) {
    let (out, err) = (stdout(o), stderr(o));
    assert_eq!(o.status.code(), Some(2), "stdout:\n{out}\nstderr:\n{err}");
    assert!(!out.contains("No problems"), "{out}");
    assert!(!err.contains("No problems"), "{err}");
    let first = err.lines().next().unwrap_or_default();
    assert!(
        first.contains(needle),
        "first stderr line {first:?} lacks {needle:?}:\n{err}"
    );
}

#[test]
fn an_empty_directory_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join("emptydir")).unwrap();
    std::fs::write(d.path().join("emptydir/notes.txt"), "x").unwrap();
    let o = mytune_in(d.path(), &["lint", "--target", "mysql-8.0", "emptydir/"]);
    refused(&o, "emptydir/: no file to lint");
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn a_missing_file_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    let o = mytune_in(
        d.path(),
        &["lint", "--target", "mysql-8.0", "/nonexistent.cnf"],
    );
    refused(&o, "/nonexistent.cnf: no such file or directory");
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    for format in ["json", "sarif", "github", "markdown"] {
        let o = mytune_in(
            d.path(),
            &[
                "lint",
                "--format",
                format,
                "--target",
                "mysql-8.0",
                "/nonexistent.cnf",
            ],
        );
        refused(&o, "no such file or directory");
    }
}

#[test]
fn an_unreadable_path_is_an_error() {
    // Root reads every mode, so make the path unreadable by its shape: a
    // file used as a directory.
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("plain"), "").unwrap();
    let o = mytune_in(d.path(), &["lint", "--target", "mysql-8.0", "plain/my.cnf"]);
    refused(&o, "plain/my.cnf: ");
}

#[test]
fn one_bad_path_among_good_ones_is_still_exit_2_without_a_clean_summary() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("ok.cnf"), "[mysqld]\nmax_connections = 200\n").unwrap();
    let o = mytune_in(
        d.path(),
        &[
            "lint",
            "--target",
            "mysql-8.0",
            "--fail-on",
            "crit",
            "ok.cnf",
            "missing.cnf",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!stdout(&o).contains("No problems"), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("missing.cnf: no such file or directory"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn every_path_excluded_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("my.cnf"), "[mysqld]\n").unwrap();
    let o = mytune_in(
        d.path(),
        &[
            "lint",
            "--target",
            "mysql-8.0",
            "--exclude",
            "*.cnf",
            "my.cnf",
        ],
    );
    refused(&o, "nothing to lint");
}

#[test]
fn an_unknown_target_is_a_usage_error() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("my.cnf"), "[mysqld]\n").unwrap();
    for cmd in [
        vec!["lint", "--target", "mysql-4.1", "my.cnf"],
        vec![
            "gen-cnf",
            "--target",
            "mysql-4.1",
            "--memory",
            "8G",
            "--cpus",
            "4",
        ],
    ] {
        let o = mytune_in(d.path(), &cmd);
        refused(&o, "no variable catalog for mysql-4.1");
        assert!(stderr(&o).contains("mysql-8.0"), "names the supported ones");
    }
}

#[test]
fn an_unknown_target_in_mytune_toml_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("mytune.toml"), "target = \"mysql-4.1\"\n").unwrap();
    std::fs::write(d.path().join("my.cnf"), "[mysqld]\n").unwrap();
    let o = mytune_in(d.path(), &["lint", "my.cnf"]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(2), "{out}\n{err}");
    assert!(!out.contains("No problems"), "{out}");
    assert!(err.contains("mysql-4.1"), "{err}");
}
