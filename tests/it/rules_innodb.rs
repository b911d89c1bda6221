//! The InnoDB family (MT101-MT127), each rule fired and not fired, on the
//! JSON facts snapshots in `tests/fixtures/snapshots/` (made-up deployments:
//! `innodb-*.json` and the shared tuned/overcommitted ones), plus the seed
//! 000 §2.3 "best practice" option file (`examples/`) linted for MySQL 8.0.

use std::path::Path;

use mytune::catalog::{Catalog, VarStatus};
use mytune::facts::Facts;
use mytune::facts::host::{Cpu, Disk, DiskKind, HostFacts, Memory};
use mytune::rules::{Confidence, EvalInput, Evaluation, Finding, Profile, RuleSet};
use mytune::target::Target;

const SEED_ERA_57: &str = "innodb-mysql57-seed-era-8g-2cpu.json";
const BIG_80: &str = "innodb-mysql80-64g-32cpu.json";
/// A quarter of that snapshot's 40G buffer pool.
const BIG_80_QUARTER_POOL: &str = "10G";
const TUNED: &str = "mariadb1011-tuned-64g-16cpu.json";
const OVER: &str = "mysql80-overcommitted-8g-4cpu.json";

use crate::support::snapshots;
use snapshots::{not_applicable, one, server, snapshot};

fn set_var(facts: &mut Facts, name: &str, value: &str) {
    server(facts)
        .variables
        .insert(name.to_string(), value.to_string());
}

fn run(facts: &Facts, profile: &Profile) -> Evaluation {
    RuleSet::builtin()
        .expect("built-in rules load")
        .evaluate(&EvalInput::new(facts, profile))
}

fn evaluate(name: &str) -> Evaluation {
    run(&snapshot(name), &Profile::default())
}

fn relaxed() -> Profile {
    Profile {
        durability: "relaxed".parse().unwrap(),
        ..Profile::default()
    }
}

fn fired(ev: &Evaluation, code: &str) -> bool {
    ev.findings.iter().any(|f| f.code == code)
}

/// Assert a finding: variable, current -> recommended, a part of the message.
fn check(ev: &Evaluation, code: &str, var: &str, current: &str, rec: Option<&str>, msg: &str) {
    let f = one(ev, code, var);
    assert_eq!(f.current.as_deref(), Some(current), "{code} current");
    assert_eq!(f.recommended.as_deref(), rec, "{code} recommended");
    assert!(f.message.contains(msg), "{code}: {}", f.message);
}

#[test]
fn tuned_mariadb_has_no_innodb_findings() {
    let ev = evaluate(TUNED);
    assert!(ev.findings.is_empty(), "{:#?}", ev.findings);
    // The rules for variables MariaDB 10.11 does not have are excluded by
    // their `applies`, and say so.
    for code in ["MT106", "MT114", "MT122", "MT123"] {
        let r = not_applicable(&ev, code);
        assert_eq!(r.len(), 1, "{code}: {:?}", ev.not_applicable);
        assert!(r[0].starts_with("applies to "), "{code}: {}", r[0]);
        assert!(r[0].ends_with("the target is mariadb-10.11.19"), "{}", r[0]);
    }
}

#[test]
fn big_mysql80_only_fires_what_it_is_built_for() {
    let ev = evaluate(BIG_80);
    let mut codes: Vec<&str> = ev.findings.iter().map(|f| f.code.as_str()).collect();
    codes.dedup();
    assert_eq!(
        codes,
        // MT904: the snapshot's data size has two MyISAM tables.
        ["MT104", "MT105", "MT114", "MT125", "MT904"],
        "{:#?}",
        ev.findings
    );
}

