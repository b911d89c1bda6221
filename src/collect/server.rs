//! Server facts over one read-only connection, in a handful of queries.
//!
//! Without `--interval` a collection runs at most nine statements: read-only
//! session, `SHOW GRANTS`, `SHOW GLOBAL VARIABLES`, `SHOW GLOBAL STATUS`, the
//! account audit (the accounts, the proxy grants and the users connected
//! over TCP loopback in one `UNION ALL`) and its database-level grants
//! (`mysql.db`), the host cache summary (only with `performance_schema =
//! ON`) and the two data-size statements; `--interval` adds one more
//! `SHOW GLOBAL STATUS`, and an account audit whose `UNION ALL` the server
//! refuses (no SELECT on `mysql.proxies_priv`) is asked again without it. [`Session`] counts them and the count is stored in the snapshot
//! so the benchmark can assert the budget (≤ 20).
//!
//! Missing privileges never fail a collection: the part is left out and
//! recorded in [`Facts::skipped`](crate::facts::Facts) as "needs PRIVILEGE".

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use mysql::prelude::Queryable;

use crate::collect::audit::{self, AccountRow, ProxyRow};
use crate::collect::connect::{self, ConnectError, ConnectionConfig};
use crate::facts::Skipped;
use crate::facts::server::{
    AccountAudit, DataSize, DbGrant, EngineSize, HostCache, ServerFacts, StatusSample,
};
use crate::target::{Flavor, TimeBox, Version};

/// Server error codes that mean "this account may not do that".
const PRIVILEGE_ERRORS: [u16; 5] = [1044, 1142, 1143, 1227, 1370];
/// Server error codes of a statement stopped by its time box
/// (MariaDB `max_statement_time`, MySQL `MAX_EXECUTION_TIME`, interrupted).
const TIMEOUT_ERRORS: [u16; 3] = [1969, 3024, 1317];

/// An open, read-only connection that counts its statements.
///
/// A statement whose reply does not come within `--read-timeout` (or comes
/// broken) leaves that reply on the connection, where the next statement
/// would read it as its own: every later reply shifted by one. So the
/// connection is dropped with it and another opened (read-only again); when
/// that fails, every later statement fails with the reason, never with a
/// stale reply.
pub struct Session {
    conn: mysql::Conn,
    cfg: ConnectionConfig,
    queries: u32,
    /// Why the connection was lost and could not be opened again.
    lost: Option<String>,
    /// Connections opened again after a reply that never came.
    reopened: u32,
}

/// How many times a lost connection is opened again in one collection.
const MAX_REOPEN: u32 = 3;

/// Why a collection failed (a missing privilege is not a failure).
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error(transparent)]
    Connect(#[from] ConnectError),
    #[error("{what} failed on {endpoint}: {message}")]
    Query {
        what: &'static str,
        endpoint: String,
        message: String,
    },
    #[error("the server reported a version mytune cannot read: '{0}'")]
    Version(String),
}

impl Session {
    /// Connect and make the session read-only.
    pub fn open(cfg: &ConnectionConfig) -> Result<Session, ServerError> {
        let conn = connect::open(cfg)?;
        let mut s = Session {
            conn,
            cfg: cfg.clone(),
            queries: 0,
            lost: None,
            reopened: 0,
        };
        s.read_only();
        Ok(s)
    }

    /// Supported by MySQL ≥ 5.6.5 and MariaDB ≥ 10.0; older servers keep a
    /// normal session, and we only send SELECT/SHOW anyway.
    fn read_only(&mut self) {
        let _ = self.rows("SET SESSION TRANSACTION READ ONLY");
    }

    /// Statements sent so far.
    pub fn queries(&self) -> u32 {
        self.queries
    }

    /// Connections opened again after a reply that never came.
    pub fn reopened(&self) -> u32 {
        self.reopened
    }

    /// Run one statement and return its rows. A server error leaves the
    /// connection in step; any other error (a read timeout, a broken
    /// reply) does not, so the connection is replaced.
    fn rows(&mut self, sql: &str) -> Result<Vec<mysql::Row>, mysql::Error> {
        if let Some(why) = &self.lost {
            return Err(mysql::Error::IoError(std::io::Error::new(
                std::io::ErrorKind::NotConnected,
                why.clone(),
            )));
        }
        self.queries += 1;
        let result = self.conn.query(sql);
        if let Err(e) = &result
            && !matches!(e, mysql::Error::MySqlError(_))
        {
            self.reopen(e);
        }
        result
    }

