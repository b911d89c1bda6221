//! Differential test: lint's verdict on an option file against the real
//! `mariadbd`'s.
//!
//! Each case is a small option file made from the variable catalog (every
//! MariaDB option with valid, boundary and out-of-range values, every value
//! syntax the option parser meets, removed options, names other products
//! have, unique prefixes, the `loose-`/`skip-`/`enable-`/`disable-`/
//! `maximum-` prefixes, groups, repeats and `!include`) or from a real file.
//! The installed server judges it (tests/it/support/oracle.rs) into refuses /
//! warns (adjusts, ignores) / clean; lint's structural findings give its
//! class: a crit is "refuses", a warn or info "warns", nothing "clean".
//!
//! `cargo test` runs a bounded sample, seeded (`MYTUNE_DIFF_SEED`, default
//! 1; `MYTUNE_DIFF_SAMPLE`, default 240 cases, plus every pinned regression
//! case), so a failure reproduces from the seed it prints.
//! `scripts/differential.sh` runs the whole corpus and prints the confusion
//! matrix (`MYTUNE_DIFF_FULL=1`); `MYTUNE_DIFF_IDS=FILE` judges again only the
//! cases named in FILE, one `DISAGREE` id per line (`~TEXT`: every case whose
//! id contains TEXT).

use crate::support::oracle;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use mytune::catalog::{Catalog, VarKind};
use mytune::rules::Severity;
use mytune::target::Target;
use oracle::{Class, NOT_PROBED, Oracle, sample_for, sample_value, strip_paths};

/// One option file to judge.
#[derive(Debug, Clone)]
struct Case {
    /// What it probes, e.g. `value:max_connections=-1`.
    id: String,
    /// The file's text.
    cnf: String,
    /// Files beside it (for `!include`), name → text.
    extra: Vec<(String, String)>,
    /// The variable and value (as `--verbose --help` prints it) the file
    /// means to set: when the server starts clean but runs with another
    /// value, it ignored the line (an unread group, an earlier duplicate).
    effect: Option<(String, String)>,
}

impl Case {
    fn line(kind: &str, line: &str) -> Case {
        Case::in_group(kind, "mysqld", line)
    }

    fn in_group(kind: &str, group: &str, line: &str) -> Case {
        Case {
            id: format!("{kind}:[{group}] {line}"),
            cnf: format!("[{group}]\n{line}\n"),
            extra: Vec::new(),
            effect: None,
        }
    }
}

/// Lines the server crashes on instead of judging them: a server bug, not a
/// verdict lint could share. MariaDB 10.11.19 gets signal 11 in `--help`
/// when `max_session_mem_used` is at or below its minimum (8192).
fn server_bug(line: &str) -> bool {
    line.strip_prefix("max_session_mem_used=")
        .is_some_and(|v| v.parse::<u64>().map_or(true, |n| n <= 8192))
}

/// String variables whose values the server checks, and values to try.
const CHECKED_STRINGS: &[(&str, &[&str])] = &[
    (
        "character_set_server",
        &["utf8mb4", "latin1", "nope", "UTF8MB4", "utf8"],
    ),
    (
        "collation_server",
        &["utf8mb4_general_ci", "bogus", "latin1_swedish_ci"],
    ),
    ("character_set_filesystem", &["binary", "nope"]),
    (
        "default_storage_engine",
        &["InnoDB", "MyISAM", "Aria", "bogus", "innodb"],
    ),
    ("default_tmp_storage_engine", &["MyISAM", "bogus"]),
    ("enforce_storage_engine", &["InnoDB", "bogus"]),
    // A named zone works only with the time zone tables loaded, a fact of
    // the datadir: only SYSTEM and offsets are probed.
    (
        "default_time_zone",
        &["+00:00", "SYSTEM", "-05:30", "+25:00"],
    ),
    ("lc_messages", &["en_US", "xx_XX"]),
    ("lc_time_names", &["de_DE", "xx_XX"]),
    ("default_authentication_plugin", &["mysql_native_password"]),
];

