//! The whole command line (clap derive), in one place: every command's
//! arguments, and the flags several share (connection, host description,
//! profile, `--rules`) defined once and flattened in. Parsing only: no I/O
//! happens here, so `--help` and usage errors never touch a server or a
//! file; `crate::commands` runs what was asked. The library knows nothing
//! of clap.

pub mod check;
pub mod collect;
pub mod connect;
pub mod generate;
pub mod host;
pub mod profile;

use mytune::catalog::Resolve;
use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use mytune::catalog::Catalog;
use mytune::rules::Severity;
use mytune::target::Target;

/// `mytune --help`'s closing lines.
const TOP_AFTER_HELP: &str = "\
Exit status: 0 clean, 1 findings at or above --fail-on (lint, check), 2 usage, I/O or connection
error. `mytune help COMMAND` or `mytune COMMAND --help` for one command; `mytune man` for the manual
page, `mytune completions SHELL` for shell completions.";

/// Exit codes of a command that judges (`lint`, `check`).
pub const JUDGE_EXIT_CODES: &str = "\
Exit status:
  0  no finding at or above --fail-on
  1  findings at or above --fail-on (default warn); with --inventory: on any server
  2  usage error, unreadable or missing input, unknown target, or no connection; with
     --inventory: any server that could not be checked, or no server left to check (the
     others are still reported)";

/// Exit codes of `lint`, whose `--diff` answers another question.
pub const LINT_EXIT_CODES: &str = "\
Exit status:
  0  no finding at or above --fail-on (after --fix: none left); with --diff: nothing to fix
  1  findings at or above --fail-on (default warn); with --diff: there are fixes to apply
  2  usage error, unreadable or missing input, unknown target, or a fix that could not be written";

/// Exit codes of a command that only prints or writes.
pub const PLAIN_EXIT_CODES: &str = "\
Exit status:
  0  success
  2  usage error, unreadable input or output, or no connection";

#[derive(Debug, Parser)]
#[command(
    name = "mytune",
    version = env!("MYTUNE_VERSION"),
    about = "Tuning advisor and option-file linter for MySQL, MariaDB and Percona Server",
    after_help = TOP_AFTER_HELP,
    disable_help_subcommand = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
// Parsed once per run: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// List the rule catalog and the built-in checks (code, name, severity, family, applies).
    #[command(after_help = PLAIN_EXIT_CODES)]
    Rules(RulesArgs),
    /// Print one rule in full: condition, recommendations, rationale, sources.
    #[command(after_help = PLAIN_EXIT_CODES)]
    Explain(ExplainArgs),
    /// Check option files: syntax, unknown/removed/deprecated options, values, groups, rules.
    #[command(after_help = LINT_EXIT_CODES)]
    Lint(LintArgs),
    /// Collect host and server facts into a JSON snapshot.
    #[command(disable_help_flag = true, after_help = PLAIN_EXIT_CODES)]
    Collect(Box<collect::CollectArgs>),
    /// Advice on a live server (or a snapshot), with drift against its option files.
    #[command(disable_help_flag = true, after_help = JUDGE_EXIT_CODES)]
    Check(Box<check::CheckArgs>),
    /// Write a commented option file (my.cnf) for this host or a described one.
    #[command(after_help = PLAIN_EXIT_CODES)]
    GenCnf(generate::GenCnfArgs),
    /// Write a sysctl.d file of kernel parameters for the expected connections.
    #[command(after_help = PLAIN_EXIT_CODES)]
    GenSysctl(generate::GenSysctlArgs),
    /// Write a limits.d file and a systemd drop-in with the server's process limits.
    #[command(after_help = PLAIN_EXIT_CODES)]
    GenLimits(generate::GenLimitsArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write one page per command with --dir.
    Man(ManArgs),
    /// Print the help of mytune or of one command (`mytune help lint`).
    Help(HelpArgs),
}

/// `--rules DIR`, for every command that evaluates rules.
#[derive(Debug, Clone, Default, Args)]
pub struct RulesDir {
    /// Add the rules of every *.toml file in DIR (a code already built in is replaced).
    #[arg(id = "rules", long = "rules", value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write mytune.1 and one mytune-COMMAND.1 per command into DIR instead
    /// of printing mytune.1. A new page gets mode 0644 less the umask; one
    /// replaced keeps its owner, group and mode; a symbolic link is followed.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct HelpArgs {
    /// The command to describe (none: mytune itself).
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
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
    #[command(flatten)]
    pub rules: RulesDir,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RulesFormat::Table)]
    pub format: RulesFormat,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Rule code (MT101) or name.
    pub code: String,
    #[command(flatten)]
    pub rules: RulesDir,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
    pub format: ExplainFormat,
}

