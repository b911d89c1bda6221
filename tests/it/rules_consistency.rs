//! Properties of the whole rule catalog, over every snapshot in
//! `tests/fixtures/snapshots/` and the real server dumps in
//! `../shared/fixtures/dumps/`, under several profiles:
//!
//! - no two findings push one variable to different values;
//! - every recommended server variable exists (and is not removed) in the
//!   variable catalog of the server's version;
//! - applying the recommendation set does not make memory overcommitted: the
//!   advice keeps the total in bounds.

use crate::support::shared as shared_support;
use shared_support::shared_path;

use std::collections::BTreeMap;
use std::path::Path;

use mytune::catalog::Catalog;
use mytune::facts::host::{Cpu, Disk, DiskKind, HostFacts, HostSource, Memory};
use mytune::facts::{Facts, ServerFacts};
use mytune::rules::{Durability, EvalInput, Evaluation, Profile, RuleSet, Workload};
use mytune::target::{Flavor, Version};

fn snapshots() -> Vec<(String, Facts)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/snapshots");
    let mut out: Vec<(String, Facts)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let facts = Facts::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.file_name().unwrap().to_string_lossy().into_owned(), facts)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn lower(map: &serde_json::Map<String, serde_json::Value>) -> BTreeMap<String, String> {
    map.iter()
        .filter_map(|(k, v)| {
            let v = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                _ => return None,
            };
            Some((k.to_ascii_lowercase(), v))
        })
        .collect()
}

fn server(
    flavor: Flavor,
    variables: BTreeMap<String, String>,
    status: BTreeMap<String, String>,
) -> ServerFacts {
    let version_string = variables.get("version").cloned().unwrap_or_default();
    ServerFacts {
        version: Version::parse_prefix(&version_string).expect("a version"),
        version_string,
        version_comment: variables.get("version_comment").cloned(),
        flavor,
        uptime_secs: status
            .get("uptime")
            .and_then(|u| u.parse().ok())
            .unwrap_or(0),
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
    }
}

/// A described 16 GiB / 8 CPU SSD host, so host-dependent rules run on the dumps.
fn described_host() -> HostFacts {
    HostFacts {
        source: HostSource::Described,
        memory: Memory {
            total_bytes: 16 << 30,
            cgroup_limit_bytes: None,
            effective_bytes: 16 << 30,
            effective_source: "test".into(),
        },
        cpu: Cpu {
            logical: 8,
            cgroup_quota: None,
            effective: 8,
            effective_source: "test".into(),
        },
        datadir_disk: Some(Disk {
            kind: DiskKind::Ssd,
            ..Disk::default()
        }),
        ..HostFacts::default()
    }
}

fn real_dumps() -> Vec<(String, Facts)> {
    let Some(dir) = shared_path("fixtures/dumps") else {
        eprintln!("skipped the real dumps: ../shared/fixtures/dumps is absent");
        return Vec::new();
    };
    let mut out = Vec::new();
    for (file, flavor) in [
        (
            "mysql-5.7.41__major_MySQLTuner-perl__examples__github__result__mysql__5.7__result.json",
            Flavor::Mysql,
        ),
        (
            "mysql-8.0.32__major_MySQLTuner-perl__examples__github__result__mysql__8__result.json",
            Flavor::Mysql,
        ),
        (
            "mariadb-10.9.5__major_MySQLTuner-perl__examples__github__result__mariadb__10.9__result.json",
            Flavor::Mariadb,
        ),
    ] {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap()).unwrap();
        let facts = Facts {
            server: Some(server(
                flavor,
                lower(v["Variables"].as_object().unwrap()),
                lower(v["Status"].as_object().unwrap()),
            )),
            host: Some(described_host()),
            ..Facts::default()
        };
        out.push((file.split("__").next().unwrap().to_string(), facts));
    }
    let tsv = |name: &str| -> BTreeMap<String, String> {
        std::fs::read_to_string(dir.join(name))
            .unwrap()
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(k, v)| (k.to_ascii_lowercase(), v.to_string()))
            .collect()
    };
    out.push((
        "mariadb-10.11.19 (tsv)".into(),
        Facts {
            server: Some(server(
                Flavor::Mariadb,
                tsv("mariadb-10.11.19_show-global-variables.tsv"),
                tsv("mariadb-10.11.19_show-global-status.tsv"),
            )),
            host: Some(described_host()),
            ..Facts::default()
        },
    ));
    out
}

