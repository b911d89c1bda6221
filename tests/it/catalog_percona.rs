//! Real variable lists written out as option files and linted as a user's
//! file would be (`mytune::lint::lint_file`, so prefixes, dashes and plugin
//! names are read as lint reads them): at most 2% of the names may be called
//! unknown (MT002). Percona Server 8.0.27's own lists (help defaults table,
//! MyRocks and audit_log `SHOW VARIABLES` blocks, with the plugins declared
//! by `plugin-load-add` as a real file would), the PXC 5.7 / 8.0 / 8.4 wsrep
//! indexes, Percona Server 8.4's documentation pages (the only Percona 8.4
//! source there is) on top of the MySQL 8.4 help table, and the MySQL /
//! MariaDB dumps of shared/fixtures/dumps.
//!
//! Also: a bare series means its newest known release everywhere.
//!
//! The shared lists are read from `../shared` (or /work/shared); where they
//! are absent the tests skip with a printed reason.

use crate::support::shared as shared_support;
use mytune::catalog::Resolve;
use shared_support::shared_dir;

use std::collections::BTreeMap;
use std::path::Path;

use mytune::catalog::Catalog;
use mytune::lint::lint_file;
use mytune::target::{Target, Version};

fn read(rel: &str) -> Option<String> {
    let path = shared_dir()?.join(rel);
    match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(_) => {
            eprintln!("skipped: {} is absent", path.display());
            None
        }
    }
}

const P80: &str =
    "catalog/percona/percona-server-8.0.27-18__session-replay-tools_percona-server-8.0.27-18__";

/// The "Variables (--variable-name=value)" table of a mysqld --help output.
fn help_defaults(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut on = false;
    for line in text.lines() {
        if line.starts_with("Variables (--variable-name=value)") {
            on = true;
            continue;
        }
        if !on
            || line.starts_with("---")
            || line.trim().is_empty()
            || line.starts_with("and boolean")
        {
            continue;
        }
        if line.starts_with("To see what values") {
            break;
        }
        let mut parts = line.splitn(2, char::is_whitespace);
        let name = parts.next().unwrap_or("").to_string();
        let value = parts.next().map(str::trim).unwrap_or("");
        let value = (!value.is_empty() && value != "(No default value)" && !value.contains("####"))
            .then(|| value.to_string());
        out.push((name, value));
    }
    out
}

/// The `Variable_name<TAB>Value` lines after the first line starting with `start`.
fn show_block(text: &str, start: &str) -> Vec<(String, Option<String>)> {
    let mut lines = text
        .lines()
        .skip_while(|l| !l.to_lowercase().starts_with(start));
    lines.next();
    lines
        .filter(|l| !l.starts_with("Variable_name\t"))
        .map_while(|l| {
            let (k, v) = l.split_once('\t')?;
            k.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
                .then(|| (k.to_string(), Some(v.to_string())))
        })
        .collect()
}

fn mysqltuner(text: &str) -> Vec<(String, Option<String>)> {
    let json: serde_json::Value = serde_json::from_str(text).expect("valid JSON");
    let vars = json["Variables"].as_object().expect("a Variables map");
    vars.iter()
        // A few keys of these files are mangled ("_password_proxy_users").
        .filter(|(k, _)| k.starts_with(|c: char| c.is_ascii_lowercase()))
        .map(|(k, v)| {
            let s = match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.clone(), Some(s))
        })
        .collect()
}