/// `lint --format`: the names of the library's format table, each with its
/// help.
fn lint_format_parser() -> PossibleValuesParser {
    PossibleValuesParser::new(
        mytune::report::lint_formats::LINT_FORMATS
            .iter()
            .map(|f| clap::builder::PossibleValue::new(f.name).help(f.help)),
    )
}

#[derive(Debug, Args)]
pub struct LintArgs {
    /// Option files, sysctl/limits files, systemd drop-ins, or directories to walk
    /// (*.cnf, my.cnf, sysctl.conf, sysctl.d/*.conf, limits.conf, limits.d/*.conf,
    /// *.service.d/*.conf); option files' !include and !includedir are followed.
    #[arg(required = true, value_name = "PATH")]
    pub files: Vec<PathBuf>,
    #[arg(
        long,
        value_name = "FLAVOR-VERSION",
        value_parser = parse_target,
        help = target_help(
            "The server the files are for.",
            "mytune.toml's target, else the server installed here (mariadbd/mysqld --version), else mysql-8.0"
        )
    )]
    pub target: Option<Target>,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = lint_format_parser())]
    pub format: String,
    /// Exit 1 when a finding at or above this severity exists.
    #[arg(long, value_name = "SEVERITY", default_value = "warn", value_parser = severity_parser())]
    pub fail_on: Severity,
    /// Use this mytune.toml for every file instead of the nearest one above each file.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub rules: RulesDir,
    /// Skip paths matching this glob (repeatable; a glob without / matches file names).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Also print, on stderr, the rules that were not applicable and why.
    #[arg(short, long)]
    pub verbose: bool,
    /// Rewrite in place what has one mechanical fix (names, removed options, clamped values,
    /// lines set twice), keeping every other byte; then report what is left. Each file keeps its
    /// owner, group and mode, and a symbolic link is followed (its target is fixed, the link
    /// kept); a file mytune cannot give its owner back, or with other hard links, is refused
    /// (exit 2) and then no file is changed.
    #[arg(long)]
    pub fix: bool,
    /// Print the fixes as a unified diff and change nothing (exit 1 when there is one).
    #[arg(long)]
    pub diff: bool,
    /// Report only findings this baseline does not accept, and its entries that match nothing
    /// (default: mytune.toml's `baseline`).
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,
    /// The release the files run on today: also report every variable they leave at its default
    /// whose default changes on --target (MT023), as for an upgrade from FROM to --target.
    #[arg(long, value_name = "FLAVOR-VERSION", value_parser = parse_target)]
    pub from: Option<Target>,
    /// With --fix and --from: write FROM's defaults into the file for the variables whose default
    /// changes, so that the upgrade changes nothing.
    #[arg(long, requires_all = ["fix", "from"])]
    pub pin_defaults: bool,
    /// Record today's findings in FILE as the baseline, and report nothing. FILE may be a
    /// baseline written before, never a file being linted, one they include, or an existing file
    /// that is not a baseline (exit 2). A new FILE gets mode 0644 less the umask; one replaced
    /// keeps its owner, group and mode; a symbolic link at FILE is followed (its target is
    /// written, the link kept).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fix", "diff"])]
    pub write_baseline: Option<PathBuf>,
}

/// A `--target` value: FLAVOR-VERSION with a variable catalog to judge it
/// by (the series' own or the nearest one of the flavor); anything else is a
/// usage error. A bare series means its catalog's newest release
/// ([`Target::resolved`]).
pub fn parse_target(s: &str) -> Result<Target, String> {
    let t = s.parse::<Target>()?;
    Catalog::for_target(&t).map_err(|e| e.to_string())?;
    Ok(t.resolved())
}

/// `--target`'s help: `what`, the series with a catalog, and the default.
pub fn target_help(what: &str, default: &str) -> String {
    let series = Catalog::supported()
        .iter()
        .map(Target::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "{what} FLAVOR-VERSION, one of {series}; a patch level (mysql-8.0.25) applies deprecations as of that release, other versions use the nearest series of the flavor. Default: {default}"
    )
}

/// `--fail-on`: a severity, with its values listed in the help.
pub fn severity_parser() -> impl TypedValueParser<Value = Severity> {
    PossibleValuesParser::new(["info", "warn", "crit"])
        .map(|s| s.parse::<Severity>().expect("a listed severity"))
}
