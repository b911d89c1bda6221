//! What server product and version a piece of advice is for.
//!
//! MySQL, MariaDB and Percona Server share most variable names but not their
//! histories: a variable removed in MySQL 8.0 may still exist in MariaDB 11, and
//! version numbers of the two lines are not comparable. Everything that depends
//! on "which server" takes a [`Target`] (flavor + version) rather than a bare
//! version string, so the comparison can never mix the two lines.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The server product line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Flavor {
    Mysql,
    Mariadb,
    Percona,
    /// Percona XtraDB Cluster: Percona Server plus Galera (`wsrep_*`,
    /// `pxc_*`). Everything that holds for Percona Server holds for it
    /// ([`Flavor::base`]).
    Pxc,
}

/// What one server product does its own way, as one row of [`TRAITS`]: a
/// new fork is a new row, and the code that differs by product asks its row
/// instead of comparing flavors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlavorTraits {
    pub flavor: Flavor,
    /// The name in targets and JSON (`mariadb-10.11`).
    pub name: &'static str,
    /// The product's name in every message and report.
    pub product: &'static str,
    /// The product line whose rules and version numbers it follows (PXC is
    /// Percona Server with Galera, so rules written for `percona` apply to
    /// it); a product line is its own base.
    pub base: Flavor,
    /// Words of `SELECT VERSION()` or `@@version_comment` (lowercase) that
    /// name it. Rows are tried from the last to the first, so a fork, after
    /// the product it is built on, is found before it; a row with none is
    /// what remains.
    pub detected_by: &'static [&'static str],
    /// Other names a target may use for it (`ps-8.0`).
    pub aliases: &'static [&'static str],
    /// The option group a generated file or a paste block uses: `[mariadb]`
    /// is read by MariaDB servers only, so a MySQL server sharing the file
    /// ignores it.
    pub own_group: &'static str,
    /// Groups the server reads besides `mysqld`, `server` and `mysqld-X.Y`
    /// (`{series}` is `X.Y`): MariaDB's `load_default_groups` in
    /// `sql/mysqld.cc`; every packaged MariaDB server is built with wsrep, so
    /// it reads `galera` too.
    pub server_groups: &'static [&'static str],
    /// Groups its clients read besides `client`.
    pub client_groups: &'static [&'static str],
    /// The systemd unit the packages ship (Debian/Ubuntu names; RHEL calls
    /// MySQL's `mysqld.service`).
    pub systemd_unit: &'static str,
    /// That unit's `LimitNOFILE`.
    pub stock_limit_nofile: u64,
    /// The first release with `SET PERSIST`, if any.
    pub set_persist_since: Option<Version>,
    /// Removed options are accepted and ignored ("was removed. It does
    /// nothing now") rather than refused.
    pub removed_options_are_noops: bool,
    /// Relative `!include` paths resolve against the working directory, not
    /// the including file's.
    pub includes_relative_to_cwd: bool,
    /// Whose option parser and start-up checks the server has: how a line
    /// of an option file is read (unique prefixes, plugin option sets,
    /// values checked at start-up). A fork names the dialect it inherits.
    pub dialect: Dialect,
    /// The oldest release (major, minor) the oldest catalog may stand in
    /// for: older servers are too different (MySQL 5.0, MariaDB 5.1 and
    /// their Percona builds are the oldest still met).
    pub oldest_stand_in: (u32, u32),
    /// How a statement's run time is bounded, from which release: the
    /// collector's data-size query carries it, so a slow
    /// information_schema cannot hold the check (older servers have only
    /// the read timeout). MySQL 5.7.8 added `MAX_EXECUTION_TIME`
    /// (Optimizer Hints, MySQL 5.7 Reference Manual); MariaDB 10.1.2
    /// `SET STATEMENT`, with which `max_statement_time` (10.1.1) bounds one
    /// statement ("SET STATEMENT", MariaDB Knowledge Base).
    pub time_box: (TimeBox, Version),
    /// The release from which `log_error_verbosity` (3: notes, so failed
    /// logins) rules the error log instead of `log_warnings` (2 and up log
    /// failed logins): MySQL 5.7.2 (Server System Variables). `None`: the
    /// server keeps `log_warnings` (MariaDB).
    pub error_verbosity_since: Option<Version>,
    /// From this release `mysql.user` has `account_locked` and an
    /// `authentication_string` only: MySQL 5.7.6 added the column and
    /// dropped `Password` (MySQL 5.7 Release Notes, 5.7.6).
    pub account_locked_since: Option<Version>,
    /// `mysql.user` has `is_role` (MariaDB's roles are rows of it).
    pub roles_in_user_table: bool,
    /// From this release the accounts are JSON rows of `mysql.global_priv`
    /// and `mysql.user` is a view: MariaDB 10.4 ("mysql.global_priv Table",
    /// MariaDB Knowledge Base).
    pub global_priv_since: Option<Version>,
}

