//! The facts of the fixed namespaces (`host.`, `server.`, `profile.`): one
//! row per fact with its type, the values an enumeration may be compared
//! with, what it means and how its value is read from the facts. The type
//! checker accepts exactly these names, the evaluator reads them through
//! their row's getter and the rule reference documents them from here, so
//! a fact is one row (and, when it is new data, its field in `facts/`).

use super::expr::ast::Namespace;
use super::expr::value::{Type, text_to_bool};
use super::expr::{EvalError, FactRef, Value};
use super::profile::Profile;
use crate::facts::host::{DiskKind, HostSource, Limit};
use crate::facts::server::{Account, AccountAudit, DataSize, ServerFacts};
use crate::facts::{Facts, HostFacts};
use crate::target::Target;

/// How a fact's value is read: the value, or why it is missing.
pub type Getter = fn(&FactSource) -> Result<Value, EvalError>;

/// One fact of a fixed namespace.
#[derive(Debug, Clone, Copy)]
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
    pub get: Getter,
}

/// What a getter reads: the facts, the profile and the target, and the
/// fact as written for the reason it is missing.
pub struct FactSource<'a> {
    pub facts: &'a Facts,
    pub profile: &'a Profile,
    /// The server's, or the one given when there are no server facts.
    pub target: Option<Target>,
    pub fact: &'a FactRef,
}

impl FactSource<'_> {
    /// The fact is missing, and why.
    pub fn missing<T>(&self, why: impl Into<String>) -> Result<T, EvalError> {
        Err(EvalError::missing(self.fact.to_string(), why))
    }

    fn host(&self) -> Result<&HostFacts, EvalError> {
        match &self.facts.host {
            Some(h) => Ok(h),
            None => self.missing("no host facts"),
        }
    }

    fn server(&self) -> Result<&ServerFacts, EvalError> {
        match &self.facts.server {
            Some(s) => Ok(s),
            None => self.missing("no server facts"),
        }
    }

    fn target(&self) -> Result<Target, EvalError> {
        match self.target {
            Some(t) => Ok(t),
            None => self.missing("no server facts and no target given"),
        }
    }

    /// The account audit, or the collector's reason it is missing.
    fn accounts(&self) -> Result<&AccountAudit, EvalError> {
        match &self.server()?.accounts {
            Some(a) => Ok(a),
            None => self.missing(accounts_missing(self.facts)),
        }
    }
}

const fn fact(name: &'static str, ty: Type, doc: &'static str, get: Getter) -> FactDef {
    FactDef {
        name,
        ty,
        values: &[],
        doc,
        limit: None,
        get,
    }
}

/// A process limit of the server, named by its limits.conf item.
const fn limit(name: &'static str, item: &'static str, doc: &'static str, get: Getter) -> FactDef {
    FactDef {
        name,
        ty: Type::Num,
        values: &[],
        doc,
        limit: Some(item),
        get,
    }
}

const fn one_of(
    name: &'static str,
    values: &'static [&'static str],
    doc: &'static str,
    get: Getter,
) -> FactDef {
    FactDef {
        name,
        ty: Type::Str,
        values,
        doc,
        limit: None,
        get,
    }
}

fn num(n: impl Into<f64>) -> Result<Value, EvalError> {
    Ok(Value::Num(n.into()))
}

fn text(s: impl Into<String>) -> Result<Value, EvalError> {
    Ok(Value::Str(s.into()))
}