/// The corpus, in a stable order.
fn corpus(cat: &Catalog, others: &[&Catalog]) -> Vec<Case> {
    let mut cases = Vec::new();
    for v in cat.iter() {
        // Options of debug builds: the release server here cannot judge them.
        if NOT_PROBED.contains(&v.name.as_str()) || v.release_builds_lack() {
            continue;
        }
        // A size off its block: the server runs with it rounded down.
        if let VarKind::Size {
            min,
            block: Some(b),
            ..
        } = &v.kind
            && *b > 1
            && v.status.is_current()
        {
            let n = min.unwrap_or(0).max(*b) * 3 + 1;
            let mut c = Case::line("block", &format!("{}={n}", v.name));
            c.effect = Some((v.name.clone(), n.to_string()));
            cases.push(c);
        }
        for line in value_lines(&v.name, &v.kind, v.default.as_deref()) {
            cases.push(Case::line("value", &line));
        }
        // Unique (or ambiguous) prefixes of the name.
        for cut in [v.name.len() * 2 / 3, v.name.len().saturating_sub(2)] {
            if cut >= 3 && cut < v.name.len() {
                let p = &v.name[..cut];
                let value = sample_for(&v.name, &v.kind, v.default.as_deref());
                cases.push(Case::line("prefix", &format!("{p}={value}")));
            }
        }
    }
    for (name, values) in CHECKED_STRINGS {
        for value in *values {
            cases.push(Case::line("string", &format!("{name}={value}")));
        }
    }
    // Names other products (or other versions) have.
    let mut seen = std::collections::BTreeSet::new();
    for other in others {
        for v in other.iter() {
            if cat.get(&v.name).is_some()
                || NOT_PROBED.contains(&v.name.as_str())
                || !seen.insert(v.name.clone())
            {
                continue;
            }
            let value = sample_value(&v.kind, v.default.as_deref());
            cases.push(Case::line("foreign", &format!("{}={value}", v.name)));
            cases.push(Case::line(
                "foreign-loose",
                &format!("loose-{}={value}", v.name),
            ));
        }
    }
    cases.retain(|c| !c.cnf.lines().any(server_bug));
    cases.extend(syntax_cases());
    cases.extend(pinned());
    cases.extend(real_files());
    cases
}

/// Values to try for one option, as option lines.
fn value_lines(name: &str, kind: &VarKind, default: Option<&str>) -> Vec<String> {
    let mut vals: Vec<String> = Vec::new();
    let mut lines = Vec::new();
    match kind {
        VarKind::Bool => {
            for v in [
                "ON", "OFF", "on", "yes", "no", "true", "FALSE", "1", "0", "2", "maybe", "",
            ] {
                vals.push(v.into());
            }
            lines.push(name.to_string());
            lines.push(format!("skip-{name}"));
            lines.push(format!("enable-{name}"));
            lines.push(format!("disable-{name}"));
        }
        VarKind::Integer { min, max } => {
            if let Some(d) = default {
                vals.push(d.into());
            }
            if let Some(lo) = min {
                vals.push(lo.to_string());
                vals.push((lo - 1).to_string());
            }
            if let Some(hi) = max {
                if *hi <= 1 << 32 {
                    vals.push(hi.to_string());
                }
                vals.push((hi + 1).to_string());
            }
            for v in [
                "-1",
                "1e3",
                "16k",
                "2MiB",
                "abc",
                "",
                "99999999999999999999999",
            ] {
                vals.push(v.into());
            }
            lines.push(name.to_string());
            lines.push(format!("maximum-{name}={}", default.unwrap_or("1")));
            lines.push(format!("skip-{name}"));
        }
        VarKind::Size { min, max, block } => {
            if let Some(d) = default {
                vals.push(d.into());
            }
            if let Some(lo) = min {
                vals.push(lo.to_string());
                if *lo > 0 {
                    vals.push((lo - 1).to_string());
                }
            }
            if let Some(hi) = max
                && *hi <= 1 << 30
            {
                vals.push(hi.to_string());
                vals.push((hi + 1).to_string());
            }
            let _ = block;
            for v in [
                "-1", "16M", "16m", "16MB", "2MiB", "1e3", "1.5G", "abc", "", "16 M",
            ] {
                vals.push(v.into());
            }
            lines.push(name.to_string());
            lines.push(format!("maximum-{name}={}", default.unwrap_or("1M")));
        }
        VarKind::Float { min, max } => {
            for v in ["0.5", "-1", "abc", "1e3", "2"] {
                vals.push(v.into());
            }
            if let Some(lo) = min {
                vals.push(format!("{}", lo - 1.0));
            }
            if let Some(hi) = max {
                vals.push(format!("{}", hi + 1.0));
            }
        }
        VarKind::Enum { values } => {
            for v in values {
                vals.push(v.clone());
                vals.push(v.to_ascii_lowercase());
            }
            vals.push("0".into());
            vals.push(values.len().to_string());
            vals.push("bogus".into());
            vals.push(String::new());
            lines.push(name.to_string());
        }
        VarKind::Set { values } => {
            if let Some(v) = values.first() {
                vals.push(v.clone());
            }
            if values.len() > 1 {
                vals.push(format!("{},{}", values[0], values[1].to_ascii_lowercase()));
            }
            vals.push("bogus".into());
            vals.push(String::new());
            if name == "optimizer_switch" {
                vals.push("index_merge=off".into());
                vals.push("index_merge=maybe".into());
                vals.push("bogus=on".into());
            }
        }
        VarKind::String | VarKind::Path => {}
    }
    vals.dedup();
    lines.extend(vals.into_iter().map(|v| format!("{name}={v}")));
    lines
}

