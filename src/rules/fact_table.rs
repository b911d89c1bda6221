//! The facts of the fixed namespaces (`host.`, `server.`, `profile.`): one
//! row per fact with its type, the values an enumeration may be compared
//! with, and what it means. The type checker accepts exactly these names,
//! the rule reference documents them from here, and a test in the evaluator
//! proves each has a value there, so a fact cannot exist in one place only.

use super::expr::ast::Namespace;
use super::expr::value::Type;

/// One fact of a fixed namespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FactDef {
    pub name: &'static str,
    pub ty: Type,
    /// For an enumeration, the string values it may be compared with.
    pub values: &'static [&'static str],
    /// What it means, for the rule reference.
    pub doc: &'static str,
    /// The process limit it reports (`nofile`, `nproc`: a limits.conf
    /// item), so a rule reading it is judged against limits files too.
    pub limit: Option<&'static str>,
}

const fn fact(name: &'static str, ty: Type, doc: &'static str) -> FactDef {
    FactDef {
        name,
        ty,
        values: &[],
        doc,
        limit: None,
    }
}

/// A process limit of the server, named by its limits.conf item.
const fn limit(name: &'static str, item: &'static str, doc: &'static str) -> FactDef {
    FactDef {
        name,
        ty: Type::Num,
        values: &[],
        doc,
        limit: Some(item),
    }
}

