//! The lossless writer: byte-for-byte round trips, and edits that change only
//! what they mean to.

use mytune::cnf::{Document, EditError, LineEnding, LineKind};

#[test]
fn round_trips_odd_inputs_byte_for_byte() {
    for text in [
        "",
        "\n",
        "[mysqld]",
        "[mysqld]\r\nport=1\r\n",
        "\u{feff}[mysqld]\nport = 1\n",
        "  # c\n\t\n[a] x\n!include q\n!bogus\n= 1\nna me\n[b\n",
        "mixed\r\nendings\nlast\r",
        "[mysqld]\n \n ",
    ] {
        let doc = Document::parse(text);
        assert_eq!(doc.to_string(), text);
        assert_eq!(Document::parse(&doc.to_string()), doc);
    }
}

#[test]
fn line_kinds() {
    let doc =
        Document::parse("# c\n\n[mysqld]\nport = 1\n!include a.cnf\n!includedir d\nbad name\n");
    let kinds: Vec<&LineKind> = doc.lines.iter().map(|l| &l.kind).collect();
    assert_eq!(
        kinds,
        vec![
            &LineKind::Comment,
            &LineKind::Blank,
            &LineKind::Group {
                name: "mysqld".into()
            },
            &LineKind::Option {
                raw_name: "port".into(),
                value: Some("1".into())
            },
            &LineKind::Include {
                path: "a.cnf".into()
            },
            &LineKind::IncludeDir { path: "d".into() },
            &LineKind::Error,
        ]
    );
    let issues: Vec<(u32, u32)> = doc.issues().map(|(line, i)| (line, i.column)).collect();
    assert_eq!(issues, vec![(7, 5)]);
}

const BASE: &str = "\
# server
[mysqld]
port = 3306
max_connections = 100   # old
max-connections = 150

# embedded only
[embedded]
";

#[test]
fn set_replaces_the_last_occurrence_in_place() {
    let mut doc = Document::parse(BASE);
    doc.set("mysqld", "max_connections", Some("500"), None)
        .unwrap();
    assert_eq!(
        doc.to_string(),
        BASE.replace("max-connections = 150", "max_connections = 500")
    );
    assert_eq!(doc.get("mysqld", "MAX-CONNECTIONS"), Some(Some("500")));
}

#[test]
fn set_appends_after_the_last_option_of_the_group() {
    let mut doc = Document::parse(BASE);
    doc.set(
        "mysqld",
        "innodb_buffer_pool_size",
        Some("4G"),
        Some("70% of RAM"),
    )
    .unwrap();
    assert_eq!(
        doc.to_string(),
        BASE.replace(
            "max-connections = 150\n",
            "max-connections = 150\n# 70% of RAM\ninnodb_buffer_pool_size = 4G\n"
        )
    );
    // Setting again replaces, without repeating the comment.
    doc.set(
        "mysqld",
        "innodb-buffer-pool-size",
        Some("8G"),
        Some("70% of RAM"),
    )
    .unwrap();
    assert_eq!(doc.to_string().matches("70% of RAM").count(), 1);
    assert!(doc.to_string().contains("innodb-buffer-pool-size = 8G\n"));
}

#[test]
fn set_into_an_empty_group_goes_right_after_its_header() {
    let mut doc = Document::parse(BASE);
    doc.set("embedded", "skip-grant-tables", None, None)
        .unwrap();
    assert!(doc.to_string().ends_with("[embedded]\nskip-grant-tables\n"));
}

#[test]
fn set_creates_a_missing_group_at_the_end() {
    let mut doc = Document::parse("[mysqld]\nport = 1");
    doc.set("client", "user", Some("my user"), None).unwrap();
    assert_eq!(
        doc.to_string(),
        "[mysqld]\nport = 1\n\n[client]\nuser = my user\n"
    );
    let mut empty = Document::default();
    empty.set("mysqld", "port", Some("3306"), None).unwrap();
    assert_eq!(empty.to_string(), "[mysqld]\nport = 3306\n");
}

#[test]
fn set_keeps_crlf_files_crlf() {
    let mut doc = Document::parse("[mysqld]\r\nport = 1\r\n");
    doc.set("mysqld", "user", Some("mysql"), None).unwrap();
    assert_eq!(doc.to_string(), "[mysqld]\r\nport = 1\r\nuser = mysql\r\n");
    assert!(doc.lines.iter().all(|l| l.ending == LineEnding::CrLf));
}