#[test]
fn mt104_buffer_pool_smaller_than_data() {
    let ev = evaluate(BIG_80);
    // 70% of 64G rounded down to 128M chunks x 8 instances (1G): 44G.
    check(
        &ev,
        "MT104",
        "innodb_buffer_pool_size",
        "40G",
        Some("44G"),
        "InnoDB holds 100G of data and indexes but innodb_buffer_pool_size is 40G (40% of it)",
    );
    assert!(
        !fired(&evaluate(TUNED), "MT104"),
        "30G of data in a 45G pool"
    );
    let mut facts = snapshot(BIG_80);
    server(&mut facts).data_size = None;
    let ev = run(&facts, &Profile::default());
    assert!(!fired(&ev, "MT104"));
    assert_eq!(
        not_applicable(&ev, "MT104"),
        ["needs server.innodb_data (the data size per engine was not collected)"]
    );
    // Below 50% of memory MT101 speaks instead, with the same value.
    let mut facts = snapshot(BIG_80);
    set_var(
        &mut facts,
        "innodb_buffer_pool_size",
        &(16u64 << 30).to_string(),
    );
    let ev = run(&facts, &Profile::default());
    assert!(!fired(&ev, "MT104"));
    assert_eq!(
        one(&ev, "MT101", "innodb_buffer_pool_size")
            .recommended
            .as_deref(),
        Some("44G")
    );
}

#[test]
fn mt105_io_threads_far_above_cores() {
    let ev = evaluate(BIG_80);
    for var in ["innodb_read_io_threads", "innodb_write_io_threads"] {
        check(
            &ev,
            "MT105",
            var,
            "64",
            Some("16"),
            "= 128 on 32 CPUs, more than twice what the cores can serve; 16 read and 16 write",
        );
    }
    assert!(!fired(&evaluate(TUNED), "MT105"), "8+8 on 16 CPUs");
    assert!(
        !fired(&evaluate(SEED_ERA_57), "MT105"),
        "4+4 on 2 CPUs: the default"
    );
    assert!(!fired(&evaluate(SEED_ERA_57), "MT103"), "4+4 >= 2 CPUs");
}

#[test]
fn mt106_thread_concurrency_limited() {
    let ev = evaluate(SEED_ERA_57);
    check(
        &ev,
        "MT106",
        "innodb_thread_concurrency",
        "8",
        Some("0"),
        "caps the threads inside InnoDB",
    );
    assert_eq!(
        one(&ev, "MT106", "innodb_thread_concurrency").confidence,
        Confidence::Low
    );
    assert!(!fired(&evaluate(BIG_80), "MT106"));
}

#[test]
fn mt107_purge_threads_below_default_on_more_than_16_cpus() {
    let mut big = snapshot(SEED_ERA_57);
    big.host.as_mut().unwrap().cpu.effective = 32;
    check(
        &run(&big, &Profile::default()),
        "MT107",
        "innodb_purge_threads",
        "1",
        Some("4"),
        "innodb_purge_threads = 1 is below the default of 4 on 32 CPUs",
    );
    assert!(!fired(&evaluate(TUNED), "MT107"));
}

/// On 16 CPUs or fewer one purge thread is what MySQL 8.4 picks itself, and
/// the bench measured no loss from it on 2 CPUs: no finding.
#[test]
fn mt107_leaves_one_purge_thread_alone_on_16_cpus_or_fewer() {
    assert!(!fired(&evaluate(SEED_ERA_57), "MT107"));
    let mut sixteen = snapshot(SEED_ERA_57);
    sixteen.host.as_mut().unwrap().cpu.effective = 16;
    assert!(!fired(&run(&sixteen, &Profile::default()), "MT107"));
}

#[test]
fn mt108_relaxed_durability_under_the_strict_profile() {
    let ev = evaluate(SEED_ERA_57);
    let msg = "innodb_flush_log_at_trx_commit = 2 and sync_binlog = 0 (binary log on): an OS crash or a power loss loses up to about a second";
    check(
        &ev,
        "MT108",
        "innodb_flush_log_at_trx_commit",
        "2",
        Some("1"),
        msg,
    );
    check(&ev, "MT108", "sync_binlog", "0", Some("1"), msg);
    assert!(!fired(&evaluate(TUNED), "MT108"));
    // The operator accepted the loss: no finding, and no relaxing advice
    // either, since the server is already relaxed.
    let ev = run(&snapshot(SEED_ERA_57), &relaxed());
    assert!(
        !fired(&ev, "MT108") && !fired(&ev, "MT109"),
        "{:#?}",
        ev.findings
    );

    // 0 loses commits on a mysqld crash; a durable log with an unsynced
    // binary log is flagged for sync_binlog only. Binary log off: sync_binlog
    // is left alone.
    let mut facts = snapshot(TUNED);
    set_var(&mut facts, "innodb_flush_log_at_trx_commit", "0");
    let ev = run(&facts, &Profile::default());
    check(
        &ev,
        "MT108",
        "innodb_flush_log_at_trx_commit",
        "0",
        Some("1"),
        "a mysqld crash, an OS crash",
    );
    let mut facts = snapshot(TUNED);
    set_var(&mut facts, "sync_binlog", "0");
    let ev = run(&facts, &Profile::default());
    check(
        &ev,
        "MT108",
        "sync_binlog",
        "0",
        Some("1"),
        "the binary log can miss committed transactions",
    );
    assert_eq!(ev.findings.len(), 1, "{:#?}", ev.findings);
    set_var(&mut facts, "log_bin", "OFF");
    assert!(!fired(&run(&facts, &Profile::default()), "MT108"));
    // MariaDB's 3 is durable and kept.
    let mut facts = snapshot(TUNED);
    set_var(&mut facts, "innodb_flush_log_at_trx_commit", "3");
    assert!(!fired(&run(&facts, &Profile::default()), "MT108"));
}

