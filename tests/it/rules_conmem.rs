//! The connections (MT2xx) and memory (MT3xx) rules, each fired and not fired,
//! on made-up facts snapshots `tests/fixtures/snapshots/conmem-*.json`, plus
//! seed 000's "best practice" option file linted for a 24G host and a check
//! that no snapshot gets two findings pushing one variable to different values.
//!
//! The snapshots:
//! - `conmem-seed000-mysql80-24g-8cpu.json`: seed 000 §2.3's my.cnf running on
//!   MySQL 8.0 on a 24G / 8-CPU host (buffer pool scaled to 16G), an old
//!   kernel with `net.core.somaxconn = 128`, thousands of idle connections;
//! - `conmem-busy-mariadb1011-32g-16cpu.json`: MariaDB 10.11 close to its
//!   connection limit, refusing connections, many failed connects, a low file
//!   limit, name resolution on;
//! - `conmem-near-limit-percona80-16g-8cpu.json`: Percona Server 8.0 whose
//!   worst case is between 90% and 100% of memory.

use crate::support::shared as shared_support;
use shared_support::shared_dir;

use std::collections::BTreeMap;
use std::path::Path;

use mytune::catalog::{Catalog, VarStatus};
use mytune::facts::Facts;
use mytune::facts::host::{Cpu, HostFacts, HostSource, Memory};
use mytune::facts::server::{AccountAudit, NameLogin, NameLoginKind};
use mytune::rules::{
    Confidence, Durability, EvalInput, Evaluation, Finding, Profile, RuleSet, Severity, Workload,
};
use mytune::target::{Flavor, Target};

const SEED000: &str = "conmem-seed000-mysql80-24g-8cpu.json";
const BUSY: &str = "conmem-busy-mariadb1011-32g-16cpu.json";
const NEAR: &str = "conmem-near-limit-percona80-16g-8cpu.json";
const TUNED: &str = "mariadb1011-tuned-64g-16cpu.json";

const G: u64 = 1024 * 1024 * 1024;

use crate::support::snapshots;
use snapshots::{findings, not_applicable, one, snapshot};

fn eval_facts(facts: &Facts, profile: &Profile) -> Evaluation {
    RuleSet::builtin()
        .expect("built-in rules load")
        .evaluate(&EvalInput::new(facts, profile))
}

fn evaluate(name: &str) -> Evaluation {
    eval_facts(&snapshot(name), &Profile::default())
}

/// Evaluate a snapshot after changing some server variables.
fn evaluate_with(name: &str, vars: &[(&str, &str)], status: &[(&str, &str)]) -> Evaluation {
    let mut facts = snapshot(name);
    let server = facts.server.as_mut().expect("server facts");
    for (k, v) in vars {
        server.variables.insert(k.to_string(), v.to_string());
    }
    for (k, v) in status {
        server.status.insert(k.to_string(), v.to_string());
    }
    eval_facts(&facts, &Profile::default())
}

fn only<'a>(ev: &'a Evaluation, code: &str) -> &'a Finding {
    let f = findings(ev, code);
    assert_eq!(f.len(), 1, "{code}: {f:#?}");
    f[0]
}

fn assert_contains(haystack: &str, needle: &str) {
    assert!(haystack.contains(needle), "{needle:?} not in {haystack:?}");
}

/// Fired by neither the tuned snapshot nor `others`, and applicable on the
/// tuned one.
fn silent_on_tuned(code: &str) {
    let ev = evaluate(TUNED);
    assert!(findings(&ev, code).is_empty(), "{code} on {TUNED}");
    assert!(not_applicable(&ev, code).is_empty(), "{code} on {TUNED}");
}

// ---- connections ---------------------------------------------------------

#[test]
fn mt210_max_connections_below_expected_peak() {
    let with_peak = |n| Profile {
        connections: Some(n),
        ..Profile::default()
    };
    // Tuned 64G MariaDB with max_connections = 500, 2000 expected: 2200.
    let ev = eval_facts(&snapshot(TUNED), &with_peak(2000));
    let f = one(&ev, "MT210", "max_connections");
    assert_eq!(f.current.as_deref(), Some("500"));
    assert_eq!(f.recommended.as_deref(), Some("2200"));
    assert_eq!(f.severity, Severity::Warn);
    assert_contains(&f.message, "below the 2000 connections expected at peak");
    // 100,000 on 64G: the plan has the thread pool (MT209), idle
    // connections cost their session memory only, and the server's maximum
    // (100000) is the cap.
    let ev = eval_facts(&snapshot(TUNED), &with_peak(100_000));
    assert_eq!(
        one(&ev, "MT210", "max_connections").recommended.as_deref(),
        Some("100000")
    );
    assert!(findings(&ev, "MT211").is_empty());
    // More than memory allows (a tenth of the host): capped by the same
    // budget as MT301.
    let with_peak = |n| Profile {
        connections: Some(n),
        share: 0.1,
        ..Profile::default()
    };
    let ev = eval_facts(&snapshot(TUNED), &with_peak(100_000));
    let capped: u64 = one(&ev, "MT210", "max_connections")
        .recommended
        .as_deref()
        .unwrap()
        .parse()
        .unwrap();
    assert!(capped > 500 && capped < 100_000, "{capped}");
    // MT211 says the peak cannot be met once the cap is applied; silent
    // where it fits.
    let mut capped_facts = snapshot(TUNED);
    capped_facts
        .server
        .as_mut()
        .unwrap()
        .variables
        .insert("max_connections".into(), capped.to_string());
    let ev = eval_facts(&capped_facts, &with_peak(100_000));
    let f = one(&ev, "MT211", "max_connections");
    assert_eq!(f.recommended, None);
    assert_contains(
        &f.message,
        &format!("max_connections = {capped} is below the 100000 connections"),
    );
    assert!(
        findings(&ev, "MT210").is_empty(),
        "MT210 has nothing left to raise"
    );
    assert!(findings(&eval_facts(&snapshot(TUNED), &with_peak(2000)), "MT211").is_empty());
    silent_on_tuned("MT211");
    // A peak the limit already covers, or none given: silent.
    let with_peak = |n| Profile {
        connections: Some(n),
        ..Profile::default()
    };
    assert!(findings(&eval_facts(&snapshot(TUNED), &with_peak(400)), "MT210").is_empty());
    silent_on_tuned("MT210");
}

