//! Facts the per-version catalog must get right (from the manuals and the
//! real server variable lists), and the behaviour of validate()/suggest().

use mytune::catalog::{Catalog, OptionPrefix, VarInfo, VarKind, VarStatus};
use mytune::target::{Target, Version};

fn cat(t: &str) -> &'static Catalog {
    let target: Target = t.parse().unwrap();
    let c = Catalog::for_target(&target).unwrap();
    assert_eq!(c.target(), target, "{t} should have its own catalog");
    c
}

fn var<'a>(c: &'a Catalog, name: &str) -> &'a VarInfo {
    c.get(name)
        .unwrap_or_else(|| panic!("{} lacks {name}", c.target()))
}

fn v(s: &str) -> Option<Version> {
    Some(s.parse().unwrap())
}

#[test]
fn mysql80_query_cache_is_removed_since_8_0_3() {
    let c = cat("mysql-8.0");
    for name in [
        "query_cache_size",
        "query_cache_limit",
        "query_cache_type",
        "query-cache-size",
        "QUERY_CACHE_SIZE",
    ] {
        assert_eq!(
            var(c, name).status,
            VarStatus::Removed {
                since: v("8.0.3"),
                replacement: None
            },
            "{name}"
        );
    }
    assert!(
        var(cat("mysql-8.4"), "query_cache_size")
            .status
            .is_removed()
    );
}

#[test]
fn mysql80_redo_log_variables_are_deprecated_for_redo_log_capacity() {
    let c = cat("mysql-8.0");
    for name in ["innodb_log_files_in_group", "innodb_log_file_size"] {
        assert_eq!(
            var(c, name).status,
            VarStatus::Deprecated {
                since: v("8.0.30"),
                replacement: Some("innodb_redo_log_capacity".into())
            },
            "{name}"
        );
    }
    let cap = var(c, "innodb_redo_log_capacity");
    assert!(cap.status.is_current() && cap.dynamic);
    assert!(matches!(cap.kind, VarKind::Size { .. }));
}

#[test]
fn expire_logs_days_deprecated_in_80_removed_in_84() {
    let dep = &var(cat("mysql-8.0"), "expire_logs_days").status;
    assert!(dep.is_deprecated(), "{dep}");
    assert_eq!(dep.replacement(), Some("binlog_expire_logs_seconds"));
    let rem = &var(cat("mysql-8.4"), "expire_logs_days").status;
    assert!(rem.is_removed(), "{rem}");
    assert_eq!(rem.replacement(), Some("binlog_expire_logs_seconds"));
}

#[test]
fn tx_isolation_renamed() {
    let s57 = var(cat("mysql-5.7"), "tx_isolation");
    // Still present in 5.7 (deprecated from 5.7.20 on, current before).
    assert!(!s57.status.is_removed());
    assert_eq!(s57.status.since(), v("5.7.20"));
    assert_eq!(s57.status.replacement(), Some("transaction_isolation"));
    assert!(s57.status_at(Version::new(5, 7, 19)).is_current());
    let s80 = &var(cat("mysql-8.0"), "tx_isolation").status;
    assert!(s80.is_removed());
    assert_eq!(s80.replacement(), Some("transaction_isolation"));
}

#[test]
fn mysql57_still_has_the_query_cache_and_log_files_in_group() {
    let c = cat("mysql-5.7");
    assert!(!var(c, "query_cache_size").status.is_removed());
    assert!(var(c, "innodb_log_files_in_group").status.is_current());
    assert!(var(c, "innodb_log_file_size").status.is_current());
}

#[test]
fn thread_handling_pool_of_threads_is_enterprise_only_in_mysql() {
    let th = var(cat("mysql-8.0"), "thread_handling");
    let err = th.validate("pool-of-threads").unwrap_err();
    assert!(err.contains("Enterprise"), "{err}");
    assert!(th.validate("one-thread-per-connection").is_ok());
    assert!(
        var(cat("mariadb-10.11"), "thread_handling")
            .validate("pool-of-threads")
            .is_ok()
    );
    let p = cat("percona-8.0");
    assert!(
        var(p, "thread_handling")
            .validate("pool-of-threads")
            .is_ok()
    );
    assert!(var(p, "thread_pool_size").status.is_current());
    assert!(var(p, "thread_pool_oversubscribe").validate("3").is_ok());
    // Percona replaced extra_port with admin_port in 8.0.14.
    assert_eq!(
        var(p, "extra_port").status.replacement(),
        Some("admin_port")
    );
    assert!(cat("mysql-8.0").get("thread_pool_size").is_none());
}

#[test]
fn mariadb_keeps_the_query_cache_and_dropped_log_files_in_group() {
    for t in ["mariadb-10.6", "mariadb-10.11", "mariadb-11.4"] {
        let c = cat(t);
        assert!(var(c, "query_cache_size").status.is_current(), "{t}");
        assert_eq!(
            var(c, "query_cache_type").default.as_deref(),
            Some("OFF"),
            "{t}"
        );
        assert_eq!(
            var(c, "innodb_log_files_in_group").status.since(),
            v("10.6.0"),
            "{t}"
        );
        assert!(
            var(c, "innodb_log_files_in_group").status.is_removed(),
            "{t}"
        );
        assert!(
            var(c, "innodb_buffer_pool_instances").status.is_removed(),
            "{t}"
        );
        assert!(
            var(c, "innodb_thread_concurrency").status.is_removed(),
            "{t}"
        );
    }
}

