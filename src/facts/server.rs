//! Server facts: what one live server reported about itself.
//!
//! Variable and status names are stored lowercase (the server is
//! case-insensitive about them, and `SHOW GLOBAL STATUS` mixes cases), values
//! exactly as the server printed them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::target::{Flavor, Target, Version};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerFacts {
    /// `SELECT VERSION()`, e.g. `10.11.19-MariaDB-0+deb12u1`.
    pub version_string: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version_comment: Option<String>,
    pub flavor: Flavor,
    pub version: Version,
    /// `Uptime` status at the first sample, seconds.
    pub uptime_secs: u64,
    /// Connected over a local socket or loopback, so host facts describe the
    /// server's machine.
    pub is_local: bool,
    /// `SHOW GLOBAL VARIABLES`, lowercase names.
    pub variables: BTreeMap<String, String>,
    /// `SHOW GLOBAL STATUS` at the start, lowercase names.
    pub status: BTreeMap<String, String>,
    /// Second sample after `--interval`, for per-second rates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample: Option<StatusSample>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accounts: Option<AccountAudit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_size: Option<DataSize>,
    /// `performance_schema.host_cache` summed over its hosts: the connection
    /// errors that count toward `max_connect_errors`. Read only when
    /// `performance_schema = ON`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_cache: Option<HostCache>,
    /// `SHOW GRANTS` of the collecting account: tells what it could see.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grants: Vec<String>,
    /// Statements the collection sent (the budget is 20 without an interval).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queries: Option<u32>,
    /// What the tail of its error log says (local servers only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_log: Option<crate::facts::ErrorLogFacts>,
}

impl ServerFacts {
    pub fn target(&self) -> Target {
        Target::new(self.flavor, self.version)
    }
}

/// The status counters again, `interval_secs` after the first sample.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatusSample {
    pub interval_secs: f64,
    pub status: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    pub user: String,
    pub host: String,
}

/// Account problems found by reading the grant tables (never by logging in).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AccountAudit {
    /// Accounts with an empty user name.
    pub anonymous: Vec<Account>,
    /// Accounts that can log in without a password.
    pub without_password: Vec<Account>,
    /// Accounts whose host is `%` (reachable from anywhere).
    pub any_host: Vec<Account>,
    /// `root` accounts reachable from beyond loopback.
    pub remote_root: Vec<Account>,
    /// The server runs with `--skip-grant-tables`: no authentication at all.
    pub grant_tables_skipped: bool,
    /// Database-level grants with an empty user name (`mysql.db` rows with
    /// `User = ''`), which apply to every account: the `test` and `test\_%`
    /// databases of an old install. `None` when `mysql.db` was not read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public_db_grants: Option<Vec<DbGrant>>,
    /// Logins that work only while the server resolves client addresses to
    /// names (`skip_name_resolve = OFF`): see [`NameLogin`]. `None` when
    /// they were not read (a snapshot written before they were collected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_logins: Option<Vec<NameLogin>>,
    /// The parts of that reading that failed, each with the reason (`proxy
    /// grants and TCP loopback logins (needs SELECT on mysql.proxies_priv)`,
    /// `other accounts' connections (needs PROCESS)`): while any is here,
    /// `name_logins` may miss some.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub name_logins_unread: Vec<String>,
}

/// A login that stops matching when `skip_name_resolve = ON`: the server
/// then knows a client only by its address, so an account, role or proxy
/// grant whose host part is a name matches nobody, and a TCP client on
/// 127.0.0.1 is no longer `localhost`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NameLogin {
    pub user: String,
    pub host: String,
    pub kind: NameLoginKind,
    /// For a proxy grant: the proxied account (`GRANT PROXY ON proxied TO
    /// user@host`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proxied: Option<Account>,
}

/// Why a [`NameLogin`] depends on name resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NameLoginKind {
    /// An account or role whose host part is a host name
    /// (`'app'@'web1.example.com'`): the server skips it at start ("ignored
    /// in --skip-name-resolve mode").
    HostName,
    /// A host part that is a pattern of names (`%.example.com`): loaded,
    /// but it matches no client address.
    NamePattern,
    /// A proxy grant whose grantee or proxied host is a host name: skipped
    /// at start like an account.
    Proxy,
    /// A `localhost` account that clients reached over TCP loopback while
    /// mytune looked (`localhost:PORT` in the process list), with no
    /// account for `127.0.0.1` or `::1` of that user: with name resolution
    /// on, the server calls such a client `localhost`; without it, by its
    /// address.
    LoopbackTcp,
}

