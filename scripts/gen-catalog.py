#!/usr/bin/env python3
"""Regenerate data/catalog/<target>.tsv from the raw variable lists.

Run by hand (never at build time):

    python3 scripts/gen-catalog.py [--shared /work/shared] [--out data/catalog]

Inputs (facts only; nothing is copied verbatim into the repository):
  shared/catalog/help/*       `mysqld --verbose --help` outputs (options, argument kind, defaults)
  shared/catalog/sysvars/*    information_schema.SYSTEM_VARIABLES dumps (MariaDB: type, range, enum values,
                              read-only)
  shared/fixtures/dumps/*     mysqltuner result.json (MySQL 5.7.41 / 8.0.32 SHOW VARIABLES: which names are
                              system variables, InnoDB and performance_schema names and values)
  shared/catalog/percona/*, shared/catalog/pxc/*
                              Percona Server / PXC help outputs, test results and documentation pages
                              (percona-8.4 and pxc-8.4 have no server output: their Percona names are the
                              8.4 docs', on the mysql-8.4 catalog)
  the tables below            curated facts from the manuals (each deprecation/removal names its source)

Output format (one record per line, tab-separated, `#` header lines):
  name kind min max block values default dynamic sysvar status since replacement note plugin
  kind: bool|int|size|float|enum|set|string|path; values: comma-separated (enum/set);
  default: \\N when absent (NULL or machine-dependent); dynamic/sysvar: Y or N;
  status: current|deprecated|removed; since: X.Y.Z or empty; plugin: empty when built into the server,
  else what must be loaded for the name to exist, as a user names it in plugin-load / plugin-load-add /
  early-plugin-load: the library's file name without directory, extension and `ha_` prefix
  (ha_rocksdb.so -> rocksdb, semisync_master.so -> semisync_master); a component (INSTALL COMPONENT)
  by its component name (component_validate_password).
  A `# release: X.Y.Z` header line names the newest release of the series the data describes: a bare
  series target (mysql-8.0) means that release.
Python 3.11, standard library only.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import sys
import textwrap
from dataclasses import dataclass, field, replace
from pathlib import Path

# --------------------------------------------------------------------------------------------------
# Curated facts
# --------------------------------------------------------------------------------------------------

MYSQL_OPTVAR_80 = "https://dev.mysql.com/doc/refman/8.0/en/added-deprecated-removed.html"
MYSQL_OPTVAR_57 = "https://dev.mysql.com/doc/refman/5.7/en/added-deprecated-removed.html"
MYSQL_OPTVAR_84 = "https://dev.mysql.com/doc/refman/8.4/en/added-deprecated-removed.html"
MYSQL_VR_84 = "https://dev.mysql.com/doc/mysqld-version-reference/en/optvar-changes-8-4.html"
MYSQL_VR_83 = "https://dev.mysql.com/doc/mysqld-version-reference/en/optvar-changes-8-3.html"
MYSQL_VR_82 = "https://dev.mysql.com/doc/mysqld-version-reference/en/optvar-changes-8-2.html"
MYSQL_REDO = "https://dev.mysql.com/doc/refman/8.0/en/innodb-redo-log.html"
MARIADB_INNODB_VARS = "https://mariadb.com/kb/en/innodb-system-variables/"
MARIADB_LOG_FILES = "https://mariadb.com/docs/server/ref/mdb/system-variables/innodb_log_files_in_group"
MARIADB_SERVER_VARS = "https://mariadb.com/kb/en/server-system-variables/"
PERCONA_TP = "https://docs.percona.com/percona-server/8.0/threadpool.html"
PERCONA_VARS = "https://docs.percona.com/percona-server/8.0/percona-server-system-variables.html"


@dataclass(frozen=True)
class Change:
    flavor: str  # "mysql" (also applies to percona unless overridden) / "mariadb" / "percona"
    name: str
    status: str  # deprecated / removed
    since: str | None
    replacement: str | None
    source: str


# Defaults MariaDB changed after 10.11 that the 11.4 catalog (derived from 10.11.19's) would otherwise
# miss: (name, 11.4 default, the manual page that documents it).
MARIADB_114_DEFAULTS: list[tuple[str, str, str]] = [
    # "Default Value: 3 (>= MariaDB 11.0), 0 (<= MariaDB 10.11)"
    ("innodb_undo_tablespaces", "3", MARIADB_INNODB_VARS + "#innodb_undo_tablespaces"),
]

# Deprecations and removals from the manuals. An entry applies to every catalog series of its flavor
# whose series is >= the `since` series (MySQL entries also apply to Percona Server).
CHANGES: list[Change] = [
    # MySQL 5.7
    Change("mysql", "tx_isolation", "deprecated", "5.7.20", "transaction_isolation", MYSQL_OPTVAR_57),
    Change("mysql", "tx_read_only", "deprecated", "5.7.20", "transaction_read_only", MYSQL_OPTVAR_57),
    Change("mysql", "query_cache_size", "deprecated", "5.7.20", None, MYSQL_OPTVAR_57),
    Change("mysql", "query_cache_type", "deprecated", "5.7.20", None, MYSQL_OPTVAR_57),
    Change("mysql", "query_cache_limit", "deprecated", "5.7.20", None, MYSQL_OPTVAR_57),
    Change("mysql", "query_cache_min_res_unit", "deprecated", "5.7.20", None, MYSQL_OPTVAR_57),
    Change("mysql", "query_cache_wlock_invalidate", "deprecated", "5.7.20", None, MYSQL_OPTVAR_57),
    Change("mysql", "have_query_cache", "deprecated", "5.7.20", None, MYSQL_OPTVAR_57),
    Change("mysql", "innodb_file_format", "deprecated", "5.7.7", None, MYSQL_OPTVAR_57),
    Change("mysql", "innodb_large_prefix", "deprecated", "5.7.7", None, MYSQL_OPTVAR_57),
    Change("mysql", "innodb_support_xa", "deprecated", "5.7.10", None, MYSQL_OPTVAR_57),
    Change("mysql", "innodb_locks_unsafe_for_binlog", "deprecated", "5.7.0", "transaction_isolation", MYSQL_OPTVAR_57),
    Change("mysql", "sync_frm", "deprecated", "5.7.6", None, MYSQL_OPTVAR_57),
    Change("mysql", "myisam_repair_threads", "deprecated", "5.7.38",  None,
           "https://dev.mysql.com/doc/relnotes/mysql/5.7/en/news-5-7-38.html"),
    # MySQL 8.0 removals
    Change("mysql", "tx_isolation", "removed", "8.0.3", "transaction_isolation", MYSQL_OPTVAR_80),
    Change("mysql", "tx_read_only", "removed", "8.0.3", "transaction_read_only", MYSQL_OPTVAR_80),
    Change("mysql", "query_cache_size", "removed", "8.0.3", None, MYSQL_OPTVAR_80),
    Change("mysql", "query_cache_type", "removed", "8.0.3", None, MYSQL_OPTVAR_80),
    Change("mysql", "query_cache_limit", "removed", "8.0.3", None, MYSQL_OPTVAR_80),
    Change("mysql", "query_cache_min_res_unit", "removed", "8.0.3", None, MYSQL_OPTVAR_80),
    Change("mysql", "query_cache_wlock_invalidate", "removed", "8.0.3", None, MYSQL_OPTVAR_80),
    Change("mysql", "have_query_cache", "deprecated", "8.0.3", None, MYSQL_OPTVAR_80),
    Change("mysql", "innodb_file_format", "removed", "8.0.0", None, MYSQL_OPTVAR_80),
    Change("mysql", "innodb_file_format_check", "removed", "8.0.0", None, MYSQL_OPTVAR_80),
    Change("mysql", "innodb_file_format_max", "removed", "8.0.0", None, MYSQL_OPTVAR_80),
    Change("mysql", "innodb_large_prefix", "removed", "8.0.0", None, MYSQL_OPTVAR_80),
    Change("mysql", "innodb_support_xa", "removed", "8.0.0", None, MYSQL_OPTVAR_80),
    Change("mysql", "innodb_locks_unsafe_for_binlog", "removed", "8.0.0", "transaction_isolation", MYSQL_OPTVAR_80),
    Change("mysql", "innodb_undo_logs", "removed", "8.0.2", "innodb_rollback_segments", MYSQL_OPTVAR_80),
    Change("mysql", "sync_frm", "removed", "8.0.0", None, MYSQL_OPTVAR_80),
    Change("mysql", "log_warnings", "removed", "8.0.3", "log_error_verbosity", MYSQL_OPTVAR_80),
    Change("mysql", "myisam_repair_threads", "removed", "8.0.30", None, MYSQL_OPTVAR_80),
    Change("mysql", "secure_auth", "removed", "8.0.3", None, MYSQL_OPTVAR_80),
    Change("mysql", "old_passwords", "removed", "8.0.11", None, MYSQL_OPTVAR_80),
    Change("mysql", "ignore_builtin_innodb", "removed", "8.0.3", None, MYSQL_OPTVAR_80),
    Change("mysql", "date_format", "removed", "8.0.3", None, MYSQL_OPTVAR_80),
    Change("mysql", "datetime_format", "removed", "8.0.3", None, MYSQL_OPTVAR_80),
    Change("mysql", "time_format", "removed", "8.0.3", None, MYSQL_OPTVAR_80),
    Change("mysql", "max_tmp_tables", "removed", "8.0.3", None, MYSQL_OPTVAR_80),
    Change("mysql", "multi_range_count", "removed", "8.0.3", None, MYSQL_OPTVAR_80),
    Change("mysql", "log_builtin_as_identified_by_password", "removed", "8.0.11", None, MYSQL_OPTVAR_80),
    # MySQL 8.0 deprecations
    Change("mysql", "expire_logs_days", "deprecated", "8.0.3", "binlog_expire_logs_seconds", MYSQL_OPTVAR_80),
    Change("mysql", "innodb_log_files_in_group", "deprecated", "8.0.30", "innodb_redo_log_capacity", MYSQL_REDO),
    Change("mysql", "innodb_log_file_size", "deprecated", "8.0.30", "innodb_redo_log_capacity", MYSQL_REDO),
    Change("mysql", "symbolic_links", "deprecated", "8.0.2", None, MYSQL_OPTVAR_80),
    Change("mysql", "skip_symbolic_links", "deprecated", "8.0.2", None, MYSQL_OPTVAR_80),
    Change("mysql", "have_symlink", "deprecated", "8.0.2", None, MYSQL_OPTVAR_80),
    Change("mysql", "log_slave_updates", "deprecated", "8.0.26", "log_replica_updates", MYSQL_OPTVAR_80),
    Change("mysql", "slave_parallel_workers", "deprecated", "8.0.26", "replica_parallel_workers", MYSQL_OPTVAR_80),
    Change("mysql", "slave_parallel_type", "deprecated", "8.0.26", "replica_parallel_type", MYSQL_OPTVAR_80),
    Change("mysql", "slave_preserve_commit_order", "deprecated", "8.0.26", "replica_preserve_commit_order", MYSQL_OPTVAR_80),
    Change("mysql", "master_info_repository", "deprecated", "8.0.23", None, MYSQL_OPTVAR_80),
    Change("mysql", "relay_log_info_repository", "deprecated", "8.0.23", None, MYSQL_OPTVAR_80),
    Change("mysql", "default_authentication_plugin", "deprecated", "8.0.27", "authentication_policy", MYSQL_OPTVAR_80),
    Change("mysql", "binlog_format", "deprecated", "8.0.34", None, MYSQL_OPTVAR_80),
    Change("mysql", "ssl", "deprecated", "8.0.26", "tls_version", MYSQL_OPTVAR_80),
    Change("mysql", "admin_ssl", "deprecated", "8.0.26", "admin_tls_version", MYSQL_OPTVAR_80),
    Change("mysql", "character_set_client_handshake", "deprecated", "8.2.0", None, MYSQL_VR_82),
    Change("mysql", "binlog_transaction_dependency_tracking", "deprecated", "8.2.0", None, MYSQL_VR_82),
    Change("mysql", "old", "deprecated", "8.2.0", None, MYSQL_VR_82),
    Change("mysql", "new", "deprecated", "8.2.0", None, MYSQL_VR_82),
    # MySQL 8.1–8.4 removals
    Change("mysql", "expire_logs_days", "removed", "8.2.0", "binlog_expire_logs_seconds", MYSQL_VR_82),
    Change("mysql", "character_set_client_handshake", "removed", "8.3.0", None, MYSQL_VR_83),
    Change("mysql", "innodb_api_bk_commit_interval", "removed", "8.3.0", None, MYSQL_VR_83),
    Change("mysql", "innodb_api_disable_rowlock", "removed", "8.3.0", None, MYSQL_VR_83),
    Change("mysql", "innodb_api_enable_binlog", "removed", "8.3.0", None, MYSQL_VR_83),
    Change("mysql", "innodb_api_enable_mdl", "removed", "8.3.0", None, MYSQL_VR_83),
    Change("mysql", "innodb_api_trx_level", "removed", "8.3.0", None, MYSQL_VR_83),
    Change("mysql", "admin_ssl", "removed", "8.4.0", "admin_tls_version", MYSQL_VR_84),
    Change("mysql", "ssl", "removed", "8.4.0", "tls_version", MYSQL_VR_84),
    Change("mysql", "avoid_temporal_upgrade", "removed", "8.4.0", None, MYSQL_VR_84),
    Change("mysql", "binlog_transaction_dependency_tracking", "removed", "8.4.0", None, MYSQL_VR_84),
    Change("mysql", "default_authentication_plugin", "removed", "8.4.0", "authentication_policy", MYSQL_VR_84),
    Change("mysql", "have_openssl", "removed", "8.4.0", None, MYSQL_VR_84),
    Change("mysql", "have_ssl", "removed", "8.4.0", None, MYSQL_VR_84),
    Change("mysql", "master_info_repository", "removed", "8.4.0", None, MYSQL_VR_84),
    Change("mysql", "relay_log_info_repository", "removed", "8.4.0", None, MYSQL_VR_84),
    Change("mysql", "log_bin_use_v1_row_events", "removed", "8.4.0", None, MYSQL_VR_84),
    Change("mysql", "slave_rows_search_algorithms", "removed", "8.4.0", None, MYSQL_VR_84),
    Change("mysql", "transaction_write_set_extraction", "removed", "8.4.0", None, MYSQL_VR_84),
    Change("mysql", "skip_host_cache", "removed", "8.4.0", "host_cache_size", MYSQL_VR_84),
    # MariaDB
    Change("mariadb", "innodb_log_files_in_group", "deprecated", "10.5.2", None, MARIADB_LOG_FILES),
    Change("mariadb", "innodb_log_files_in_group", "removed", "10.6.0", None, MARIADB_LOG_FILES),
    Change("mariadb", "innodb_thread_concurrency", "deprecated", "10.5.5", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_thread_concurrency", "removed", "10.6.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_commit_concurrency", "deprecated", "10.5.5", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_commit_concurrency", "removed", "10.6.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_concurrency_tickets", "deprecated", "10.5.5", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_concurrency_tickets", "removed", "10.6.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_thread_sleep_delay", "deprecated", "10.5.5", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_thread_sleep_delay", "removed", "10.6.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_adaptive_max_sleep_delay", "deprecated", "10.5.5", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_adaptive_max_sleep_delay", "removed", "10.6.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_buffer_pool_instances", "deprecated", "10.5.1", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_buffer_pool_instances", "removed", "10.6.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_page_cleaners", "deprecated", "10.5.1", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_page_cleaners", "removed", "10.6.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_undo_logs", "deprecated", "10.5.0", "innodb_undo_tablespaces", MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_undo_logs", "removed", "10.6.0", "innodb_undo_tablespaces", MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_log_optimize_ddl", "removed", "10.6.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_checksums", "removed", "10.6.0", "innodb_checksum_algorithm", MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_locks_unsafe_for_binlog", "removed", "10.6.0", "transaction_isolation", MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_rollback_segments", "removed", "10.6.0", "innodb_undo_tablespaces", MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_scrub_log", "removed", "10.6.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_scrub_log_speed", "removed", "10.6.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_replication_delay", "removed", "10.6.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_change_buffering", "deprecated", "10.9.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_change_buffering", "removed", "11.0.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_change_buffer_max_size", "removed", "11.0.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_defragment", "removed", "11.1.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_defragment_n_pages", "removed", "11.1.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_defragment_stats_accuracy", "removed", "11.1.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_defragment_fill_factor", "removed", "11.1.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_defragment_fill_factor_n_recs", "removed", "11.1.0", None, MARIADB_INNODB_VARS),
    Change("mariadb", "innodb_defragment_frequency", "removed", "11.1.0", None, MARIADB_INNODB_VARS),
    # Percona Server 8.0
    Change("percona", "extra_port", "removed", "8.0.14", "admin_port", PERCONA_TP),
    Change("percona", "extra_max_connections", "removed", "8.0.14", None, PERCONA_TP),
]

# Options that are not system variables: `SHOW VARIABLES` never lists them. (Name, where usable.)
OPTION_ONLY_COMMON = [
    "defaults_file", "defaults_extra_file", "defaults_group_suffix", "no_defaults", "print_defaults",
    "login_path", "no_login_paths", "help", "verbose", "version", "console", "user", "skip_grant_tables",
    "initialize", "initialize_insecure", "validate_config", "bootstrap", "install", "install_manual",
    "remove", "standalone", "daemonize", "log_bin", "skip_log_bin", "disable_log_bin", "skip_new",
    "external_locking", "skip_external_locking", "symbolic_links", "skip_symbolic_links", "skip_stack_trace",
    "core_file", "memlock", "gdb", "chroot", "plugin_load", "plugin_load_add", "early_plugin_load",
    "temp_pool", "ssl", "skip_ssl", "admin_ssl", "character_set_client_handshake", "transaction_isolation_opt",
    "transaction_read_only_opt", "binlog_do_db", "binlog_ignore_db", "replicate_do_db", "replicate_ignore_db",
    "replicate_do_table", "replicate_ignore_table", "replicate_wild_do_table", "replicate_wild_ignore_table",
    "replicate_rewrite_db", "replicate_same_server_id", "log_short_format", "safe_user_create",
    "skip_partition", "des_key_file", "performance_schema_instrument", "performance_schema_consumer_events_stages_current",
    "ansi", "allow_suspicious_udfs", "abort_slave_event_count", "disconnect_slave_event_count",
    "log_isam", "log_tc", "log_tc_size", "upgrade", "upgrade_system_tables", "exit_info", "debug_info",
    "flashback", "wsrep_new_cluster", "language", "tc_heuristic_recover", "user_variables", "sporadic_binlog_dump_fail",
    "no_monitor", "myisam_block_size", "partition", "test_expect_abort", "test_ignore_wrong_options",
    "open_files_limit_opt",
]

# Files and directories: the value is a file-system name, not free text.
PATH_NAMES = {
    "basedir", "datadir", "tmpdir", "socket", "pid_file", "log_error", "general_log_file", "slow_query_log_file",
    "log_bin", "log_bin_index", "log_bin_basename", "relay_log", "relay_log_index", "relay_log_basename",
    "relay_log_info_file", "master_info_file", "secure_file_priv", "plugin_dir", "character_sets_dir",
    "lc_messages_dir", "innodb_data_home_dir", "innodb_log_group_home_dir", "innodb_undo_directory",
    "innodb_tmpdir", "innodb_temp_tablespaces_dir", "innodb_doublewrite_dir", "innodb_directories",
    "innodb_buffer_pool_filename", "slave_load_tmpdir", "replica_load_tmpdir", "ssl_ca", "ssl_capath",
    "ssl_cert", "ssl_key", "ssl_crl", "ssl_crlpath", "admin_ssl_ca", "admin_ssl_capath", "admin_ssl_cert",
    "admin_ssl_key", "admin_ssl_crl", "admin_ssl_crlpath", "init_file", "defaults_file", "defaults_extra_file",
    "chroot", "language", "keyring_file_data", "des_key_file", "log_tc", "tmp_dir", "aria_log_dir_path",
    "caching_sha2_password_private_key_path", "caching_sha2_password_public_key_path",
    "sha256_password_private_key_path", "sha256_password_public_key_path", "innodb_redo_log_archive_dirs",
    "wsrep_data_home_dir", "general_log_file", "log_slow_query_file", "server_audit_file_path",
}

# Integer options that are byte counts (the server reads K/M/G suffixes for every numeric option; these
# are the ones where the number *is* a size, so mytune prints and compares them as sizes).
SIZE_EXTRA = {
    "max_allowed_packet", "slave_max_allowed_packet", "replica_max_allowed_packet", "innodb_redo_log_capacity",
    "myisam_max_sort_file_size", "query_cache_limit", "query_cache_min_res_unit", "net_buffer_length",
    "thread_stack", "group_concat_max_len", "relay_log_space_limit", "max_session_mem_used",
    "slave_parallel_max_queued", "innodb_ft_result_cache_limit", "max_length_for_sort_data",
    "replica_pending_jobs_size_max", "slave_pending_jobs_size_max", "temptable_max_ram", "temptable_max_mmap",
    "innodb_log_file_size", "max_binlog_size", "binlog_space_limit", "max_relay_log_size", "innodb_buffer_pool_chunk_size",
    "key_cache_block_size", "query_alloc_block_size", "range_alloc_block_size", "transaction_alloc_block_size",
    "aria_block_size", "innodb_page_size", "myisam_mmap_size", "innodb_online_alter_log_max_size",
    "binlog_row_event_max_size", "innodb_log_write_ahead_size", "parser_max_mem_size",
    "range_optimizer_max_mem_size", "optimizer_trace_max_mem_size", "large_page_size", "log_tc_size",
    "max_binlog_cache_size", "max_binlog_stmt_cache_size", "innodb_max_undo_log_size",
}
SIZE_NOT = {
    "thread_cache_size", "host_cache_size", "innodb_purge_batch_size", "innodb_sync_array_size",
    "metadata_locks_cache_size", "histogram_size", "innodb_change_buffer_max_size", "max_join_size",
    "ssl_session_cache_size", "thread_pool_size", "gtid_cleanup_batch_size", "innodb_doublewrite_batch_size",
    "innodb_ft_max_token_size", "innodb_ft_min_token_size", "delayed_queue_size", "innodb_lru_flush_size",
    "aria_pagecache_file_hash_size", "myisam_data_pointer_size", "binlog_transaction_dependency_history_size",
    "innodb_log_spin_cpu_abs_lwm", "wsrep_max_ws_size", "max_digest_length", "innodb_doublewrite_pages",
    "tablespace_definition_cache", "schema_definition_cache", "stored_program_definition_cache",
    "innodb_stats_persistent_sample_pages", "thread_pool_max_threads", "table_open_cache",
    "rpl_semi_sync_master_timeout", "innodb_buffer_pool_dump_pct", "max_sort_length",
}


def is_size_name(name: str) -> bool:
    if name in SIZE_NOT or "history" in name or name.startswith("performance_schema"):
        return False
    if name in SIZE_EXTRA:
        return True
    return bool(re.search(r"(_size|_buffer|_buff_size)$", name))


# MySQL enums and sets (the help file only says `=name`); values from the manuals.
MYSQL_ENUMS: dict[str, tuple[str, list[str]]] = {
    "innodb_flush_method": ("enum", ["fsync", "O_DSYNC", "littlesync", "nosync", "O_DIRECT", "O_DIRECT_NO_FSYNC"]),
    "binlog_format": ("enum", ["ROW", "STATEMENT", "MIXED"]),
    "transaction_isolation": ("enum", ["READ-UNCOMMITTED", "READ-COMMITTED", "REPEATABLE-READ", "SERIALIZABLE"]),
    "tx_isolation": ("enum", ["READ-UNCOMMITTED", "READ-COMMITTED", "REPEATABLE-READ", "SERIALIZABLE"]),
    "thread_handling": ("enum", ["no-threads", "one-thread-per-connection", "loaded-dynamically"]),
    "binlog_row_image": ("enum", ["FULL", "MINIMAL", "NOBLOB"]),
    "binlog_checksum": ("enum", ["NONE", "CRC32"]),
    "binlog_error_action": ("enum", ["IGNORE_ERROR", "ABORT_SERVER"]),
    "binlog_row_metadata": ("enum", ["MINIMAL", "FULL"]),
    "binlog_transaction_dependency_tracking": ("enum", ["COMMIT_ORDER", "WRITESET", "WRITESET_SESSION"]),
    "innodb_default_row_format": ("enum", ["REDUNDANT", "COMPACT", "DYNAMIC"]),
    "innodb_change_buffering": ("enum", ["none", "inserts", "deletes", "changes", "purges", "all"]),
    "innodb_checksum_algorithm": ("enum", ["crc32", "strict_crc32", "innodb", "strict_innodb", "none", "strict_none"]),
    "innodb_stats_method": ("enum", ["nulls_equal", "nulls_unequal", "nulls_ignored"]),
    "innodb_file_format": ("enum", ["Antelope", "Barracuda"]),
    "innodb_file_format_max": ("enum", ["Antelope", "Barracuda"]),
    "gtid_mode": ("enum", ["OFF", "OFF_PERMISSIVE", "ON_PERMISSIVE", "ON"]),
    "enforce_gtid_consistency": ("enum", ["OFF", "ON", "WARN"]),
    "log_timestamps": ("enum", ["UTC", "SYSTEM"]),
    "log_output": ("set", ["TABLE", "FILE", "NONE"]),
    "slave_exec_mode": ("enum", ["STRICT", "IDEMPOTENT"]),
    "replica_exec_mode": ("enum", ["STRICT", "IDEMPOTENT"]),
    "slave_parallel_type": ("enum", ["DATABASE", "LOGICAL_CLOCK"]),
    "replica_parallel_type": ("enum", ["DATABASE", "LOGICAL_CLOCK"]),
    "master_info_repository": ("enum", ["FILE", "TABLE"]),
    "relay_log_info_repository": ("enum", ["FILE", "TABLE"]),
    "completion_type": ("enum", ["NO_CHAIN", "CHAIN", "RELEASE", "0", "1", "2"]),
    "concurrent_insert": ("enum", ["NEVER", "AUTO", "ALWAYS", "0", "1", "2"]),
    "delay_key_write": ("enum", ["OFF", "ON", "ALL"]),
    "myisam_recover_options": ("set", ["OFF", "DEFAULT", "BACKUP", "FORCE", "QUICK"]),
    "myisam_stats_method": ("enum", ["nulls_unequal", "nulls_equal", "nulls_ignored"]),
    "internal_tmp_disk_storage_engine": ("enum", ["MYISAM", "INNODB"]),
    "internal_tmp_mem_storage_engine": ("enum", ["MEMORY", "TempTable"]),
    "event_scheduler": ("enum", ["ON", "OFF", "DISABLED"]),
    "session_track_transaction_info": ("enum", ["OFF", "STATE", "CHARACTERISTICS"]),
    "tls_version": ("set", ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"]),
    "admin_tls_version": ("set", ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"]),
    "ssl_fips_mode": ("enum", ["OFF", "ON", "STRICT"]),
    "explicit_defaults_for_timestamp": ("bool", []),
    "sql_mode": ("set", [
        "ALLOW_INVALID_DATES", "ANSI_QUOTES", "ERROR_FOR_DIVISION_BY_ZERO", "HIGH_NOT_PRECEDENCE", "IGNORE_SPACE",
        "NO_AUTO_VALUE_ON_ZERO", "NO_BACKSLASH_ESCAPES", "NO_DIR_IN_CREATE", "NO_ENGINE_SUBSTITUTION",
        "NO_UNSIGNED_SUBTRACTION", "NO_ZERO_DATE", "NO_ZERO_IN_DATE", "ONLY_FULL_GROUP_BY", "PAD_CHAR_TO_FULL_LENGTH",
        "PIPES_AS_CONCAT", "REAL_AS_FLOAT", "STRICT_ALL_TABLES", "STRICT_TRANS_TABLES", "TIME_TRUNCATE_FRACTIONAL",
        "ANSI", "TRADITIONAL",
    ]),
}
MYSQL57_SQL_MODE_EXTRA = ["NO_AUTO_CREATE_USER", "NO_FIELD_OPTIONS", "NO_KEY_OPTIONS", "NO_TABLE_OPTIONS",
                          "DB2", "MAXDB", "MSSQL", "MYSQL323", "MYSQL40", "ORACLE", "POSTGRESQL"]
MYSQL_FLOATS = {"long_query_time", "innodb_max_dirty_pages_pct", "innodb_max_dirty_pages_pct_lwm",
                "innodb_idle_flush_pct_unused", "secondary_engine_cost_threshold"}
MYSQL_STRINGS = {"default_storage_engine", "default_tmp_storage_engine", "character_set_server",
                 "collation_server", "init_connect", "optimizer_switch", "bind_address", "innodb_data_file_path",
                 "innodb_temp_data_file_path", "innodb_monitor_enable", "innodb_monitor_disable",
                 "innodb_monitor_reset", "innodb_monitor_reset_all", "time_zone", "default_time_zone"}

# Ranges from the MySQL manual for variables mytune reasons about (the help files carry no ranges).
U64 = 2**64 - 1
U32 = 2**32 - 1
MYSQL_RANGES: dict[str, tuple[int | float | None, int | float | None, int | None]] = {
    "max_connections": (1, 100000, None),
    "back_log": (1, 65535, None),
    "max_connect_errors": (1, U64, None),
    "open_files_limit": (0, None, None),
    "table_open_cache": (1, 524288, None),
    "table_definition_cache": (400, 524288, None),
    "table_open_cache_instances": (1, 64, None),
    "max_allowed_packet": (1024, 1073741824, 1024),
    "binlog_cache_size": (4096, U64, 4096),
    "binlog_stmt_cache_size": (4096, U64, 4096),
    "max_heap_table_size": (16384, U64, 1024),
    "tmp_table_size": (1024, U64, None),
    "read_buffer_size": (8192, 2147479552, 4096),
    "read_rnd_buffer_size": (1, 2147483647, None),
    "sort_buffer_size": (32768, U64, None),
    "join_buffer_size": (128, U64, 128),
    "thread_cache_size": (0, 16384, None),
    "key_buffer_size": (0, U64, None),
    "bulk_insert_buffer_size": (0, U64, None),
    "myisam_sort_buffer_size": (4096, U64, None),
    "thread_stack": (131072, U64, 1024),
    "max_prepared_stmt_count": (0, 4194304, None),
    "wait_timeout": (1, 31536000, None),
    "interactive_timeout": (1, 31536000, None),
    "long_query_time": (0, 31536000, None),
    "ft_min_word_len": (1, 82, None),
    "ft_max_word_len": (10, 84, None),
    "expire_logs_days": (0, 99, None),
    "binlog_expire_logs_seconds": (0, U32, None),
    "max_binlog_size": (4096, 1073741824, 4096),
    "sync_binlog": (0, U32, None),
    "innodb_buffer_pool_size": (5242880, U64, None),
    "innodb_buffer_pool_instances": (1, 64, None),
    "innodb_buffer_pool_chunk_size": (1048576, None, 1048576),
    "innodb_log_buffer_size": (1048576, U32, None),
    "innodb_log_file_size": (4194304, None, None),
    "innodb_log_files_in_group": (2, 100, None),
    "innodb_redo_log_capacity": (8388608, 137438953472, None),
    "innodb_flush_log_at_trx_commit": (0, 2, None),
    "innodb_io_capacity": (100, U32, None),
    "innodb_io_capacity_max": (100, U32, None),
    "innodb_read_io_threads": (1, 64, None),
    "innodb_write_io_threads": (1, 64, None),
    "innodb_thread_concurrency": (0, 1000, None),
    "innodb_purge_threads": (1, 32, None),
    "innodb_page_cleaners": (1, 64, None),
    "innodb_lru_scan_depth": (100, U64, None),
    "innodb_max_dirty_pages_pct": (0, 99.999, None),
    "innodb_max_dirty_pages_pct_lwm": (0, 99.999, None),
    "innodb_lock_wait_timeout": (1, 1073741824, None),
    "innodb_open_files": (10, 2147483647, None),
    "innodb_flush_neighbors": (0, 2, None),
    "innodb_autoinc_lock_mode": (0, 2, None),
    "innodb_fast_shutdown": (0, 2, None),
    "innodb_force_recovery": (0, 6, None),
    "innodb_sort_buffer_size": (65536, 67108864, None),
    "innodb_online_alter_log_max_size": (65536, U64, None),
    "innodb_adaptive_hash_index_parts": (1, 512, None),
    "innodb_purge_batch_size": (1, 5000, None),
    "innodb_undo_tablespaces": (0, 127, None),
    "innodb_ft_min_token_size": (0, 16, None),
    "innodb_ft_max_token_size": (10, 84, None),
    "innodb_change_buffer_max_size": (0, 50, None),
    "innodb_old_blocks_pct": (5, 95, None),
    "innodb_old_blocks_time": (0, U32, None),
    "innodb_stats_persistent_sample_pages": (1, U64, None),
    "innodb_max_undo_log_size": (10485760, U64, None),
    "query_cache_size": (0, U64, 1024),
    "query_cache_limit": (0, U64, None),
    "query_cache_min_res_unit": (512, U64, None),
    "max_user_connections": (0, U32, None),
    "net_buffer_length": (1024, 1048576, 1024),
    "net_read_timeout": (1, 31536000, None),
    "net_write_timeout": (1, 31536000, None),
    "connect_timeout": (2, 31536000, None),
    "group_concat_max_len": (4, U64, None),
    "max_sort_length": (4, 8388608, None),
    "lower_case_table_names": (0, 2, None),
    "server_id": (0, U32, None),
    "slave_parallel_workers": (0, 1024, None),
    "replica_parallel_workers": (0, 1024, None),
    "myisam_max_sort_file_size": (0, None, None),
    "myisam_repair_threads": (1, U64, None),
    "temptable_max_ram": (2097152, U64, None),
    "log_error_verbosity": (1, 3, None),
    "innodb_doublewrite_pages": (0, 512, None),
}

# Dynamic (SET GLOBAL) for MySQL variables MariaDB does not share; everything else not listed here
# takes MariaDB 10.11's READ_ONLY for the same name, and names unknown to both are read-only (N).
MYSQL_DYNAMIC = {
    "innodb_redo_log_capacity", "binlog_expire_logs_seconds", "binlog_transaction_dependency_tracking",
    "binlog_transaction_compression", "binlog_transaction_compression_level_zstd", "transaction_isolation",
    "transaction_read_only", "innodb_dedicated_server_unused", "innodb_deadlock_detect", "innodb_flush_sync",
    "innodb_log_checksums", "innodb_fsync_threshold", "innodb_idle_flush_pct", "innodb_log_spin_cpu_abs_lwm",
    "innodb_log_spin_cpu_pct_hwm", "innodb_log_wait_for_flush_spin_hwm", "innodb_parallel_read_threads",
    "innodb_ddl_buffer_size", "innodb_ddl_threads", "innodb_segment_reserve_factor", "innodb_extend_and_initialize",
    "innodb_print_ddl_logs", "innodb_redo_log_encrypt", "innodb_undo_log_encrypt", "innodb_stats_include_delete_marked",
    "innodb_spin_wait_pause_multiplier", "innodb_buffer_pool_in_core_file", "innodb_fill_factor",
    "innodb_doublewrite", "innodb_log_writer_threads", "innodb_max_purge_lag_delay", "innodb_thread_concurrency",
    "innodb_concurrency_tickets", "innodb_thread_sleep_delay", "innodb_adaptive_max_sleep_delay",
    "innodb_commit_concurrency", "innodb_replication_delay", "log_error_verbosity", "log_error_suppression_list",
    "log_error_services", "admin_tls_version", "admin_ssl_cipher", "replica_parallel_workers",
    "replica_parallel_type", "replica_preserve_commit_order", "log_replica_updates_unused", "temptable_max_ram",
    "temptable_max_mmap", "temptable_use_mmap", "internal_tmp_mem_storage_engine", "authentication_policy",
    "require_secure_transport", "tls_version", "ssl_fips_mode", "generated_random_password_length",
    "password_history", "password_reuse_interval", "password_require_current", "partial_revokes",
    "activate_all_roles_on_login", "mandatory_roles", "sql_require_primary_key", "windowing_use_high_precision",
    "cte_max_recursion_depth", "regexp_stack_limit", "regexp_time_limit", "information_schema_stats_expiry",
    "show_create_table_verbosity", "select_into_buffer_size", "select_into_disk_sync",
    "select_into_disk_sync_delay", "schema_definition_cache", "tablespace_definition_cache",
    "stored_program_definition_cache", "histogram_generation_max_mem_size", "binlog_row_value_options",
    "binlog_row_metadata", "binlog_encryption", "binlog_rotate_encryption_master_key_at_startup_unused",
    "default_collation_for_utf8mb4", "default_table_encryption", "table_encryption_privilege_check",
    "print_identified_with_as_hex", "sql_generate_invisible_primary_key", "show_gipk_in_create_table_and_information_schema",
    "explain_format", "terminology_use_previous", "xa_detach_on_prepare", "replication_optimize_for_static_plugin_config",
    "replication_sender_observe_commit_only", "group_replication_consistency", "innodb_monitor_enable",
    "innodb_monitor_disable", "innodb_monitor_reset", "innodb_monitor_reset_all", "innodb_undo_log_truncate",
    "innodb_purge_rseg_truncate_frequency", "innodb_max_undo_log_size", "expire_logs_days", "log_slow_extra",
    "log_slow_admin_statements", "log_slow_replica_statements", "log_slow_slave_statements",
    "log_throttle_queries_not_using_indexes", "log_statements_unsafe_for_binlog", "log_timestamps",
    "binlog_error_action", "binlog_max_flush_queue_time", "binlog_order_commits", "binlog_group_commit_sync_delay",
    "binlog_group_commit_sync_no_delay_count", "slave_rows_search_algorithms", "slave_pending_jobs_size_max",
    "replica_pending_jobs_size_max", "slave_checkpoint_group", "slave_checkpoint_period",
    "replica_checkpoint_group", "replica_checkpoint_period", "rpl_stop_slave_timeout", "rpl_stop_replica_timeout",
    "master_verify_checksum", "source_verify_checksum", "slave_sql_verify_checksum", "replica_sql_verify_checksum",
    "gtid_mode", "enforce_gtid_consistency", "gtid_executed_compression_period", "binlog_gtid_simple_recovery_unused",
    "end_markers_in_json", "eq_range_index_dive_limit", "optimizer_trace", "optimizer_trace_features",
    "optimizer_trace_limit", "optimizer_trace_offset", "optimizer_trace_max_mem_size", "range_optimizer_max_mem_size",
    "internal_tmp_disk_storage_engine", "show_compatibility_56", "log_builtin_as_identified_by_password",
    "default_password_lifetime", "disconnect_on_expired_password_unused", "check_proxy_users",
    "mysql_native_password_proxy_users", "sha256_password_proxy_users", "offline_mode", "super_read_only",
    "session_track_gtids", "session_track_transaction_info", "keyring_operations", "block_encryption_mode",
    "innodb_log_write_ahead_size", "innodb_flush_log_at_timeout", "innodb_status_output", "innodb_status_output_locks",
    "innodb_undo_logs", "innodb_rollback_segments", "innodb_temp_tablespaces_dir_unused", "innodb_default_row_format",
    "innodb_compression_level", "innodb_compression_failure_threshold_pct", "innodb_compression_pad_pct_max",
    "innodb_cmp_per_index_enabled", "innodb_buffer_pool_dump_pct", "innodb_file_format", "innodb_file_format_max",
    "innodb_large_prefix", "innodb_support_xa", "innodb_checksums_unused", "innodb_log_compressed_pages",
    "innodb_stats_auto_recalc", "innodb_stats_persistent", "innodb_stats_persistent_sample_pages",
    "innodb_stats_transient_sample_pages", "innodb_stats_sample_pages", "innodb_api_bk_commit_interval",
    "innodb_api_trx_level", "innodb_ft_enable_diag_print", "innodb_ft_aux_table", "innodb_ft_num_word_optimize",
    "innodb_ft_result_cache_limit", "innodb_ft_server_stopword_table", "innodb_ft_user_stopword_table",
    "innodb_ft_enable_stopword", "innodb_random_read_ahead", "innodb_read_ahead_threshold",
    "innodb_adaptive_flushing_lwm", "innodb_flushing_avg_loops", "innodb_max_dirty_pages_pct_lwm",
    "innodb_disable_sort_file_cache", "innodb_optimize_fulltext_only", "innodb_sync_spin_loops",
    "innodb_spin_wait_delay", "innodb_autoextend_increment", "innodb_change_buffering",
    "innodb_change_buffer_max_size", "innodb_old_blocks_pct", "innodb_old_blocks_time", "innodb_print_all_deadlocks",
    "innodb_table_locks", "innodb_strict_mode", "innodb_purge_batch_size", "innodb_max_purge_lag",
    "innodb_lru_scan_depth", "innodb_flush_neighbors", "innodb_io_capacity", "innodb_io_capacity_max",
    "innodb_adaptive_hash_index", "innodb_adaptive_flushing", "innodb_buffer_pool_size",
    "innodb_buffer_pool_dump_now", "innodb_buffer_pool_load_now", "innodb_buffer_pool_load_abort",
    "innodb_buffer_pool_dump_at_shutdown", "innodb_buffer_pool_filename", "innodb_fast_shutdown",
    "innodb_max_dirty_pages_pct", "innodb_lock_wait_timeout", "innodb_flush_log_at_trx_commit",
    "innodb_file_per_table", "innodb_stats_on_metadata", "innodb_stats_method", "innodb_checksum_algorithm",
    "innodb_log_buffer_size", "innodb_online_alter_log_max_size", "innodb_tmpdir", "innodb_undo_tablespaces_unused",
    "innodb_use_native_aio_unused", "innodb_background_drop_list_empty", "innodb_idle_flush_pct",
}
MYSQL_DYNAMIC |= {
    "admin_ssl_ca", "admin_ssl_capath", "admin_ssl_cert", "admin_ssl_crl", "admin_ssl_crlpath", "admin_ssl_key",
    "admin_tls_ciphersuites", "avoid_temporal_upgrade", "binlog_expire_logs_auto_purge",
    "binlog_rows_query_log_events", "binlog_transaction_dependency_history_size", "connection_memory_chunk_size",
    "connection_memory_limit", "global_connection_memory_limit", "global_connection_memory_tracking", "gtid_purged",
    "init_replica", "innodb_use_fdatasync", "log_raw", "master_info_repository", "max_execution_time",
    "max_points_in_geometry", "mysqlx_compression_algorithms", "mysqlx_connect_timeout",
    "mysqlx_deflate_default_compression_level", "mysqlx_deflate_max_client_compression_level",
    "mysqlx_document_id_unique_prefix", "mysqlx_enable_hello_notice", "mysqlx_idle_worker_thread_timeout",
    "mysqlx_interactive_timeout", "mysqlx_max_allowed_packet", "mysqlx_max_connections", "mysqlx_min_worker_threads",
    "mysqlx_read_timeout", "mysqlx_wait_timeout", "mysqlx_write_timeout", "mysqlx_zstd_default_compression_level",
    "mysqlx_zstd_max_client_compression_level", "new", "optimizer_max_subgraph_pairs", "parser_max_mem_size",
    "performance_schema_max_digest_sample_age", "performance_schema_show_processlist",
    "protocol_compression_algorithms", "relay_log_info_repository", "replica_allow_batching",
    "replica_compressed_protocol", "replica_exec_mode", "replica_max_allowed_packet", "replica_net_timeout",
    "replica_transaction_retries", "replica_type_conversions", "rpl_read_size", "secondary_engine_cost_threshold",
    "show_old_temporals", "slave_allow_batching", "slave_parallel_type", "slave_preserve_commit_order",
    "sql_replica_skip_counter", "ssl_session_cache_mode", "ssl_session_cache_timeout", "sync_source_info",
    "tls_ciphersuites", "transaction_write_set_extraction", "use_secondary_engine",
}
MYSQL_READ_ONLY = {
    "innodb_log_file_size", "innodb_log_files_in_group", "innodb_page_cleaners", "innodb_buffer_pool_instances",
    "innodb_read_io_threads", "innodb_write_io_threads", "innodb_purge_threads", "innodb_use_native_aio",
    "innodb_open_files", "innodb_page_size", "innodb_data_file_path", "innodb_flush_method", "innodb_doublewrite_dir",
    "innodb_doublewrite_files", "innodb_dedicated_server", "innodb_undo_directory", "innodb_log_group_home_dir",
    "innodb_data_home_dir", "innodb_temp_data_file_path", "innodb_temp_tablespaces_dir", "innodb_directories",
    "innodb_buffer_pool_chunk_size", "innodb_buffer_pool_load_at_startup", "innodb_force_recovery",
    "innodb_read_only", "innodb_rollback_on_timeout", "innodb_sync_array_size", "innodb_autoinc_lock_mode",
    "innodb_ft_cache_size", "innodb_ft_total_cache_size", "innodb_ft_max_token_size", "innodb_ft_min_token_size",
    "innodb_ft_sort_pll_degree", "innodb_sort_buffer_size", "innodb_adaptive_hash_index_parts",
    "innodb_numa_interleave", "innodb_validate_tablespace_paths", "innodb_use_fdatasync_unused",
    "innodb_api_enable_binlog", "innodb_api_enable_mdl", "innodb_api_disable_rowlock", "innodb_version",
    "innodb_file_format_check", "innodb_locks_unsafe_for_binlog", "innodb_force_load_corrupted",
    "innodb_undo_tablespaces", "innodb_log_spin_cpu_abs_lwm_unused", "innodb_doublewrite_pages",
    "innodb_buffer_pool_in_core_file_unused", "innodb_checksums", "innodb_redo_log_archive_dirs",
    "thread_handling", "thread_stack", "back_log", "open_files_limit", "table_open_cache_instances",
    "skip_name_resolve", "skip_networking", "skip_external_locking", "datadir", "basedir", "socket", "port",
    "pid_file", "bind_address", "admin_address", "admin_port", "log_bin", "log_bin_basename", "log_bin_index",
    "relay_log", "relay_log_index", "server_uuid", "lower_case_table_names", "performance_schema",
    "character_set_filesystem_unused", "secure_file_priv", "plugin_dir", "tmpdir", "log_error", "skip_show_database",
    "large_pages", "large_page_size", "myisam_recover_options", "myisam_mmap_size", "key_cache_block_size_unused",
    "explicit_defaults_for_timestamp_unused", "ft_min_word_len", "ft_max_word_len", "ft_query_expansion_limit",
    "ft_stopword_file", "log_slave_updates", "log_replica_updates", "relay_log_recovery", "relay_log_info_file",
    "master_info_file", "gtid_executed_compression_period_unused", "binlog_gtid_simple_recovery",
    "report_host", "report_port", "report_user", "report_password", "slave_load_tmpdir", "replica_load_tmpdir",
    "disabled_storage_engines", "default_authentication_plugin", "lc_messages_dir", "character_sets_dir",
    "init_file", "core_file", "memlock", "log_tc_size", "max_digest_length", "persisted_globals_load",
    "skip_slave_start", "skip_replica_start", "upgrade", "create_admin_listener_thread", "caching_sha2_password_auto_generate_rsa_keys",
    "sha256_password_auto_generate_rsa_keys", "auto_generate_certs", "caching_sha2_password_private_key_path",
    "caching_sha2_password_public_key_path", "sha256_password_private_key_path", "sha256_password_public_key_path",
    "mysqlx", "temptable_use_mmap_unused", "binlog_rotate_encryption_master_key_at_startup", "daemon_memcached_option",
    "log_bin_use_v1_row_events_unused", "ngram_token_size", "myisam_repair_threads_unused", "mysql_native_password",
    "have_ssl", "have_openssl", "have_symlink", "have_query_cache", "version", "version_comment", "hostname",
}

# Percona Server 8.0 additions on top of MySQL 8.0 (names, kinds and defaults from Percona's manual).
# (name, kind, min, max, values, default, dynamic, note)
PERCONA_80_ADDITIONS = [
    ("thread_pool_size", "int", 1, 1024, None, None, True, "default: number of CPUs"),
    ("thread_pool_oversubscribe", "int", 1, 1000, None, "3", True, None),
    ("thread_pool_stall_limit", "int", 4, 600, None, "500", True, "milliseconds"),
    ("thread_pool_max_threads", "int", 1, 100000, None, "100000", True, None),
    ("thread_pool_idle_timeout", "int", 1, U32, None, "60", True, "seconds"),
    ("thread_pool_high_prio_mode", "enum", None, None, ["transactions", "statements", "none"], "transactions", True, None),
    ("thread_pool_high_prio_tickets", "int", 0, U32, None, "4294967295", True, None),
    ("enforce_storage_engine", "string", None, None, None, None, False, None),
    ("expand_fast_index_creation", "bool", None, None, None, "OFF", True, None),
    ("have_backup_locks", "enum", None, None, ["YES", "NO"], "YES", False, None),
    ("innodb_corrupt_table_action", "enum", None, None, ["assert", "warn", "salvage"], "assert", True, None),
    ("innodb_kill_idle_transaction", "int", 0, U32, None, "0", True, "seconds"),
    ("innodb_print_lock_wait_timeout_info", "bool", None, None, None, "OFF", True, None),
    ("innodb_show_locks_held", "int", 0, 1000, None, "10", True, None),
    ("innodb_empty_free_list_algorithm", "enum", None, None, ["legacy", "backoff"], "legacy", True, None),
    ("innodb_cleaner_lsn_age_factor", "enum", None, None, ["legacy", "high_checkpoint"], "high_checkpoint", True, None),
    ("log_slow_filter", "set", None, None, ["full_scan", "full_join", "tmp_table", "tmp_table_on_disk", "filesort", "filesort_on_disk"], "", True, None),
    ("log_slow_rate_limit", "int", 1, 1000, None, "1", True, None),
    ("log_slow_rate_type", "enum", None, None, ["session", "query"], "session", True, None),
    ("log_slow_sp_statements", "enum", None, None, ["OFF", "ON", "OFF_NO_CALLS"], "ON", True, None),
    ("log_slow_verbosity", "set", None, None, ["microtime", "query_plan", "innodb", "profiling", "profiling_use_getrusage", "minimal", "standard", "full"], "", True, None),
    ("slow_query_log_use_global_control", "set", None, None, ["none", "log_slow_filter", "log_slow_rate_limit", "log_slow_verbosity", "long_query_time", "min_examined_row_limit", "all"], "", True, None),
    ("slow_query_log_always_write_time", "float", 0, None, None, "10", True, "seconds"),
    ("proxy_protocol_networks", "string", None, None, None, "", False, None),
    ("csv_mode", "set", None, None, ["IETF_QUOTES"], "", True, None),
]

# Variables of Percona Server plugins in its variable index, by prefix (plugin = library stem without ha_).
PERCONA_PLUGIN_PREFIXES = [("audit_log_filter_", "audit_log_filter"), ("audit_log_", "audit_log"),
                           ("keyring_vault_", "keyring_vault"), ("tokudb_", "tokudb"),
                           ("query_response_time_", "query_response_time"), ("rocksdb_", "rocksdb")]

# MySQL 8.4 InnoDB variables new since 8.0.32 (the 8.4 help file leaves InnoDB out).
MYSQL_84_INNODB_NEW = [
    ("innodb_log_writer_threads", "bool"),
    ("innodb_doublewrite_pages", "int"),
]
# 8.4 default changes that matter for advice (manual: "InnoDB system variable default value changes").
MYSQL_84_DEFAULTS = {
    "innodb_io_capacity": "10000", "innodb_io_capacity_max": None, "innodb_log_buffer_size": "67108864",
    "innodb_adaptive_hash_index": "OFF", "innodb_change_buffering": "none", "innodb_doublewrite_files": "2",
    "innodb_flush_method": "O_DIRECT", "innodb_numa_interleave": "ON", "innodb_page_cleaners": None,
    "innodb_parallel_read_threads": None, "innodb_purge_threads": None, "innodb_read_io_threads": None,
    "innodb_use_fdatasync": "ON", "temptable_max_ram": None, "temptable_max_mmap": "0",
    "temptable_use_mmap": "OFF", "innodb_buffer_pool_instances": None, "innodb_buffer_pool_in_core_file": None,
}

ENTERPRISE_NOTE = ("pool-of-threads is not available: the thread pool is a MySQL Enterprise plugin "
                   "(Enterprise-only); Community servers accept one-thread-per-connection or no-threads")

# --------------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------------


@dataclass
class Rec:
    name: str
    kind: str = "string"
    min: str = ""
    max: str = ""
    block: str = ""
    values: list[str] = field(default_factory=list)
    default: str | None = None
    dynamic: bool = False
    sysvar: bool = True
    status: str = "current"
    since: str = ""
    repl: str = ""
    note: str = ""
    plugin: str = ""  # what must be loaded for the name to exist ("" = built into the server)
    # The option's argument as the server's option parser takes it: "req" (a value is required),
    # "opt" (the value may be left out: `--name` alone), "none" (no value), "" (not known: the
    # reader falls back on the kind). From the help output's `=#` / `[=#]` / `=name` / `[=name]`.
    arg: str = ""

    def line(self) -> str:
        def clean(s: str) -> str:
            return s.replace("\t", " ").replace("\n", " ").replace("\\", "\\\\")

        default = "\\N" if self.default is None else clean(self.default)
        return "\t".join([
            self.name, self.kind, self.min, self.max, self.block, ",".join(self.values), default,
            "Y" if self.dynamic else "N", "Y" if self.sysvar else "N", self.status, self.since, self.repl,
            clean(self.note), self.plugin, self.arg,
        ])


def canon(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def vtuple(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


# --------------------------------------------------------------------------------------------------
# Parsers
# --------------------------------------------------------------------------------------------------

OPT_RE = re.compile(r"^(\s*)(?:-\S, )?--([A-Za-z0-9][A-Za-z0-9_.-]*)(\[=#\]|=#|\[=name\]|=name)?(?=\s|$)")


@dataclass
class HelpOpt:
    arg: str  # none / num / name
    desc: str = ""
    optional: bool = False  # `[=#]` / `[=name]`: the value may be left out
    default: str | None = None
    in_defaults: bool = False


def parse_help(path: Path) -> dict[str, HelpOpt]:
    lines = path.read_text(errors="replace").splitlines()
    opts: dict[str, HelpOpt] = {}
    current: HelpOpt | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("Variables (--variable-name=value)"):
            break
        m = OPT_RE.match(line)
        ok = False
        if m:
            indent = len(m.group(1))
            rest = line[m.end():]
            # Option lines without a description on the same line end in one space; a
            # description line that merely starts with "--name" does not.
            if indent == 0 or (rest.strip() == "" and rest != ""):
                ok = True
            elif rest.startswith("  "):
                ok = True
            elif rest.startswith(" ") and m.end() + 1 == indent + 20:
                ok = True
        if ok and m:
            arg = m.group(3) or ""
            kind = "num" if "#" in arg else ("name" if "name" in arg else "none")
            current = HelpOpt(kind, line[m.end():].strip(), optional=arg.startswith("["))
            opts.setdefault(canon(m.group(2)), current)
        elif current is not None:
            current.desc += " " + line.strip()
        i += 1
    # defaults table
    for line in lines[i + 1:]:
        if not line.strip() or line.startswith("---") or line.startswith("and boolean options"):
            continue
        if line.startswith("To see what values"):
            break
        parts = line.split(None, 1)
        name = canon(parts[0])
        value = parts[1].strip() if len(parts) > 1 else ""
        opt = opts.get(name)
        if opt is None:
            continue
        opt.in_defaults = True
        if value == "(No default value)" or "####" in value or "MYSQL" in value or "/" in value and "mysql-test" in value:
            opt.default = None
        else:
            opt.default = value
    return opts


def parse_tsv_sysvars(path: Path) -> dict[str, dict[str, str]]:
    out = {}
    with path.open(newline="") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    head = rows[0]
    for row in rows[1:]:
        if len(row) != len(head):
            continue
        d = dict(zip(head, row))
        out[canon(d["VARIABLE_NAME"])] = d
    return out


CSV_RE = re.compile(
    r'"([A-Z0-9_]+)","(.*?)","(.*?)","([A-Z-]+)","(.*?)","(GLOBAL|SESSION|SESSION ONLY)","([A-Z ]+)","(.*?)",'
    r'"([^"]*)","([^"]*)","([^"]*)","([^"]*)","(YES|NO)","([A-Z]+)","([^"]*)"',
    re.S,
)
CSV_COLS = ["VARIABLE_NAME", "SESSION_VALUE", "GLOBAL_VALUE", "GLOBAL_VALUE_ORIGIN", "DEFAULT_VALUE",
            "VARIABLE_SCOPE", "VARIABLE_TYPE", "VARIABLE_COMMENT", "NUMERIC_MIN_VALUE", "NUMERIC_MAX_VALUE",
            "NUMERIC_BLOCK_SIZE", "ENUM_VALUE_LIST", "READ_ONLY", "COMMAND_LINE_ARGUMENT", "GLOBAL_VALUE_PATH"]


CSV_RECORD_START = re.compile(r'(?:^|(?<="))(?="[A-Z][A-Z0-9_]*",")')
CSV_RECORD_RE = re.compile(
    r'"([A-Z0-9_]+)","(.*?)","(.*?)","([A-Z-]+)","(.*?)","(GLOBAL|SESSION|SESSION ONLY)","([A-Z ]+)","(.*)",'
    r'"([^"]*)","([^"]*)","([^"]*)","([^"]*)","(YES|NO)","([A-Z]+)"(?:,"([^"]*)")?',
    re.S,
)


def parse_csv_sysvars(path: Path) -> dict[str, dict[str, str]]:
    """The mysqltuner CSV dumps: records joined without newlines, 15 quoted columns (14 for 10.2-10.4,
    without GLOBAL_VALUE_PATH). Split into records first (a record starts where a quote is followed by
    `"NAME","`), then each record is matched whole: one pattern over the whole file backtracks for minutes
    on the older dumps."""
    text = path.read_text(errors="replace")
    starts = [m.start() for m in CSV_RECORD_START.finditer(text)]
    out = {}
    for a, b in zip(starts, starts[1:] + [len(text)]):
        m = CSV_RECORD_RE.fullmatch(text[a:b].strip())
        if not m:
            continue
        d = dict(zip(CSV_COLS, (g if g is not None else "" for g in m.groups())))
        out[canon(d["VARIABLE_NAME"])] = d
    return out


def parse_result_sysvars(path: Path) -> dict[str, dict[str, str]]:
    """mysql-test sysvars_*.result: `COLUMN<TAB>value` lines, records start at VARIABLE_NAME."""
    out: dict[str, dict[str, str]] = {}
    cur: dict[str, str] | None = None
    for line in path.read_text(errors="replace").splitlines():
        if "\t" not in line:
            continue
        k, v = line.split("\t", 1)
        if k == "VARIABLE_NAME":
            cur = {"VARIABLE_NAME": v}
            out[canon(v)] = cur
        elif cur is not None and re.fullmatch(r"[A-Z_]+", k):
            cur[k] = v
    return out


def load_dump_vars(path: Path) -> dict[str, str]:
    d = json.loads(path.read_text())
    # Some keys are mangled in these files: everything up to the last digit is cut off
    # ("sha256_password_proxy_users" -> "_password_proxy_users"). Keep real names; remember the
    # mangled tails so build_mysql can recognise the names they came from.
    out = {canon(k): str(v) for k, v in d["Variables"].items()
           if re.fullmatch(r"[a-z][a-z0-9_]*", k) and k not in MYSQLTUNER_MADE}
    MANGLED_TAILS.update(k for k in d["Variables"] if k.startswith("_"))
    return out


# Keys mysqltuner adds to its "Variables" map itself, one per storage engine SHOW ENGINES lists
# (mysqltuner.pl: `$myvar{"have_$engine"}`, federated and blackhole with `_engine`) and its Galera and
# thread-pool probes: no server variable of those names exists (MySQL 5.5 had have_csv, have_innodb,
# have_ndbcluster and have_partitioning, which its real SHOW VARIABLES sample still lists).
MYSQLTUNER_MADE = frozenset(f"have_{e}" for e in (
    "archive", "blackhole_engine", "csv", "federated_engine", "innodb", "memory", "mrg_myisam", "myisam",
    "ndbcluster", "ndbinfo", "performance_schema", "aria", "sequence", "tokudb", "rocksdb", "bdb", "galera",
    "threadpool", "partition", "spider", "connect", "s3", "columnstore", "oqgraph", "sphinx", "mroonga"))


MANGLED_TAILS: set[str] = set()
# System variables the mysqltuner captures leave out although the servers have them.
MYSQL_KNOWN_SYSVARS = {"myisam_repair_threads", "show_compatibility_56", "disable_partition_engine_check"}


def mangled_sysvar(name: str) -> bool:
    return any(name.endswith(t) and re.search(r"\d", name[: len(name) - len(t)]) for t in MANGLED_TAILS)


# --------------------------------------------------------------------------------------------------
# Builders
# --------------------------------------------------------------------------------------------------


def norm_default(v: str | None) -> str | None:
    if v is None:
        return None
    if v in ("NULL", "(No default value)", "(Disabled)") or "####" in v:
        return None
    up = v.upper()
    if up == "TRUE":
        return "ON"
    if up == "FALSE":
        return "OFF"
    return v


def from_mariadb_sysvar(name: str, d: dict[str, str]) -> Rec:
    t = d.get("VARIABLE_TYPE", "")
    r = Rec(name)
    nmin, nmax, blk = d.get("NUMERIC_MIN_VALUE", "NULL"), d.get("NUMERIC_MAX_VALUE", "NULL"), d.get("NUMERIC_BLOCK_SIZE", "NULL")
    enum = d.get("ENUM_VALUE_LIST", "NULL")
    if t == "BOOLEAN":
        r.kind = "bool"
    elif t in ("INT", "BIGINT", "INT UNSIGNED", "BIGINT UNSIGNED"):
        r.kind = "size" if is_size_name(name) and "UNSIGNED" in t else "int"
        r.min = "" if nmin == "NULL" else nmin
        r.max = "" if nmax == "NULL" else nmax
        if blk not in ("NULL", "1", "0"):
            r.block = blk
    elif t == "DOUBLE":
        r.kind = "float"
        r.min = "" if nmin == "NULL" else nmin
        r.max = "" if nmax == "NULL" else nmax
    elif t == "ENUM" and enum == "NULL":  # e.g. character sets: any known name
        r.kind = "string"
    elif t == "ENUM":
        r.kind = "enum"
        r.values = enum.split(",") if enum != "NULL" else []
    elif t == "SET":
        r.kind = "set"
        r.values = enum.split(",") if enum != "NULL" else []
    elif t == "FLAGSET" and enum != "NULL":
        # optimizer_switch: the server refuses a flag it does not know
        r.kind = "set"
        r.values = [v for v in enum.split(",") if v != "default"]
        r.note = "flag set: name=on|off|default, comma-separated"
    else:
        r.kind = "path" if name in PATH_NAMES else "string"
        if t == "FLAGSET":
            r.note = "flag set: name=on|off|default, comma-separated"
    r.default = norm_default(d.get("DEFAULT_VALUE"))
    r.dynamic = d.get("READ_ONLY", "YES") == "NO"
    r.sysvar = True
    comment = d.get("VARIABLE_COMMENT", "")
    if re.search(r"\bdeprecated\b", comment, re.I):
        r.status = "deprecated"
    if d.get("COMMAND_LINE_ARGUMENT", "") == "NULL":
        r.note = (r.note + "; " if r.note else "") + "not settable in an option file (no command-line form)"
    return r


def from_help(name: str, h: HelpOpt, flavor: str) -> Rec:
    r = Rec(name)
    if h.arg == "none":
        r.kind = "bool"
    elif h.arg == "num":
        r.kind = "size" if is_size_name(name) else "int"
    else:
        r.kind = "path" if name in PATH_NAMES else "string"
    if h.arg != "none":
        r.arg = "opt" if h.optional else "req"
    r.default = norm_default(h.default)
    if re.search(r"\bdeprecated\b", h.desc, re.I) and not re.search(r"deprecated (?:and will be removed )?in favou?r", h.desc, re.I) or re.search(r"option is deprecated|variable is deprecated|is deprecated and", h.desc, re.I):
        r.status = "deprecated"
    return r


def guess_kind_from_value(name: str, v: str) -> str:
    if v in ("ON", "OFF"):
        return "bool"
    if re.fullmatch(r"-?\d+", v):
        return "size" if is_size_name(name) else "int"
    if re.fullmatch(r"-?\d+\.\d+", v):
        return "float"
    return "path" if name in PATH_NAMES else "string"


def apply_mysql_curation(r: Rec, series: str, maria_ref: dict[str, dict[str, str]]) -> None:
    name = r.name
    if name in MYSQL_ENUMS:
        kind, values = MYSQL_ENUMS[name]
        r.kind = kind
        r.values = list(values)
        if name == "sql_mode" and vtuple(series) < (8, 0):
            r.values = values + MYSQL57_SQL_MODE_EXTRA
        if kind == "bool":
            r.values = []
    if name in MYSQL_FLOATS:
        r.kind = "float"
    if name in MYSQL_STRINGS and r.kind not in ("enum", "set"):
        r.kind = "string"
    if name in PATH_NAMES and r.kind == "string":
        r.kind = "path"
    if name == "innodb_flush_log_at_trx_commit":
        r.kind = "int"
    if name in MYSQL_RANGES and r.kind in ("int", "size", "float"):
        lo, hi, blk = MYSQL_RANGES[name]
        r.min = "" if lo is None else str(lo)
        r.max = "" if hi is None else str(hi)
        r.block = "" if blk is None else str(blk)
    if name == "thread_handling":
        r.note = ENTERPRISE_NOTE
    # dynamic
    if vtuple(series) < (8, 0) and name in ("innodb_log_buffer_size", "innodb_doublewrite"):
        r.dynamic = False  # both became dynamic only in 8.0
    elif name in MYSQL_READ_ONLY:
        r.dynamic = False
    elif name in MYSQL_DYNAMIC:
        r.dynamic = True
    elif name in maria_ref:
        r.dynamic = maria_ref[name].get("READ_ONLY", "YES") == "NO"
    else:
        r.dynamic = False
    if not r.sysvar:
        r.dynamic = False


def build_mysql(series: str, help_path: Path, dump: dict[str, str] | None, innodb_names: dict[str, str],
                maria_ref: dict[str, dict[str, str]], option_only: set[str]) -> dict[str, Rec]:
    h = parse_help(help_path)
    recs: dict[str, Rec] = {}
    for name, opt in h.items():
        r = from_help(name, opt, "mysql")
        if dump is not None:
            r.sysvar = name in dump or name in MYSQL_KNOWN_SYSVARS or mangled_sysvar(name)
        else:
            r.sysvar = name not in option_only and opt.in_defaults
        if name in option_only:
            r.sysvar = False
        recs[name] = r
    # Names the help file leaves out: InnoDB / performance_schema / anything SHOW VARIABLES lists.
    if dump is not None:
        for name, value in dump.items():
            if name in recs:
                if recs[name].default is None and name.startswith(("innodb", "performance_schema")):
                    recs[name].default = value
                continue
            r = Rec(name, kind=guess_kind_from_value(name, value), default=value, sysvar=True)
            recs[name] = r
    for name, value in innodb_names.items():
        if name not in recs:
            recs[name] = Rec(name, kind=guess_kind_from_value(name, value), default=value, sysvar=True)
    for r in recs.values():
        apply_mysql_curation(r, series, maria_ref)
    # Options the mysql-test help output filters out but every server has.
    for name, kind, sysvar in [("user", "string", False), ("skip_grant_tables", "bool", False),
                               ("skip_name_resolve", "bool", True), ("skip_networking", "bool", True),
                               ("symbolic_links", "bool", False), ("skip_symbolic_links", "bool", False),
                               ("skip_external_locking", "bool", True), ("ssl", "bool", False),
                               ("skip_log_bin", "bool", False), ("disable_log_bin", "bool", False),
                               ("skip_slave_start", "bool", True), ("skip_show_database", "bool", True),
                               ("skip_stack_trace", "bool", False), ("core_file", "bool", True),
                               ("socket", "path", True), ("port", "int", True), ("datadir", "path", True),
                               ("basedir", "path", True), ("log_error", "path", True), ("pid_file", "path", True),
                               ("tmpdir", "path", True), ("plugin_dir", "path", True), ("secure_file_priv", "path", True)]:
        if name not in recs:
            r = Rec(name, kind=kind, sysvar=sysvar)
            if dump is not None and name in dump:
                r.sysvar = True
            apply_mysql_curation(r, series, maria_ref)
            recs[name] = r
    if "skip_grant_tables" in recs:
        recs["skip_grant_tables"].note = "disables authentication: every user gets full access"
        recs["skip_grant_tables"].default = "OFF"  # the mysql-test help output runs with it on
    if "innodb_use_native_aio" in recs:
        recs["innodb_use_native_aio"].default = "ON"  # the CI dump ran without native AIO
    # The mysql-test help output filters table_open_cache out (the server
    # lowers it when open_files_limit is small); the manual's default is
    # 2000 in 5.7 and 4000 from 8.0.
    if "table_open_cache" in recs and recs["table_open_cache"].default is None:
        recs["table_open_cache"].default = "2000" if vtuple(series) < (8, 0) else "4000"
    if "external_locking" in recs:
        recs["external_locking"].sysvar = False
        recs["external_locking"].note = "option form of skip_external_locking (system variable, inverted)"
    if "log_bin" in recs:
        recs["log_bin"].kind = "path"
        recs["log_bin"].sysvar = True
        recs["log_bin"].note = "option takes an optional base name; the log_bin system variable is read-only ON/OFF"
    if "version" in recs:  # the --version option prints and exits; the variable is the version string
        recs["version"] = replace(recs["version"], kind="string", sysvar=True, dynamic=False, default=None,
                                  note="as an option (--version) it prints the version and exits")
    return recs


def build_mariadb_from_sysvars(sv: dict[str, dict[str, str]], help_opts: dict[str, HelpOpt] | None) -> dict[str, Rec]:
    recs: dict[str, Rec] = {}
    for name, d in sv.items():
        recs[name] = from_mariadb_sysvar(name, d)
    if help_opts:
        for name, opt in help_opts.items():
            if name in recs:
                r = recs[name]
                if r.default is None and opt.default is not None and r.kind not in ("path",):
                    r.default = norm_default(opt.default)
                if r.status == "current" and from_help(name, opt, "mariadb").status == "deprecated":
                    r.status = "deprecated"
                r.arg = from_help(name, opt, "mariadb").arg
                continue
            r = from_help(name, opt, "mariadb")
            r.sysvar = False
            r.dynamic = False
            recs[name] = r
    for name in ("user", "skip_grant_tables", "console", "defaults_file", "defaults_extra_file", "no_defaults",
                 "skip_log_bin", "skip_symbolic_links", "skip_external_locking", "skip_ssl"):
        if name not in recs:
            recs[name] = Rec(name, kind="string" if name == "user" else ("path" if "file" in name else "bool"),
                             sysvar=False)
    if "skip_grant_tables" in recs:
        recs["skip_grant_tables"].note = "disables authentication: every user gets full access"
    if help_opts:
        for name, r in recs.items():
            if name in help_opts and r.note.endswith("(no command-line form)"):
                r.note = ""
    if "log_bin" in recs:
        recs["log_bin"].kind = "path"
        recs["log_bin"].sysvar = True
        recs["log_bin"].note = "option takes an optional base name; the log_bin system variable is read-only ON/OFF"
    if "version" in recs:  # the --version option prints and exits; the variable is the version string
        recs["version"] = replace(recs["version"], kind="string", sysvar=True, dynamic=False, default=None,
                                  note="as an option (--version) it prints the version and exits")
    # --transaction-isolation is the option of the tx_isolation variable: the same values, and the server
    # refuses others ("Error while setting value 'SNAPSHOT' to 'transaction-isolation'").
    ti, tx = recs.get("transaction_isolation"), recs.get("tx_isolation")
    if ti and tx and ti.kind == "string" and tx.kind == "enum":
        ti.kind, ti.values = "enum", list(tx.values)
    return recs


def option_only_fixups(recs: dict[str, Rec]) -> None:
    for name in ("defaults_file", "defaults_extra_file", "defaults_group_suffix", "no_defaults", "print_defaults",
                 "login_path", "no_login_paths"):
        if name in recs:
            recs[name].sysvar = False
            recs[name].dynamic = False
            recs[name].note = "command line only (first argument); not usable in an option file"
    for name in ("help", "verbose", "version", "initialize", "initialize_insecure", "validate_config"):
        if name in recs and not recs[name].sysvar:
            recs[name].note = recs[name].note or "command line only"


def apply_changes(recs: dict[str, Rec], flavor: str, series: str, predecessors: list[dict[str, Rec]],
                  derived: bool = False) -> list[str]:
    """Apply curated deprecations/removals. Returns warnings (a removal that contradicts raw data of the
    series itself; a `derived` series inherits older data, where that is expected)."""
    warnings = []
    flavors = {flavor, "mysql"} if flavor == "percona" else {flavor}
    s = vtuple(series)
    applicable: dict[str, Change] = {}
    for ch in CHANGES:
        if ch.flavor not in flavors or ch.since is None:
            continue
        if vtuple(ch.since)[:2] > s:
            continue
        prev = applicable.get(ch.name)
        # later (removed beats deprecated; flavor-specific beats mysql for percona)
        if prev is None or (ch.flavor == flavor and prev.flavor != flavor) or (
                ch.flavor == prev.flavor and vtuple(ch.since) >= vtuple(prev.since or "0.0")):
            applicable[ch.name] = ch
    for name, ch in applicable.items():
        if ch.status == "removed":
            if name in recs and recs[name].status != "removed" and not derived:
                warnings.append(f"{flavor}-{series}: {name} is in the raw data but the manual says removed {ch.since}")
            base = recs.get(name)
            if base is None:
                for p in predecessors:
                    if name in p:
                        base = replace(p[name])
                        break
            if base is None:
                base = Rec(name)
            base.status, base.since, base.repl = "removed", ch.since or "", ch.replacement or ""
            base.dynamic = False
            recs[name] = base
        else:
            r = recs.get(name)
            if r is None:
                warnings.append(f"{flavor}-{series}: {name} deprecated per manual but absent from the raw data")
                continue
            if r.status != "removed":
                r.status, r.since, r.repl = "deprecated", ch.since or "", ch.replacement or ""
    return warnings


def carry_removed(recs: dict[str, Rec], prev: dict[str, Rec], domain) -> None:
    """Names the predecessor series had (within the same raw-data coverage) and this one lacks: removed."""
    for name, r in prev.items():
        # Names the predecessor lists only as newer servers' (introduced) or debug builds' are no evidence.
        if name in recs or not domain(name) or r.status == "introduced" or r.note == DEBUG_NOTE:
            continue
        if name in NEIGHBOURS_ADDED.get(id(prev), ()):
            continue  # another series' name: neighbours() decides it for this series too
        nr = replace(r)
        if r.status != "removed":
            nr.status, nr.since, nr.repl = "removed", "", r.repl if r.status == "deprecated" else ""
        nr.dynamic = False
        recs[name] = nr


@dataclass
class Capture:
    """The names one real server output lists, and the series it is of. `debug`: a test-suite result
    recorded on a debug build (options that only debug builds have are among its names)."""
    series: tuple[int, int]
    names: dict[str, Rec]
    label: str
    debug: bool = False


# Series in release order, per flavor family, so that "the series after X" can be named.
SERIES_ORDER = {
    "mysql": [(5, 5), (5, 6), (5, 7), (8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (9, 0)],
    "mariadb": [(10, 2), (10, 3), (10, 4), (10, 5), (10, 6), (10, 7), (10, 8), (10, 9), (10, 10), (10, 11),
                (11, 0), (11, 1), (11, 2), (11, 3), (11, 4), (11, 5), (11, 6), (11, 7), (11, 8), (12, 0)],
}
DEBUG_NOTE = "only on debug builds"


def load_legacy(path: Path = Path(__file__).resolve().parent.parent / "data" / "legacy-options.tsv") -> dict:
    """(family, name) -> the release that removed it, from data/legacy-options.tsv (each row with its
    source): `MySQL 5.6.1` gives ("mysql", name) -> "5.6.1"."""
    out = {}
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, removed_in = line.split("\t")[:2]
        m = re.fullmatch(r"(MySQL|MariaDB) (\d+\.\d+\.\d+)", removed_in.strip())
        if m:
            out[(m.group(1).lower(), name)] = m.group(2)
    return out


LEGACY_REMOVED = load_legacy()

# The names `neighbours` added to each catalog (by the dict's id): a catalog derived from another one
# decides them afresh for its own series.
NEIGHBOURS_ADDED: dict[int, set[str]] = {}
NEIGHBOURS_FROM: dict[int, list[str]] = {}


def series_after(family: str, series: tuple[int, int]) -> str:
    order = SERIES_ORDER[family]
    later = [s for s in order if s > series]
    nxt = later[0] if later else (series[0], series[1] + 1)
    return f"{nxt[0]}.{nxt[1]}.0"


def neighbours(recs: dict[str, Rec], data_series: tuple[int, int], captures: list[Capture], family: str,
               domain=lambda n: True, debug_names: frozenset[str] = frozenset()) -> tuple[int, int, int]:
    """Names real servers of other series list and this catalog lacks, as entries: removed (every capture
    that has the name is older) since the first series after the newest capture that has it, or introduced
    (every capture that has it is newer) since the first series after the newest one that lacks it
    (`data_series` for the catalog itself: what its data describes). A name only debug-build results list
    (`debug_names`) is an option of debug builds. Returns (removed, introduced, debug) counts."""
    seen: dict[str, list[Capture]] = {}
    for c in captures:
        for name in c.names:
            if name not in recs and domain(name):
                seen.setdefault(name, []).append(c)
    counts = [0, 0, 0]
    NEIGHBOURS_ADDED.setdefault(id(recs), set())
    NEIGHBOURS_FROM[id(recs)] = [c.label for c in captures if c.series != data_series]
    for name, having in sorted(seen.items()):
        if name in debug_names:
            r = replace(having[0].names[name], values=list(having[0].names[name].values))
            r.status, r.since, r.note, r.dynamic = "current", "", DEBUG_NOTE, False
            recs[name] = r
            NEIGHBOURS_ADDED[id(recs)].add(name)
            counts[2] += 1
            continue
        vs = sorted(c.series for c in having)
        lacking = [c.series for c in captures if name not in c.names and not c.debug] + [data_series]
        older_having = [v for v in vs if v < data_series]
        newer_having = [v for v in vs if v > data_series]
        if older_having and newer_having:
            # Gone, then back (innodb_log_archive: XtraDB's in 10.2, a new option in 12.x): the side
            # nearer this series decides.
            order = SERIES_ORDER[family]
            pos = lambda x: order.index(x) if x in order else len(order)  # noqa: E731
            if pos(data_series) - pos(older_having[-1]) <= pos(newer_having[0]) - pos(data_series):
                vs = older_having
            else:
                vs = newer_having
        newest = having[[c.series for c in having].index(vs[-1])]
        r = replace(newest.names[name], values=list(newest.names[name].values))
        if vs[-1] < data_series:
            r.status, r.since, r.repl = "removed", LEGACY_REMOVED.get((family, name)) or series_after(family, vs[-1]), ""
            r.dynamic = False
            counts[0] += 1
        elif vs[0] > data_series:
            older = [s for s in lacking if s < vs[0]]
            r.status, r.since, r.repl = "introduced", series_after(family, max(older)), ""
            counts[1] += 1
        else:
            continue  # the series' own version lists it under another name: not decided here
        recs[name] = r
        NEIGHBOURS_ADDED[id(recs)].add(name)
    return counts[0], counts[1], counts[2]


def capture_of_help(path: Path, series: tuple[int, int], flavor: str, debug: bool = False) -> Capture:
    return Capture(series, {n: from_help(n, o, flavor) for n, o in parse_help(path).items()}, path.name, debug)


def capture_of_sysvars(sv: dict[str, dict[str, str]], series: tuple[int, int], label: str,
                       debug: bool = False) -> Capture:
    return Capture(series, {n: from_mariadb_sysvar(n, d) for n, d in sv.items()}, label, debug)


def capture_of_values(values: dict[str, str], series: tuple[int, int], label: str) -> Capture:
    """A SHOW VARIABLES list: names and values only. The value says nothing sure about what the option
    takes (`log_slow_queries` shows OFF, `--log-slow-queries` takes a file name), so the kind is left
    as text and no value is judged."""
    return Capture(series, {n: Rec(n, kind="string", default=norm_default(v)) for n, v in values.items()}, label)


def load_tab_vars(path: Path) -> dict[str, str]:
    """A `name<TAB>value` SHOW VARIABLES list (percona-toolkit's pt-mysql-summary samples)."""
    out = {}
    for line in path.read_text(errors="replace").splitlines():
        k, sep, v = line.partition("\t")
        if sep and re.fullmatch(r"[a-z][a-z0-9_]*", k):
            out[k] = v
    return out


# --------------------------------------------------------------------------------------------------
# Documentation pages and plugin listings (Percona Server, PXC, MySQL plugins)
# --------------------------------------------------------------------------------------------------

HEADING_RE = re.compile(r"^(#{1,4})\s+(.*?)\s*$")
NAME_RE = re.compile(r"[a-z][a-z0-9_.]*")


@dataclass
class DocVar:
    """What a documentation page's option table says about one variable."""
    name: str
    fields: dict[str, str] = field(default_factory=dict)

    def get(self, *keys: str) -> str | None:
        for k, v in self.fields.items():
            if any(k.startswith(key) for key in keys):
                return v
        return None


def _doc_key(cell: str) -> str:
    return re.sub(r"\s+", " ", cell.strip().strip(":").strip().lower())


def _doc_cell(cell: str) -> str:
    return cell.strip().replace("``", "`").strip()


def parse_doc_vars(path: Path, keep_bare: bool = False, names: frozenset[str] = frozenset(),
                   bullets: bool = False) -> dict[str, DocVar]:
    """Sections `## name` / `### \\`name\\`` followed by a two-column option table (Markdown pages of
    the Percona Server and PXC manuals). Status-variable sections and headings that are not
    variable names (functions, table names, prose) are skipped. A heading without `_` or `.` is a
    variable only when it is one of `names` (`userstat`); with `bullets`, `* Key: value` lines
    (the jemalloc page's form) count as table rows."""
    out: dict[str, DocVar] = {}
    cur: DocVar | None = None
    in_status = False
    table_done = False
    for line in path.read_text(errors="replace").splitlines():
        m = HEADING_RE.match(line)
        if m:
            level, text = len(m.group(1)), m.group(2)
            if level <= 2 and not text.startswith("`"):
                in_status = bool(re.search(r"status variables", text, re.I))
            cur, table_done = None, False
            name = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).strip().strip("`").strip()
            name = re.sub(r"=(name|#)$", "", name)
            if not in_status and NAME_RE.fullmatch(name.replace("-", "_").lower()) and name[:1].islower():
                n = canon(name)
                if "_" in n or "." in n or n in names:
                    cur = DocVar(n)
                    if keep_bare:
                        out.setdefault(n, cur)
            continue
        if cur is None or table_done:
            continue
        bm = re.match(r"^\*\s+([A-Za-z][A-Za-z -]*):\s*(.+?)\s*$", line) if bullets else None
        if bm:
            cur.fields[_doc_key(bm.group(1))] = _doc_cell(bm.group(2))
            out.setdefault(cur.name, cur)
        elif line.startswith("|"):
            cells = line.strip().strip("|").split("|")
            if len(cells) < 2 or set(cells[0].strip()) <= set("-: "):
                continue
            key, value = _doc_key(cells[0]), _doc_cell("|".join(cells[1:]))
            if key in ("option", "attribute"):
                continue
            cur.fields[key] = value
            if cur.name not in out:
                out[cur.name] = cur
        elif cur.fields and line.strip():
            table_done = True
    return {n: d for n, d in out.items() if keep_bare or d.get("dynamic", "scope", "default") is not None}


