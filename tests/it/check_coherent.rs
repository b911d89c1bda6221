//! One plan per report: the findings of `check` never recommend two values
//! for one variable, a rule judges the server as the report's own changes
//! leave it, and applying the changes asks for no more changes to them.
//! On the snapshots of `tests/fixtures/snapshots` (the live convergence test
//! is in `check_convergence_live.rs`).

use crate::support::snapshots;

use std::collections::{BTreeMap, BTreeSet};

use mytune::catalog::Catalog;
use mytune::check::coherent;
use mytune::facts::Facts;
use mytune::facts::host::{OtherProcesses, ProcessGroup};
use mytune::facts::server::{DataSize, EngineSize};
use mytune::generate::plan::same_value;
use mytune::rules::{Finding, Profile, RuleSet, Severity};

fn rules() -> RuleSet {
    RuleSet::load(None).expect("built-in rules load")
}

fn report(rules: &RuleSet, facts: &Facts, profile: &Profile) -> Vec<Finding> {
    let target = facts.server.as_ref().unwrap().target();
    let catalog = Catalog::for_target(&target).ok();
    let known = |name: &str| {
        catalog.as_ref().is_none_or(|c| {
            c.get(name)
                .is_some_and(|v| !v.status_at(target.version).is_removed())
        })
    };
    coherent::evaluate(rules, facts, profile, &known).findings
}

fn server_snapshots() -> Vec<(String, Facts)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/snapshots");
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        let facts = snapshots::snapshot(&name);
        if facts.server.is_some() {
            out.push((name, facts));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 10, "snapshots with a server: {}", out.len());
    out
}

fn profiles() -> Vec<Profile> {
    let relaxed = Profile {
        durability: mytune::rules::Durability::Relaxed,
        ..Profile::default()
    };
    let shared = Profile {
        share: 0.5,
        connections: Some(300),
        ..Profile::default()
    };
    vec![Profile::default(), relaxed, shared]
}

/// The server variables the report sets, as its paste block would.
fn changes(findings: &[Finding]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for f in findings {
        if let (Some(v), Some(r)) = (&f.variable, &f.recommended)
            && !v.contains(':')
        {
            out.entry(v.clone()).or_insert_with(|| r.clone());
        }
    }
    out
}

#[test]
fn every_report_recommends_at_most_one_value_per_variable() {
    let rules = rules();
    for (name, facts) in server_snapshots() {
        for profile in profiles() {
            let mut seen: BTreeMap<String, (String, String)> = BTreeMap::new();
            for f in report(&rules, &facts, &profile) {
                let (Some(v), Some(r)) = (&f.variable, &f.recommended) else {
                    continue;
                };
                if let Some((code, other)) = seen.get(v) {
                    assert!(
                        same_value(other, r),
                        "{name}: {v} is {other} by {code} and {r} by {}",
                        f.code
                    );
                }
                seen.insert(v.clone(), (f.code.to_string(), r.clone()));
            }
        }
    }
}

#[test]
fn applying_the_suggested_changes_asks_for_no_more_changes_to_them() {
    let rules = rules();
    for (name, facts) in server_snapshots() {
        for profile in profiles() {
            let first = report(&rules, &facts, &profile);
            let set = changes(&first);
            let mut after = facts.clone();
            let server = after.server.as_mut().unwrap();
            // Applied at a restart: the counters start again.
            server.status.clear();
            server.sample = None;
            server.uptime_secs = 60;
            for (v, value) in &set {
                server.variables.insert(v.clone(), value.clone());
            }
            for f in report(&rules, &after, &profile) {
                let (Some(v), Some(r)) = (&f.variable, &f.recommended) else {
                    continue;
                };
                if f.severity >= Severity::Warn && set.contains_key(v) {
                    panic!(
                        "{name} ({profile:?}): after setting {v} = {} the report asks {} = {r} ({}: {})",
                        set[v], v, f.code, f.message
                    );
                }
            }
        }
    }
}