    /// Drop the connection (and the reply still owed on it) and open
    /// another, or record why not.
    fn reopen(&mut self, cause: &mysql::Error) {
        if self.reopened >= MAX_REOPEN {
            self.lost = Some(format!(
                "connection dropped after {} replies that never came; the last: {}",
                self.reopened + 1,
                connect::describe(cause, &self.cfg)
            ));
            return;
        }
        match connect::open(&self.cfg) {
            Ok(conn) => {
                // The old connection goes now, unread.
                self.conn = conn;
                self.reopened += 1;
                self.read_only();
            }
            Err(e) => {
                self.lost = Some(format!(
                    "connection dropped after a reply that never came ({}), and opening another failed: {e}",
                    connect::describe(cause, &self.cfg)
                ))
            }
        }
    }

    fn query_error(&self, what: &'static str, e: &mysql::Error) -> ServerError {
        ServerError::Query {
            what,
            endpoint: self.cfg.endpoint(),
            message: connect::describe(e, &self.cfg),
        }
    }

    /// Name/value rows of a `SHOW ...` statement, names lowercased.
    fn name_values(
        &mut self,
        what: &'static str,
        sql: &str,
    ) -> Result<BTreeMap<String, String>, ServerError> {
        let rows = self.rows(sql).map_err(|e| self.query_error(what, &e))?;
        Ok(rows
            .into_iter()
            .filter_map(|mut r| {
                let mut name = take_cell(&mut r, 0)?;
                name.make_ascii_lowercase();
                Some((name, take_cell(&mut r, 1).unwrap_or_default()))
            })
            .collect())
    }
}

/// What to collect from the server.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ServerOptions {
    /// Take a second status sample after this long.
    pub interval: Option<Duration>,
    /// Server-side time box of the data-size summary.
    pub data_size_timeout: Duration,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            interval: None,
            data_size_timeout: Duration::from_millis(500),
        }
    }
}