impl std::fmt::Display for NameLogin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let account = format!("'{}'@'{}'", self.user, self.host);
        match (self.kind, &self.proxied) {
            (NameLoginKind::HostName, _) => write!(f, "{account} (host name)"),
            (NameLoginKind::NamePattern, _) => write!(f, "{account} (pattern of host names)"),
            (NameLoginKind::Proxy, Some(p)) => write!(
                f,
                "PROXY ON '{}'@'{}' TO {account} (host name)",
                p.user, p.host
            ),
            (NameLoginKind::Proxy, None) => write!(f, "a proxy grant to {account} (host name)"),
            (NameLoginKind::LoopbackTcp, _) => write!(
                f,
                "{account} (used over TCP loopback, seen as localhost:PORT; no '{}'@'127.0.0.1' or '{}'@'::1' account)",
                self.user, self.user
            ),
        }
    }
}

/// How a host part depends on name resolution, as the server reads it
/// (`hostname_requires_resolving()`): `localhost` never does; a text with
/// `%`, `_`, `/` or `:` is a pattern, a netmask or an IPv6 address; digits
/// and dots are an IPv4 address; anything else is a host name. A pattern
/// with letters (`%.example.com`) is no host name to the server, but it can
/// only match names.
pub fn name_dependence(host: &str) -> Option<NameLoginKind> {
    // `:` makes it an IPv6 address (or pattern) to the server, whatever
    // letters it has.
    if host.eq_ignore_ascii_case("localhost") || host.contains(':') || !is_name_host(host) {
        return None;
    }
    if host.contains(['%', '_', '/']) {
        Some(NameLoginKind::NamePattern)
    } else {
        Some(NameLoginKind::HostName)
    }
}

/// A database-level grant row: the database name pattern and the host part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DbGrant {
    pub db: String,
    pub host: String,
}

/// The host cache's connection-error counters, summed over its hosts.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct HostCache {
    /// Rows (client addresses) in the cache.
    pub hosts: u64,
    /// `SUM(SUM_CONNECT_ERRORS)`: handshake errors that count toward
    /// blocking a host (never failed passwords).
    pub connect_errors: u64,
    /// `SUM(COUNT_HOST_BLOCKED_ERRORS)`: connections refused because their
    /// host was blocked.
    pub blocked_errors: u64,
    /// `MAX(SUM_CONNECT_ERRORS)`: the host closest to being blocked.
    pub max_connect_errors: u64,
}

/// Does an account's host part match only clients on the server's own
/// machine? `localhost`, loopback addresses and patterns of them
/// (`127.0.0.0/8`, `127.%`, `::1`), and the host's own name `hostname`
/// (`@@hostname`, also its first label, as `mariadb-install-db` writes it).
pub fn is_local_host(host: &str, hostname: Option<&str>) -> bool {
    let h = host.to_ascii_lowercase();
    if h == "localhost" || h == "::1" || h == "::ffff:127.0.0.1" {
        return true;
    }
    if let Some(rest) = h.strip_prefix("127.") {
        // 127.0.0.1, 127.0.%, 127.0.0.0/255.0.0.0: every address matched is
        // loopback.
        if rest
            .bytes()
            .all(|b| b.is_ascii_digit() || b"./%_".contains(&b))
        {
            return true;
        }
    }
    match hostname.map(|n| n.trim().to_ascii_lowercase()) {
        Some(n) if !n.is_empty() => {
            let short = |s: &str| s.split('.').next().unwrap_or("").to_string();
            h == n || h == short(&n) || (!n.contains('.') && short(&h) == n)
        }
        _ => false,
    }
}

/// Is an account's host part a host name (or a pattern of names, such as
/// `%.example.com`) rather than an IP address, an IP pattern (`10.0.%`,
/// `%`) or a netmask? Under `skip_name_resolve = ON` the server never knows
/// a client's name, so such accounts match no connection at all.
pub fn is_name_host(host: &str) -> bool {
    let h = host.to_ascii_lowercase();
    let ipv6 = h.contains(':')
        && h.bytes()
            .all(|b| b.is_ascii_hexdigit() || b":./%_".contains(&b));
    !ipv6 && h.bytes().any(|b| b.is_ascii_alphabetic())
}