/// A MySQL 5.7 server at its 128M default pool on a 16G host, up 50 s.
fn defaults_server() -> Facts {
    let mut facts = snapshots::snapshot("mysql57-defaults-16g-16cpu.json");
    let s = facts.server.as_mut().unwrap();
    s.uptime_secs = 50;
    s.variables
        .insert("innodb_log_file_size".into(), (48u64 << 20).to_string());
    s.variables
        .insert("innodb_log_files_in_group".into(), "2".into());
    facts
}

fn find<'a>(findings: &'a [Finding], code: &str) -> Option<&'a Finding> {
    findings.iter().find(|f| f.code == code)
}

#[test]
fn redo_log_is_sized_for_the_pool_the_same_report_sets_and_says_so() {
    let rules = rules();
    let findings = report(&rules, &defaults_server(), &Profile::default());
    let pool = find(&findings, "MT101").expect("MT101 raises the default pool");
    let pool_value = mytune::units::parse_size(pool.recommended.as_deref().unwrap()).unwrap();
    let redo = find(&findings, "MT113").expect("MT113 sizes the redo log for that pool");
    assert!(
        redo.message
            .starts_with("with this report's innodb_buffer_pool_size = "),
        "{}",
        redo.message
    );
    assert!(redo.message.contains("(MT101)"), "{}", redo.message);
    // Fifty seconds of uptime: no rate, and the wording says so.
    assert!(
        redo.message.contains("no representative rate yet"),
        "{}",
        redo.message
    );
    let files: u64 = 2;
    let redo_total =
        mytune::units::parse_size(redo.recommended.as_deref().unwrap()).unwrap() * files;
    assert!(
        redo_total <= pool_value,
        "redo {redo_total} above the pool {pool_value}"
    );
}

#[test]
fn redo_log_never_exceeds_the_pool_without_a_pool_change() {
    let rules = rules();
    // A 512M pool on a 1G host is at its target: MT113 sizes for that pool.
    let mut facts = defaults_server();
    facts.host.as_mut().unwrap().memory.effective_bytes = 700 << 20;
    facts.host.as_mut().unwrap().memory.total_bytes = 700 << 20;
    let s = facts.server.as_mut().unwrap();
    s.variables
        .insert("innodb_buffer_pool_size".into(), (512u64 << 20).to_string());
    s.variables
        .insert("innodb_log_file_size".into(), (5u64 << 20).to_string());
    s.status
        .insert("innodb_os_log_written".into(), (900u64 << 30).to_string());
    s.uptime_secs = 7200;
    let findings = report(&rules, &facts, &Profile::default());
    let redo = find(&findings, "MT113").expect("a 10M redo log is small");
    let total = mytune::units::parse_size(redo.recommended.as_deref().unwrap()).unwrap() * 2;
    assert!(total <= 512 << 20, "{total}: {}", redo.message);
    assert!(
        redo.message.contains("at the measured rate"),
        "{}",
        redo.message
    );
}

#[test]
fn buffer_pool_target_leaves_what_other_processes_hold() {
    let rules = rules();
    let mut facts = defaults_server();
    let host = facts.host.as_mut().unwrap();
    host.memory.effective_bytes = 24 << 30;
    host.memory.total_bytes = 24 << 30;
    // Seven other mysqld instances of 2.5G each.
    host.other_processes = Some(OtherProcesses {
        resident_bytes: 7 * (5 << 29),
        count: 7,
        largest: vec![ProcessGroup {
            name: "mysqld".into(),
            processes: 7,
            resident_bytes: 7 * (5 << 29),
        }],
    });
    let findings = report(&rules, &facts, &Profile::default());
    let pool = find(&findings, "MT101").expect("the 128M pool is still small");
    let value = mytune::units::parse_size(pool.recommended.as_deref().unwrap()).unwrap();
    // 24G less the 17.5G they hold, kept as 18G (rounded up to a 1G step
    // so the budget does not move with them) = 6G; 70% of it, not of 24G.
    assert!(value <= 4608 << 20, "{value}: {}", pool.message);
    assert!(
        pool.message
            .contains("of the 6G of memory the server may use"),
        "{}",
        pool.message
    );
}