/// Syntax the reader meets: groups, repeats, includes, loose- typos.
fn syntax_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for group in [
        "mysqld",
        "server",
        "mariadb",
        "mariadbd",
        "client-server",
        "mysqld-10.11",
        "mariadb-10.11",
        "galera",
        "myisamchk",
        "mysqld ",
        "mysqd",
        "mysqld-8.0",
        "mariadb-10.6",
        "embedded",
    ] {
        let mut c = Case::in_group("group", group, "max_connections=77");
        c.effect = Some(("max_connections".into(), "77".into()));
        cases.push(c);
        let mut c = Case::in_group("group", group, "innodb_buffer_pool_size=64M");
        c.effect = Some(("innodb_buffer_pool_size".into(), "67108864".into()));
        cases.push(c);
    }
    for (line1, line2, effect) in [
        (
            "max_connections=100",
            "max_connections=200",
            Some(("max_connections", "100")),
        ),
        (
            "max_connections=100",
            "max-connections=100",
            Some(("max_connections", "100")),
        ),
        ("replicate_do_db=a", "replicate_do_db=b", None),
        ("binlog_ignore_db=a", "binlog_ignore_db=b", None),
        (
            "replicate_wild_ignore_table=a.%",
            "replicate_wild_ignore_table=b.%",
            None,
        ),
        (
            "plugin_load_add=ha_archive",
            "plugin_load_add=ha_blackhole",
            None,
        ),
    ] {
        cases.push(Case {
            id: format!("repeat:{line1} / {line2}"),
            cnf: format!("[mysqld]\n{line1}\n{line2}\n"),
            extra: Vec::new(),
            effect: effect.map(|(n, v)| (n.to_string(), v.to_string())),
        });
    }
    for line in [
        "loose-bogus_option=1",
        "loose-max_conections=5",
        "loose-innodb_bufer_pool_size=64M",
        "loose-skip-name-resolve",
        "loose-skip-bogus",
        "bogus_option=1",
        "max_conections=5",
        "skip-bogus",
        "x=1",
    ] {
        cases.push(Case::line("loose", line));
    }
    cases.push(Case {
        id: "include:present".into(),
        cnf: "[mysqld]\n!include inc.cnf\n".into(),
        extra: vec![("inc.cnf".into(), "[mysqld]\nmax_connections=77\n".into())],
        effect: Some(("max_connections".into(), "77".into())),
    });
    cases.push(Case {
        id: "include:missing".into(),
        cnf: "[mysqld]\n!include missing.cnf\n".into(),
        extra: Vec::new(),
        // What the file was meant to set: the server skips the line
        // silently, so it ignores it.
        effect: Some(("max_connections".into(), "77".into())),
    });
    cases.push(Case {
        id: "syntax:option before any group".into(),
        cnf: "max_connections=77\n[mysqld]\n".into(),
        extra: Vec::new(),
        effect: None,
    });
    cases.push(Case {
        id: "syntax:unclosed group".into(),
        cnf: "[mysqld\nmax_connections=77\n".into(),
        extra: Vec::new(),
        effect: None,
    });
    cases
}