LIFECYCLE_RE = re.compile(r"\b(variable|feature) (?:is|has been|was) (?:considered )?\**(removed|deprecated)\**"
                          r" in `?\[?Percona Server for MySQL (\d+\.\d+\.\d+)")


def doc_lifecycle(path: Path) -> dict[str, tuple[str, str]]:
    """What a Percona Server page says happened to its variables: "This variable is removed in Percona
    Server for MySQL 8.2.0-1", "... is considered **deprecated** in ... 8.0.23-14", and "This feature has
    been removed in ... 8.3.0-1" under a `##` feature heading (for every variable below that heading).
    name -> (status, since); removed beats deprecated. Headings are read as `parse_doc_vars` reads them."""
    var_says: dict[str, tuple[str, str]] = {}
    sec_says: dict[int, tuple[str, str]] = {}
    section_of: dict[str, int] = {}
    sec, var = 0, None

    def note(table: dict, key, status: str, since: str) -> None:
        if key not in table or (status == "removed" and table[key][0] != "removed"):
            table[key] = (status, since)

    for line in path.read_text(errors="replace").splitlines():
        m = HEADING_RE.match(line)
        if m:
            level, text = len(m.group(1)), m.group(2)
            if level <= 2:
                sec += 1
            name = canon(re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).strip().strip("`").strip())
            var = name if NAME_RE.fullmatch(name) and ("_" in name or "." in name) else None
            if var:
                section_of.setdefault(var, sec)
            continue
        for what, status, since in LIFECYCLE_RE.findall(line):
            if what == "feature":
                note(sec_says, sec, status, since)
            elif var:
                note(var_says, var, status, since)
    for name, s in section_of.items():
        if s in sec_says:
            note(var_says, name, *sec_says[s])
    return var_says


