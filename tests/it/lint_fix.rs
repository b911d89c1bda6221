//! `mytune lint --fix` round-trips: on every fixture file, for every target,
//! the fixed file lints without the fixed findings and with no new one, and
//! every byte outside the fixed lines is unchanged. The CLI tests check
//! `--diff` (prints, changes nothing, exit 1), includes outside the paths
//! given (reported, not written) and a symbolic link (its target fixed).
//! Fixed MariaDB files starting the real server is tested in
//! tests/it/lint_fix_live.rs.

use crate::support::shared;
use mytune::catalog::Resolve;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use mytune::catalog::Catalog;
use mytune::lint::{LintOptions, apply, lint_files};
use mytune::rules::{Finding, RuleSet};
use mytune::target::Target;

fn lint(files: &[PathBuf], target: Target, rules: &RuleSet) -> Vec<Finding> {
    let opts = LintOptions {
        target: Some(target),
        config: None,
        rules,
        fallback: None,
        baseline: Default::default(),
        from: None,
    };
    let out = lint_files(files, &opts);
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    out.findings
}

/// What identifies a finding across a fix: an option-file check's code,
/// file, line and variable; a rule's code and variable (a rule's finding
/// is placed where its variable is set, which a fix may move: the redo log
/// capacity from the file's first line to the line that now sets it).
fn key(f: &Finding) -> (String, String, u32, Option<String>) {
    let loc = f.location.as_ref().filter(|_| f.code.as_str() < "MT100");
    (
        f.code.to_string(),
        loc.map(|l| l.file.display().to_string())
            .unwrap_or_default(),
        loc.map_or(0, |l| l.line),
        f.variable.clone(),
    )
}

/// Fix `file` (copied into a temporary directory with the files beside it)
/// for `target` and check the round trip; returns how many fixes applied.
fn round_trip(file: &Path, target: Target, rules: &RuleSet) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let src_dir = file.parent().unwrap();
    for entry in fs::read_dir(src_dir).unwrap().flatten() {
        if entry.path().is_file() {
            fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
        }
    }
    let path = dir.path().join(file.file_name().unwrap());
    let files = vec![path.clone()];
    let before = lint(&files, target, rules);
    let bytes_before: BTreeMap = read_all(dir.path());
    let plan = apply::plan(
        &before,
        &|p: &Path| apply::under_given(p, &files),
        &|p: &Path| fs::read(p),
    );
    apply::write(&plan).unwrap();
    let after = lint(&files, target, rules);
    let bytes_after = read_all(dir.path());
    let what = format!("{} for {target}", file.display());

    // The fixes taken: (file, line) → new text.
    let fixed: Vec<&Finding> = before
        .iter()
        .filter(|f| {
            f.fix.as_ref().is_some_and(|x| {
                x.edits.iter().all(|e| {
                    line_of(&bytes_after, &e.file, e.line).as_deref() == Some(e.text.as_str())
                })
            })
        })
        .collect();
    let edited: BTreeSet<(PathBuf, u32)> = fixed
        .iter()
        .flat_map(|f| f.fix.as_ref().unwrap().edits.iter())
        .map(|e| (e.file.clone(), e.line))
        .collect();
    // Bytes outside the fixed lines are unchanged.
    for (p, old) in &bytes_before {
        let new = &bytes_after[p];
        let (a, b) = (split(old), split(new));
        assert_eq!(
            a.len(),
            b.len(),
            "{what}: {} changed its line count",
            p.display()
        );
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            if !edited.contains(&(p.clone(), i as u32 + 1)) {
                assert_eq!(
                    x,
                    y,
                    "{what}: {}:{} changed without a fix",
                    p.display(),
                    i + 1
                );
            } else {
                // The line ending stays.
                assert_eq!(
                    x.ends_with(b"\r\n"),
                    y.ends_with(b"\r\n"),
                    "{what}: line ending"
                );
            }
        }
    }
    // The fixed findings are gone, and nothing new appears.
    let after_keys: BTreeSet<_> = after.iter().map(key).collect();
    let before_keys: BTreeSet<_> = before.iter().map(key).collect();
    for f in &fixed {
        let k = key(f);
        assert!(
            !after.iter().any(|g| key(g) == k && g.message == f.message),
            "{what}: fixed but still reported: {} {}",
            f.code,
            f.message
        );
    }
    let new: Vec<_> = after_keys.difference(&before_keys).collect();
    assert!(new.is_empty(), "{what}: the fix made new findings: {new:?}");
    fixed.len()
}