#[test]
fn mt201_back_log_capped_by_somaxconn() {
    let ev = evaluate(SEED000);
    let f = one(&ev, "MT201", "back_log");
    assert_eq!(f.current.as_deref(), Some("2000"));
    assert_eq!(f.recommended, None, "the fix is a sysctl, not back_log");
    assert_eq!(f.severity, Severity::Warn);
    assert_contains(&f.message, "net.core.somaxconn = 128");
    assert_contains(&f.message, "at least 2000");
    assert!(
        findings(&evaluate(BUSY), "MT201").is_empty(),
        "1200 <= 4096"
    );
    silent_on_tuned("MT201");
}

#[test]
fn mt202_connections_near_limit() {
    let ev = evaluate(BUSY);
    let f = one(&ev, "MT202", "max_connections");
    // 1100 of 1200 used: 1.25 x 1200 = 1500, well inside what 32G can hold
    // (about 2257 connections of 2.96M fit beside the 22.3G of global buffers).
    assert_eq!(f.current.as_deref(), Some("1200"));
    assert_eq!(f.recommended.as_deref(), Some("1500"));
    assert_contains(&f.message, "Max_used_connections = 1100 reached 92%");
    assert_eq!(ev.recommendations["max_connections"].code, "MT202");
    assert_eq!(f.confidence, Confidence::Medium);
    // Capped by memory: in a 29.5G cgroup, (90% x 29.5G - 22816M of global
    // buffers - 16M) / (368K per connection + 2.6M while it runs a
    // statement) = 1464. MT209 recommends the thread pool for the peak.
    let mut facts = snapshot(BUSY);
    let host = facts.host.as_mut().unwrap();
    host.memory.cgroup_limit_bytes = Some(59 * G / 2);
    host.memory.effective_bytes = 59 * G / 2;
    let ev = eval_facts(&facts, &Profile::default());
    let f = one(&ev, "MT202", "max_connections");
    assert_eq!(f.recommended.as_deref(), Some("1464"));
    assert_eq!(
        one(&ev, "MT209", "thread_handling").recommended.as_deref(),
        Some("pool-of-threads")
    );
    silent_on_tuned("MT202");
    // Near the limit but no memory for more: silent (MT301 speaks instead).
    let ev = evaluate_with(SEED000, &[], &[("max_used_connections", "4900")]);
    assert!(findings(&ev, "MT202").is_empty());
    assert_eq!(
        one(&ev, "MT301", "max_connections").recommended.as_deref(),
        Some("529")
    );
}

#[test]
fn mt203_connections_refused_at_limit() {
    let ev = evaluate(BUSY);
    let f = only(&ev, "MT203");
    assert_eq!(f.variable.as_deref(), Some("max_connections"));
    assert_eq!(f.current.as_deref(), Some("1200"));
    assert_eq!(f.recommended, None);
    // 37 over 5 days.
    assert_contains(&f.message, "37 connections were refused");
    assert_contains(&f.message, "about 7 per day");
    assert!(findings(&evaluate(SEED000), "MT203").is_empty());
    silent_on_tuned("MT203");
}

#[test]
fn mt204_aborted_connects_high() {
    let ev = evaluate(BUSY);
    let f = only(&ev, "MT204");
    assert_eq!(f.variable, None);
    assert_eq!(f.severity, Severity::Info);
    assert_contains(&f.message, "45000 of 900000 connection attempts failed (5%");
    assert_contains(&f.message, "about 375 per hour");
    // Name resolution is on: no word about localhost clients over TCP.
    assert!(!f.message.contains("skip_name_resolve"), "{}", f.message);
    let ev = evaluate_with(BUSY, &[("skip_name_resolve", "ON")], &[]);
    assert_contains(
        &only(&ev, "MT204").message,
        "with skip_name_resolve = ON also clients of a 'user'@'localhost' account that connect over TCP 127.0.0.1",
    );
    assert!(
        findings(&evaluate(SEED000), "MT204").is_empty(),
        "500 of 2M"
    );
    silent_on_tuned("MT204");
}

