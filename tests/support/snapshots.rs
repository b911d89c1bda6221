//! The made-up facts snapshots of `tests/fixtures/snapshots/`, shared by the
//! rule tests. Use with `#[path = "support/snapshots.rs"] mod snapshots;`.

#![allow(dead_code)]

use std::path::Path;

use mytune::facts::Facts;

/// Read `tests/fixtures/snapshots/NAME` as facts.
pub fn snapshot(name: &str) -> Facts {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/snapshots")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("snapshot exists");
    Facts::from_json(&text).expect("snapshot parses")
}