/// Every option name of the seed 000 §1.2.2 and §2.3 configurations that
/// MySQL 8.0 knows (removed ones are entries too).
#[test]
fn mysql80_knows_every_seed_option() {
    let c = cat("mysql-8.0");
    let names = [
        "back_log",
        "max_connections",
        "max_connect_errors",
        "open_files_limit",
        "table_open_cache",
        "max_allowed_packet",
        "binlog_cache_size",
        "max_heap_table_size",
        "tmp_table_size",
        "read_buffer_size",
        "read_rnd_buffer_size",
        "sort_buffer_size",
        "join_buffer_size",
        "thread_cache_size",
        "key_buffer_size",
        "ft_min_word_len",
        "transaction_isolation",
        "log_bin",
        "binlog_format",
        "log_error",
        "slow_query_log",
        "long_query_time",
        "slow_query_log_file",
        "performance_schema",
        "explicit_defaults_for_timestamp",
        "external_locking",
        "skip-external-locking",
        "default_storage_engine",
        "innodb_file_per_table",
        "innodb_open_files",
        "innodb_buffer_pool_size",
        "innodb_write_io_threads",
        "innodb_read_io_threads",
        "innodb_thread_concurrency",
        "innodb_purge_threads",
        "innodb_flush_log_at_trx_commit",
        "innodb_log_buffer_size",
        "innodb_max_dirty_pages_pct",
        "innodb_lock_wait_timeout",
        "bulk_insert_buffer_size",
        "myisam_sort_buffer_size",
        "myisam_max_sort_file_size",
        "myisam_repair_threads",
        "interactive_timeout",
        "wait_timeout",
        "skip_name_resolve",
        "datadir",
        "socket",
        "pid_file",
        "character_set_server",
        "collation_server",
        "symbolic_links",
        "ssl",
        "skip_log_bin",
        "innodb_undo_log_truncate",
        "table_open_cache_instances",
        "innodb_buffer_pool_instances",
        "innodb_doublewrite",
        "innodb_flush_method",
        "innodb_max_dirty_pages_pct_lwm",
        "innodb_lru_scan_depth",
        "innodb_page_cleaners",
        "innodb_use_native_aio",
        "innodb_stats_persistent",
        "innodb_adaptive_flushing",
        "innodb_flush_neighbors",
        "innodb_io_capacity",
        "innodb_io_capacity_max",
        "innodb_adaptive_hash_index",
        "max_prepared_stmt_count",
        "innodb_monitor_enable",
        "skip_grant_tables",
        "character_set_client_handshake",
    ];
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| c.get(n).is_none())
        .collect();
    assert!(missing.is_empty(), "mysql-8.0 lacks {missing:?}");
    let removed: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| c.get(n).unwrap().status.is_removed())
        .collect();
    assert_eq!(
        removed,
        ["myisam_repair_threads"],
        "only myisam_repair_threads is gone in 8.0"
    );
    assert_eq!(var(c, "myisam_repair_threads").status.since(), v("8.0.30"));
    assert!(
        var(cat("mysql-5.7"), "myisam_repair_threads")
            .status
            .is_deprecated()
    );
    assert!(
        var(c, "innodb_flush_method")
            .validate("O_DIRECT_NO_FSYNC")
            .is_ok()
    );
    assert!(var(c, "innodb_flush_method").validate("o_direct").is_ok());
    assert!(var(c, "symbolic_links").status.is_deprecated());
    assert!(!var(c, "skip_grant_tables").sysvar);
    assert!(!var(c, "external_locking").sysvar);
    assert!(var(c, "skip_external_locking").sysvar);
    assert_eq!(
        var(c, "innodb_flush_log_at_trx_commit").kind,
        VarKind::Integer {
            min: Some(0),
            max: Some(2)
        }
    );
    assert!(matches!(
        var(c, "default_storage_engine").kind,
        VarKind::String
    ));
    assert!(matches!(var(c, "sql_mode").kind, VarKind::Set { .. }));
    assert!(matches!(var(c, "binlog_format").kind, VarKind::Enum { .. }));
    assert!(matches!(var(c, "datadir").kind, VarKind::Path));
}

#[test]
fn option_only_names() {
    let c = cat("mysql-8.0");
    let df = var(c, "defaults-file");
    assert!(!df.sysvar);
    assert!(
        df.note
            .as_deref()
            .unwrap_or("")
            .contains("not usable in an option file")
    );
    assert!(!var(c, "user").sysvar);
    assert!(var(c, "max_connections").sysvar);
}

