//! The built-in checks: findings written in Rust rather than as TOML rules
//! (lint's checks of how the server reads an option file; check's drift
//! between the files and the running server, the parts it could not
//! collect, the server's error log). One module a check, holding its
//! identity (`CHECK`: code, name, where it runs, severity, sources) and, in
//! its `//!` doc comment, its documentation: the first paragraph is the
//! summary, the rest the rationale. build.rs reads this directory, so a new
//! check is its module: listed, selectable, explained and documented in
//! `docs/rules.md` from there, and a module without documentation fails
//! the build naming it.
//!
//! The code that raises a check's findings stays where its evidence is read
//! (`lint`, `check::drift`, `check::skipped`, `check::errorlog`), and names
//! the check by its module: `checks::unknown_option::CHECK`.

use crate::rules::builtin_check::Check;

// One `pub mod` a file of this directory and `ALL`, in code order: written
// by build.rs (`build/builtin_checks.rs`).
include!(concat!(env!("OUT_DIR"), "/builtin_checks.rs"));
