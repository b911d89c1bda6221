//! The deployment-profile flags `check` and the generators share: how the
//! server is meant to run (durability, workload, expected connections, its
//! share of the host). One definition, so `check --durability relaxed` and
//! `gen-cnf --durability relaxed` mean the same.

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};

use mytune::rules::{Durability, Observability, Profile, Workload};

#[derive(Debug, Clone, Default, Args)]
pub struct ProfileArgs {
    /// The workload the server runs: oltp (many short transactions), olap
    /// (long analytical queries) or mixed [default: mixed].
    #[arg(
        long,
        ignore_case = true,
        value_parser = PossibleValuesParser::new(["oltp", "olap", "mixed"])
            .map(|s| s.parse::<Workload>().expect("a listed workload"))
    )]
    pub workload: Option<Workload>,
    /// strict: every commit survives a crash; relaxed: may lose about a
    /// second of commits for speed [default: strict].
    #[arg(
        long,
        ignore_case = true,
        value_parser = PossibleValuesParser::new(["strict", "relaxed"])
            .map(|s| s.parse::<Durability>().expect("a listed durability"))
    )]
    pub durability: Option<Durability>,
    /// standard: the slow query log and the Performance Schema as the server
    /// ships them (a slow log only where few statements are server-side
    /// prepared, the ones it costs); full: both on; lean: neither, for the
    /// throughput they cost [default: standard].
    #[arg(
        long,
        ignore_case = true,
        value_parser = PossibleValuesParser::new(["full", "standard", "lean"])
            .map(|s| s.parse::<Observability>().expect("a listed observability"))
    )]
    pub observability: Option<Observability>,
    /// Expected peak of concurrent connections.
    #[arg(long, value_name = "N")]
    pub connections: Option<u64>,
    /// Share of the host's memory and CPUs the server may use (0 < share <= 1;
    /// 1 = a dedicated host) [default: 1].
    #[arg(long, value_name = "FRACTION", value_parser = parse_share)]
    pub share: Option<f64>,
}

impl ProfileArgs {
    /// `base` (the defaults, or a `mytune.toml`'s profile) with what the
    /// flags say on top.
    pub fn over(&self, base: Profile) -> Profile {
        // One rule for laying settings over a profile: an inventory
        // entry's and the flags' are the same kind of thing.
        mytune::fleet::inventory::ProfileOverrides {
            durability: self.durability,
            workload: self.workload,
            observability: self.observability,
            connections: self.connections,
            share: self.share,
        }
        .over(base)
    }

    pub fn given(&self) -> bool {
        self.durability.is_some()
            || self.workload.is_some()
            || self.observability.is_some()
            || self.connections.is_some()
            || self.share.is_some()
    }
}

fn parse_share(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number between 0 and 1"))?;
    if v > 0.0 && v <= 1.0 {
        Ok(v)
    } else {
        Err(format!("'{s}' is not in (0, 1]"))
    }
}
