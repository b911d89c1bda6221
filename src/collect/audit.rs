//! Account audit from the grant tables: anonymous accounts, accounts without
//! a password, accounts reachable from any host, remote root, and the logins
//! that depend on name resolution (which `skip_name_resolve = ON` would lock
//! out, so MT208 offers it only when there are none).
//!
//! It reads `mysql.global_priv` (MariaDB ≥ 10.4, one JSON column per
//! account) or `mysql.user` (MySQL, Percona, older MariaDB; columns differ by
//! version, so rows are read by column name). It never tries to log in. The
//! classification here is pure so it is tested without a server.

use crate::facts::server::{Account, AccountAudit, NameLogin, NameLoginKind, name_dependence};
pub use crate::facts::server::{is_local_host, is_name_host, reachable_remotely};

/// One account as read from the grant tables.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AccountRow {
    pub user: String,
    pub host: String,
    /// Authentication plugin; empty for the old default.
    pub plugin: String,
    /// Password hash or other authentication string; empty when none.
    pub auth_string: String,
    /// Alternative authentication methods (MariaDB `auth_or`): plugin names.
    pub alternatives: Vec<(String, String)>,
    pub locked: bool,
    pub is_role: bool,
}

/// Plugins that check a password; an empty authentication string with one
/// of these lets anyone log in with an empty password.
const PASSWORD_PLUGINS: [&str; 8] = [
    "",
    "mysql_native_password",
    "mysql_old_password",
    "caching_sha2_password",
    "sha256_password",
    "ed25519",
    "client_ed25519",
    "parsec",
];

/// Classify accounts. Roles and locked accounts cannot log in and are left
/// out.
pub fn audit(rows: &[AccountRow], grant_tables_skipped: bool) -> AccountAudit {
    let mut out = AccountAudit {
        grant_tables_skipped,
        ..Default::default()
    };
    for r in rows.iter().filter(|r| !r.is_role && !r.locked) {
        let acct = Account {
            user: r.user.clone(),
            host: r.host.clone(),
        };
        if r.user.is_empty() {
            out.anonymous.push(acct.clone());
        }
        let empty_password = |plugin: &str, auth: &str| {
            PASSWORD_PLUGINS.contains(&plugin.to_ascii_lowercase().as_str()) && auth.is_empty()
        };
        if empty_password(&r.plugin, &r.auth_string)
            || r.alternatives.iter().any(|(p, a)| empty_password(p, a))
        {
            out.without_password.push(acct.clone());
        }
        if r.host == "%" {
            out.any_host.push(acct.clone());
        }
        // Candidates: the host's own name and `skip_name_resolve` are
        // applied where the rules read them, with the server's variables.
        if r.user == "root" && !is_local_host(&r.host, None) {
            out.remote_root.push(acct);
        }
    }
    out
}

/// One `mysql.proxies_priv` row: `GRANT PROXY ON proxied TO user@host`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProxyRow {
    pub user: String,
    pub host: String,
    pub proxied_user: String,
    pub proxied_host: String,
}

/// The logins that stop matching under `skip_name_resolve = ON`, from every
/// row of the grant tables (roles and locked accounts too: the server skips
/// a host-name row whatever it is, and a MySQL role is a locked account),
/// the proxy grants, and the users seen connected over TCP loopback
/// (`loopback_users`: process-list rows whose host is `localhost:PORT`).
///
/// - an account or role whose host part is a host name, or a pattern of
///   names ([`name_dependence`]);
/// - a proxy grant whose grantee or proxied host is a host name, unless its
///   grantee is listed already as an account (the default install's
///   `root@HOSTNAME` row);
/// - a `localhost` account of a user seen over TCP loopback that has no
///   account at a loopback address (`127.0.0.1`, `::1`, `127.%`): such a
///   client is `localhost` only while names are resolved.
pub fn name_logins(
    rows: &[AccountRow],
    proxies: &[ProxyRow],
    loopback_users: &[String],
) -> Vec<NameLogin> {
    let mut out: Vec<NameLogin> = rows
        .iter()
        .filter_map(|r| {
            name_dependence(&r.host).map(|kind| NameLogin {
                user: r.user.clone(),
                host: r.host.clone(),
                kind,
                proxied: None,
            })
        })
        .collect();
    let host_name = |h: &str| name_dependence(h) == Some(NameLoginKind::HostName);
    for p in proxies {
        let listed = out.iter().any(|l| l.user == p.user && l.host == p.host);
        if host_name(&p.proxied_host) || (host_name(&p.host) && !listed) {
            out.push(NameLogin {
                user: p.user.clone(),
                host: p.host.clone(),
                kind: NameLoginKind::Proxy,
                proxied: Some(Account {
                    user: p.proxied_user.clone(),
                    host: p.proxied_host.clone(),
                }),
            });
        }
    }
    for user in loopback_users {
        let has = |pred: &dyn Fn(&str) -> bool| {
            rows.iter()
                .any(|r| &r.user == user && !r.is_role && pred(&r.host))
        };
        let localhost = |h: &str| h.eq_ignore_ascii_case("localhost");
        let loopback_address = |h: &str| is_local_host(h, None) && !localhost(h);
        let seen = out
            .iter()
            .any(|l| &l.user == user && l.kind == NameLoginKind::LoopbackTcp);
        if !seen && has(&localhost) && !has(&loopback_address) {
            out.push(NameLogin {
                user: user.clone(),
                host: "localhost".into(),
                kind: NameLoginKind::LoopbackTcp,
                proxied: None,
            });
        }
    }
    out
}