/// Collect server facts. `progress(waited, total)` is called while waiting
/// for the interval.
pub fn collect(
    s: &mut Session,
    opts: &ServerOptions,
    progress: &mut dyn FnMut(Duration, Duration),
) -> Result<(ServerFacts, Vec<Skipped>), ServerError> {
    let mut skipped = Vec::new();
    // Error 1290 ("running with the --skip-grant-tables option") is how
    // servers without a skip_grant_tables variable (MySQL) reveal it.
    let mut grants_refused_1290 = false;
    let grants = match s.rows("SHOW GRANTS") {
        Ok(rows) => rows
            .iter()
            .filter_map(|r| cell(r, 0))
            .map(|g| redact_grant(&g))
            .collect(),
        Err(e) => {
            grants_refused_1290 = matches!(&e, mysql::Error::MySqlError(me) if me.code == 1290);
            skipped.push(skip_reason(&s.cfg, "grants", &e, "SHOW GRANTS"));
            Vec::new()
        }
    };
    let mut variables = s.name_values("SHOW GLOBAL VARIABLES", "SHOW GLOBAL VARIABLES")?;
    // Credentials (report_password, wsrep_sst_auth, ...) never reach facts.
    crate::facts::server::redact_credentials(&mut variables);
    let first_at = Instant::now();
    let status = s.name_values("SHOW GLOBAL STATUS", "SHOW GLOBAL STATUS")?;

    let version_string = variables.get("version").cloned().unwrap_or_default();
    let version_comment = variables.get("version_comment").cloned();
    let version = Version::parse_prefix(&version_string)
        .ok_or_else(|| ServerError::Version(version_string.clone()))?;
    let flavor = Flavor::detect(&version_string, version_comment.as_deref().unwrap_or(""));
    let uptime_secs = status
        .get("uptime")
        .and_then(|u| u.parse().ok())
        .unwrap_or(0);

    let grant_tables_skipped = grants_refused_1290
        || variables
            .get("skip_grant_tables")
            .is_some_and(|v| v.eq_ignore_ascii_case("ON"));
    let mut accounts = match read_accounts(s, flavor, version) {
        Ok(read) => {
            let mut a = audit::audit(&read.rows, grant_tables_skipped);
            a.name_logins = Some(audit::name_logins(
                &read.rows,
                &read.proxies,
                &read.loopback_users,
            ));
            match read.names_unread {
                Some(reason) => a.name_logins_unread.push(format!(
                    "the proxy grants and the logins over TCP loopback ({reason})"
                )),
                // Without PROCESS the process list shows only this
                // account's own connections.
                None if !has_global_grant(&grants, "PROCESS") => a
                    .name_logins_unread
                    .push("other accounts' connections over TCP loopback (needs PROCESS)".into()),
                None => {}
            }
            Some(a)
        }
        Err(e) => {
            let table = if uses_global_priv(flavor, version) {
                "mysql.global_priv"
            } else {
                "mysql.user"
            };
            skipped.push(skip_reason(
                &s.cfg,
                "accounts",
                &e,
                &format!("SELECT on {table}"),
            ));
            grant_tables_skipped.then(|| AccountAudit {
                grant_tables_skipped,
                ..Default::default()
            })
        }
    };

    if let Some(a) = accounts.as_mut().filter(|a| !a.grant_tables_skipped) {
        match s.rows(PUBLIC_DB_GRANTS_SQL) {
            Ok(rows) => {
                a.public_db_grants = Some(
                    rows.iter()
                        .map(|r| DbGrant {
                            db: cell(r, 0).unwrap_or_default(),
                            host: cell(r, 1).unwrap_or_default(),
                        })
                        .collect(),
                )
            }
            Err(e) => skipped.push(skip_reason(
                &s.cfg,
                "database grants",
                &e,
                "SELECT on mysql.db",
            )),
        }
    }

    let host_cache = if variables
        .get("performance_schema")
        .is_some_and(|v| v.eq_ignore_ascii_case("ON"))
    {
        match s.rows(HOST_CACHE_SQL) {
            Ok(rows) => rows.first().map(|r| {
                let n = |i| cell(r, i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
                HostCache {
                    hosts: n(0),
                    connect_errors: n(1),
                    blocked_errors: n(2),
                    max_connect_errors: n(3),
                }
            }),
            Err(e) => {
                skipped.push(skip_reason(
                    &s.cfg,
                    "host_cache",
                    &e,
                    "SELECT on performance_schema.host_cache",
                ));
                None
            }
        }
    } else {
        None
    };

    let data_size = collect_data_size(
        s,
        flavor,
        version,
        &variables,
        &grants,
        opts.data_size_timeout,
        &mut skipped,
    );

    let sample = match opts.interval {
        Some(total) if !total.is_zero() => {
            let mut last_ping = Instant::now();
            loop {
                let waited = first_at.elapsed();
                progress(waited.min(total), total);
                if waited >= total {
                    break;
                }
                // A server that stops during the wait is reported now, not
                // when the wait is over (COM_PING is not a statement).
                if last_ping.elapsed() >= Duration::from_secs(1) {
                    last_ping = Instant::now();
                    if let Err(e) = s.conn.ping() {
                        return Err(ServerError::Query {
                            what: "the --interval wait",
                            endpoint: s.cfg.endpoint(),
                            message: format!(
                                "the server stopped answering {:.1} s into the {} s wait: {}",
                                waited.as_secs_f64(),
                                total.as_secs(),
                                connect::describe(&e, &s.cfg)
                            ),
                        });
                    }
                }
                std::thread::sleep((total - waited).min(Duration::from_millis(200)));
            }
            let second = s.name_values("second SHOW GLOBAL STATUS", "SHOW GLOBAL STATUS")?;
            Some(StatusSample {
                interval_secs: first_at.elapsed().as_secs_f64(),
                status: second,
            })
        }
        _ => None,
    };

    let facts = ServerFacts {
        version_string,
        version_comment,
        flavor,
        version,
        uptime_secs,
        is_local: s.cfg.is_local(),
        variables,
        status,
        sample,
        accounts,
        data_size,
        host_cache,
        grants,
        queries: Some(s.queries()),
        error_log: None,
    };
    Ok((facts, skipped))
}

/// `mysql.global_priv` with every non-empty authentication string (main and
/// `auth_or`) replaced by `*` on the server: the audit only needs to know
/// which are empty, and the hashes stay on the server.
pub const GLOBAL_PRIV_SQL: &str = "SELECT User, Host, REGEXP_REPLACE(Priv, \
     '\"authentication_string\": *\"[^\"]+\"', '\"authentication_string\":\"*\"') \
     FROM mysql.global_priv";

/// Database-level grants that apply to every account: `mysql.db` rows with
/// an empty user name (`test` and `test\_%` on old installs). A handful of
/// rows at most; no privilege columns are read.
pub const PUBLIC_DB_GRANTS_SQL: &str = "SELECT Db, Host FROM mysql.db WHERE User = ''";

/// The host cache in one row: hosts, the errors that count toward
/// `max_connect_errors`, the connections refused from blocked hosts, and the
/// worst host. At most `host_cache_size` rows (128 by default) are summed.
pub const HOST_CACHE_SQL: &str = "SELECT COUNT(*), COALESCE(SUM(SUM_CONNECT_ERRORS), 0), \
     COALESCE(SUM(COUNT_HOST_BLOCKED_ERRORS), 0), COALESCE(MAX(SUM_CONNECT_ERRORS), 0) \
     FROM performance_schema.host_cache";

/// `mysql.user` as (User, Host, plugin, auth_empty, account_locked,
/// is_role): `auth_empty` is `1` when the account has no authentication
/// string, so the hash itself is never sent.
pub fn user_table_sql(flavor: Flavor, version: Version) -> &'static str {
    let traits = flavor.traits();
    if traits.account_locked_since.is_some_and(|v| version >= v) {
        "SELECT User, Host, plugin, authentication_string = '' AS auth_empty, \
         account_locked, 'N' AS is_role FROM mysql.user"
    } else if traits.roles_in_user_table {
        // MariaDB before 10.4: the old Password column too, and roles.
        "SELECT User, Host, plugin, (authentication_string = '' AND Password = '') AS auth_empty, \
         'N' AS account_locked, is_role FROM mysql.user"
    } else {
        "SELECT User, Host, plugin, (authentication_string = '' AND Password = '') AS auth_empty, \
         'N' AS account_locked, 'N' AS is_role FROM mysql.user"
    }
}