type BTreeMap = std::collections::BTreeMap<PathBuf, Vec<u8>>;

fn read_all(dir: &Path) -> BTreeMap {
    fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| (e.path(), fs::read(e.path()).unwrap()))
        .collect()
}

fn split(b: &[u8]) -> Vec<&[u8]> {
    b.split_inclusive(|c| *c == b'\n').collect()
}

fn line_of(files: &BTreeMap, file: &Path, line: u32) -> Option<String> {
    let bytes = files.get(file)?;
    let l = split(bytes).get(line as usize - 1)?.to_vec();
    let s = String::from_utf8(l).ok()?;
    Some(s.trim_end_matches('\n').trim_end_matches('\r').to_string())
}

fn option_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cnf" || x == "txt"))
        .collect();
    out.sort();
    out
}

fn every_target() -> Vec<Target> {
    Catalog::supported().iter().map(|t| t.resolved()).collect()
}

#[test]
fn fix_round_trips_on_the_repository_fixtures_for_every_target() {
    let rules = RuleSet::builtin().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = option_files(&root.join("examples"));
    files.extend(option_files(
        &root.join("tests/fixtures/lint/project/etc/mysql"),
    ));
    files.extend(option_files(
        &root.join("tests/fixtures/lint/project/legacy"),
    ));
    files.push(root.join("tests/fixtures/fix/mixed.cnf"));
    let mut total = 0;
    for t in every_target() {
        for f in &files {
            total += round_trip(f, t, &rules);
        }
    }
    // The mixed fixture alone has a fix of every kind for some target.
    assert!(total >= 20, "only {total} fixes applied");
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn fix_round_trips_on_the_packaged_option_files_for_every_target() {
    let rules = RuleSet::builtin().unwrap();
    let dir = shared::shared_path("fixtures/mycnf").expect("../shared/fixtures/mycnf");
    let files = option_files(&dir);
    assert!(files.len() >= 10);
    let mut total = 0;
    for t in every_target() {
        for f in &files {
            total += round_trip(f, t, &rules);
        }
    }
    assert!(total > 0);
}

/// What each kind of fix writes, for MySQL 8.0 (one fixture, its expected
/// output beside it).
#[test]
fn fix_writes_the_expected_file_for_mysql_8_0() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fix");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.cnf");
    fs::copy(root.join("mixed.cnf"), &path).unwrap();
    let out = lint_mysql80("--fix", &path);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("mytune: fixed "), "{stderr}");
    let want = fs::read_to_string(root.join("mixed.mysql-8.0.cnf")).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), want);
}

/// `mytune lint --target mysql-8.0 FLAG PATH`.
fn lint_mysql80(flag: &str, path: &Path) -> std::process::Output {
    mytune(&[
        "lint",
        "--target",
        "mysql-8.0",
        flag,
        path.to_str().unwrap(),
    ])
}

fn mytune(args: &[&str]) -> std::process::Output {
    crate::support::run::mytune_command()
        .args(args)
        .output()
        .expect("run mytune")
}

