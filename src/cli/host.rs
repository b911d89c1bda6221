//! `--memory`, `--cpus`, `--disk`: describing the server's host instead of
//! reading this one, the same for `collect`, `check` and the generators.

use clap::{Args, ValueEnum};

use mytune::collect::HostDescription;
use mytune::facts::host::DiskKind;

#[derive(Debug, Clone, Default, Args)]
pub struct HostFlags {
    /// Describe the host instead of reading this one: its memory (e.g. 64G). Needed for host
    /// rules when the server is remote.
    #[arg(long, value_name = "SIZE", value_parser = mytune::units::parse_memory)]
    pub memory: Option<u64>,
    /// Describe the host: its CPUs.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub cpus: Option<u32>,
    /// Describe the host: its data disk.
    #[arg(long, value_enum, value_name = "KIND")]
    pub disk: Option<DiskArg>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiskArg {
    Ssd,
    Hdd,
}

impl HostFlags {
    /// The host as the flags describe it (empty: none given).
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
}
