//! The curated catalog facts and their public sources (issue 52: verdicts
//! on the option files people commit, for MySQL and Percona Server judged
//! from their own manuals and source).
//!
//! `data/catalog-sources.tsv` names, for each fact the raw server lists do
//! not carry, the catalogs it holds in and where it comes from; the first
//! test checks that every row holds in the embedded catalogs. The others
//! are the regression tests of the false "the server will not start"
//! verdicts found on real files, each citing the page or source file that
//! settles it.

use std::path::Path;

use mytune::catalog::{ArgKind, Catalog, VarKind};
use mytune::rules::{Finding, Severity};

const SOURCES: &str = include_str!("../../data/catalog-sources.tsv");

/// Lint `text` (an option file) for `target`: every finding.
fn lint(target: &str, text: &str) -> Vec<Finding> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    std::fs::write(&path, text).unwrap();
    mytune::lint::lint_file(Path::new(&path), &target.parse().unwrap()).unwrap()
}

/// The findings about option `name` (by variable, or naming it).
fn about<'a>(findings: &'a [Finding], name: &str) -> Vec<&'a Finding> {
    findings
        .iter()
        .filter(|f| f.variable.as_deref() == Some(name) || f.message.contains(name))
        .collect()
}

fn show(findings: &[&Finding]) -> String {
    findings
        .iter()
        .map(|f| format!("{} [{}] {}", f.code, f.severity, f.message))
        .collect::<Vec<_>>()
        .join("\n")
}

fn cat(target: &str) -> &'static Catalog {
    Catalog::for_target(&target.parse().unwrap()).unwrap()
}

#[test]
fn every_sources_row_holds_in_the_catalogs_it_names() {
    let mut rows = 0;
    let mut bad = Vec::new();
    for (i, line) in SOURCES.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "line {}: {line}", i + 1);
        let (name, targets, fields, source) = (cols[0], cols[1], cols[2], cols[3]);
        assert!(
            source.contains("https://") || source.contains(".cc") || source.contains(".h"),
            "line {}: {name} names no public source: {source}",
            i + 1
        );
        rows += 1;
        for target in targets.split_whitespace() {
            let c = cat(target);
            assert_eq!(c.target().to_string(), target, "line {}", i + 1);
            let Some(v) = c.get(name) else {
                bad.push(format!("line {}: {target} lacks {name}", i + 1));
                continue;
            };
            let mut status_set = false;
            for field in fields.split(';').filter(|f| !f.is_empty()) {
                let (key, value) = field.split_once('=').unwrap();
                let ok = match key {
                    "kind" => {
                        v.kind.name() == value || (value == "int" && v.kind.name() == "integer")
                    }
                    "values" => match &v.kind {
                        VarKind::Enum { values } | VarKind::Set { values } => {
                            values.join(",") == value
                        }
                        _ => false,
                    },
                    "default" => v.default.as_deref() == Some(value).filter(|d| *d != "\\N"),
                    "sysvar" => v.sysvar == (value == "Y"),
                    "dynamic" => v.dynamic == (value == "Y"),
                    "status" => {
                        status_set = true;
                        match value {
                            "current" => v.status.is_current(),
                            "deprecated" => v.status.is_deprecated(),
                            "removed" => v.status.is_removed(),
                            _ => false,
                        }
                    }
                    "since" => v.status.since().map(|s| s.to_string()).as_deref() == Some(value),
                    "note" => v.note.as_deref() == Some(value),
                    "plugin" => v.plugin.as_deref() == Some(value).filter(|p| !p.is_empty()),
                    "arg" => {
                        v.arg
                            == match value {
                                "req" => ArgKind::Required,
                                "opt" => ArgKind::Optional,
                                "none" => ArgKind::NoArg,
                                _ => ArgKind::Unknown,
                            }
                    }
                    _ => true,
                };
                if !ok {
                    bad.push(format!(
                        "line {}: {target} {name}: {key} is not {value} ({v:?})",
                        i + 1
                    ));
                }
            }
            if !status_set && !v.status.exists() {
                bad.push(format!(
                    "line {}: {target} {name} is {}, the row says the target has it",
                    i + 1,
                    v.status
                ));
            }
        }
    }
    assert!(rows >= 7, "{rows} rows");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A bare `enforce_gtid_consistency` (as every GTID set-up writes it) is ON.