/// The lines of issue reports, kept in every sample.
fn pinned() -> Vec<Case> {
    [
        "innodb_log_files_in_group=2",
        "innodb_buffer_pool_instances=8",
        "innodb_thread_concurrency=8",
        "default_authentication_plugin=mysql_native_password",
        "performance_schema=maybe",
        "innodb_file_per_table=yes",
        "skip_name_resolve=2",
        "tmp_table_size=16MB",
        "sort_buffer_size=2MiB",
        "table_open_cache=",
        "max_connections=1e3",
        "max_connections=-1",
        "open_files_limit=-5",
        "character-set-server=nope",
        "maximum-max_connections=100",
        "sort=1M",
        "innodb_buf=64M",
        // Missed refusals of the full corpus run (issue 12).
        "ignore-builtin-innodb",
        "ignore_builtin_innodb=OFF",
        "lc_messages=xx_YY",
        "lc_messages=DE_de",
        "lc_time_names=5",
        "lc_time_names=fr_FR",
        "log_slave_updates=OFF",
        "skip-log-slave-updates",
        "log_slave_updates=ON",
        "expire_logs_days=0",
        "binlog_expire_logs_seconds=0",
        "binlog_expire_logs_seconds=3600",
        "log_bin",
        "log_bin=",
        "skip-log-bin",
        "flashback",
        "flashback=OFF",
        // The second full-corpus run's disagreements (issue 12).
        "thread_pool_sta=500",
        "debug_exit_info=abc",
        "wsrep_recover=ON",
        "wsrep_recov=ON",
        "enable-wsrep_recover",
        "inno=ON",
        "skip_log=ON",
        "skip_log_b=ON",
        "skip_log_bin=yes",
        "replicate_do_tab=",
        "replicate_wild_ign=",
        "replicate_rewrite_db=ab",
        "replicate_rewrite_db=a->b",
        "replicate_do_table=db.t",
        "proxy_=x",
        "proxy_protocol_networks=10.0.0.0/8,localhost",
        "innodb_buffer_pool_size=2M",
        "innodb_buffer_pool_size=6M",
        "innodb_buffer_pool_size=1e3",
        "innodb_buffer_pool_size_max=1e3",
        "innodb_log_file_size=1e3",
        "collation_server=utf8mb4_general_ci",
        "collation_server=latin1_bin",
        "feedback=https://feedback.mariadb.org/rest/v1/post",
        "getopt_prefix_matchi=ON",
        "secure_auth=0",
        "skip-secure_auth",
        "tls_version=TLSv1.0",
        "tls_version=TLSv1.2,TLSv1.3",
        "innodb_io_capacity_max=100",
        "max_allowed_packet=1024",
        "binlog_format=0",
        "binlog_expire_logs_seconds=",
        "lower_case_table_names=2",
        "performance_schema_instrume=",
        // Plugin libraries' options, with the library loaded.
        "plugin_load_add=server_audit\nserver_audit_logging=ON\nserver_audit_events=CONNECT,QUERY",
        "plugin_load_add=server_audit.so\nserver_audit_file_rotations=abc",
        "plugin_load_add=simple_password_check\nsimple_password_check_minimal_length=12",
        "plugin_load_add=sql_errlog\nsql_error_log_rotations=3",
        "plugin_load_add=file_key_management\nfile_key_management_encryption_algorithm=aes_cbc",
        "server_audit_logging=ON",
        "loose_server_audit_logging=ON",
        // Issue 52: MariaDB's remaining forms. A plugin's options take a
        // `plugin-` prefix (with enable-/skip- before it); the server's own
        // do not.
        "enable-plugin-innodb-trx",
        "plugin-innodb-trx=ON",
        "skip-plugin-innodb-trx",
        "plugin-innodb-buffer-pool-size=128M",
        "plugin-max-connections=5",
        // maximum- on every kind with a session value, not on others.
        "maximum-sql-mode=STRICT_ALL_TABLES",
        "maximum-autocommit=1",
        "maximum-innodb-strict-mode=ON",
        "maximum-default-storage-engine=InnoDB",
        // autoset- on the options the server sizes itself, bare only.
        "autoset-host-cache-size",
        "autoset-host-cache-size=1",
        "autoset-max-connections",
        // A prefix before a dot: a multi-source connection name (or a key
        // cache); the option after it must exist.
        "m1.slave-parallel-mode=optimistic",
        "m1.replicate-do-db=x",
        "m1.max-connections=5",
        "m1.nosuch=1",
        // character_set_server takes a list: the first known one wins.
        "character-set-server=ucs2,latin1",
        "character-set-server=nosuch,latin1",
        "character-set-server=latin1,nosuch",
        "character-set-server=nosuch,other",
        "character-set-server=ucs2",
        // InnoDB unavailable while it is the default engine.
        "skip-innodb",
        "innodb=OFF",
        "skip-innodb\ndefault-storage-engine=MyISAM\ndefault-tmp-storage-engine=MyISAM",
        "innodb-page-size=6000",
        "innodb_encrypt_tables=ON",
        "innodb_encrypt_log=ON",
        "innodb_encrypt_tables=FORCE",
        "innodb_encrypt_temporary_tables=ON",
        "loose-innodb_encrypt_tables=ON",
        // Fixed when the datadir was made (the template datadir has 16K
        // pages and 8K Aria blocks).
        "innodb_page_size=3k",
        "innodb_page_size=16k",
        "innodb_page_size=64k",
        "aria_block_size=4096",
        "aria_block_size=8192",
        // A removed no-op, and values the server checks.
        "thread_concurrency=8",
        "transaction_isolation=SNAPSHOT",
        "transaction_isolation=READ-COMMITTED",
        "optimizer_switch=index_merge=off,no_such_flag=on",
        "optimizer_switch=index_merge=off",
        // The outside corpus's disagreements (issue 52): MariaDB's test
        // suite option lists.
        "character-set-server=utf8mb4,latin1\ncollation-server=utf8mb4_unicode_ci",
        "collation-server=ucs2_unicode_ci\ncharacter-set-server=ucs2,latin1",
        "disable-getopt-prefix-matching\nloose-aria\nloose-pam-debug",
        "enable-plugin-innodb-sys-tables",
        // The full run's false crit: a no-op the server keeps.
        "skip_bdb",
        "skip_bdb=OFF",
        // The full run's missed refusal: skip- + an ambiguous "b" comes
        // before the no-op skip-bdb, which a later option set holds.
        "skip_b=ON",
        "skip_bd=ON",
        // The full run's missed refusal: InnoDB parses the path at start-up.
        "innodb_data_file_=ON",
        "innodb_data_file_path=ON",
        "innodb_data_file_path=ibdata1:512K",
        "innodb_data_file_path=ibdata1:12M:autoextend;",
        "innodb_data_file_path=ibdata1:12582912:autoextend",
        "innodb_data_file_path=ibdata1:12M:autoextend:max:100M",
    ]
    .iter()
    .map(|l| Case::line("pinned", l))
    .collect()
}