#[test]
fn mt205_max_connect_errors_too_low() {
    use mytune::facts::server::HostCache;
    // 45000 aborted connects, 30000 of them wrong passwords: the global
    // counters cannot tell which host failed, nor loopback from remote
    // clients (which alone can be blocked). Without the host cache: not
    // applicable, with the reason.
    let ev = evaluate(BUSY);
    assert!(findings(&ev, "MT205").is_empty());
    let na = not_applicable(&ev, "MT205");
    assert_eq!(na.len(), 1, "{na:?}");
    assert!(
        na[0].starts_with("needs server.host_cache_connect_errors"),
        "{na:?}"
    );
    // The host cache counts 15000 handshake errors of remote hosts.
    let mut facts = snapshot(BUSY);
    let s = snapshots::server(&mut facts);
    s.variables.insert("performance_schema".into(), "ON".into());
    s.host_cache = Some(HostCache {
        hosts: 20,
        connect_errors: 15000,
        blocked_errors: 0,
        max_connect_errors: 100,
    });
    let ev = eval_facts(&facts, &Profile::default());
    let f = one(&ev, "MT205", "max_connect_errors");
    assert_eq!(f.current.as_deref(), Some("100"));
    assert_eq!(f.recommended.as_deref(), Some("10000"));
    assert_eq!(f.confidence, Confidence::Medium);
    assert_contains(&f.message, "blocked until FLUSH HOSTS");
    assert_contains(
        &f.message,
        "while 15000 handshake errors of remote client hosts count toward blocking them (performance_schema.host_cache)",
    );
    // Same limit, but fewer failed attempts than it: nothing to say.
    assert!(findings(&evaluate(NEAR), "MT205").is_empty());
    assert!(findings(&evaluate(TUNED), "MT205").is_empty());
}

#[test]
fn mt205_ignores_access_denied_logins() {
    // Every failed connect was a wrong password or an unknown user: those
    // never block a host (the reproducer of issue 13: 234 failed logins),
    // and without the host cache the global counters say nothing about
    // which host failed (issue 51): never a finding.
    let ev = evaluate_with(
        BUSY,
        &[],
        &[("aborted_connects", "234"), ("access_denied_errors", "234")],
    );
    assert!(
        findings(&ev, "MT205").is_empty(),
        "{:#?}",
        findings(&ev, "MT205")
    );
    let mut facts = snapshot(BUSY);
    snapshots::server(&mut facts)
        .status
        .remove("access_denied_errors");
    let ev = eval_facts(&facts, &Profile::default());
    assert!(findings(&ev, "MT205").is_empty());
    assert_eq!(not_applicable(&ev, "MT205").len(), 1);
}

#[test]
fn mt205_counts_the_host_cache_where_performance_schema_is_on() {
    use mytune::facts::server::HostCache;
    // The host cache says no host is near blocking: the 15000 global
    // aborted connects (handshake errors on loopback, say) do not count.
    let mut facts = snapshot(BUSY);
    let s = snapshots::server(&mut facts);
    s.variables.insert("performance_schema".into(), "ON".into());
    s.host_cache = Some(HostCache {
        hosts: 3,
        connect_errors: 2,
        blocked_errors: 0,
        max_connect_errors: 2,
    });
    let ev = eval_facts(&facts, &Profile::default());
    assert!(
        findings(&ev, "MT205").is_empty(),
        "{:#?}",
        findings(&ev, "MT205")
    );
    // Hosts were blocked: fires, and says the figures are the host cache's.
    snapshots::server(&mut facts).host_cache = Some(HostCache {
        hosts: 3,
        connect_errors: 140,
        blocked_errors: 12,
        max_connect_errors: 100,
    });
    let ev = eval_facts(&facts, &Profile::default());
    let f = one(&ev, "MT205", "max_connect_errors");
    assert_contains(
        &f.message,
        "while 152 handshake errors of remote client hosts count toward blocking them (performance_schema.host_cache) and connections from blocked hosts were refused",
    );
    assert_eq!(f.recommended.as_deref(), Some("10000"));
}

#[test]
fn mt206_open_files_limit_too_low() {
    let ev = evaluate(BUSY);
    let f = one(&ev, "MT206", "open_files_limit");
    // 4096 descriptors are fewer than 30 + 1200 + 2 x 2000 = 5230, below
    // which the server lowers table_open_cache; the recommendation is its
    // whole request, max(5230, 5 x 1200) = 6000, rounded up to 1024: 6144.
    assert_eq!(f.current.as_deref(), Some("4096"));
    assert_eq!(f.recommended.as_deref(), Some("6144"));
    assert_contains(
        &f.message,
        "fewer than the 5230 that max_connections = 1200",
    );
    assert_contains(&f.message, "LimitNOFILE >= 6144");
    assert!(findings(&evaluate(SEED000), "MT206").is_empty(), "65535");
    silent_on_tuned("MT206");
    // 0 means the OS does not let the server change it: not judged.
    let ev = evaluate_with(BUSY, &[("open_files_limit", "0")], &[]);
    assert!(findings(&ev, "MT206").is_empty());
}