pub const HOST_FACTS: &[FactDef] = &[
    fact(
        "memory",
        Type::Num,
        "effective memory in bytes (the cgroup limit when lower)",
        |s| match s.host()?.memory.effective_bytes {
            0 => s.missing("host memory is unknown"),
            b => num(b as f64),
        },
    ),
    fact(
        "budget",
        Type::Num,
        "the memory the server may use: `host.memory` x `profile.share`, and at most what the host's \
         other processes leave when their resident memory was read here (rounded up to a power-of-two \
         step of about 1/32 of the memory, so that their movement does not move the budget)",
        |s| {
            let h = s.host()?;
            if h.memory.effective_bytes == 0 {
                return s.missing("host memory is unknown");
            }
            num(super::evaluate::memory_budget(h, s.profile.share) as f64)
        },
    ),
    fact(
        "others",
        Type::Num,
        "the resident memory of the host's other processes",
        |s| match &s.host()?.other_processes {
            Some(o) => num(o.resident_bytes as f64),
            None => s.missing("the other processes' memory was not read"),
        },
    ),
    fact(
        "described",
        Type::Bool,
        "true for a host described by `--memory`/`--cpus`/`--disk` rather than read",
        |s| Ok(Value::Bool(s.host()?.source == HostSource::Described)),
    ),
    fact(
        "cpus",
        Type::Num,
        "effective CPUs (the cgroup quota when lower)",
        |s| match s.host()?.cpu.effective {
            0 => s.missing("host CPU count is unknown"),
            n => num(n),
        },
    ),
    one_of(
        "disk",
        &["ssd", "hdd"],
        "the kind of the datadir's disk",
        |s| match s.host()?.datadir_disk.as_ref().map(|d| d.kind) {
            Some(DiskKind::Ssd) => text("ssd"),
            Some(DiskKind::Hdd) => text("hdd"),
            _ => s.missing("the datadir disk type is unknown"),
        },
    ),
    fact("swap", Type::Num, "swap space in bytes", |s| {
        match s.host()?.swap_total_bytes {
            Some(b) => num(b as f64),
            None => s.missing("swap size unknown"),
        }
    }),
    fact("numa_nodes", Type::Num, "NUMA nodes", |s| {
        match s.host()?.numa_nodes {
            Some(n) => num(n),
            None => s.missing("NUMA layout unknown"),
        }
    }),
    one_of(
        "thp",
        &["always", "madvise", "never"],
        "transparent huge pages mode",
        |s| match &s.host()?.thp {
            Some(t) => text(t.enabled.clone()),
            None => s.missing("transparent huge pages setting unknown"),
        },
    ),
    fact(
        "kernel",
        Type::Str,
        "the kernel release (`uname -r`)",
        |s| match &s.host()?.kernel {
            Some(k) => text(k.clone()),
            None => s.missing("kernel version unknown"),
        },
    ),
    fact(
        "io_scheduler",
        Type::Str,
        "the I/O scheduler of the datadir's disk",
        |s| {
            let h = s.host()?;
            match h.datadir_disk.as_ref().and_then(|d| d.scheduler.as_ref()) {
                Some(x) => text(x.clone()),
                None => s.missing("the datadir disk's I/O scheduler is unknown"),
            }
        },
    ),
    limit(
        "server_nofile",
        "nofile",
        "soft open-files limit of the running server process, else the systemd unit's \
         `LimitNOFILE`; unlimited is 2^64 - 1",
        |s| {
            let h = s.host()?;
            let soft = h.server_process.as_ref().and_then(|p| p.nofile_soft);
            match soft.or(h.systemd_limit_nofile) {
                Some(l) => num(limit_num(l)),
                None => s.missing("the server process's open-files limit is unknown"),
            }
        },
    ),
    limit(
        "server_nofile_hard",
        "nofile",
        "hard open-files limit of the running server process",
        |s| match s
            .host()?
            .server_process
            .as_ref()
            .and_then(|p| p.nofile_hard)
        {
            Some(l) => num(limit_num(l)),
            None => s.missing("the server process limits were not read"),
        },
    ),
    limit(
        "server_nproc",
        "nproc",
        "soft process limit of the running server process",
        |s| match s.host()?.server_process.as_ref().and_then(|p| p.nproc_soft) {
            Some(l) => num(limit_num(l)),
            None => s.missing("the server process's process limit is unknown"),
        },
    ),
];