fn with_innodb_data(mut facts: Facts, bytes: u64) -> Facts {
    let mut engines = BTreeMap::new();
    engines.insert(
        "InnoDB".to_string(),
        EngineSize {
            tables: 12,
            data_bytes: bytes * 3 / 4,
            index_bytes: bytes / 4,
        },
    );
    facts.server.as_mut().unwrap().data_size = Some(DataSize {
        engines,
        complete: true,
    });
    facts
}

#[test]
fn a_pool_that_holds_all_the_data_is_info_not_a_growth_warning() {
    let rules = rules();
    let mut facts = with_innodb_data(defaults_server(), 57 << 20);
    facts
        .server
        .as_mut()
        .unwrap()
        .variables
        .insert("innodb_buffer_pool_size".into(), (1u64 << 30).to_string());
    let findings = report(&rules, &facts, &Profile::default());
    assert!(find(&findings, "MT101").is_none(), "{findings:#?}");
    let info = find(&findings, "MT128").expect("MT128 says the data fits");
    assert_eq!(info.severity, Severity::Info);
    assert!(
        info.message.contains("already holds all 57M"),
        "{}",
        info.message
    );
    assert!(info.recommended.is_none());
}

#[test]
fn a_pool_smaller_than_small_data_is_sized_for_the_data_not_for_the_memory() {
    let rules = rules();
    let facts = with_innodb_data(defaults_server(), 2 << 30);
    let findings = report(&rules, &facts, &Profile::default());
    let pool = find(&findings, "MT101").expect("128M does not hold 2G");
    assert_eq!(pool.recommended.as_deref(), Some("3G"), "{}", pool.message);
    assert!(
        pool.message.contains("InnoDB holds 2G of data and indexes"),
        "{}",
        pool.message
    );
    // And once set, the report has nothing more to say about the pool.
    let mut after = facts.clone();
    after
        .server
        .as_mut()
        .unwrap()
        .variables
        .insert("innodb_buffer_pool_size".into(), (3u64 << 30).to_string());
    let again = report(&rules, &after, &Profile::default());
    assert!(find(&again, "MT101").is_none());
    assert_eq!(
        find(&again, "MT128").map(|f| f.severity),
        Some(Severity::Info)
    );
}

#[test]
fn a_report_only_rule_keeps_the_live_problem_and_names_the_changes_that_end_it() {
    let rules = rules();
    let facts = snapshots::snapshot("mysql80-overcommitted-8g-4cpu.json");
    let findings = report(&rules, &facts, &Profile::default());
    let crit = find(&findings, "MT302").expect("the live worst case is overcommitted");
    assert!(crit.message.contains("resolve it"), "{}", crit.message);
    let codes: BTreeSet<&str> = findings.iter().map(|f| f.code.as_str()).collect();
    assert!(codes.contains("MT301"), "{codes:?}");
}

