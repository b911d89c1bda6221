//! gen-cnf over every supported target and a range of host sizes: every
//! generated name exists in the target's catalog, every value is accepted
//! as is, and the configuration's worst-case memory fits the host.

use mytune::catalog::Resolve;
use std::collections::BTreeMap;
use std::path::Path;

use mytune::catalog::Catalog;
use mytune::cnf;
use mytune::collect::host::{HostDescription, describe};
use mytune::facts::Facts;
use mytune::facts::host::{DiskKind, HostFacts, Memory};
use mytune::generate::{self, cnf::Origin};
use mytune::rules::{Durability, Observability, Profile, RuleSet, Workload};
use mytune::target::Target;
use mytune::units;

/// The host sizes of the acceptance criteria: (label, host).
fn hosts() -> Vec<(&'static str, HostFacts)> {
    let described = |mem: u64, cpus: u32, disk: DiskKind| {
        describe(
            &HostDescription {
                memory_bytes: Some(mem),
                cpus: Some(cpus),
                disk: Some(disk),
            },
            None,
        )
    };
    let mut cgroup = described(64 << 30, 16, DiskKind::Ssd);
    cgroup.memory = Memory {
        total_bytes: 64 << 30,
        cgroup_limit_bytes: Some(2 << 30),
        effective_bytes: 2 << 30,
        effective_source: "cgroup v2 memory.max".into(),
    };
    vec![
        ("1G/1", described(1 << 30, 1, DiskKind::Hdd)),
        ("8G/4", described(8 << 30, 4, DiskKind::Ssd)),
        ("64G/16", described(64 << 30, 16, DiskKind::Ssd)),
        ("512G/96", described(512 << 30, 96, DiskKind::Ssd)),
        ("2G cgroup on 64G", cgroup),
    ]
}

fn profiles() -> Vec<Profile> {
    let mut out = Vec::new();
    for durability in [Durability::Strict, Durability::Relaxed] {
        for workload in [Workload::Oltp, Workload::Olap, Workload::Mixed] {
            out.push(Profile {
                durability,
                workload,
                connections: None,
                share: 1.0,
                ..Profile::default()
            });
        }
    }
    out.push(Profile {
        connections: Some(2000),
        share: 0.5,
        ..Profile::default()
    });
    out.push(Profile {
        observability: Observability::Lean,
        ..Profile::default()
    });
    out
}

/// Generate the option file text for one case.
fn generate(rules: &RuleSet, host: &HostFacts, profile: &Profile, target: Target) -> String {
    let facts = Facts {
        host: Some(host.clone()),
        ..Facts::default()
    };
    let plan = generate::plan::build(rules, &facts, profile, target)
        .unwrap_or_else(|e| panic!("{target}: {e}"));
    generate::cnf::render(&plan, &["test".into()], None, Origin::Defaults)
        .unwrap_or_else(|e| panic!("{target}: {e}"))
}

/// The options of the generated file's group, read back with the
/// option-file reader (the file must parse without problems).
fn read_back(text: &str, target: &Target) -> BTreeMap<String, String> {
    let loaded = cnf::load_str(text, Path::new("generated.cnf"));
    assert!(
        loaded.errors.is_empty(),
        "{target}: the generated file has problems: {:?}\n{text}",
        loaded.errors
    );
    let facts = loaded.effective(&[target.flavor.traits().own_group.to_string()]);
    facts
        .options
        .into_iter()
        .map(|(k, o)| (k, o.value))
        .collect()
}