pub const SERVER_FACTS: &[FactDef] = &[
    one_of(
        "flavor",
        &["mysql", "mariadb", "percona"],
        "the product line (a Percona XtraDB Cluster node is `percona`)",
        // Rules compare product lines: a PXC node is "percona".
        |s| text(s.target()?.flavor.base().to_string()),
    ),
    fact(
        "product",
        Type::Str,
        "the product's name for messages: `MySQL`, `MariaDB`, `Percona Server`, `Percona XtraDB Cluster`",
        |s| text(s.target()?.flavor.product_name()),
    ),
    fact("version", Type::Version, "the server's version", |s| {
        Ok(Value::Version(s.target()?.version))
    }),
    fact(
        "uptime",
        Type::Num,
        "seconds since the server started",
        |s| num(s.server()?.uptime_secs as f64),
    ),
    fact(
        "interval",
        Type::Num,
        "seconds between the two status samples of `--interval`; missing without one",
        |s| match &s.server()?.sample {
            Some(sample) if sample.interval_secs > 0.0 => num(sample.interval_secs),
            _ => s.missing("no second status sample (--interval)"),
        },
    ),
    fact(
        "is_local",
        Type::Bool,
        "the server runs on this host",
        |s| Ok(Value::Bool(s.server()?.is_local)),
    ),
    fact(
        "innodb_data",
        Type::Num,
        "bytes of InnoDB data + indexes from the per-engine data size; a lower bound when that query \
         was time-boxed, missing when the account sees no table",
        |s| match &s.server()?.data_size {
            None => s.missing("the data size per engine was not collected"),
            // Nothing counted by an account that sees no table is unknown,
            // not zero; a partial count is a lower bound.
            Some(d) if !d.complete && innodb_data_bytes(d) == 0 => {
                s.missing("the InnoDB data size is unknown: this account sees no InnoDB table")
            }
            Some(d) => num(innodb_data_bytes(d) as f64),
        },
    ),
    fact(
        "grant_tables_skipped",
        Type::Bool,
        "the server runs with `skip_grant_tables` (from the account audit, else the variable)",
        |s| {
            let server = s.server()?;
            match (&server.accounts, server.variables.get("skip_grant_tables")) {
                (Some(a), _) if a.grant_tables_skipped => Ok(Value::Bool(true)),
                (_, Some(v)) => Value::text(v.clone(), "var.skip_grant_tables")
                    .as_bool()
                    .map(Value::Bool),
                (Some(_), None) => Ok(Value::Bool(false)),
                (None, None) => s.missing(accounts_missing(s.facts)),
            }
        },
    ),
    fact(
        "anonymous_accounts",
        Type::Num,
        "accounts with an empty user name (the account audit reads the grant tables, never logs in)",
        |s| count(accounts(s, Kind::Anonymous)?),
    ),
    fact(
        "anonymous_accounts_list",
        Type::Str,
        "those accounts, `'user'@'host', …`",
        |s| list(accounts(s, Kind::Anonymous)?),
    ),
    fact(
        "passwordless_accounts",
        Type::Num,
        "accounts without a password",
        |s| count(accounts(s, Kind::Passwordless)?),
    ),
    fact(
        "passwordless_accounts_list",
        Type::Str,
        "those accounts",
        |s| list(accounts(s, Kind::Passwordless)?),
    ),
    fact(
        "any_host_accounts",
        Type::Num,
        "accounts whose host is `%`",
        |s| count(accounts(s, Kind::AnyHost)?),
    ),
    fact("any_host_accounts_list", Type::Str, "those accounts", |s| {
        list(accounts(s, Kind::AnyHost)?)
    }),
    fact(
        "remote_root_accounts",
        Type::Num,
        "root accounts whose host is neither loopback, `localhost` nor the server's `@@hostname`, nor \
         a host name ignored under `skip_name_resolve = ON`",
        |s| count(accounts(s, Kind::RemoteRoot)?),
    ),
    fact(
        "remote_root_accounts_list",
        Type::Str,
        "those accounts",
        |s| list(accounts(s, Kind::RemoteRoot)?),
    ),
    fact(
        "passworded_anonymous_accounts",
        Type::Num,
        "anonymous accounts with a password",
        |s| count(accounts(s, Kind::PasswordedAnonymous)?),
    ),
    fact(
        "passworded_anonymous_accounts_list",
        Type::Str,
        "those accounts",
        |s| list(accounts(s, Kind::PasswordedAnonymous)?),
    ),
    fact(
        "passwordless_anonymous_accounts",
        Type::Num,
        "anonymous accounts without a password",
        |s| count(accounts(s, Kind::PasswordlessAnonymous)?),
    ),
    fact(
        "passwordless_anonymous_accounts_list",
        Type::Str,
        "those accounts",
        |s| list(accounts(s, Kind::PasswordlessAnonymous)?),
    ),
    fact(
        "public_db_grants",
        Type::Num,
        "database-level grants with an empty user name, which apply to every account (`mysql.db`)",
        |s| num(public_db_grants(s)?.len() as f64),
    ),
    fact(
        "public_db_grants_list",
        Type::Str,
        "those grants, `'db' from 'host', …`",
        |s| {
            let grants: Vec<String> = public_db_grants(s)?
                .iter()
                .map(|g| format!("'{}' from '{}'", g.db, g.host))
                .collect();
            text(grants.join(", "))
        },
    ),
    fact(
        "host_cache_connect_errors",
        Type::Num,
        "`SUM_CONNECT_ERRORS` of `performance_schema.host_cache` over its hosts (missing when the \
         Performance Schema is off)",
        |s| num(host_cache(s)?.connect_errors as f64),
    ),
    fact(
        "host_cache_blocked",
        Type::Num,
        "`COUNT_HOST_BLOCKED_ERRORS` of `performance_schema.host_cache` over its hosts",
        |s| num(host_cache(s)?.blocked_errors as f64),
    ),
    fact(
        "name_logins",
        Type::Num,
        "the logins that stop matching under `skip_name_resolve = ON`: accounts, roles and proxy \
         grants whose host part is a host name or a pattern of names, and `localhost` accounts seen \
         connected over TCP loopback with no account of that user at `127.0.0.1` or `::1`",
        |s| num(name_logins(s)?.len() as f64),
    ),
    fact("name_logins_list", Type::Str, "those logins", |s| {
        let logins: Vec<String> = name_logins(s)?.iter().map(|l| l.to_string()).collect();
        text(logins.join(", "))
    }),
    fact(
        "name_logins_unread",
        Type::Str,
        "what of that could not be read, with the reason (`\"\"` when everything was)",
        |s| {
            let server = s.server()?;
            text(match &server.accounts {
                Some(a) if a.name_logins.is_some() => a.name_logins_unread.join("; "),
                Some(_) => "the logins that depend on host names (not collected)".into(),
                None => format!(
                    "the accounts ({})",
                    s.facts
                        .skipped
                        .iter()
                        .find(|x| x.what == "accounts")
                        .map_or("not collected", |x| x.reason.as_str())
                ),
            })
        },
    ),
];