#[test]
fn diff_prints_the_fixes_changes_nothing_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    let text = "[mysqld]\ntx_isolation = READ-COMMITTED\nmax_connections = 100\n";
    fs::write(&path, text).unwrap();
    let out = lint_mysql80("--diff", &path);
    assert_eq!(out.status.code(), Some(1));
    let diff = String::from_utf8_lossy(&out.stdout);
    assert!(diff.contains("-tx_isolation = READ-COMMITTED"), "{diff}");
    assert!(
        diff.contains("+transaction_isolation = READ-COMMITTED"),
        "{diff}"
    );
    assert!(
        diff.starts_with(&format!("--- {}\n+++ {}\n", path.display(), path.display())),
        "{diff}"
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
    // Nothing to fix: no diff, exit 0.
    fs::write(&path, "[mysqld]\nmax_connections = 100\n").unwrap();
    let out = lint_mysql80("--diff", &path);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn fix_leaves_included_files_outside_the_paths_given_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().join("top");
    let other = dir.path().join("other");
    fs::create_dir_all(&top).unwrap();
    fs::create_dir_all(&other).unwrap();
    let inc = other.join("inc.cnf");
    fs::write(&inc, "[mysqld]\ntx_isolation = READ-COMMITTED\n").unwrap();
    let main = top.join("my.cnf");
    fs::write(&main, format!("[mysqld]\n!include {}\n", inc.display())).unwrap();
    let out = lint_mysql80("--fix", &main);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not under the paths given"), "{stderr}");
    assert!(fs::read_to_string(&inc).unwrap().contains("tx_isolation"));
    // Given the directory that holds it, the include is fixed where it is.
    let out = mytune(&[
        "lint",
        "--target",
        "mysql-8.0",
        "--fix",
        main.to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    assert!(out.status.code().is_some(), "{out:?}");
    let fixed = fs::read_to_string(&inc).unwrap();
    assert!(
        fixed.contains("transaction_isolation = READ-COMMITTED"),
        "{fixed}"
    );
}

#[test]
fn fix_writes_through_a_symbolic_link_and_keeps_the_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.cnf");
    fs::write(&real, "[mysqld]\ntx_isolation = SERIALIZABLE\n").unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("my.cnf");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    lint_mysql80("--fix", &link);
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        fs::read_to_string(&real)
            .unwrap()
            .contains("transaction_isolation = SERIALIZABLE")
    );
    assert_eq!(
        fs::metadata(&real).unwrap().permissions().mode() & 0o777,
        0o640
    );
}

/// The renames by spelling that changed a line's meaning: each stays a
/// finding with ranked suggestions, and no output format offers a fix.
#[test]
fn a_misspelt_name_is_never_renamed_by_similarity() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    // (target, line, what the finding says the author meant, where known)
    let cases = [
        ("mysql-8.0", "sort = 1M", None),
        (
            "mariadb-10.11",
            "loose-innodb_log_size=256M",
            Some("did you mean innodb_log_file_size"),
        ),
        ("mariadb-10.11", "loose-innodb_purge_size=64", None),
        (
            "mariadb-10.11",
            "loose-replicate_db=test",
            Some("did you mean replicate_do_db"),
        ),
        ("mariadb-10.11", "set-variable=max_connections=100", None),
        // (skip-bdb, once here, is MariaDB 10.4's compatibility no-op,
        // gone since 10.5: a removed option, which --fix drops.)
        ("mariadb-10.11", "safe-show-database", None),
        (
            "mariadb-10.11",
            "log-slow-queries=/var/log/slow.log",
            Some("write slow_query_log = ON and slow_query_log_file = PATH"),
        ),
        (
            "mysql-8.0",
            "log-slow-queries=/var/log/slow.log",
            Some("removed in MySQL 5.6.1"),
        ),
        ("mariadb-10.11", "slave_parallel_type=LOGICAL_CLOCK", None),
        (
            "mysql-8.0",
            "max_conections = 200",
            Some("did you mean max_connections"),
        ),
        (
            "mysql-8.0",
            "innodb_pool_buffer_size = 1G",
            Some("did you mean innodb_buffer_pool_size"),
        ),
    ];
    for (target, line, meant) in cases {
        let text = format!("[mysqld]\n{line}\n");
        fs::write(&path, &text).unwrap();
        let run = |extra: &[&str]| {
            let mut args = vec!["lint", "--target", target];
            args.extend_from_slice(extra);
            args.push(path.to_str().unwrap());
            mytune(&args)
        };
        let diff = run(&["--diff"]);
        assert!(
            !String::from_utf8_lossy(&diff.stdout).contains("+++"),
            "{target} {line}: --diff offers {}",
            String::from_utf8_lossy(&diff.stdout)
        );
        let json: serde_json::Value =
            serde_json::from_slice(&run(&["--format", "json"]).stdout).unwrap();
        let finding = json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["location"]["line"] == 2)
            .unwrap_or_else(|| panic!("{target} {line}: no finding on the line"));
        assert!(finding["fix"].is_null(), "{target} {line}: {finding}");
        if let Some(said) = meant {
            let msg = finding["message"].as_str().unwrap();
            assert!(msg.contains(said), "{target} {line}: {msg}");
        }
        let sarif: serde_json::Value =
            serde_json::from_slice(&run(&["--format", "sarif"]).stdout).unwrap();
        let results = sarif["runs"][0]["results"].as_array().unwrap();
        assert!(
            results.iter().all(|r| r.get("fixes").is_none()),
            "{target} {line}: SARIF offers a fix"
        );
        run(&["--fix"]);
        assert_eq!(fs::read_to_string(&path).unwrap(), text, "{target} {line}");
    }
}

