//! Regression tests for lint verdicts that the real server contradicted:
//! each line here was once called "the server will not start" although
//! mariadbd starts with it, or let through although mariadbd refuses it.
//! The differential test (tests/differential_mariadb.rs) checks the same
//! lines against the installed server; these keep the verdicts without one.

use std::path::Path;

use mytune::rules::{Finding, Severity};

/// Lint `text` (an option file) for `target`; the structural findings.
fn lint(target: &str, text: &str) -> Vec<Finding> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    std::fs::write(&path, text).unwrap();
    mytune::lint::lint_file(&path, &target.parse().unwrap()).unwrap()
}

fn worst(findings: &[Finding]) -> Option<Severity> {
    findings.iter().map(|f| f.severity).max()
}

fn show(findings: &[Finding]) -> String {
    findings
        .iter()
        .map(|f| format!("{} [{}] {}", f.code, f.severity, f.message))
        .collect::<Vec<_>>()
        .join("\n")
}

fn mysqld(line: &str) -> String {
    format!("[mysqld]\n{line}\n")
}

#[test]
fn removed_innodb_options_mariadb_keeps_as_no_ops_warn_not_crit() {
    for line in [
        "innodb_log_files_in_group=2",
        "innodb_buffer_pool_instances=8",
        "innodb_thread_concurrency=8",
    ] {
        let f = lint("mariadb-10.11", &mysqld(line));
        assert_eq!(worst(&f), Some(Severity::Warn), "{line}: {}", show(&f));
        assert!(f[0].message.contains("ignores it"), "{}", show(&f));
    }
}

#[test]
fn mysql_only_option_mariadb_accepts_is_warn_not_unknown() {
    let f = lint(
        "mariadb-10.11",
        &mysqld("default_authentication_plugin=mysql_native_password"),
    );
    assert_eq!(worst(&f), Some(Severity::Warn), "{}", show(&f));
    assert!(f.iter().all(|x| x.code != "MT002"), "{}", show(&f));
}

#[test]
fn unrecognized_boolean_words_are_warn_not_crit() {
    for line in [
        "performance_schema=maybe",
        "innodb_file_per_table=yes",
        "skip_name_resolve=2",
    ] {
        let f = lint("mariadb-10.11", &mysqld(line));
        assert_eq!(worst(&f), Some(Severity::Warn), "{line}: {}", show(&f));
    }
}

#[test]
fn text_after_the_size_suffix_letter_is_ignored() {
    for line in ["tmp_table_size=16MB", "sort_buffer_size=2MiB"] {
        let f = lint("mariadb-10.11", &mysqld(line));
        assert!(f.is_empty(), "{line}: {}", show(&f));
    }
}

#[test]
fn empty_number_is_zero_and_clamped_with_a_warning() {
    let f = lint("mariadb-10.11", &mysqld("table_open_cache="));
    assert_eq!(worst(&f), Some(Severity::Warn), "{}", show(&f));
}

#[test]
fn exponent_notation_reads_as_the_e_suffix_and_is_clamped() {
    let f = lint("mariadb-10.11", &mysqld("max_connections=1e3"));
    assert_eq!(worst(&f), Some(Severity::Warn), "{}", show(&f));
    assert!(f[0].message.contains("above the maximum"), "{}", show(&f));
}

#[test]
fn negative_value_of_an_unsigned_option_is_refused() {
    for line in ["max_connections=-1", "open_files_limit=-5"] {
        let f = lint("mariadb-10.11", &mysqld(line));
        assert_eq!(worst(&f), Some(Severity::Crit), "{line}: {}", show(&f));
    }
}

#[test]
fn unknown_character_set_is_refused() {
    let f = lint("mariadb-10.11", &mysqld("character-set-server=nope"));
    assert_eq!(worst(&f), Some(Severity::Crit), "{}", show(&f));
    let f = lint("mariadb-10.11", &mysqld("character-set-server=utf8mb4"));
    assert!(f.is_empty(), "{}", show(&f));
}

#[test]
fn maximum_prefix_on_a_global_only_option_is_refused() {
    let f = lint("mariadb-10.11", &mysqld("maximum-max_connections=100"));
    assert_eq!(worst(&f), Some(Severity::Crit), "{}", show(&f));
    let f = lint("mariadb-10.11", &mysqld("maximum-sort_buffer_size=1M"));
    assert!(f.is_empty(), "{}", show(&f));
}

