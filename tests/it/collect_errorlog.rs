//! The error-log parser on real logs (`tests/fixtures/errorlog/`, see its
//! README), the bounded tail read on a large file, and the check findings
//! drawn from parsed facts.

use std::io::Write;
use std::time::{Duration, Instant, SystemTime};

use mytune::check::errorlog::{self, Context};
use mytune::collect::errorlog::{TAIL_BYTES, collect, parse, read_tail};
use mytune::facts::Facts;
use mytune::facts::errorlog::{
    ChangedLimit, ErrorLogFacts, ErrorLogStatus, OptionWarningKind, StopKind,
};
use mytune::rules::{EvalInput, Profile, RuleSet, Severity};

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/errorlog/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn kinds(p: &mytune::collect::errorlog::Parsed) -> Vec<(String, OptionWarningKind)> {
    p.events
        .options
        .iter()
        .map(|w| (w.option.clone(), w.kind))
        .collect()
}

#[test]
fn mariadb_crash_kill_and_recovery() {
    let p = parse(&fixture("mariadb-10.11-crash-restart.log"));
    let ev = &p.events;
    assert_eq!(ev.starts, 3);
    assert_eq!(
        p.current_start.map(|s| s.display()).as_deref(),
        Some("2026-12-01 13:21:30")
    );
    assert_eq!(
        kinds(&p),
        vec![
            (
                "innodb_log_files_in_group".into(),
                OptionWarningKind::Removed
            ),
            (
                "innodb_thread_concurrency".into(),
                OptionWarningKind::Removed
            ),
            ("max_conections".into(), OptionWarningKind::Unknown),
        ]
    );
    // kill -9: the run before the current start has no shutdown line, and
    // InnoDB recovered at the current start.
    let stop = ev.previous_stop.as_ref().expect("a previous stop");
    assert_eq!(stop.kind, StopKind::Unclean);
    assert!(stop.recovery);
    assert_eq!(stop.at.as_deref(), Some("2026-12-01 13:21:21"));
    assert_eq!(stop.restarted_at.as_deref(), Some("2026-12-01 13:21:30"));
    // kill -SEGV before that: the crash handler's own timestamp format.
    assert_eq!(ev.earlier_crashes.len(), 1);
    assert_eq!(
        ev.earlier_crashes[0].at.as_deref(),
        Some("2026-12-01 13:21:12")
    );
    assert_eq!(ev.earlier_crashes[0].detail.as_deref(), Some("signal 11"));
    // The failed logins were in the first run, not the current one.
    assert_eq!(ev.access_denied, None);
    assert_eq!(ev.open_files, None);
}

#[test]
fn mariadb_failed_logins_and_the_crash_right_before_the_start() {
    let text = fixture("mariadb-10.11-crash-restart.log");
    // Up to the first restart: the first run, with its failed logins.
    let first_run: String = text
        .lines()
        .take_while(|l| !l.contains("got signal"))
        .map(|l| format!("{l}\n"))
        .collect();
    let p = parse(&first_run);
    let ad = p.events.access_denied.as_ref().expect("failed logins");
    assert_eq!(ad.count, 4);
    assert_eq!(ad.accounts, 2);
    assert_eq!(ad.top[0].account, "'bob'@'localhost'");
    assert_eq!(ad.top[0].count, 3);
    assert_eq!(ad.peak_per_minute, 4);
    assert_eq!(p.events.previous_stop, None);

    // Up to the second start's ready line: the crash is the previous stop.
    let two_runs: String = text
        .lines()
        .scan(0, |starts, l| {
            if l.contains("Starting MariaDB") {
                *starts += 1;
            }
            (*starts < 3).then(|| format!("{l}\n"))
        })
        .collect();
    let stop = parse(&two_runs).events.previous_stop.expect("a stop");
    assert_eq!(stop.kind, StopKind::Crash);
    assert_eq!(stop.detail.as_deref(), Some("signal 11"));
    assert!(!stop.recovery);
}