#[test]
fn a_file_asking_more_descriptors_than_the_process_gets_lowers_nothing_and_draws_nothing() {
    // Issue 51: the file's open_files_limit = 65535 under a process limit of
    // 20000, with max_connections = 5000 and table_open_cache = 2000: the
    // server needs 30 + 5000 + 2 x 2000 = 9030 to keep both, so it lowers
    // nothing (a real MariaDB 10.11 kept 5000 and 1024 under 20000). Neither
    // MT206 nor MT801 may ask for 65535; under 8000 descriptors MT801 must.
    use mytune::facts::host::{Limit, ProcessLimits};
    use mytune::facts::{ConfigFacts, ConfigOption, SourceLocation};
    let rules = rules();
    let mut facts = defaults_server();
    let option = |name: &str, value: &str, line: u32| ConfigOption {
        name: name.into(),
        value: value.into(),
        location: SourceLocation {
            file: "/etc/mysql/my.cnf".into(),
            line,
            column: 1,
        },
        group: "mysqld".into(),
        loose: false,
        shadowed: Vec::new(),
    };
    let mut options = BTreeMap::new();
    options.insert(
        "open_files_limit".to_string(),
        option("open_files_limit", "65535", 4),
    );
    options.insert(
        "max_connections".to_string(),
        option("max_connections", "5000", 3),
    );
    facts.config = Some(ConfigFacts {
        files: vec!["/etc/mysql/my.cnf".into()],
        groups: vec!["mysqld".into()],
        options,
    });
    // The file asks for 65535; the process limit (20000) capped it.
    let s = facts.server.as_mut().unwrap();
    s.variables
        .insert("open_files_limit".into(), "20000".into());
    s.variables.insert("max_connections".into(), "5000".into());
    s.variables.insert("table_open_cache".into(), "2000".into());
    facts.host.as_mut().unwrap().server_process = Some(ProcessLimits {
        pid: 1,
        name: "mysqld".into(),
        nofile_soft: Some(Limit::Value(20000)),
        nofile_hard: Some(Limit::Value(20000)),
        ..ProcessLimits::default()
    });
    let findings = report(&rules, &facts, &Profile::default());
    for code in ["MT206", "MT801"] {
        assert!(
            find(&findings, code).is_none(),
            "nothing is lowered under 20000: {:#?}",
            find(&findings, code)
        );
    }
    if let Some(p) = facts.host.as_mut().unwrap().server_process.as_mut() {
        p.nofile_soft = Some(Limit::Value(8000));
        p.nofile_hard = Some(Limit::Value(8000));
    }
    let findings = report(&rules, &facts, &Profile::default());
    let limit = find(&findings, "MT801").unwrap_or_else(|| {
        panic!(
            "under 8000 the process limit is the problem: {:?}",
            findings.iter().map(|f| &f.code).collect::<Vec<_>>()
        )
    });
    let value: u64 = limit.recommended.as_deref().unwrap().parse().unwrap();
    assert!(value >= 65535, "{value}");
}

#[test]
fn the_process_limit_follows_the_max_connections_the_report_sets() {
    // Issue 51, point 2: the option file asks for max_connections = 5000,
    // which a 2G host cannot back, so MT301 cuts it. MT801 reads what the
    // file asks (a running server may have lowered it), and after the block
    // the file asks for the plan's value: 10000 descriptors then hold it and
    // the table_open_cache MT419 plans for it (30 + 663 + 2 x 4000 = 8693),
    // and MT801 must not ask for a limit sized for 5000 connections the
    // report itself removes.
    use mytune::facts::host::{Limit, ProcessLimits};
    use mytune::facts::{ConfigFacts, ConfigOption, SourceLocation};
    let rules = rules();
    let mut facts = defaults_server();
    let mut options = BTreeMap::new();
    options.insert(
        "max_connections".to_string(),
        ConfigOption {
            name: "max_connections".into(),
            value: "5000".into(),
            location: SourceLocation {
                file: "/etc/mysql/my.cnf".into(),
                line: 3,
                column: 1,
            },
            group: "mysqld".into(),
            loose: false,
            shadowed: Vec::new(),
        },
    );
    facts.config = Some(ConfigFacts {
        files: vec!["/etc/mysql/my.cnf".into()],
        groups: vec!["mysqld".into()],
        options,
    });
    let s = facts.server.as_mut().unwrap();
    s.variables.insert("max_connections".into(), "5000".into());
    s.variables.insert("table_open_cache".into(), "2000".into());
    let host = facts.host.as_mut().unwrap();
    host.memory.total_bytes = 2 << 30;
    host.memory.effective_bytes = 2 << 30;
    host.server_process = Some(ProcessLimits {
        pid: 1,
        name: "mysqld".into(),
        nofile_soft: Some(Limit::Value(10000)),
        nofile_hard: Some(Limit::Value(10000)),
        ..ProcessLimits::default()
    });
    let findings = report(&rules, &facts, &Profile::default());
    let cut = find(&findings, "MT301").expect("MT301 cuts 5000 connections on 2G");
    let planned: u64 = cut.recommended.as_deref().unwrap().parse().unwrap();
    assert!(planned < 3900, "{planned}");
    assert!(
        find(&findings, "MT801").is_none(),
        "10000 descriptors hold the planned {planned} connections: {:#?}",
        find(&findings, "MT801")
    );
}

