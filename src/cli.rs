//! Command-line definitions (clap derive). Parsing only: no I/O happens here,
//! so `--help` and usage errors never touch a server or a file.

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "mytune",
    version,
    about = "Tuning advisor and option-file linter for MySQL, MariaDB and Percona Server"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Collect host and server facts into a JSON snapshot.
    #[command(disable_help_flag = true)]
    Collect(crate::commands::collect::CollectArgs),
}
