//! One default target story for `mytune lint` (issue 15): `--target`, else
//! the file's mytune.toml, else the server installed on this host (by its
//! binary's `--version`), else mysql-8.0; the text report's first line and
//! the JSON field `target_origin` say which.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Output;

/// Run mytune in `dir` with PATH holding only `bin` (a fake server binary,
/// found before /usr/sbin).
fn lint_in(dir: &Path, bin: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut c = crate::support::run::mytune_command();
    // These tests are about looking the server up: turn it back on.
    c.arg("lint")
        .args(args)
        .current_dir(dir)
        .env("PATH", bin)
        .env_remove("MYTUNE_DETECT_SERVER");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run mytune")
}

fn first_line(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// A project dir with my.cnf, and a bin dir whose `mariadbd --version`
/// says MariaDB 11.4.5.
fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("my.cnf"), "[mysqld]\nmax_connections = 200\n").unwrap();
    let bin = d.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let fake = bin.join("mariadbd");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho 'mariadbd  Ver 11.4.5-MariaDB-1 for debian-linux-gnu on x86_64 (Debian)'\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    (d, bin)
}

#[test]
fn the_installed_server_is_the_default() {
    let (d, bin) = setup();
    let o = lint_in(d.path(), &bin, &[], &["my.cnf"]);
    assert_eq!(
        first_line(&o),
        "mytune lint: target mariadb-11.4.5 (the server installed on this host)",
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = lint_in(d.path(), &bin, &[], &["--format", "json", "my.cnf"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["target"], "mariadb-11.4.5");
    assert_eq!(v["target_origin"], "the server installed on this host");
}

#[test]
fn mytune_toml_beats_the_installed_server_and_target_beats_both() {
    let (d, bin) = setup();
    std::fs::write(d.path().join("mytune.toml"), "target = \"mysql-8.4\"\n").unwrap();
    let o = lint_in(d.path(), &bin, &[], &["my.cnf"]);
    let line = first_line(&o);
    assert!(line.starts_with("mytune lint: target mysql-8.4"), "{line}");
    assert!(line.ends_with(" (mytune.toml)"), "{line}");
    let o = lint_in(d.path(), &bin, &[], &["--target", "mariadb-10.6", "my.cnf"]);
    assert!(
        first_line(&o).starts_with("mytune lint: target mariadb-10.6")
            && first_line(&o).ends_with("(--target)"),
        "{}",
        first_line(&o)
    );
}

#[test]
fn without_a_server_the_default_is_mysql_80() {
    let (d, bin) = setup();
    let o = lint_in(
        d.path(),
        &bin,
        &[("MYTUNE_DETECT_SERVER", "0")],
        &["my.cnf"],
    );
    let line = first_line(&o);
    assert!(line.starts_with("mytune lint: target mysql-8.0"), "{line}");
    assert!(line.ends_with(" (default)"), "{line}");
}

#[test]
fn percona_8_4_and_pxc_5_7_and_8_4_have_catalogs_of_their_own() {
    let (d, bin) = setup();
    for (t, release) in [
        ("percona-8.4", "percona-8.4"),
        ("pxc-5.7", "pxc-5.7.24"),
        ("pxc-8.4", "pxc-8.4"),
    ] {
        let o = lint_in(d.path(), &bin, &[], &["--target", t, "my.cnf"]);
        assert_eq!(
            first_line(&o),
            format!("mytune lint: target {release} (--target)"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("older than the oldest catalog"), "{t}: {err}");
    }
    // PXC 5.6 is older than every PXC catalog: 5.7's stands in, and says so.
    let o = lint_in(d.path(), &bin, &[], &["--target", "pxc-5.6", "my.cnf"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("Percona XtraDB Cluster 5.6 is older than the oldest catalog, 5.7"),
        "{err}"
    );
}

/// A series without a catalog of its own gets the same explicit note for
/// every flavor, older, newer or between (issue 52: `mysql-9.9` silently
/// used 8.4's catalog while `mariadb-10.5` got a note).
#[test]
fn every_series_without_a_catalog_of_its_own_is_named_in_a_note() {
    let (d, bin) = setup();
    for (t, says) in [
        (
            "mysql-9.9",
            "MySQL 9.9 is newer than the newest catalog, 8.4: findings use 8.4's",
        ),
        (
            "mariadb-10.5",
            "MariaDB 10.5 is older than the oldest catalog, 10.6: findings use 10.6's",
        ),
        (
            "mariadb-12.0",
            "MariaDB 12.0 is newer than the newest catalog, 11.4: findings use 11.4's",
        ),
        (
            "mariadb-10.8",
            "MariaDB 10.8 has no catalog of its own (the nearest is 10.6): findings use 10.6's",
        ),
        (
            "percona-9.1",
            "Percona Server 9.1 is newer than the newest catalog, 8.4",
        ),
        (
            "pxc-9.0",
            "Percona XtraDB Cluster 9.0 is newer than the newest catalog, 8.4",
        ),
        (
            "mysql-8.2",
            "MySQL 8.2 has no catalog of its own (the nearest is 8.0)",
        ),
    ] {
        let o = lint_in(d.path(), &bin, &[], &["--target", t, "my.cnf"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(&format!("note: {says}")), "{t}: {err}");
    }
    for t in [
        "mysql-8.0",
        "mysql-8.0.25",
        "mariadb-10.11",
        "percona-8.4",
        "pxc-5.7",
    ] {
        let o = lint_in(d.path(), &bin, &[], &["--target", t, "my.cnf"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("catalog"), "{t}: {err}");
    }
}
