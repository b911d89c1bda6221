//! The cache, logging, replication and compat rules (MT4xx, MT5xx, MT6xx,
//! MT9xx), each fired and not fired, on the JSON facts snapshots
//! `tests/fixtures/snapshots/cachelog-*.json` (made-up deployments whose
//! values follow the real dumps), the shared tuned snapshot, seed 000's
//! option file and the real MySQL 5.7 / 8.0 dumps in `../shared`.

use crate::support::shared as shared_support;
use shared_support::shared_dir;

use std::collections::BTreeMap;
use std::path::Path;

use mytune::catalog::Catalog;
use mytune::cnf;
use mytune::facts::Facts;
use mytune::rules::{Confidence, EvalInput, Evaluation, Finding, Observability, Profile, RuleSet};
use mytune::target::{Flavor, Target, Version};

/// MySQL 5.7.41, 16G / 8 CPUs, ten days up, with every cache and logging
/// problem of this family at once (and MyISAM tables).
const BUSY: &str = "cachelog-mysql57-busy-16g-8cpu.json";
/// MySQL 8.0.32, 24G / 8 CPUs, running seed 000 §2.3's settings, InnoDB only.
const SEED: &str = "cachelog-mysql80-seed000-24g-8cpu.json";
/// The shared well-tuned MariaDB 10.11.
const TUNED: &str = "mariadb1011-tuned-64g-16cpu.json";

use crate::support::snapshots;
use snapshots::{not_applicable, server, snapshot};

fn run(facts: &Facts) -> Evaluation {
    under(Observability::default(), facts)
}

/// The built-in rules on FACTS under the default profile with OBSERVABILITY.
fn under(observability: Observability, facts: &Facts) -> Evaluation {
    let p = Profile {
        observability,
        ..Profile::default()
    };
    RuleSet::builtin()
        .expect("built-in rules load")
        .evaluate(&EvalInput::new(facts, &p))
}

fn evaluate(name: &str) -> Evaluation {
    run(&snapshot(name))
}

fn with_var(name: &str, var: &str, value: &str) -> Facts {
    let mut f = snapshot(name);
    server(&mut f)
        .variables
        .insert(var.to_string(), value.to_string());
    f
}

/// BUSY with these status counters set (lowercase names).
fn busy_with_status(pairs: &[(&str, &str)]) -> Facts {
    let mut f = snapshot(BUSY);
    for (k, v) in pairs {
        server(&mut f).status.insert(k.to_string(), v.to_string());
    }
    f
}

fn codes(ev: &Evaluation, code: &str) -> Vec<Finding> {
    ev.findings
        .iter()
        .filter(|f| f.code == code)
        .cloned()
        .collect()
}

fn fires(ev: &Evaluation, code: &str) -> Finding {
    let found = codes(ev, code);
    assert_eq!(found.len(), 1, "{code}: {:#?}", ev.findings);
    found.into_iter().next().unwrap()
}

fn one(ev: &Evaluation, code: &str, variable: &str) -> Finding {
    ev.findings
        .iter()
        .find(|f| f.code == code && f.variable.as_deref() == Some(variable))
        .cloned()
        .unwrap_or_else(|| panic!("no {code} finding for {variable}: {:#?}", ev.findings))
}

fn silent(ev: &Evaluation, code: &str) {
    assert!(codes(ev, code).is_empty(), "{code}: {:#?}", codes(ev, code));
}

/// Recommended value, current value and a key part of the message.
fn check(f: &Finding, current: &str, recommended: Option<&str>, message: &str) {
    assert_eq!(f.current.as_deref(), Some(current), "{f:#?}");
    assert_eq!(f.recommended.as_deref(), recommended, "{f:#?}");
    assert!(f.message.contains(message), "{}", f.message);
}

const MINE: [&str; 30] = [
    "MT402", "MT403", "MT404", "MT405", "MT406", "MT407", "MT408", "MT409", "MT410", "MT411",
    "MT412", "MT413", "MT414", "MT415", "MT416", "MT501", "MT502", "MT503", "MT504", "MT505",
    "MT603", "MT604", "MT602", "MT903", "MT904", "MT905", "MT906", "MT401", "MT417", "MT418",
];

#[test]
fn tuned_mariadb_fires_none_of_these_rules() {
    let ev = evaluate(TUNED);
    for code in MINE {
        silent(&ev, code);
        assert!(
            not_applicable(&ev, code).is_empty(),
            "{code}: {:?}",
            not_applicable(&ev, code)
        );
    }
}

// ---- caches -------------------------------------------------------------

