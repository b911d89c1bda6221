//! The knob-search bench (`bench/tune_search.py`) measures every config on a copy of the
//! same data set whose redo log is not copied but restored in place: only what start-up
//! reads of the clean log is written back over the log the run before wrote into. Every
//! figure of `bench/tuning-search.md` stands on that restore being exact, so this test runs
//! the bench's own self-check against the real `mariadbd`: three runs per log size, each
//! crashing after more redo than the restore writes back, and each next run starting on the
//! same rows at the same log sequence number without a recovery. The same self-check proves
//! that a rerun reuses recorded pairs only at their own run length (`--time`), and that
//! `--phase report` gives a question's pairs from several machines a line for each, and that
//! the t-interval and the sign test's p-value it prints agree with the statistics tables,
//! and that it reads TPS, p95 and the slowest transaction from sysbench's report, and that
//! the server's Slow_queries, which the bench records, counts with the slow log off. A second
//! test proves that `--phase report` measures nothing: without recorded MySQLTuner advice it
//! leaves that row out instead of starting a server to get it.
//!
//! Needs `python3` and `mariadbd`; skips with a printed reason without them, unless
//! `MYTUNE_REQUIRE_LIVE=1`.

use crate::support::mariadb;

/// python3, when it and mariadbd are both installed; otherwise None after skipping visibly
/// (or failing under `MYTUNE_REQUIRE_LIVE=1`).
fn python_beside_mariadbd() -> Option<std::path::PathBuf> {
    let Some(python) = mariadb::find_program("python3", &["/usr/bin/python3"]) else {
        return mariadb::skip_or_panic("python3 not found");
    };
    if mariadb::find_program("mariadbd", &["/usr/sbin/mariadbd"]).is_none() {
        return mariadb::skip_or_panic("mariadbd not found (install mariadb-server)");
    }
    Some(python)
}

#[test]
#[ignore = "benchmark self-check, out of the default run: .ci/run runs it with `cargo test --test it bench_ -- --ignored`"]
fn a_bench_run_starts_on_the_clean_data_set_whatever_the_run_before_it_wrote() {
    let Some(python) = python_beside_mariadbd() else {
        return;
    };
    let stdout = mariadb::run_bench_script(&python, "tune_search.py", ["--phase", "selftest"]);
    for size in ["8M", "16M"] {
        assert!(
            stdout.contains(&format!(
                "selftest: {size} log: 3 runs started clean at LSN "
            )),
            "no clean runs with a {size} log:\n{stdout}"
        );
    }
    assert!(
        stdout.contains("selftest: pairs are reused only at their own run length"),
        "{stdout}"
    );
    assert!(
        stdout.contains("selftest: pairs are reused only with their own protocol"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "selftest: --base-change changes the base a candidate runs against, and its pairs say so"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "selftest: a question's first pair runs after one unrecorded run when its copies were just written"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "selftest: a run records the CPU its host took, and the report can leave such runs and pairs out"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("selftest: a question's pairs from several machines get a line for each"),
        "{stdout}"
    );
    assert!(
        stdout.contains("selftest: pooled over machines by their spread as worked by hand"),
        "{stdout}"
    );
    assert!(
        stdout.contains("selftest: the t-interval and the sign test agree with the tables"),
        "{stdout}"
    );
    assert!(
        stdout.contains("selftest: sysbench's report gives TPS, p95 and the slowest transaction"),
        "{stdout}"
    );
    assert!(
        stdout.contains("selftest: Slow_queries counts a slow statement with the slow log off"),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with("selftest: ok"), "{stdout}");
}

#[test]
#[ignore = "benchmark self-check, out of the default run: .ci/run runs it with `cargo test --test it bench_ -- --ignored`"]
fn the_report_measures_nothing_where_no_advice_was_recorded() {
    let Some(python) = python_beside_mariadbd() else {
        return;
    };
    // An empty --out: before, the report ran MySQLTuner's workload on a throw-away server to
    // get the advice it had not recorded.
    let out = tempfile::tempdir().expect("a temporary directory");
    let stdout = mariadb::run_bench_script(
        &python,
        "tune_search.py",
        [
            "--phase".as_ref(),
            "report".as_ref(),
            "--workloads".as_ref(),
            "small-special".as_ref(),
            "--out".as_ref(),
            out.path().as_os_str(),
            "--mytune".as_ref(),
            env!("CARGO_BIN_EXE_mytune").as_ref(),
        ] as [&std::ffi::OsStr; 8],
    );
    assert!(stdout.contains("| workload | config | runs |"), "{stdout}");
    assert!(out.path().join("table.md").exists());
    assert!(
        !out.path().join("mysqltuner-small-special.txt").exists(),
        "the report ran MySQLTuner's workload"
    );
}