#[test]
fn mt109_relaxed_profile_may_trade_the_last_second() {
    let ev = run(&snapshot(TUNED), &relaxed());
    let msg = "the relaxed durability profile is in effect and innodb_flush_log_at_trx_commit = 1";
    check(
        &ev,
        "MT109",
        "innodb_flush_log_at_trx_commit",
        "1",
        Some("2"),
        msg,
    );
    check(
        &ev,
        "MT109",
        "sync_binlog",
        "1",
        Some("0"),
        "up to about a second",
    );
    assert_eq!(
        ev.recommendations["innodb_flush_log_at_trx_commit"].value,
        "2"
    );
    // The strict profile never gets relaxed values.
    let ev = evaluate(TUNED);
    assert!(!fired(&ev, "MT109"));
    assert!(
        !ev.recommendations
            .contains_key("innodb_flush_log_at_trx_commit")
    );
}

#[test]
fn mt110_doublewrite_off() {
    let ev = evaluate(SEED_ERA_57);
    check(
        &ev,
        "MT110",
        "innodb_doublewrite",
        "OFF",
        Some("ON"),
        "a torn page that InnoDB cannot repair",
    );
    assert!(!fired(&evaluate(TUNED), "MT110"));
    assert!(!fired(&run(&snapshot(SEED_ERA_57), &relaxed()), "MT110"));
    let mut facts = snapshot(BIG_80);
    set_var(&mut facts, "innodb_doublewrite", "DETECT_ONLY");
    assert!(fired(&run(&facts, &Profile::default()), "MT110"));
}

#[test]
fn mt111_log_buffer_small_and_mt112_log_waits() {
    let ev = evaluate(SEED_ERA_57);
    check(
        &ev,
        "MT111",
        "innodb_log_buffer_size",
        "4M",
        Some("16M"),
        "below the 16M default",
    );
    check(
        &ev,
        "MT112",
        "innodb_log_buffer_size",
        "4M",
        Some("16M"),
        "InnoDB waited 604800 times for space in the log buffer (1800 an hour)",
    );
    let ev = evaluate(TUNED);
    assert!(!fired(&ev, "MT111") && !fired(&ev, "MT112"));
    // Waits with a default-sized buffer: doubled.
    let mut facts = snapshot(TUNED);
    server(&mut facts)
        .status
        .insert("innodb_log_waits".into(), "86400".into());
    let ev = run(&facts, &Profile::default());
    assert!(!fired(&ev, "MT111"));
    check(
        &ev,
        "MT112",
        "innodb_log_buffer_size",
        "16M",
        Some("32M"),
        "(360 an hour)",
    );
}

#[test]
fn mt113_redo_log_small_before_mysql_8030() {
    let ev = evaluate(SEED_ERA_57);
    // An hour of redo (1268357529600 B / 1209600 s x 3600 = 3600M) beats a
    // quarter of the 6G pool; rounded up to 32M (3616M) over 2 files.
    check(
        &ev,
        "MT113",
        "innodb_log_file_size",
        "48M",
        Some("1808M"),
        "the redo log holds 96M (2 x innodb_log_file_size 48M)",
    );
    assert!(
        !fired(&evaluate(TUNED), "MT113"),
        "8G of redo for a 45G pool"
    );
    // MySQL 8.0.30+: the capacity rule speaks, never innodb_log_file_size.
    for name in [BIG_80, OVER] {
        let ev = evaluate(name);
        assert!(
            !ev.findings
                .iter()
                .any(|f| f.variable.as_deref() == Some("innodb_log_file_size")),
            "{name}"
        );
        assert!(not_applicable(&ev, "MT113")[0].starts_with("applies to mysql < 8.0.30"));
    }
}

