//! Command-line definitions (clap derive). Parsing only: no I/O happens here,
//! so `--help` and usage errors never touch a server or a file.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use mytune::rules::Severity;
use mytune::target::Target;

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
    /// Check option files: syntax, unknown/removed/deprecated options, values, duplicates, groups.
    Lint(LintArgs),
    /// Collect host and server facts into a JSON snapshot.
    #[command(disable_help_flag = true)]
    Collect(Box<crate::commands::collect::CollectArgs>),
    /// Advice on a live server (or a snapshot), with drift against its option files.
    #[command(disable_help_flag = true)]
    Check(Box<crate::commands::check::CheckArgs>),
    /// Write a commented option file (my.cnf) for this host or a described one.
    GenCnf(crate::commands::gen_cnf::GenCnfArgs),
    /// Write a sysctl.d file of kernel parameters for the expected connections.
    GenSysctl(crate::commands::gen_sysctl::GenSysctlArgs),
    /// Write a limits.d file and a systemd drop-in with the server's process limits.
    GenLimits(crate::commands::gen_limits::GenLimitsArgs),
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

/// Output format of findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
    /// SARIF 2.1.0, for code-scanning upload.
    Sarif,
    /// GitHub Actions workflow-command annotations.
    Github,
    /// A Markdown table (pull-request comments, job summaries).
    Markdown,
}

#[derive(Debug, Args)]
pub struct LintArgs {
    /// Option files, sysctl/limits files, systemd drop-ins, or directories to walk
    /// (*.cnf, my.cnf, sysctl.conf, sysctl.d/*.conf, limits.conf, limits.d/*.conf,
    /// *.service.d/*.conf); option files' !include and !includedir are followed.
    #[arg(required = true, value_name = "PATH")]
    pub files: Vec<PathBuf>,
    /// The server the files are for: FLAVOR-VERSION, e.g. mysql-8.0, mysql-8.4,
    /// mariadb-10.11, percona-8.0 (a patch level such as mysql-8.0.25 applies
    /// deprecations as of that release). Default: mytune.toml's target, else mysql-8.0.
    #[arg(long, value_parser = parse_target)]
    pub target: Option<Target>,
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// Exit 1 when a finding at or above this severity exists.
    #[arg(long, default_value = "warn", value_parser = parse_severity)]
    pub fail_on: Severity,
    /// Use this mytune.toml for every file instead of the nearest one above each file.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Add the rules of every *.toml file in DIR (a code already built in is replaced).
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Skip paths matching this glob (repeatable; a glob without / matches file names).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Also print, on stderr, the rules that were not applicable and why.
    #[arg(short, long)]
    pub verbose: bool,
}

/// A bare series means its catalog's newest release ([`Target::resolved`]).
fn parse_target(s: &str) -> Result<Target, String> {
    s.parse::<Target>().map(Target::resolved)
}

fn parse_severity(s: &str) -> Result<Severity, String> {
    s.parse()
}