/// The MySQL 8.0 manual gives its command-line format as
/// `--enforce-gtid-consistency[=value]` (replication-options-gtids.html);
/// `sql/sys_vars.h` (`Sys_var_enforce_gtid_consistency`, WL#7083) keeps the
/// bare form meaning ON, as when the variable was a boolean; the help output
/// of 5.7.18, 8.0.41 and 8.4 prints `--enforce-gtid-consistency[=name]`.
#[test]
fn bare_enforce_gtid_consistency_is_on_not_refused() {
    for target in [
        "mysql-5.7",
        "mysql-8.0",
        "mysql-8.4",
        "percona-8.0",
        "pxc-8.0",
    ] {
        let f = lint(
            target,
            "[mysqld]\nlog_bin = binlog\nserver_id = 1\ngtid_mode = ON\nenforce_gtid_consistency\n",
        );
        let about = about(&f, "enforce_gtid_consistency");
        assert!(about.is_empty(), "{target}: {}", show(&about));
        assert_eq!(
            cat(target).get("enforce_gtid_consistency").unwrap().arg,
            ArgKind::Optional,
            "{target}"
        );
    }
    // What the help output says needs a value still does: `--max-connections=#`.
    let f = lint("mysql-8.0", "[mysqld]\nmax_connections\n");
    let about = about(&f, "max_connections");
    assert!(
        about
            .iter()
            .any(|f| f.severity == Severity::Crit && f.message.contains("needs a value")),
        "{}",
        show(&about)
    );
}

/// `innodb-status-file` is an InnoDB command option without a system
/// variable: MySQL 8.0 manual, "InnoDB Startup Options and System
/// Variables" (innodb-parameters.html#option_mysqld_innodb-status-file,
/// `--innodb-status-file[={OFF|ON}]`); `storage/innobase/handler/ha_innodb.cc`
/// declares it with PLUGIN_VAR_NOSYSVAR.
#[test]
fn innodb_status_file_is_an_option_without_a_variable() {
    for target in ["mysql-5.7", "mysql-8.0", "mysql-8.4", "percona-8.0"] {
        for line in ["innodb-status-file", "innodb_status_file = 1"] {
            let f = lint(target, &format!("[mysqld]\n{line}\n"));
            let about = about(&f, "innodb_status_file");
            assert!(about.is_empty(), "{target} {line}: {}", show(&about));
        }
        let v = cat(target).get("innodb_status_file").unwrap();
        assert!(!v.sysvar && v.kind == VarKind::Bool, "{target}: {v:?}");
    }
}

/// `mysqlx=0` turns the built-in X Plugin off: MySQL 8.4 manual, "X Plugin
/// Options and System Variables" (x-plugin-options-system-variables.html,
/// `--mysqlx[=value]`: ON, OFF, FORCE, FORCE_PLUS_PERMANENT; 8.0.11 and later).
#[test]
fn mysqlx_off_disables_the_x_plugin_on_8_0_and_8_4() {
    for target in ["mysql-8.0", "mysql-8.4", "percona-8.4"] {
        for line in ["mysqlx=0", "mysqlx = OFF", "skip-mysqlx", "mysqlx"] {
            let f = lint(target, &format!("[mysqld]\n{line}\n"));
            let about = about(&f, "mysqlx");
            assert!(about.is_empty(), "{target} {line}: {}", show(&about));
        }
        let f = lint(target, "[mysqld]\nmysqlx = maybe\n");
        assert!(
            f.iter()
                .any(|f| f.code == "MT005" && f.severity == Severity::Crit),
            "{target}: a value outside ON/OFF/FORCE/FORCE_PLUS_PERMANENT"
        );
    }
}