/// The memory model's two cases, computed here from the file alone (the
/// catalog supplies the defaults), independently of the rules: `expected`
/// is every allowed connection open, each holding its session memory
/// (network buffers, prealloc blocks, the binlog cache with the binary log
/// on, a thread stack with one thread per connection), and as many running
/// a statement with its sort/join/read buffers as can run at once (all of
/// them, or with the thread pool thread_pool_size x (1 + oversubscribe)),
/// plus the global buffers and one in-memory temporary table; `worst` has
/// every connection (with the pool, every pool thread up to
/// thread_pool_max_threads) running a statement with an in-memory temporary
/// table of its own, as MySQLTuner counts.
fn memory_cases(options: &BTreeMap<String, String>, catalog: &Catalog, cpus: u64) -> (u64, u64) {
    let text = |name: &str| -> Option<String> {
        options
            .get(name)
            .cloned()
            .or_else(|| catalog.get(name).and_then(|v| v.default.clone()))
    };
    let value = |name: &str| -> u64 {
        text(name)
            .and_then(|t| units::parse_size(&t).ok())
            .unwrap_or(0)
    };
    let pooled = text("thread_handling").as_deref() == Some("pool-of-threads");
    let temptable = text("internal_tmp_mem_storage_engine").as_deref() == Some("TempTable");
    let binlog_on = !matches!(text("log_bin").as_deref(), None | Some("OFF" | "0" | ""));
    let global = [
        "innodb_buffer_pool_size",
        "key_buffer_size",
        "innodb_log_buffer_size",
        "query_cache_size",
        "aria_pagecache_buffer_size",
    ]
    .iter()
    .map(|n| value(n))
    .sum::<u64>();
    let tmp_one = value("tmp_table_size").min(value("max_heap_table_size"));
    // MySQL 8.0's TempTable engine: one shared pool instead of a table each.
    let (tmp_each, tmp_shared) = if temptable {
        (
            0,
            text("temptable_max_ram").map_or(1 << 30, |_| value("temptable_max_ram")),
        )
    } else {
        (tmp_one, 0)
    };
    let session = 2 * value("net_buffer_length")
        + value("query_prealloc_size")
        + value("transaction_prealloc_size")
        + if binlog_on {
            value("binlog_cache_size")
        } else {
            0
        }
        + if pooled { 0 } else { value("thread_stack") };
    let statement = [
        "sort_buffer_size",
        "join_buffer_size",
        "read_buffer_size",
        "read_rnd_buffer_size",
    ]
    .iter()
    .map(|n| value(n))
    .sum::<u64>()
        + if pooled { value("thread_stack") } else { 0 };
    let connections = value("max_connections");
    let running = if pooled {
        let size = if options.contains_key("thread_pool_size") {
            value("thread_pool_size")
        } else {
            cpus
        };
        connections.min(size * (1 + value("thread_pool_oversubscribe").max(1)))
    } else {
        connections
    };
    let threads = if pooled {
        connections.min(value("thread_pool_max_threads"))
    } else {
        connections
    };
    let expected = global + tmp_one + connections * session + running * statement;
    let worst = global + tmp_shared + connections * session + threads * (statement + tmp_each);
    (expected, worst)
}

#[test]
fn every_target_and_host_size_gives_valid_values_within_memory() {
    let rules = RuleSet::builtin().unwrap();
    let mut cases = 0;
    for target in Catalog::supported() {
        let catalog = Catalog::for_target(&target).unwrap();
        for (label, host) in hosts() {
            for profile in profiles() {
                let text = generate(&rules, &host, &profile, target);
                let options = read_back(&text, &target);
                for (name, value) in &options {
                    let info = catalog.get(name).unwrap_or_else(|| {
                        panic!("{target} {label}: {name} is not in the catalog\n{text}")
                    });
                    assert!(
                        !info.status_at(target.version).is_removed(),
                        "{target} {label}: {name} was removed\n{text}"
                    );
                    if let Err(e) = info.check_value(value) {
                        panic!("{target} {label}: {name} = {value}: {e}\n{text}");
                    }
                }
                let budget = (host.memory.effective_bytes as f64 * profile.share) as u64;
                let (expected, worst) =
                    memory_cases(&options, catalog, u64::from(host.cpu.effective));
                assert!(
                    expected <= budget,
                    "{target} {label} {profile:?}: expected case {} > {} of memory\n{text}",
                    units::human_size(expected),
                    units::human_size(budget)
                );
                // The thread pool's thread limit bounds the worst case, down
                // to the statements the pool runs anyway (thread_pool_size x
                // (1 + oversubscribe)): below that no limit helps.
                let num = |k: &str| options.get(k).and_then(|v| v.parse::<u64>().ok());
                let floor = num("thread_pool_size").unwrap_or(u64::from(host.cpu.effective)) * 4;
                if options.get("thread_handling").map(String::as_str) == Some("pool-of-threads")
                    && num("thread_pool_max_threads").is_none_or(|t| t > floor)
                {
                    assert!(
                        worst <= budget,
                        "{target} {label} {profile:?}: worst case {} > {} with the thread pool\n{text}",
                        units::human_size(worst),
                        units::human_size(budget)
                    );
                }
                cases += 1;
            }
        }
    }
    assert_eq!(cases, Catalog::supported().len() * 5 * 8);
}

