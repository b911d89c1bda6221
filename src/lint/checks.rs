//! The option-file checks `mytune lint` runs before any tuning rule: does the
//! server read this file the way its author meant? These are facts about the
//! file and the target's variable catalog, not tuning heuristics, so they live
//! here rather than in a TOML rule; each has a stable code in the MT0xx range
//! and is documented by `mytune explain` like a rule.

use crate::rules::Code;
use crate::rules::Severity;
pub use crate::rules::builtin_check::Check;

const OPTION_FILES: &str = "https://dev.mysql.com/doc/refman/8.0/en/option-files.html";
const OPTION_MODIFIERS: &str = "https://dev.mysql.com/doc/refman/8.0/en/option-modifiers.html";
const MARIADB_OPTION_FILES: &str =
    "https://mariadb.com/kb/en/configuring-mariadb-with-option-files/";

pub const SYNTAX_ERROR: Check = Check {
    code: Code::from_static("MT001"),
    name: "option-file-syntax-error",
    severity: Severity::Crit,
    summary: "A line the server cannot read (or would read differently than it looks)",
    rationale: "mysqld stops at start-up on a line it cannot parse (an option before any group, an unclosed \
                group header, an unterminated quote, a missing include). A server that does not start is the \
                worst outcome of a configuration change, so these are reported before anything else.",
    sources: &[OPTION_FILES, MARIADB_OPTION_FILES],
};

pub const UNKNOWN_OPTION: Check = Check {
    code: Code::from_static("MT002"),
    name: "unknown-option",
    severity: Severity::Crit,
    summary: "An option the target server does not know",
    rationale: "The server aborts at start-up on an unknown option in a group it reads (\"unknown variable\"), \
                unless the name carries the loose- prefix. A misspelled name is also a setting that silently \
                never took effect. Plugin options are unknown until the plugin is loaded: prefix them with \
                loose- when the plugin may be absent.",
    sources: &[OPTION_MODIFIERS, OPTION_FILES],
};

pub const REMOVED_OPTION: Check = Check {
    code: Code::from_static("MT003"),
    name: "option-removed-in-target",
    severity: Severity::Crit,
    summary: "An option the target version no longer has",
    rationale: "Options removed in a release (the query cache in MySQL 8.0, innodb_log_files_in_group in \
                MariaDB 10.6, expire_logs_days in MySQL 8.4) make the new server refuse to start, which is how \
                upgrades fail at 3 a.m. The finding names the replacement when there is one.",
    sources: &[
        "https://dev.mysql.com/doc/refman/8.0/en/added-deprecated-removed.html",
        "https://mariadb.com/kb/en/server-system-variables/",
    ],
};

pub const DEPRECATED_OPTION: Check = Check {
    code: Code::from_static("MT004"),
    name: "option-deprecated",
    severity: Severity::Warn,
    summary: "An option deprecated in the target version",
    rationale: "Deprecated options still work but are scheduled for removal, and some are already ignored \
                (MariaDB ≥ 10.5 accepts and ignores innodb_thread_concurrency). Moving to the replacement now \
                keeps the next upgrade from failing.",
    sources: &["https://dev.mysql.com/doc/refman/8.0/en/added-deprecated-removed.html"],
};

pub const INVALID_VALUE: Check = Check {
    code: Code::from_static("MT005"),
    name: "invalid-option-value",
    severity: Severity::Crit,
    summary: "A value of the wrong type, outside the allowed range, or not among the allowed values",
    rationale: "An enum value the server does not accept stops it at start-up; a number out of range is \
                silently clamped, so the running value is not the written one. Either way the file does not \
                say what the server does.",
    sources: &["https://dev.mysql.com/doc/refman/8.0/en/server-system-variables.html"],
};

pub const DUPLICATE_OPTION: Check = Check {
    code: Code::from_static("MT006"),
    name: "duplicate-option",
    severity: Severity::Warn,
    summary: "An option set more than once; only the last occurrence counts",
    rationale: "The server applies option lines in reading order and the last one wins. An earlier line, \
                perhaps the one a reader finds first, has no effect; when the values differ, the file \
                misleads whoever edits it next.",
    sources: &[OPTION_FILES],
};

pub const UNREAD_GROUP: Check = Check {
    code: Code::from_static("MT007"),
    name: "server-option-in-unread-group",
    severity: Severity::Warn,
    summary: "A server option in a group the target server never reads",
    rationale: "Only [mysqld], [server], [mysqld-X.Y] (and for MariaDB [mariadb], [mariadbd], [mariadb-X.Y], \
                [client-server]) reach the server. A server setting under [client], [mysql] or a misspelled \
                group is silently ignored by the server, and client programs may refuse the unknown option.",
    sources: &[OPTION_FILES, MARIADB_OPTION_FILES],
};

pub const LOOSE_TYPO: Check = Check {
    code: Code::from_static("MT008"),
    name: "loose-option-hides-typo",
    severity: Severity::Warn,
    summary: "A loose- option that is unknown but close to a known one",
    rationale: "loose- turns an unknown option into a start-up warning instead of an error. That is right for \
                plugin options, but on a misspelled name it hides the mistake: the intended setting never \
                takes effect and nothing fails.",
    sources: &[OPTION_MODIFIERS],
};