/// The system-variable names of a Percona documentation page: the rows of
/// its `| Name | Cmd-Line | ...` index table (before "Status variables"), and
/// every heading that names a variable (lowercase, no spaces) whose section
/// has a `Scope` or `Dynamic` row, in a table or a `* Key: value` list (the
/// jemalloc page). Functions, tables and status variables are left out.
fn doc_variables(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_index = false;
    for line in text.lines() {
        if line.starts_with('#') {
            in_index = false;
            if line.to_lowercase().contains("status variables") {
                continue;
            }
        }
        if line.starts_with("| Name ") && line.contains("Dynamic") {
            in_index = true;
            continue;
        }
        if in_index && let Some(cell) = line.strip_prefix("| ") {
            let name = cell.split('|').next().unwrap_or("").trim();
            if name.starts_with(|c: char| c.is_ascii_lowercase()) {
                out.push(name.to_string());
            }
        }
    }
    let is_name = |n: &str| {
        n.starts_with(|c: char| c.is_ascii_lowercase())
            && n.chars().all(|c| {
                c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '.' | '-')
            })
    };
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let Some(head) = line.strip_prefix("##") else {
            continue;
        };
        let name = head.trim_start_matches('#').trim().trim_matches('`');
        if !is_name(name) {
            continue;
        }
        let section = lines[i + 1..]
            .iter()
            .take_while(|l| !l.starts_with('#'))
            .map(|l| l.trim_start_matches(['|', '*', ' ']).to_lowercase());
        if section
            .into_iter()
            .any(|l| l.starts_with("scope") || l.starts_with("dynamic"))
        {
            out.push(name.to_string());
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Names as option lines with the value 1 (the value does not matter here:
/// a bad value is MT005, not MT002).
fn with_value_1(names: &[String]) -> Vec<(String, Option<String>)> {
    names
        .iter()
        .map(|n| (n.clone(), Some("1".to_string())))
        .collect()
}

/// The `### \`name\`` headings of a PXC wsrep index page.
fn wsrep_index(text: &str) -> Vec<(String, Option<String>)> {
    text.lines()
        .filter_map(|l| l.strip_prefix("### `")?.split('`').next())
        .map(|n| {
            (
                n.trim_end_matches("=name").to_string(),
                Some("1".to_string()),
            )
        })
        .collect()
}

const P84_DOCS: &str = "catalog/percona/percona-server-8.4-docs__percona_psmysql-docs__docs__";

/// Percona Server 8.4's documentation pages that name variables.
const P84_PAGES: [&str; 17] = [
    "percona-server-system-variables",
    "myrocks-server-variables",
    "audit-log-filter-variables",
    "threadpool",
    "kill-idle-trx",
    "binlog-space",
    "encrypt-temporary-files",
    "jemalloc-profiling",
    "slow-extended",
    "slowlog-rotation",
    "user-stats",
    "utility-user",
    "proxy-protocol-support",
    "restrict-dynamic-log-locations",
    "xtradb-performance-improvements",
    "innodb-show-status",
    "group-replication-system-variables",
];

/// What a Percona Server 8.4 file may load: MyRocks, group replication and
/// the two plugins the 8.4 variable index still names.
const P84_PLUGINS: [&str; 4] = [
    "plugin-load-add = ha_rocksdb.so",
    "plugin-load-add = group_replication.so",
    "plugin-load-add = keyring_vault.so",
    "plugin-load-add = query_response_time.so",
];

/// The variables of Percona's 8.4 pages, split into the server's and
/// plugins' (an option file can set them once the plugin is loaded) and
/// the audit log filter component's (`audit_log_filter.*`, and the
/// `audit-log-filter` load option): a component is installed with INSTALL
/// COMPONENT, never by an option file, so those are checked by name.
fn percona_84_doc_names() -> Option<(Vec<String>, Vec<String>)> {
    let mut names = Vec::new();
    for page in P84_PAGES {
        names.extend(doc_variables(&read(&format!("{P84_DOCS}{page}.md"))?));
    }
    names.sort();
    names.dedup();
    Some(
        names
            .into_iter()
            .partition(|n| !n.replace('-', "_").starts_with("audit_log_filter")),
    )
}

fn tsv(text: &str) -> Vec<(String, Option<String>)> {
    text.lines()
        .filter_map(|l| l.split_once('\t'))
        .filter(|(k, _)| *k != "Variable_name")
        .map(|(k, v)| (k.to_ascii_lowercase(), Some(v.to_string())))
        .collect()
}

/// Write `vars` under [mysqld] (after `preamble` lines), lint the file for
/// `target`, and return the names lint calls unknown plus the name count.
fn unknown_names(
    target: &str,
    preamble: &[&str],
    vars: &[(String, Option<String>)],
) -> (Vec<String>, usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    let mut text = String::from("[mysqld]\n");
    for l in preamble {
        text.push_str(l);
        text.push('\n');
    }
    let mut names: BTreeMap<&str, ()> = BTreeMap::new();
    for (name, value) in vars {
        if names.insert(name.as_str(), ()).is_some() {
            continue;
        }
        match value {
            Some(v) if !v.is_empty() => {
                let v = v.replace('\\', "\\\\").replace('"', "\\\"");
                text.push_str(&format!("{name} = \"{v}\"\n"));
            }
            Some(_) => text.push_str(&format!("{name} = \"\"\n")),
            None => text.push_str(&format!("{name}\n")),
        }
    }
    std::fs::write(&path, &text).unwrap();
    let t: Target = target.parse().unwrap();
    let findings = lint_file(Path::new(&path), &t).expect("lint runs");
    // A system variable the catalog knows but the server has no option for
    // (`foreign_key_checks`) is refused too, for that reason, not unknown.
    let mut unknown: Vec<String> = findings
        .iter()
        .filter(|f| f.code == "MT002" && !f.message.contains("not a server option"))
        .map(|f| f.variable.clone().unwrap_or_else(|| f.message.clone()))
        .collect();
    unknown.sort();
    unknown.dedup();
    (unknown, names.len())
}

fn assert_few_unknown(
    what: &str,
    target: &str,
    preamble: &[&str],
    vars: &[(String, Option<String>)],
) {
    let (unknown, total) = unknown_names(target, preamble, vars);
    let pct = 100.0 * unknown.len() as f64 / total as f64;
    println!(
        "{what} vs {target}: {} of {total} names unknown ({pct:.2}%)",
        unknown.len()
    );
    assert!(total > 30, "{what}: only {total} names read");
    assert!(
        pct <= 2.0,
        "{what} vs {target}: {} of {total} unknown ({pct:.2}%):\n{}",
        unknown.len(),
        unknown.join("\n")
    );
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn percona_8_0_27_variables_are_known_to_percona_8_0() {
    let (Some(help), Some(rocks), Some(audit)) = (
        read(&format!("{P80}mysql-test__r__mysqld--help-notwin.result")),
        read(&format!(
            "{P80}mysql-test__suite__rocksdb__r__rocksdb.result"
        )),
        read(&format!(
            "{P80}plugin__audit_log__tests__mtr__audit_log_new.result"
        )),
    ) else {
        eprintln!("skipped: the Percona Server 8.0.27 lists of shared/catalog/percona are absent");
        return;
    };
    let mut vars = help_defaults(&help);
    let n_help = vars.len();
    let r = show_block(&rocks, "show variables where variable_name like 'rocksdb%'");
    let a = show_block(&audit, "show variables like 'audit_log%'");
    assert!(
        n_help > 400 && r.len() > 150 && a.len() == 18,
        "{n_help} {} {}",
        r.len(),
        a.len()
    );
    vars.extend(r);
    vars.extend(a);
    assert_few_unknown(
        "Percona Server 8.0.27 (help + rocksdb + audit_log)",
        "percona-8.0",
        &[
            "plugin-load-add = ha_rocksdb.so",
            "plugin-load-add = audit_log.so",
        ],
        &vars,
    );
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn percona_5_7_22_variables_are_known_to_percona_5_7() {
    const P57: &str = "catalog/percona/percona-server-5.7.22-22-fork__gaopengcarl_percona-server-locks-detail-5.7.22__mysql-test__";
    let (Some(help), Some(rocks)) = (
        read(&format!("{P57}r__mysqld--help-notwin.result")),
        read(&format!("{P57}suite__rocksdb__r__rocksdb.result")),
    ) else {
        eprintln!("skipped: the Percona Server 5.7.22 lists of shared/catalog/percona are absent");
        return;
    };
    let mut vars = help_defaults(&help);
    let r = show_block(&rocks, "show variables where variable_name like 'rocksdb%'");
    assert!(r.len() > 100, "{}", r.len());
    vars.extend(r);
    assert_few_unknown(
        "Percona Server 5.7.22 (help + rocksdb)",
        "percona-5.7",
        &["plugin-load-add = ha_rocksdb.so"],
        &vars,
    );
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn pxc_8_0_wsrep_index_is_known_to_pxc_8_0() {
    let Some(index) =
        read("catalog/pxc/pxc-8.0-docs__percona_pxc-docs__docs__wsrep-system-index.md")
    else {
        return;
    };
    let vars = wsrep_index(&index);
    assert!(vars.len() > 50, "{}", vars.len());
    assert_few_unknown("PXC 8.0 wsrep index", "pxc-8.0", &[], &vars);
    // Percona Server without Galera does not know them.
    let (unknown, _) = unknown_names("percona-8.0", &[], &vars);
    assert!(
        unknown.iter().any(|n| n.starts_with("wsrep")),
        "{unknown:?}"
    );
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn percona_8_4_docs_are_known_to_percona_8_4() {
    let (Some(help84), Some((names, component))) = (
        read(
            "catalog/help/mysql-8.4.x-planetscale-fork__planetscale_mysql-server__mysqld--help-notwin.result",
        ),
        percona_84_doc_names(),
    ) else {
        eprintln!(
            "skipped: the MySQL 8.4 help or Percona's 8.4 pages of shared/catalog are absent"
        );
        return;
    };
    assert!(names.len() > 240, "{}", names.len());
    // Percona's own names: the ones the docs list that MySQL 8.4 lacks.
    let (not_mysql, _) = unknown_names("mysql-8.4", &P84_PLUGINS, &with_value_1(&names));
    assert!(not_mysql.len() > 200, "{}", not_mysql.len());
    assert_few_unknown(
        "Percona Server 8.4 docs",
        "percona-8.4",
        &P84_PLUGINS,
        &with_value_1(&names),
    );
    // The MySQL layer is mysql-8.4's: its help table and the docs together.
    let mut vars = help_defaults(&help84);
    assert!(vars.len() > 400, "{}", vars.len());
    vars.extend(with_value_1(&names));
    assert_few_unknown(
        "MySQL 8.4 help + Percona Server 8.4 docs",
        "percona-8.4",
        &P84_PLUGINS,
        &vars,
    );
    // The component's variables: known, and named as its component.
    let cat = Catalog::for_target(&"percona-8.4".parse().unwrap()).unwrap();
    assert!(component.len() > 15, "{component:?}");
    for n in &component {
        let v = cat.get(n).unwrap_or_else(|| panic!("{n} unknown"));
        assert_eq!(
            v.plugin.as_deref(),
            Some("component_audit_log_filter"),
            "{n}"
        );
    }
}

#[test]
fn percona_8_4_knows_percona_variables_that_mysql_8_4_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    // From Percona's 8.4 feature pages (kill-idle-trx, binlog-space,
    // slowlog-rotation, encrypt-temporary-files, jemalloc-profiling,
    // user-stats, utility-user, proxy-protocol-support, threadpool,
    // restrict-dynamic-log-locations, slow-extended).
    let lines = [
        "kill_idle_transaction = 300",
        "binlog_space_limit = 50G",
        "max_slowlog_size = 1G",
        "max_slowlog_files = 10",
        "encrypt_tmp_files = OFF",
        "jemalloc_profiling = OFF",
        "userstat = ON",
        "thread_statistics = ON",
        "utility_user = monitor@localhost",
        "proxy_protocol_networks = 10.0.0.0/8",
        "thread_handling = pool-of-threads",
        "thread_pool_size = 16",
        "secure_log_path = /var/log/mysql",
        "log_slow_rate_limit = 100",
    ];
    std::fs::write(&path, format!("[mysqld]\n{}\n", lines.join("\n"))).unwrap();
    let findings = |target: &str| {
        lint_file(&path, &target.parse().unwrap())
            .unwrap()
            .into_iter()
            .filter(|f| matches!(f.code.as_str(), "MT002" | "MT003" | "MT005"))
            .map(|f| format!("{} {}", f.code, f.message))
            .collect::<Vec<_>>()
    };
    let p84 = findings("percona-8.4");
    assert!(p84.is_empty(), "{p84:#?}");
    let m84 = findings("mysql-8.4");
    for l in lines {
        let name = l.split(' ').next().unwrap();
        assert!(
            m84.iter().any(|f| f.contains(name)),
            "mysql-8.4 takes {name}: {m84:#?}"
        );
    }
    // Not Percona 8.0 by another name: its audit_log plugin and TokuDB are
    // not in the 8.4 docs, and what the docs say was removed is removed.
    let cat = Catalog::for_target(&"percona-8.4".parse().unwrap()).unwrap();
    assert_eq!(cat.target().to_string(), "percona-8.4");
    assert!(cat.get("audit_log_policy").is_none());
    assert!(cat.get("tokudb_cache_size").is_none());
    for removed in [
        "rocksdb_strict_collation_check",
        "innodb_sched_priority_master",
        "extra_port",
    ] {
        let v = cat.get(removed).unwrap();
        assert!(v.status.is_removed(), "{removed}: {:?}", v.status);
    }
    assert!(
        cat.get("rocksdb_large_prefix")
            .unwrap()
            .status
            .is_deprecated()
    );
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn pxc_8_4_wsrep_index_is_known_to_pxc_8_4() {
    let (Some(index), Some((names, _))) = (
        read("catalog/pxc/pxc-8.4-docs__percona_pxc-docs__docs__wsrep-system-index.md"),
        percona_84_doc_names(),
    ) else {
        return;
    };
    let wsrep = wsrep_index(&index);
    assert!(wsrep.len() > 50, "{}", wsrep.len());
    assert_few_unknown("PXC 8.4 wsrep index", "pxc-8.4", &[], &wsrep);
    let mut vars = with_value_1(&names);
    vars.extend(wsrep.iter().cloned());
    assert_few_unknown(
        "Percona Server 8.4 docs + PXC 8.4 wsrep index",
        "pxc-8.4",
        &P84_PLUGINS,
        &vars,
    );
    // Percona Server without Galera does not know them.
    let (unknown, _) = unknown_names("percona-8.4", &[], &wsrep);
    assert!(
        unknown.iter().filter(|n| n.starts_with("wsrep")).count() > 40,
        "{unknown:?}"
    );
}

#[test]
fn a_pxc_8_4_node_file_knows_its_wsrep_options() {
    let node = "[mysqld]\n\
        datadir = /var/lib/mysql\n\
        binlog_format = ROW\n\
        default_storage_engine = InnoDB\n\
        innodb_autoinc_lock_mode = 2\n\
        wsrep_provider = /usr/lib64/galera4/libgalera_smm.so\n\
        wsrep_provider_options = \"gcache.size=2G\"\n\
        wsrep_cluster_name = pxc-cluster\n\
        wsrep_cluster_address = gcomm://10.0.0.1,10.0.0.2,10.0.0.3\n\
        wsrep_node_name = pxc1\n\
        wsrep_node_address = 10.0.0.1\n\
        wsrep_sst_method = xtrabackup-v2\n\
        wsrep_applier_threads = 8\n\
        wsrep_log_conflicts\n\
        wsrep_retry_autocommit = 3\n\
        wsrep_certification_rules = OPTIMIZED\n\
        pxc_strict_mode = ENFORCING\n\
        pxc_encrypt_cluster_traffic = ON\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    std::fs::write(&path, node).unwrap();
    let unknown = |target: &str| {
        lint_file(&path, &target.parse().unwrap())
            .unwrap()
            .into_iter()
            .filter(|f| f.code == "MT002")
            .map(|f| f.message)
            .collect::<Vec<_>>()
    };
    let pxc = unknown("pxc-8.4");
    assert!(pxc.is_empty(), "unknown on a PXC 8.4 node: {pxc:#?}");
    assert_eq!(
        unknown("percona-8.4").len(),
        13,
        "{:#?}",
        unknown("percona-8.4")
    );
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn pxc_5_7_lists_are_known_to_pxc_5_7() {
    const P57: &str = "catalog/percona/percona-server-5.7.22-22-fork__gaopengcarl_percona-server-locks-detail-5.7.22__mysql-test__";
    let (Some(index), Some(help), Some(rocks)) = (
        read("catalog/pxc/pxc-5.7-docs__percona_pxc-docs__docs__wsrep-system-index.md"),
        read(&format!("{P57}r__mysqld--help-notwin.result")),
        read(&format!("{P57}suite__rocksdb__r__rocksdb.result")),
    ) else {
        return;
    };
    let wsrep = wsrep_index(&index);
    assert!(wsrep.len() > 40, "{}", wsrep.len());
    assert_few_unknown("PXC 5.7 wsrep index", "pxc-5.7", &[], &wsrep);
    // The Percona layer is percona-5.7's.
    let mut vars = help_defaults(&help);
    vars.extend(show_block(
        &rocks,
        "show variables where variable_name like 'rocksdb%'",
    ));
    vars.extend(wsrep.iter().cloned());
    assert_few_unknown(
        "Percona Server 5.7.22 (help + rocksdb) + PXC 5.7 wsrep index",
        "pxc-5.7",
        &["plugin-load-add = ha_rocksdb.so"],
        &vars,
    );
    let (unknown, _) = unknown_names("percona-5.7", &[], &wsrep);
    assert!(
        unknown.iter().filter(|n| n.starts_with("wsrep")).count() > 35,
        "{unknown:?}"
    );
}

/// Keys mysqltuner adds to its "Variables" map itself (`have_<engine>` for
/// each engine SHOW ENGINES lists, its Galera and thread-pool probes): no
/// server variable has those names.
fn mysqltuner_made(name: &str) -> bool {
    matches!(
        name,
        "have_archive"
            | "have_blackhole_engine"
            | "have_csv"
            | "have_federated_engine"
            | "have_innodb"
            | "have_memory"
            | "have_mrg_myisam"
            | "have_myisam"
            | "have_ndbcluster"
            | "have_ndbinfo"
            | "have_performance_schema"
            | "have_aria"
            | "have_sequence"
            | "have_galera"
            | "have_threadpool"
    )
}

/// Every real SHOW VARIABLES capture of shared/fixtures/dumps, as an option
/// file for its own release: no name unknown (issue 52). Names of older
/// releases are entries of the nearest catalog with the release that removed
/// them, so the 5.5 and 5.6 servers' lists are clean too.
#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn real_variable_dumps_have_no_unknown_name() {
    let dumps = [
        (
            "mysql-8.0.32__major_MySQLTuner-perl__examples__github__result__mysql__8__result.json",
            "mysql-8.0.32",
        ),
        (
            "mysql-5.7.41__major_MySQLTuner-perl__examples__github__result__mysql__5.7__result.json",
            "mysql-5.7.41",
        ),
        (
            "mysql-5.6.51__major_MySQLTuner-perl__examples__github__result__mysql__5.6__result.json",
            "mysql-5.6.51",
        ),
        (
            "mysql-5.5.21__percona_percona-toolkit__t__pt-mysql-summary__samples__mysql-variables-with-semisync.txt",
            "mysql-5.5.21",
        ),
        (
            "percona-5.5.20__percona_percona-toolkit__t__pt-mysql-summary__samples__temp002__mysql-variables",
            "percona-5.5.20",
        ),
        (
            "percona-5.5.23__percona_percona-toolkit__t__pt-mysql-summary__samples__percona-server-5.5-variables",
            "percona-5.5.23",
        ),
        (
            "pxc-5.5.28__percona_percona-toolkit__t__pt-mysql-summary__samples__temp006__mysql-variables",
            "pxc-5.5.28",
        ),
        (
            "mariadb-10.11.19_show-global-variables.tsv",
            "mariadb-10.11.19",
        ),
        (
            "mariadb-10.9.5__major_MySQLTuner-perl__examples__github__result__mariadb__10.9__result.json",
            "mariadb-10.9.5",
        ),
        (
            "mariadb-10.4.28__major_MySQLTuner-perl__examples__github__result__mariadb__10.4__result.json",
            "mariadb-10.4.28",
        ),
        (
            "mariadb-10.2.44__major_MySQLTuner-perl__examples__github__result__mariadb__10.2__result.json",
            "mariadb-10.2.44",
        ),
    ];
    let mut n_read = 0;
    for (file, target) in dumps {
        let Some(text) = read(&format!("fixtures/dumps/{file}")) else {
            continue;
        };
        let vars: Vec<(String, Option<String>)> = if file.ends_with(".json") {
            mysqltuner(&text)
        } else {
            tsv(&text)
        }
        .into_iter()
        .filter(|(n, _)| !mysqltuner_made(n))
        .collect();
        assert!(vars.len() > 300, "{file}: {}", vars.len());
        n_read += 1;
        // The 5.5.21 sample ran with semisync loaded. Percona Server 5.5 had
        // the response-time distribution built in; from 5.6 it is the
        // query_response_time plugin, as the 5.7 catalog standing in for
        // 5.5 has it.
        let preamble: &[&str] = if file.contains("semisync") {
            &["plugin-load-add = semisync_master.so"]
        } else if target.starts_with("percona-5.5") || target.starts_with("pxc-5.5") {
            &["plugin-load-add = query_response_time.so"]
        } else {
            &[]
        };
        let (unknown, total) = unknown_names(target, preamble, &vars);
        println!(
            "{file} vs {target}: {} of {total} names unknown",
            unknown.len()
        );
        assert!(
            unknown.is_empty(),
            "{file} vs {target}:\n{}",
            unknown.join("\n")
        );
    }
    assert!(n_read > 0);
}

#[test]
fn a_bare_series_is_its_newest_known_release() {
    let t: Target = "mysql-8.0".parse().unwrap();
    let r = t.resolved();
    assert_eq!(r.version, Version::new(8, 0, 41));
    assert_eq!(r, Catalog::for_target(&t).unwrap().release());
    assert_eq!(
        "percona-8.0"
            .parse::<Target>()
            .unwrap()
            .resolved()
            .to_string(),
        "percona-8.0.36"
    );
    assert_eq!(
        "pxc-8.0".parse::<Target>().unwrap().resolved().to_string(),
        "pxc-8.0.33"
    );
    assert_eq!(
        "pxc-5.7".parse::<Target>().unwrap().resolved().to_string(),
        "pxc-5.7.24"
    );
    // 8.4.0: the data names no Percona or PXC 8.4 release (a zero patch is not written).
    for t in ["percona-8.4", "pxc-8.4"] {
        let r = t.parse::<Target>().unwrap().resolved();
        assert_eq!(r.version, Version::new(8, 4, 0), "{t}");
    }
    assert_eq!(
        "mysql-8.0.25"
            .parse::<Target>()
            .unwrap()
            .resolved()
            .to_string(),
        "mysql-8.0.25"
    );

    // Deprecations follow the same release the rules see: innodb_log_file_size
    // is deprecated since 8.0.30, so bare mysql-8.0 (8.0.41) says so and 8.0.25 does not.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    std::fs::write(&path, "[mysqld]\ninnodb_log_file_size = 1G\n").unwrap();
    let deprecated = |target: &str| {
        lint_file(&path, &target.parse().unwrap())
            .unwrap()
            .into_iter()
            .filter(|f| f.variable.as_deref() == Some("innodb_log_file_size"))
            .map(|f| f.message)
            .find(|m| m.contains("deprecated"))
    };
    let m = deprecated("mysql-8.0").expect("deprecated on bare mysql-8.0");
    assert!(m.contains("8.0.30"), "{m}");
    assert!(deprecated("mysql-8.0.41").is_some());
    assert!(deprecated("mysql-8.0.25").is_none());
}