#[test]
fn mt206_reads_the_requested_values_from_the_option_file() {
    // A server that lowered max_connections to fit its file limit still
    // gets judged on what the option file asked for.
    let mut facts = snapshot(NEAR);
    let cnf: mytune::facts::ConfigFacts = serde_json::from_value(serde_json::json!({
        "files": ["/etc/my.cnf"],
        "groups": ["mysqld"],
        "options": {"max_connections": {
            "name": "max_connections", "value": "5000", "group": "mysqld",
            "location": {"file": "/etc/my.cnf", "line": 7, "column": 0}}}
    }))
    .unwrap();
    facts.config = Some(cnf);
    let ev = eval_facts(&facts, &Profile::default());
    let f = one(&ev, "MT206", "open_files_limit");
    // max(10 + 5000 + 8000, 25000) = 25000 -> 25600.
    assert_eq!(f.recommended.as_deref(), Some("25600"));
    assert_contains(&f.message, "max_connections = 5000");
}

#[test]
fn mt207_idle_connections_long_wait_timeout() {
    let ev = evaluate(SEED000);
    let w = one(&ev, "MT207", "wait_timeout");
    assert_eq!(w.current.as_deref(), Some("28800"));
    assert_eq!(w.recommended.as_deref(), Some("3600"));
    let i = one(&ev, "MT207", "interactive_timeout");
    assert_eq!(i.recommended.as_deref(), Some("3600"));
    assert_contains(&w.message, "2888 of 2900 connections are idle");
    assert_contains(&w.message, "for 8h");
    // Same timeout, few idle connections.
    assert!(findings(&evaluate(BUSY), "MT207").is_empty());
    silent_on_tuned("MT207");
}

/// BUSY with an account audit that read every login and found `logins`
/// depending on names (`unread`: what it could not read).
fn busy_with_logins(logins: Vec<NameLogin>, unread: &[&str]) -> Evaluation {
    let mut facts = snapshot(BUSY);
    facts.server.as_mut().unwrap().accounts = Some(AccountAudit {
        name_logins: Some(logins),
        name_logins_unread: unread.iter().map(|u| u.to_string()).collect(),
        ..AccountAudit::default()
    });
    eval_facts(&facts, &Profile::default())
}

#[test]
fn mt208_name_resolve_enabled() {
    // The snapshot has no account audit: the switch is withheld, the
    // finding stays and says what could not be read.
    let ev = evaluate(BUSY);
    let f = one(&ev, "MT208", "skip_name_resolve");
    assert_eq!(f.current.as_deref(), Some("OFF"));
    assert_eq!(f.recommended, None);
    assert_contains(&f.message, "reverse and a forward DNS lookup");
    assert_contains(
        &f.message,
        "mytune could not read the accounts (not collected)",
    );
    assert!(!ev.recommendations.contains_key("skip_name_resolve"));
    assert_eq!(ev.withheld["skip_name_resolve"].value, "ON");
    // Every login read, none depends on names: offered.
    let ev = busy_with_logins(vec![], &[]);
    let f = one(&ev, "MT208", "skip_name_resolve");
    assert_eq!(f.recommended.as_deref(), Some("ON"));
    assert_contains(
        &f.message,
        "no account, role, proxy grant or TCP loopback login depends on a host name",
    );
    assert!(ev.withheld.is_empty());
    // A host-name account: withheld, named, with what to do first.
    let ev = busy_with_logins(
        vec![NameLogin {
            user: "app".into(),
            host: "web1.example.com".into(),
            kind: NameLoginKind::HostName,
            proxied: None,
        }],
        &[],
    );
    let f = one(&ev, "MT208", "skip_name_resolve");
    assert_eq!(f.recommended, None);
    assert_contains(
        &f.message,
        "but 1 login(s) would stop matching under skip_name_resolve = ON: 'app'@'web1.example.com' (host name); recreate each by IP address first",
    );
    assert_contains(
        &ev.withheld["skip_name_resolve"].note,
        "'app'@'web1.example.com' (host name)",
    );
    // Nothing found, but other accounts' connections were not visible.
    let ev = busy_with_logins(
        vec![],
        &["other accounts' connections over TCP loopback (needs PROCESS)"],
    );
    let f = one(&ev, "MT208", "skip_name_resolve");
    assert_eq!(f.recommended, None);
    assert_contains(
        &f.message,
        "mytune could not read other accounts' connections over TCP loopback (needs PROCESS)",
    );
    assert!(findings(&evaluate(SEED000), "MT208").is_empty());
    // No TCP at all, or only loopback: no lookups happen.
    let ev = evaluate_with(BUSY, &[("skip_networking", "ON")], &[]);
    assert!(findings(&ev, "MT208").is_empty());
    let ev = evaluate_with(BUSY, &[("bind_address", "127.0.0.1")], &[]);
    assert!(findings(&ev, "MT208").is_empty());
    let ev = evaluate_with(BUSY, &[("bind_address", "0.0.0.0")], &[]);
    assert_eq!(findings(&ev, "MT208").len(), 1);
    silent_on_tuned("MT208");
}

