//! What a server or client would start with: group selection per flavor,
//! last-one-wins across groups and files, shadowed occurrences, and the
//! ON/OFF meaning of prefixes and bare names.

use std::path::Path;

use mytune::cnf::{client_groups, load_str, server_groups};
use mytune::target::{Flavor, Target};

fn target(s: &str) -> Target {
    s.parse().unwrap()
}

#[test]
fn server_groups_per_flavor() {
    assert_eq!(
        server_groups(&target("mysql-8.0.36")),
        vec!["mysqld", "server", "mysqld-8.0"]
    );
    assert_eq!(
        server_groups(&target("percona-5.7")),
        vec!["mysqld", "server", "mysqld-5.7"]
    );
    assert_eq!(
        server_groups(&target("mariadb-10.11.19")),
        vec![
            "mysqld",
            "server",
            "mysqld-10.11",
            "mariadb",
            "mariadb-10.11",
            "mariadbd",
            "mariadbd-10.11",
            "client-server",
            "galera"
        ]
    );
}

#[test]
fn client_groups_per_flavor() {
    assert_eq!(
        client_groups(Flavor::Mysql, &["mytune"]),
        vec!["client", "mytune"]
    );
    assert_eq!(client_groups(Flavor::Percona, &[]), vec!["client"]);
    assert_eq!(
        client_groups(Flavor::Mariadb, &["mytune"]),
        vec!["client", "client-server", "client-mariadb", "mytune"]
    );
}

const CNF: &str = "\
[client]
port = 3307
user = app

[mysqld]
port = 3306
max_connections = 100
skip-name-resolve
loose-skip-log-bin
general_log
enable-performance-schema
maximum-sort-buffer-size = 16M

[mariadb]
max_connections = 500

[mysqld-8.0]
max_connections = 200

[mysqld]
max_connections = 300

[mysqld ]
innodb_buffer_pool_size = 1G

[ mysqld]
innodb_buffer_pool_size = 99G

[client-server]
socket = /run/mysqld/mysqld.sock
";

#[test]
fn later_lines_win_across_groups_and_earlier_ones_are_shadowed() {
    let f = load_str(CNF, Path::new("/etc/my.cnf"));
    assert!(
        f.errors
            .iter()
            .all(|e| e.kind == mytune::cnf::CnfErrorKind::GroupLeadingWhitespace)
    );

    let mysql = f.effective(&server_groups(&target("mysql-8.0")));
    let mc = &mysql.options["max_connections"];
    // File order decides, not group order: [mysqld] at line 21 is last.
    assert_eq!(mc.value, "300");
    assert_eq!(mc.group, "mysqld");
    assert_eq!(mc.location.line, 21);
    let shadowed: Vec<u32> = mc.shadowed.iter().map(|l| l.line).collect();
    assert_eq!(shadowed, vec![7, 18]);
    assert_eq!(mysql.options["port"].value, "3306");
    assert!(!mysql.options.contains_key("socket"));
    assert_eq!(mysql.groups, server_groups(&target("mysql-8.0")));
    assert_eq!(mysql.files, vec![Path::new("/etc/my.cnf").to_path_buf()]);

    let maria = f.effective(&server_groups(&target("mariadb-10.11")));
    let shadowed: Vec<u32> = maria.options["max_connections"]
        .shadowed
        .iter()
        .map(|l| l.line)
        .collect();
    // [mysqld-8.0] is not read by MariaDB 10.11; [mariadb] is.
    assert_eq!(shadowed, vec![7, 15]);
    assert_eq!(maria.options["socket"].value, "/run/mysqld/mysqld.sock");
}

#[test]
fn prefixes_and_bare_names_give_on_off() {
    let f = load_str(CNF, Path::new("/etc/my.cnf"));
    let eff = f.effective(&server_groups(&target("mysql-8.0")));
    let o = &eff.options;
    assert_eq!(o["skip_name_resolve"].value, "ON");
    assert_eq!(o["log_bin"].value, "OFF");
    assert!(o["log_bin"].loose);
    assert!(!o["skip_name_resolve"].loose);
    assert_eq!(o["general_log"].value, "ON");
    assert_eq!(o["performance_schema"].value, "ON");
    // maximum- sets a bound, not the variable.
    assert!(!o.contains_key("sort_buffer_size"));
    assert_eq!(o["maximum_sort_buffer_size"].value, "16M");
}

#[test]
fn trailing_space_in_a_group_name_is_read_leading_space_is_not() {
    let f = load_str(CNF, Path::new("/etc/my.cnf"));
    let eff = f.effective(&server_groups(&target("mysql-8.0")));
    let bp = &eff.options["innodb_buffer_pool_size"];
    assert_eq!(bp.value, "1G");
    // The group keeps the oddity visible for a linter.
    assert_eq!(bp.group, "mysqld ");
}

#[test]
fn client_view_of_the_same_file() {
    let f = load_str(CNF, Path::new("/etc/my.cnf"));
    let eff = f.effective(&client_groups(Flavor::Mariadb, &["mytune"]));
    assert_eq!(eff.options["port"].value, "3307");
    assert_eq!(eff.options["user"].value, "app");
    assert_eq!(eff.options["socket"].value, "/run/mysqld/mysqld.sock");
    assert!(!eff.options.contains_key("max_connections"));
    let eff = f.effective(&client_groups(Flavor::Mysql, &[]));
    assert!(!eff.options.contains_key("socket"));
}

#[test]
fn skip_and_enable_toggle_in_file_order() {
    let f = load_str(
        "[mysqld]\nskip-log-bin\nlog-bin = mysql-bin\n[server]\ndisable_log_bin\n",
        Path::new("t.cnf"),
    );
    let eff = f.effective(&["mysqld".to_string(), "server".to_string()]);
    let lb = &eff.options["log_bin"];
    assert_eq!(lb.value, "OFF");
    assert_eq!(lb.group, "server");
    assert_eq!(lb.shadowed.len(), 2);
}
