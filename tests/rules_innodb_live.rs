//! Acceptance on a throw-away MariaDB with the server's defaults for the
//! buffer pool and the redo log (see `tests/support/mariadb.rs`), collected
//! with this host's real facts: the buffer pool is too small (about 70% of
//! the effective memory, chunk-rounded) and the redo log is small for the
//! pool. Skips with a printed reason when mariadbd is not installed, unless
//! `MYTUNE_REQUIRE_LIVE=1`.

#[path = "support/mariadb.rs"]
mod mariadb;

use mytune::collect::{self, HostMode, ServerOptions};
use mytune::rules::{EvalInput, Profile, RuleSet};
use mytune::units;

use mariadb::TestServer;

#[test]
fn default_mariadb_on_this_host_gets_buffer_pool_and_redo_findings() {
    // The helper's base file shrinks both for speed; put the defaults back.
    let Some(server) =
        TestServer::start("innodb_buffer_pool_size = 128M\ninnodb_log_file_size = 96M")
    else {
        return;
    };
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
    let profile = Profile::default();
    let ev = RuleSet::builtin()
        .unwrap()
        .evaluate(&EvalInput::new(&facts, &profile));

    let pool = ev
        .findings
        .iter()
        .find(|f| f.code == "MT101")
        .unwrap_or_else(|| panic!("MT101 on {memory} bytes: {:#?}", ev.findings));
    assert_eq!(pool.current.as_deref(), Some("128M"));
    let chunk = 128u64 << 20;
    let expected = ((memory as f64 * 0.7) as u64 / chunk * chunk).max(chunk);
    assert_eq!(
        pool.recommended.as_deref(),
        Some(units::format_size(expected).as_str()),
        "{}",
        pool.message
    );

    let redo = ev
        .findings
        .iter()
        .find(|f| f.code == "MT113")
        .unwrap_or_else(|| panic!("MT113: {:#?} {:#?}", ev.findings, ev.not_applicable));
    assert_eq!(redo.variable.as_deref(), Some("innodb_log_file_size"));
    assert_eq!(redo.current.as_deref(), Some("96M"));
    let rec = units::parse_size(redo.recommended.as_deref().unwrap()).unwrap();
    assert!(
        rec >= (memory as f64 * 0.7 * 0.25) as u64,
        "{}",
        redo.message
    );
    assert!(redo.message.contains("a quarter of a"), "{}", redo.message);
    eprintln!("{}\n{}", pool.message, redo.message);
}