#[test]
fn mt209_thread_pool_for_many_connections() {
    let ev = evaluate(BUSY);
    let f = one(&ev, "MT209", "thread_handling");
    assert_eq!(f.current.as_deref(), Some("one-thread-per-connection"));
    assert_eq!(f.recommended.as_deref(), Some("pool-of-threads"));
    assert_contains(&f.message, "thread_pool_size = 16");
    // thread_pool_size already matches the CPUs: no finding for it.
    assert!(
        ev.findings
            .iter()
            .all(|f| f.variable.as_deref() != Some("thread_pool_size"))
    );
    assert_eq!(ev.recommendations["thread_pool_size"].value, "16");
    silent_on_tuned("MT209");
    // Percona with few connections: applies, silent.
    let ev = evaluate(NEAR);
    assert!(findings(&ev, "MT209").is_empty());
    assert!(not_applicable(&ev, "MT209").is_empty());
    // Percona with the profile expecting thousands of connections: fires.
    let profile = Profile {
        connections: Some(20_000),
        ..Profile::default()
    };
    let ev = eval_facts(&snapshot(NEAR), &profile);
    assert_eq!(
        one(&ev, "MT209", "thread_handling").recommended.as_deref(),
        Some("pool-of-threads")
    );
    // MySQL Community has no thread pool: never recommended there.
    let ev = evaluate(SEED000);
    assert!(findings(&ev, "MT209").is_empty());
    assert_eq!(
        not_applicable(&ev, "MT209"),
        ["applies to mariadb; percona; the target is mysql-8.0.32"]
    );
}

// ---- memory --------------------------------------------------------------

#[test]
fn mt301_recommends_what_fits_with_the_planned_buffers() {
    let ev = evaluate(SEED000);
    let f = one(&ev, "MT301", "max_connections");
    // global 16G + 4M + 400M + 16M tmp = 16804M; per connection with the
    // binlog cache at 1M (MT308): 2 x 16K network buffers + 8K + 4K prealloc
    // + 1M + 1M stack = 2.05M, and 8M of the four buffers capped at 2M (MT304)
    // while it runs a statement: (90% x 24G - 16804M) / 10.05M = 529.
    assert_eq!(f.current.as_deref(), Some("5000"));
    assert_eq!(f.recommended.as_deref(), Some("529"));
    assert_contains(&f.message, "allow 529 connections in 90% of the 24G");
    let f = one(&ev, "MT308", "binlog_cache_size");
    assert_eq!(
        (f.current.as_deref(), f.recommended.as_deref()),
        (Some("16M"), Some("1M"))
    );
    // MySQL reports no transaction sizes: the fixed 1M, and it says why.
    assert_contains(&f.message, "does not report the size of its transactions");
    let ev = evaluate(NEAR);
    assert_eq!(
        one(&ev, "MT301", "max_connections").recommended.as_deref(),
        Some("844")
    );
    assert!(findings(&evaluate(BUSY), "MT301").is_empty());
    // A configuration judgement: a 2-hour uptime does not lower its confidence.
    let ev = evaluate("mysql80-overcommitted-8g-4cpu.json");
    let f = one(&ev, "MT301", "max_connections");
    assert_eq!(f.confidence, Confidence::Medium);
    assert!(!f.message.contains("confidence lowered"), "{}", f.message);
}

#[test]
fn mt301_uses_the_buffer_pool_mt101_recommends() {
    // A 128M buffer pool on 24G: MT101 recommends 70% (16.75G with 1G units),
    // and MT301 sizes the connections for that pool, not for 128M.
    let ev = evaluate_with(SEED000, &[("innodb_buffer_pool_size", "134217728")], &[]);
    assert_eq!(
        one(&ev, "MT101", "innodb_buffer_pool_size")
            .recommended
            .as_deref(),
        Some("16G")
    );
    assert_eq!(
        one(&ev, "MT301", "max_connections").recommended.as_deref(),
        Some("529")
    );
}

#[test]
fn mt302_memory_overcommitted() {
    let ev = evaluate(SEED000);
    let f = only(&ev, "MT302");
    assert_eq!(f.severity, Severity::Crit);
    assert_eq!(f.variable, None);
    // The expected case at the peak seen: 16.4G + 16M + 3100 x (2 x 16K +
    // 8K + 4K + 16M binlog cache + 1M stack) + 3100 x 4 x 16M = 261.8G.
    assert_contains(
        &f.message,
        "the expected memory use is 261.8G (1091% of the 24G",
    );
    assert_contains(
        &f.message,
        "at 3100 connections (the peak seen, Max_used_connections)",
    );
    assert_contains(
        &f.message,
        "3100 x 17M per connection + 3100 running statements x 64M",
    );
    assert!(
        findings(&evaluate(NEAR), "MT302").is_empty(),
        "300 connections at peak fit"
    );
    assert!(findings(&evaluate(BUSY), "MT302").is_empty());
    silent_on_tuned("MT302");
}

#[test]
fn mt302_uses_the_cgroup_limit_and_the_profile_share() {
    // BUSY is at 80% of 32G; in a 24G cgroup or on half of the host it is not.
    let mut facts = snapshot(BUSY);
    let host = facts.host.as_mut().unwrap();
    host.memory.cgroup_limit_bytes = Some(24 * G);
    host.memory.effective_bytes = 24 * G;
    let ev = eval_facts(&facts, &Profile::default());
    assert_contains(&only(&ev, "MT302").message, "of the 24G the server may use");
    let profile = Profile {
        share: 0.5,
        ..Profile::default()
    };
    let ev = eval_facts(&snapshot(BUSY), &profile);
    assert_contains(&only(&ev, "MT302").message, "of the 16G the server may use");
}

