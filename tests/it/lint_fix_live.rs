//! A MariaDB file `lint --fix` mended starts the real server: a file it
//! warned about starts clean, a typo it refused stays as written (a
//! finding, never a guessed rename), and the example files (the source
//! articles' configurations, with this machine's paths taken out) start
//! after their fixes. The installed `mariadbd` judges
//! (tests/it/support/oracle.rs).

use crate::support::mariadb;
use crate::support::oracle;

use std::fs;

use oracle::{Class, Oracle};

fn fix(path: &std::path::Path, expect_fixed: bool) {
    let out = crate::support::run::mytune_command()
        .args(["lint", "--target", "mariadb-10.11", "--fix"])
        .arg(path)
        .output()
        .expect("run mytune");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.contains("mytune: fixed ") && !stderr.contains("mytune: fixed 0 "),
        expect_fixed,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn fixed_mariadb_files_start_the_real_server() {
    let Some(oracle) = Oracle::start_or_skip("lint --fix against mariadbd") else {
        return;
    };
    let cases = [
        // Refused before and after: a typo is not guessed at.
        (
            "[mariadb]\nmax_conections = 200\n",
            Class::Refuses,
            Class::Refuses,
        ),
        // Warned before: removed options it ignores, a prefix, a line set
        // twice, a number below its minimum.
        (
            "[mysqld]\ninnodb_log_files_in_group = 2\ninnodb_buffer_pool_inst = 4\n\
             max_connections = 100\nmax_connections = 200\nthread_pool_max_thr = 500\n\
             sort_buffer_size = 1\n",
            Class::Warns,
            Class::Clean,
        ),
    ];
    for (text, before, after) in cases {
        let dir = tempfile::tempdir().unwrap();
        let cnf = dir.path().join("my.cnf");
        fs::write(&cnf, text).unwrap();
        let scratch = dir.path().join("scratch");
        fs::create_dir(&scratch).unwrap();
        let verdict = oracle.judge(&cnf, &scratch).unwrap();
        assert_eq!(verdict.class, before, "{text}: {:?}", verdict.lines);
        fix(&cnf, before != after);
        let fixed = fs::read_to_string(&cnf).unwrap();
        let scratch = dir.path().join("scratch2");
        fs::create_dir(&scratch).unwrap();
        let verdict = oracle.judge(&cnf, &scratch).unwrap();
        assert_eq!(
            verdict.class, after,
            "after --fix:\n{fixed}\nthe server says {:?}",
            verdict.lines
        );
    }
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn the_example_files_fixed_for_mariadb_start_the_real_server() {
    let Some(oracle) = Oracle::start_or_skip("lint --fix against mariadbd") else {
        return;
    };
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut fixed_any = 0;
    for name in [
        "seed000-1gb-vps.cnf",
        "seed000-best-practice.cnf",
        "seed003-100k-connections.cnf",
    ] {
        // Without this machine's paths, and without the 100k file's
        // unrendered Ansible line (`datadir {{ mysqldir }}`: a finding of
        // its own, which no fix can render).
        let text: String = oracle::strip_paths(&fs::read_to_string(examples.join(name)).unwrap())
            .lines()
            .filter(|l| !l.contains("{{"))
            .map(|l| format!("{l}\n"))
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let cnf = dir.path().join(name);
        fs::write(&cnf, &text).unwrap();
        fix(&cnf, true);
        let fixed = fs::read_to_string(&cnf).unwrap();
        fixed_any += usize::from(fixed != text);
        let scratch = dir.path().join("scratch");
        fs::create_dir(&scratch).unwrap();
        let verdict = oracle.judge(&cnf, &scratch).unwrap();
        assert_ne!(
            verdict.class,
            Class::Refuses,
            "{name} after --fix:\n{fixed}\nthe server says {:?}",
            verdict.lines
        );
    }
    assert!(fixed_any >= 2, "the examples have fixes for mariadb-10.11");
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn a_value_the_server_reads_as_a_32_bit_number_is_said_and_never_clamped() {
    // Issue 50: the whole-corpus fix differential found `log_warnings =
    // 4294967296` clamped by --fix to 4294967295, which the server reads as
    // -1 (every warning), where it had run with 0 (none).
    let Some(mariadbd) =
        mariadb::find_program("mariadbd", &["/usr/sbin/mariadbd", "/usr/libexec/mariadbd"])
    else {
        mariadb::skip_or_panic::<()>("mariadbd not found (install mariadb-server)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("my.cnf");
    let text = "[mysqld]\nlog_warnings = 4294967296\n";
    fs::write(&cnf, text).unwrap();
    let mut server = std::process::Command::new(&mariadbd);
    server.arg(format!("--defaults-file={}", cnf.display()));
    if mariadb::is_root() {
        server.arg("--user=root");
    }
    let help = server.args(["--verbose", "--help"]).output().unwrap();
    let runs = String::from_utf8_lossy(&help.stdout).lines().find_map(|l| {
        l.strip_prefix("log-warnings ")
            .map(|v| v.trim().to_string())
    });
    assert_eq!(runs.as_deref(), Some("0"), "the server's own reading");
    let out = crate::support::run::mytune_command()
        .args(["lint", "--target", "mariadb-10.11", "--format", "json"])
        .arg(&cnf)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("runs with 0, although it warns that it adjusted the value to 4294967295"),
        "{stdout}"
    );
    fix(&cnf, false);
    assert_eq!(fs::read_to_string(&cnf).unwrap(), text, "--fix left it");
}