#[test]
fn mt402_says_when_the_server_autosized_the_thread_cache() {
    let ev = evaluate("mysql57-defaults-16g-16cpu.json");
    let f = fires(&ev, "MT402");
    check(
        &f,
        "9",
        Some("64"),
        "(the server autosized it: 8 + max_connections / 100)",
    );
    // Set in an option file: not the autosized value.
    let ev = evaluate("cnf-seed-style-4g-2cpu.json");
    assert!(!fires(&ev, "MT402").message.contains("autosized"));
}

#[test]
fn mt404_table_open_cache_misses() {
    let ev = evaluate(BUSY);
    // max(2 x 400, 1540 tables + 100) = 1640, under (5000 - 151 - 10) / 2.
    check(
        &fires(&ev, "MT404"),
        "400",
        Some("1640"),
        "8333 tables are opened per hour",
    );
    // The file-descriptor budget caps the recommendation.
    let ev = run(&with_var(BUSY, "open_files_limit", "2000"));
    assert_eq!(fires(&ev, "MT404").recommended.as_deref(), Some("919"));
    silent(&evaluate(SEED), "MT404");
    silent(&evaluate(TUNED), "MT404");
}

#[test]
fn mt405_table_definition_cache_misses() {
    let ev = evaluate(BUSY);
    check(
        &fires(&ev, "MT405"),
        "400",
        Some("1940"),
        "the table definition cache is full",
    );
    // Without the data size the rule doubles the cache.
    let mut f = snapshot(BUSY);
    server(&mut f).data_size = None;
    assert_eq!(fires(&run(&f), "MT405").recommended.as_deref(), Some("800"));
    silent(&evaluate(SEED), "MT405");
}

#[test]
fn mt406_tmp_tables_on_disk() {
    let ev = evaluate(BUSY);
    let f = one(&ev, "MT406", "tmp_table_size");
    check(
        &f,
        "32M",
        Some("64M"),
        "40% of internal temporary tables went to disk",
    );
    check(
        &one(&ev, "MT406", "max_heap_table_size"),
        "16M",
        Some("64M"),
        "set both to 64M",
    );
    // A small host bounds the value: 1/64 of 2G = 32M.
    let mut small = snapshot(BUSY);
    let h = small.host.as_mut().unwrap();
    h.memory.effective_bytes = 2 << 30;
    let ev = run(&small);
    assert_eq!(
        one(&ev, "MT406", "max_heap_table_size")
            .recommended
            .as_deref(),
        Some("32M")
    );
    assert!(
        codes(&ev, "MT406")
            .iter()
            .all(|f| f.variable.as_deref() != Some("tmp_table_size")),
        "32M already"
    );
    silent(&evaluate(SEED), "MT406");
}

#[test]
fn mt407_tmp_table_size_above_max_heap() {
    let ev = evaluate(BUSY);
    check(
        &one(&ev, "MT407", "max_heap_table_size"),
        "16M",
        Some("64M"),
        "in-memory temporary tables are limited to 16M",
    );
    silent(
        &run(&with_var(BUSY, "max_heap_table_size", "33554432")),
        "MT407",
    );
    // MySQL 8.0's TempTable engine does not read max_heap_table_size.
    let ev = run(&with_var(SEED, "tmp_table_size", "67108864"));
    silent(&ev, "MT407");
    assert!(not_applicable(&ev, "MT407")[0].starts_with("applies to mysql < 8.0"));
}

#[test]
fn mt408_query_cache_ineffective_never_grows_it() {
    let ev = evaluate(BUSY);
    let f = fires(&ev, "MT408");
    assert_eq!(f.variable.as_deref(), Some("query_cache_size"));
    check(&f, "64M", None, "answers 20% of cacheable selects");
    assert!(f.message.contains("turn it off"));
    // No recommendation of this rule enlarges the query cache.
    assert_ne!(ev.recommendations["query_cache_size"].code, "MT408");
    silent(&run(&with_var(BUSY, "query_cache_type", "OFF")), "MT408");
    assert!(not_applicable(&evaluate(SEED), "MT408")[0].contains("mysql-8.0.32"));
}