#[test]
fn mt114_redo_log_capacity_small_from_mysql_8030() {
    let ev = evaluate(BIG_80);
    // The interval sample: 100M in 10s = 35.2G an hour, rounded up to 32M.
    check(
        &ev,
        "MT114",
        "innodb_redo_log_capacity",
        "100M",
        Some("36000M"),
        "an hour of redo writes (35.2G at the measured rate) and at most the pool itself",
    );
    let mut facts = snapshot(BIG_80);
    set_var(
        &mut facts,
        "innodb_redo_log_capacity",
        &(32u64 << 30).to_string(),
    );
    assert!(!fired(&run(&facts, &Profile::default()), "MT114"));
    // Without a write counter, a quarter of the buffer pool that runs.
    let mut facts = snapshot(BIG_80);
    server(&mut facts).status.remove("innodb_os_log_written");
    let ev = run(&facts, &Profile::default());
    check(
        &ev,
        "MT114",
        "innodb_redo_log_capacity",
        "100M",
        Some(BIG_80_QUARTER_POOL),
        "an hour of redo writes (no redo write counter)",
    );
}

#[test]
fn mt115_max_dirty_pages_pct_extreme() {
    let ev = evaluate(SEED_ERA_57);
    check(
        &ev,
        "MT115",
        "innodb_max_dirty_pages_pct",
        "99",
        Some("90"),
        "so high that a burst can leave almost no clean pages",
    );
    assert!(
        !fired(&evaluate(TUNED), "MT115"),
        "90, the seed's value, is the default"
    );
}

#[test]
fn mt116_lock_wait_timeout_long() {
    // Issue 51: on a live server only a wait the default 50 s would have
    // ended is evidence (Innodb_row_lock_time_max, in ms).
    assert!(
        !fired(&evaluate(SEED_ERA_57), "MT116"),
        "no lock wait counted"
    );
    let with_waits = |ms: &str| {
        let mut facts = snapshot(SEED_ERA_57);
        server(&mut facts)
            .status
            .insert("innodb_row_lock_time_max".into(), ms.into());
        run(&facts, &Profile::default())
    };
    assert!(
        !fired(&with_waits("30000"), "MT116"),
        "30 s: within the default"
    );
    let ev = with_waits("61000");
    check(
        &ev,
        "MT116",
        "innodb_lock_wait_timeout",
        "120",
        Some("50"),
        "innodb_lock_wait_timeout = 120s",
    );
    assert!(!fired(&evaluate(TUNED), "MT116"));
}

#[test]
fn mt117_file_per_table_off() {
    let ev = evaluate(SEED_ERA_57);
    check(
        &ev,
        "MT117",
        "innodb_file_per_table",
        "OFF",
        Some("ON"),
        "the shared system tablespace, which never shrinks",
    );
    assert!(!fired(&evaluate(TUNED), "MT117"));
}

#[test]
fn mt118_open_files_below_table_cache() {
    // Issue 51: on a live server, only a cap InnoDB reaches is evidence.
    assert!(
        !fired(&evaluate(SEED_ERA_57), "MT118"),
        "no open-file count"
    );
    let with_open = |n: &str| {
        let mut facts = snapshot(SEED_ERA_57);
        server(&mut facts)
            .status
            .insert("innodb_num_open_files".into(), n.into());
        run(&facts, &Profile::default())
    };
    assert!(!fired(&with_open("12"), "MT118"), "12 of 300 open");
    let ev = with_open("296");
    check(
        &ev,
        "MT118",
        "innodb_open_files",
        "300",
        Some("2000"),
        "innodb_open_files = 300 is below table_open_cache = 2000",
    );
    assert!(!fired(&evaluate(TUNED), "MT118"));
    let mut facts = snapshot(TUNED);
    set_var(&mut facts, "innodb_open_files", "0");
    assert!(
        !fired(&run(&facts, &Profile::default()), "MT118"),
        "0 = autosized"
    );
}

