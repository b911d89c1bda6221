//! `../shared` beside the checkout: the captured server outputs, manuals and
//! real option files that some tests read (see the README, "Tests"). Where it
//! is absent, `build.rs` sets `cfg(mytune_no_shared)` and those tests are
//! marked ignored with the reason, so `cargo test` shows them as skipped
//! instead of passing having done nothing; CI (`MYTUNE_REQUIRE_LIVE=1`)
//! fails the build without it.

#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared` beside this crate, if it is there.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared"));
    dir.is_dir().then_some(dir)
}

/// `../shared/REL`, if it is there.
pub fn shared_path(rel: &str) -> Option<PathBuf> {
    let p = shared_dir()?.join(rel);
    p.exists().then_some(p)
}