/// MariaDB's stock 128M key buffer on a server without MyISAM tables is
/// left alone where it is a sliver of memory (64G here), judged as `check`
/// judges it (with the server's own defaults); raised above the default,
/// or a real share of a small host's memory, it is reported.
#[test]
fn mt409_leaves_the_stock_key_buffer_alone_unless_memory_is_short() {
    let rules = RuleSet::builtin().unwrap();
    let judged = |facts: &Facts| {
        mytune::check::coherent::evaluate(&rules, facts, &Profile::default(), &|_| true).findings
    };
    let stock = with_var(TUNED, "key_buffer_size", "134217728");
    assert!(
        !judged(&stock).iter().any(|f| f.code == "MT409"),
        "the default 128M on 64G"
    );
    let raised = with_var(TUNED, "key_buffer_size", "536870912");
    let f = judged(&raised)
        .into_iter()
        .find(|f| f.code == "MT409")
        .expect("a raised key buffer is reported");
    assert_eq!(f.recommended.as_deref(), Some("8M"));
    let mut small = with_var(TUNED, "key_buffer_size", "134217728");
    let host = small.host.as_mut().unwrap();
    host.memory.total_bytes = 1 << 30;
    host.memory.effective_bytes = 1 << 30;
    host.other_processes = None;
    assert!(
        judged(&small).iter().any(|f| f.code == "MT409"),
        "128M of a 1G host"
    );
}

#[test]
fn mt409_key_buffer_without_myisam_from_seed000_option_file() {
    let mut facts = snapshot(SEED);
    let target = Target::new(Flavor::Mysql, Version::new(8, 0, 32));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/seed000-best-practice.cnf");
    let loaded = cnf::load(&path).expect("seed 000 option file");
    facts.config = Some(loaded.effective(&cnf::server_groups(&target)));
    let ev = run(&facts);
    let f = fires(&ev, "MT409");
    check(&f, "400M", Some("8M"), "no user table uses MyISAM");
    let loc = f.location.expect("points at the option file");
    assert!(loc.file.ends_with("seed000-best-practice.cnf"), "{loc}");
    assert_eq!(loc.line, 23);
    // MyISAM tables in use: the key buffer is needed.
    silent(&evaluate(BUSY), "MT409");
    // Unknown data size: not applicable, never a guess.
    let mut f = snapshot(SEED);
    server(&mut f).data_size.as_mut().unwrap().complete = false;
    let ev = run(&f);
    silent(&ev, "MT409");
    assert!(
        not_applicable(&ev, "MT409")[0].contains("partial"),
        "{:?}",
        ev.not_applicable
    );
}

#[test]
fn mt410_key_cache_misses() {
    let ev = evaluate(BUSY);
    let f = fires(&ev, "MT410");
    assert_eq!(f.variable.as_deref(), Some("key_buffer_size"));
    check(
        &f,
        "8M",
        None,
        "5% of MyISAM index block requests read the disk",
    );
    silent(&evaluate(SEED), "MT410");
}

#[test]
fn mt411_max_allowed_packet_small() {
    // An option file: what lint judges.
    let target = Target::new(Flavor::Mysql, Version::new(8, 0, 32));
    check(
        &fires(
            &as_lint("[mysqld]\nmax_allowed_packet = 4M\n", target),
            "MT411",
        ),
        "4M",
        Some("64M"),
        "larger than that fail with 'packet too large'",
    );
    silent(
        &as_lint("[mysqld]\nmax_allowed_packet = 64M\n", target),
        "MT411",
    );
    // A running server keeps no count of refused packets: no evidence, no
    // finding (issue 51), whatever its value.
    silent(&evaluate(BUSY), "MT411");
    silent(&evaluate(SEED), "MT411");
    silent(&evaluate(TUNED), "MT411");
}

/// `text` judged as lint judges an option file for `target`: no server,
/// the catalog's defaults for what the file leaves out.
fn as_lint(text: &str, target: Target) -> Evaluation {
    let loaded = cnf::load_str(text, Path::new("/etc/mysql/my.cnf"));
    let facts = Facts {
        config: Some(loaded.effective(&cnf::server_groups(&target))),
        ..Facts::default()
    };
    let catalog = Catalog::for_target(&target).expect("a catalog");
    let defaults = |name: &str| catalog.get(name).and_then(|v| v.default.clone());
    RuleSet::builtin().expect("built-in rules load").evaluate(
        &EvalInput::new(&facts, &Profile::default())
            .with_target(target)
            .with_defaults(&defaults),
    )
}

#[test]
fn mt412_binlog_cache_spills() {
    check(
        &fires(&evaluate(BUSY), "MT412"),
        "32K",
        Some("128K"),
        "30% of transactions overflowed binlog_cache_size = 32K",
    );
    // Never beyond 1M per connection.
    let ev = run(&with_var(BUSY, "binlog_cache_size", "524288"));
    assert_eq!(fires(&ev, "MT412").recommended.as_deref(), Some("1M"));
    silent(
        &run(&with_var(BUSY, "binlog_cache_size", "1048576")),
        "MT412",
    );
    silent(&evaluate(SEED), "MT412");
}

