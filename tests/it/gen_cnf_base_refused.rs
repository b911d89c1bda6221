//! `gen-cnf --base FILE` never keeps a line the server refuses silently: without
//! `--refused` such lines are an error that lists them (exit 2); `--refused
//! keep` writes them with a warning naming each; `--refused drop` comments
//! them out, saying why, and the result lints without them.

use std::path::Path;
use std::process::Output;

const BASE: &str =
    "[mysqld]\ninnodb_buffer_pool_size = 1G\nbogus_var = 5\nmax_connections = -1\n# keep me\n";

fn gen_cnf(base: &Path, extra: &[&str]) -> Output {
    crate::support::run::mytune_command()
        .args([
            "gen-cnf",
            "--target",
            "mariadb-10.11",
            "--memory",
            "4G",
            "--cpus",
            "2",
        ])
        .arg("--base")
        .arg(base)
        .args(extra)
        .output()
        .expect("mytune runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn refused_base_lines_are_an_error_unless_the_user_says_keep_or_drop() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("my.cnf");
    std::fs::write(&base, BASE).unwrap();

    let o = gen_cnf(&base, &[]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(o.stdout.is_empty());
    assert!(
        err.contains("my.cnf:3:1: unknown option bogus_var"),
        "{err}"
    );
    assert!(err.contains("my.cnf:4:1: max_connections = -1"), "{err}");
    assert!(
        err.contains("--refused keep") && err.contains("--refused drop"),
        "{err}"
    );

    let o = gen_cnf(&base, &["--refused", "keep"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(out.contains("\nbogus_var = 5\n"), "{out}");
    assert!(err.contains("kept as --refused keep asks"), "{err}");

    let o = gen_cnf(&base, &["--refused", "drop"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains("# mytune: dropped, the server refuses it: bogus_var = 5\n"),
        "{out}"
    );
    assert!(
        out.contains("# mytune: dropped, the server refuses it: max_connections = -1\n"),
        "{out}"
    );
    // Every other byte of the base stays: its comment, its group, the pool
    // edited in place on its own line.
    assert!(out.starts_with("[mysqld]\n"), "{out}");
    assert!(out.contains("\n# keep me\n"), "{out}");
    assert_eq!(out.matches("innodb_buffer_pool_size =").count(), 1, "{out}");
    // The result lints without a refusal.
    let generated = dir.path().join("generated.cnf");
    std::fs::write(&generated, &out).unwrap();
    let lint = crate::support::run::mytune_command()
        .args(["lint", "--target", "mariadb-10.11", "--fail-on", "crit"])
        .arg(&generated)
        .output()
        .unwrap();
    assert!(lint.status.success(), "{}", text(&lint.stdout));

    // A base the server takes needs no flag.
    std::fs::write(&base, "[mysqld]\ninnodb_buffer_pool_size = 1G\n").unwrap();
    assert!(gen_cnf(&base, &[]).status.success());
}