#[test]
fn validate_sizes_integers_bools_enums_sets() {
    let c = cat("mysql-8.0");
    let bp = var(c, "innodb_buffer_pool_size");
    assert!(bp.validate("64M").is_ok());
    assert!(bp.validate("64m").is_ok());
    assert!(bp.validate("8G").is_ok());
    assert!(bp.validate("1M").unwrap_err().contains("below the minimum"));
    assert!(bp.validate("1.5G").is_err());

    let mc = var(c, "max_connections");
    assert!(mc.validate("500").is_ok());
    let e = mc.validate("0").unwrap_err();
    assert!(e.contains("below the minimum 1"), "{e}");
    let e = mc.validate("abc").unwrap_err();
    assert!(e.contains("not a whole number"), "{e}");
    assert!(
        mc.validate("200000")
            .unwrap_err()
            .contains("above the maximum")
    );

    let sq = var(c, "slow_query_log");
    for ok in ["ON", "off", "1", "0", "TRUE", "false", "True", ""] {
        assert!(sq.validate(ok).is_ok(), "{ok}");
    }
    assert!(sq.validate("yes please").is_err());

    let bf = var(c, "binlog_format");
    assert!(bf.validate("row").is_ok());
    assert!(bf.validate("Mixed").is_ok());
    let e = bf.validate("rows").unwrap_err();
    assert!(e.contains("ROW") && e.contains("MIXED"), "{e}");

    let ti = var(c, "transaction_isolation");
    assert!(ti.validate("READ-COMMITTED").is_ok());
    assert!(ti.validate("read committed").is_err());

    let sm = var(c, "sql_mode");
    assert!(
        sm.validate("STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION")
            .is_ok()
    );
    assert!(sm.validate("").is_ok());
    let e = sm
        .validate("STRICT_TRANS_TABLES,NO_AUTO_CREATE_USER")
        .unwrap_err();
    assert!(e.contains("NO_AUTO_CREATE_USER"), "{e}");
    assert!(
        var(cat("mysql-5.7"), "sql_mode")
            .validate("NO_AUTO_CREATE_USER")
            .is_ok()
    );

    let lqt = var(c, "long_query_time");
    assert!(lqt.validate("0.5").is_ok());
    assert!(lqt.validate("-1").is_err());

    // MariaDB ranges and block sizes come from the server itself.
    let m = cat("mariadb-10.11");
    let mbp = var(m, "innodb_buffer_pool_size");
    assert!(mbp.validate("128M").is_ok());
    assert!(
        mbp.validate("2500K")
            .unwrap_err()
            .contains("rounds it down")
    );
    assert!(var(m, "max_connections").validate("5").is_err());
}

#[test]
fn suggest_finds_typos() {
    let c = cat("mysql-8.0");
    assert_eq!(
        c.suggest("innodb_bufer_pool_size"),
        Some("innodb_buffer_pool_size")
    );
    assert_eq!(c.suggest("max_conections"), Some("max_connections"));
    assert_eq!(c.suggest("max-conections"), Some("max_connections"));
    assert_eq!(c.suggest("completely_unrelated_thing_xyz"), None);
    // Removed names are not suggested.
    assert_ne!(c.suggest("query_cache_sizes"), Some("query_cache_size"));
}

#[test]
fn resolve_option_prefixes() {
    let c = cat("mysql-8.0");
    let (v, p) = c.resolve_option("skip-external-locking").unwrap();
    assert_eq!(
        (v.name.as_str(), p),
        ("skip_external_locking", OptionPrefix::None)
    );
    let (v, p) = c.resolve_option("skip-log-bin").unwrap();
    assert_eq!(v.name, "skip_log_bin");
    assert_eq!(p, OptionPrefix::None);
    let (v, p) = c.resolve_option("disable-performance-schema").unwrap();
    assert_eq!(
        (v.name.as_str(), p),
        ("performance_schema", OptionPrefix::Disable)
    );
    let (v, p) = c.resolve_option("enable-slow-query-log").unwrap();
    assert_eq!(
        (v.name.as_str(), p),
        ("slow_query_log", OptionPrefix::Enable)
    );
    // The server takes skip- on a number too: it sets 0 (mariadbd then
    // clamps it to the minimum, checked by the differential test).
    let (v, p) = c.resolve_option("skip-max-connections").unwrap();
    assert_eq!(
        (v.name.as_str(), p),
        ("max_connections", OptionPrefix::Skip)
    );
    assert!(c.resolve_option("no-such-option").is_none());
}

#[test]
fn every_target_is_consistent() {
    for t in Catalog::supported() {
        let c = Catalog::for_target(&t).unwrap();
        for v in c.iter() {
            assert_eq!(v.name, v.name.to_ascii_lowercase().replace('-', "_"));
            if let Some(d) = &v.default
                && v.status.is_current()
                && v.sysvar
            {
                // A default the server reports must pass its own validation,
                // except where the raw data is known to mix units.
                if let VarKind::Enum { .. } | VarKind::Bool = v.kind
                    && !d.is_empty()
                {
                    assert!(
                        v.validate(d).is_ok(),
                        "{t}: {} default {d:?} fails: {:?}",
                        v.name,
                        v.validate(d)
                    );
                }
            }
            if let Some(r) = v.status.replacement() {
                assert!(
                    c.get(r).is_some(),
                    "{t}: {} points at unknown replacement {r}",
                    v.name
                );
            }
        }
    }
}