def parse_index_table(path: Path) -> dict[str, dict[str, str]]:
    """The `| Name | Cmd-Line | Option File | Var Scope | Dynamic |` table of a variable index page,
    system-variable section only."""
    out: dict[str, dict[str, str]] = {}
    head: list[str] | None = None
    for line in path.read_text(errors="replace").splitlines():
        m = HEADING_RE.match(line)
        if m and re.search(r"status variables", m.group(2), re.I):
            break
        if not line.startswith("|"):
            head = None if not line.strip() else head
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if head is None:
            head = [c.lower() for c in cells]
            continue
        if set(cells[0]) <= set("-: "):
            continue
        name = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", cells[0]).strip("`").strip()
        if not name[:1].islower():
            continue
        out[canon(name)] = dict(zip(head, cells))
    return out


def parse_show_block(path: Path, start: str) -> dict[str, str]:
    """A `show variables ...` block of a mysql-test result: the `Variable_name<TAB>Value` lines after
    the first line that starts with `start`, up to the first line that is not a name/value pair."""
    lines = path.read_text(errors="replace").splitlines()
    out: dict[str, str] = {}
    for i, line in enumerate(lines):
        if line.lower().startswith(start.lower()):
            for l2 in lines[i + 1:]:
                if l2.startswith("Variable_name\t"):
                    continue
                k, sep, v = l2.partition("\t")
                if not sep or not re.fullmatch(r"[a-z][a-z0-9_.]*", k):
                    break
                out[canon(k)] = v
            break
    return out


def doc_default(raw: str | None) -> str | None:
    """A documentation page's default cell as a value, or None when it is not one plain value."""
    if raw is None:
        return None
    v = raw.replace("`", "").strip()
    if len(v) > 1 and v[0] == v[-1] and v[0] in "\"'":
        v = v[1:-1]
    v = re.sub(r"\s*\(.*?\)\s*$", "", v).strip()
    v = re.sub(r"\s*\(.*$", "", v).strip()
    low = v.lower()
    if low in ("", "empty", "empty string", "''", '""', "blank"):
        return ""
    if low in ("null", "none specified", "not set", "-", "n/a"):
        return None
    if re.fullmatch(r"<[^<>]+>(?:\W*<[^<>]+>)*", v):  # a placeholder (`<username>:<password>`), not a value
        return None
    if re.search(r"\s(or|and|if|on \d|based|depends|see)\s", " " + low + " ") or len(v.split()) > 2:
        return None
    return norm_default(v)


