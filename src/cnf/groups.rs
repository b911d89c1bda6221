//! Which option groups and which default files a program reads.
//!
//! These lists are facts about the server and client programs (their
//! `load_default_groups` arrays and default search paths), not tuning advice,
//! so they live in code next to the reader.

use std::env;
use std::path::PathBuf;

use crate::target::{Flavor, Target};

use super::syntax::is_space;

/// A group name as the server compares it: trailing whitespace removed
/// (leading whitespace is kept, so `[ mysqld]` is never read).
pub fn group_as_read(written: &str) -> &str {
    written.trim_end_matches(is_space)
}

/// Groups the server of `target` reads.
///
/// MySQL and Percona Server: `mysqld`, `server`, `mysqld-X.Y`.
/// MariaDB (`load_default_groups` in `sql/mysqld.cc`): `mysqld`, `server`,
/// `mysqld-X.Y`, `mariadb`, `mariadb-X.Y`, `mariadbd`, `mariadbd-X.Y`,
/// `client-server`, and `galera` (every packaged MariaDB server is built with
/// wsrep). The order carries no precedence: the server applies options in the
/// order they appear in the files.
pub fn server_groups(target: &Target) -> Vec<String> {
    let series = format!("{}.{}", target.version.major, target.version.minor);
    let mut groups = vec![
        "mysqld".to_string(),
        "server".to_string(),
        format!("mysqld-{series}"),
    ];
    groups.extend(
        target
            .flavor
            .traits()
            .server_groups
            .iter()
            .map(|g| g.replace("{series}", &series)),
    );
    groups
}

/// Groups a client program reads: `client` (MariaDB clients also
/// `client-server` and `client-mariadb`), then the program's own `extra`
/// groups (e.g. `"mytune"`).
pub fn client_groups(flavor: Flavor, extra: &[&str]) -> Vec<String> {
    let mut groups = vec!["client".to_string()];
    groups.extend(flavor.traits().client_groups.iter().map(|g| g.to_string()));
    groups.extend(extra.iter().map(|g| g.to_string()));
    groups
}

/// The groups a client of any flavor reads (`client`, then every flavor's
/// own in the table's order), then `extra`: for a connection made before
/// the server's flavor is known.
pub fn any_client_groups(extra: &[&str]) -> Vec<String> {
    let mut groups = vec!["client".to_string()];
    for g in crate::target::TRAITS.iter().flat_map(|t| t.client_groups) {
        if !groups.iter().any(|have| have == g) {
            groups.push(g.to_string());
        }
    }
    groups.extend(extra.iter().map(|g| g.to_string()));
    groups
}

/// The option files the `mysql` client and the server read by default on
/// Unix, in reading order (later files win): `/etc/my.cnf`,
/// `/etc/mysql/my.cnf`, `$MYSQL_HOME/my.cnf` (when set), `~/.my.cnf`.
/// Files that do not exist are included; the caller skips them. The
/// compile-time `SYSCONFDIR/my.cnf` and the encrypted `~/.mylogin.cnf` are
/// not listed.
pub fn default_files() -> Vec<PathBuf> {
    let mut files = vec![
        PathBuf::from("/etc/my.cnf"),
        PathBuf::from("/etc/mysql/my.cnf"),
    ];
    if let Some(home) = env::var_os("MYSQL_HOME").filter(|h| !h.is_empty()) {
        files.push(PathBuf::from(home).join("my.cnf"));
    }
    if let Some(home) = env::var_os("HOME").filter(|h| !h.is_empty()) {
        files.push(PathBuf::from(home).join(".my.cnf"));
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Before the flavor is known, a connection reads every client group
    /// any flavor's clients read, each once, and only those.
    #[test]
    fn any_client_groups_are_every_flavors_groups_once() {
        let any = any_client_groups(&["mytune"]);
        for t in crate::target::TRAITS {
            for g in client_groups(t.flavor, &["mytune"]) {
                assert_eq!(any.iter().filter(|a| **a == g).count(), 1, "{g}: {any:?}");
            }
        }
        assert_eq!(any, ["client", "client-server", "client-mariadb", "mytune"]);
    }

    #[test]
    fn trims_only_trailing_whitespace() {
        assert_eq!(group_as_read("mysqld \t"), "mysqld");
        assert_eq!(group_as_read(" mysqld"), " mysqld");
    }

    #[test]
    fn default_files_start_with_etc() {
        let files = default_files();
        assert_eq!(files[0], PathBuf::from("/etc/my.cnf"));
        assert_eq!(files[1], PathBuf::from("/etc/mysql/my.cnf"));
    }
}