pub const UNUSED_SUPPRESSION: Check = Check {
    code: Code::from_static("MT009"),
    name: "unused-suppression",
    severity: Severity::Warn,
    summary: "A `# mytune: ignore` comment that silences nothing",
    rationale: "A suppression is a promise that a finding was looked at and accepted. Once the line is fixed \
                or the rule no longer fires there, the comment only hides the next, different problem on that \
                line; reporting it keeps suppressions few and current (ruff does the same with unused noqa).",
    sources: &[LINT_DOCS],
};

pub const UNUSED_BASELINE_ENTRY: Check = Check {
    code: Code::from_static("MT022"),
    name: "unused-baseline-entry",
    severity: Severity::Warn,
    summary: "A baseline entry that matches no finding any more",
    rationale: "A baseline accepts the findings a repository had when it adopted mytune. Once one is fixed \
                (or its line changed), its entry would silently accept the next finding that happens to \
                match; reporting it keeps the baseline shrinking, as unused suppressions are reported (MT009).",
    sources: &[LINT_DOCS],
};

pub const DEFAULT_CHANGES: Check = Check {
    code: Code::from_static("MT023"),
    name: "default-changes-on-upgrade",
    severity: Severity::Info,
    summary: "A variable the file leaves at its default, whose default changes in the release it is upgraded to",
    rationale: "An upgrade changes the server's behaviour even where the option file does not change: every \
                variable the file leaves unset takes the new release's default (MySQL 8.4's innodb_io_capacity \
                10000 instead of 200, MariaDB 11.0's three undo tablespaces). `lint --from OLD --target NEW` \
                lists them from the two catalogs; `--fix --pin-defaults` writes the old defaults into the file \
                for an upgrade that should change nothing. MySQL Shell's upgrade checker reports the same for \
                MySQL.",
    sources: &["https://dev.mysql.com/doc/refman/8.4/en/mysql-nutshell.html"],
};

pub const SYSTEM_FILE_SYNTAX: Check = Check {
    code: Code::from_static("MT010"),
    name: "system-file-syntax-error",
    severity: Severity::Warn,
    summary: "A sysctl, limits or systemd drop-in line that cannot be read",
    rationale: "sysctl -p / systemd-sysctl, pam_limits and systemd skip a line they cannot parse and log it \
                where nobody looks: the setting on that line is simply not applied, and the OS rules cannot \
                judge it either.",
    sources: &[
        "https://man7.org/linux/man-pages/man5/sysctl.conf.5.html",
        "https://man7.org/linux/man-pages/man5/limits.conf.5.html",
        "https://www.freedesktop.org/software/systemd/man/latest/systemd.exec.html#Process%20Properties",
    ],
};

pub const NAME_PREFIX: Check = Check {
    code: Code::from_static("MT014"),
    name: "option-name-prefix",
    severity: Severity::Warn,
    summary: "A prefix of an option name instead of the name",
    rationale: "MariaDB takes a unique prefix of an option name as that option and notes it at start-up \
                (sort = 1M sets sort_buffer_size); a prefix of several names is ambiguous and stops the \
                start. Any new option with the same prefix makes a working line ambiguous, and MySQL 5.7 \
                and later accept no prefixes at all, so write the full name.",
    sources: &[
        "https://mariadb.com/kb/en/mariadbd-options/",
        "https://dev.mysql.com/worklog/task/?id=6978",
    ],
};

pub const WITHOUT_EFFECT: Check = Check {
    code: Code::from_static("MT015"),
    name: "option-without-effect",
    severity: Severity::Warn,
    summary: "An option that does nothing without another one the file leaves off",
    rationale: "Some options only act with another: binlog_format, log_slave_updates and the binary log's \
                expiry do nothing while log_bin is off, and MariaDB warns about each at start-up. Either the \
                binary log was meant to be on, or the lines are dead weight that mislead the next reader.",
    sources: &["https://mariadb.com/kb/en/binary-log/"],
};

pub const BINLOG_WITHOUT_NAME: Check = Check {
    code: Code::from_static("MT021"),
    name: "binary-log-without-basename",
    severity: Severity::Warn,
    summary: "The binary log turned on without a file name (log_bin bare or empty, or flashback)",
    rationale: "Without a name the binary log and its index are named after the host \
                (HOSTNAME-bin.000001), and MariaDB warns at start-up that replication breaks when \
                this server is a source and its host name changes: the new name finds no index and \
                starts a new log sequence. Give the log a name (log_bin = mysql-bin) or set \
                log_basename, which names the relay logs and the index too.",
    sources: &[
        "https://mariadb.com/kb/en/replication-and-binary-log-system-variables/#log_bin",
        "https://mariadb.com/kb/en/mariadbd-options/#-log-basename",
    ],
};

/// The same check in ruff, whose behaviour this one follows.
const LINT_DOCS: &str = "https://docs.astral.sh/ruff/rules/unused-noqa/";

/// Every structural check, in code order.
pub const ALL: [Check; 15] = [
    SYNTAX_ERROR,
    UNKNOWN_OPTION,
    REMOVED_OPTION,
    DEPRECATED_OPTION,
    INVALID_VALUE,
    DUPLICATE_OPTION,
    UNREAD_GROUP,
    LOOSE_TYPO,
    UNUSED_SUPPRESSION,
    UNUSED_BASELINE_ENTRY,
    DEFAULT_CHANGES,
    SYSTEM_FILE_SYNTAX,
    NAME_PREFIX,
    WITHOUT_EFFECT,
    BINLOG_WITHOUT_NAME,
];