#[test]
fn mt413_mt414_point_at_queries_not_buffers() {
    let ev = evaluate(BUSY);
    let f = fires(&ev, "MT413");
    assert_eq!(f.variable.as_deref(), Some("sort_buffer_size"));
    check(&f, "256K", None, "30000 sort merge passes for 100000 sorts");
    let f = fires(&ev, "MT414");
    assert_eq!(f.variable.as_deref(), Some("join_buffer_size"));
    check(&f, "256K", None, "add indexes on the join columns");
    assert!(f.message.contains("rather than growing join_buffer_size"));
    for code in ["MT413", "MT414"] {
        silent(&evaluate(SEED), code);
    }
    // Neither rule ever recommends a larger buffer.
    assert!(!ev.recommendations.contains_key("sort_buffer_size"));
    assert!(!ev.recommendations.contains_key("join_buffer_size"));
}

#[test]
fn mt415_table_lock_contention() {
    let f = fires(&evaluate(BUSY), "MT415");
    assert_eq!(f.variable, None);
    assert!(
        f.message
            .starts_with("5.3% of table lock requests had to wait"),
        "{}",
        f.message
    );
    silent(&evaluate(SEED), "MT415");
}

#[test]
fn mt416_open_files_near_limit() {
    let f = fires(&evaluate(BUSY), "MT416");
    check(&f, "5000", None, "90% of open_files_limit = 5000");
    silent(&evaluate(SEED), "MT416");
}

// ---- logging ------------------------------------------------------------

#[test]
fn mt501_mt502_slow_log() {
    let ev = evaluate(BUSY);
    check(
        &fires(&under(Observability::Full, &snapshot(BUSY)), "MT501"),
        "OFF",
        Some("ON"),
        "the slow query log is off",
    );
    // The slow log is off on BUSY: the threshold decides nothing anyone
    // reads (issue 51); with the log on, 10 s is too high.
    silent(&ev, "MT502");
    check(
        &fires(&run(&with_var(BUSY, "slow_query_log", "ON")), "MT502"),
        "10",
        Some("1"),
        "long_query_time is 10 s",
    );
    let ev = evaluate(SEED);
    silent(&ev, "MT501");
    silent(&ev, "MT502");
    let mut on_at_two = with_var(BUSY, "long_query_time", "2.000000");
    server(&mut on_at_two)
        .variables
        .insert("slow_query_log".into(), "ON".into());
    silent(&run(&on_at_two), "MT502");
}

/// MT501 weighs the slow log's cost with the server's own counters: the share
/// of statements that were server-side prepared executions, the only ones
/// that pay it; no share without the counter or before 10,000 statements.
#[test]
fn mt501_says_how_much_of_the_load_pays_for_the_slow_log() {
    let with_status = |pairs: &[(&str, &str)]| {
        fires(
            &under(Observability::Full, &busy_with_status(pairs)),
            "MT501",
        )
    };
    let plain = fires(&under(Observability::Full, &snapshot(BUSY)), "MT501");
    assert!(!plain.message.contains("prepared"), "{}", plain.message);
    let prepared = with_status(&[("com_stmt_execute", "3700000")]);
    assert!(
        prepared.message.contains(
            "its cost falls on server-side prepared statements (about 1-2 % of their CPU), \
             and 37% of this server's statements were those"
        ),
        "{}",
        prepared.message
    );
    let text = with_status(&[("com_stmt_execute", "0")]);
    assert!(
        text.message.contains("and 0% of this server's statements"),
        "{}",
        text.message
    );
    let young = with_status(&[("com_stmt_execute", "900"), ("questions", "9999")]);
    assert!(!young.message.contains("prepared"), "{}", young.message);
    assert_eq!(young.recommended.as_deref(), Some("ON"));
}

#[test]
fn mt503_slow_query_share() {
    let f = fires(&evaluate(BUSY), "MT503");
    assert_eq!(f.variable.as_deref(), Some("long_query_time"));
    check(
        &f,
        "10.000000",
        None,
        "3% of statements (300000 of 10000000)",
    );
    silent(&evaluate(SEED), "MT503");
}

#[test]
fn mt503_long_query_time_zero_is_deliberate_full_capture() {
    // Every statement is "slow" at long_query_time = 0: that is full
    // capture, not 100% slow statements.
    let mut facts = with_var(BUSY, "long_query_time", "0.000000");
    server(&mut facts)
        .status
        .insert("slow_queries".into(), "10000000".into());
    let ev = run(&facts);
    silent(&ev, "MT503");
    assert!(not_applicable(&ev, "MT503").is_empty());
    // A small but positive threshold is still judged.
    let mut facts = with_var(BUSY, "long_query_time", "0.100000");
    server(&mut facts)
        .status
        .insert("slow_queries".into(), "10000000".into());
    assert!(
        fires(&run(&facts), "MT503")
            .message
            .contains("100% of statements")
    );
}