/// Can a client from another machine log in with an account of this host
/// part? Not when it is local ([`is_local_host`]) or one of the host's own
/// addresses (`addresses`, known when the server runs on this host), nor
/// when it is a host name the server ignores under `skip_name_resolve`.
pub fn reachable_remotely(
    host: &str,
    hostname: Option<&str>,
    addresses: &[String],
    skip_name_resolve: bool,
) -> bool {
    let own_address = host
        .parse::<std::net::IpAddr>()
        .is_ok_and(|h| addresses.iter().any(|a| a.parse() == Ok(h)));
    let local = is_local_host(host, hostname) || own_address;
    let ignored = skip_name_resolve && is_name_host(host);
    !(local || ignored)
}

/// Data held per storage engine.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DataSize {
    /// Per engine (`InnoDB`, `MyISAM`, …).
    pub engines: BTreeMap<String, EngineSize>,
    /// False when the query hit its time box and the figures are partial.
    pub complete: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct EngineSize {
    pub tables: u64,
    pub data_bytes: u64,
    pub index_bytes: u64,
}

/// What a credential variable's value becomes in facts and snapshots: only
/// that it was set.
pub const REDACTED: &str = "(set; value not stored)";

/// Variables that hold a credential by name: a password, a key, a secret or
/// `user:password` (`wsrep_sst_auth`).
pub fn is_credential_name(name: &str) -> bool {
    const EXACT: [&str; 2] = ["wsrep_sst_auth", "file_key_management_filekey"];
    const SUFFIXES: [&str; 9] = [
        "_password",
        "_passwd",
        "_pwd",
        "_secret",
        "_secret_key",
        "_access_key",
        "_auth",
        "_token",
        "_filekey",
    ];
    let n = name.to_ascii_lowercase();
    EXACT.contains(&n.as_str()) || SUFFIXES.iter().any(|s| n.ends_with(s))
}

/// Switches and numbers are settings (`strict_password_validation = ON`),
/// not credentials.
pub(crate) fn is_setting_value(value: &str) -> bool {
    let v = value.trim();
    ["ON", "OFF", "TRUE", "FALSE", "YES", "NO"]
        .iter()
        .any(|w| v.eq_ignore_ascii_case(w))
        || (!v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
}

/// Does `value` of variable `name` hold a credential (not a switch or a
/// number)? Messages show such values as `***`.
pub fn is_credential(name: &str, value: &str) -> bool {
    !value.is_empty() && is_credential_name(name) && !is_setting_value(value)
}

/// Replace the values of credential variables (`report_password`,
/// `wsrep_sst_auth`, anything named like a password, key or secret that holds
/// more than a switch) by [`REDACTED`]. Empty values stay empty, so "not set"
/// is still known. Returns how many were replaced.
pub fn redact_credentials(variables: &mut BTreeMap<String, String>) -> usize {
    let mut n = 0;
    for (name, value) in variables.iter_mut() {
        if !value.is_empty()
            && value != REDACTED
            && is_credential_name(name)
            && !is_setting_value(value)
        {
            *value = REDACTED.to_string();
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod credential_tests {
    use super::*;

    #[test]
    fn credentials_keep_only_that_they_were_set() {
        let mut v: BTreeMap<String, String> = [
            ("report_password", "s3cret"),
            ("wsrep_sst_auth", "sst:pa55"),
            ("report_user", "repl"),
            ("strict_password_validation", "ON"),
            ("validate_password_length", "8"),
            ("ssl_key", "/etc/mysql/key.pem"),
            ("report_host", ""),
            ("authentication_ldap_simple_bind_root_pwd", "x"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(redact_credentials(&mut v), 3);
        assert_eq!(v["report_password"], REDACTED);
        assert_eq!(v["wsrep_sst_auth"], REDACTED);
        assert_eq!(v["authentication_ldap_simple_bind_root_pwd"], REDACTED);
        assert_eq!(v["report_user"], "repl");
        assert_eq!(v["strict_password_validation"], "ON");
        assert_eq!(v["ssl_key"], "/etc/mysql/key.pem");
        assert_eq!(v["report_host"], "");
    }
}