pub const PROFILE_FACTS: &[FactDef] = &[
    one_of(
        "durability",
        &["strict", "relaxed"],
        "how much a crash may lose",
        |s| text(s.profile.durability.as_str()),
    ),
    one_of(
        "workload",
        &["oltp", "olap", "mixed"],
        "the kind of queries",
        |s| text(s.profile.workload.as_str()),
    ),
    one_of(
        "observability",
        &["full", "standard", "lean"],
        "`standard`: the slow log and the Performance Schema as the server ships them; `full`: both \
         on; `lean`: neither",
        |s| text(s.profile.observability.as_str()),
    ),
    fact(
        "connections",
        Type::Num,
        "the expected peak of connections",
        |s| match s.profile.connections {
            Some(c) => num(c as f64),
            None => s.missing("not set in the profile"),
        },
    ),
    fact(
        "share",
        Type::Num,
        "the share of the host the server may use (1 = dedicated)",
        |s| num(s.profile.share),
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

/// A limit as a number; unlimited is larger than any count a rule asks for.
fn limit_num(l: Limit) -> f64 {
    l.as_u64() as f64
}

/// Data + index bytes of the InnoDB engine (0 when it holds no table). A
/// time-boxed collection (`complete == false`) gives a lower bound.
fn innodb_data_bytes(d: &DataSize) -> u64 {
    d.engines
        .iter()
        .filter(|(engine, _)| engine.eq_ignore_ascii_case("innodb"))
        .map(|(_, e)| e.data_bytes.saturating_add(e.index_bytes))
        .sum()
}

/// The kinds of accounts the audit's facts count and list.
#[derive(Clone, Copy)]
enum Kind {
    Anonymous,
    PasswordedAnonymous,
    PasswordlessAnonymous,
    Passwordless,
    AnyHost,
    RemoteRoot,
}

/// The accounts of a kind.
fn accounts(s: &FactSource, kind: Kind) -> Result<Vec<Account>, EvalError> {
    let a = s.accounts()?;
    let passwordless = |x: &&Account| a.without_password.contains(x);
    Ok(match kind {
        Kind::Anonymous => a.anonymous.clone(),
        Kind::PasswordedAnonymous => a
            .anonymous
            .iter()
            .filter(|x| !passwordless(x))
            .cloned()
            .collect(),
        Kind::PasswordlessAnonymous => a.anonymous.iter().filter(passwordless).cloned().collect(),
        Kind::Passwordless => a.without_password.clone(),
        Kind::AnyHost => a.any_host.clone(),
        Kind::RemoteRoot => {
            let server = s.server()?;
            // The host's own names are local, and host-name accounts match
            // nothing under skip_name_resolve.
            let hostname = server.variables.get("hostname").map(String::as_str);
            // The host's own addresses, when the server is on the host
            // whose facts these are.
            let addresses: &[String] = match &s.facts.host {
                Some(h) if server.is_local => &h.addresses,
                _ => &[],
            };
            let skip_name_resolve = server
                .variables
                .get("skip_name_resolve")
                .and_then(|v| text_to_bool(v))
                .unwrap_or(false);
            a.remote_root
                .iter()
                .filter(|x| {
                    crate::facts::server::reachable_remotely(
                        &x.host,
                        hostname,
                        addresses,
                        skip_name_resolve,
                    )
                })
                .cloned()
                .collect()
        }
    })
}

fn count(accounts: Vec<Account>) -> Result<Value, EvalError> {
    num(accounts.len() as f64)
}

/// `'user'@'host', …` as SHOW GRANTS writes accounts.
fn list(accounts: Vec<Account>) -> Result<Value, EvalError> {
    let all: Vec<String> = accounts
        .iter()
        .map(|a| format!("'{}'@'{}'", a.user, a.host))
        .collect();
    text(all.join(", "))
}

fn public_db_grants<'a>(
    s: &'a FactSource,
) -> Result<&'a [crate::facts::server::DbGrant], EvalError> {
    match &s.accounts()?.public_db_grants {
        Some(g) => Ok(g),
        None => s.missing(skipped_reason(
            s.facts,
            "database grants",
            "mysql.db was not read",
        )),
    }
}