fn uses_global_priv(flavor: Flavor, version: Version) -> bool {
    flavor
        .traits()
        .global_priv_since
        .is_some_and(|v| version >= v)
}

/// The rows [`accounts_sql`] adds after the accounts, each tagged in a last
/// `Kind` column: the proxy grants (`N:USERHOST`, the proxied user's length
/// in characters first, since a user name may hold any character), and the
/// users of the connections that reached the server over TCP loopback while
/// it resolves names (the process list shows such a client as
/// `localhost:PORT`, a socket client as `localhost`). `nulls` pads the rows
/// to the accounts' width.
fn name_rows_sql(nulls: usize) -> String {
    let pad = ", NULL".repeat(nulls);
    format!(
        " UNION ALL SELECT User, Host, CONCAT(CHAR_LENGTH(Proxied_user), ':', Proxied_user, \
         Proxied_host){pad}, 'proxy' FROM mysql.proxies_priv \
         UNION ALL SELECT DISTINCT USER, '', NULL{pad}, 'loopback' \
         FROM information_schema.PROCESSLIST WHERE HOST LIKE 'localhost:%'"
    )
}

/// The account audit in one statement: [`GLOBAL_PRIV_SQL`] or
/// [`user_table_sql`] with a `Kind` column (`account`), and the proxy
/// grants and TCP loopback users of [`name_rows_sql`] after them.
pub fn accounts_sql(flavor: Flavor, version: Version) -> String {
    if uses_global_priv(flavor, version) {
        let base = GLOBAL_PRIV_SQL.replace(
            " FROM mysql.global_priv",
            " AS Priv, 'account' AS Kind FROM mysql.global_priv",
        );
        format!("{base}{}", name_rows_sql(0))
    } else {
        let base = user_table_sql(flavor, version)
            .replace(" FROM mysql.user", ", 'account' AS Kind FROM mysql.user");
        format!("{base}{}", name_rows_sql(3))
    }
}

/// What the account statement returned.
struct AccountsRead {
    rows: Vec<AccountRow>,
    proxies: Vec<ProxyRow>,
    loopback_users: Vec<String>,
    /// Why the proxy grants and loopback users were not read (the server
    /// refused the folded statement), else `None`.
    names_unread: Option<String>,
}