#[test]
fn mt119_io_capacity_and_mt120_flush_neighbors_by_disk() {
    let ev = evaluate(SEED_ERA_57);
    let msg = "innodb_io_capacity = 200 on ssd storage; 2000 (innodb_io_capacity_max 4000)";
    check(&ev, "MT119", "innodb_io_capacity", "200", Some("2000"), msg);
    check(
        &ev,
        "MT119",
        "innodb_io_capacity_max",
        "2000",
        Some("4000"),
        msg,
    );
    check(
        &ev,
        "MT120",
        "innodb_flush_neighbors",
        "1",
        Some("0"),
        "only saves seeks on spinning disks",
    );
    let ev = evaluate(TUNED);
    assert!(!fired(&ev, "MT119"));
    assert!(
        !fired(&ev, "MT120"),
        "MariaDB ignores flush_neighbors on SSD"
    );
    assert!(!fired(&evaluate(BIG_80), "MT120"));

    // The same settings on a spinning disk are right.
    let mut facts = snapshot(SEED_ERA_57);
    let host = facts.host.as_mut().unwrap();
    host.datadir_disk.as_mut().unwrap().kind = DiskKind::Hdd;
    let ev = run(&facts, &Profile::default());
    assert!(
        !fired(&ev, "MT119") && !fired(&ev, "MT120"),
        "{:#?}",
        ev.findings
    );
    // ... and SSD-style settings on it are not.
    let mut facts = snapshot(BIG_80);
    facts
        .host
        .as_mut()
        .unwrap()
        .datadir_disk
        .as_mut()
        .unwrap()
        .kind = DiskKind::Hdd;
    let ev = run(&facts, &Profile::default());
    check(
        &ev,
        "MT119",
        "innodb_io_capacity",
        "2000",
        Some("200"),
        "on hdd storage",
    );
    check(
        &ev,
        "MT120",
        "innodb_flush_neighbors",
        "0",
        Some("1"),
        "saving seeks",
    );
}

#[test]
fn mt121_flush_method_buffered() {
    let ev = evaluate(SEED_ERA_57);
    check(
        &ev,
        "MT121",
        "innodb_flush_method",
        "",
        Some("O_DIRECT"),
        "innodb_flush_method = fsync (default): data files go through the OS page cache",
    );
    assert!(!fired(&evaluate(TUNED), "MT121"));
    let mut facts = snapshot(BIG_80);
    set_var(&mut facts, "innodb_flush_method", "O_DIRECT_NO_FSYNC");
    assert!(!fired(&run(&facts, &Profile::default()), "MT121"));
    // O_DSYNC leaves MySQL's data files in the page cache, not MariaDB's
    // from 10.6 (tests/it/rules_innodb_live.rs reads the server's open flags).
    set_var(&mut facts, "innodb_flush_method", "O_DSYNC");
    assert!(fired(&run(&facts, &Profile::default()), "MT121"));
    let mut maria = snapshot(TUNED);
    set_var(&mut maria, "innodb_flush_method", "O_DSYNC");
    assert!(!fired(&run(&maria, &Profile::default()), "MT121"));
}

#[test]
fn mt122_buffer_pool_instances_and_mt123_page_cleaners() {
    let ev = evaluate(SEED_ERA_57);
    check(
        &ev,
        "MT122",
        "innodb_buffer_pool_instances",
        "8",
        Some("6"),
        "for a 6G buffer pool (768M each)",
    );
    check(
        &ev,
        "MT123",
        "innodb_page_cleaners",
        "4",
        Some("8"),
        "innodb_page_cleaners = 4 for 8 buffer pool instances",
    );
    let ev = evaluate(BIG_80);
    assert!(
        !fired(&ev, "MT122") && !fired(&ev, "MT123"),
        "5G per instance, 8 cleaners"
    );
    // One instance for a large pool.
    let mut facts = snapshot(BIG_80);
    set_var(&mut facts, "innodb_buffer_pool_instances", "1");
    check(
        &run(&facts, &Profile::default()),
        "MT122",
        "innodb_buffer_pool_instances",
        "1",
        Some("8"),
        "(40G each)",
    );
}

