//! What `gen-cnf`, `gen-sysctl` and `gen-limits` share: the host (this one or
//! described), the target, the deployment profile, extra rules, and turning
//! them into a [`Plan`].

use mytune::catalog::Resolve;
use std::path::{Path, PathBuf};

use anyhow::bail;
use clap::{Args, ValueEnum};

use mytune::collect::{HostDescription, HostPaths};
use mytune::facts::Facts;
use mytune::facts::host::DiskKind;
use mytune::generate::{self, Plan};
use mytune::rules::{Profile, RuleSet};
use mytune::target::Target;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiskArg {
    Ssd,
    Hdd,
}

#[derive(Debug, Args)]
pub struct GenArgs {
    #[arg(
        long,
        value_name = "FLAVOR-VERSION",
        value_parser = crate::cli::parse_target,
        help = crate::cli::target_help(
            "The server the file is for.",
            "the server installed here (mariadbd/mysqld --version), else mysql-8.0"
        )
    )]
    pub target: Option<Target>,
    /// Describe the host instead of reading this one: its memory (e.g. 64G).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub memory: Option<u64>,
    /// Describe the host: its CPUs.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub cpus: Option<u32>,
    /// Describe the host: its data disk.
    #[arg(long, value_enum, value_name = "KIND")]
    pub disk: Option<DiskArg>,
    #[command(flatten)]
    pub profile: super::profile_args::ProfileArgs,
    /// Add the rules of every *.toml file in DIR (a code already built in is replaced).
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Start from a live server's facts saved by `mytune collect` (FILE, or -
    /// for standard input): its current values instead of the defaults, its
    /// version as the target, its host unless one is described.
    #[arg(long, value_name = "FILE")]
    pub from_snapshot: Option<PathBuf>,
}

/// Everything a generator needs, resolved.
pub struct Resolved {
    pub rules: RuleSet,
    pub facts: Facts,
    pub profile: Profile,
    pub plan: Plan,
    /// Header lines for the generated files.
    pub header: Vec<String>,
}

impl GenArgs {
    pub fn description(&self) -> HostDescription {
        HostDescription {
            memory_bytes: self.memory,
            cpus: self.cpus,
            disk: self.disk.map(|d| match d {
                DiskArg::Ssd => DiskKind::Ssd,
                DiskArg::Hdd => DiskKind::Hdd,
            }),
        }
    }

    pub fn profile(&self) -> Profile {
        self.profile.over(Profile::default())
    }

    /// Load rules and facts, pick the target, build the plan. `live`: facts
    /// just collected from a server (`--from-server`).
    pub fn resolve(&self, command: &str, live: Option<Facts>) -> anyhow::Result<Resolved> {
        let rules = RuleSet::load(self.rules.as_deref())?;
        let desc = self.description();
        let server_label = if live.is_some() {
            "the live server"
        } else {
            "the snapshot's server"
        };
        let mut facts = match (live, &self.from_snapshot) {
            (Some(f), _) => f,
            (None, Some(path)) => read_snapshot(path)?,
            (None, None) => Facts::default(),
        };
        facts.host = match facts.host.take() {
            Some(h) if desc.is_empty() => Some(h),
            Some(h) => Some(mytune::collect::host::describe(&desc, Some(h))),
            None if facts.server.is_some() && desc.is_empty() => bail!(
                "the snapshot has no host facts (a remote server); describe its host with --memory and --cpus"
            ),
            None => Some(generate::host::host_facts(&desc, &HostPaths::default())),
        };
        if facts.server.is_none()
            && let Some(h) = facts.host.as_mut()
        {
            generate::host::assume_server_inherits_limits(h);
        }
        let (target, how) = match (&self.target, &facts.server) {
            (_, Some(s)) => (s.target(), server_label),
            (Some(t), None) => (*t, "--target"),
            (None, None) => match super::installed_server() {
                Some(t) => (t, "the server installed here"),
                None => (
                    "mysql-8.0"
                        .parse::<Target>()
                        .expect("a valid target")
                        .resolved(),
                    "default",
                ),
            },
        };
        if let (Some(t), Some(s)) = (&self.target, &facts.server)
            && (t.flavor != s.flavor)
        {
            bail!(
                "--target {t} does not match the snapshot's server ({})",
                s.target()
            );
        }
        let assumed = facts
            .host
            .as_mut()
            .and_then(|h| generate::host::assume_stock_linux(h, &target));
        let profile = self.profile();
        let plan = generate::plan::build(&rules, &facts, &profile, target)?;
        let host = facts.host.as_ref().expect("set above");
        let mut header = vec![
            format!(
                "Generated by mytune {} {command} for {} ({how}{}).",
                env!("CARGO_PKG_VERSION"),
                plan.target,
                if plan.catalog_target.flavor != plan.target.flavor
                    || plan.catalog_target.version.series() != plan.target.version.series()
                {
                    format!("; variable catalog of {}", plan.catalog_target)
                } else {
                    String::new()
                }
            ),
            format!("Host: {}.", generate::host::summary(host)),
            format!("Profile: {profile}."),
        ];
        if host.memory.effective_bytes > 0 {
            let budget = mytune::rules::evaluate::memory_budget(host, profile.share);
            let mut line = format!(
                "Budget: {} the server may use",
                mytune::units::human_size(budget)
            );
            if let (Some(kept), Some(o)) = (
                mytune::rules::evaluate::kept_for_others(host),
                &host.other_processes,
            ) {
                line.push_str(&format!(
                    " ({} kept for {} other processes holding {}, rounded up so that their \
                     movement does not move the sizes)",
                    mytune::units::human_size(kept),
                    o.count,
                    mytune::units::human_size(o.resident_bytes)
                ));
            }
            header.push(format!("{line}."));
            if let Some((expected, peak, session)) = plan.expected_memory(&rules, &facts, &profile)
            {
                header.push(memory_line(expected, peak, session, plan.target));
            }
        }
        if let Some(s) = &facts.server {
            header.push(format!(
                "Starting from the live values of {} {}; only what a rule recommends is set.",
                s.flavor, s.version
            ));
        }
        header.extend(assumed);
        header.push("Each value names the rule that decided it: mytune explain CODE.".into());
        Ok(Resolved {
            rules,
            facts,
            profile,
            plan,
            header,
        })
    }
}

/// The header's memory line: the model's expected case for the plan, and
/// what of a connection's memory is counted and what is only assumed.
fn memory_line(expected: f64, peak: f64, session: f64, target: Target) -> String {
    let size = |b: f64| mytune::units::human_size(b.max(0.0) as u64);
    let basis = if target.flavor == mytune::target::Flavor::Mariadb {
        "at least what an idle connection holds (MariaDB 10.11 measured about 62 KiB resident, \
         48 KiB with the thread pool)"
    } else {
        "an assumption for this flavor: the resident memory of a connection was measured on \
         MariaDB 10.11 only"
    };
    format!(
        "Memory: {} expected at {} connections, each counted at {} from its buffers (network, \
         prealloc, binary log cache, thread stack), {basis}; performance_schema comes on top.",
        size(expected),
        peak.round() as u64,
        size(session)
    )
}

fn read_snapshot(path: &Path) -> anyhow::Result<Facts> {
    let text = mytune::input::read_text_or_stdin(path)?;
    Facts::from_json(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

fn parse_size(s: &str) -> Result<u64, String> {
    mytune::units::parse_memory(s)
}