#[test]
fn mt303_memory_near_limit() {
    // 900 of the 1000 connections at peak: 11G of global buffers + 16M +
    // 900 x 1.1M + 900 x 3M = 14.6G.
    let ev = evaluate_with(NEAR, &[], &[("max_used_connections", "900")]);
    let f = only(&ev, "MT303");
    assert_eq!(f.severity, Severity::Warn);
    assert_contains(
        &f.message,
        "the expected memory use is 14.6G (91% of the 16G",
    );
    assert!(
        findings(&evaluate(NEAR), "MT303").is_empty(),
        "300 connections at peak"
    );
    assert!(
        findings(&evaluate(SEED000), "MT303").is_empty(),
        "over 100% is MT302"
    );
    silent_on_tuned("MT303");
}

#[test]
fn mt304_per_connection_buffers_oversized() {
    let ev = evaluate(SEED000);
    for var in [
        "sort_buffer_size",
        "join_buffer_size",
        "read_buffer_size",
        "read_rnd_buffer_size",
    ] {
        let f = one(&ev, "MT304", var);
        assert_eq!(f.current.as_deref(), Some("16M"), "{var}");
        assert_eq!(f.recommended.as_deref(), Some("2M"), "{var}");
    }
    let f = one(&ev, "MT304", "sort_buffer_size");
    assert_contains(&f.message, "can take 312.5G with max_connections = 5000");
    // Only the oversized one is reported; the others are never raised.
    let ev = evaluate_with(BUSY, &[("join_buffer_size", "8388608")], &[]);
    let f = findings(&ev, "MT304");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].variable.as_deref(), Some("join_buffer_size"));
    assert_eq!(f[0].recommended.as_deref(), Some("2M"));
    assert_eq!(ev.recommendations["read_buffer_size"].value, "128K");
    // MariaDB's 2M sort_buffer_size default is not oversized.
    assert!(findings(&evaluate(BUSY), "MT304").is_empty());
    silent_on_tuned("MT304");
}

#[test]
fn mt305_worst_case_at_the_peak_needs_temporary_tables_at_work() {
    // The 300 connections of the peak each running a statement with 3M of
    // buffers and a 16M temporary table at once: 16.9G on 16G, while the
    // expected case (one temporary table at a time) needs 12.2G. The 1000
    // allowed connections are not counted: a limit is not a load. The
    // evidence: 14 days up, and three statements in ten built a temporary
    // table.
    let heavy = [("created_tmp_tables", "300000"), ("questions", "1000000")];
    let ev = evaluate_with(NEAR, &[], &heavy);
    let f = only(&ev, "MT305");
    assert_eq!(f.severity, Severity::Info);
    assert_contains(
        &f.message,
        "in the worst case the server uses 16.9G (106% of the 16G",
    );
    assert_contains(&f.message, "the 300 connections of the peak (the peak seen");
    assert_contains(&f.message, "the expected use is 12.2G");
    // Without counters that show temporary tables at work, the worst case
    // is only the header's figure (issue 51), as below one statement in ten.
    assert!(findings(&evaluate(NEAR), "MT305").is_empty());
    let light = [("created_tmp_tables", "90000"), ("questions", "1000000")];
    assert!(findings(&evaluate_with(NEAR, &[], &light), "MT305").is_empty());
    // Where the expected case does not fit, MT302 speaks instead.
    assert!(findings(&evaluate(SEED000), "MT305").is_empty());
    silent_on_tuned("MT305");
}

// ---- seed 000's option file, linted --------------------------------------