#[test]
fn mt124_change_buffer_max_size_large() {
    let ev = evaluate(SEED_ERA_57);
    check(
        &ev,
        "MT124",
        "innodb_change_buffer_max_size",
        "50",
        Some("25"),
        "up to 50% of the buffer pool",
    );
    assert!(!fired(&evaluate(TUNED), "MT124"));
    let mut facts = snapshot(SEED_ERA_57);
    set_var(&mut facts, "innodb_change_buffering", "none");
    assert!(
        !fired(&run(&facts, &Profile::default()), "MT124"),
        "change buffering off"
    );
}

#[test]
fn mt125_adaptive_hash_index_on_many_cores() {
    let ev = evaluate(BIG_80);
    check(
        &ev,
        "MT125",
        "innodb_adaptive_hash_index",
        "ON",
        Some("OFF"),
        "innodb_adaptive_hash_index is ON on 32 CPUs",
    );
    assert!(!fired(&evaluate(TUNED), "MT125"));
    assert!(!fired(&evaluate(SEED_ERA_57), "MT125"), "2 CPUs");
    let olap = Profile {
        workload: "olap".parse().unwrap(),
        ..Profile::default()
    };
    assert!(!fired(&run(&snapshot(BIG_80), &olap), "MT125"));
}

#[test]
fn mt126_hit_ratio_and_mt127_wait_free() {
    let ev = evaluate(SEED_ERA_57);
    let f = one(&ev, "MT126", "innodb_buffer_pool_size");
    assert_eq!(f.recommended, None);
    assert!(
        f.message.starts_with(
            "97% of InnoDB page reads were served from the buffer pool (3000 disk reads a second)"
        ),
        "{}",
        f.message
    );
    let f = one(&ev, "MT127", "innodb_buffer_pool_size");
    assert_eq!(f.recommended, None);
    assert!(
        f.message
            .starts_with("threads waited 12096 times for a clean buffer pool page (36 an hour)"),
        "{}",
        f.message
    );
    let ev = evaluate(TUNED);
    assert!(!fired(&ev, "MT126") && !fired(&ev, "MT127"));
    // The interval sample wins over the average since startup: BIG_80 had
    // misses long ago but none in its 10 s sample.
    let ev = evaluate(BIG_80);
    assert!(!fired(&ev, "MT126"));
    // A server up for an hour: confidence lowered, and said.
    let mut facts = snapshot(SEED_ERA_57);
    server(&mut facts).uptime_secs = 3600;
    let ev = run(&facts, &Profile::default());
    let f = one(&ev, "MT127", "innodb_buffer_pool_size");
    assert_eq!(f.confidence, Confidence::Low);
    assert!(
        f.message.contains("the server has been up only 60m"),
        "{}",
        f.message
    );
}

fn seed000_best_practice(target: &str) -> Evaluation {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/seed000-best-practice.cnf");
    let loaded = mytune::cnf::load(&path).expect("example option file loads");
    let mut config = loaded.effective(&["mysqld".to_string()]);
    // Scaled to a 16G / 8-CPU SSD host: 32G of 256G would be 2G, far below
    // MT101's 50%; the seed's own intent (most of the memory) is 11G here.
    let pool = config
        .options
        .get_mut("innodb_buffer_pool_size")
        .expect("the seed sets it");
    pool.value = "11G".into();
    let facts = Facts {
        host: Some(HostFacts {
            memory: Memory {
                total_bytes: 16 << 30,
                cgroup_limit_bytes: None,
                effective_bytes: 16 << 30,
                effective_source: "--memory".into(),
            },
            cpu: Cpu {
                logical: 8,
                cgroup_quota: None,
                effective: 8,
                effective_source: "--cpus".into(),
            },
            datadir_disk: Some(Disk {
                kind: DiskKind::Ssd,
                ..Disk::default()
            }),
            ..HostFacts::default()
        }),
        config: Some(config),
        ..Facts::default()
    };
    let target: Target = target.parse().unwrap();
    let catalog = Catalog::for_target(&target).expect("catalog for the target");
    let defaults = |name: &str| catalog.get(name).and_then(|v| v.default.clone());
    let known = |name: &str| {
        catalog
            .get(name)
            .is_some_and(|v| !matches!(v.status_at(target.version), VarStatus::Removed { .. }))
    };
    let profile = Profile::default();
    RuleSet::builtin().unwrap().evaluate(
        &EvalInput::new(&facts, &profile)
            .with_target(target)
            .with_defaults(&defaults)
            .with_known_variables(&known),
    )
}