fn read_accounts(
    s: &mut Session,
    flavor: Flavor,
    version: Version,
) -> Result<AccountsRead, mysql::Error> {
    let (rows, names_unread) = match s.rows(&accounts_sql(flavor, version)) {
        Ok(rows) => (rows, None),
        // Only a refusal is worth asking again without the proxy grants; a
        // statement that timed out would time out again.
        Err(e @ mysql::Error::MySqlError(_)) => {
            let why = skip_reason(&s.cfg, "", &e, "SELECT on mysql.proxies_priv").reason;
            let plain = if uses_global_priv(flavor, version) {
                GLOBAL_PRIV_SQL
            } else {
                user_table_sql(flavor, version)
            };
            (s.rows(plain)?, Some(why))
        }
        Err(e) => return Err(e),
    };
    let mut read = AccountsRead {
        rows: Vec::new(),
        proxies: Vec::new(),
        loopback_users: Vec::new(),
        names_unread,
    };
    for r in &rows {
        let cols: Vec<(String, Option<String>)> = r
            .columns_ref()
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name_str().into_owned(), cell(r, i)))
            .collect();
        let get = |name: &str| {
            cols.iter()
                .find(|(c, _)| c.eq_ignore_ascii_case(name))
                .and_then(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        match get("Kind").as_str() {
            "proxy" => {
                if let Some((user, host)) = split_proxied(&cell(r, 2).unwrap_or_default()) {
                    read.proxies.push(ProxyRow {
                        user: get("User"),
                        host: get("Host"),
                        proxied_user: user,
                        proxied_host: host,
                    });
                }
            }
            "loopback" => read.loopback_users.push(get("User")),
            // `account`, or no Kind column (the plain statement).
            _ if uses_global_priv(flavor, version) => read.rows.push(audit::from_global_priv(
                cell(r, 0).unwrap_or_default(),
                cell(r, 1).unwrap_or_default(),
                &cell(r, 2).unwrap_or_default(),
            )),
            // Only whether the authentication string is empty is asked
            // for, so no hash crosses the wire; the columns differ by
            // version.
            _ => read.rows.push(audit::from_user_columns(&cols)),
        }
    }
    Ok(read)
}

/// `N:USERHOST` (N the user's length in characters) as (user, host).
fn split_proxied(text: &str) -> Option<(String, String)> {
    let (n, rest) = text.split_once(':')?;
    let n: usize = n.parse().ok()?;
    let split = rest.char_indices().nth(n).map_or(rest.len(), |(i, _)| i);
    Some((rest[..split].to_string(), rest[split..].to_string()))
}

/// InnoDB sizes from persistent statistics: one row per table, no table is
/// opened, so it stays fast with 100k tables (information_schema.TABLES
/// opens every table: about 5 s for 20,000 tables on MariaDB 10.11).
pub const INNODB_STATS_SQL: &str = "SELECT COUNT(*), COALESCE(SUM(clustered_index_size), 0), \
    COALESCE(SUM(sum_of_other_index_sizes), 0) FROM mysql.innodb_table_stats \
    WHERE database_name NOT IN ('mysql', 'sys')";

/// The information_schema summary statement for a server, with its time
/// box; without InnoDB when its sizes came from persistent statistics.
pub fn data_size_sql(
    flavor: Flavor,
    version: Version,
    timeout: Duration,
    skip_innodb: bool,
) -> String {
    let body = format!(
        "ENGINE, COUNT(*), COALESCE(SUM(DATA_LENGTH), 0), COALESCE(SUM(INDEX_LENGTH), 0) \
        FROM information_schema.TABLES \
        WHERE TABLE_TYPE = 'BASE TABLE' \
        AND TABLE_SCHEMA NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys'){} \
        GROUP BY ENGINE",
        if skip_innodb {
            " AND ENGINE <> 'InnoDB'"
        } else {
            ""
        }
    );
    match flavor.traits().time_box {
        (TimeBox::StatementTime, since) if version >= since => format!(
            "SET STATEMENT max_statement_time = {:.3} FOR SELECT {body}",
            timeout.as_secs_f64()
        ),
        (TimeBox::ExecutionTimeHint, since) if version >= since => format!(
            "SELECT /*+ MAX_EXECUTION_TIME({}) */ {body}",
            timeout.as_millis()
        ),
        // Older servers have no time box; the driver's read timeout applies.
        _ => format!("SELECT {body}"),
    }
}