/// `innodb_numa_interleave` exists where the server was built with NUMA
/// support: MySQL 8.0 and 8.4 manuals, innodb-parameters.html
/// (#sysvar_innodb_numa_interleave; ON by default from 8.4.0). A build
/// dependence, said as such: neither "unknown" nor "removed".
#[test]
fn innodb_numa_interleave_is_build_dependent_not_unknown_or_removed() {
    for target in ["mysql-8.0", "mysql-8.4", "percona-8.0"] {
        let f = lint(target, "[mysqld]\ninnodb_numa_interleave = 1\n");
        let about = about(&f, "innodb_numa_interleave");
        assert_eq!(about.len(), 1, "{target}: {}", show(&about));
        let j = about[0];
        assert_eq!(j.severity, Severity::Info, "{target}: {}", show(&about));
        assert!(
            j.message.contains("only in builds with NUMA support")
                && !j.message.contains("unknown")
                && !j.message.contains("removed"),
            "{target}: {}",
            j.message
        );
        // loose- is what such a file should say, and then nothing is left.
        let f = lint(target, "[mysqld]\nloose-innodb_numa_interleave = 1\n");
        assert!(
            about_empty(&f, "innodb_numa_interleave"),
            "{target} loose: {f:?}"
        );
    }
    assert_eq!(
        cat("mysql-8.4")
            .get("innodb_numa_interleave")
            .unwrap()
            .default
            .as_deref(),
        Some("ON")
    );
}

fn about_empty(f: &[Finding], name: &str) -> bool {
    about(f, name).is_empty()
}

/// Percona Server's `innodb_parallel_dblwr_encrypt` is deprecated, not
/// removed: the 8.0 manual's "Encrypt doublewrite buffers" page
/// (docs.percona.com/percona-server/8.0/encrypting-doublewrite-buffers.html)
/// says it is deprecated from 8.0.23-14 and may be removed later; the 5.7
/// variable index marks it "Deprecated 5.7.31-34".
#[test]
fn percona_innodb_parallel_dblwr_encrypt_is_deprecated_not_removed() {
    for (target, since) in [("percona-8.0", "8.0.23"), ("percona-5.7", "5.7.31")] {
        let f = lint(target, "[mysqld]\ninnodb_parallel_dblwr_encrypt = ON\n");
        let about = about(&f, "innodb_parallel_dblwr_encrypt");
        assert_eq!(about.len(), 1, "{target}: {}", show(&about));
        assert_eq!(about[0].code, "MT004", "{target}: {}", show(&about));
        assert_eq!(about[0].severity, Severity::Warn);
        assert!(about[0].message.contains(since), "{}", about[0].message);
    }
    // Before the deprecation the option is plain.
    let f = lint(
        "percona-8.0.22",
        "[mysqld]\ninnodb_parallel_dblwr_encrypt = ON\n",
    );
    assert!(about_empty(&f, "innodb_parallel_dblwr_encrypt"), "{f:?}");
}