fn host_cache<'a>(s: &'a FactSource) -> Result<&'a crate::facts::server::HostCache, EvalError> {
    let server = s.server()?;
    match &server.host_cache {
        Some(h) => Ok(h),
        None => s.missing(host_cache_missing(s.facts, server)),
    }
}

fn name_logins<'a>(s: &'a FactSource) -> Result<&'a [crate::facts::server::NameLogin], EvalError> {
    match &s.accounts()?.name_logins {
        Some(l) => Ok(l),
        None => s.missing("the logins that depend on host names were not collected"),
    }
}

/// Why the account facts are missing: the collector's recorded reason when
/// there is one.
fn accounts_missing(facts: &Facts) -> String {
    facts
        .skipped
        .iter()
        .find(|s| s.what == "accounts")
        .map(|s| format!("the account audit was skipped: {}", s.reason))
        .unwrap_or_else(|| "the account audit was not collected".into())
}

/// The collector's reason for a skipped part `what`, else `otherwise`.
fn skipped_reason(facts: &Facts, what: &str, otherwise: &str) -> String {
    facts
        .skipped
        .iter()
        .find(|s| s.what == what)
        .map(|s| format!("{what} not read: {}", s.reason))
        .unwrap_or_else(|| otherwise.into())
}

/// Why the host cache summary is missing.
fn host_cache_missing(facts: &Facts, server: &ServerFacts) -> String {
    let off = server
        .variables
        .get("performance_schema")
        .and_then(|v| text_to_bool(v))
        == Some(false);
    let otherwise = if off {
        "performance_schema is off, so the host cache was not read"
    } else {
        "the host cache was not collected"
    };
    skipped_reason(facts, "host_cache", otherwise)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::server::EngineSize;

    #[test]
    fn innodb_data_sums_data_and_indexes_of_innodb_only() {
        let mut d = DataSize::default();
        let size = |data_bytes, index_bytes| EngineSize {
            tables: 1,
            data_bytes,
            index_bytes,
        };
        d.engines.insert("InnoDB".into(), size(3 << 30, 1 << 30));
        d.engines.insert("MyISAM".into(), size(5 << 30, 0));
        assert_eq!(innodb_data_bytes(&d), 4 << 30);
        d.engines.remove("InnoDB");
        assert_eq!(innodb_data_bytes(&d), 0);
    }
}