/// The data-size summary: InnoDB from persistent statistics when they are
/// on and readable, the other engines (or all, as a fallback) from a
/// time-boxed information_schema query. What could not be counted is
/// recorded in `skipped` and makes the summary incomplete.
fn collect_data_size(
    s: &mut Session,
    flavor: Flavor,
    version: Version,
    variables: &BTreeMap<String, String>,
    grants: &[String],
    timeout: Duration,
    skipped: &mut Vec<Skipped>,
) -> Option<DataSize> {
    let mut ds = DataSize {
        engines: BTreeMap::new(),
        complete: true,
    };
    let num = |r: &mysql::Row, i| cell(r, i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    let persistent = variables
        .get("innodb_stats_persistent")
        .is_some_and(|v| v.eq_ignore_ascii_case("ON"));
    let page_size: u64 = variables
        .get("innodb_page_size")
        .and_then(|v| v.parse().ok())
        .unwrap_or(16384);
    let mut innodb_done = false;
    if persistent && let Ok(rows) = s.rows(INNODB_STATS_SQL) {
        // A privilege error here just means the fallback below counts InnoDB.
        if let Some(r) = rows.first() {
            let tables = num(r, 0);
            if tables > 0 {
                ds.engines.insert(
                    "InnoDB".into(),
                    EngineSize {
                        tables,
                        data_bytes: num(r, 1).saturating_mul(page_size),
                        index_bytes: num(r, 2).saturating_mul(page_size),
                    },
                );
            }
            innodb_done = true;
        }
    }
    match s.rows(&data_size_sql(flavor, version, timeout, innodb_done)) {
        Ok(rows) => {
            for r in &rows {
                if let Some(engine) = cell(r, 0) {
                    ds.engines.insert(
                        engine,
                        EngineSize {
                            tables: num(r, 1),
                            data_bytes: num(r, 2),
                            index_bytes: num(r, 3),
                        },
                    );
                }
            }
        }
        Err(e) => {
            let what = if innodb_done {
                "tables of engines other than InnoDB were not counted"
            } else {
                "no table was counted"
            };
            let reason = if is_timeout(&e) {
                format!(
                    "{what}: information_schema.TABLES timed out after {timeout:?} (raise --data-size-timeout)"
                )
            } else {
                format!(
                    "{what}: {}",
                    skip_reason(&s.cfg, "", &e, "SELECT on information_schema.TABLES").reason
                )
            };
            skipped.push(Skipped {
                what: "data_size".into(),
                reason,
            });
            if !innodb_done {
                return None;
            }
            ds.complete = false;
        }
    }
    // information_schema.TABLES lists only the tables the account holds a
    // privilege on: PROCESS or REPLICATION CLIENT alone shows none, and the
    // data would read as empty.
    if !sees_every_table(grants) {
        ds.complete = false;
        let counted = if innodb_done {
            ": InnoDB was counted from mysql.innodb_table_stats, the other engines only as far as visible"
        } else if ds.engines.is_empty() {
            ""
        } else {
            ": only the tables it can see were counted"
        };
        skipped.push(Skipped {
            what: "data_size".into(),
            reason: format!(
                "needs {TABLE_VISIBILITY_GRANT} (information_schema.TABLES shows an account only the tables it holds a privilege on){counted}"
            ),
        });
    }
    Some(ds)
}

/// Does a `SHOW GRANTS` list grant `privilege` on `*.*` (by name or as
/// `ALL PRIVILEGES`)? Privileges through roles are not followed.
pub fn has_global_grant(grants: &[String], privilege: &str) -> bool {
    grants.iter().any(|g| {
        let Some((privs, _)) = g
            .strip_prefix("GRANT ")
            .and_then(|rest| rest.split_once(" ON *.* "))
        else {
            return false;
        };
        privs.split(',').map(str::trim).any(|p| {
            p.eq_ignore_ascii_case(privilege)
                || p.eq_ignore_ascii_case("ALL PRIVILEGES")
                || p.eq_ignore_ascii_case("ALL")
        })
    })
}

/// The grant that lets an account see every table's size without reading
/// its rows.
pub const TABLE_VISIBILITY_GRANT: &str = "SHOW VIEW (or SELECT) on *.*";

/// Table-level privileges: held on `*.*`, each makes every table visible
/// in `information_schema.TABLES`. Global-only privileges (PROCESS, RELOAD,
/// REPLICATION CLIENT, SHOW DATABASES, ...) show no table.
const TABLE_PRIVILEGES: [&str; 14] = [
    "SELECT",
    "INSERT",
    "UPDATE",
    "DELETE",
    "CREATE",
    "DROP",
    "REFERENCES",
    "INDEX",
    "ALTER",
    "CREATE VIEW",
    "SHOW VIEW",
    "TRIGGER",
    "DELETE HISTORY",
    "ALL PRIVILEGES",
];

/// Does a `SHOW GRANTS` list let the account see every table in
/// `information_schema.TABLES` (a table-level privilege on `*.*`)?
/// Privileges through roles are not followed: such an account reads as
/// one that may not, and the data size as unknown.
pub fn sees_every_table(grants: &[String]) -> bool {
    grants.iter().any(|g| {
        let Some((privs, _)) = g
            .strip_prefix("GRANT ")
            .and_then(|rest| rest.split_once(" ON *.* "))
        else {
            return false;
        };
        privs.split(',').map(str::trim).any(|p| {
            TABLE_PRIVILEGES.iter().any(|t| p.eq_ignore_ascii_case(t))
                || p.eq_ignore_ascii_case("ALL")
        })
    })
}

/// Drop the authentication part of a grant line (`IDENTIFIED BY PASSWORD
/// '*hash'`, `IDENTIFIED VIA plugin USING '...'`): password hashes never go
/// into a snapshot.
pub fn redact_grant(line: &str) -> String {
    let Some(start) = line.find(" IDENTIFIED ") else {
        return line.to_string();
    };
    let rest = &line[start..];
    match rest.find(" WITH ") {
        Some(w) => format!("{}{}", &line[..start], &rest[w..]),
        None => line[..start].to_string(),
    }
}

fn is_timeout(e: &mysql::Error) -> bool {
    matches!(e, mysql::Error::MySqlError(me) if TIMEOUT_ERRORS.contains(&me.code))
}

/// A skipped part: "needs PRIVILEGE" for privilege errors, the server's
/// message otherwise.
fn skip_reason(cfg: &ConnectionConfig, what: &str, e: &mysql::Error, privilege: &str) -> Skipped {
    let reason = match e {
        mysql::Error::MySqlError(me) if PRIVILEGE_ERRORS.contains(&me.code) => {
            format!("needs {privilege}")
        }
        other => connect::describe(other, cfg),
    };
    Skipped {
        what: what.to_string(),
        reason,
    }
}

/// A cell as text (`SHOW` results come as bytes); `None` for NULL.
/// [`cell`], moving the text out of the row (no copy: a fleet reads a
/// thousand variables and status counters per server).
fn take_cell(row: &mut mysql::Row, i: usize) -> Option<String> {
    match row.take::<mysql::Value, _>(i)? {
        mysql::Value::Bytes(b) => Some(
            String::from_utf8(b)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        ),
        other => value_text(&other),
    }
}

fn cell(row: &mysql::Row, i: usize) -> Option<String> {
    value_text(row.as_ref(i)?)
}

fn value_text(value: &mysql::Value) -> Option<String> {
    match value {
        mysql::Value::NULL => None,
        mysql::Value::Bytes(b) => Some(String::from_utf8_lossy(b).into_owned()),
        mysql::Value::Int(n) => Some(n.to_string()),
        mysql::Value::UInt(n) => Some(n.to_string()),
        mysql::Value::Float(f) => Some(f.to_string()),
        mysql::Value::Double(f) => Some(f.to_string()),
        other => Some(other.as_sql(true).trim_matches('\'').to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_boxes_by_flavor() {
        let t = Duration::from_millis(1500);
        assert!(
            data_size_sql(Flavor::Mariadb, Version::new(10, 11, 0), t, false)
                .starts_with("SET STATEMENT max_statement_time = 1.500 FOR SELECT")
        );
        assert!(
            data_size_sql(Flavor::Mysql, Version::new(8, 0, 36), t, true)
                .starts_with("SELECT /*+ MAX_EXECUTION_TIME(1500) */")
        );
        assert!(
            data_size_sql(Flavor::Mysql, Version::new(5, 6, 51), t, false)
                .starts_with("SELECT ENGINE")
        );
        // The first releases with the syntax, from their manuals: MariaDB's
        // SET STATEMENT came in 10.1.2 (max_statement_time one release
        // before), MySQL's hint in 5.7.8.
        let sql = |f, v: &str| data_size_sql(f, v.parse().unwrap(), t, false);
        assert!(sql(Flavor::Mariadb, "10.1.1").starts_with("SELECT ENGINE"));
        assert!(sql(Flavor::Mariadb, "10.1.2").starts_with("SET STATEMENT"));
        assert!(sql(Flavor::Mysql, "5.7.7").starts_with("SELECT ENGINE"));
        assert!(sql(Flavor::Mysql, "5.7.8").starts_with("SELECT /*+ MAX_EXECUTION_TIME"));
    }

    /// MySQL 5.7.6 added `account_locked` and dropped `Password`: the
    /// account audit asks a 5.7.5 server for the old columns.
    #[test]
    fn the_user_table_columns_follow_the_release_that_changed_them() {
        let at = |f, v: &str| user_table_sql(f, v.parse().unwrap());
        assert!(at(Flavor::Mysql, "5.7.5").contains("Password = ''"));
        assert!(at(Flavor::Mysql, "5.7.6").contains("account_locked"));
        assert!(!at(Flavor::Mysql, "5.7.6").contains("Password"));
        assert!(at(Flavor::Mariadb, "10.3.39").contains("is_role"));
    }

    #[test]
    fn grants_lose_their_password_hashes() {
        assert_eq!(
            redact_grant("GRANT USAGE ON *.* TO `u`@`localhost` IDENTIFIED BY PASSWORD '*E465C3'"),
            "GRANT USAGE ON *.* TO `u`@`localhost`"
        );
        assert_eq!(
            redact_grant(
                "GRANT ALL PRIVILEGES ON *.* TO `r`@`%` IDENTIFIED VIA ed25519 USING 'abc' WITH GRANT OPTION"
            ),
            "GRANT ALL PRIVILEGES ON *.* TO `r`@`%` WITH GRANT OPTION"
        );
        assert_eq!(
            redact_grant("GRANT SELECT ON `a`.* TO `u`@`%`"),
            "GRANT SELECT ON `a`.* TO `u`@`%`"
        );
    }

    #[test]
    fn proxied_accounts_split_by_length() {
        assert_eq!(
            split_proxied("3:appweb1.example.com"),
            Some(("app".into(), "web1.example.com".into()))
        );
        assert_eq!(split_proxied("0:"), Some((String::new(), String::new())));
        assert_eq!(
            split_proxied("4:a:b@h%"),
            Some(("a:b@".into(), "h%".into()))
        );
        assert_eq!(split_proxied("2:é€x"), Some(("é€".into(), "x".into())));
        assert_eq!(split_proxied("junk"), None);
    }

    #[test]
    fn the_account_statement_keeps_its_columns_and_adds_the_names() {
        let sql = accounts_sql(Flavor::Mariadb, Version::new(10, 11, 0));
        assert!(
            sql.starts_with("SELECT User, Host, REGEXP_REPLACE("),
            "{sql}"
        );
        assert!(sql.contains("AS Priv, 'account' AS Kind FROM mysql.global_priv UNION ALL"));
        assert!(sql.contains("FROM mysql.proxies_priv"));
        assert!(sql.ends_with("WHERE HOST LIKE 'localhost:%'"));
        let sql = accounts_sql(Flavor::Mysql, Version::new(8, 0, 36));
        assert!(sql.contains("'N' AS is_role, 'account' AS Kind FROM mysql.user UNION ALL"));
        assert!(sql.contains("NULL, NULL, NULL, 'proxy'"), "{sql}");
    }

    #[test]
    fn process_privilege_from_grants() {
        assert!(has_global_grant(
            &["GRANT SELECT, PROCESS ON *.* TO `m`@`%`".into()],
            "PROCESS"
        ));
        assert!(has_global_grant(
            &["GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost` WITH GRANT OPTION".into()],
            "PROCESS"
        ));
        assert!(!has_global_grant(
            &["GRANT PROCESS ON `db`.* TO `m`@`%`".into()],
            "PROCESS"
        ));
        assert!(!has_global_grant(
            &["GRANT SELECT ON *.* TO `m`@`%`".into()],
            "PROCESS"
        ));
    }

    #[test]
    fn table_visibility_from_grants() {
        assert!(!sees_every_table(&["GRANT USAGE ON *.* TO `u`@`%`".into()]));
        assert!(sees_every_table(&[
            "GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost` WITH GRANT OPTION".into()
        ]));
        assert!(sees_every_table(&[
            "GRANT PROCESS, SHOW VIEW ON *.* TO `m`@`%`".into()
        ]));
        // PROCESS alone shows no table: issue 51.
        assert!(!sees_every_table(&[
            "GRANT PROCESS, REPLICATION CLIENT, SHOW DATABASES ON *.* TO `m`@`%`".into()
        ]));
        assert!(!sees_every_table(&[
            "GRANT USAGE ON *.* TO `u`@`%`".into(),
            "GRANT SELECT ON `app`.* TO `u`@`%`".into()
        ]));
    }
}