/// The server's option-file reader hands a program only the lines of the
/// groups it asked for (mysys `my_default.cc`: the option handler drops
/// every line of another group), so a malformed line in `[xtrabackup]`, a
/// group mysqld never reads, cannot stop the server: a warning naming the
/// program that does read it, not "the server refuses to start".
#[test]
fn a_line_with_spaces_in_a_group_the_server_never_reads_is_not_fatal() {
    for target in ["mysql-8.0", "percona-8.0", "mariadb-10.11"] {
        let f = lint(
            target,
            "[mysqld]\ndatadir = /var/lib/mysql\n\n[xtrabackup]\ntarget dir = /backup\n",
        );
        let mt001: Vec<&Finding> = f.iter().filter(|f| f.code == "MT001").collect();
        assert_eq!(mt001.len(), 1, "{target}: {}", show(&mt001));
        assert_eq!(mt001[0].severity, Severity::Warn, "{}", show(&mt001));
        assert!(
            mt001[0].message.contains("[xtrabackup]")
                && mt001[0].message.contains("xtrabackup reads it")
                && !mt001[0].message.contains("refuses to start"),
            "{}",
            mt001[0].message
        );
    }
    // The same line where the server reads it still stops it.
    let f = lint("mysql-8.0", "[mysqld]\ntarget dir = /backup\n");
    assert!(
        f.iter()
            .any(|f| f.code == "MT001" && f.severity == Severity::Crit),
        "{f:?}"
    );
}

/// The options of the authentication plugins and the X Plugin built into
/// every MySQL 8.0, and Percona Server 8.0's own, which a real Percona
/// 8.0.32 variable list has (issue 52) and the test-suite help output
/// leaves out. Sources: the MySQL 8.0 manual, "Server System Variables"
/// (server-system-variables.html, sha256_password_* and
/// caching_sha2_password_*) and "X Plugin Options and System Variables"
/// (mysqlx_lz4_*, 8.0.20, WL#13034); Percona's trigger-updates,
/// compressed-columns and secure-log-path pages.
#[test]
fn built_in_plugin_and_percona_options_are_known() {
    let mysql = [
        "sha256_password_auto_generate_rsa_keys = ON",
        "caching_sha2_password_auto_generate_rsa_keys = ON",
        "sha256_password_private_key_path = private_key.pem",
        "sha256_password_public_key_path = public_key.pem",
        "mysqlx_lz4_default_compression_level = 2",
        "mysqlx_lz4_max_client_compression_level = 8",
    ];
    let percona = [
        "table_open_cache_triggers = 1000",
        "innodb_compressed_columns_threshold = 96",
        "innodb_compressed_columns_zip_level = 6",
        "buffered_error_log_size = 1M",
        "buffered_error_log_filename = /var/log/mysql/buffered.log",
        "secure_log_path = /var/log/mysql",
    ];
    for target in ["mysql-8.0", "mysql-8.4", "percona-8.0", "pxc-8.0"] {
        let mut lines = mysql.to_vec();
        if target.ends_with("-8.0") && !target.starts_with("mysql") {
            lines.extend(percona);
        }
        let f = lint(target, &format!("[mysqld]\n{}\n", lines.join("\n")));
        let structural: Vec<&Finding> = f.iter().filter(|f| f.code.as_str() < "MT100").collect();
        assert!(structural.is_empty(), "{target}: {}", show(&structural));
    }
    // Percona Server's own names stay out of community MySQL 8.0.
    let f = lint(
        "mysql-8.0",
        "[mysqld]\ninnodb_compressed_columns_threshold = 96\n",
    );
    assert!(f.iter().any(|f| f.code == "MT002"), "{f:?}");
}

/// A name of a later series is not "unknown": the catalogs carry what newer
/// servers' own outputs list (MySQL 9.x's `mysqld --verbose --help`), as
/// options that came with that series.
#[test]
fn an_option_of_a_later_series_says_when_it_came() {
    let f = lint("mysql-8.4", "[mysqld]\ncheck_table_functions = WARN\n");
    let found = about(&f, "check_table_functions");
    assert_eq!(found.len(), 1, "{}", show(&found));
    assert_eq!(found[0].severity, Severity::Crit);
    assert!(
        found[0].message.contains("came with MySQL 9.0") && !found[0].message.contains("unknown"),
        "{}",
        found[0].message
    );
    // Linted for a 9.x release (the 8.4 catalog stands in), it is an option.
    let f = lint("mysql-9.1", "[mysqld]\ncheck_table_functions = WARN\n");
    assert!(about_empty(&f, "check_table_functions"), "{f:?}");
    // loose- keeps it to a note.
    let f = lint(
        "mysql-8.4",
        "[mysqld]\nloose-check_table_functions = WARN\n",
    );
    assert!(
        about(&f, "check_table_functions")
            .iter()
            .all(|f| f.severity == Severity::Info),
        "{f:?}"
    );
}