#[test]
fn mt418_tiny_table_open_cache_fires_without_load() {
    // 64 handles on a server just started: no counters needed.
    let mut facts = with_var(BUSY, "table_open_cache", "64");
    server(&mut facts).status.clear();
    server(&mut facts).sample = None;
    let ev = run(&facts);
    let f = one(&ev, "MT418", "table_open_cache");
    // max(2 x 64, 1540 tables + 100, 400) = 1640, within the descriptors.
    check(
        &f,
        "64",
        Some("1640"),
        "table_open_cache = 64 is far below the defaults",
    );
    assert_eq!(f.severity.as_str(), "warn");
    // With load, one finding (MT418), not MT404 as well.
    let ev = run(&with_var(BUSY, "table_open_cache", "64"));
    assert_eq!(codes(&ev, "MT418").len(), 1);
    silent(&ev, "MT404");
    // Without the data size: at least 400, and four tables for each of the
    // 151 connections that can run a statement at once (MT419's floor: one
    // value per variable).
    let mut facts = with_var(BUSY, "table_open_cache", "64");
    server(&mut facts).data_size = None;
    let ev = run(&facts);
    assert_eq!(
        one(&ev, "MT418", "table_open_cache").recommended.as_deref(),
        Some("604")
    );
    silent(&evaluate(BUSY), "MT418");
    silent(&evaluate(SEED), "MT418");
}

#[test]
fn mt504_performance_schema_off_costs_instrumentation() {
    use Observability::Full;
    let f = fires(&under(Full, &snapshot(BUSY)), "MT504");
    check(&f, "OFF", Some("ON"), "no statement digests");
    assert!(
        f.rationale
            .contains("(MySQL single-node tuning), §1.2.2, sets performance_schema = 0")
    );
    // Below 2G for the server the memory it takes matters more.
    let mut small = snapshot(BUSY);
    small.host.as_mut().unwrap().memory.effective_bytes = 1 << 30;
    silent(&under(Full, &small), "MT504");
    silent(&under(Full, &snapshot(SEED)), "MT504");
}

/// The default profile (observability standard) leaves the slow log and the
/// Performance Schema as the server ships them: MT501 says nothing where it
/// cannot tell who would pay for the log, MT504 (full only) and MT506 (lean
/// only) say nothing.
#[test]
fn standard_observability_leaves_the_slow_log_and_the_performance_schema_as_shipped() {
    let busy = snapshot(BUSY);
    let ev = run(&busy);
    silent(&ev, "MT501");
    silent(&ev, "MT504");
    silent(&run(&with_var(BUSY, "performance_schema", "ON")), "MT506");
}

/// Under the default profile MT501 asks for the slow log only where the
/// server's counters show that under a quarter of its statements are
/// server-side prepared executions, the only ones the log charges: there it
/// costs under about 0.5 % of the CPU. A server mostly on prepared
/// statements, or one too young to tell, is left as it is.
#[test]
fn standard_observability_asks_for_the_slow_log_only_where_few_statements_would_pay() {
    let standard = |pairs: &[(&str, &str)]| run(&busy_with_status(pairs));
    // BUSY ran 10,000,000 statements.
    let text = fires(&standard(&[("com_stmt_execute", "0")]), "MT501");
    check(
        &text,
        "OFF",
        Some("ON"),
        "and 0% of this server's statements",
    );
    fires(&standard(&[("com_stmt_execute", "2499999")]), "MT501");
    silent(&standard(&[("com_stmt_execute", "2500000")]), "MT501");
    silent(&standard(&[("com_stmt_execute", "9000000")]), "MT501");
    silent(
        &standard(&[("com_stmt_execute", "0"), ("questions", "9999")]),
        "MT501",
    );
    // With the log on there is nothing to ask, whatever the share.
    let mut on = with_var(BUSY, "slow_query_log", "ON");
    server(&mut on)
        .status
        .insert("com_stmt_execute".into(), "0".into());
    silent(&run(&on), "MT501");
}

#[test]
fn lean_observability_silences_mt501_and_mt504_and_mt506_turns_the_performance_schema_off() {
    let run_lean = |facts: &Facts| under(Observability::Lean, facts);
    // BUSY has both off: full asks for both, lean for neither.
    let busy = snapshot(BUSY);
    fires(&under(Observability::Full, &busy), "MT504");
    let ev = run_lean(&busy);
    silent(&ev, "MT504");
    silent(&ev, "MT501");
    silent(&ev, "MT506");
    // With it on, lean asks to turn it off; the default profile is content.
    let on = with_var(BUSY, "performance_schema", "ON");
    let f = fires(&run_lean(&on), "MT506");
    check(&f, "ON", Some("OFF"), "lean observability");
    assert!(f.rationale.contains("x1.09"), "{}", f.rationale);
    silent(&run(&on), "MT506");
}