#[test]
fn mariadb_warnings_before_the_start_line_belong_to_that_start() {
    let text = fixture("mariadb-10.11-stderr-options.log");
    let p = parse(&text);
    assert_eq!(p.events.starts, 1);
    let of = p.events.open_files.as_ref().expect("max_open_files line");
    assert_eq!((of.limit, of.requested), (20000, 500005));
    assert_eq!(
        p.events.changed_limits,
        vec![ChangedLimit {
            variable: "max_connections".into(),
            value: 19810,
            requested: 100000
        }]
    );
    assert_eq!(
        kinds(&p),
        vec![
            ("table_open_cache".into(), OptionWarningKind::Adjusted),
            ("max_connections".into(), OptionWarningKind::Adjusted),
            ("innodb_io_capacity".into(), OptionWarningKind::Adjusted),
            ("foo_password".into(), OptionWarningKind::Unknown),
            ("bar".into(), OptionWarningKind::Unknown),
        ]
    );
    assert_eq!(
        p.events.options[2].detail.as_deref(),
        Some("50 adjusted to 100")
    );
    // The value of an unknown option (a password here) never reaches the
    // facts or a snapshot.
    let facts = ErrorLogFacts {
        status: ErrorLogStatus::Read,
        events: p.events.clone(),
        ..ErrorLogFacts::default()
    };
    let json = serde_json::to_string(&facts).unwrap();
    assert!(!json.contains("hunter2"), "{json}");
    assert!(text.contains("hunter2"), "the fixture holds the secret");
}

#[test]
fn mysql_8_formats() {
    let p = parse(&fixture("mysql-8.0-assembled.log"));
    let ev = &p.events;
    assert_eq!(ev.starts, 3);
    assert_eq!(
        p.current_start.map(|s| s.display()).as_deref(),
        Some("2025-10-01 20:38:07 UTC")
    );
    let stop = ev.previous_stop.as_ref().expect("a stop");
    assert_eq!(stop.kind, StopKind::Crash);
    assert_eq!(stop.at.as_deref(), Some("2025-10-01 20:38:01 UTC"));
    assert!(stop.recovery);
    // The run before ended with "Aborting" and "Shutdown complete": clean,
    // not a crash.
    assert!(ev.earlier_crashes.is_empty());
    let of = ev.open_files.as_ref().unwrap();
    assert_eq!((of.limit, of.requested), (10000, 65535));
    assert_eq!(ev.changed_limits.len(), 2);
    assert_eq!(ev.changed_limits[1].variable, "table_open_cache");
    assert_eq!(
        kinds(&p),
        vec![
            ("max_allowed_packet".into(), OptionWarningKind::Adjusted),
            ("expire_logs_days".into(), OptionWarningKind::Deprecated),
            ("innodb_log_file_size".into(), OptionWarningKind::Deprecated),
            (
                "group_replication_group_name".into(),
                OptionWarningKind::Unknown
            ),
        ]
    );
    assert_eq!(
        ev.options[1].detail.as_deref(),
        Some("binlog_expire_logs_seconds")
    );
    // 25 from one client within 25 seconds, 2 more later; the one from the
    // previous run is not counted.
    let ad = ev.access_denied.as_ref().unwrap();
    assert_eq!(ad.count, 27);
    assert_eq!(ad.peak_per_minute, 25);
    assert_eq!(ad.top[0].account, "'app'@'10.0.0.7'");
    assert_eq!(ad.top[1].account, "'root'@'10.0.0.5'");
}

/// A 40 MiB log: the tail read touches 256 KiB, however large the file.
#[test]
fn the_tail_of_a_large_log_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("error.log");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let line = "2026-12-01 13:20:53 3 [Warning] Access denied for user 'bob'@'localhost' (using password: YES)\n";
    writeln!(
        f,
        "2026-12-01 13:20:42 0 [Note] Starting MariaDB 10.11.19-MariaDB as process 1"
    )
    .unwrap();
    let n = 40 * 1024 * 1024 / line.len();
    for _ in 0..n {
        f.write_all(line.as_bytes()).unwrap();
    }
    drop(f);
    let began = Instant::now();
    let tail = read_tail(&path, TAIL_BYTES).unwrap();
    let parsed = parse(&tail.text);
    let took = began.elapsed();
    eprintln!(
        "tail of a {} byte log: {} bytes read, {} lines parsed in {:?}",
        tail.file_bytes, tail.bytes_read, parsed.lines, took
    );
    assert!(tail.file_bytes > 40_000_000);
    assert_eq!(tail.bytes_read, TAIL_BYTES);
    assert!(tail.truncated);
    // The partial first line was dropped: every line parses whole.
    assert!(tail.text.starts_with("2026-12-01 13:20:53 3 [Warning]"));
    assert_eq!(parsed.events.starts, 0);
    assert!(parsed.events.access_denied.unwrap().count > 2000);
    assert!(took < Duration::from_secs(2), "{took:?}");
}