/// Read an account from a `mysql.global_priv` row (`User`, `Host`, `Priv`
/// JSON). A `Priv` that is not JSON yields an account with unknown
/// authentication (treated as having one).
pub fn from_global_priv(user: String, host: String, priv_json: &str) -> AccountRow {
    let v: serde_json::Value = serde_json::from_str(priv_json).unwrap_or_default();
    let s = |v: &serde_json::Value, k: &str| {
        v.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string()
    };
    let has_plugin = v.get("plugin").is_some();
    let alternatives = v
        .get("auth_or")
        .and_then(|a| a.as_array())
        .map(|alts| {
            alts.iter()
                // `{}` in auth_or means "the default": native password with
                // the account's main authentication string.
                .filter(|a| a.get("plugin").is_some())
                .map(|a| (s(a, "plugin"), s(a, "authentication_string")))
                .collect()
        })
        .unwrap_or_default();
    AccountRow {
        user,
        host,
        plugin: if has_plugin || !v.is_object() {
            s(&v, "plugin")
        } else {
            String::new()
        },
        auth_string: if v.is_object() {
            s(&v, "authentication_string")
        } else {
            // Unparseable: do not claim "no password".
            "?".into()
        },
        alternatives,
        locked: v
            .get("account_locked")
            .and_then(|x| x.as_bool())
            .unwrap_or(false),
        is_role: v.get("is_role").and_then(|x| x.as_bool()).unwrap_or(false),
    }
}