/// Seed 000 §2.3 (examples/seed000-best-practice.cnf, the file as published)
/// with the 32G buffer pool of its 256G test machine scaled to a 24G host,
/// evaluated as `lint` would: option-file values, catalog defaults for the
/// rest, MySQL 8.0.
#[test]
fn seed000_best_practice_cnf_on_a_24g_host() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/seed000-best-practice.cnf");
    let text = std::fs::read_to_string(&path).expect("example exists");
    assert!(text.contains("innodb_buffer_pool_size = 32G"));
    let text = text.replace(
        "innodb_buffer_pool_size = 32G",
        "innodb_buffer_pool_size = 16G",
    );
    let target: Target = "mysql-8.0".parse().unwrap();
    let files = mytune::cnf::load_str(&text, &path);
    let mut facts = Facts {
        config: Some(files.effective(&mytune::cnf::server_groups(&target))),
        ..Facts::default()
    };
    facts.host = Some(HostFacts {
        source: HostSource::Described,
        memory: Memory {
            total_bytes: 24 * G,
            effective_bytes: 24 * G,
            effective_source: "--memory".into(),
            ..Memory::default()
        },
        cpu: Cpu {
            logical: 8,
            effective: 8,
            effective_source: "--cpus".into(),
            ..Cpu::default()
        },
        ..HostFacts::default()
    });
    let catalog = Catalog::for_target(&target).expect("mysql-8.0 catalog");
    let defaults = |name: &str| -> Option<String> {
        let info = catalog.get(name)?;
        match info.status_at(target.version) {
            VarStatus::Removed { .. } => None,
            _ => info.default.clone(),
        }
    };
    let known = |name: &str| {
        catalog
            .get(name)
            .is_some_and(|i| !matches!(i.status_at(target.version), VarStatus::Removed { .. }))
    };
    let profile = Profile::default();
    let ev = RuleSet::builtin().unwrap().evaluate(
        &EvalInput::new(&facts, &profile)
            .with_target(target)
            .with_defaults(&defaults)
            .with_known_variables(&known),
    );

    let over = only(&ev, "MT302");
    assert_eq!(over.severity, Severity::Crit);
    assert_contains(
        &over.message,
        "at 5000 connections (every allowed connection, max_connections)",
    );
    let f = one(&ev, "MT304", "sort_buffer_size");
    assert_eq!(f.current.as_deref(), Some("16M"));
    assert_eq!(f.recommended.as_deref(), Some("2M"));
    let loc = f.location.as_ref().unwrap();
    assert_eq!((loc.file.as_path(), loc.line), (path.as_path(), 20));
    let f = one(&ev, "MT301", "max_connections");
    assert_eq!(f.current.as_deref(), Some("5000"));
    let rec: u64 = f.recommended.as_deref().unwrap().parse().unwrap();
    assert!((10..1000).contains(&rec), "{rec}");
    let loc = f.location.as_ref().unwrap();
    assert_eq!((loc.file.as_path(), loc.line), (path.as_path(), 8));
    // The thread pool is never recommended for MySQL.
    assert!(findings(&ev, "MT209").is_empty());
}

// ---- consistency across every snapshot -----------------------------------

/// No snapshot gets two findings that recommend different values for one
/// variable, under the default profile or the relaxed/OLAP one, and the
/// recommendation set agrees with the findings.
#[test]
fn no_snapshot_gets_contradictory_recommendations() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/snapshots");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    assert!(names.len() >= 8, "{names:?}");
    let relaxed = Profile {
        durability: Durability::Relaxed,
        workload: Workload::Olap,
        ..Profile::default()
    };
    let mut inputs = vec![(names.clone(), Profile::default())];
    inputs.push((names, relaxed));
    for (names, profile) in inputs {
        for name in names {
            let ev = eval_facts(&snapshot(&name), &profile);
            let mut seen: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
            for f in &ev.findings {
                let (Some(var), Some(rec)) = (&f.variable, &f.recommended) else {
                    continue;
                };
                if let Some((code, other)) = seen.insert(var, (&f.code, rec)) {
                    assert_eq!(
                        other, rec,
                        "{name}: {code} and {} disagree on {var}",
                        f.code
                    );
                }
                assert_eq!(&ev.recommendations[var].value, rec, "{name} {var}");
            }
        }
    }
}

// ---- real MySQLTuner dumps (../shared/fixtures/dumps) --------------------

/// Server facts from a MySQLTuner `result.json` ("Variables" and "Status").
fn mysqltuner_facts(path: &Path, target: Target) -> Facts {
    let text = std::fs::read_to_string(path).expect("dump readable");
    let json: serde_json::Value = serde_json::from_str(&text).expect("dump is JSON");
    let map = |key: &str| -> BTreeMap<String, String> {
        json[key]
            .as_object()
            .expect("a map")
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (k.to_ascii_lowercase(), v)
            })
            .collect()
    };
    let variables = map("Variables");
    let status = map("Status");
    let server = serde_json::json!({
        "version_string": variables["version"],
        "flavor": target.flavor,
        "version": target.version,
        "uptime_secs": status["uptime"].parse::<u64>().unwrap(),
        "is_local": true,
        "variables": variables,
        "status": status,
    });
    let mut facts = snapshot(TUNED);
    facts.server = Some(serde_json::from_value(server).expect("server facts"));
    facts
}

/// On real MySQL 5.7 / 8.0 and MariaDB dumps (on TUNED's 64G host), the
/// connection and memory rules never recommend a variable that the version
/// lacks, and their findings agree with each other.
#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn real_dumps_get_version_valid_advice() {
    let Some(root) = shared_dir() else {
        eprintln!("skipping: ../shared (real fixtures) is not present");
        return;
    };
    let dumps = root.join("fixtures/dumps");
    let cases = [
        (
            "mysql-8.0.32__major_MySQLTuner-perl__examples__github__result__mysql__8__result.json",
            "mysql-8.0.32",
        ),
        (
            "mysql-5.7.41__major_MySQLTuner-perl__examples__github__result__mysql__5.7__result.json",
            "mysql-5.7.41",
        ),
        (
            "mariadb-10.9.5__major_MySQLTuner-perl__examples__github__result__mariadb__10.9__result.json",
            "mariadb-10.11.9",
        ),
    ];
    for (file, target) in cases {
        let target: Target = target.parse().unwrap();
        let catalog = Catalog::for_target(&target).expect("catalog");
        let facts = mysqltuner_facts(&dumps.join(file), target);
        let ev = eval_facts(&facts, &Profile::default());
        let ours: Vec<&Finding> = ev
            .findings
            .iter()
            .filter(|f| f.code.starts_with("MT2") || f.code.starts_with("MT3"))
            .collect();
        for f in &ours {
            if let Some(var) = &f.variable {
                let info = catalog
                    .get(var)
                    .unwrap_or_else(|| panic!("{file}: {} names unknown {var}", f.code));
                assert!(
                    !matches!(info.status_at(target.version), VarStatus::Removed { .. }),
                    "{file}: {} recommends removed {var}",
                    f.code
                );
            }
        }
        // A default server with 151 connections on 64G: nothing about memory
        // or connection limits; name resolution is on and it listens on `*`.
        let codes: Vec<&str> = ours.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(codes, ["MT208"], "{file}: {ours:#?}");
        if target.flavor == Flavor::Mysql {
            assert_eq!(not_applicable(&ev, "MT209").len(), 1, "{file}");
        }
    }
}