#[test]
fn repeatable_options_are_lists_not_duplicates() {
    let f = lint(
        "mariadb-10.11",
        "[mysqld]\nlog_bin=mysql-bin\nbinlog-ignore-db=mysql\nbinlog-ignore-db=test\n",
    );
    assert!(f.iter().all(|x| x.code != "MT006"), "{}", show(&f));
    let f = lint(
        "mysql-8.0",
        "[mysqld]\nreplicate-do-db=a\nreplicate-do-db=b\n",
    );
    assert!(f.iter().all(|x| x.code != "MT006"), "{}", show(&f));
}

#[test]
fn server_options_under_myisamchk_are_reported_not_applied() {
    let f = lint(
        "mariadb-10.11",
        "[mysqld]\nmax_connections=500\n[myisamchk]\nkey_buffer_size=512M\ninnodb_buffer_pool_size=72G\nmax_connections=1000\n",
    );
    let unread: Vec<_> = f.iter().filter(|x| x.code == "MT007").collect();
    assert_eq!(unread.len(), 2, "{}", show(&f));
    assert!(
        unread[0]
            .message
            .contains("innodb_buffer_pool_size under [myisamchk] is not applied")
    );
    assert!(
        unread[1].message.contains("max_connections = 500"),
        "names the value the server runs with: {}",
        show(&f)
    );
}

#[test]
fn unique_prefix_is_a_warning_and_an_ambiguous_one_is_refused() {
    let f = lint("mariadb-10.11", &mysqld("sort=1M"));
    assert_eq!(worst(&f), Some(Severity::Warn), "{}", show(&f));
    assert!(f[0].message.contains("sort_buffer_size"), "{}", show(&f));
    let f = lint("mariadb-10.11", &mysqld("innodb_buf=64M"));
    assert_eq!(worst(&f), Some(Severity::Crit), "{}", show(&f));
    // MySQL takes no prefixes at all since 5.7 (WL#6978).
    let f = lint("mysql-8.0", &mysqld("sort=1M"));
    assert_eq!(worst(&f), Some(Severity::Crit), "{}", show(&f));
}

#[test]
fn pxc_node_file_knows_the_wsrep_options() {
    let node = "[mysqld]\nwsrep_provider=/usr/lib/galera4/libgalera_smm.so\nwsrep_cluster_name=pxc\nwsrep_cluster_address=gcomm://10.0.0.1,10.0.0.2\nwsrep_node_name=node1\npxc_strict_mode=ENFORCING\nwsrep_sst_method=xtrabackup-v2\n";
    let f = lint("pxc-8.0", node);
    assert!(
        f.iter().all(|x| x.code != "MT002"),
        "wsrep options unknown on a PXC node: {}",
        show(&f)
    );
    // Percona Server without the cluster has none of them.
    let f = lint("percona-8.0", node);
    assert!(f.iter().any(|x| x.code == "MT002"), "{}", show(&f));
}

#[test]
fn plugin_options_are_known_when_the_file_loads_the_plugin() {
    let with = "[mysqld]\nplugin-load-add=ha_rocksdb.so\nrocksdb_max_open_files=1000\n";
    let f = lint("percona-8.0", with);
    assert!(f.iter().all(|x| x.code != "MT002"), "{}", show(&f));
    let without = "[mysqld]\nrocksdb_max_open_files=1000\n";
    let f = lint("percona-8.0", without);
    let unknown: Vec<_> = f.iter().filter(|x| x.code == "MT002").collect();
    assert_eq!(unknown.len(), 1, "{}", show(&f));
    assert!(
        unknown[0].message.contains("rocksdb plugin"),
        "{}",
        show(&f)
    );
}

#[test]
fn binlog_settings_without_log_bin_are_reported_as_without_effect() {
    let f = lint("mariadb-10.11", &mysqld("binlog_format=ROW"));
    assert!(f.iter().any(|x| x.code == "MT015"), "{}", show(&f));
    let f = lint(
        "mariadb-10.11",
        "[mysqld]\nlog_bin=mysql-bin\nbinlog_format=ROW\n",
    );
    assert!(f.iter().all(|x| x.code != "MT015"), "{}", show(&f));
}