/// `--fix` twice is `--fix` once: after a fix, lint offers nothing more.
#[test]
fn fixing_twice_changes_nothing_more() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    let text = "[mysqld]\ntx_isolation = READ-COMMITTED\nexpire_logs_days = 7\n\
                innodb_log_file_size = 256M\ninnodb_log_files_in_group = 2\n\
                max_connections = 100\nmax_connections = 200\nquery_cache_size = 0\n";
    fs::write(&path, text).unwrap();
    mytune(&[
        "lint",
        "--target",
        "mysql-8.0",
        "--fix",
        path.to_str().unwrap(),
    ]);
    let once = fs::read_to_string(&path).unwrap();
    assert_ne!(once, text, "the file has fixes for mysql-8.0");
    let again = lint_mysql80("--diff", &path);
    assert!(
        !String::from_utf8_lossy(&again.stdout).contains("+++"),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
    mytune(&[
        "lint",
        "--target",
        "mysql-8.0",
        "--fix",
        path.to_str().unwrap(),
    ]);
    assert_eq!(fs::read_to_string(&path).unwrap(), once);
}

/// MySQL 8.0.30+ computes the redo log capacity from innodb_log_file_size
/// × innodb_log_files_in_group while innodb_redo_log_capacity is not set;
/// MT114 judging an option file must too (it said "100M", the default,
/// and then moved to another line once --fix wrote the capacity).
#[test]
fn the_redo_capacity_of_a_file_with_only_the_old_settings_is_their_product() {
    let rules = RuleSet::builtin().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    let target: Target = "mysql-8.0".parse::<Target>().unwrap().resolved();
    let mt114 = |text: &str| -> Option<String> {
        fs::write(&path, text).unwrap();
        lint(std::slice::from_ref(&path), target, &rules)
            .into_iter()
            .find(|f| f.code == "MT114")
            .map(|f| f.message)
    };
    let pool = "[mysqld]\ninnodb_buffer_pool_size = 8G\n";
    let old = mt114(&format!(
        "{pool}innodb_log_file_size = 256M\ninnodb_log_files_in_group = 3\n"
    ))
    .expect("768M is below half of a quarter of 8G");
    assert!(
        old.starts_with(
            "the redo log capacity is 768M (innodb_log_file_size x innodb_log_files_in_group"
        ),
        "{old}"
    );
    let new = mt114(&format!("{pool}innodb_redo_log_capacity = 768M\n")).unwrap();
    assert!(new.starts_with("the redo log capacity is 768M; "), "{new}");
    assert!(
        mt114(&format!(
            "{pool}innodb_log_file_size = 1G\ninnodb_log_files_in_group = 2\n"
        ))
        .is_none()
    );
}

/// `skip-slave` is the server's unique prefix of the option
/// `skip-slave-start` as written (MariaDB reads `loose-skip-slave=ON` as
/// `skip_slave_start` ON), not `skip-` + a prefix of `slave…`: the fix
/// writes the full name in place of the modifier and the prefix, keeping
/// `loose-` and the value (it once wrote `loose-skip-skip_slave_start`).
#[test]
fn a_prefix_that_starts_with_skip_is_renamed_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    fs::write(&path, "[mysqld]\nloose-skip-slave=ON\n").unwrap();
    let out = mytune(&[
        "lint",
        "--target",
        "mariadb-10.11",
        "--fix",
        path.to_str().unwrap(),
    ]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("mytune: fixed "),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "[mysqld]\nloose-skip-slave-start=ON\n"
    );
}