#[test]
fn every_line_names_its_rule_and_sizes_have_suffixes() {
    let rules = RuleSet::builtin().unwrap();
    let host = &hosts()[2].1;
    let target: Target = "mariadb-10.11".parse().unwrap();
    let text = generate(&rules, host, &Profile::default(), target);
    assert!(text.contains("\n[mariadb]\n"), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    let mut options = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with('#') || line.starts_with('[') || line.trim().is_empty() {
            continue;
        }
        options += 1;
        // The comment block right above names the rule.
        let above = lines[..i]
            .iter()
            .rev()
            .take_while(|l| l.starts_with('#'))
            .last()
            .unwrap_or_else(|| panic!("no comment above {line}\n{text}"));
        assert!(above.starts_with("# MT"), "{above}\n{text}");
    }
    assert!(options > 0, "{text}");
    // 70% of 64G, in whole megabytes at least.
    let bp = text
        .lines()
        .find_map(|l| l.strip_prefix("innodb_buffer_pool_size = "))
        .unwrap();
    assert!(bp.ends_with('M') || bp.ends_with('G'), "{bp}");
}

#[test]
fn mysql_files_use_mysqld_and_mariadb_files_use_mariadb() {
    let rules = RuleSet::builtin().unwrap();
    let host = &hosts()[1].1;
    for (t, group) in [
        ("mysql-8.0", "[mysqld]"),
        ("mysql-8.4", "[mysqld]"),
        ("percona-8.0", "[mysqld]"),
        ("mariadb-10.6", "[mariadb]"),
        ("mariadb-11.4", "[mariadb]"),
    ] {
        let text = generate(&rules, host, &Profile::default(), t.parse().unwrap());
        assert!(text.contains(&format!("\n{group}\n")), "{t}: {text}");
    }
}

#[test]
fn a_base_file_keeps_its_lines() {
    let rules = RuleSet::builtin().unwrap();
    let host = &hosts()[1].1;
    let target: Target = "mysql-8.0".parse().unwrap();
    let facts = Facts {
        host: Some(host.clone()),
        ..Facts::default()
    };
    let plan = generate::plan::build(&rules, &facts, &Profile::default(), target).unwrap();
    let base = "# mine\n[mysqld]\ndatadir = /srv/db   # keep\ninnodb_buffer_pool_size = 128M\n";
    let text = generate::cnf::render(&plan, &[], Some(base), Origin::BaseFile).unwrap();
    assert!(
        text.starts_with("# mine\n[mysqld]\ndatadir = /srv/db   # keep\n"),
        "{text}"
    );
    assert!(!text.contains("= 128M"), "{text}");
    assert!(text.contains("(was 128M)"), "{text}");
    assert_eq!(text.matches("innodb_buffer_pool_size").count(), 1, "{text}");
}

