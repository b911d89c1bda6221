//! `mytune check`'s arguments.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use mytune::rules::Severity;

/// `check --format`: the names of the library's format table, each with its
/// help.
fn check_format_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        mytune::report::check_formats::CHECK_FORMATS
            .iter()
            .map(|f| clap::builder::PossibleValue::new(f.name).help(f.help)),
    )
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Advice on a live server (or a snapshot), with drift against its option files.
#[derive(Debug, Args)]
#[command(disable_help_flag = true)]
pub struct CheckArgs {
    #[command(flatten)]
    pub flags: super::collect::CollectFlags,
    /// Read the facts from a snapshot written by `mytune collect` instead of
    /// connecting.
    #[arg(long, value_name = "FILE", conflicts_with = "interval")]
    pub snapshot: Option<PathBuf>,
    /// Check every server of this inventory (repeatable): plain lines (`host[:port]` or a
    /// socket path, then a name and settings such as memory=64G cpus=16), or an Ansible
    /// inventory, INI or YAML (hosts and groups; the address from ansible_host, the port from
    /// mysql_port or mytune_port, never ansible_port, which is SSH's; settings as mytune_memory,
    /// mytune_cpus, mytune_disk, mytune_durability, ...). Credentials are taken as for one server
    /// (option files, MYSQL_PWD, -p asked once), never from the inventory; an entry may name its
    /// own option groups with defaults_group_suffix=_SUFFIX (Ansible:
    /// mytune_defaults_group_suffix), read as --defaults-group-suffix reads them. -P is the port
    /// of entries naming none. A remote server's host is what the inventory (or --memory, --cpus, --disk) says,
    /// never this machine. A line that cannot be read is reported and skipped; a server listed
    /// twice is checked once.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["snapshot", "config", "host", "socket", "protocol"])]
    pub inventory: Vec<PathBuf>,
    #[command(flatten)]
    pub fleet: super::collect::FleetFlags,
    /// With --inventory and --format text: each server's full report after the summary.
    #[arg(long, requires = "inventory")]
    pub details: bool,
    /// The server's option file (its includes are followed): compare it with
    /// the running values and let rules see it. Repeat for several files;
    /// later ones win.
    #[arg(long, value_name = "FILE")]
    pub config: Vec<PathBuf>,
    #[command(flatten)]
    pub rules: super::RulesDir,
    #[command(flatten)]
    pub profile: super::profile::ProfileArgs,
    /// Take the profile (durability, workload, connections, share) from this
    /// mytune.toml; by default the nearest mytune.toml up from the current
    /// directory, if any. The flags above win over it.
    #[arg(long, value_name = "FILE")]
    pub project: Option<PathBuf>,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = check_format_parser())]
    pub format: String,
    /// Colours in the text report (NO_COLOR turns `auto` off).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Report only these codes, rule names or families (comma-separated or repeated).
    #[arg(long, value_name = "KEY")]
    pub only: Vec<String>,
    /// Leave out these codes, rule names or families.
    #[arg(long, value_name = "KEY")]
    pub skip: Vec<String>,
    /// Exit 1 when a finding at or above this severity exists.
    #[arg(long, value_name = "SEVERITY", default_value = "warn", value_parser = super::severity_parser())]
    pub fail_on: Severity,
    /// Write the report to FILE instead of standard output (no colours). A new FILE gets mode
    /// 0600 (it holds server data; 0644 with --format openmetrics, for node_exporter's textfile
    /// collector, which reads a temporary file renamed into place); a file replaced keeps its owner, group and mode (one mytune
    /// cannot give them back, or with other hard links, is refused: exit 2); a symbolic link at
    /// FILE is followed (its target is written, the link kept).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also report what an upgrade to this release changes: every variable running with today's
    /// default whose default differs there (MT023), and what that release refuses or deprecates in
    /// the --config files.
    #[arg(long, value_name = "FLAVOR-VERSION", value_parser = super::parse_target)]
    pub upgrade_to: Option<mytune::target::Target>,
    /// Also list the rules that did not apply, with the reason.
    #[arg(short = 'v', long)]
    pub verbose: bool,
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}