const fn one_of(name: &'static str, values: &'static [&'static str], doc: &'static str) -> FactDef {
    FactDef {
        name,
        ty: Type::Str,
        values,
        doc,
        limit: None,
    }
}

pub const HOST_FACTS: &[FactDef] = &[
    fact(
        "memory",
        Type::Num,
        "effective memory in bytes (the cgroup limit when lower)",
    ),
    fact(
        "budget",
        Type::Num,
        "the memory the server may use: `host.memory` x `profile.share`, and at most what the host's \
         other processes leave when their resident memory was read here (rounded up to a power-of-two \
         step of about 1/32 of the memory, so that their movement does not move the budget)",
    ),
    fact(
        "others",
        Type::Num,
        "the resident memory of the host's other processes",
    ),
    fact(
        "described",
        Type::Bool,
        "true for a host described by `--memory`/`--cpus`/`--disk` rather than read",
    ),
    fact(
        "cpus",
        Type::Num,
        "effective CPUs (the cgroup quota when lower)",
    ),
    one_of("disk", &["ssd", "hdd"], "the kind of the datadir's disk"),
    fact("swap", Type::Num, "swap space in bytes"),
    fact("numa_nodes", Type::Num, "NUMA nodes"),
    one_of(
        "thp",
        &["always", "madvise", "never"],
        "transparent huge pages mode",
    ),
    fact("kernel", Type::Str, "the kernel release (`uname -r`)"),
    fact(
        "io_scheduler",
        Type::Str,
        "the I/O scheduler of the datadir's disk",
    ),
    limit(
        "server_nofile",
        "nofile",
        "soft open-files limit of the running server process, else the systemd unit's \
         `LimitNOFILE`; unlimited is 2^64 - 1",
    ),
    limit(
        "server_nofile_hard",
        "nofile",
        "hard open-files limit of the running server process",
    ),
    limit(
        "server_nproc",
        "nproc",
        "soft process limit of the running server process",
    ),
];

pub const SERVER_FACTS: &[FactDef] = &[
    one_of(
        "flavor",
        &["mysql", "mariadb", "percona"],
        "the product line (a Percona XtraDB Cluster node is `percona`)",
    ),
    fact(
        "product",
        Type::Str,
        "the product's name for messages: `MySQL`, `MariaDB`, `Percona Server`, `Percona XtraDB Cluster`",
    ),
    fact("version", Type::Version, "the server's version"),
    fact("uptime", Type::Num, "seconds since the server started"),
    fact(
        "interval",
        Type::Num,
        "seconds between the two status samples of `--interval`; missing without one",
    ),
    fact("is_local", Type::Bool, "the server runs on this host"),
    fact(
        "innodb_data",
        Type::Num,
        "bytes of InnoDB data + indexes from the per-engine data size; a lower bound when that query \
         was time-boxed, missing when the account sees no table",
    ),
    fact(
        "grant_tables_skipped",
        Type::Bool,
        "the server runs with `skip_grant_tables` (from the account audit, else the variable)",
    ),
    fact(
        "anonymous_accounts",
        Type::Num,
        "accounts with an empty user name (the account audit reads the grant tables, never logs in)",
    ),
    fact(
        "anonymous_accounts_list",
        Type::Str,
        "those accounts, `'user'@'host', …`",
    ),
    fact(
        "passwordless_accounts",
        Type::Num,
        "accounts without a password",
    ),
    fact("passwordless_accounts_list", Type::Str, "those accounts"),
    fact("any_host_accounts", Type::Num, "accounts whose host is `%`"),
    fact("any_host_accounts_list", Type::Str, "those accounts"),
    fact(
        "remote_root_accounts",
        Type::Num,
        "root accounts whose host is neither loopback, `localhost` nor the server's `@@hostname`, nor \
         a host name ignored under `skip_name_resolve = ON`",
    ),
    fact("remote_root_accounts_list", Type::Str, "those accounts"),
    fact(
        "passworded_anonymous_accounts",
        Type::Num,
        "anonymous accounts with a password",
    ),
    fact(
        "passworded_anonymous_accounts_list",
        Type::Str,
        "those accounts",
    ),
    fact(
        "passwordless_anonymous_accounts",
        Type::Num,
        "anonymous accounts without a password",
    ),
    fact(
        "passwordless_anonymous_accounts_list",
        Type::Str,
        "those accounts",
    ),
    fact(
        "public_db_grants",
        Type::Num,
        "database-level grants with an empty user name, which apply to every account (`mysql.db`)",
    ),
    fact(
        "public_db_grants_list",
        Type::Str,
        "those grants, `'db' from 'host', …`",
    ),
    fact(
        "host_cache_connect_errors",
        Type::Num,
        "`SUM_CONNECT_ERRORS` of `performance_schema.host_cache` over its hosts (missing when the \
         Performance Schema is off)",
    ),
    fact(
        "host_cache_blocked",
        Type::Num,
        "`COUNT_HOST_BLOCKED_ERRORS` of `performance_schema.host_cache` over its hosts",
    ),
    fact(
        "name_logins",
        Type::Num,
        "the logins that stop matching under `skip_name_resolve = ON`: accounts, roles and proxy \
         grants whose host part is a host name or a pattern of names, and `localhost` accounts seen \
         connected over TCP loopback with no account of that user at `127.0.0.1` or `::1`",
    ),
    fact("name_logins_list", Type::Str, "those logins"),
    fact(
        "name_logins_unread",
        Type::Str,
        "what of that could not be read, with the reason (`\"\"` when everything was)",
    ),
];

pub const PROFILE_FACTS: &[FactDef] = &[
    one_of(
        "durability",
        &["strict", "relaxed"],
        "how much a crash may lose",
    ),
    one_of(
        "workload",
        &["oltp", "olap", "mixed"],
        "the kind of queries",
    ),
    one_of(
        "observability",
        &["full", "standard", "lean"],
        "`standard`: the slow log and the Performance Schema as the server ships them; `full`: both \
         on; `lean`: neither",
    ),
    fact("connections", Type::Num, "the expected peak of connections"),
    fact(
        "share",
        Type::Num,
        "the share of the host the server may use (1 = dedicated)",
    ),
];

/// The table of a fixed namespace.
pub fn table(ns: Namespace) -> Option<&'static [FactDef]> {
    match ns {
        Namespace::Host => Some(HOST_FACTS),
        Namespace::Server => Some(SERVER_FACTS),
        Namespace::Profile => Some(PROFILE_FACTS),
        _ => None,
    }
}

/// A fact of a fixed namespace by name.
pub fn get(ns: Namespace, name: &str) -> Option<&'static FactDef> {
    table(ns)?.iter().find(|f| f.name == name)
}
