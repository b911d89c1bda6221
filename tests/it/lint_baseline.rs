//! `lint --write-baseline` / `--baseline`: accepted findings stay accepted
//! when lines move, new ones are reported, entries that match nothing are
//! reported (MT022), and mytune.toml can name the baseline.

use std::fs;
use std::path::Path;
use std::process::Output;

fn mytune(dir: &Path, args: &[&str]) -> Output {
    crate::support::run::mytune_command()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run mytune")
}

fn codes(o: &Output) -> Vec<(String, String, u64)> {
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"].as_str().unwrap() < "MT100")
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["location"]["file"].as_str().unwrap_or("").to_string(),
                f["location"]["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// `mytune lint --target mysql-8.0 --write-baseline BASELINE FILE` in `dir`.
fn write_baseline(dir: &Path, baseline: &str, file: &str) -> Output {
    mytune(
        dir,
        &[
            "lint",
            "--target",
            "mysql-8.0",
            "--write-baseline",
            baseline,
            file,
        ],
    )
}

const LINT: &[&str] = &["lint", "--target", "mysql-8.0", "--format", "json"];

fn lint(dir: &Path, extra: &[&str]) -> Output {
    let mut args = LINT.to_vec();
    args.extend_from_slice(extra);
    mytune(dir, &args)
}

#[test]
fn a_baseline_survives_inserting_lines_above_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("conf")).unwrap();
    let cnf = dir.path().join("conf/my.cnf");
    fs::write(&cnf, "[mysqld]\ntx_isolation = READ-COMMITTED\n").unwrap();
    let out = write_baseline(dir.path(), "baseline.txt", "conf/my.cnf");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let written = fs::read_to_string(dir.path().join("baseline.txt")).unwrap();
    assert!(written.contains("MT003\tconf/my.cnf\t"), "{written}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("as the baseline"));

    let accepted = lint(dir.path(), &["--baseline", "baseline.txt", "conf/my.cnf"]);
    assert_eq!(codes(&accepted), []);
    assert_eq!(accepted.status.code(), Some(0));

    // Lines inserted above, and a new problem below.
    fs::write(
        &cnf,
        "# a comment\n[mysqld]\nmax_connections = 100\n\ntx_isolation = READ-COMMITTED\nquery_cache_size = 0\n",
    )
    .unwrap();
    let out = lint(dir.path(), &["--baseline", "baseline.txt", "conf/my.cnf"]);
    assert_eq!(
        codes(&out),
        [("MT003".to_string(), "conf/my.cnf".to_string(), 6)]
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_baseline_entry_that_matches_nothing_is_reported_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("my.cnf");
    fs::write(
        &cnf,
        "[mysqld]\ntx_isolation = READ-COMMITTED\nquery_cache_size = 0\n",
    )
    .unwrap();
    write_baseline(dir.path(), "b.txt", "my.cnf");
    fs::write(
        &cnf,
        "[mysqld]\ntransaction_isolation = READ-COMMITTED\nquery_cache_size = 0\n",
    )
    .unwrap();
    let out = lint(dir.path(), &["--baseline", "b.txt", "my.cnf"]);
    let found = codes(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "MT022");
    assert_eq!(found[0].1, "b.txt");
    let text = fs::read_to_string(dir.path().join("b.txt")).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("tx_isolation"))
        .unwrap() as u64
        + 1;
    assert_eq!(found[0].2, line);
    // Linting another file does not make the entries stale.
    fs::write(
        dir.path().join("other.cnf"),
        "[mysqld]\nmax_connections = 10\n",
    )
    .unwrap();
    assert_eq!(
        codes(&lint(dir.path(), &["--baseline", "b.txt", "other.cnf"])),
        []
    );
}

#[test]
fn entries_count_two_equal_lines_need_two() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("my.cnf");
    fs::write(&cnf, "[mysqld]\nquery_cache_size = 0\n").unwrap();
    write_baseline(dir.path(), "b.txt", "my.cnf");
    fs::write(
        &cnf,
        "[mysqld]\nquery_cache_size = 0\n[mysqld]\nquery_cache_size = 0\n",
    )
    .unwrap();
    let found = codes(&lint(dir.path(), &["--baseline", "b.txt", "my.cnf"]));
    assert!(
        found.contains(&("MT003".to_string(), "my.cnf".to_string(), 4)),
        "{found:?}"
    );
    assert!(
        !found.iter().any(|f| f.0 == "MT003" && f.2 == 2),
        "{found:?}"
    );
}

#[test]
fn mytune_toml_names_the_baseline() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("my.cnf"),
        "[mysqld]\ntx_isolation = SERIALIZABLE\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("mytune.toml"),
        "target = \"mysql-8.0\"\nbaseline = \"ci/baseline.txt\"\n",
    )
    .unwrap();
    fs::create_dir(dir.path().join("ci")).unwrap();
    mytune(
        dir.path(),
        &["lint", "--write-baseline", "ci/baseline.txt", "my.cnf"],
    );
    let out = mytune(dir.path(), &["lint", "--format", "json", "my.cnf"]);
    assert_eq!(codes(&out), [], "{}", String::from_utf8_lossy(&out.stdout));
    // A baseline that cannot be read is an error, not an empty baseline.
    fs::remove_file(dir.path().join("ci/baseline.txt")).unwrap();
    let out = mytune(dir.path(), &["lint", "my.cnf"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_malformed_baseline_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("my.cnf"), "[mysqld]\n").unwrap();
    fs::write(dir.path().join("b.txt"), "# header\nnot a baseline line\n").unwrap();
    let out = mytune(dir.path(), &["lint", "--baseline", "b.txt", "my.cnf"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("b.txt:2: expected CODE"), "{err}");
}