/// An option file for MariaDB on a host whose share for the server is small:
/// the default 128M key buffer and 128M Aria page cache crowd it (MT306,
/// MT307); on the whole 4G neither is more than 5%.
#[test]
fn mt306_mt307_myisam_and_aria_caches_on_a_small_host() {
    let facts = snapshot("cnf-seed-style-4g-2cpu.json");
    let target: Target = "mariadb-10.11".parse().unwrap();
    let catalog = Catalog::for_target(&target).unwrap();
    let defaults = |n: &str| catalog.get(n).and_then(|v| v.default.clone());
    let rules = RuleSet::builtin().unwrap();
    let run = |share: f64| {
        let profile = Profile {
            share,
            ..Profile::default()
        };
        rules.evaluate(
            &EvalInput::new(&facts, &profile)
                .with_target(target)
                .with_defaults(&defaults),
        )
    };
    let ev = run(1.0);
    assert!(findings(&ev, "MT306").is_empty(), "128M of 4G");
    assert!(findings(&ev, "MT307").is_empty(), "128M of 4G");

    let ev = run(0.25);
    let k = one(&ev, "MT306", "key_buffer_size");
    assert_eq!(k.current.as_deref(), Some("128M"));
    assert_eq!(k.recommended.as_deref(), Some("8M"));
    assert_contains(&k.message, "no MyISAM tables known");
    let a = one(&ev, "MT307", "aria_pagecache_buffer_size");
    assert_eq!(a.current.as_deref(), Some("128M"));
    // 5% of 1G, whole megabytes.
    assert_eq!(a.recommended.as_deref(), Some("51M"));

    // MySQL has no Aria; its 8M key buffer is below the 16M floor.
    let mysql: Target = "mysql-8.0".parse().unwrap();
    let catalog80 = Catalog::for_target(&mysql).unwrap();
    let defaults80 = |n: &str| catalog80.get(n).and_then(|v| v.default.clone());
    let profile = Profile {
        share: 0.25,
        ..Profile::default()
    };
    let ev = rules.evaluate(
        &EvalInput::new(&facts, &profile)
            .with_target(mysql)
            .with_defaults(&defaults80),
    );
    assert!(findings(&ev, "MT306").is_empty());
    assert!(findings(&ev, "MT307").is_empty());
    silent_on_tuned("MT306");
    silent_on_tuned("MT307");
}

#[test]
fn mt308_bounds_binlog_cache_size_by_the_transactions_seen() {
    // MariaDB with seed 000 §2.3's 16M cache: 200000 transactions, none
    // spilled to disk, 2.5K written to the binary log per transaction on
    // average: 8 x 2.5K = 20K, rounded up to 32K (the default) suffices.
    let vars = [("binlog_cache_size", "16777216"), ("log_bin", "ON")];
    let counters = [
        ("binlog_cache_use", "200000"),
        ("binlog_cache_disk_use", "0"),
        ("binlog_commits", "200000"),
        ("binlog_bytes_written", "512000000"),
    ];
    let ev = evaluate_with(BUSY, &vars, &counters);
    let f = one(&ev, "MT308", "binlog_cache_size");
    assert_eq!(
        (f.current.as_deref(), f.recommended.as_deref()),
        (Some("16M"), Some("32K"))
    );
    assert_contains(
        &f.message,
        "while almost no transaction needed a temporary file",
    );
    assert_contains(
        &f.message,
        "is 8 times the average transaction this server wrote",
    );
    // Larger transactions (40K on average): 320K, never above 1M.
    let mut big = counters;
    big[3] = ("binlog_bytes_written", "8192000000");
    let ev = evaluate_with(BUSY, &vars, &big);
    assert_eq!(
        one(&ev, "MT308", "binlog_cache_size")
            .recommended
            .as_deref(),
        Some("320K")
    );
    // Too few transactions to judge by: the fixed 1M.
    let mut few = counters;
    few[2] = ("binlog_commits", "500");
    let ev = evaluate_with(BUSY, &vars, &few);
    assert_eq!(
        one(&ev, "MT308", "binlog_cache_size")
            .recommended
            .as_deref(),
        Some("1M")
    );
    // Without the binary log no connection allocates the cache.
    let ev = evaluate_with(
        BUSY,
        &[("binlog_cache_size", "16777216"), ("log_bin", "OFF")],
        &counters,
    );
    assert!(findings(&ev, "MT308").is_empty());
}