#[test]
fn mt505_general_log_on() {
    check(
        &fires(&evaluate(BUSY), "MT505"),
        "ON",
        Some("OFF"),
        "the general query log is on",
    );
    silent(&evaluate(SEED), "MT505");
}

// ---- replication --------------------------------------------------------

#[test]
fn mt601_binlog_never_expires_before_8_0() {
    check(
        &fires(&evaluate(BUSY), "MT601"),
        "0",
        Some("30"),
        "binary logs are never purged",
    );
    silent(&run(&with_var(BUSY, "expire_logs_days", "7")), "MT601");
    silent(&run(&with_var(BUSY, "log_bin", "OFF")), "MT601");
    assert!(not_applicable(&evaluate(SEED), "MT601")[0].starts_with("applies to"));
}

#[test]
fn mt602_binlog_never_expires_uses_seconds_from_8_0() {
    let mut f = with_var(SEED, "binlog_expire_logs_seconds", "0");
    server(&mut f)
        .variables
        .insert("expire_logs_days".into(), "0".into());
    let ev = run(&f);
    check(
        &fires(&ev, "MT602"),
        "0",
        Some("2592000"),
        "binlog_expire_logs_seconds = 2592000 (30 days)",
    );
    // The days variable is never recommended on 8.0.
    assert!(!ev.recommendations.contains_key("expire_logs_days"));
    silent(&evaluate(SEED), "MT602");
}

#[test]
fn mt603_binlog_format_row() {
    check(
        &fires(&evaluate(SEED), "MT603"),
        "MIXED",
        Some("ROW"),
        "binlog_format is MIXED on MySQL 8.0.32",
    );
    check(
        &fires(&evaluate(BUSY), "MT603"),
        "STATEMENT",
        Some("ROW"),
        "STATEMENT",
    );
    // MariaDB's MIXED switches unsafe statements to rows itself.
    silent(&evaluate(TUNED), "MT603");
    silent(&run(&with_var(SEED, "binlog_format", "ROW")), "MT603");
}

#[test]
fn mt604_server_id_zero() {
    let f = fires(&evaluate(BUSY), "MT604");
    assert_eq!(f.variable.as_deref(), Some("server_id"));
    check(&f, "0", None, "server_id = 0");
    silent(&evaluate(SEED), "MT604");
}

#[test]
fn mt605_log_slave_updates_renamed_in_option_files() {
    let mut facts = snapshot(SEED);
    let target = Target::new(Flavor::Mysql, Version::new(8, 0, 32));
    let text = "[mysqld]\nserver_id = 7\nlog-slave-updates\n";
    let loaded = cnf::load_str(text, Path::new("/etc/mysql/my.cnf"));
    facts.config = Some(loaded.effective(&cnf::server_groups(&target)));
    let ev = run(&facts);
    let f = fires(&ev, "MT605");
    assert_eq!(f.variable.as_deref(), Some("log_replica_updates"));
    assert_eq!(f.recommended.as_deref(), Some("ON"));
    assert!(
        f.message.contains("deprecated since MySQL 8.0.26"),
        "{}",
        f.message
    );
    silent(&evaluate(SEED), "MT605");
    assert!(not_applicable(&evaluate(TUNED), "MT605")[0].starts_with("applies to"));
}

// ---- compat -------------------------------------------------------------

#[test]
fn mt901_query_cache_before_upgrading_to_8_0() {
    let f = fires(&evaluate(BUSY), "MT901");
    check(&f, "ON", None, "MySQL 8.0 removed the query cache");
    // Off on the server but still in the option file: 8.0 would not start.
    let mut facts = with_var(BUSY, "query_cache_type", "OFF");
    let target = Target::new(Flavor::Mysql, Version::new(5, 7, 41));
    let loaded = cnf::load_str("[mysqld]\nquery_cache_size = 0\n", Path::new("/etc/my.cnf"));
    facts.config = Some(loaded.effective(&cnf::server_groups(&target)));
    fires(&run(&facts), "MT901");
    silent(&run(&with_var(BUSY, "query_cache_type", "OFF")), "MT901");
}

#[test]
fn mt902_expire_logs_days_deprecated_on_8_0() {
    let f = fires(&evaluate(SEED), "MT902");
    check(
        &f,
        "30",
        None,
        "set binlog_expire_logs_seconds = 2592000 instead",
    );
    silent(&run(&with_var(SEED, "expire_logs_days", "0")), "MT902");
    assert!(not_applicable(&evaluate(BUSY), "MT902")[0].starts_with("applies to"));
}

