//! Command-line definitions (clap derive). Parsing only: no I/O happens here,
//! so `--help` and usage errors never touch a server or a file.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

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
    /// List the rule catalog (code, name, severity, family, applies).
    Rules(RulesArgs),
    /// Print one rule in full: condition, recommendations, rationale, sources.
    Explain(ExplainArgs),
    /// Collect host and server facts into a JSON snapshot.
    #[command(disable_help_flag = true)]
    Collect(Box<crate::commands::collect::CollectArgs>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    Table,
    Json,
    /// The rule reference committed as docs/rules.md.
    Markdown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormat {
    Text,
    Json,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Add the rules of every *.toml file in DIR (a code already built in is replaced).
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = RulesFormat::Table)]
    pub format: RulesFormat,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Rule code (MT101) or name.
    pub code: String,
    /// Add the rules of every *.toml file in DIR (a code already built in is replaced).
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
    pub format: ExplainFormat,
}