/// The real option files in `../shared/fixtures/mycnf/` (those meant for a
/// MariaDB or MySQL server) and the repository's examples, whole.
fn real_files() -> Vec<Case> {
    let mut cases = Vec::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")];
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/mycnf");
    if shared.is_dir() {
        dirs.push(shared);
    }
    for dir in dirs {
        let Ok(rd) = fs::read_dir(&dir) else { continue };
        let mut paths: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if !(name.ends_with(".cnf") || name.ends_with(".txt")) {
                continue;
            }
            let Ok(text) = fs::read_to_string(&p) else {
                continue;
            };
            // Files with paths of their own machine or includes of a
            // package's directories cannot start a throw-away server.
            if text.contains("!include") {
                continue;
            }
            cases.push(Case {
                id: format!("file:{name}"),
                cnf: strip_paths(&text),
                extra: Vec::new(),
                effect: None,
            });
        }
    }
    cases
}

/// lint's class for a file: its structural findings' highest severity.
fn lint_class(path: &Path, target: &Target) -> (Class, Vec<String>) {
    match mytune::lint::lint_file(path, target) {
        Err(e) => (Class::Refuses, vec![format!("lint error: {e}")]),
        Ok(findings) => {
            let worst = findings.iter().map(|f| f.severity).max();
            let class = match worst {
                None => Class::Clean,
                Some(Severity::Crit) => Class::Refuses,
                Some(_) => Class::Warns,
            };
            let msgs = findings
                .iter()
                .map(|f| format!("{} [{}] {}", f.code, f.severity, f.message))
                .collect();
            (class, msgs)
        }
    }
}