def doc_bool(raw: str | None) -> bool | None:
    if raw is None:
        return None
    low = raw.replace("`", "").strip().lower()
    if low.startswith("yes"):
        return True
    if low.startswith("no"):
        return False
    return None


def rec_from_doc(name: str, d: DocVar, value: str | None = None) -> Rec:
    """A record from a documentation entry; `value` (a real server's SHOW VARIABLES value) stands in
    for the default where the page gives none."""
    dtype = (d.get("data type", "variable type", "type") or "").replace("`", "").lower()
    allowed = d.get("allowed value", "valid value", "values", "possible value")
    default = doc_default(d.get("default"))
    if default is None and value is not None:
        default = norm_default(value)
    r = Rec(name)
    if "bool" in dtype:
        r.kind = "bool"
    elif any(w in dtype for w in ("numeric", "integer", "int", "ulong", "long", "number", "unsigned")):
        r.kind = "size" if is_size_name(name) else "int"
    elif any(w in dtype for w in ("double", "float", "decimal")):
        r.kind = "float"
    elif "enum" in dtype or (allowed and "string" in dtype and "," in allowed):
        vals = [x.strip().strip("`").strip() for x in re.split(r",|\bor\b", (allowed or "").replace("`", ""))]
        vals = [x for x in vals if re.fullmatch(r"[A-Za-z0-9_.-]+", x)]
        r.kind, r.values = ("enum", vals) if vals else ("string", [])
    elif "set" in dtype:
        r.kind = "string"
    elif dtype:
        r.kind = "path" if name in PATH_NAMES or "path" in dtype or "file name" in dtype else "string"
    else:
        r.kind = guess_kind_from_value(name, default or "") if default else "string"
    if r.kind in ("int", "size"):
        for key, attr in (("minimum", "min"), ("maximum", "max")):
            raw = d.get(key)
            if raw:
                m = re.fullmatch(r"`?(-?\d+)`?(\s*\(.*\))?", raw.strip())
                if m:
                    setattr(r, attr, m.group(1))
        rng = d.get("range")
        if rng:
            m = re.fullmatch(r"`?(-?\d+)`?\s*(?:-|to|\.\.)\s*`?(\d+)`?", rng.strip())
            if m:
                r.min, r.max = m.group(1), m.group(2)
    if r.kind == "bool" and default not in (None, "ON", "OFF"):
        default = {"1": "ON", "0": "OFF"}.get(default or "", None)
    r.default = default
    r.dynamic = bool(doc_bool(d.get("dynamic")))
    r.sysvar = True
    cmd, cfg = d.get("command-line", "command line", "uses the command line"), d.get("config file", "uses the configuration file", "option file")
    if doc_bool(cmd) is False and doc_bool(cfg) is not True:
        r.note = "not settable in an option file (no command-line form)"
    return r


