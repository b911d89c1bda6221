//! Acceptance on a throw-away MariaDB with the server's defaults for the
//! buffer pool and the redo log (see `tests/support/mariadb.rs`) and about
//! 150M of InnoDB data, collected with this host's real facts: the 128M pool
//! does not hold the data with room to grow, so it is sized for the data
//! (not 70% of the host's memory), and the redo log is judged for that pool
//! in the same report. Skips with a printed reason when mariadbd is not
//! installed, unless `MYTUNE_REQUIRE_LIVE=1`.

#[path = "support/mariadb.rs"]
mod mariadb;

use mytune::catalog::Catalog;
use mytune::check::coherent;
use mytune::collect::{self, HostMode, ServerOptions};
use mytune::rules::{Profile, RuleSet};
use mytune::units;

use mariadb::TestServer;

#[test]
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