fn sample(cases: Vec<Case>, n: usize, seed: u64) -> Vec<Case> {
    let (mut keep, rest): (Vec<Case>, Vec<Case>) = cases
        .into_iter()
        .partition(|c| c.id.starts_with("pinned:") || c.id.starts_with("file:"));
    keep.extend(oracle::seeded_sample(rest, n, seed));
    let mut seen = std::collections::HashSet::new();
    keep.retain(|c| seen.insert(c.id.clone()));
    keep
}

struct Outcome {
    case: Case,
    server: Class,
    server_lines: Vec<String>,
    via: &'static str,
    lint: Class,
    lint_lines: Vec<String>,
}

fn run(cases: Vec<Case>, oracle: &Oracle, target: &Target) -> Vec<Outcome> {
    let queue = Mutex::new(cases.into_iter().enumerate().collect::<Vec<_>>());
    let results = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let Some((i, case)) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let dir = tempfile::Builder::new()
                        .prefix("mytune-diff-")
                        .tempdir()
                        .expect("temporary directory");
                    let cnf = dir.path().join("case.cnf");
                    fs::write(&cnf, &case.cnf).unwrap();
                    for (name, text) in &case.extra {
                        fs::write(dir.path().join(name), text).unwrap();
                    }
                    let scratch = dir.path().join("scratch");
                    fs::create_dir(&scratch).unwrap();
                    let mut verdict = match oracle.judge(&cnf, &scratch) {
                        Ok(v) => v,
                        Err(e) => panic!("{}: the server could not judge it: {e}", case.id),
                    };
                    if let (Class::Clean, Some((var, want))) = (verdict.class, &case.effect) {
                        let vars = oracle.variables(&cnf).unwrap_or_default();
                        let dashed = var.replace('_', "-");
                        let got = vars
                            .iter()
                            .find(|(n, _)| *n == dashed)
                            .map(|(_, v)| v.as_str());
                        if got != Some(want.as_str()) {
                            verdict.class = Class::Warns;
                            verdict.lines.push(format!(
                                "(ignored: the server runs with {var} = {})",
                                got.unwrap_or("?")
                            ));
                        }
                    }
                    let (lint, lint_lines) = lint_class(&cnf, target);
                    results.lock().unwrap().push((
                        i,
                        Outcome {
                            case,
                            server: verdict.class,
                            server_lines: verdict.lines,
                            via: verdict.via,
                            lint,
                            lint_lines,
                        },
                    ));
                }
            });
        }
    });
    let mut out = results.into_inner().unwrap();
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, o)| o).collect()
}