def rec_from_index(name: str, row: dict[str, str]) -> Rec:
    r = Rec(name, kind="string", sysvar=True, dynamic=bool(doc_bool(row.get("dynamic"))))
    if doc_bool(row.get("cmd-line")) is False and doc_bool(row.get("option file")) is False:
        r.note = "not settable in an option file (no command-line form)"
    return r


def add_plugin_vars(recs: dict[str, Rec], plugin: str, names: dict[str, str], docs: dict[str, DocVar],
                    index: dict[str, dict[str, str]] | None = None, skip_defaults: set[str] = frozenset()) -> int:
    """Add the variables of one plugin: `names` are the names a real server listed (name -> value shown),
    `docs` the manual's entries (name -> DocVar, only those of this plugin's prefix are passed).
    Names the server already has built in are left alone."""
    added = 0
    for name in sorted(set(names) | set(docs)):
        if name in recs and not recs[name].plugin and recs[name].status != "removed":
            continue
        value = None if name in skip_defaults else names.get(name)
        if name in docs:
            r = rec_from_doc(name, docs[name], value)
        elif index and name in index:
            r = rec_from_index(name, index[name])
            r.kind = guess_kind_from_value(name, value) if value else "string"
            r.default = norm_default(value) if value is not None else None
        else:
            r = Rec(name, kind=guess_kind_from_value(name, value) if value else "string",
                    default=norm_default(value) if value is not None else None, sysvar=True)
        if r.kind == "path":
            r.default = None
        r.plugin = plugin
        recs[name] = r
        added += 1
    return added