fn variables(log: &std::path::Path) -> std::collections::BTreeMap<String, String> {
    [
        ("log_error", log.display().to_string()),
        ("datadir", "/nonexistent/".to_string()),
        ("log_warnings", "2".to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// Local-time logs are placed in time by the distance from the start to
/// the last line, written when the file was last modified.
#[test]
fn the_current_start_must_agree_with_the_uptime() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("error.log");
    std::fs::write(
        &path,
        "2026-12-01 10:00:00 0 [Note] Starting MariaDB 10.11.19-MariaDB as process 7\n\
         2026-12-01 10:00:00 0 [Warning] 'innodb-log-files-in-group' was removed. It does nothing now and exists only for compatibility with old my.cnf files.\n\
         2026-12-01 10:00:01 0 [Note] mariadbd: ready for connections.\n\
         2026-12-01 10:30:00 5 [Warning] Aborted connection 5 to db: 'unconnected' user: 'u' host: 'h' (Got an error reading communication packets)\n",
    )
    .unwrap();
    let now = SystemTime::now();
    let ok = collect(&variables(&path), 1800, now);
    assert_eq!(ok.status, ErrorLogStatus::Read);
    assert_eq!(ok.start_matches_uptime, Some(true), "{ok:?}");
    assert!(!ok.truncated);
    // Up 100 s but the log's start was half an hour ago: another server's log.
    let other = collect(&variables(&path), 100, now);
    assert_eq!(other.start_matches_uptime, Some(false));
    assert!(!errorlog::usable(&other));
}

#[test]
fn absent_unreadable_and_stderr_logs_are_notes_not_findings() {
    let dir = tempfile::tempdir().unwrap();
    let now = SystemTime::now();
    let absent = collect(&variables(&dir.path().join("gone.log")), 10, now);
    assert_eq!(absent.status, ErrorLogStatus::Absent);
    let mut v = variables(&dir.path().join("x"));
    v.insert("log_error".into(), String::new());
    let stderr = collect(&v, 10, now);
    assert_eq!(stderr.status, ErrorLogStatus::Stderr);
    let fifo = collect(&variables(std::path::Path::new("/dev/null")), 10, now);
    assert_eq!(fifo.status, ErrorLogStatus::NotAFile);

    let mut facts = Facts::from_json(&fixture_snapshot()).unwrap();
    for (log, note) in [
        (absent, "is absent on this machine"),
        (stderr, "journald-only"),
        (fifo, "not a regular file"),
    ] {
        let server = facts.server.as_mut().unwrap();
        server.error_log = Some(log);
        let server = facts.server.as_ref().unwrap();
        assert!(errorlog::findings(server, &Context::default()).is_empty());
        let n = errorlog::note(server);
        assert!(n.contains(note), "{n}");
        // Not a skipped part either: MT016 stays silent.
        assert!(mytune::check::skipped::findings(&facts.skipped).is_empty());
    }
}

/// MT019's thresholds as `mytune check` reads them: the built-in rule
/// set's model.
fn builtin_thresholds(facts: &Facts) -> errorlog::FailedLogins {
    let rules = RuleSet::builtin().unwrap();
    let profile = Profile::default();
    errorlog::FailedLogins::from_rules(&rules, &EvalInput::new(facts, &profile)).unwrap()
}

fn fixture_snapshot() -> String {
    let dir = format!("{}/tests/fixtures/snapshots", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    for p in names {
        let text = std::fs::read_to_string(&p).unwrap();
        if let Ok(f) = Facts::from_json(&text)
            && f.server.is_some()
            && f.skipped.is_empty()
        {
            return text;
        }
    }
    panic!("no snapshot with server facts and nothing skipped in {dir}");
}

#[test]
fn findings_from_a_parsed_mysql_log() {
    let parsed = parse(&fixture("mysql-8.0-assembled.log"));
    let mut facts = Facts::from_json(&fixture_snapshot()).unwrap();
    let server = facts.server.as_mut().unwrap();
    server.error_log = Some(ErrorLogFacts {
        status: ErrorLogStatus::Read,
        path: Some("/var/log/mysql/error.log".into()),
        bytes_read: 9000,
        file_bytes: 9000,
        current_start: parsed.current_start.map(|s| s.display()),
        start_matches_uptime: Some(true),
        events: parsed.events,
        ..ErrorLogFacts::default()
    });
    let ctx = Context {
        failed_logins: Some(builtin_thresholds(&facts)),
        ..Context::default()
    };
    let server = facts.server.as_ref().unwrap();
    let f = errorlog::findings(server, &ctx);
    let by = |code: &str, sev: Severity| {
        f.iter()
            .find(|x| x.code == code && x.severity == sev)
            .unwrap_or_else(|| panic!("no {code} {sev}: {f:#?}"))
    };
    let ignored = by("MT017", Severity::Warn);
    assert!(
        ignored
            .message
            .contains("group_replication_group_name (unknown"),
        "{}",
        ignored.message
    );
    assert!(ignored.message.contains("remove them from the option file"));
    let adjusted = f
        .iter()
        .find(|x| x.code == "MT017" && x.message.contains("max_allowed_packet"))
        .unwrap();
    assert!(
        adjusted
            .message
            .contains("107374182400 adjusted to 1073741824")
    );
    let soft = by("MT017", Severity::Info);
    assert!(
        soft.message
            .contains("expire_logs_days (deprecated; use binlog_expire_logs_seconds)"),
        "{}",
        soft.message
    );
    let nofile = by("MT018", Severity::Warn);
    assert!(
        nofile.message.contains("asked for 65535 open files"),
        "{}",
        nofile.message
    );
    assert!(
        nofile
            .message
            .contains("max_connections to 9190 (asked 10000)")
    );
    assert!(nofile.message.contains("LimitNOFILE"));
    assert!(nofile.message.contains("at least 65535"));
    assert!(
        nofile.recommended.is_none(),
        "no second LimitNOFILE value next to MT801"
    );
    let denied = by("MT019", Severity::Warn);
    assert!(
        denied
            .message
            .starts_with("27 failed logins since the server started"),
        "{}",
        denied.message
    );
    assert!(denied.message.contains("'app'@'10.0.0.7' ×25"));
    let crash = by("MT020", Severity::Crit);
    assert!(
        crash
            .message
            .contains("crashed (signal 11) at 2025-10-01 20:38:01 UTC"),
        "{}",
        crash.message
    );
    assert!(crash.message.contains("InnoDB crash recovery"));
    for x in &f {
        assert!(
            !x.rationale.to_lowercase().contains("seed"),
            "{}",
            x.rationale
        );
    }

    // Drift already reports the unknown option: not twice; MT801 gives the
    // LimitNOFILE value.
    let ctx = Context {
        reported_options: ["group_replication_group_name".to_string()].into(),
        nofile_recommended_by: Some("MT801".into()),
        failed_logins: Some(builtin_thresholds(&facts)),
    };
    let f = errorlog::findings(server, &ctx);
    assert!(
        !f.iter()
            .any(|x| x.code == "MT017" && x.message.contains("ignored"))
    );
    let nofile = f.iter().find(|x| x.code == "MT018").unwrap();
    assert!(
        nofile.message.contains("to the value MT801 gives"),
        "{}",
        nofile.message
    );
}

/// The lines of `text` before its `n`-th server start (1-based), as a tail
/// that ends there.
fn before_start(text: &str, n: usize) -> String {
    let mut starts = 0;
    text.lines()
        .take_while(|l| {
            if l.contains("0 [Note] Starting MariaDB 10.11.19-MariaDB-0+deb12u1") {
                starts += 1;
            }
            starts < n
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Issue 51, part 4: a clean shutdown followed by a start within two
/// seconds (as `systemctl restart` does) is a clean restart, not a kill;
/// failed logins whose user names hold `mariadbd got signal 11 ;`, `x:
/// Shutdown complete` or whole forged lines (a start, a crash, a new
/// record) are counted as failed logins and are never server events. The
/// log is a real one (see the fixtures' README).
#[test]
fn regression_51_clean_restart_and_hostile_user_names() {
    let text = fixture("mariadb-10.11-restart-hostile-logins.log");
    let p = parse(&text);
    assert_eq!(p.events.starts, 3, "{:?}", p.events);
    assert_eq!(
        p.current_start.map(|s| s.display()).as_deref(),
        Some("2026-12-06 10:03:35")
    );
    let stop = p.events.previous_stop.as_ref().expect("a previous stop");
    assert_eq!(stop.kind, StopKind::Clean, "{stop:?}");
    assert_eq!(stop.at.as_deref(), Some("2026-12-06 10:03:34"));
    assert!(p.events.earlier_crashes.is_empty(), "{:?}", p.events);
    // The forged 10:00:00 lines place nothing in time.
    assert_eq!(
        p.last_seen.map(|s| s.display()).as_deref(),
        Some("2026-12-06 10:03:35")
    );

    // The first run: four failed logins, one of them a name with a newline
    // and a forged start line; a clean stop two seconds before the next
    // start.
    let p = parse(&before_start(&text, 3));
    assert_eq!(p.events.starts, 2);
    let stop = p.events.previous_stop.as_ref().expect("a previous stop");
    assert_eq!(stop.kind, StopKind::Clean, "{stop:?}");
    assert!(p.events.earlier_crashes.is_empty());
    let ad = p.events.access_denied.as_ref().expect("failed logins");
    // Six and five attempts as 'mariadbd got signal 11 ;', a 128-character
    // name over three lines, and two names forging lines: one closes early
    // and forges a crash and another failed login ('q'), which counts (the
    // log cannot tell it from a real one), the other forges a start.
    assert_eq!(ad.top[0].account, "'mariadbd got signal 11 ;'@'localhost'");
    assert_eq!(ad.top[0].count, 11);
    assert_eq!(ad.count, 15, "{ad:?}");

    let p = parse(&before_start(&text, 2));
    assert_eq!(p.events.previous_stop, None);
    let ad = p.events.access_denied.as_ref().expect("failed logins");
    assert_eq!(ad.count, 4, "{ad:?}");
    assert_eq!(ad.accounts, 4, "{ad:?}");
    // The name with a newline is one account, as the server logged it
    // (the reports escape what they print).
    assert!(
        ad.top[0]
            .account
            .starts_with("'evil\n2026-12-06 10:00:00 0 [Note] Starting MariaDB"),
        "{ad:?}"
    );
}

/// The same forgeries in a few lines: a crash and a start inside user
/// names make no event; the genuine crash right after a failed login
/// (followed by its crash report) still does.
#[test]
fn regression_51_only_server_lines_are_events() {
    let forged = "2026-12-06 10:00:00 0 [Note] Starting MariaDB 10.11.19-MariaDB source revision 5843d8475120241667a7ce0f8a1abb6c9b43a273 as process 1\n\
                  2026-12-06 10:00:05 3 [Warning] Access denied for user 'mariadbd got signal 11 ;'@'localhost' (using password: YES)\n\
                  2026-12-06 10:00:05 4 [Warning] Access denied for user 'evil\n\
                  2026-12-06 10:00:06 0 [Note] Starting MariaDB 10.11.19 source revision x as process 2'@'localhost' (using password: YES)\n";
    let p = parse(forged);
    assert_eq!(p.events.starts, 1);
    assert_eq!(p.events.previous_stop, None);
    assert_eq!(p.events.access_denied.as_ref().unwrap().count, 2);
    let crash = parse(&fixture("mariadb-10.11-crash-restart.log"));
    assert_eq!(crash.events.earlier_crashes.len(), 1);
}

/// Whether failed logins reach the log is the flavor table's question:
/// `log_error_verbosity` 3 from MySQL 5.7.2, `log_warnings` 2 before it
/// and on MariaDB; the note names the variable the server goes by.
#[test]
fn the_note_names_the_variable_that_logs_failed_logins() {
    let mut facts = Facts::from_json(&fixture_snapshot()).unwrap();
    let server = facts.server.as_mut().unwrap();
    server.error_log = Some(ErrorLogFacts {
        status: ErrorLogStatus::Read,
        path: Some("/var/log/mysql/error.log".into()),
        ..ErrorLogFacts::default()
    });
    server.variables.insert("log_warnings".into(), "1".into());
    server
        .variables
        .insert("log_error_verbosity".into(), "2".into());
    for (flavor, version, says) in [
        ("mysql", "8.0.36", "(log_error_verbosity below 3)"),
        ("mysql", "5.6.51", "(log_warnings below 2)"),
        ("mariadb", "10.11.19", "(log_warnings below 2)"),
    ] {
        server.flavor = flavor.parse().unwrap();
        server.version = version.parse().unwrap();
        let note = errorlog::note(server);
        assert!(
            note.contains(&format!("failed logins are not logged {says}")),
            "{flavor} {version}: {note}"
        );
    }
}