/// Print the confusion matrix and every disagreement; return
/// (false refusals, missed refusals, warn/clean agreement in %).
fn report(outcomes: &[Outcome]) -> (usize, usize, f64) {
    let mut matrix: BTreeMap<(Class, Class), usize> = BTreeMap::new();
    for o in outcomes {
        *matrix.entry((o.server, o.lint)).or_default() += 1;
    }
    let classes = [Class::Refuses, Class::Warns, Class::Clean];
    println!(
        "\nconfusion matrix ({} cases; rows: mariadbd, columns: lint)",
        outcomes.len()
    );
    println!(
        "{:>10} {:>10} {:>10} {:>10}",
        "", "refuses", "warns", "clean"
    );
    for s in classes {
        print!("{:>10}", s.name());
        for l in classes {
            print!(" {:>10}", matrix.get(&(s, l)).copied().unwrap_or(0));
        }
        println!();
    }
    let mut false_refusals = 0;
    let mut missed = 0;
    let (mut split_total, mut split_agree) = (0usize, 0usize);
    for o in outcomes {
        if o.lint == Class::Refuses && o.server != Class::Refuses {
            false_refusals += 1;
        }
        if o.server == Class::Refuses && o.lint != Class::Refuses {
            missed += 1;
        }
        if o.server != Class::Refuses && o.lint != Class::Refuses {
            split_total += 1;
            if o.server == o.lint {
                split_agree += 1;
            }
        }
        if o.server != o.lint {
            println!(
                "DISAGREE {} | server {} (via {}): {} | lint {}: {}",
                o.case.id.replace('\n', "\\n"),
                o.server.name(),
                o.via,
                o.server_lines.join(" / "),
                o.lint.name(),
                o.lint_lines.join(" / ")
            );
        }
    }
    let agreement = if split_total == 0 {
        100.0
    } else {
        100.0 * split_agree as f64 / split_total as f64
    };
    println!(
        "false 'will not start': {false_refusals}; missed refusals: {missed}; \
         warn/clean agreement: {agreement:.2}% of {split_total}"
    );
    (false_refusals, missed, agreement)
}

fn catalogs() -> (&'static Catalog, Vec<&'static Catalog>) {
    let cat = Catalog::for_target(&"mariadb-10.11".parse().unwrap()).unwrap();
    let others = [
        "mysql-5.7",
        "mysql-8.0",
        "mysql-8.4",
        "percona-8.0",
        "mariadb-10.6",
        "mariadb-11.4",
    ]
    .iter()
    .filter_map(|t| Catalog::for_target(&t.parse().unwrap()).ok())
    .collect();
    (cat, others)
}

/// The case ids named one per line in the file `MYTUNE_DIFF_IDS` (as a
/// `DISAGREE` line prints them), to judge again only the cases a full run
/// disagreed on.
fn listed_ids() -> Option<std::collections::BTreeSet<String>> {
    let path = std::env::var_os("MYTUNE_DIFF_IDS")?;
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("MYTUNE_DIFF_IDS {}: {e}", Path::new(&path).display()));
    Some(
        text.lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect(),
    )
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn lint_agrees_with_the_real_mariadbd() {
    let Some(oracle) = Oracle::start_or_skip("differential test") else {
        return;
    };
    let target: Target = format!("mariadb-{}", oracle.release()).parse().unwrap();
    let (cat, others) = catalogs();
    let all = corpus(cat, &others);
    let crate::support::oracle::Sampling { full, seed, n } =
        crate::support::oracle::sampling("DIFF", 240);
    let total = all.len();
    let cases = if let Some(ids) = listed_ids() {
        // A line `~TEXT` names every case whose id contains TEXT.
        let parts: Vec<&str> = ids.iter().filter_map(|i| i.strip_prefix('~')).collect();
        all.into_iter()
            .filter(|c| {
                let id = c.id.replace('\n', "\\n");
                ids.contains(&id) || parts.iter().any(|p| id.contains(p))
            })
            .collect()
    } else if full {
        all
    } else {
        sample(all, n, seed)
    };
    println!(
        "differential test against mariadbd {} ({}): {} of {total} cases, seed {seed}",
        oracle.version,
        target,
        cases.len()
    );
    let began = Instant::now();
    let outcomes = run(cases, &oracle, &target);
    let (false_refusals, missed, agreement) = report(&outcomes);
    println!("took {:.1} s", began.elapsed().as_secs_f64());
    assert_eq!(
        false_refusals, 0,
        "lint said 'will not start' where the server starts (seed {seed})"
    );
    assert_eq!(
        missed, 0,
        "the server refused lines lint let through (seed {seed})"
    );
    assert!(
        agreement >= 99.0,
        "warn/clean agreement {agreement:.2}% < 99% (seed {seed})"
    );
}