def merge_doc_facts(recs: dict[str, Rec], docs: dict[str, DocVar], add_missing: bool,
                    untyped: frozenset[str] = frozenset()) -> list[str]:
    """Percona feature pages on top of a catalog: names the pages describe and the catalog lacks are
    added (when `add_missing`); for names it has, the page's dynamic flag and, where the help gave none,
    its default and type are taken. Names in `untyped` (known from a variable index only) take the
    page's kind whenever the page gives a data type."""
    added = []
    for name, d in docs.items():
        r = recs.get(name)
        if r is None:
            if not add_missing:
                continue
            recs[name] = rec_from_doc(name, d)
            added.append(name)
            continue
        if r.status == "removed":
            continue
        dr = rec_from_doc(name, d)
        if name in untyped and r.kind == "string" and d.get("data type", "variable type", "type") is not None:
            r.kind, r.values = dr.kind, list(dr.values)
        if d.get("dynamic") is not None:
            r.dynamic = dr.dynamic
        r.sysvar = True if r.name not in OPTION_ONLY_COMMON else r.sysvar
        if r.default is None and dr.default is not None and r.kind != "path":
            r.default = dr.default
        if dr.kind == "enum" and r.kind == "string":
            r.kind, r.values = "enum", dr.values
        if dr.min and not r.min and r.kind in ("int", "size"):
            r.min = dr.min
        if dr.max and not r.max and r.kind in ("int", "size"):
            r.max = dr.max
    return added


def group_replication_vars(path: Path) -> dict[str, str]:
    """MySQL 8.0.41's gr_variables_default_values.result: every group_replication_* name it sets,
    with the default its `Test Unit#2` asserts (`""(EMPTY)` = empty, NULL = no default)."""
    text = path.read_text(errors="replace")
    names = {canon(n): "" for n in re.findall(r"@@GLOBAL\.(group_replication_[a-z_]+)", text)}
    out: dict[str, str | None] = dict.fromkeys(names)
    for n, v in re.findall(r"\[Default (group_replication_[a-z_]+) is (.*?)\]", text):
        v = v.strip()
        if v == '""(EMPTY)':
            v = ""
        elif v == "NULL":
            v = None
        else:
            v = v.strip('"')
            v = {"OFF/0": "OFF", "ON/1": "ON"}.get(v, v)
        out[canon(n)] = v
    return out  # type: ignore[return-value]


def add_simple_plugin_vars(recs: dict[str, Rec], plugin: str, names: dict[str, str | None], note: str = "") -> None:
    for name, value in names.items():
        if name in recs and not recs[name].plugin and recs[name].status != "removed":
            continue
        kind = guess_kind_from_value(name, value) if value else "string"
        r = Rec(name, kind=kind, default=None if value is None or kind == "path" else norm_default(value),
                sysvar=True, plugin=plugin, note=note)
        if name in MYSQL_DYNAMIC or name in (MYSQL_ENUMS.keys()):
            r.dynamic = True
        recs[name] = r


# Semisynchronous replication (MySQL / Percona: plugins, never built in). Names: the 5.5.21
# SHOW VARIABLES sample of percona-toolkit (rpl_semi_sync_master_* / _slave_*, plugins semisync_master
# and semisync_slave); from 8.0.26 the same variables also come as rpl_semi_sync_source_* /
# rpl_semi_sync_replica_* from the semisync_source / semisync_replica plugins (MySQL 8.0 manual,
# "Semisynchronous Replication": https://dev.mysql.com/doc/refman/8.0/en/replication-semisync.html).
SEMISYNC_SAMPLE = "mysql-5.5.21__percona_percona-toolkit__t__pt-mysql-summary__samples__mysql-variables-with-semisync.txt"
SEMISYNC_RENAMES = [("rpl_semi_sync_master_", "rpl_semi_sync_source_", "semisync_source"),
                    ("rpl_semi_sync_slave_", "rpl_semi_sync_replica_", "semisync_replica")]


def semisync_vars(dumps: Path) -> dict[str, str]:
    out = {}
    for line in (dumps / SEMISYNC_SAMPLE).read_text(errors="replace").splitlines():
        parts = [p.strip() for p in re.split(r"\t|\|", line) if p.strip()]
        if parts and parts[0].startswith("rpl_semi_sync_"):
            out[canon(parts[0])] = parts[1] if len(parts) > 1 else ""
    return out


# Semisync names the 5.5.21 sample lacks (it lists the master side only), from the same manual page.
SEMISYNC_MANUAL = ["rpl_semi_sync_slave_enabled", "rpl_semi_sync_slave_trace_level",
                   "rpl_semi_sync_master_wait_for_slave_count", "rpl_semi_sync_master_wait_point"]


def add_semisync(recs: dict[str, Rec], names: dict[str, str], with_renames: bool) -> None:
    for name in list(names) + SEMISYNC_MANUAL:
        plugin = "semisync_master" if name.startswith("rpl_semi_sync_master_") else "semisync_slave"
        # The sample server had semisync enabled: its values are not defaults.
        add_simple_plugin_vars(recs, plugin, {name: None})
        recs[name].kind = "bool" if name.endswith("_enabled") or name.endswith("wait_no_slave") else (
            "int" if name.endswith(("_timeout", "_trace_level", "_count")) else recs[name].kind)
        if name.endswith("wait_point"):
            recs[name].kind, recs[name].values = "enum", ["AFTER_SYNC", "AFTER_COMMIT"]
        recs[name].dynamic = True
        if with_renames:
            for old, new, plug in SEMISYNC_RENAMES:
                if name.startswith(old):
                    nn = new + name[len(old):]
                    nn = nn.replace("slave", "replica")
                    if nn not in recs:
                        recs[nn] = replace(recs[name], name=nn, plugin=plug)


VALIDATE_PASSWORD_RESULT = "mysql-8.0.41__enhancedformysql_mysql-8.0.41__mysql-test__r__validate_password_component.result"


def validate_password_vars(plugins_dir: Path) -> dict[str, str]:
    """validate_password.* names of the component (MySQL 8.0.41 test result). The first SHOW VARIABLES
    block follows a restart with non-default settings ("Case 1: Less than default value": length 12,
    mixed_case_count 5), so its values are kept as names and kinds only, not as defaults."""
    return parse_show_block(plugins_dir / VALIDATE_PASSWORD_RESULT, "show variables like 'validate_password%'")


def add_validate_password(recs: dict[str, Rec], names: dict[str, str], plugin_form: bool) -> None:
    for name, value in names.items():
        kind = "path" if name.endswith("dictionary_file") else (
            "enum" if name.endswith(".policy") else guess_kind_from_value(name, value) if value else "string")
        forms = [(name, "component_validate_password", "component (INSTALL COMPONENT 'file://component_validate_password')")]
        if plugin_form:
            forms.append((name.replace(".", "_"), "validate_password",
                          "deprecated validate_password plugin form; the component uses " + name))
        for n, plug, note in forms:
            if n in recs and not recs[n].plugin:
                continue
            recs[n] = Rec(n, kind=kind, values=["LOW", "MEDIUM", "STRONG", "0", "1", "2"] if kind == "enum" else [],
                          default=None, dynamic=True, sysvar=True,
                          plugin=plug, note=note)


def apply_plugin_prefixes(recs: dict[str, Rec], flavor: str, series: str) -> None:
    """Plugin names of variables a server listed while the plugin was loaded (SHOW VARIABLES captures)."""
    if flavor in ("mysql", "percona") and vtuple(series) < (8, 0):
        for r in recs.values():
            if r.name.startswith("mysqlx_") or r.name == "mysqlx":
                r.plugin = "mysqlx"  # a plugin in 5.7, built in from 8.0


# --------------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------------


# Facts with their sources: data/catalog-sources.tsv, one row per name and fact, read by `apply_facts` as
# each catalog is written. A MySQL row reaches Percona Server and PXC of the series too (their catalogs
# are layered on MySQL's), a Percona Server row PXC's.
SOURCES = Path(__file__).resolve().parent.parent / "data" / "catalog-sources.tsv"
FACT_FIELDS = {"kind", "values", "default", "min", "max", "block", "dynamic", "sysvar", "status", "since", "repl",
               "note", "plugin", "arg"}


@dataclass
class Fact:
    name: str
    targets: list[str]
    sets: dict[str, str]
    source: str
    release: str
    line: int