#[test]
fn seed000_best_practice_cnf_on_mysql_8018() {
    let ev = seed000_best_practice("mysql-8.0.18");
    let loc = |f: &Finding| f.location.as_ref().map(|l| l.line);
    let f = one(&ev, "MT108", "innodb_flush_log_at_trx_commit");
    assert_eq!(
        (f.current.as_deref(), f.recommended.as_deref()),
        (Some("2"), Some("1"))
    );
    assert_eq!(loc(f), Some(42));
    assert!(
        f.message.contains("an OS crash or a power loss loses"),
        "{}",
        f.message
    );
    // The binary log is on (log_bin = mysql-bin) and sync_binlog is the
    // default 1: nothing to say about it.
    assert!(
        !ev.findings
            .iter()
            .any(|f| f.variable.as_deref() == Some("sync_binlog"))
    );
    for var in ["innodb_read_io_threads", "innodb_write_io_threads"] {
        let f = one(&ev, "MT105", var);
        assert_eq!(
            (f.current.as_deref(), f.recommended.as_deref()),
            (Some("32"), Some("4"))
        );
    }
    // One purge thread on 8 CPUs: what MySQL 8.4 picks there (MT107 is silent).
    assert!(!fired(&ev, "MT107"));
    // 16M per-thread buffers x 5000 connections (memory family).
    assert_eq!(
        one(&ev, "MT301", "max_connections").current.as_deref(),
        Some("5000")
    );
    // Before 8.0.30: 256M x 3 files against a quarter of the file's pool
    // (11G scaled: 2816M, rounded up to 32M), split over the 3 files.
    let f = one(&ev, "MT113", "innodb_log_file_size");
    assert_eq!(f.current.as_deref(), Some("256M"));
    assert_eq!(f.recommended.as_deref(), Some("939M"));
    assert!(!fired(&ev, "MT114"));
    for code in ["MT111", "MT116", "MT118", "MT119", "MT121"] {
        assert!(fired(&ev, code), "{code}: {:#?}", ev.not_applicable);
    }
    assert!(!fired(&ev, "MT101") && !fired(&ev, "MT102"), "scaled pool");
}

#[test]
fn seed000_best_practice_cnf_on_mysql_8035_uses_redo_capacity() {
    let ev = seed000_best_practice("mysql-8.0.35");
    let f = one(&ev, "MT114", "innodb_redo_log_capacity");
    // The default 100M (the option file's innodb_log_file_size is ignored
    // once the capacity exists): a quarter of the file's pool, rounded up.
    assert_eq!(f.current.as_deref(), Some("100M"));
    assert_eq!(f.recommended.as_deref(), Some("2816M"));
    assert!(
        !ev.findings
            .iter()
            .any(|f| f.variable.as_deref() == Some("innodb_log_file_size")),
        "{:#?}",
        ev.findings
    );
}

#[test]
fn redo_target_is_capped_by_the_buffer_pool() {
    // A write burst right after start (375M in 62 s, like the MySQL 8.0.32
    // mysqltuner dump) would ask for 21G of redo; without host facts the
    // pool is the 128M it is, which caps the target, so 100M is enough.
    let mut facts = snapshot(BIG_80);
    facts.host = None;
    let s = server(&mut facts);
    s.sample = None;
    s.uptime_secs = 62;
    s.status
        .insert("innodb_os_log_written".into(), "375138816".into());
    set_var(&mut facts, "innodb_buffer_pool_size", "134217728");
    let ev = run(&facts, &Profile::default());
    assert!(!fired(&ev, "MT114"), "{:#?}", ev.findings);
    set_var(&mut facts, "innodb_redo_log_capacity", "8388608");
    let ev = run(&facts, &Profile::default());
    check(
        &ev,
        "MT114",
        "innodb_redo_log_capacity",
        "8M",
        Some("32M"),
        "the larger of a quarter of the 128M buffer pool",
    );
}