#[test]
fn network_sysctls_follow_the_max_connections_the_report_sets() {
    // The single-node tuning article's 5000 connections on a 24G host: alone,
    // MT805 and MT807 size the kernel for 5000 connections; in the report
    // MT301 cuts max_connections to what fits, and they judge that instead.
    let rules = rules();
    let mut facts = snapshots::snapshot("conmem-seed000-mysql80-24g-8cpu.json");
    let host = facts.host.as_mut().unwrap();
    for (k, v) in [
        ("net.core.netdev_max_backlog", "1000"),
        ("net.ipv4.tcp_fin_timeout", "60"),
        ("net.core.somaxconn", "4096"),
        ("net.ipv4.tcp_max_syn_backlog", "4096"),
        ("net.ipv4.tcp_tw_reuse", "2"),
        ("net.ipv4.ip_local_port_range", "10240 65535"),
    ] {
        host.sysctl.insert(k.into(), v.into());
    }
    let alone = rules.evaluate(&mytune::rules::EvalInput::new(&facts, &Profile::default()));
    for code in ["MT805", "MT807"] {
        let f = alone
            .findings
            .iter()
            .find(|f| f.code == code)
            .unwrap_or_else(|| panic!("{code} alone: {:#?}", alone.findings));
        assert!(f.message.contains("5000"), "{}", f.message);
    }
    let findings = report(&rules, &facts, &Profile::default());
    let planned: u64 = find(&findings, "MT301")
        .and_then(|f| f.recommended.as_deref())
        .expect("MT301 cuts max_connections")
        .parse()
        .unwrap();
    assert!(planned < 1000, "{planned}");
    for code in ["MT805", "MT807"] {
        assert!(
            find(&findings, code).is_none(),
            "{code} still sized for 5000 connections: {:#?}",
            find(&findings, code)
        );
    }
    // With 5000 connections announced, the network settings are for them.
    let announced = Profile {
        connections: Some(5000),
        ..Profile::default()
    };
    let findings = report(&rules, &facts, &announced);
    assert!(find(&findings, "MT805").is_some_and(|f| f.message.contains("5000")));
}

#[test]
fn a_report_only_finding_does_not_restate_a_change_the_report_makes() {
    // An 8M pool with no data: MT101 raises it to the 128M unit; MT128 ("the
    // pool holds all the data") must not then describe the planned 128M pool.
    let rules = rules();
    let mut facts = with_innodb_data(defaults_server(), 0);
    facts
        .server
        .as_mut()
        .unwrap()
        .variables
        .insert("innodb_buffer_pool_size".into(), (8u64 << 20).to_string());
    let findings = report(&rules, &facts, &Profile::default());
    let pool: Vec<&str> = findings
        .iter()
        .filter(|f| f.variable.as_deref() == Some("innodb_buffer_pool_size"))
        .map(|f| f.code.as_str())
        .collect();
    assert_eq!(pool, ["MT101"], "{findings:#?}");
    assert_eq!(
        find(&findings, "MT101").unwrap().recommended.as_deref(),
        Some("128M")
    );
}
