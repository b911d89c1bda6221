//! Plugins and the options they bring: which MariaDB plugins stop the start
//! when their options cannot be read, which storage engines are built in,
//! which options need a key-management plugin or the binary log.

use super::{Effect, Judgement, LineContext, Reason};
use crate::catalog::{Catalog, VarInfo};
use crate::target::{Dialect, Version};

/// Plugins whose options failing to parse stops the start: the plugin is
/// disabled, and the server cannot run without it.
pub(in crate::catalog) const FATAL_PLUGINS: &[&str] = &["innodb", "aria"];

/// Option-name prefixes that belong to a plugin's own option list (parsed
/// after the server's), MariaDB.
pub(in crate::catalog) const MARIADB_PLUGIN_PREFIXES: &[&str] = &["innodb", "aria", "feedback"];

/// The MariaDB plugin whose option list holds `name`, if not the server's.
pub(in crate::catalog) fn mariadb_plugin(name: &str) -> Option<&'static str> {
    MARIADB_PLUGIN_PREFIXES
        .iter()
        .find(|p| name.starts_with(*p) && name[p.len()..].starts_with('_'))
        .copied()
}

impl Catalog {
    /// MariaDB ≥ 10.7 compresses InnoDB pages with lz4, lzo, lzma, bzip2
    /// or snappy only through a provider plugin (`provider_lz4`, …); without
    /// it InnoDB fails to start ("compression algorithm … is not
    /// available. Please, load the corresponding provider plugin").
    pub(in crate::catalog) fn needs_provider<'c>(
        &'c self,
        info: &'c VarInfo,
        value: &str,
        ctx: &LineContext,
    ) -> Option<Judgement<'c>> {
        if self.target().dialect() != Dialect::Mariadb
            || info.name != "innodb_compression_algorithm"
            || self.target().version < Version::new(10, 7, 0)
        {
            return None;
        }
        let v = value.to_ascii_lowercase();
        if v == "none" || v == "zlib" || ctx.plugins.contains(&format!("provider_{v}")) {
            return None;
        }
        Some(Judgement {
            effect: Effect::Refuses,
            message: format!(
                "innodb_compression_algorithm = {value} needs the provider_{v} plugin \
                 (plugin-load-add = provider_{v}), or InnoDB does not start; the server will not start"
            ),
            reason: Reason::BadValue,
            var: Some(info),
        })
    }
}

/// Storage-engine plugins built into MySQL 5.7/8.x and Percona Server but
/// off or optional, each with its `--NAME[=ON|OFF|FORCE]` enable option
/// (`skip-federated`). The MySQL test-suite help output the catalogs come
/// from leaves plugin options out, so they are listed here, from the MySQL
/// Reference Manual's "Alternative Storage Engines" chapter.
pub(in crate::catalog) const MYSQL_BUILTIN_ENGINE_PLUGINS: &[&str] =
    &["federated", "archive", "blackhole", "mrg_myisam"];

impl Catalog {
    /// `skip_log_bin`, `skip_ssl`, `disable_log_bin`: a modifier and an
    /// option, listed so a line using them is known, but no option name of
    /// their own to MariaDB's parser (its `--help` has no `--skip-log-bin`).
    pub(in crate::catalog) fn is_modifier_form(&self, v: &VarInfo) -> bool {
        if self.target().dialect() != Dialect::Mariadb || v.sysvar {
            return false;
        }
        ["skip_", "disable_", "enable_"].iter().any(|p| {
            v.name
                .strip_prefix(p)
                .is_some_and(|rest| self.get(rest).is_some())
        })
    }

    /// An enable option of a built-in plugin the catalog does not list.
    pub(in crate::catalog) fn is_builtin_plugin_option(&self, name: &str) -> bool {
        self.target().dialect() != Dialect::Mariadb && MYSQL_BUILTIN_ENGINE_PLUGINS.contains(&name)
    }
}

/// MariaDB encrypts temporary files, and InnoDB its tables, redo log and
/// temporary tables, only with a key management plugin loaded; without one
/// the server stops ("Failed to enable encryption of temporary files";
/// "InnoDB: cannot enable encryption, encryption plugin is not available",
/// and InnoDB is the default engine). (`encrypt_binlog = ON` starts
/// without one: the full differential run showed it.)
pub(in crate::catalog) const MARIADB_NEEDS_KEY_MANAGEMENT: &[&str] = &[
    "encrypt_tmp_files",
    "innodb_encrypt_tables",
    "innodb_encrypt_log",
    "innodb_encrypt_temporary_tables",
];

/// Key management plugins (MariaDB Knowledge Base, "Encryption Key
/// Management").
pub(in crate::catalog) const MARIADB_KEY_MANAGEMENT_PLUGINS: &[&str] = &[
    "file_key_management",
    "hashicorp_key_management",
    "aws_key_management",
    "example_key_management",
];

/// Options the server starts with but warns about, because they act only
/// with another one: MariaDB warns "You need to use --log-bin to make
/// --binlog-format work" (and the same for these), checked by the
/// differential test.
pub(in crate::catalog) const MARIADB_NEEDS_LOG_BIN: &[&str] = &[
    "binlog_format",
    "log_slave_updates",
    "expire_logs_days",
    "binlog_expire_logs_seconds",
];

impl Catalog {
    /// Does the server warn when the binary log is on without a name
    /// (`log_bin` bare or empty, `flashback` alone) and neither
    /// `log_basename` nor `log_bin_index` names it? MariaDB does ("No
    /// argument was provided to --log-bin ..."), checked by the
    /// differential test.
    pub fn warns_unnamed_binlog(&self) -> bool {
        self.target().dialect() == Dialect::Mariadb
    }

    /// The option `name` needs to have any effect, when the server warns
    /// about it standing alone (MariaDB: the binary log's settings without
    /// `log_bin`).
    pub fn requires(&self, name: &str) -> Option<&'static str> {
        (self.target().dialect() == Dialect::Mariadb && MARIADB_NEEDS_LOG_BIN.contains(&name))
            .then_some("log_bin")
    }
}