/// A name of an older series is a removed option with the release that
/// removed it (here MySQL 5.6.1, the release notes of data/legacy-options.tsv),
/// and an option of the release that still has it: a MySQL 5.5 server's own
/// SHOW VARIABLES names lint clean for 5.5.
#[test]
fn an_option_of_an_older_series_is_removed_with_its_release() {
    let f = lint(
        "mysql-8.0",
        "[mysqld]\nlog-slow-queries = /var/log/slow.log\n",
    );
    let about = about(&f, "log_slow_queries");
    assert_eq!(about.len(), 1, "{}", show(&about));
    assert_eq!(about[0].code, "MT003");
    assert!(
        about[0].message.contains("removed in MySQL 5.6.1")
            && about[0].message.contains("slow_query_log = ON"),
        "{}",
        about[0].message
    );
    assert!(
        about[0].fix.is_none(),
        "no fix drops what the author wanted"
    );
    let f = lint(
        "mysql-5.5",
        "[mysqld]\nlog-slow-queries = /var/log/slow.log\nhave_partitioning = YES\n",
    );
    let structural: Vec<&Finding> = f.iter().filter(|f| f.code.as_str() < "MT100").collect();
    assert!(structural.is_empty(), "{}", show(&structural));
}

/// Options only debug builds have (a debug build's test-suite result lists
/// them, no release server's output does): the release builds people run
/// refuse them, and the finding says why.
#[test]
fn a_debug_build_option_is_refused_by_release_builds() {
    let f = lint("mariadb-10.11", "[mysqld]\ninnodb_sync_debug = ON\n");
    let found = about(&f, "innodb_sync_debug");
    assert_eq!(found.len(), 1, "{}", show(&found));
    assert_eq!(found[0].severity, Severity::Crit);
    assert!(
        found[0].message.contains("only in debug builds"),
        "{}",
        found[0].message
    );
    let f = lint("mariadb-10.11", "[mysqld]\nloose-innodb_sync_debug = ON\n");
    assert!(
        about(&f, "innodb_sync_debug")
            .iter()
            .all(|f| f.severity == Severity::Info),
        "{f:?}"
    );
}

/// Defaults that change what other lines mean are per version. MySQL 8.0
/// writes a binary log by default (MySQL 8.0 manual, "The Binary Log":
/// "Binary logging is enabled by default", from 8.0.3; ON in the 8.0.32
/// capture), so MT108 speaks of the binary log as on there, and as off on
/// 5.7 or with skip-log-bin.
#[test]
fn the_binary_log_is_on_by_default_from_mysql_8_0() {
    let mt108 = |target: &str, extra: &str| -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("my.cnf");
        std::fs::write(
            &path,
            format!("[mysqld]\ninnodb_flush_log_at_trx_commit = 2\n{extra}"),
        )
        .unwrap();
        let out = crate::support::run::mytune_command()
            .args(["lint", "--target", target, "--format", "json"])
            .arg(&path)
            .output()
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["code"] == "MT108")
            .unwrap_or_else(|| panic!("{target}: no MT108"))["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    for target in ["mysql-8.0", "mysql-8.4", "percona-8.0", "pxc-8.0"] {
        let m = mt108(target, "");
        assert!(m.contains("(binary log on)"), "{target}: {m}");
        let m = mt108(target, "skip-log-bin\n");
        assert!(m.contains("(binary log off)"), "{target} skip-log-bin: {m}");
    }
    for target in ["mysql-5.7", "percona-5.7", "mariadb-10.11"] {
        let m = mt108(target, "");
        assert!(m.contains("(binary log off)"), "{target}: {m}");
    }
}