#[test]
fn set_quotes_values_that_need_it() {
    let mut doc = Document::parse("[client]\n");
    let tricky = "pa#ss wo'rd\\ \"x\"";
    doc.set("client", "password", Some(tricky), None).unwrap();
    let again = Document::parse(&doc.to_string());
    assert_eq!(again.get("client", "password"), Some(Some(tricky)));
}

#[test]
fn set_matches_groups_like_the_server() {
    // [mysqld ] is read as [mysqld]; [ mysqld] is not.
    let mut doc = Document::parse("[ mysqld]\nport = 1\n[mysqld ]\nport = 2\n");
    doc.set("mysqld", "port", Some("3"), None).unwrap();
    assert_eq!(
        doc.to_string(),
        "[ mysqld]\nport = 1\n[mysqld ]\nport = 3\n"
    );
}

#[test]
fn set_rejects_names_and_groups_that_would_not_parse_back() {
    let mut doc = Document::default();
    assert!(matches!(
        doc.set("mysqld", "max connections", Some("1"), None),
        Err(EditError::InvalidName(_))
    ));
    assert!(matches!(
        doc.set("mysqld", "a=b", Some("1"), None),
        Err(EditError::InvalidName(_))
    ));
    assert!(matches!(
        doc.set("mysqld]", "a", Some("1"), None),
        Err(EditError::InvalidGroup(_))
    ));
    assert!(doc.lines.is_empty());
}

#[test]
fn remove_deletes_every_occurrence_in_the_group_only() {
    let mut doc = Document::parse(
        "[mysqld]\nport=1\nPORT = 2\n[client]\nport=3\n[mysqld]\nport = 4\nuser = x\n",
    );
    assert_eq!(doc.remove("mysqld", "port"), 3);
    assert_eq!(
        doc.to_string(),
        "[mysqld]\n[client]\nport=3\n[mysqld]\nuser = x\n"
    );
    assert_eq!(doc.remove("mysqld", "port"), 0);
}

#[test]
fn maximum_bounds_are_a_different_setting() {
    let mut doc = Document::parse("[mysqld]\nmaximum-sort_buffer_size = 8M\n");
    doc.set("mysqld", "sort_buffer_size", Some("2M"), None)
        .unwrap();
    assert_eq!(
        doc.to_string(),
        "[mysqld]\nmaximum-sort_buffer_size = 8M\nsort_buffer_size = 2M\n"
    );
}

/// The option is edited where the server takes it from: a MariaDB server
/// reads `[mysqld]` too, so a base file's `[mysqld]` line is replaced there
/// instead of being shadowed by a new `[mariadb]` line.
#[test]
fn set_where_read_edits_the_line_the_server_applies() {
    let groups: Vec<String> = ["mysqld", "server", "mariadb"].map(String::from).into();
    let mut doc = Document::parse("[mysqld]\nmax_connections = 100\n");
    doc.set_where_read(&groups, "mariadb", "max_connections", Some("500"), None)
        .unwrap();
    assert_eq!(doc.to_string(), "[mysqld]\nmax_connections = 500\n");
    // Absent: added to the new group.
    doc.set_where_read(&groups, "mariadb", "sync_binlog", Some("1"), None)
        .unwrap();
    assert_eq!(
        doc.to_string(),
        "[mysqld]\nmax_connections = 500\n\n[mariadb]\nsync_binlog = 1\n"
    );
}

/// Earlier occurrences the server also reads (shadowed duplicates) take the
/// same value, so the file never says two different things; the comment
/// goes above the one the server applies. Groups the server does not read
/// keep their lines.
#[test]
fn set_where_read_gives_shadowed_duplicates_the_same_value() {
    let groups: Vec<String> = ["mysqld", "server"].map(String::from).into();
    let text = "[mysqld]\nmax-connections = 10\n[client]\nmax_connections = 7\n[server]\nmax_connections = 20\n";
    let mut doc = Document::parse(text);
    doc.set_where_read(
        &groups,
        "mysqld",
        "max_connections",
        Some("300"),
        Some("why"),
    )
    .unwrap();
    assert_eq!(
        doc.to_string(),
        "[mysqld]\nmax_connections = 300\n[client]\nmax_connections = 7\n[server]\n# why\nmax_connections = 300\n"
    );
}