#[test]
fn unrendered_at_placeholders_are_reported() {
    let f = lint("mariadb-10.11", &mysqld("port=@MYSQL_TCP_PORT@"));
    assert!(
        f.iter()
            .any(|x| x.code == "MT001" && x.message.contains("placeholder")),
        "{}",
        show(&f)
    );
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn the_packaged_mariadb_files_have_no_false_crit() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/mycnf");
    if !dir.is_dir() {
        eprintln!("skipping: ../shared/fixtures/mycnf is absent");
        return;
    }
    for name in [
        "mariadb-11.8__MariaDB_server__support-files__rpm__server.cnf",
        "mariadb-13.0__MariaDB_server__debian__additions__mariadb.conf.d__50-server.cnf",
        "mariadb__MariaDB_server__debian__additions__mariadb.cnf",
        "mariadb__MariaDB_server__debian__additions__mariadb.conf.d__60-galera.cnf",
    ] {
        let f =
            mytune::lint::lint_file(&dir.join(name), &"mariadb-10.11".parse().unwrap()).unwrap();
        assert!(
            f.iter().all(|x| x.severity != Severity::Crit),
            "{name}: {}",
            show(&f)
        );
    }
}

#[test]
fn dotted_names_are_key_cache_variables_on_mariadb_even_with_loose() {
    let f = lint("mariadb-10.11", &mysqld("hot_cache.key_buffer_size=64M"));
    assert!(f.is_empty(), "{}", show(&f));
    let f = lint(
        "mariadb-10.11",
        &mysqld("loose-validate_password.length=12"),
    );
    assert_eq!(worst(&f), Some(Severity::Crit), "{}", show(&f));
}

#[test]
fn encrypting_temporary_files_needs_a_key_management_plugin() {
    let f = lint("mariadb-10.11", &mysqld("encrypt_tmp_files=ON"));
    assert_eq!(worst(&f), Some(Severity::Crit), "{}", show(&f));
    let f = lint(
        "mariadb-10.11",
        "[mysqld]\nplugin_load_add=file_key_management\nencrypt_tmp_files=ON\n",
    );
    assert!(
        f.iter().all(|x| x.severity != Severity::Crit),
        "{}",
        show(&f)
    );
}

#[test]
fn unknown_locales_and_ignore_builtin_innodb_are_refused() {
    for line in [
        "lc_messages = xx_YY",
        "lc_time_names = 5",
        "ignore-builtin-innodb",
    ] {
        let f = lint("mariadb-10.11", &mysqld(line));
        assert_eq!(worst(&f), Some(Severity::Crit), "{line}: {}", show(&f));
    }
    for line in ["lc_messages = DE_de", "ignore_builtin_innodb = OFF"] {
        let f = lint("mariadb-10.11", &mysqld(line));
        assert!(
            f.iter().all(|x| x.severity < Severity::Crit),
            "{line}: {}",
            show(&f)
        );
    }
}

#[test]
fn binlog_options_turned_off_need_no_log_bin_and_an_unnamed_log_warns() {
    for line in [
        "log_slave_updates = OFF",
        "skip-log-slave-updates",
        "expire_logs_days = 0",
    ] {
        let f = lint("mariadb-10.11", &mysqld(line));
        assert!(!f.iter().any(|x| x.code == "MT015"), "{line}: {}", show(&f));
    }
    assert!(
        lint("mariadb-10.11", &mysqld("log_slave_updates = ON"))
            .iter()
            .any(|x| x.code == "MT015")
    );
    for text in ["log_bin", "log_bin =", "flashback"] {
        let f = lint("mariadb-10.11", &mysqld(text));
        assert!(f.iter().any(|x| x.code == "MT021"), "{text}: {}", show(&f));
    }
    for text in [
        "log_bin = mysql-bin",
        "skip-log-bin",
        "log_bin\nlog_basename = db1",
        "flashback\nlog_bin = x",
    ] {
        let f = lint("mariadb-10.11", &mysqld(text));
        assert!(!f.iter().any(|x| x.code == "MT021"), "{text}: {}", show(&f));
    }
}