#[test]
fn mt903_mt904_myisam() {
    let ev = evaluate(BUSY);
    check(
        &fires(&ev, "MT903"),
        "MyISAM",
        Some("InnoDB"),
        "not crash-safe",
    );
    let f = fires(&ev, "MT904");
    assert!(
        f.message.starts_with("40 user tables (4G) use MyISAM"),
        "{}",
        f.message
    );
    let ev = evaluate(SEED);
    silent(&ev, "MT903");
    silent(&ev, "MT904");
}

#[test]
fn mt905_mt906_isolation_levels() {
    let ev = evaluate(BUSY);
    check(
        &fires(&ev, "MT906"),
        "STATEMENT",
        Some("ROW"),
        "READ-COMMITTED with binlog_format = STATEMENT",
    );
    silent(&ev, "MT905");
    let ev = run(&with_var(BUSY, "transaction_isolation", "READ-UNCOMMITTED"));
    check(
        &fires(&ev, "MT905"),
        "READ-UNCOMMITTED",
        Some("REPEATABLE-READ"),
        "dirty reads",
    );
    // MariaDB before 11.1 reports only tx_isolation.
    let ev = run(&with_var(TUNED, "tx_isolation", "READ-UNCOMMITTED"));
    let f = fires(&ev, "MT905");
    assert_eq!(
        f.current, None,
        "MariaDB 10.11 has no transaction_isolation variable"
    );
    silent(&run(&with_var(BUSY, "binlog_format", "ROW")), "MT906");
}

#[test]
fn mt907_tx_isolation_in_option_file_before_8_0() {
    let mut facts = snapshot(BUSY);
    let target = Target::new(Flavor::Mysql, Version::new(5, 7, 41));
    let loaded = cnf::load_str(
        "[mysqld]\ntx-isolation = READ-COMMITTED\n",
        Path::new("/etc/my.cnf"),
    );
    facts.config = Some(loaded.effective(&cnf::server_groups(&target)));
    let f = fires(&run(&facts), "MT907");
    assert_eq!(f.variable.as_deref(), Some("tx_isolation"));
    check(
        &f,
        "READ-COMMITTED",
        None,
        "write transaction_isolation = READ-COMMITTED instead",
    );
    assert_eq!(f.location.unwrap().to_string(), "/etc/my.cnf:2:1");
    silent(&evaluate(BUSY), "MT907");
    assert!(not_applicable(&evaluate(SEED), "MT907")[0].starts_with("applies to"));
}

/// `engine_tables()` / `engine_bytes()`: engine names in any case, `"*"` for
/// all engines, 0 for an engine without tables, missing without a summary.
#[test]
fn engine_functions_read_the_data_size_summary() {
    let dir = tempfile::tempdir().unwrap();
    let rule = r#"
[[rule]]
code = "MT999"
name = "engine-figures"
family = "compat"
severity = "info"
when = 'engine_tables("myisam") == 40 && engine_tables("*") == 1540 && engine_tables("Aria") == 0 && engine_bytes("INNODB") == 10G'
message = '{engine_bytes("*"):size} in {engine_tables("*")} tables'
rationale = "test"
[[rule.sources]]
title = "test"
"#;
    std::fs::write(dir.path().join("t.toml"), rule).unwrap();
    let set = RuleSet::load(Some(dir.path())).unwrap();
    let profile = Profile::default();
    let facts = snapshot(BUSY);
    let ev = set.evaluate(&EvalInput::new(&facts, &profile));
    let f = fires(&ev, "MT999");
    assert_eq!(f.message, "14G in 1540 tables");

    let mut facts = snapshot(BUSY);
    server(&mut facts).data_size = None;
    let ev = set.evaluate(&EvalInput::new(&facts, &profile));
    assert_eq!(
        not_applicable(&ev, "MT999"),
        ["needs engine_tables(\"myisam\") (the data size was not collected)"]
    );
}

// ---- across rules -------------------------------------------------------

#[test]
fn status_rules_lose_confidence_on_a_young_server() {
    let mut f = snapshot(BUSY);
    server(&mut f).uptime_secs = 3600;
    let ev = run(&f);
    let finding = fires(&ev, "MT413");
    assert_eq!(finding.confidence, Confidence::Low);
    assert!(
        finding.message.contains("up only 60m"),
        "{}",
        finding.message
    );
}

// ---- the real MySQL dumps ------------------------------------------------

