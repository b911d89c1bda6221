//! Option-file syntax, one rule per test, on small inline inputs: what the
//! server would read (entries) and what it would refuse (errors with
//! line:col).

use std::path::Path;

use mytune::cnf::{CnfErrorKind, LoadedFiles, Modifier, load_str};

fn read(text: &str) -> LoadedFiles {
    load_str(text, Path::new("/nonexistent-dir/t.cnf"))
}

/// (group, name, value) of every entry.
fn triples(files: &LoadedFiles) -> Vec<(String, String, Option<String>)> {
    files
        .entries
        .iter()
        .map(|e| (e.group.clone(), e.name.clone(), e.value.clone()))
        .collect()
}

fn t(g: &str, n: &str, v: Option<&str>) -> (String, String, Option<String>) {
    (g.into(), n.into(), v.map(Into::into))
}

/// (kind, line, column) of every error.
fn errors(files: &LoadedFiles) -> Vec<(CnfErrorKind, u32, u32)> {
    files
        .errors
        .iter()
        .map(|e| (e.kind, e.location.line, e.location.column))
        .collect()
}

#[test]
fn names_values_and_whitespace() {
    let f = read(
        "[mysqld]\nport=3306\n  user   =   mysql  \nbind-address\t=\t127.0.0.1\ngeneral_log\nempty =\n",
    );
    assert_eq!(
        triples(&f),
        vec![
            t("mysqld", "port", Some("3306")),
            t("mysqld", "user", Some("mysql")),
            t("mysqld", "bind_address", Some("127.0.0.1")),
            t("mysqld", "general_log", None),
            t("mysqld", "empty", Some("")),
        ]
    );
    assert!(f.errors.is_empty(), "{:?}", f.errors);
    // Location is the name's first character.
    let user = &f.entries[1];
    assert_eq!((user.location.line, user.location.column), (3, 3));
    assert_eq!(user.raw_name, "user");
}

#[test]
fn comments_full_line_and_trailing() {
    let f = read(
        "# top\n; also a comment\n[mysqld]\n   # indented\nmax_connections = 100 # trailing\nsql_mode=a#b\nnote = 'x # y'\nsemi = a ; b\n",
    );
    assert_eq!(
        triples(&f),
        vec![
            t("mysqld", "max_connections", Some("100")),
            // The server cuts at any '#' outside quotes, even without a space.
            t("mysqld", "sql_mode", Some("a")),
            t("mysqld", "note", Some("x # y")),
            // ';' starts a comment only at the start of a line.
            t("mysqld", "semi", Some("a ; b")),
        ]
    );
}

#[test]
fn quotes_and_escapes() {
    let f = read(concat!(
        "[client]\n",
        "a = \"two words\"\n",
        "b = 'single'\n",
        "c = \"tab\\there\\nnl\\sspace\\\\slash\\\"dq\\'sq\\bbs\\rcr\"\n",
        "d = C:\\Program Files\\mysql\\x\n",
        "e = \"mismatched'\n",
        "f = trailing\\\n",
        "g = \"\"\n",
    ));
    let v: Vec<Option<String>> = f.entries.iter().map(|e| e.value.clone()).collect();
    assert_eq!(
        v,
        vec![
            Some("two words".into()),
            Some("single".into()),
            Some("tab\there\nnl space\\slash\"dq'sq\u{8}bs\rcr".into()),
            // Unquoted values keep unknown escapes as written (\P, \m, \x).
            Some("C:\\Program Files\\mysql\\x".into()),
            Some("\"mismatched'".into()),
            Some("trailing\\".into()),
            Some("".into()),
        ]
    );
}

#[test]
fn unquoted_values_still_get_escapes() {
    // The server applies escapes whether or not the value is quoted, so a
    // Windows path with \n or \t in it changes meaning.
    let f = read("[mysqld]\ndatadir = C:\\new\\tmp\n");
    assert_eq!(f.entries[0].value.as_deref(), Some("C:\new\tmp"));
}

#[test]
fn size_suffixes_stay_in_the_value() {
    let f = read("[mysqld]\ninnodb_buffer_pool_size = 32G\nmax_allowed_packet=16m\n");
    assert_eq!(f.entries[0].value.as_deref(), Some("32G"));
    assert_eq!(f.entries[1].value.as_deref(), Some("16m"));
    assert_eq!(
        mytune::units::parse_size(f.entries[0].value.as_deref().unwrap()),
        Ok(32 << 30)
    );
}

#[test]
fn dashes_underscores_case_and_prefixes() {
    let f = read(concat!(
        "[mysqld]\n",
        "Innodb-Buffer_Pool-size = 1G\n",
        "loose-skip-name-resolve\n",
        "loose_innodb_numa_interleave = 1\n",
        "skip-log-bin\n",
        "disable-performance-schema\n",
        "enable_performance_schema\n",
        "maximum-sort-buffer-size = 8M\n",
        "skip-external-locking\n",
        "loose-skip-federated\n",
    ));
    let got: Vec<(String, Modifier, bool)> = f
        .entries
        .iter()
        .map(|e| (e.name.clone(), e.modifier, e.loose))
        .collect();
    assert_eq!(
        got,
        vec![
            ("innodb_buffer_pool_size".into(), Modifier::None, false),
            ("skip_name_resolve".into(), Modifier::Loose, true),
            ("innodb_numa_interleave".into(), Modifier::Loose, true),
            ("log_bin".into(), Modifier::Skip, false),
            ("performance_schema".into(), Modifier::Disable, false),
            ("performance_schema".into(), Modifier::Enable, false),
            ("sort_buffer_size".into(), Modifier::Maximum, false),
            ("skip_external_locking".into(), Modifier::None, false),
            ("federated".into(), Modifier::Skip, true),
        ]
    );
    assert_eq!(f.entries[1].raw_name, "loose-skip-name-resolve");
}