/// Strict durability is the default profile: starting from a relaxed file,
/// the generated settings restore it; the relaxed profile relaxes only when
/// asked for. (The values come from the InnoDB durability rules.)
#[test]
fn strict_durability_is_restored_and_relaxed_only_on_request() {
    let rules = RuleSet::builtin().unwrap();
    let target: Target = "mariadb-10.11".parse().unwrap();
    let relaxed_file = "[mariadb]\ninnodb_flush_log_at_trx_commit = 2\ninnodb_doublewrite = OFF\nlog_bin = mysql-bin\nsync_binlog = 0\n";
    let loaded = cnf::load_str(relaxed_file, Path::new("relaxed.cnf"));
    let facts = Facts {
        host: Some(hosts()[1].1.clone()),
        config: Some(loaded.effective(&cnf::server_groups(&target))),
        ..Facts::default()
    };
    let plan = generate::plan::build(&rules, &facts, &Profile::default(), target).unwrap();
    let text = generate::cnf::render(&plan, &[], Some(relaxed_file), Origin::BaseFile).unwrap();
    let options = read_back(&text, &target);
    assert_eq!(options["innodb_flush_log_at_trx_commit"], "1", "{text}");
    assert_eq!(options["innodb_doublewrite"], "ON", "{text}");
    assert_eq!(options["sync_binlog"], "1", "{text}");

    let relaxed = Profile {
        durability: Durability::Relaxed,
        ..Profile::default()
    };
    let facts = Facts {
        host: Some(hosts()[1].1.clone()),
        ..Facts::default()
    };
    let text = generate(&rules, &hosts()[1].1, &relaxed, target);
    let options = read_back(&text, &target);
    assert_eq!(options["innodb_flush_log_at_trx_commit"], "2", "{text}");
    let strict = generate::plan::build(&rules, &facts, &Profile::default(), target).unwrap();
    assert!(
        strict.get("innodb_flush_log_at_trx_commit").is_none(),
        "strict from defaults keeps the default 1"
    );
}

/// `--connections N` raises max_connections to the peak plus 10% when the
/// memory allows (MT210), and says so when it does not.
#[test]
fn expected_connections_set_max_connections_or_are_reported_short() {
    let rules = RuleSet::builtin().expect("built-in rules load");
    let target: Target = "mariadb-10.11".parse().unwrap();
    let profile = |n| Profile {
        connections: Some(n),
        ..Profile::default()
    };
    let build = |host: &HostFacts, p: &Profile| {
        let facts = Facts {
            host: Some(host.clone()),
            ..Facts::default()
        };
        let plan = generate::plan::build(&rules, &facts, p, target).expect("plan");
        (plan.shortfalls(), plan)
    };
    let hosts = hosts();
    let big = &hosts.iter().find(|(l, _)| *l == "64G/16").unwrap().1;
    let (short, plan) = build(big, &profile(2000));
    let mc = plan.get("max_connections").expect("max_connections set");
    assert_eq!((mc.value.as_str(), mc.code.as_str()), ("2200", "MT210"));
    assert!(short.is_empty(), "{short:?}");

    let small = &hosts.iter().find(|(l, _)| *l == "1G/1").unwrap().1;
    let (short, plan) = build(small, &profile(500));
    let mc: u64 = plan
        .get("max_connections")
        .map_or(151, |s| s.value.parse().unwrap());
    assert!(mc < 500, "max_connections {mc} cannot fit 500 in 1G");
    assert_eq!(short.len(), 1, "{short:?}");
    assert!(
        short[0].contains(&format!("max_connections = {mc} is below the 500")),
        "{}",
        short[0]
    );
    // No expected peak, no warning.
    let (short, _) = build(small, &Profile::default());
    assert!(short.is_empty());
}

/// Generate from a base file for `target` on the 8G host, as
/// `gen-cnf --base` does: the base's effective options are the starting
/// values and the settings are edited into its text.
fn generate_on_base(rules: &RuleSet, target: Target, base: &str) -> String {
    let loaded = cnf::load_str(base, Path::new("base.cnf"));
    let facts = Facts {
        host: Some(hosts()[1].1.clone()),
        config: Some(loaded.effective(&cnf::server_groups(&target))),
        ..Facts::default()
    };
    let plan = generate::plan::build(rules, &facts, &Profile::default(), target).unwrap();
    generate::cnf::render(&plan, &[], Some(base), Origin::BaseFile).unwrap()
}

