//! Acceptance on a throw-away MariaDB with the server's defaults for the
//! buffer pool and the redo log (see `tests/it/support/mariadb.rs`) and about
//! 150M of InnoDB data, collected with this host's real facts: the 128M pool
//! does not hold the data with room to grow, so it is sized for the data
//! (not 70% of the host's memory), and the redo log is judged for that pool
//! in the same report. Skips with a printed reason when mariadbd is not
//! installed, unless `MYTUNE_REQUIRE_LIVE=1`.

use crate::support::mariadb;

use mytune::catalog::Catalog;
use mytune::check::coherent;
use mytune::collect::{self, HostMode, ServerOptions};
use mytune::rules::{Profile, RuleSet};
use mytune::units;

use mariadb::TestServer;

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn default_mariadb_pool_is_sized_for_its_data_and_the_redo_log_for_that_pool() {
    // The helper's base file shrinks both for speed; put the defaults back.
    let Some(server) =
        TestServer::start("innodb_buffer_pool_size = 128M\ninnodb_log_file_size = 96M")
    else {
        return;
    };
    server.load_innodb_data(19);
    let cfg = server.connection("root", None);
    let facts = collect::collect(
        &cfg,
        &ServerOptions::default(),
        &HostMode::default(),
        &mut |_, _| {},
    )
    .expect("collection works");
    let Some(host) = &facts.host else {
        eprintln!("skipping: no host facts collected for the local server");
        return;
    };
    let memory = host.memory.effective_bytes;
    let data_size = facts.server.as_ref().unwrap().data_size.as_ref().unwrap();
    assert!(data_size.complete);
    let innodb = data_size.engines.get("InnoDB").expect("InnoDB data");
    let data = innodb.data_bytes + innodb.index_bytes;
    assert!(data > 128 << 20, "{data}");

    let target = facts.server.as_ref().unwrap().target();
    let catalog = Catalog::for_target(&target).unwrap();
    let known = |name: &str| catalog.get(name).is_some();
    let rules = RuleSet::builtin().unwrap();
    let report = coherent::evaluate(&rules, &facts, &Profile::default(), &known);
    let pool = report
        .findings
        .iter()
        .find(|f| f.code == "MT101")
        .unwrap_or_else(|| panic!("MT101 on {memory} bytes: {:#?}", report.findings));
    assert_eq!(pool.current.as_deref(), Some("128M"));
    let chunk = 128u64 << 20;
    let expected = (data * 3 / 2).div_ceil(chunk) * chunk;
    assert_eq!(
        pool.recommended.as_deref(),
        Some(units::format_size(expected).as_str()),
        "{}",
        pool.message
    );
    assert!(pool.message.contains("InnoDB holds"), "{}", pool.message);
    assert!(expected < memory / 2, "{expected} of {memory}");

    // The redo log: never sized above the pool the report sets (the old
    // advice asked for 4.2G of redo beside a 128M pool).
    if let Some(redo) = report.findings.iter().find(|f| f.code == "MT113") {
        let rec = units::parse_size(redo.recommended.as_deref().unwrap()).unwrap();
        assert!(rec <= expected, "{}", redo.message);
        assert!(
            redo.message
                .contains("with this report's innodb_buffer_pool_size"),
            "{}",
            redo.message
        );
    }
    eprintln!("{}", pool.message);
}

/// The open flags of one of the server's files, from `/proc/PID/fdinfo`.
fn open_flags(pid: u32, file_suffix: &str) -> u32 {
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).expect("the server's fds");
    for fd in fds.flatten() {
        let Ok(target) = std::fs::read_link(fd.path()) else {
            continue;
        };
        if !target.to_string_lossy().ends_with(file_suffix) {
            continue;
        }
        let info = std::fs::read_to_string(format!(
            "/proc/{pid}/fdinfo/{}",
            fd.file_name().to_string_lossy()
        ))
        .expect("fdinfo");
        let flags = info
            .lines()
            .find_map(|l| l.strip_prefix("flags:"))
            .expect("a flags line");
        return u32::from_str_radix(flags.trim(), 8).expect("octal flags");
    }
    panic!("the server has no open file ending in {file_suffix}");
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn mariadb_o_dsync_opens_data_files_unbuffered_so_mt121_stays_silent() {
    let Some(server) = TestServer::start("innodb_flush_method = O_DSYNC") else {
        return;
    };
    const O_DIRECT: u32 = 0o40000;
    const O_DSYNC: u32 = 0o10000;
    let pid: u32 = std::fs::read_to_string(server.dir().join("pid"))
        .expect("pid file")
        .trim()
        .parse()
        .expect("a pid");
    // The data files bypass the page cache (as with O_DIRECT), and the redo
    // log is written through: O_DSYNC is not the buffered method MT121 is
    // about on MariaDB.
    let data = open_flags(pid, "/ibdata1");
    assert_ne!(data & O_DIRECT, 0, "ibdata1 flags {data:o}");
    assert_eq!(data & O_DSYNC, 0, "ibdata1 flags {data:o}");
    let log = open_flags(pid, "/ib_logfile0");
    assert_ne!(log & O_DSYNC, 0, "ib_logfile0 flags {log:o}");

    let facts = collect::collect(
        &server.connection("root", None),
        &ServerOptions::default(),
        &HostMode::default(),
        &mut |_, _| {},
    )
    .expect("collection works");
    let target = facts.server.as_ref().unwrap().target();
    let catalog = Catalog::for_target(&target).unwrap();
    let known = |name: &str| catalog.get(name).is_some();
    let report = coherent::evaluate(
        &RuleSet::builtin().unwrap(),
        &facts,
        &Profile::default(),
        &known,
    );
    assert!(
        !report.findings.iter().any(|f| f.code == "MT121"),
        "{:#?}",
        report.findings.iter().find(|f| f.code == "MT121")
    );
}
