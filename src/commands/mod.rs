//! One module per subcommand: turn parsed arguments into library calls and
//! output. Exit-code mapping stays in `main.rs`.

pub mod collect;