/// Found by the gen-cnf | lint property test: for MariaDB, a base file's
/// `[mysqld]` lines were left with their old values and the new values
/// appended in a new `[mariadb]` group, so lint reported every such option
/// as a duplicate (MT006 warn) and the old clamped value (MT005
/// max_connections = 110000 > 100000) stayed in the file.
#[test]
fn a_mariadb_base_in_mysqld_is_edited_in_place_not_shadowed_by_a_new_group() {
    let rules = RuleSet::builtin().unwrap();
    let target = "mariadb-10.11".parse::<Target>().unwrap().resolved();
    let base = "[mysqld]\nmax_connections = 110000\ninnodb_buffer_pool_size = 40G\n";
    let text = generate_on_base(&rules, target, base);
    let options = cnf::load_str(&text, Path::new("g.cnf"))
        .effective(&cnf::server_groups(&target))
        .options;
    assert_ne!(options["max_connections"].value, "110000", "{text}");
    assert_eq!(text.matches("max_connections =").count(), 1, "{text}");
    assert_eq!(
        text.matches("innodb_buffer_pool_size =").count(),
        1,
        "{text}"
    );
    let mysqld = text.split("[mariadb]").next().unwrap();
    assert!(mysqld.contains("\nmax_connections = "), "{text}");
}

/// Found by the property test on tests/fixtures/lint/project/etc/mysql/my.cnf:
/// a base that sets an option twice to the same value (MT006 info) got the
/// new value on the last line only, and the first line became a duplicate
/// that disagrees (MT006 warn). Every line the server reads gets the value.
#[test]
fn a_base_duplicate_takes_the_generated_value_too() {
    let rules = RuleSet::builtin().unwrap();
    let target = "mysql-8.0".parse::<Target>().unwrap().resolved();
    let base = "[mysqld]\nmax_connections = 110000\nmax_connections = 110000\n";
    let text = generate_on_base(&rules, target, base);
    let values: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("max_connections = "))
        .collect();
    assert_eq!(values.len(), 2, "{text}");
    assert_eq!(values[0], values[1], "{text}");
    assert_ne!(values[0], "110000", "{text}");
}

/// Found by the property test on tests/fixtures/lint/project/etc/mysql/my.cnf:
/// `# mytune: ignore MT101` above `innodb_buffer_pool_size = 128M` stayed
/// when gen-cnf replaced the value with MT101's own recommendation, so lint
/// of the output reported an unused suppression (MT009 warn). A suppression
/// of exactly the deciding rule goes; one naming other codes too stays.
#[test]
fn a_suppression_of_the_rule_that_now_decides_the_line_is_removed() {
    let rules = RuleSet::builtin().unwrap();
    let target = "mysql-8.0".parse::<Target>().unwrap().resolved();
    let text = generate_on_base(
        &rules,
        target,
        "[mysqld]\n# mytune: ignore MT101\ninnodb_buffer_pool_size = 128M\n",
    );
    assert!(!text.contains("mytune: ignore"), "{text}");
    assert!(text.contains("# MT101 "), "{text}");
    assert!(!text.contains("= 128M"), "{text}");
    let text = generate_on_base(
        &rules,
        target,
        "[mysqld]\n# mytune: ignore MT101 MT006\ninnodb_buffer_pool_size = 128M\n",
    );
    assert!(text.contains("# mytune: ignore MT101 MT006\n"), "{text}");
}

/// Found by the property test: seed 000 §2.3 as the base on a 1G host kept
/// its 16M binlog cache per connection, so even the 10 connections MT301
/// never goes below came to 90% of memory (MT303 warn; MT302 crit with half
/// the host). MT308 caps the cache at 1M and MT301 sizes the connections
/// with that cap, so the worst case of the generated file fits.
#[test]
fn a_16m_binlog_cache_base_on_a_1g_host_is_capped_and_the_worst_case_fits() {
    let rules = RuleSet::builtin().unwrap();
    let target = "mysql-8.0".parse::<Target>().unwrap().resolved();
    let catalog = Catalog::for_target(&target).unwrap();
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/seed000-best-practice.cnf"),
    )
    .unwrap();
    for (host, share) in [(&hosts()[0].1, 1.0), (&hosts()[0].1, 0.5)] {
        let loaded = cnf::load_str(&base, Path::new("base.cnf"));
        let facts = Facts {
            host: Some(host.clone()),
            config: Some(loaded.effective(&cnf::server_groups(&target))),
            ..Facts::default()
        };
        let profile = Profile {
            share,
            ..Profile::default()
        };
        let plan = generate::plan::build(&rules, &facts, &profile, target).unwrap();
        let text = generate::cnf::render(&plan, &[], Some(&base), Origin::BaseFile).unwrap();
        let options: BTreeMap<String, String> = cnf::load_str(&text, Path::new("g.cnf"))
            .effective(&cnf::server_groups(&target))
            .options
            .into_iter()
            .map(|(k, o)| (k, o.value))
            .collect();
        assert_eq!(options["binlog_cache_size"], "1M", "{text}");
        let budget = host.memory.effective_bytes as f64 * share;
        let (expected, _) = memory_cases(&options, catalog, u64::from(host.cpu.effective));
        assert!(
            (expected as f64) <= 0.9 * budget,
            "share {share}: expected case {} > 90% of {}\n{text}",
            units::human_size(expected),
            units::human_size(budget as u64)
        );
    }
}

