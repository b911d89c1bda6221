//! Host facts: the machine a server runs on (or is meant to run on).
//!
//! Sizing uses the *effective* memory and CPU figures, which are the lower of
//! what the machine has and what its cgroup allows; each carries where it came
//! from so a report can say "2 GiB (cgroup v2 memory.max)".

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Whether host facts were read from this machine or given on the command
/// line / in `mytune.toml` for a machine elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum HostSource {
    #[default]
    Collected,
    Described,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct HostFacts {
    pub source: HostSource,
    pub memory: Memory,
    pub cpu: Cpu,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap_total_bytes: Option<u64>,
    /// `uname -r`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub numa_nodes: Option<u32>,
    /// sysctl values by dotted name (`net.core.somaxconn`), as the kernel
    /// prints them (tabs in multi-value entries folded to one space). A key
    /// the kernel does not have is absent.
    #[serde(default)]
    pub sysctl: BTreeMap<String, String>,
    /// Transparent huge pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thp: Option<TransparentHugePages>,
    /// Limits of the running mysqld/mariadbd, from `/proc/PID/limits`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_process: Option<ProcessLimits>,
    /// Limits of the process running mytune (what a server started from this
    /// shell would inherit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_process: Option<ProcessLimits>,
    /// `LimitNOFILE` of the server's systemd unit, when readable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub systemd_limit_nofile: Option<Limit>,
    /// The block device holding the datadir.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub datadir_disk: Option<Disk>,
    /// Resident memory of the host's other processes (not the server, not
    /// mytune): what the server cannot have. Read only for a host whose
    /// memory was measured here, never for a described one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_processes: Option<OtherProcesses>,
    /// The host's own IP addresses (not loopback, not link-local): an
    /// account for one of them is local to a server on this host.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub addresses: Vec<String>,
    /// The kernel's counters of [`KERNEL_COUNTERS`] that this host reports:
    /// the evidence an OS rule needs before it advises (packets dropped,
    /// listen queues overflowed). Read only on the host itself, never for a
    /// described one, whose kernel nobody can see.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub kernel_counters: BTreeMap<String, u64>,
}

/// The kernel counters mytune reads, the names rules use with
/// `kernel("NAME")`, and what each counts. One table: the collector reads
/// these, the rule checker accepts these, the reference documents these.
pub const KERNEL_COUNTERS: &[(&str, &str)] = &[
    (
        "softnet.dropped",
        "packets dropped because a CPU's netdev_max_backlog queue was full, since boot (/proc/net/softnet_stat, second column, all CPUs)",
    ),
    (
        "softnet.time_squeeze",
        "times the network stack ran out of its budget with packets left, since boot (/proc/net/softnet_stat, third column)",
    ),
    (
        "TcpExt.ListenOverflows",
        "connections dropped because a listening socket's accept queue (back_log, capped by somaxconn) was full, since boot (/proc/net/netstat)",
    ),
    (
        "TcpExt.ListenDrops",
        "connection requests a listening socket dropped for any reason, since boot (/proc/net/netstat)",
    ),
    (
        "TcpExt.TCPReqQFullDrop",
        "SYNs dropped because the SYN queue (tcp_max_syn_backlog) was full, since boot (/proc/net/netstat)",
    ),
    (
        "TcpExt.TCPReqQFullDoCookies",
        "SYN cookies sent because the SYN queue was full, since boot (/proc/net/netstat)",
    ),
    (
        "TcpExt.TCPAbortOnMemory",
        "connections the kernel killed for lack of memory for orphaned sockets, since boot (/proc/net/netstat)",
    ),
    (
        "sockstat.tcp_orphan",
        "TCP sockets the application closed that still wait for the peer, now (/proc/net/sockstat)",
    ),
    (
        "sockstat.tcp_tw",
        "TCP sockets in TIME-WAIT, now (/proc/net/sockstat)",
    ),
    (
        "vmstat.nr_dirty",
        "dirty page-cache pages, now (/proc/vmstat)",
    ),
    (
        "vmstat.nr_writeback",
        "pages being written back, now (/proc/vmstat)",
    ),
    (
        "vmstat.nr_dirty_background_threshold",
        "dirty pages at which background writeback starts, now (/proc/vmstat)",
    ),
];

/// What the host's other processes hold, from `/proc/PID/status` `VmRSS`.
/// Shared pages count once per process, so the sum is an upper bound.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct OtherProcesses {
    /// Sum of their resident memory.
    pub resident_bytes: u64,
    /// How many processes were counted.
    pub count: u32,
    /// The largest holders by name (processes of one name summed), largest
    /// first, at most [`OtherProcesses::LARGEST`].
    #[serde(default)]
    pub largest: Vec<ProcessGroup>,
}

impl OtherProcesses {
    pub const LARGEST: usize = 5;
}

/// Processes of one name and the resident memory they hold together.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ProcessGroup {
    pub name: String,
    pub processes: u32,
    pub resident_bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Memory {
    /// Physical memory of the machine.
    pub total_bytes: u64,
    /// cgroup memory limit, when one is set and lower than "max".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cgroup_limit_bytes: Option<u64>,
    /// The figure sizing uses: the lower of the two.
    pub effective_bytes: u64,
    /// Where `effective_bytes` came from (`/proc/meminfo`, `cgroup v2
    /// memory.max`, `--memory`).
    pub effective_source: String,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Cpu {
    /// Logical CPUs online.
    pub logical: u32,
    /// cgroup CPU quota in CPUs (quota / period), when one is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cgroup_quota: Option<f64>,
    /// The figure sizing uses: logical CPUs, or the quota rounded up when lower.
    pub effective: u32,
    pub effective_source: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TransparentHugePages {
    /// The selected mode of `/sys/kernel/mm/transparent_hugepage/enabled`
    /// (`always`, `madvise`, `never`).
    pub enabled: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defrag: Option<String>,
}

/// A resource limit value: a number or `unlimited`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Limit {
    Value(u64),
    Unlimited(Unlimited),
}

/// Serializes as the string `"unlimited"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unlimited {
    Unlimited,
}

impl Limit {
    pub const UNLIMITED: Limit = Limit::Unlimited(Unlimited::Unlimited);

    /// The limit as a number, `u64::MAX` for unlimited.
    pub fn as_u64(self) -> u64 {
        match self {
            Limit::Value(v) => v,
            Limit::Unlimited(_) => u64::MAX,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ProcessLimits {
    pub pid: u32,
    /// Process name (`mariadbd`, `mysqld`, `mytune`).
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nofile_soft: Option<Limit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nofile_hard: Option<Limit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nproc_soft: Option<Limit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nproc_hard: Option<Limit>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DiskKind {
    Ssd,
    Hdd,
    #[default]
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Disk {
    /// Block device name (`vda`, `nvme0n1`), when found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
    /// `/sys/block/DEV/queue/rotational`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotational: Option<bool>,
    /// The selected I/O scheduler (`none`, `mq-deadline`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduler: Option<String>,
    /// Ssd / hdd as read or as described with `--disk`.
    pub kind: DiskKind,
}