#[test]
fn group_headers_keep_oddities_visible() {
    let f = read("[MySQLd]\na=1\n[mysqld ]\nb=2\n[ mysqld]\nc=3\n[client] # comment\nd=4\n");
    let groups: Vec<&str> = f.entries.iter().map(|e| e.group.as_str()).collect();
    assert_eq!(groups, vec!["mysqld", "mysqld ", " mysqld", "client"]);
    // The server trims trailing whitespace only.
    assert_eq!(f.entries[1].group_as_read(), "mysqld");
    assert_eq!(f.entries[2].group_as_read(), " mysqld");
    assert_eq!(
        errors(&f),
        vec![(CnfErrorKind::GroupLeadingWhitespace, 5, 2)]
    );
}

#[test]
fn group_header_errors_have_line_and_column() {
    let f = read("[mysqld] junk\na=1\n  [client\nb=2\n");
    assert_eq!(
        errors(&f),
        vec![
            (CnfErrorKind::GroupTrailingText, 1, 10),
            (CnfErrorKind::UnclosedGroup, 3, 3),
        ]
    );
    // Parsing goes on: the junk header still opens [mysqld] (the server
    // ignores the junk), and later lines are still read.
    assert_eq!(
        triples(&f),
        vec![t("mysqld", "a", Some("1")), t("client", "b", Some("2"))]
    );
    assert_eq!(
        f.errors[0].to_string(),
        "/nonexistent-dir/t.cnf:1:10: text after the group header: 'junk'; the server ignores it"
    );
    assert!(f.errors[1].kind.refused_by_server());
    assert!(!f.errors[0].kind.refused_by_server());
}

#[test]
fn options_before_any_group_are_errors() {
    let f = read("# header\nport = 3306\n\n[mysqld]\nport = 3307\n");
    assert_eq!(errors(&f), vec![(CnfErrorKind::OptionWithoutGroup, 2, 1)]);
    assert_eq!(triples(&f), vec![t("mysqld", "port", Some("3307"))]);
}

#[test]
fn template_lines_are_clear_errors_and_parsing_continues() {
    let f = read("[mysqld]\ndatadir {{ mysqldir }}\nssl=0\n");
    assert_eq!(errors(&f), vec![(CnfErrorKind::InvalidOptionName, 2, 9)]);
    assert!(f.errors[0].message.contains("template"), "{}", f.errors[0]);
    assert_eq!(triples(&f), vec![t("mysqld", "ssl", Some("0"))]);

    let f = read("[mysqld]\nmax connections = 10\n");
    assert_eq!(errors(&f), vec![(CnfErrorKind::InvalidOptionName, 2, 5)]);
    assert!(f.errors[0].message.contains("missing '='"));
}

#[test]
fn empty_names_and_directives() {
    let f = read("[mysqld]\n = 5\n!include\n!includedir   \n!foo bar\n");
    assert_eq!(
        errors(&f),
        vec![
            (CnfErrorKind::EmptyOptionName, 2, 2),
            (CnfErrorKind::EmptyDirective, 3, 1),
            (CnfErrorKind::EmptyDirective, 4, 1),
            (CnfErrorKind::UnknownDirective, 5, 1),
        ]
    );
    assert!(f.entries.is_empty());
}

#[test]
fn crlf_and_bom() {
    let f = read("\u{feff}[mysqld]\r\nport = 3306\r\nuser=mysql \r\n");
    assert_eq!(
        triples(&f),
        vec![
            t("mysqld", "port", Some("3306")),
            t("mysqld", "user", Some("mysql")),
        ]
    );
    assert_eq!(errors(&f), vec![(CnfErrorKind::ByteOrderMark, 1, 1)]);
    // MySQL's reader does not skip the mark and refuses the file.
    assert!(f.errors[0].kind.refused_by_server());
}

#[test]
fn include_lines_are_not_comment_stripped() {
    // The server takes the whole rest of the line as the file name.
    let f = read("[mysqld]\n!include extra.cnf # note\n");
    assert_eq!(errors(&f).len(), 1);
    assert_eq!(f.errors[0].kind, CnfErrorKind::IncludeNotFound);
    assert!(f.errors[0].message.contains("extra.cnf # note"));
    assert_eq!(
        (f.errors[0].location.line, f.errors[0].location.column),
        (2, 10)
    );
}

#[test]
fn columns_count_characters_not_bytes() {
    let f = read("[mysqld]\n# 注释\n  名字 x = 1\n");
    assert_eq!(errors(&f), vec![(CnfErrorKind::InvalidOptionName, 3, 6)]);
}
