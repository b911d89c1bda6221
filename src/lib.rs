//! mytune: a tuning advisor and option-file linter for MySQL, MariaDB and
//! Percona Server.
//!
//! The library holds everything; `main.rs` only parses the command line and
//! maps errors to exit codes. See `DESIGN.md` in the README for the data flow:
//! collect facts → evaluate rules → report or generate.

pub mod atomic;
pub mod catalog;
pub mod check;
pub mod checks;
pub mod cnf;
pub mod collect;
pub mod facts;
pub mod fleet;
pub mod generate;
pub mod input;
pub mod lint;
pub mod registry;
pub mod report;
pub mod rules;
pub mod secrets;
pub mod target;
pub mod units;
pub mod wrap;

/// `eprintln!` that never panics and never passes a control character
/// through: a message can quote a value from a file or a server, and a
/// closed or full standard error must not turn into exit 101 (the exit code
/// still tells what happened).
#[macro_export]
macro_rules! stderr_line {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let line = format!($($arg)*);
        let _ = writeln!(std::io::stderr(), "{}", $crate::report::safe::escape(&line));
    }};
}