/// How a server bounds one statement's run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeBox {
    /// The optimizer hint `/*+ MAX_EXECUTION_TIME(ms) */` (MySQL).
    ExecutionTimeHint,
    /// `SET STATEMENT max_statement_time = s FOR ...` (MariaDB).
    StatementTime,
}

/// The two option parsers the servers descend from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// MySQL's (Percona Server and PXC keep it): exact names, a plugin's
    /// options known once it is loaded, values clamped with a warning.
    Mysql,
    /// MariaDB's: unique prefixes of option names, plugin options read in
    /// sets after the server's own, removed options kept as no-ops, more
    /// values checked at start-up.
    Mariadb,
}

const MYSQL_SERVER_GROUPS: &[&str] = &[];
const MARIADB_SERVER_GROUPS: &[&str] = &[
    "mariadb",
    "mariadb-{series}",
    "mariadbd",
    "mariadbd-{series}",
    "client-server",
    "galera",
];

/// One row per flavor.
const MYSQL: FlavorTraits = FlavorTraits {
    flavor: Flavor::Mysql,
    name: "mysql",
    product: "MySQL",
    base: Flavor::Mysql,
    detected_by: &[],
    aliases: &[],
    own_group: "mysqld",
    server_groups: MYSQL_SERVER_GROUPS,
    client_groups: &[],
    systemd_unit: "mysql.service",
    stock_limit_nofile: 10000,
    set_persist_since: Some(Version::new(8, 0, 0)),
    removed_options_are_noops: false,
    includes_relative_to_cwd: false,
    dialect: Dialect::Mysql,
    oldest_stand_in: (5, 0),
    time_box: (TimeBox::ExecutionTimeHint, Version::new(5, 7, 8)),
    error_verbosity_since: Some(Version::new(5, 7, 2)),
    account_locked_since: Some(Version::new(5, 7, 6)),
    roles_in_user_table: false,
    global_priv_since: None,
};

pub const TRAITS: [FlavorTraits; 4] = [
    MYSQL,
    FlavorTraits {
        flavor: Flavor::Mariadb,
        name: "mariadb",
        product: "MariaDB",
        base: Flavor::Mariadb,
        detected_by: &["mariadb"],
        aliases: &[],
        own_group: "mariadb",
        server_groups: MARIADB_SERVER_GROUPS,
        client_groups: &["client-server", "client-mariadb"],
        systemd_unit: "mariadb.service",
        stock_limit_nofile: 32768,
        set_persist_since: None,
        removed_options_are_noops: true,
        includes_relative_to_cwd: true,
        dialect: Dialect::Mariadb,
        oldest_stand_in: (5, 1),
        time_box: (TimeBox::StatementTime, Version::new(10, 1, 2)),
        error_verbosity_since: None,
        account_locked_since: None,
        roles_in_user_table: true,
        global_priv_since: Some(Version::new(10, 4, 0)),
    },
    // Percona Server and PXC package and read their files as MySQL does.
    FlavorTraits {
        flavor: Flavor::Percona,
        name: "percona",
        product: "Percona Server",
        base: Flavor::Percona,
        detected_by: &["percona"],
        aliases: &["percona-server", "ps"],
        ..MYSQL
    },
    FlavorTraits {
        flavor: Flavor::Pxc,
        name: "pxc",
        product: "Percona XtraDB Cluster",
        base: Flavor::Percona,
        detected_by: &["xtradb cluster"],
        aliases: &["percona-xtradb-cluster"],
        oldest_stand_in: (5, 5),
        ..MYSQL
    },
];

