//! `/proc/PID/limits` parsing on captured files under `tests/fixtures/proc`.

use std::fs;

use mytune::collect::proc::parse_limits;
use mytune::facts::host::Limit;

fn read(name: &str) -> String {
    fs::read_to_string(format!(
        "{}/tests/fixtures/proc/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn mariadbd_limits() {
    let l = parse_limits(&read("limits-mariadbd.txt"), 3775, "mariadbd");
    assert_eq!(l.pid, 3775);
    assert_eq!(l.name, "mariadbd");
    assert_eq!(l.nofile_soft, Some(Limit::Value(20000)));
    assert_eq!(l.nofile_hard, Some(Limit::Value(20000)));
    assert_eq!(l.nproc_soft, Some(Limit::Value(96364)));
    assert_eq!(l.nproc_hard, Some(Limit::Value(96364)));
}

#[test]
fn soft_hard_and_unlimited() {
    let l = parse_limits(&read("limits-soft-hard.txt"), 1, "mysqld");
    assert_eq!(l.nofile_soft, Some(Limit::Value(1024)));
    assert_eq!(l.nofile_hard, Some(Limit::Value(524288)));
    assert_eq!(l.nproc_soft, Some(Limit::UNLIMITED));
    assert_eq!(l.nproc_hard, Some(Limit::UNLIMITED));
    // "unlimited" serializes as the string, numbers as numbers.
    let json = serde_json::to_string(&l).unwrap();
    assert!(json.contains(r#""nproc_soft":"unlimited""#), "{json}");
    assert!(json.contains(r#""nofile_soft":1024"#), "{json}");
}

#[test]
fn garbage_gives_no_limits() {
    let l = parse_limits("not a limits file\nMax open files  lots  more\n", 1, "x");
    assert_eq!(l.nofile_soft, None);
    assert_eq!(l.nofile_hard, None);
    assert_eq!(l.nproc_soft, None);
}