/// Read an account from a `mysql.user` row given as (column, value) pairs;
/// column names are matched case-insensitively. The old `Password` column
/// counts as the authentication string when `authentication_string` is empty.
pub fn from_user_columns(cols: &[(String, Option<String>)]) -> AccountRow {
    let get = |name: &str| {
        cols.iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(name))
            .and_then(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    // The collector asks only whether the string is empty (`auth_empty`),
    // so no hash is read; full rows (tests, old snapshots) still work.
    let mut auth = get("authentication_string");
    if auth.is_empty() {
        auth = get("Password");
    }
    if let Some((_, Some(flag))) = cols
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case("auth_empty"))
    {
        auth = if flag == "1" {
            String::new()
        } else {
            "*".into()
        };
    }
    AccountRow {
        user: get("User"),
        host: get("Host"),
        plugin: get("plugin"),
        auth_string: auth,
        alternatives: Vec::new(),
        locked: get("account_locked").eq_ignore_ascii_case("Y"),
        is_role: get("is_role").eq_ignore_ascii_case("Y"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gp(user: &str, host: &str, json: &str) -> AccountRow {
        from_global_priv(user.into(), host.into(), json)
    }

    #[test]
    fn classifies_a_fresh_mariadb_install() {
        let rows = vec![
            gp(
                "mariadb.sys",
                "localhost",
                r#"{"access":0,"plugin":"mysql_native_password","authentication_string":"","account_locked":true}"#,
            ),
            gp("root", "localhost", r#"{"access":18446744073709551615}"#),
            gp("root", "vm", r#"{"access":18446744073709551615}"#),
            gp("PUBLIC", "", r#"{"access":0,"is_role":true}"#),
            gp("", "localhost", "{}"),
            gp(
                "app",
                "%",
                r#"{"access":0,"plugin":"mysql_native_password","authentication_string":"*ABC"}"#,
            ),
            gp(
                "socky",
                "localhost",
                r#"{"plugin":"mysql_native_password","authentication_string":"invalid","auth_or":[{},{"plugin":"unix_socket"}]}"#,
            ),
        ];
        let a = audit(&rows, false);
        let names = |v: &Vec<Account>| {
            v.iter()
                .map(|a| format!("{}@{}", a.user, a.host))
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&a.anonymous), vec!["@localhost"]);
        assert_eq!(
            names(&a.without_password),
            vec!["root@localhost", "root@vm", "@localhost"]
        );
        assert_eq!(names(&a.any_host), vec!["app@%"]);
        assert_eq!(names(&a.remote_root), vec!["root@vm"]);
        assert!(!a.grant_tables_skipped);
    }

    #[test]
    fn own_names_and_loopback_are_local() {
        for h in [
            "localhost",
            "LOCALHOST",
            "127.0.0.1",
            "127.0.0.2",
            "127.%",
            "::1",
        ] {
            assert!(is_local_host(h, None), "{h}");
        }
        for h in ["%", "10.0.0.1", "vm", "127.example.com", "128.0.0.1", "::2"] {
            assert!(!is_local_host(h, None), "{h}");
        }
        assert!(is_local_host("vm", Some("vm")));
        assert!(is_local_host("VM", Some("vm.example.com")));
        assert!(is_local_host("vm.example.com", Some("vm")));
        assert!(!is_local_host("vm2", Some("vm")));
        assert!(!is_local_host("db.example.com", Some("vm")));
    }

    #[test]
    fn host_names_are_ignored_under_skip_name_resolve() {
        for h in ["app1", "%.example.com", "db-1.internal"] {
            assert!(is_name_host(h), "{h}");
            assert!(reachable_remotely(h, None, &[], false), "{h}");
            assert!(!reachable_remotely(h, None, &[], true), "{h}");
        }
        for h in [
            "%",
            "10.0.%",
            "192.168.1.0/255.255.255.0",
            "fe80::1",
            "2001:db8::%",
        ] {
            assert!(!is_name_host(h), "{h}");
            assert!(reachable_remotely(h, None, &[], true), "{h}");
        }
        assert!(!reachable_remotely("vm", Some("vm"), &[], false));
    }

    #[test]
    fn the_hosts_own_addresses_are_local() {
        let own = ["192.0.2.2".to_string(), "fd00::2".to_string()];
        assert!(!reachable_remotely("192.0.2.2", None, &own, false));
        assert!(!reachable_remotely("fd00:0::2", None, &own, false));
        assert!(reachable_remotely("192.0.2.3", None, &own, false));
        assert!(reachable_remotely("192.0.2.%", None, &own, false));
    }

    #[test]
    fn logins_that_need_names_are_host_names_patterns_proxies_and_loopback_tcp() {
        let acct = |user: &str, host: &str| AccountRow {
            user: user.into(),
            host: host.into(),
            ..AccountRow::default()
        };
        let rows = vec![
            acct("root", "localhost"),
            acct("root", "127.0.0.1"),
            acct("root", "vm"),
            acct("", "vm"),
            acct("app", "web1.example.com"),
            acct("app", "%"),
            acct("pat", "%.example.com"),
            acct("net", "10.0.%"),
            acct("mask", "192.168.1.0/255.255.255.0"),
            acct("six", "fe80::1"),
            acct("tcp", "localhost"),
            acct("both", "localhost"),
            acct("both", "::1"),
            acct("sock", "localhost"),
            AccountRow {
                is_role: true,
                ..acct("reader", "")
            },
        ];
        let proxies = vec![
            ProxyRow {
                user: "root".into(),
                host: "vm".into(),
                ..ProxyRow::default()
            },
            ProxyRow {
                user: "tcp".into(),
                host: "localhost".into(),
                proxied_user: "app".into(),
                proxied_host: "web1.example.com".into(),
            },
            ProxyRow {
                user: "root".into(),
                host: "localhost".into(),
                ..ProxyRow::default()
            },
        ];
        let seen = ["tcp", "both", "root", "ghost"].map(String::from);
        let found: Vec<String> = name_logins(&rows, &proxies, &seen)
            .iter()
            .map(|l| l.to_string())
            .collect();
        assert_eq!(
            found,
            [
                "'root'@'vm' (host name)",
                "''@'vm' (host name)",
                "'app'@'web1.example.com' (host name)",
                "'pat'@'%.example.com' (pattern of host names)",
                "PROXY ON 'app'@'web1.example.com' TO 'tcp'@'localhost' (host name)",
                "'tcp'@'localhost' (used over TCP loopback, seen as localhost:PORT; no 'tcp'@'127.0.0.1' or 'tcp'@'::1' account)",
            ]
        );
        // Only IP addresses, patterns of them, `%` and localhost: none.
        let plain = vec![
            acct("a", "%"),
            acct("b", "10.0.0.5"),
            acct("c", "localhost"),
        ];
        assert!(name_logins(&plain, &[], &[]).is_empty());
    }

    #[test]
    fn reads_mysql_user_columns_of_any_version() {
        let row = |pairs: &[(&str, &str)]| {
            from_user_columns(
                &pairs
                    .iter()
                    .map(|(c, v)| (c.to_string(), Some(v.to_string())))
                    .collect::<Vec<_>>(),
            )
        };
        // MySQL 8.0
        let r = row(&[
            ("Host", "%"),
            ("User", "root"),
            ("plugin", "caching_sha2_password"),
            ("authentication_string", ""),
            ("account_locked", "N"),
        ]);
        let a = audit(&[r], false);
        assert_eq!(a.without_password.len(), 1);
        assert_eq!(a.remote_root.len(), 1);
        assert_eq!(a.any_host.len(), 1);
        // MySQL 5.6 / MariaDB 10.3: the hash is in Password.
        let r = row(&[
            ("Host", "localhost"),
            ("User", "app"),
            ("Password", "*94BD"),
            ("plugin", ""),
            ("authentication_string", ""),
        ]);
        assert!(audit(&[r], false).without_password.is_empty());
        // Locked accounts cannot log in.
        let r = row(&[
            ("Host", "localhost"),
            ("User", "mysql.sys"),
            ("plugin", "mysql_native_password"),
            ("authentication_string", ""),
            ("account_locked", "Y"),
        ]);
        assert!(audit(&[r], false).without_password.is_empty());
    }
}
