//! The built-in catalog on real server output: the MariaDB 10.11.19 default
//! `SHOW GLOBAL VARIABLES` / `STATUS` dumps in `../shared/fixtures/dumps`
//! (skipped with a message where `../shared` is absent). Proves the
//! coercions cope with real values and that nothing fires falsely on a
//! default server whose host is unknown.

use crate::support::shared as shared_support;
use shared_support::shared_dir;

use std::collections::BTreeMap;
use std::path::PathBuf;

use mytune::facts::host::{Cpu, HostFacts, Limit, Memory, ProcessLimits};
use mytune::facts::{Facts, ServerFacts};
use mytune::rules::{EvalInput, Profile, RuleSet};
use mytune::target::{Flavor, Version};

fn tsv(path: PathBuf) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(&path).expect("dump readable");
    text.lines()
        .skip(1)
        .filter_map(|l| l.split_once('\t'))
        .map(|(k, v)| (k.to_ascii_lowercase(), v.to_string()))
        .collect()
}

fn mariadb_1011() -> Option<Facts> {
    let Some(root) = shared_dir() else {
        eprintln!("skipping: ../shared (real fixtures) is not present");
        return None;
    };
    let dumps = root.join("fixtures/dumps");
    let variables = tsv(dumps.join("mariadb-10.11.19_show-global-variables.tsv"));
    let status = tsv(dumps.join("mariadb-10.11.19_show-global-status.tsv"));
    let uptime = status["uptime"].parse().unwrap();
    Some(Facts {
        server: Some(ServerFacts {
            version_string: variables["version"].clone(),
            version_comment: variables.get("version_comment").cloned(),
            flavor: Flavor::Mariadb,
            version: Version::parse_prefix(&variables["version"]).unwrap(),
            uptime_secs: uptime,
            is_local: true,
            variables,
            status,
            sample: None,
            accounts: None,
            data_size: None,
            host_cache: None,
            grants: Vec::new(),
            queries: None,
            error_log: None,
        }),
        ..Facts::default()
    })
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn default_mariadb_without_host_facts() {
    let Some(facts) = mariadb_1011() else { return };
    let profile = Profile::default();
    let ev = RuleSet::builtin()
        .unwrap()
        .evaluate(&EvalInput::new(&facts, &profile));
    // Host-dependent rules are not applicable without host facts and say
    // why. MT403 runs on status alone and does not fire (5 connections); the
    // slow log is off with long_query_time = 10 on a default MariaDB (the
    // default profile leaves the log as shipped: too few statements ran to
    // tell who would pay for it, MT501), so its threshold decides nothing
    // and MT502 is silent (issue 51); the
    // default server resolves client names and listens on every address
    // (bind_address is empty: MT208), and the security rules fire on real
    // defaults: no TLS while listening on all addresses, local_infile ON,
    // symlinks allowed.
    let codes: Vec<&str> = ev.findings.iter().map(|f| f.code.as_str()).collect();
    assert_eq!(
        codes,
        ["MT208", "MT707", "MT708", "MT709"],
        "{:#?}",
        ev.findings
    );
    for code in ["MT101", "MT102", "MT103", "MT301", "MT402"] {
        let reasons: Vec<_> = ev
            .not_applicable
            .iter()
            .filter(|n| n.code == code)
            .collect();
        assert_eq!(reasons.len(), 1, "{code}: {:?}", ev.not_applicable);
        assert!(
            reasons[0].reason.contains("(no host facts)"),
            "{code}: {}",
            reasons[0].reason
        );
    }
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn default_mariadb_on_a_described_host() {
    let Some(mut facts) = mariadb_1011() else {
        return;
    };
    facts.host = Some(HostFacts {
        memory: Memory {
            total_bytes: 8 << 30,
            cgroup_limit_bytes: None,
            effective_bytes: 8 << 30,
            effective_source: "--memory".into(),
        },
        cpu: Cpu {
            logical: 4,
            cgroup_quota: None,
            effective: 4,
            effective_source: "--cpus".into(),
        },
        sysctl: [("net.core.somaxconn".to_string(), "4096".to_string())].into(),
        // Debian's mariadb.service sets LimitNOFILE=32768.
        server_process: Some(ProcessLimits {
            pid: 1,
            name: "mariadbd".into(),
            nofile_soft: Some(Limit::Value(32768)),
            nofile_hard: Some(Limit::Value(32768)),
            ..ProcessLimits::default()
        }),
        ..HostFacts::default()
    });
    let profile = Profile::default();
    // As check judges it: one plan, each rule on the server as the report's
    // changes leave it.
    let catalog =
        mytune::catalog::Catalog::for_target(&facts.server.as_ref().unwrap().target()).unwrap();
    let known = |name: &str| catalog.get(name).is_some();
    let ev =
        mytune::check::coherent::evaluate(&RuleSet::builtin().unwrap(), &facts, &profile, &known);
    let codes: Vec<&str> = ev.findings.iter().map(|f| f.code.as_str()).collect();
    // The 128M default buffer pool is too small for 8G; the slow log and the
    // Performance Schema are off, as MariaDB ships them, which the default
    // observability accepts, so long_query_time = 10 s decides nothing and
    // MT502 is silent (issue 51); the 96M redo
    // log is small for the buffer pool MT101 recommends (MT113, which says
    // it judges with that pool); the server
    // resolves names on every address (MT208); the worst case is judged at
    // the peak seen, and a dump's single connection is no peak to fear
    // (MT305 silent, issue 51: 151 allowed connections are not a load); no TLS, local_infile ON and symlinks (MT707-MT709). Everything else of a default
    // 10.11 is within the rules (query cache OFF, thread cache 151, 4+4 I/O
    // threads on 4 CPUs, back_log 80 under somaxconn, memory and file limits).
    assert_eq!(
        codes,
        ["MT101", "MT113", "MT208", "MT707", "MT708", "MT709"],
        "{:#?}",
        ev.findings
    );
    assert_eq!(ev.findings[0].current.as_deref(), Some("128M"));
    // innodb_buffer_pool_chunk_size is 0 on 10.11 (auto): rounded to 128M.
    assert_eq!(ev.findings[0].recommended.as_deref(), Some("5632M"));
    // A quarter of that 5632M pool (1408M, a multiple of 32M); one redo
    // file on 10.11.
    assert_eq!(
        ev.findings[1].variable.as_deref(),
        Some("innodb_log_file_size")
    );
    assert_eq!(ev.findings[1].current.as_deref(), Some("96M"));
    assert_eq!(ev.findings[1].recommended.as_deref(), Some("1408M"));
    assert!(
        ev.findings[1]
            .message
            .starts_with("with this report's innodb_buffer_pool_size = 5632M (MT101): "),
        "{}",
        ev.findings[1].message
    );
    // MT403 reads status on a server up 4 seconds: it does not fire. Only
    // rules for other flavors/versions and rules needing facts this
    // described host lacks (disk type, data size, the host cache of a
    // server with performance_schema off) are not applicable.
    let unexpected: Vec<_> = ev
        .not_applicable
        .iter()
        .filter(|n| {
            !n.reason.starts_with("applies to ")
                && !n.reason.contains("disk type is unknown")
                && !n.reason.contains("data size per engine was not collected")
                && !n.reason.contains("data size was not collected")
                && !n.reason.contains("account audit")
                && !n.reason.contains("no sysctl values")
                && !n.reason.contains("is unknown")
                && !n.reason.contains("setting unknown")
                && !n.reason.contains("the kernel does not report it")
                && !n.reason.contains("performance_schema is off")
        })
        .collect();
    assert!(unexpected.is_empty(), "{unexpected:#?}");
}