/// server_id defaults to 0 on MySQL 5.7 and 1 from 8.0, so `log_bin`
/// without `server_id` stops a 5.7 server (MySQL 5.7 manual, "Binary
/// Logging Options and Variables", --log-bin: without --server-id the
/// server is not allowed to start, from 5.7.3) and not an 8.0 one.
#[test]
fn log_bin_without_server_id_stops_mysql_5_7_only() {
    let text = "[mysqld]\nlog_bin = mysql-bin\n";
    for target in ["mysql-5.7", "percona-5.7", "pxc-5.7"] {
        let f = lint(target, text);
        assert!(
            f.iter().any(|f| f.severity == Severity::Crit
                && f.message.contains("server_id is not set")),
            "{target}: {f:?}"
        );
        let f = lint(target, "[mysqld]\nlog_bin = mysql-bin\nserver_id = 7\n");
        assert!(
            f.iter()
                .all(|f| !f.message.contains("server_id is not set")),
            "{target}"
        );
    }
    for target in ["mysql-8.0", "mysql-8.4", "mariadb-10.11", "mysql-5.7.2"] {
        let f = lint(target, text);
        assert!(
            f.iter()
                .all(|f| !f.message.contains("server_id is not set")),
            "{target}: {f:?}"
        );
    }
}

/// A file that mixes flavors names the product that has the option, never
/// "unknown" (issue 52, bad input): a Percona Server option, a Galera one
/// or a MariaDB one linted for community MySQL, MySQL's for MariaDB, and a
/// `[mariadb]` group linted for MySQL.
#[test]
fn another_products_option_names_that_product() {
    let f = lint(
        "mysql-8.0",
        "[mysqld]\ninnodb_kill_idle_transaction = 60\nwsrep_cluster_address = gcomm://\n\
         aria_pagecache_buffer_size = 64M\nloose-innodb_kill_idle_transaction = 60\n",
    );
    let mt002: Vec<&Finding> = f.iter().filter(|f| f.code == "MT002").collect();
    assert_eq!(mt002.len(), 4, "{}", show(&mt002));
    for (i, product) in [
        "Percona Server 8.0",
        "Percona XtraDB Cluster 8.0",
        "MariaDB 10.6",
        "Percona Server 8.0",
    ]
    .iter()
    .enumerate()
    {
        let m = &mt002[i].message;
        assert!(
            m.contains(&format!("is an option of {product}, not of MySQL 8.0.41"))
                && !m.contains("unknown"),
            "{m}"
        );
    }
    assert_eq!(mt002[0].severity, Severity::Crit);
    assert_eq!(
        mt002[3].severity,
        Severity::Info,
        "loose- keeps it to a note"
    );
    // MySQL's and Percona's plugin options linted for MariaDB.
    let f = lint(
        "mariadb-10.11",
        "[mysqld]\ninnodb_dedicated_server = ON\nrocksdb_block_cache_size = 1G\n",
    );
    let msgs: Vec<&str> = f.iter().map(|f| f.message.as_str()).collect();
    assert!(
        msgs[0].contains("innodb_dedicated_server is an option of MySQL 8.4"),
        "{msgs:?}"
    );
    assert!(
        msgs[1].contains("is an option of Percona Server 8.4, with its rocksdb plugin loaded"),
        "{msgs:?}"
    );
    // The [mariadb] group: MySQL does not read it, and the finding says who does.
    let f = lint(
        "mysql-8.0",
        "[mysqld]\nmax_connections = 100\n\n[mariadb]\ninnodb_buffer_pool_size = 1G\n",
    );
    let mt007: Vec<&Finding> = f.iter().filter(|f| f.code == "MT007").collect();
    assert_eq!(mt007.len(), 1, "{}", show(&mt007));
    assert!(
        mt007[0].message.contains("(MariaDB's server reads it)"),
        "{}",
        mt007[0].message
    );
}
