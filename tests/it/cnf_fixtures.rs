//! Real option files: the shared fixtures (packaging, test suites, tools) and
//! the configs from the seed documents. Each loads without a panic, its
//! entries and errors are what the server would see, and it round-trips
//! through the writer byte for byte.

use crate::support::shared as shared_support;
use shared_support::shared_dir;

use std::fs;
use std::path::{Path, PathBuf};

use mytune::cnf::{CnfErrorKind, Document, LoadedFiles, Modifier, load, server_groups};
use mytune::target::Target;

fn data(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/cnf")).join(name)
}

fn kinds(f: &LoadedFiles) -> Vec<CnfErrorKind> {
    f.errors.iter().map(|e| e.kind).collect()
}

fn assert_round_trip(path: &Path) {
    let bytes = fs::read(path).unwrap();
    let text = String::from_utf8(bytes).expect("fixtures are UTF-8");
    let doc = Document::parse(&text);
    assert_eq!(
        doc.to_string(),
        text,
        "{} does not round-trip",
        path.display()
    );
    assert_eq!(Document::parse(&doc.to_string()), doc);
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn every_shared_fixture_loads_and_round_trips() {
    let Some(shared) = shared_dir() else {
        eprintln!("skipping: ../shared (or /work/shared) is absent, no fixtures to read");
        return;
    };
    let dir = shared.join("fixtures/mycnf");
    let mut paths: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 10,
        "expected the fixture set in {}",
        dir.display()
    );
    for path in &paths {
        let f = load(path).unwrap_or_else(|e| panic!("{e}"));
        assert_round_trip(path);
        // The only problems in these files are includes of directories that
        // exist on a server, not here. (Where they do exist, as on a CI host
        // with MariaDB installed, the host's own files are read too; their
        // problems are not the fixture's.)
        for e in f.errors.iter().filter(|e| e.location.file == *path) {
            assert!(
                matches!(
                    e.kind,
                    CnfErrorKind::IncludeDirUnreadable
                        | CnfErrorKind::IncludeDirAbsent
                        | CnfErrorKind::IncludeNotFound
                ),
                "unexpected {e}"
            );
        }
    }
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn shared_fixture_details() {
    let Some(shared) = shared_dir() else {
        eprintln!("skipping: ../shared (or /work/shared) is absent, no fixtures to read");
        return;
    };
    let dir = shared.join("fixtures/mycnf");

    // Quoted value.
    let f =
        load(&dir.join("cnf__percona_percona-toolkit__t__lib__samples__configs__quoted_cnf.txt"))
            .unwrap();
    let init = f.entries.iter().find(|e| e.name == "init_connect").unwrap();
    assert_eq!(init.value.as_deref(), Some("SET NAMES utf8"));

    // A value with ';' and an empty value.
    let f =
        load(&dir.join("cnf__percona_percona-toolkit__sandbox__servers__pxc__8.0__my.sandbox.cnf"))
            .unwrap();
    let opts = f
        .entries
        .iter()
        .find(|e| e.name == "wsrep_provider_options")
        .unwrap();
    assert_eq!(
        opts.value.as_deref(),
        Some("gmcast.listen_addr=tcp://ADDR:LISTEN_PRT;")
    );
    let sfp = f
        .entries
        .iter()
        .find(|e| e.name == "secure_file_priv")
        .unwrap();
    assert_eq!(sfp.value.as_deref(), Some(""));

    // Whitespace-only lines at the end of a file without a final newline.
    let f =
        load(&dir.join("cnf__percona_percona-toolkit__t__pt-config-diff__samples__bug_917770.cnf"))
            .unwrap();
    assert!(f.errors.is_empty(), "{:?}", f.errors);
    assert_eq!(f.entries.last().unwrap().name, "general_log_file");

    // MTR config: two missing includes, loose-enable-, disable-.
    let f =
        load(&dir.join(
            "mysql-8.0-mtr__enhancedformysql_mysql-8.0.41__mysql-test__include__default_my.cnf",
        ))
        .unwrap();
    assert_eq!(
        kinds(&f),
        vec![CnfErrorKind::IncludeNotFound, CnfErrorKind::IncludeNotFound]
    );
    let ps = f
        .entries
        .iter()
        .find(|e| e.raw_name == "loose-enable-performance-schema")
        .unwrap();
    assert_eq!(
        (ps.name.as_str(), ps.modifier, ps.loose),
        ("performance_schema", Modifier::Enable, true)
    );
    assert_eq!(ps.group, "mysqld.1");

    // MariaDB server.cnf: repeated [mariadb] groups, only comments.
    let f =
        load(&dir.join("mariadb-11.8__MariaDB_server__support-files__rpm__server.cnf")).unwrap();
    assert!(f.entries.is_empty() && f.errors.is_empty());

    // Galera: binlog_format twice in [galera]; MariaDB reads [galera].
    let f = load(
        &dir.join("mariadb__MariaDB_server__debian__additions__mariadb.conf.d__60-galera.cnf"),
    )
    .unwrap();
    let eff = f.effective(&server_groups(&"mariadb-10.11".parse::<Target>().unwrap()));
    let bf = &eff.options["binlog_format"];
    assert_eq!(bf.value, "row");
    assert_eq!(bf.shadowed.len(), 1);
    assert_eq!(bf.shadowed[0].line, 15);
    let eff = f.effective(&server_groups(&"mysql-8.0".parse::<Target>().unwrap()));
    assert!(eff.options.is_empty());
}

#[test]
fn seed_000_best_practice_config() {
    let path = data("seed000_s2.3.cnf");
    let f = load(&path).unwrap();
    assert_round_trip(&path);
    assert!(f.errors.is_empty(), "{:?}", f.errors);
    assert_eq!(f.entries.len(), 40);
    let eff = f.effective(&server_groups(&"mysql-5.7".parse::<Target>().unwrap()));
    assert_eq!(eff.options["skip_name_resolve"].value, "ON");
    assert_eq!(eff.options["innodb_buffer_pool_size"].value, "32G");
    assert_eq!(eff.options["innodb_flush_log_at_trx_commit"].value, "2");
    // `table_open_cache = 1024 ` has a trailing space.
    assert_eq!(eff.options["table_open_cache"].value, "1024");
    // Last line has no newline.
    let pid = &eff.options["pid_file"];
    assert_eq!(
        (pid.value.as_str(), pid.location.line),
        ("/var/run/mysqld/mysqld.pid", 55)
    );
    assert!(!eff.options.contains_key("skip_networking"));
}

#[test]
fn seed_000_vps_config_has_no_group_header() {
    let path = data("seed000_s1.2.2.cnf");
    let f = load(&path).unwrap();
    assert_round_trip(&path);
    // Every option is before any group: the server refuses this file.
    assert!(f.entries.is_empty());
    assert_eq!(f.errors.len(), 49);
    assert!(
        f.errors
            .iter()
            .all(|e| e.kind == CnfErrorKind::OptionWithoutGroup)
    );
    assert_eq!(f.errors[0].location.line, 1);
    assert!(f.errors[0].message.contains("back_log"));
    // Trailing comments in Chinese do not end up in values.
    let doc = Document::parse(&fs::read_to_string(&path).unwrap());
    let expire = doc.lines.iter().find_map(|l| match &l.kind {
        mytune::cnf::LineKind::Option { raw_name, value } if raw_name == "expire_logs_days" => {
            value.clone()
        }
        _ => None,
    });
    assert_eq!(expire.as_deref(), Some("30"));
}

#[test]
fn seed_003_appendix_template_line() {
    let path = data("seed003_appendix.cnf");
    let f = load(&path).unwrap();
    assert_round_trip(&path);
    assert_eq!(kinds(&f), vec![CnfErrorKind::InvalidOptionName]);
    let e = &f.errors[0];
    assert_eq!((e.location.line, e.location.column), (2, 9));
    assert!(
        e.to_string()
            .contains("seed003_appendix.cnf:2:9: 'datadir {{ mysqldir }}'"),
        "{e}"
    );
    // Everything after it is still read.
    let eff = f.effective(&server_groups(&"percona-5.7".parse::<Target>().unwrap()));
    assert!(!eff.options.contains_key("datadir"));
    assert_eq!(eff.options["log_bin"].value, "OFF");
    assert_eq!(eff.options["innodb_file_per_table"].value, "ON");
    assert_eq!(eff.options["innodb_buffer_pool_size"].value, "40G");
    assert_eq!(eff.options["innodb_monitor_enable"].value, "%");
    assert_eq!(eff.options["character_set_client_handshake"].value, "OFF");
    assert_eq!(eff.options["performance_schema"].location.line, 50);
}