impl Flavor {
    /// This flavor's row of [`TRAITS`].
    pub fn traits(self) -> &'static FlavorTraits {
        // A match, not a search: a new flavor without a row does not build.
        &TRAITS[match self {
            Flavor::Mysql => 0,
            Flavor::Mariadb => 1,
            Flavor::Percona => 2,
            Flavor::Pxc => 3,
        }]
    }

    pub fn as_str(self) -> &'static str {
        self.traits().name
    }

    /// "MySQL", "MariaDB", "Percona Server": the product's name, one
    /// wording for versions in every message and report.
    pub fn product_name(self) -> &'static str {
        self.traits().product
    }

    /// The product line whose rules and version numbers this flavor follows:
    /// PXC is Percona Server with Galera, so rules written for `percona`
    /// apply to it. Every other flavor is its own base.
    pub fn base(self) -> Flavor {
        self.traits().base
    }

    /// The product lines rules name in `applies` (each flavor's [`base`]),
    /// in the table's order.
    ///
    /// [`base`]: Flavor::base
    pub fn bases() -> impl Iterator<Item = Flavor> {
        TRAITS.iter().map(|t| t.flavor).filter(|f| f.base() == *f)
    }

    /// Guess the flavor from `SELECT VERSION()` and `@@version_comment`:
    /// the last row of [`TRAITS`] one of whose words either names, else
    /// MySQL.
    pub fn detect(version: &str, version_comment: &str) -> Flavor {
        let v = version.to_ascii_lowercase();
        let c = version_comment.to_ascii_lowercase();
        TRAITS
            .iter()
            .rev()
            .find(|t| t.detected_by.iter().any(|w| v.contains(w) || c.contains(w)))
            .map_or(Flavor::Mysql, |t| t.flavor)
    }
}

impl fmt::Display for Flavor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Flavor {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.to_ascii_lowercase();
        TRAITS
            .iter()
            .find(|t| t.name == s || t.aliases.contains(&s.as_str()))
            .map(|t| t.flavor)
            .ok_or_else(|| {
                let names: Vec<&str> = TRAITS.iter().map(|t| t.name).collect();
                format!(
                    "unknown server flavor '{s}' (expected {})",
                    names.join(", ")
                )
            })
    }
}

/// A server version, `major.minor.patch`. A missing patch level is 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

impl Version {
    pub const fn new(major: u32, minor: u32, patch: u32) -> Self {
        Version {
            major,
            minor,
            patch,
        }
    }

    /// Parse the leading `X.Y[.Z]` of a version string such as
    /// `10.11.19-MariaDB-0+deb12u1` or `8.0.32-24`. Returns `None` when the
    /// string does not start with a number.
    pub fn parse_prefix(s: &str) -> Option<Version> {
        let s = s.trim();
        // MariaDB 10.x replication-compatible prefix: "5.5.5-10.11.19-MariaDB".
        let s = s.strip_prefix("5.5.5-").unwrap_or(s);
        let mut parts = [0u32; 3];
        let mut count = 0;
        for piece in s.split('.') {
            if count == 3 {
                break;
            }
            let digits: String = piece.chars().take_while(|c| c.is_ascii_digit()).collect();
            if digits.is_empty() {
                break;
            }
            parts[count] = digits.parse().ok()?;
            count += 1;
            if digits.len() != piece.len() {
                break;
            }
        }
        if count < 2 {
            return None;
        }
        Some(Version::new(parts[0], parts[1], parts[2]))
    }

    /// The `major.minor` series this version belongs to.
    pub fn series(self) -> (u32, u32) {
        (self.major, self.minor)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

impl FromStr for Version {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Version::parse_prefix(s).ok_or_else(|| format!("'{s}' is not a version (expected X.Y[.Z])"))
    }
}

impl Serialize for Version {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A server product at a version: what advice and generated files are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Target {
    pub flavor: Flavor,
    pub version: Version,
}

impl Target {
    pub const fn new(flavor: Flavor, version: Version) -> Self {
        Target { flavor, version }
    }

    /// Whose option parser reads this target's option files.
    pub fn dialect(&self) -> Dialect {
        self.flavor.traits().dialect
    }

    /// Does the target have `SET PERSIST`?
    pub fn has_set_persist(&self) -> bool {
        self.flavor
            .traits()
            .set_persist_since
            .is_some_and(|v| self.version >= v)
    }