fn profiles() -> Vec<(&'static str, Profile)> {
    let relaxed = Profile {
        durability: Durability::Relaxed,
        ..Profile::default()
    };
    let olap = Profile {
        workload: Workload::Olap,
        ..Profile::default()
    };
    let shared = Profile {
        share: 0.5,
        connections: Some(2000),
        ..Profile::default()
    };
    vec![
        ("strict", Profile::default()),
        ("relaxed", relaxed),
        ("olap", olap),
        ("half-share", shared),
    ]
}

fn evaluate(set: &RuleSet, facts: &Facts, profile: &Profile) -> Evaluation {
    let catalog = facts
        .server
        .as_ref()
        .and_then(|s| Catalog::for_target(&s.target()).ok());
    let known = |name: &str| match catalog {
        Some(c) => c.get(name).is_some_and(|v| !v.status.is_removed()),
        None => true,
    };
    set.evaluate(&EvalInput::new(facts, profile).with_known_variables(&known))
}

fn all_cases() -> Vec<(String, Facts)> {
    let mut cases = snapshots();
    cases.extend(real_dumps());
    assert!(cases.len() >= 10, "fixtures are missing");
    cases
}

/// Every fixture snapshot and real dump under every profile: no two
/// findings push one variable to different values (the rule files are
/// checked statically too; this catches disagreements through lets).
#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn no_variable_is_pushed_two_ways() {
    let set = RuleSet::builtin().unwrap();
    for (name, facts) in all_cases() {
        for (pname, profile) in profiles() {
            let ev = evaluate(&set, &facts, &profile);
            let mut seen: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
            for f in &ev.findings {
                let (Some(var), Some(rec)) = (f.variable.as_deref(), f.recommended.as_deref())
                else {
                    continue;
                };
                if let Some((code, other)) = seen.insert(var, (&f.code, rec)) {
                    assert_eq!(
                        other, rec,
                        "{name} ({pname}): {var} pushed to {other} by {code} and to {rec} by {}",
                        f.code
                    );
                }
            }
        }
    }
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn recommendations_exist_in_the_servers_version() {
    let set = RuleSet::builtin().unwrap();
    let mut checked = 0;
    for (name, facts) in all_cases() {
        let Some(server) = &facts.server else {
            continue;
        };
        let catalog = Catalog::for_target(&server.target()).unwrap();
        for (pname, profile) in profiles() {
            let ev = evaluate(&set, &facts, &profile);
            for var in ev.recommendations.keys().filter(|v| !v.contains(':')) {
                let info = catalog.get(var).unwrap_or_else(|| {
                    panic!(
                        "{name} ({pname}): {var} is not a {} variable",
                        server.target()
                    )
                });
                assert!(
                    !info.status.is_removed(),
                    "{name} ({pname}): {var} is removed in {}",
                    server.target()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "only {checked} recommendations were checked");
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn applying_the_advice_keeps_memory_in_bounds() {
    let set = RuleSet::builtin().unwrap();
    let mut applied = 0;
    for (name, mut facts) in all_cases() {
        if facts.server.is_none() || facts.host.is_none() {
            continue;
        }
        let profile = Profile::default();
        // Apply the advice a few times (later advice may depend on earlier).
        for _ in 0..3 {
            let ev = evaluate(&set, &facts, &profile);
            let server = facts.server.as_mut().unwrap();
            for (var, rec) in &ev.recommendations {
                if !var.contains(':') {
                    server.variables.insert(var.clone(), rec.value.clone());
                }
            }
        }
        let ev = evaluate(&set, &facts, &profile);
        let memory: Vec<_> = ev
            .findings
            .iter()
            .filter(|f| matches!(f.code.as_str(), "MT301" | "MT302" | "MT303"))
            .map(|f| format!("{} {}", f.code, f.message))
            .collect();
        assert!(
            memory.is_empty(),
            "{name}: after applying the advice: {memory:#?}"
        );
        applied += 1;
    }
    assert!(
        applied >= 5,
        "only {applied} cases had server and host facts"
    );
}