def load_facts(path: Path = SOURCES) -> list[Fact]:
    """The rows of the sources table: `name<TAB>targets<TAB>fields<TAB>source<TAB>release`, where targets
    are space-separated catalog names (mysql-8.0) and fields `key=value` pairs separated by `;`
    (`kind=bool;default=OFF;sysvar=N`). Every row must name its source."""
    facts: list[Fact] = []
    if not path.exists():
        return facts
    for i, raw in enumerate(path.read_text().splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        cols = raw.split("\t")
        if len(cols) != 5:
            raise SystemExit(f"{path.name}:{i}: expected 5 tab-separated columns, found {len(cols)}")
        name, targets, fields, source, release = (c.strip() for c in cols)
        sets: dict[str, str] = {}
        for item in filter(None, (f.strip() for f in fields.split(";"))):
            key, sep, value = item.partition("=")
            if not sep or key not in FACT_FIELDS:
                raise SystemExit(f"{path.name}:{i}: bad field {item!r} (known: {', '.join(sorted(FACT_FIELDS))})")
            sets[key] = value
        if not source:
            raise SystemExit(f"{path.name}:{i}: {name} has no source")
        facts.append(Fact(canon(name), targets.split(), sets, source, release, i))
    return facts


def apply_facts(recs: dict[str, Rec], target: str, facts: list[Fact] | None = None) -> int:
    """Apply the sources table's rows for `target` to its records (creating a record a row names that the
    raw data lacks). Returns how many rows applied."""
    n = 0
    for f in load_facts() if facts is None else facts:
        if target not in f.targets:
            continue
        r = recs.get(f.name)
        if r is None:
            r = recs[f.name] = Rec(f.name)
        for key, value in f.sets.items():
            if key in ("dynamic", "sysvar"):
                setattr(r, key, value == "Y")
            elif key == "values":
                r.values = [v for v in value.split(",") if v]
            elif key == "default":
                r.default = None if value == "\\N" else value
            else:
                setattr(r, key, value)
        # A row names a target that has the name: unless it says otherwise, it is there (a name the
        # predecessor series had is carried over as removed, a later series' as introduced, before the
        # rows are read); a deprecation stays.
        if "status" not in f.sets and r.status in ("removed", "introduced"):
            r.status = "current"
        if r.status == "current":
            r.since, r.repl = "", r.repl if "repl" in f.sets else ""
        n += 1
    return n


# Defaults that depend on the machine, its paths or its autosizing: recorded as absent.
MACHINE_DEPENDENT = {
    "hostname", "server_uuid", "server_uid", "version_compile_machine", "version_compile_os",
    "version_source_revision", "version_malloc_library", "version_ssl_library", "version_comment",
    "thread_pool_size", "open_files_limit", "thread_cache_size", "host_cache_size", "table_definition_cache",
    "innodb_buffer_pool_instances", "innodb_page_cleaners", "innodb_io_capacity_max",
    "large_page_size", "system_time_zone", "time_zone_unused", "innodb_version", "mysqlx_socket",
}


# How the server computes a machine-dependent default, where a series changed the computation (the upgrade
# advisor compares these when both defaults are computed): series -> name -> rule. Applies to MySQL, Percona
# Server and PXC of the series (one InnoDB). Source: MySQL 8.0 and 8.4 manuals, innodb_buffer_pool_instances
# (https://dev.mysql.com/doc/refman/8.4/en/innodb-parameters.html#sysvar_innodb_buffer_pool_instances).
COMPUTED_DEFAULTS: dict[str, dict[str, str]] = {
    "8.0": {"innodb_buffer_pool_instances": "8, or 1 when innodb_buffer_pool_size is below 1G"},
    "8.4": {"innodb_buffer_pool_instances":
            "1 when innodb_buffer_pool_size is at most 1G, else the smaller of (innodb_buffer_pool_size / "
            "innodb_buffer_pool_chunk_size) / 2 and a quarter of the logical CPUs, within 1-64"},
}


def write(out: Path, target: str, recs: dict[str, Rec], header: list[str], release: str, why: str) -> None:
    for r in recs.values():
        if r.kind == "path" or r.name in MACHINE_DEPENDENT:
            r.default = None
    # After the path defaults are cleared: a row may give one (log_bin's ON, the variable's value).
    applied = apply_facts(recs, target)
    added = [recs[n] for n in NEIGHBOURS_ADDED.get(id(recs), ()) if n in recs]
    if added:
        k = lambda st: sum(1 for r in added if r.status == st and r.note != DEBUG_NOTE)  # noqa: E731
        header = header + textwrap.wrap(
            f"other series: {k('removed')} names of older servers (removed since the series after the newest "
            f"output listing them), {k('introduced')} of newer ones (introduced in the series after the newest "
            f"output without them), {sum(1 for r in added if r.note == DEBUG_NOTE)} of debug builds only; from "
            + "; ".join(NEIGHBOURS_FROM.get(id(recs), [])), 100, subsequent_indent="  ")
    if applied:
        header = header + [f"facts: {applied} rows of data/catalog-sources.tsv (each with its public source)"]
    flavor, _, series = target.partition("-")
    if flavor in ("mysql", "percona", "pxc"):
        for name, rule in COMPUTED_DEFAULTS.get(series, {}).items():
            if name in recs and not recs[name].note:
                recs[name].note = "computed default: " + rule
    lines = [f"# mytune variable catalog: {target}"]
    lines.append(f"# release: {release} ({why})")
    lines += [f"# {h}" for h in header]
    lines.append("# columns: name kind min max block values default dynamic sysvar status since replacement note plugin arg")
    lines.append("# generated by scripts/gen-catalog.py; do not edit by hand")
    for name in sorted(recs):
        lines.append(recs[name].line())
    (out / f"{target}.tsv").write_text("\n".join(lines) + "\n")
    n_rem = sum(1 for r in recs.values() if r.status == "removed")
    n_dep = sum(1 for r in recs.values() if r.status == "deprecated")
    n_plug = sum(1 for r in recs.values() if r.plugin)
    print(f"{target}: {len(recs)} entries ({n_dep} deprecated, {n_rem} removed, {n_plug} from plugins), release {release}")


def capture_live(tmp: Path) -> tuple[Path, Path]:
    """Capture the installed MariaDB 10.11's help and SYSTEM_VARIABLES (read-only) into temp files."""
    import shutil
    import subprocess
    import tempfile

    mariadbd = shutil.which("mariadbd") or "/usr/sbin/mariadbd"
    helptext = subprocess.run([mariadbd, "--no-defaults", "--verbose", "--help"], capture_output=True,
                              text=True, timeout=60, check=True).stdout
    if " Ver 10.11." not in helptext.splitlines()[0]:
        raise SystemExit(f"--live: {mariadbd} is not MariaDB 10.11: {helptext.splitlines()[0]}")
    sysvars = subprocess.run(["mariadb", "-uroot", "-h127.0.0.1", "-B", "-e",
                              "SELECT * FROM information_schema.SYSTEM_VARIABLES"],
                             capture_output=True, text=True, timeout=60, check=True).stdout
    d = Path(tempfile.mkdtemp(prefix="gen-catalog-"))
    (d / "help.txt").write_text(helptext)
    (d / "sysvars.tsv").write_text(sysvars)
    return d / "help.txt", d / "sysvars.tsv"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", default=None, help="the shared/ directory (default: ../shared or /work/shared)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "data" / "catalog"))
    ap.add_argument("--live", action="store_true",
                    help="read MariaDB 10.11 from the installed server (mariadbd --verbose --help and "
                         "information_schema.SYSTEM_VARIABLES on 127.0.0.1) instead of the shared captures")
    args = ap.parse_args()
    root = Path(__file__).resolve().parent.parent
    shared = Path(args.shared) if args.shared else (root.parent / "shared")
    if not shared.is_dir():
        shared = Path("/work/shared")
    help_dir, sv_dir, dumps = shared / "catalog" / "help", shared / "catalog" / "sysvars", shared / "fixtures" / "dumps"
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    warnings: list[str] = []
    option_only = set(OPTION_ONLY_COMMON)

    # ---- MariaDB ------------------------------------------------------------------------------------
    m1011_sv_path = sv_dir / "mariadb-10.11.19_information_schema.SYSTEM_VARIABLES.tsv"
    m1011_help_path = help_dir / "mariadb-10.11.19_mariadbd--verbose--help.txt"
    m1011_origin = "the shared captures of"
    if args.live:
        m1011_help_path, m1011_sv_path = capture_live(out)
        m1011_origin = "the installed server (--live),"
    m1011_sv = parse_tsv_sysvars(m1011_sv_path)
    m1011_help = parse_help(m1011_help_path)
    m105 = build_mariadb_from_sysvars(parse_csv_sysvars(sv_dir / "mysqltuner-examples_mariadb-10.5.19_information_schema.SYSTEM_VARIABLES.csv"), None)
    m106_sv = parse_csv_sysvars(sv_dir / "mysqltuner-examples_mariadb-10.6.12_information_schema.SYSTEM_VARIABLES.csv")
    m106 = build_mariadb_from_sysvars(m106_sv, m1011_help)
    # help options of 10.11 that 10.6 lacks as sysvars are kept only if they are option-only in 10.11
    for name in list(m106):
        if not m106[name].sysvar and name in m1011_sv and name not in option_only:
            del m106[name]
    option_only_fixups(m106)
    carry_removed(m106, m105, lambda n: not n.startswith("wsrep"))
    # Every other real MariaDB server output here: the names they list and a catalog lacks are entries
    # (removed since, introduced since, or debug-build options), so a real variable list is never
    # "unknown". wsrep_* depend on the build (Galera), as in carry_removed.
    m_caps = [capture_of_sysvars(parse_csv_sysvars(sv_dir / f"mysqltuner-examples_mariadb-{v}_information_schema.SYSTEM_VARIABLES.csv"),
                                 tuple(int(x) for x in v.split(".")[:2]), f"SYSTEM_VARIABLES of MariaDB {v}")
              for v in ("10.2.44", "10.3.38", "10.4.28", "10.5.19", "10.6.12", "10.7.8", "10.8.7", "10.9.5")]
    m_caps.append(capture_of_help(help_dir / "mariadb-10.4.12-fork_mysqld--help.result", (10, 4), "mariadb"))
    for part in ("server_notembedded", "aria", "wsrep"):
        m_caps.append(capture_of_sysvars(parse_result_sysvars(sv_dir / f"mariadb-10.4.12-fork_sysvars_{part}.result"),
                                         (10, 4), f"sysvars_{part}.result of MariaDB 10.4.12"))
    m_caps.append(capture_of_sysvars(m1011_sv, (10, 11), "SYSTEM_VARIABLES of MariaDB 10.11.19"))
    m_caps.append(capture_of_help(m1011_help_path, (10, 11), "mariadb"))
    m_caps.append(capture_of_sysvars(parse_result_sysvars(sv_dir / "mariadb-11.0-or-11.1__MariaDB_server__sysvars_server_notembedded.result"),
                                     (11, 1), "sysvars_server_notembedded.result of MariaDB 11.0/11.1"))
    m_caps.append(capture_of_help(help_dir / "mariadb-12.x-dev__MariaDB_server__mysqld--help.result", (12, 0), "mariadb"))
    dbg104 = capture_of_sysvars(parse_result_sysvars(sv_dir / "mariadb-10.4.12-fork_sysvars_innodb.result"), (10, 4),
                                "sysvars_innodb.result of MariaDB 10.4.12 (a debug build)", debug=True)
    dbg12 = capture_of_sysvars(parse_result_sysvars(sv_dir / "mariadb-12.x-13.0dev__grooverdan_mariadb-server__sysvars_innodb.result"),
                               (12, 0), "sysvars_innodb.result of MariaDB 12.x (a debug build)", debug=True)
    m_caps += [dbg104, dbg12]
    release_names = set().union(*(c.names for c in m_caps if not c.debug), m1011_sv, m1011_help, m105)
    # Options only debug builds have: what the 10.4.12 debug result lists and no release server does (the
    # 10.4.28 capture is a release build of the same series), and the 12.x result's `*_debug` names.
    debug_names = frozenset(n for n in dbg104.names if n not in release_names) | frozenset(
        n for n in dbg12.names if n not in release_names and n.endswith("_debug"))
    m_dom = lambda n: not n.startswith("wsrep")  # noqa: E731
    m_counts: dict[str, tuple[int, int, int]] = {}
    m_counts["10.6"] = neighbours(m106, (10, 6), m_caps, "mariadb", m_dom, debug_names)
    warnings += apply_changes(m106, "mariadb", "10.6", [m105])
    write(out, "mariadb-10.6", m106, [
        "source: information_schema.SYSTEM_VARIABLES of MariaDB 10.6.12 (mysqltuner examples, major/MySQLTuner-perl)",
        "derived: option-only names (not system variables) from the MariaDB 10.11.19 --verbose --help output;",
        "  removed entries: names of the 10.5.19 dump absent from 10.6.12, plus the curated table (manual URLs in the script)",
        "plugin column empty throughout: the captured server's variables are all built in (wsrep_* and semisync too)",
    ], "10.6.12", "the captured server")

    m1011 = build_mariadb_from_sysvars(m1011_sv, m1011_help)
    option_only_fixups(m1011)
    carry_removed(m1011, m106, lambda n: not n.startswith("wsrep") and m106[n].status != "introduced"
                  and m106[n].note != DEBUG_NOTE)
    m_counts["10.11"] = neighbours(m1011, (10, 11), m_caps, "mariadb", m_dom, debug_names)
    warnings += apply_changes(m1011, "mariadb", "10.11", [m106, m105])
    write(out, "mariadb-10.11", m1011, [
        f"source: information_schema.SYSTEM_VARIABLES and `mariadbd --verbose --help` from {m1011_origin} MariaDB 10.11.19",
        "  (Debian 12 package, default settings, the server installed here); complete, InnoDB included",
        "removed entries: names of the 10.6 catalog absent from 10.11.19, plus the curated table (manual URLs in the script)",
        "plugin column empty throughout: a default server loads no plugin, and wsrep_* and rpl_semi_sync_* are",
        "  server variables in MariaDB (server_audit and other plugin variables are not in the capture)",
    ], "10.11.19", "the captured server")

    # 11.4: 10.11.19 + the 11.0/11.1 server sysvars (non-InnoDB) + the 12.x InnoDB sysvars + documented changes.
    m11_sv = parse_result_sysvars(sv_dir / "mariadb-11.0-or-11.1__MariaDB_server__sysvars_server_notembedded.result")
    m12_innodb = parse_result_sysvars(sv_dir / "mariadb-12.x-13.0dev__grooverdan_mariadb-server__sysvars_innodb.result")
    m114: dict[str, Rec] = {}

    for name, r in m1011.items():
        if name in NEIGHBOURS_ADDED.get(id(m1011), ()):
            continue  # other series' names: decided for 11.4 by neighbours() below
        if r.status == "removed":
            m114[name] = replace(r)
            continue
        if not r.sysvar:
            m114[name] = replace(r)
            continue
        # A name of 10.11.19 missing from the (older) 11.0/11.1 file is not evidence of removal:
        # 10.11 patch releases after that snapshot added variables (note_verbosity, analyze_max_length,
        # optimizer_max_sel_args, ...) that were merged into 11.4 too. Only curated removals apply.
        m114[name] = replace(r)
        if name in m11_sv:  # take the newer metadata (no DEFAULT_VALUE column there: keep 10.11's default)
            nr = from_mariadb_sysvar(name, m11_sv[name])
            nr.default = r.default
            nr.sysvar = True
            if r.status == "deprecated":
                nr.status = "deprecated"
            m114[name] = nr
    for name, r in m1011.items():  # curated notes/kinds of 10.11 carry over
        if name not in m114:
            continue
        nr = m114[name]
        if r.note and "no command-line form" not in r.note and nr.status != "removed":
            nr.note, nr.kind = r.note, r.kind
            nr.sysvar = r.sysvar
            if r.kind == "path":
                nr.values = []
    for name, d in m11_sv.items():
        if name not in m114:
            nr = from_mariadb_sysvar(name, d)
            nr.note = (nr.note + "; " if nr.note else "") + "new since 10.11; default not in the raw data"
            m114[name] = nr
    # Cross-check: a curated InnoDB removal must not reappear in the 12.x InnoDB list.
    for ch in CHANGES:
        if ch.flavor == "mariadb" and ch.status == "removed" and ch.name.startswith("innodb") and ch.name in m12_innodb:
            warnings.append(f"mariadb: {ch.name} curated as removed {ch.since} but present in the 12.x InnoDB list")
    m_counts["11.4"] = neighbours(m114, (11, 1), m_caps, "mariadb", m_dom, debug_names)
    warnings += apply_changes(m114, "mariadb", "11.4", [m1011, m106], derived=True)
    # Defaults the manual documents as changed after 10.11 (the derived data keeps 10.11's otherwise).
    for name, value, source in MARIADB_114_DEFAULTS:
        if name in m114 and m114[name].status != "removed":
            m114[name].default = value
        else:
            warnings.append(f"mariadb-11.4: curated default of {name} for a variable it does not have")
    write(out, "mariadb-11.4", m114, [
        "DERIVED (no raw list of 11.4 exists here): MariaDB 10.11.19 catalog, updated with the",
        "  11.0/11.1 sysvars_server_notembedded.result (MariaDB/server 0046cbec0399) for non-InnoDB variables",
        "  (newer metadata for shared names; new names added without defaults), the curated removals",
        "  of 11.0/11.1 and the curated default changes (manual URLs in the script); 11.2-11.4 additions",
        "  are not covered",
    ], "11.4.0", "patch level unknown: the data describes 11.0/11.1 changes only")

    # ---- MySQL --------------------------------------------------------------------------------------
    d57 = load_dump_vars(dumps / "mysql-5.7.41__major_MySQLTuner-perl__examples__github__result__mysql__5.7__result.json")
    d80 = load_dump_vars(dumps / "mysql-8.0.32__major_MySQLTuner-perl__examples__github__result__mysql__8__result.json")
    my57 = build_mysql("5.7", help_dir / "mysql-5.7.18_mysqld--help-notwin.result", d57, {}, m1011_sv, option_only)
    option_only_fixups(my57)

    plugins_dir = shared / "catalog" / "mysql-plugins"
    semisync = semisync_vars(dumps)
    vp_names = validate_password_vars(plugins_dir)
    gr_names = group_replication_vars(plugins_dir / "mysql-8.0.41__enhancedformysql_mysql-8.0.41__mysql-test__suite__group_replication__r__gr_variables_default_values.result")
    add_semisync(my57, semisync, with_renames=False)
    for n in vp_names:
        if n != "validate_password.changed_characters_percentage":  # added in 8.0.34 (component only)
            add_validate_password(my57, {n: vp_names[n]}, plugin_form=True)
            my57.pop(n, None)  # 5.7 has the plugin only
    apply_plugin_prefixes(my57, "mysql", "5.7")
    # Every real MySQL server output here, as for MariaDB: older servers' names are removed entries, newer
    # servers' names introduced ones (5.5.21: percona-toolkit's SHOW VARIABLES sample; 5.6.51: mysqltuner).
    my_caps = [
        capture_of_values(load_tab_vars(dumps / SEMISYNC_SAMPLE), (5, 5), "SHOW VARIABLES of MySQL 5.5.21"),
        capture_of_values(load_dump_vars(dumps / "mysql-5.6.51__major_MySQLTuner-perl__examples__github__result__mysql__5.6__result.json"),
                          (5, 6), "SHOW VARIABLES of MySQL 5.6.51"),
        capture_of_help(help_dir / "mysql-5.7.18_mysqld--help-notwin.result", (5, 7), "mysql"),
        capture_of_values(d57, (5, 7), "SHOW VARIABLES of MySQL 5.7.41"),
        capture_of_help(help_dir / "mysql-8.0.41_mysqld--help-notwin.result", (8, 0), "mysql"),
        capture_of_values(d80, (8, 0), "SHOW VARIABLES of MySQL 8.0.32"),
        capture_of_help(help_dir / "mysql-8.4.x-planetscale-fork__planetscale_mysql-server__mysqld--help-notwin.result", (8, 4), "mysql"),
        capture_of_help(help_dir / "mysql-9.x__AKJUS_mysql-server__mysqld--help-notwin.result", (9, 0), "mysql"),
    ]
    my_counts = {"5.7": neighbours(my57, (5, 7), my_caps, "mysql")}
    warnings += apply_changes(my57, "mysql", "5.7", [])
    write(out, "mysql-5.7", my57, [
        "source: mysqld --verbose --help of MySQL 5.7.18 (mysql-test mysqld--help-notwin.result, lalor/mysql-5.7.18)",
        "  + SHOW VARIABLES of MySQL 5.7.41 (mysqltuner example result.json): system-variable flag, InnoDB and",
        "  performance_schema names/defaults the help file leaves out",
        "curated: enum values, ranges of common variables, dynamic flags (MariaDB 10.11 READ_ONLY for shared",
        "  names, else the script's MySQL tables), deprecations/removals (manual URLs in the script)",
        "plugins: semisync_master/semisync_slave (rpl_semi_sync_*: names of the percona-toolkit 5.5.21 semisync",
        "  sample + the MySQL manual's semisync page), validate_password (validate_password_* plugin names, from",
        "  the 8.0.41 component result's names), no defaults for either",
    ], "5.7.41", "the SHOW VARIABLES capture")

    my80 = build_mysql("8.0", help_dir / "mysql-8.0.41_mysqld--help-notwin.result", d80, {}, m1011_sv, option_only)
    option_only_fixups(my80)
    carry_removed(my80, my57, lambda n: n.startswith(("innodb", "performance_schema")) or n in my57 and n not in d57 or n in d57)
    add_semisync(my80, semisync, with_renames=True)
    add_validate_password(my80, vp_names, plugin_form=True)
    add_simple_plugin_vars(my80, "group_replication", gr_names)
    my_counts["8.0"] = neighbours(my80, (8, 0), my_caps, "mysql")
    warnings += apply_changes(my80, "mysql", "8.0", [my57])
    write(out, "mysql-8.0", my80, [
        "source: mysqld --verbose --help of MySQL 8.0.41 (mysql-test result, enhancedformysql/mysql-8.0.41)",
        "  + SHOW VARIABLES of MySQL 8.0.32 (mysqltuner example result.json): system-variable flag, InnoDB and",
        "  performance_schema names/defaults the help file leaves out",
        "removed entries: names of the 5.7 catalog absent here (since unknown unless curated) + curated table",
        "curated: enum values, ranges of common variables, dynamic flags, deprecations/removals (URLs in the script)",
        "plugins: group_replication (names and defaults of mysql-test gr_variables_default_values.result of 8.0.41),",
        "  component_validate_password (validate_password.* names of validate_password_component.result of 8.0.41;",
        "  no defaults: its first SHOW VARIABLES block follows a restart with non-default values) and the",
        "  deprecated validate_password plugin (validate_password_* names), semisync_master/semisync_slave and",
        "  8.0.26's semisync_source/semisync_replica (rpl_semi_sync_*: percona-toolkit 5.5.21 sample names + the",
        "  manual's semisync page); mysqlx_* are built in (empty plugin column)",
    ], "8.0.41", "the help file's release")

    h80 = parse_help(help_dir / "mysql-8.0.41_mysqld--help-notwin.result")
    help84 = help_dir / "mysql-8.4.x-planetscale-fork__planetscale_mysql-server__mysqld--help-notwin.result"
    h84 = parse_help(help84)
    # 8.0.32's SHOW VARIABLES stands in for 8.4's, minus what the 8.4 help file no longer lists.
    d84 = {n: v for n, v in d80.items() if not (n in h80 and n not in h84)}
    for n, o in h84.items():
        if n not in d80 and n not in option_only and o.in_defaults:
            d84[n] = o.default or ""
    innodb84 = {}
    for n, k in MYSQL_84_INNODB_NEW:
        innodb84[n] = "ON" if k == "bool" else "0"
    my84 = build_mysql("8.4", help84, d84, innodb84, m1011_sv, option_only)
    for n, v in MYSQL_84_DEFAULTS.items():
        if n in my84:
            my84[n].default = v
    option_only_fixups(my84)
    carry_removed(my84, my80, lambda n: (n in h80 and n not in h84) or my80[n].status == "removed")
    semisync84 = {n: v for n, v in semisync.items()}
    add_semisync(my84, semisync84, with_renames=True)
    for n in [n for n, r in my84.items() if r.plugin in ("semisync_master", "semisync_slave")]:
        del my84[n]  # 8.4 keeps the source/replica plugins only (MySQL 8.4 manual, semisync page)
    add_validate_password(my84, vp_names, plugin_form=False)
    add_simple_plugin_vars(my84, "group_replication", gr_names, note="derived from MySQL 8.0.41")
    if "mysql_native_password" in my84:
        r = my84["mysql_native_password"]
    else:
        r = my84["mysql_native_password"] = Rec("mysql_native_password")
    r.kind, r.values, r.default, r.sysvar, r.dynamic = "enum", ["ON", "OFF", "FORCE", "FORCE_PLUS_PERMANENT"], "OFF", False, False
    r.note = ("plugin-load option of the built-in, disabled-by-default mysql_native_password plugin; added in 8.4.0 "
              "(mysql-plugins/mysql-8.4_mysql_native_password__notes.txt)")
    my_counts["8.4"] = neighbours(my84, (8, 4), my_caps, "mysql")
    warnings += apply_changes(my84, "mysql", "8.4", [my80, my57], derived=True)
    write(out, "mysql-8.4", my84, [
        "source: mysqld --verbose --help of a MySQL 8.4 LTS fork (planetscale/mysql-server 1142107e7463; no",
        "  fork-only options seen, patch level unknown)",
        "DERIVED: system-variable flag, InnoDB and performance_schema names from MySQL 8.0.32 SHOW VARIABLES,",
        "  minus the curated 8.1-8.4 removals, plus curated 8.4 default changes (manual URLs in the script);",
        "  names of the 8.0 catalog absent here are marked removed (since unknown unless curated)",
        "plugins: as mysql-8.0 (group_replication names derived from 8.0.41), semisync_source/semisync_replica only,",
        "  component_validate_password only; mysql_native_password: the 8.4 plugin-load option (MySQL 8.4 manual,",
        "  Native Pluggable Authentication), built in and OFF by default",
    ], "8.4.0", "patch level of the help file unknown: the LTS's first release")

    # ---- Percona Server -----------------------------------------------------------------------------
    pdir, pxdir = shared / "catalog" / "percona", shared / "catalog" / "pxc"
    p80_help_path = pdir / "percona-server-8.0.27-18__session-replay-tools_percona-server-8.0.27-18__mysql-test__r__mysqld--help-notwin.result"
    p80_rocksdb_path = pdir / "percona-server-8.0.27-18__session-replay-tools_percona-server-8.0.27-18__mysql-test__suite__rocksdb__r__rocksdb.result"
    p80_audit_path = pdir / "percona-server-8.0.27-18__session-replay-tools_percona-server-8.0.27-18__plugin__audit_log__tests__mtr__audit_log_new.result"
    p80_audit_opt = pdir / "percona-server-8.0.27-18__session-replay-tools_percona-server-8.0.27-18__plugin__audit_log__tests__mtr__audit_log_new-master.opt"
    p80_index_path = pdir / "percona-server-8.0-docs__percona_psmysql-docs__docs__ps-variables.md"
    p80_myrocks_doc = pdir / "percona-server-8.0-docs__percona_psmysql-docs__docs__variables.md"
    p80_alf_doc = pdir / "percona-server-8.0-docs__percona_psmysql-docs__docs__audit-log-filter-variables.md"
    p80_gr_doc = pdir / "percona-server-8.0-docs__percona_psmysql-docs__docs__group-replication-system-variables.md"
    feature_pages = sorted(pdir.glob("percona-server-8.4-docs__*.md"))
    feature_pages = [f for f in feature_pages if not re.search(
        r"myrocks-server-variables|audit-log-filter-variables|group-replication-system-variables|percona-server-system-variables", f.name)]
    feature_docs: dict[str, DocVar] = {}
    for f in feature_pages:
        feature_docs.update(parse_doc_vars(f))
    audit_opt_names = {canon(m) for m in re.findall(r"--([a-z_-]+)=", p80_audit_opt.read_text())}

    def build_percona(series: str, help_path: Path | None, base: dict[str, Rec], dump: dict[str, str] | None,
                      index_path: Path, add_feature_names: bool,
                      docs: dict[str, DocVar] | None = None) -> dict[str, Rec]:
        """Percona Server on the MySQL catalog of its series: the help output's own options (when there
        is one), the variable index, the curated table, the feature pages (`docs`, default: the 8.4
        feature pages as read for 5.7/8.0). Without a help output only names the docs list are added."""
        recs = {n: replace(r, values=list(r.values)) for n, r in base.items()}
        if help_path is not None:
            hp = parse_help(help_path)
            ph = build_mysql(series, help_path, dump, {}, m1011_sv, option_only)
            for name, r in ph.items():
                if name in recs and recs[name].status not in ("removed", "introduced"):
                    continue
                r.sysvar = hp[name].in_defaults and name not in option_only if name in hp else r.sysvar
                recs[name] = r
        th = recs.get("thread_handling")
        if th:
            th.values = ["one-thread-per-connection", "no-threads", "pool-of-threads"]
            th.note = "pool-of-threads: Percona Server's built-in thread pool"
        index = parse_index_table(index_path)
        index_only: list[str] = []  # names the index adds (it gives no type)
        for name, row in index.items():
            plugin = next((p for pre, p in PERCONA_PLUGIN_PREFIXES if name.startswith(pre)), "")
            if name.startswith("rocksdb_"):
                continue
            r = recs.get(name)
            if r is None or (r.status == "removed" and plugin) or r.status == "introduced":
                r = rec_from_index(name, row)
                r.plugin = plugin
                recs[name] = r
                index_only.append(name)
            elif r.status != "removed":
                r.sysvar = True
                r.dynamic = bool(doc_bool(row.get("dynamic")))
        for name, kind, lo, hi, values, default, dyn, note in PERCONA_80_ADDITIONS:
            if name in recs and recs[name].kind != "string" or name not in recs and vtuple(series) < (8, 0) and name.startswith("thread_pool_high_prio_mode"):
                continue
            if help_path is None and (name not in recs or recs[name].status == "removed"):
                continue  # no help output: the curated table only types what the docs list
            old = recs.get(name)
            recs[name] = Rec(name, kind=kind, min="" if lo is None else str(lo), max="" if hi is None else str(hi),
                             values=list(values or []), default=default if default is not None or old is None else old.default,
                             dynamic=dyn, sysvar=True, note=note or "")
        merge_doc_facts(recs, feature_docs if docs is None else docs, add_missing=add_feature_names,
                        untyped=frozenset(index_only) if help_path is None else frozenset())
        if "log_query_errors" in recs:  # error codes, comma-separated, or ALL
            recs["log_query_errors"].kind = "string"
        return recs

    p80 = build_percona("8.0", p80_help_path, my80, d80, p80_index_path, add_feature_names=False)
    rocks80 = parse_show_block(p80_rocksdb_path, "show variables where variable_name like 'rocksdb%'")
    rocks_docs80 = {n: d for n, d in parse_doc_vars(p80_myrocks_doc).items() if n.startswith("rocksdb_")}
    add_plugin_vars(p80, "rocksdb", rocks80, rocks_docs80)
    audit80 = parse_show_block(p80_audit_path, "show variables like 'audit_log%'")
    add_plugin_vars(p80, "audit_log", audit80, {}, parse_index_table(p80_index_path), skip_defaults=audit_opt_names)
    alf80 = {n: d for n, d in parse_doc_vars(p80_alf_doc).items() if n.startswith("audit_log_filter")}
    add_plugin_vars(p80, "audit_log_filter", {}, alf80)
    add_plugin_vars(p80, "group_replication", {}, parse_doc_vars(p80_gr_doc))
    warnings += apply_changes(p80, "percona", "8.0", [my80], derived=True)
    write(out, "percona-8.0", p80, [
        "source: mysqld --verbose --help of Percona Server 8.0.27-18 (mysql-test mysqld--help-notwin.result,",
        "  session-replay-tools/percona-server-8.0.27-18 8387a53b9313): options, argument kinds, defaults",
        "  + plugin rocksdb: SHOW VARIABLES LIKE 'rocksdb%' of the same tree's mysql-test/suite/rocksdb/r/rocksdb.result",
        "    and Percona's MyRocks variable page (percona/psmysql-docs 8.0 docs/variables.md: types, defaults, dynamic)",
        "  + plugin audit_log: SHOW VARIABLES LIKE 'audit_log%' of plugin/audit_log/tests/mtr/audit_log_new.result",
        "    (values set by its -master.opt are not taken as defaults)",
        "  + plugin audit_log_filter: docs/audit-log-filter-variables.md (8.0 docs)",
        "  + Percona's variable index (8.0 docs/ps-variables.md: names, option-file use, dynamic) and the feature",
        "    pages of the 8.4 docs (binlog-space, kill-idle-trx, slowlog-rotation, encrypt-temporary-files,",
        "    jemalloc-profiling, threadpool, utility-user, user-stats, proxy-protocol-support, slow-extended,",
        "    innodb-show-status, xtradb-performance-improvements, restrict-dynamic-log-locations) for defaults",
        "    and dynamic flags of the names 8.0 has; plugin group_replication: Percona's GR page (8.0 docs)",
        "LAYERED ON the mysql-8.0 catalog: InnoDB and performance_schema names, MySQL 8.0.28+ names, plugin",
        "  names of group_replication / validate_password / semisync (see that file's header)",
        "curated: thread pool table (threadpool docs); extra_port / extra_max_connections removed since 8.0.14",
    ], "8.0.36", "the newest Percona Server 8.0 release its 8.0 docs name (8.0.36-28); the MySQL layer is 8.0.41's")

    # Percona Server 5.7: its 5.7.22-22 help + MyRocks block + the 5.7 variable index, on mysql-5.7.
    p57_dir = "percona-server-5.7.22-22-fork__gaopengcarl_percona-server-locks-detail-5.7.22__mysql-test__"
    p57 = build_percona("5.7", pdir / f"{p57_dir}r__mysqld--help-notwin.result", my57, d57,
                        pdir / "percona-server-5.7-docs__percona_psmysql-docs__docs__ps-variables.md",
                        add_feature_names=False)
    rocks57 = parse_show_block(pdir / f"{p57_dir}suite__rocksdb__r__rocksdb.result",
                               "show variables where variable_name like 'rocksdb%'")
    add_plugin_vars(p57, "rocksdb", rocks57, {})
    pxc56_help = pxdir / "pxc-5.6.22-25.8__maginatics_pxc-from-apt-source__mysql-test__r__mysqld--help-notwin.result"
    p_caps = [capture_of_values(load_tab_vars(dumps / f), (5, 5), f"SHOW VARIABLES of Percona Server {v}")
              for f, v in (("percona-5.5.20__percona_percona-toolkit__t__pt-mysql-summary__samples__temp002__mysql-variables", "5.5.20"),
                           ("percona-5.5.23__percona_percona-toolkit__t__pt-mysql-summary__samples__percona-server-5.5-variables", "5.5.23"))]
    # PXC 5.6.22's help: Percona Server 5.6's options (XtraDB's included) plus Galera's.
    p_caps.append(capture_of_help(pxc56_help, (5, 6), "percona"))
    p_counts = neighbours(p57, (5, 7), p_caps, "mysql", lambda n: not n.startswith("wsrep"))
    warnings += apply_changes(p57, "percona", "5.7", [my57], derived=True)
    write(out, "percona-5.7", p57, [
        "source: mysqld --verbose --help of Percona Server 5.7.22-22 (mysql-test mysqld--help-notwin.result of",
        "  gaopengcarl/percona-server-locks-detail-5.7.22 2f8823f2d654; the fork's *gaopeng* options are not in it)",
        "  + plugin rocksdb: SHOW VARIABLES LIKE 'rocksdb%' of the same tree's mysql-test/suite/rocksdb/r/rocksdb.result",
        "  + Percona's 5.7 variable index (percona/psmysql-docs 05ea43782bd7 docs/ps-variables.md: names, dynamic;",
        "    audit_log_*, tokudb_*, query_response_time_*, keyring_vault_* as plugins)",
        "  + the 8.4 feature pages for defaults and dynamic flags of names 5.7 has",
        "LAYERED ON the mysql-5.7 catalog: InnoDB and performance_schema names (5.7.41), plugin names",
    ], "5.7.31", "the newest Percona Server 5.7 release its 5.7 docs name (5.7.31-34); the MySQL layer is 5.7.41's")

    # Percona Server 8.4: no help output or SHOW VARIABLES of an 8.4 server is at hand, so the MySQL layer
    # is the mysql-8.4 catalog and Percona's own names are those its 8.4 documentation lists: the variable
    # index (names, option-file use, dynamic), the feature pages (types, defaults; names they describe that
    # the index lacks are added), the MyRocks, audit-log-filter and group replication pages (plugins).
    # Percona 8.0's names do not carry over: only what the 8.4 docs or the MySQL 8.4 layer have.
    def p84_page(page: str) -> Path:
        return pdir / f"percona-server-8.4-docs__percona_psmysql-docs__docs__{page}.md"

    p84_index_path = p84_page("percona-server-system-variables")
    p84_index = parse_index_table(p84_index_path)
    feature_docs84: dict[str, DocVar] = {}
    for f in feature_pages:
        feature_docs84.update(parse_doc_vars(f, names=frozenset(p84_index), bullets=True))
    p84 = build_percona("8.4", None, my84, None, p84_index_path, add_feature_names=True, docs=feature_docs84)
    # restrict-dynamic-log-locations: prose only ("the directory name as a string", read-only)
    if "secure_log_path" in p84:
        p84["secure_log_path"].kind = "path"
    rocks_docs84 = {n: d for n, d in parse_doc_vars(p84_page("myrocks-server-variables")).items()
                    if n.startswith("rocksdb_")}
    add_plugin_vars(p84, "rocksdb", {}, rocks_docs84)
    # 8.4's audit log filter is a component ("the audit log filter component", variables audit_log_filter.*)
    alf84 = {n: d for n, d in parse_doc_vars(p84_page("audit-log-filter-variables")).items()
             if n.startswith("audit_log_filter")}
    add_plugin_vars(p84, "component_audit_log_filter", {}, alf84)
    gr84 = parse_doc_vars(p84_page("group-replication-system-variables"))
    add_plugin_vars(p84, "group_replication", {}, gr84)
    lifecycle84: dict[str, tuple[str, str]] = {}
    for f in sorted(pdir.glob("percona-server-8.4-docs__*.md")):
        lifecycle84.update(doc_lifecycle(f))
    for name, (status, since) in lifecycle84.items():
        r = p84.get(name)
        if r is None:
            warnings.append(f"percona-8.4: the docs say {name} is {status} but list no such variable")
            continue
        r.status, r.since = status, since
        if status == "removed":
            r.dynamic = False
    warnings += apply_changes(p84, "percona", "8.4", [my84, p80], derived=True)
    # Percona's own names of percona-8.0 (not its MySQL layer's) that the 8.4 docs do not list: left out,
    # and named in the header.
    dropped: dict[str, list[str]] = {}
    for name, r in sorted(p80.items()):
        if name not in p84 and name not in my80 and r.status != "removed":
            dropped.setdefault(r.plugin, []).append(name)
    dropped_plugins = ", ".join(f"{plug} ({len(ns)})" for plug, ns in sorted(dropped.items()) if plug)
    dropped_builtin = dropped.get("", [])
    write(out, "percona-8.4", p84, [
        "source: Percona Server 8.4 documentation (percona/psmysql-docs 0e9095470a35): the variable index",
        "  docs/percona-server-system-variables.md (names, option-file use, dynamic; keyring_vault_* and",
        "  query_response_time_* as plugins) + the feature pages binlog-space, kill-idle-trx, slowlog-rotation,",
        "  encrypt-temporary-files, jemalloc-profiling, threadpool, utility-user, user-stats, proxy-protocol-support,",
        "  slow-extended, innodb-show-status, xtradb-performance-improvements, restrict-dynamic-log-locations",
        "  (types, defaults, dynamic; names they describe that the index lacks are added)",
        "  + plugin rocksdb: docs/myrocks-server-variables.md (names, types, defaults, dynamic)",
        "  + component component_audit_log_filter: docs/audit-log-filter-variables.md (audit_log_filter.* names)",
        "  + plugin group_replication: Percona's 4 names of docs/group-replication-system-variables.md",
        "  deprecated/removed: what those pages say (\"This variable is removed in Percona Server for MySQL 8.2.0-1\")",
        "LAYERED ON the mysql-8.4 catalog (see its header; no Percona 8.4 server output was available):",
        "  MySQL names, InnoDB and performance_schema names, MySQL plugins (group_replication, semisync, validate_password)",
        "curated: the script's Percona table (kinds, ranges, enum values: thread pool, slow log, XtraDB) for the",
        "  names the 8.4 index lists; thread_handling takes pool-of-threads (threadpool page) in place of MySQL's",
        "  loaded-dynamically, as Percona 8.0.27's help has it; secure_log_path is a directory (prose of its page);",
        "  extra_port / extra_max_connections removed since 8.0.14 (the 8.4 index still lists them)",
        *textwrap.wrap("Percona names of percona-8.0 not carried over (absent from the 8.4 docs read here; "
                       f"whether 8.4 removed them the data does not say): plugins {dropped_plugins} "
                       "(audit_log_filter: 8.0's plugin names; 8.4 has the component's audit_log_filter.*); "
                       f"built in: {', '.join(dropped_builtin)}", 100, subsequent_indent="  "),
    ], "8.4.0", "no Percona Server 8.4 release is named by the data: the LTS's first release, as mysql-8.4")

    # ---- Percona XtraDB Cluster ---------------------------------------------------------------------
    x80_docs = parse_doc_vars(pxdir / "pxc-8.0-docs__percona_pxc-docs__docs__wsrep-system-index.md", keep_bare=True)
    x80 = {n: replace(r, values=list(r.values)) for n, r in p80.items()}
    added = merge_doc_facts(x80, x80_docs, add_missing=True)
    warnings += apply_changes(x80, "percona", "8.0", [p80], derived=True)
    write(out, "pxc-8.0", x80, [
        "source: the percona-8.0 catalog (see its header) + PXC's wsrep variable index (percona/pxc-docs",
        "  6c98e3377ceb docs/wsrep-system-index.md: names, command line, scope, dynamic, defaults);",
        f"  {len(added)} names added, built into PXC's server (empty plugin column)",
    ], "8.0.33", "the newest PXC 8.0 release its docs name (8.0.33-25)")

    # PXC 8.4: built as pxc-8.0 is, on percona-8.4, from the 8.4 wsrep variable index.
    x84_docs = parse_doc_vars(pxdir / "pxc-8.4-docs__percona_pxc-docs__docs__wsrep-system-index.md", keep_bare=True)
    x84 = {n: replace(r, values=list(r.values)) for n, r in p84.items()}
    added = merge_doc_facts(x84, x84_docs, add_missing=True)
    warnings += apply_changes(x84, "percona", "8.4", [p84], derived=True)
    write(out, "pxc-8.4", x84, [
        "source: the percona-8.4 catalog (see its header) + PXC's wsrep variable index (percona/pxc-docs",
        "  d0b09a71fd80 docs/wsrep-system-index.md: names, command line, scope, dynamic, defaults);",
        f"  {len(added)} names added, built into PXC's server (empty plugin column)",
    ], "8.4.0", "no PXC 8.4 release is named by its docs: the LTS's first release, as percona-8.4")

    # PXC 5.7: built as pxc-8.0 is, on percona-5.7, from the 5.7 wsrep variable index; the PXC 5.6.22
    # help output (the only real PXC server output here) gives the argument kind of the names the index
    # gives no default for (its defaults are 5.6's and not taken).
    x57_docs = parse_doc_vars(pxdir / "pxc-5.7-docs__percona_pxc-docs__docs__wsrep-system-index.md", keep_bare=True)
    x57 = {n: replace(r, values=list(r.values)) for n, r in p57.items()}
    added = merge_doc_facts(x57, x57_docs, add_missing=True)
    h56 = parse_help(pxdir / "pxc-5.6.22-25.8__maginatics_pxc-from-apt-source__mysql-test__r__mysqld--help-notwin.result")
    kinds56 = 0
    for name in added:
        h = h56.get(name)
        if h is None or x57[name].default is not None or x57[name].kind != "string":
            continue
        x57[name].kind = from_help(name, h, "percona").kind
        kinds56 += 1
    x_caps = [capture_of_values(load_tab_vars(dumps / "pxc-5.5.28__percona_percona-toolkit__t__pt-mysql-summary__samples__temp006__mysql-variables"),
                                (5, 5), "SHOW VARIABLES of PXC 5.5.28"),
              capture_of_help(pxc56_help, (5, 6), "percona")]
    x_counts = neighbours(x57, (5, 7), x_caps, "mysql")
    warnings += apply_changes(x57, "percona", "5.7", [p57], derived=True)
    write(out, "pxc-5.7", x57, [
        "source: the percona-5.7 catalog (see its header) + PXC's wsrep variable index (percona/pxc-docs",
        "  eb89b4c37051 docs/wsrep-system-index.md: names, command line, scope, dynamic, defaults);",
        f"  {len(added)} names added, built into PXC's server (empty plugin column); for the {kinds56} of them",
        "  the index gives no default, the argument kind (flag / number / text) of mysqld --help of PXC 5.6.22-25.8",
        "  (mysql-test mysqld--help-notwin.result, maginatics/pxc-from-apt-source d8b330a985f7; its 5.6 defaults",
        "  are not taken)",
    ], "5.7.24", "the newest PXC 5.7 release its docs name (5.7.24-31.33); the Percona layer is percona-5.7's")
    for w in warnings:
        print("warning:", w, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