    /// Is this target written as a bare series (`mysql-8.0`, patch level 0)?
    pub fn is_series_only(&self) -> bool {
        self.version.patch == 0
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.version.patch == 0 {
            write!(
                f,
                "{}-{}.{}",
                self.flavor, self.version.major, self.version.minor
            )
        } else {
            write!(f, "{}-{}", self.flavor, self.version)
        }
    }
}

impl FromStr for Target {
    type Err = String;
    /// Parse `mysql-8.0`, `mariadb-10.11.19`, `percona-8.0`, `pxc-8.0`,
    /// `percona-xtradb-cluster-8.0` (the version starts at the first `-`
    /// followed by a digit). A bare series keeps patch 0: see
    /// [`Target::resolved`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let split = s
            .char_indices()
            .find(|&(i, c)| c == '-' && s[i + 1..].starts_with(|d: char| d.is_ascii_digit()))
            .map(|(i, _)| (&s[..i], &s[i + 1..]));
        let (flavor, version) = split.ok_or_else(|| {
            format!(
                "'{s}' is not a target (expected FLAVOR-VERSION, e.g. mysql-8.0 or mariadb-10.11)"
            )
        })?;
        Ok(Target::new(flavor.parse()?, version.parse()?))
    }
}

impl Serialize for Target {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Target {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each flavor's row is its own (the match in `traits` points at the
    /// right one), and every name and alias parses back to it.
    #[test]
    fn every_flavor_has_its_own_row_of_traits() {
        for row in &TRAITS {
            assert_eq!(row.flavor.traits(), row, "{:?}", row.flavor);
            for name in std::iter::once(&row.name).chain(row.aliases) {
                assert_eq!(name.parse::<Flavor>(), Ok(row.flavor), "{name}");
            }
        }
        assert!(
            "oracle"
                .parse::<Flavor>()
                .unwrap_err()
                .contains("mysql, mariadb, percona, pxc")
        );
    }

    #[test]
    fn parses_real_version_strings() {
        assert_eq!(
            Version::parse_prefix("10.11.19-MariaDB-0+deb12u1"),
            Some(Version::new(10, 11, 19))
        );
        assert_eq!(
            Version::parse_prefix("5.5.5-10.6.12-MariaDB"),
            Some(Version::new(10, 6, 12))
        );
        assert_eq!(
            Version::parse_prefix("8.0.32-24"),
            Some(Version::new(8, 0, 32))
        );
        assert_eq!(Version::parse_prefix("8.4"), Some(Version::new(8, 4, 0)));
        assert_eq!(Version::parse_prefix("abc"), None);
        assert_eq!(Version::parse_prefix("8"), None);
    }

    #[test]
    fn versions_order_numerically() {
        assert!(Version::new(8, 0, 30) > Version::new(8, 0, 4));
        assert!(Version::new(10, 11, 0) > Version::new(10, 6, 99));
    }

    #[test]
    fn targets_parse_and_print() {
        let t: Target = "mariadb-10.11".parse().unwrap();
        assert_eq!(t.flavor, Flavor::Mariadb);
        assert_eq!(t.version, Version::new(10, 11, 0));
        assert_eq!(t.to_string(), "mariadb-10.11");
        assert!("mysql".parse::<Target>().is_err());
        assert!("oracle-8.0".parse::<Target>().is_err());
        let pxc: Target = "percona-xtradb-cluster-8.0".parse().unwrap();
        assert_eq!(pxc, "pxc-8.0".parse().unwrap());
        assert_eq!(pxc.to_string(), "pxc-8.0");
    }

    #[test]
    fn pxc_follows_percona_and_is_detected_before_it() {
        assert_eq!(Flavor::Pxc.base(), Flavor::Percona);
        assert_eq!(Flavor::Mysql.base(), Flavor::Mysql);
        assert_eq!("pxc".parse::<Flavor>().unwrap(), Flavor::Pxc);
        assert_eq!(
            Flavor::detect(
                "8.0.33-25.1",
                "Percona XtraDB Cluster (GPL), Release rel25, Revision 0c56202, WSREP version 26.1.4.3"
            ),
            Flavor::Pxc
        );
    }

    #[test]
    fn detects_flavor() {
        assert_eq!(
            Flavor::detect("10.11.19-MariaDB-0+deb12u1", ""),
            Flavor::Mariadb
        );
        assert_eq!(
            Flavor::detect("8.0.32-24", "Percona Server (GPL), Release 24"),
            Flavor::Percona
        );
        assert_eq!(
            Flavor::detect("8.0.36", "MySQL Community Server - GPL"),
            Flavor::Mysql
        );
    }
}