/// Found by the property test on examples/seed003-100k-connections.cnf for
/// MariaDB 10.6 on a 1G host: the base's `innodb_buffer_pool_instances = 8`,
/// which MariaDB 10.6+ accepts and ignores, still counted as 8 instances of
/// 128M chunks, so the buffer pool was planned in units of 1G and came out
/// as 1G, the whole host (MT302 crit). An option MariaDB has removed (and
/// ignores) is no starting value.
#[test]
fn an_option_the_target_ignores_does_not_size_the_plan() {
    let rules = RuleSet::builtin().unwrap();
    let target = "mariadb-10.6".parse::<Target>().unwrap().resolved();
    let base = "[mysqld]\ninnodb_buffer_pool_size = 40G\ninnodb_buffer_pool_instances = 8\n";
    let loaded = cnf::load_str(base, Path::new("base.cnf"));
    let facts = Facts {
        host: Some(hosts()[0].1.clone()),
        config: Some(loaded.effective(&cnf::server_groups(&target))),
        ..Facts::default()
    };
    let plan = generate::plan::build(&rules, &facts, &Profile::default(), target).unwrap();
    let bp = plan
        .get("innodb_buffer_pool_size")
        .expect("buffer pool set");
    assert_eq!(
        bp.value, "512M",
        "50% of 1G (the target up to 4G) in 128M chunks"
    );
}

/// The observability profile decides the Performance Schema and the slow
/// log: standard (the default) leaves both as the target ships them (no slow
/// log for a host whose clients it does not know), full writes the slow log
/// and turns the Performance Schema on where the target leaves it off
/// (MariaDB, MT504), lean turns the Performance Schema off where the target
/// enables it (MySQL, MT506).
#[test]
fn observability_profiles_choose_the_performance_schema_and_the_slow_log() {
    let rules = RuleSet::builtin().unwrap();
    let host = &hosts()[1].1;
    let with = |observability| Profile {
        observability,
        ..Profile::default()
    };
    assert_eq!(Profile::default().observability, Observability::Standard);
    for t in ["mysql-8.0", "mariadb-10.11"] {
        let target: Target = t.parse().unwrap();
        let cnf = |o| read_back(&generate(&rules, host, &with(o), target), &target);
        let standard = cnf(Observability::Standard);
        let full = cnf(Observability::Full);
        let text = generate(&rules, host, &with(Observability::Lean), target);
        let thin = read_back(&text, &target);
        assert_eq!(
            full.get("slow_query_log").map(String::as_str),
            Some("ON"),
            "{t}"
        );
        for (name, c) in [("standard", &standard), ("lean", &thin)] {
            assert_eq!(c.get("slow_query_log"), None, "{t} {name}: {text}");
        }
        // The default leaves the Performance Schema as the server ships it.
        assert_eq!(standard.get("performance_schema"), None, "{t}");
        match t {
            // MySQL enables it by default: lean writes it off (MT506).
            "mysql-8.0" => {
                assert_eq!(full.get("performance_schema"), None, "{t}");
                assert_eq!(thin["performance_schema"], "OFF", "{t}: {text}");
                assert!(text.contains("MT506"), "{text}");
            }
            // MariaDB leaves it off: full turns it on (MT504), lean leaves it.
            _ => {
                assert_eq!(full["performance_schema"], "ON", "{t}");
                assert_eq!(thin.get("performance_schema"), None, "{t}: {text}");
            }
        }
    }
}