/// A mysqltuner `result.json`: its Variables and Status maps as server facts
/// on a described 16G / 8 CPU host.
fn mysqltuner(file: &str) -> Option<Facts> {
    let Some(root) = shared_dir() else {
        eprintln!("skipping: ../shared (real fixtures) is not present");
        return None;
    };
    let text = std::fs::read_to_string(root.join("fixtures/dumps").join(file)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let map = |key: &str| -> BTreeMap<String, String> {
        json[key]
            .as_object()
            .unwrap()
            .iter()
            .filter_map(|(k, v)| {
                let v = match v {
                    serde_json::Value::String(s) => s.clone(),
                    serde_json::Value::Number(n) => n.to_string(),
                    _ => return None,
                };
                Some((k.to_ascii_lowercase(), v))
            })
            .collect()
    };
    let variables = map("Variables");
    let status = map("Status");
    let mut facts = snapshot(BUSY);
    let s = server(&mut facts);
    s.version = Version::parse_prefix(&variables["version"]).unwrap();
    s.version_string = variables["version"].clone();
    s.uptime_secs = status["uptime"].parse().unwrap();
    s.variables = variables;
    s.status = status;
    s.data_size = None;
    Some(facts)
}

/// Advice on a real server names only variables its version has.
fn assert_valid_for_version(facts: &Facts) -> Evaluation {
    let target = facts.server.as_ref().unwrap().target();
    let catalog = Catalog::for_target(&target).unwrap();
    let ev = run(facts);
    for f in &ev.findings {
        if let (Some(var), Some(_)) = (&f.variable, &f.recommended) {
            let info = catalog
                .get(var)
                .unwrap_or_else(|| panic!("{target}: {} recommends unknown {var}", f.code));
            assert!(
                !info.status_at(target.version).is_removed(),
                "{target}: {} recommends {var}, removed",
                f.code
            );
        }
    }
    ev
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn real_mysql_8_0_dump_gets_8_0_advice() {
    let Some(facts) = mysqltuner(
        "mysql-8.0.32__major_MySQLTuner-perl__examples__github__result__mysql__8__result.json",
    ) else {
        return;
    };
    let ev = assert_valid_for_version(&facts);
    assert!(
        ev.findings.iter().all(|f| !f
            .variable
            .as_deref()
            .unwrap_or("")
            .starts_with("query_cache")),
        "{:#?}",
        ev.findings
    );
    for code in ["MT401", "MT408", "MT901", "MT601", "MT407"] {
        assert!(
            not_applicable(&ev, code)[0].starts_with("applies to"),
            "{code}"
        );
    }
    // The 8.0 dump runs the binary log with ROW format and 30-day expiry.
    silent(&ev, "MT602");
    silent(&ev, "MT603");
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn real_mysql_5_7_dump_gets_5_7_advice() {
    let Some(facts) = mysqltuner(
        "mysql-5.7.41__major_MySQLTuner-perl__examples__github__result__mysql__5.7__result.json",
    ) else {
        return;
    };
    let ev = assert_valid_for_version(&facts);
    // 5.7 has no binlog_expire_logs_seconds: nothing recommends it.
    assert!(
        !ev.recommendations
            .contains_key("binlog_expire_logs_seconds")
    );
    // Its 4M max_allowed_packet is no finding on a live server: nothing
    // shows a packet was refused (issue 51).
    silent(&ev, "MT411");
}

/// The olap workload profile: temporary tables sized for analytic queries
/// (MT417, the same value as MT406) and no 1 s slow-log threshold (MT502).
#[test]
fn mt417_olap_tmp_tables_and_mt502_silent_under_olap() {
    let olap = Profile {
        workload: mytune::rules::Workload::Olap,
        ..Profile::default()
    };
    let rules = RuleSet::builtin().expect("built-in rules load");
    let eval = |facts: &Facts, p: &Profile| rules.evaluate(&EvalInput::new(facts, p));
    // Seed 000 on 24G: 16M each, so 64M both.
    let seed = snapshot(SEED);
    let ev = eval(&seed, &olap);
    let f = one(&ev, "MT417", "tmp_table_size");
    check(&f, "16M", Some("64M"), "analytic GROUP BY");
    assert_eq!(
        one(&ev, "MT417", "max_heap_table_size")
            .recommended
            .as_deref(),
        Some("64M")
    );
    silent(&eval(&seed, &Profile::default()), "MT417");
    // Already 128M: never lowered, silent.
    let mut big = with_var(SEED, "tmp_table_size", "134217728");
    server(&mut big)
        .variables
        .insert("max_heap_table_size".into(), "134217728".into());
    silent(&eval(&big, &olap), "MT417");
    // long_query_time = 10: MT502 fires for OLTP, not for OLAP.
    let slow = with_var(SEED, "long_query_time", "10.000000");
    fires(&eval(&slow, &Profile::default()), "MT502");
    silent(&eval(&slow, &olap), "MT502");
}
