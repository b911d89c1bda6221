//! Host facts of the machine mytune runs on, or as described on the command
//! line for a machine elsewhere.
//!
//! Everything is read from `/proc`, `/sys`, the cgroup mount and systemd unit
//! files under roots held in [`HostPaths`], so tests can point them at fixture
//! trees. Nothing here fails: what cannot be read is left out, and rules that
//! need it become not applicable.

use std::fs;
use std::path::PathBuf;

use crate::collect::{cgroup, proc, sysctl};
use crate::facts::host::{Cpu, Disk, DiskKind, HostFacts, HostSource, Limit, Memory};

/// Where host facts are read from.
#[derive(Debug, Clone, PartialEq)]
pub struct HostPaths {
    /// `/proc`.
    pub proc: PathBuf,
    /// `/sys`.
    pub sys: PathBuf,
    /// The cgroup mount, `/sys/fs/cgroup`.
    pub cgroup: PathBuf,
    /// systemd unit directories, highest precedence first.
    pub systemd_dirs: Vec<PathBuf>,
}

impl Default for HostPaths {
    fn default() -> Self {
        HostPaths {
            proc: "/proc".into(),
            sys: "/sys".into(),
            cgroup: "/sys/fs/cgroup".into(),
            systemd_dirs: vec![
                "/etc/systemd/system".into(),
                "/run/systemd/system".into(),
                "/usr/lib/systemd/system".into(),
                "/lib/systemd/system".into(),
            ],
        }
    }
}

/// What the server told us that locates it on this host.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServerHints {
    /// `@@pid_file`: finds the server process exactly even when several run.
    pub pid_file: Option<PathBuf>,
    /// `@@datadir`: its block device is the one that matters.
    pub datadir: Option<PathBuf>,
}

/// A host described on the command line (`--memory`, `--cpus`, `--disk`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct HostDescription {
    pub memory_bytes: Option<u64>,
    pub cpus: Option<u32>,
    pub disk: Option<DiskKind>,
}

impl HostDescription {
    pub fn is_empty(&self) -> bool {
        self.memory_bytes.is_none() && self.cpus.is_none() && self.disk.is_none()
    }
}

/// systemd units a MySQL-family server runs as, in the order tried.
const SERVER_UNITS: [&str; 3] = ["mariadb.service", "mysql.service", "mysqld.service"];

/// Collect the facts of this machine.
pub fn collect(paths: &HostPaths, hints: &ServerHints) -> HostFacts {
    let meminfo = fs::read_to_string(paths.proc.join("meminfo")).unwrap_or_default();
    let (mem_total, swap_total) = proc::parse_meminfo(&meminfo);
    let server_pid = hints
        .pid_file
        .as_deref()
        .and_then(|p| fs::read_to_string(p).ok())
        .and_then(|t| t.trim().parse::<u32>().ok())
        .filter(|pid| {
            proc::process_name(&paths.proc, *pid)
                .is_some_and(|n| proc::SERVER_PROCESS_NAMES.contains(&n.as_str()))
        })
        .or_else(|| proc::find_server_pids(&paths.proc).into_iter().next());
    // The server's own cgroup bounds it (a systemd service or container may
    // be limited while the shell running mytune is not); ours otherwise.
    let cgroup_of = server_pid.map_or_else(|| "self".to_string(), |p| p.to_string());
    let proc_cgroup = fs::read_to_string(paths.proc.join(&cgroup_of).join("cgroup"))
        .or_else(|_| fs::read_to_string(paths.proc.join("self/cgroup")))
        .unwrap_or_default();
    let limits = cgroup::read_limits(&paths.cgroup, &proc_cgroup);

    let total = mem_total.unwrap_or(0);
    let memory = match limits.memory_bytes {
        Some(limit) if total == 0 || limit < total => Memory {
            total_bytes: total,
            cgroup_limit_bytes: Some(limit),
            effective_bytes: limit,
            effective_source: limits.memory_source.clone().unwrap_or_default(),
        },
        other => Memory {
            total_bytes: total,
            cgroup_limit_bytes: other,
            effective_bytes: total,
            // No source when /proc/meminfo could not be read: unknown.
            effective_source: if total > 0 {
                "/proc/meminfo".into()
            } else {
                String::new()
            },
        },
    };

    let logical = fs::read_to_string(paths.sys.join("devices/system/cpu/online"))
        .ok()
        .and_then(|t| proc::parse_cpu_list(&t))
        .or_else(|| {
            std::thread::available_parallelism()
                .ok()
                .map(|n| n.get() as u32)
        })
        .unwrap_or(1);
    let cpu = match limits.cpu_quota {
        Some(q) if (q.ceil() as u32) < logical => Cpu {
            logical,
            cgroup_quota: Some(q),
            effective: (q.ceil() as u32).max(1),
            effective_source: limits.cpu_source.clone().unwrap_or_default(),
        },
        other => Cpu {
            logical,
            cgroup_quota: other,
            effective: logical,
            effective_source: "online CPUs".into(),
        },
    };

    let datadir_disk = hints.datadir.as_deref().and_then(|d| {
        let dev = proc::block_device_of(d, &paths.sys)?;
        Some(Disk {
            kind: disk_kind(dev.rotational, dev.driver.as_deref()),
            device: Some(dev.name),
            rotational: dev.rotational,
            scheduler: dev.scheduler,
        })
    });

    let other_processes = {
        let own = std::process::id();
        let exclude: Vec<u32> = server_pid.into_iter().chain([own]).collect();
        // Under a cgroup memory limit only the processes of that cgroup
        // draw on it.
        let cgroup = (memory.effective_bytes < memory.total_bytes).then(|| {
            let pid = server_pid.unwrap_or(own);
            fs::read_to_string(paths.proc.join(pid.to_string()).join("cgroup")).ok()
        });
        match cgroup {
            Some(None) => None,
            Some(Some(cg)) => proc::read_other_processes(&paths.proc, &exclude, Some(&cg)),
            None => proc::read_other_processes(&paths.proc, &exclude, None),
        }
    };
    HostFacts {
        source: HostSource::Collected,
        memory,
        cpu,
        swap_total_bytes: swap_total,
        kernel: fs::read_to_string(paths.proc.join("sys/kernel/osrelease"))
            .ok()
            .map(|s| s.trim().to_string()),
        numa_nodes: proc::read_numa_nodes(&paths.sys),
        sysctl: sysctl::read(&paths.proc.join("sys")),
        thp: proc::read_thp(&paths.sys),
        server_process: server_pid.and_then(|pid| proc::read_process_limits(&paths.proc, pid)),
        current_process: proc::read_process_limits(&paths.proc, std::process::id()),
        systemd_limit_nofile: systemd_limit_nofile(&paths.systemd_dirs),
        datadir_disk,
        other_processes,
        addresses: super::addresses::read_local_addresses(&paths.proc),
        kernel_counters: super::counters::read(&paths.proc),
    }
}

/// Paravirtual block drivers: the guest sees whatever rotational flag the
/// hypervisor sets (virtio disks say rotational by default), not the medium
/// behind them.
const PARAVIRTUAL_DRIVERS: &[&str] = &["virtio_blk", "vbd", "xen_blkfront"];

/// The disk kind `queue/rotational` tells, except that a paravirtual disk's
/// "rotational" is no evidence of a spinning disk: it is unknown then (and
/// `--disk` can say). Measured on a virtio disk that says rotational: flush
/// neighbours off and a high `innodb_io_capacity`, which an HDD would not
/// want, ran no slower (the knob-search bench, MT119 and MT120).
pub fn disk_kind(rotational: Option<bool>, driver: Option<&str>) -> DiskKind {
    match rotational {
        Some(true) if driver.is_some_and(|d| PARAVIRTUAL_DRIVERS.contains(&d)) => DiskKind::Unknown,
        Some(true) => DiskKind::Hdd,
        Some(false) => DiskKind::Ssd,
        None => DiskKind::Unknown,
    }
}

/// Host facts for a machine described by flags, on top of collected facts
/// when there are any (a local server with `--memory` given).
pub fn describe(desc: &HostDescription, collected: Option<HostFacts>) -> HostFacts {
    let mut host = collected.unwrap_or_default();
    host.source = HostSource::Described;
    if let Some(m) = desc.memory_bytes {
        host.memory = Memory {
            total_bytes: m,
            cgroup_limit_bytes: None,
            effective_bytes: m,
            effective_source: "--memory".into(),
        };
        // The processes and the kernel measured here are not the described
        // host's.
        host.other_processes = None;
        host.addresses.clear();
        host.kernel_counters.clear();
    }
    if let Some(c) = desc.cpus {
        host.cpu = Cpu {
            logical: c,
            cgroup_quota: None,
            effective: c,
            effective_source: "--cpus".into(),
        };
    }
    if let Some(kind) = desc.disk {
        let disk = host.datadir_disk.get_or_insert_with(Disk::default);
        disk.kind = kind;
        disk.rotational = match kind {
            DiskKind::Hdd => Some(true),
            DiskKind::Ssd => Some(false),
            DiskKind::Unknown => None,
        };
    }
    host
}

/// `LimitNOFILE` of the server's systemd unit: the unit file, then its
/// drop-ins (`UNIT.d/*.conf` in all unit directories, by file name, a higher
/// directory masking a same-named file in a lower one); the last value wins.
pub fn systemd_limit_nofile(dirs: &[PathBuf]) -> Option<Limit> {
    for unit in SERVER_UNITS {
        let Some(unit_file) = dirs.iter().map(|d| d.join(unit)).find(|p| p.is_file()) else {
            continue;
        };
        let mut value = fs::read_to_string(&unit_file)
            .ok()
            .and_then(|t| last_limit_nofile(&t));
        let mut dropins: Vec<(String, PathBuf)> = Vec::new();
        for dir in dirs {
            let Ok(entries) = fs::read_dir(dir.join(format!("{unit}.d"))) else {
                continue;
            };
            for e in entries.filter_map(Result::ok) {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.ends_with(".conf") && !dropins.iter().any(|(n, _)| *n == name) {
                    dropins.push((name, e.path()));
                }
            }
        }
        dropins.sort();
        for (_, path) in dropins {
            if let Some(v) = fs::read_to_string(&path)
                .ok()
                .and_then(|t| last_limit_nofile(&t))
            {
                value = Some(v);
            }
        }
        return value;
    }
    None
}

/// The last `LimitNOFILE=` in a unit file's text. An empty assignment resets
/// to the default, which we report as absent.
fn last_limit_nofile(text: &str) -> Option<Limit> {
    let mut found = None;
    for line in text.lines() {
        if let Some(v) = line.trim().strip_prefix("LimitNOFILE=") {
            found = Some(proc::parse_systemd_limit(v));
        }
    }
    found.flatten()
}

/// True for a host name that means "this machine".
pub fn is_loopback_host(host: &str) -> bool {
    let h = host.trim().trim_start_matches('[').trim_end_matches(']');
    h.eq_ignore_ascii_case("localhost")
        || h == "::1"
        || h.parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paravirtual_disk_saying_rotational_is_of_unknown_kind() {
        assert_eq!(disk_kind(Some(true), Some("virtio_blk")), DiskKind::Unknown);
        assert_eq!(disk_kind(Some(true), Some("vbd")), DiskKind::Unknown);
        // A real disk's flag is believed, either way.
        assert_eq!(disk_kind(Some(true), Some("sd")), DiskKind::Hdd);
        assert_eq!(disk_kind(Some(true), None), DiskKind::Hdd);
        assert_eq!(disk_kind(Some(false), Some("virtio_blk")), DiskKind::Ssd);
        assert_eq!(disk_kind(Some(false), Some("nvme")), DiskKind::Ssd);
        assert_eq!(disk_kind(None, Some("virtio_blk")), DiskKind::Unknown);
    }

    #[test]
    fn loopback_hosts() {
        assert!(is_loopback_host("localhost"));
        assert!(is_loopback_host("127.0.0.1"));
        assert!(is_loopback_host("127.1.2.3"));
        assert!(is_loopback_host("::1"));
        assert!(!is_loopback_host("db.example.com"));
        assert!(!is_loopback_host("10.0.0.1"));
    }

    #[test]
    fn unit_file_and_dropins() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("lib");
        let etc = dir.path().join("etc");
        fs::create_dir_all(lib.join("mariadb.service.d")).unwrap();
        fs::create_dir_all(etc.join("mariadb.service.d")).unwrap();
        fs::write(
            lib.join("mariadb.service"),
            "[Service]\nLimitNOFILE=32768\n",
        )
        .unwrap();
        let dirs = vec![etc.clone(), lib.clone()];
        assert_eq!(systemd_limit_nofile(&dirs), Some(Limit::Value(32768)));
        fs::write(
            etc.join("mariadb.service.d/limits.conf"),
            "[Service]\nLimitNOFILE=infinity\n",
        )
        .unwrap();
        assert_eq!(systemd_limit_nofile(&dirs), Some(Limit::UNLIMITED));
        // A same-named drop-in in a lower directory is masked.
        fs::write(
            lib.join("mariadb.service.d/limits.conf"),
            "[Service]\nLimitNOFILE=10\n",
        )
        .unwrap();
        assert_eq!(systemd_limit_nofile(&dirs), Some(Limit::UNLIMITED));
        assert_eq!(systemd_limit_nofile(&[dir.path().join("none")]), None);
    }

    #[test]
    fn description_overrides_collected_figures() {
        let desc = HostDescription {
            memory_bytes: Some(64 << 30),
            cpus: Some(16),
            disk: Some(DiskKind::Ssd),
        };
        let h = describe(&desc, None);
        assert_eq!(h.source, HostSource::Described);
        assert_eq!(h.memory.effective_bytes, 64 << 30);
        assert_eq!(h.memory.effective_source, "--memory");
        assert_eq!(h.cpu.effective, 16);
        assert_eq!(h.datadir_disk.unwrap().kind, DiskKind::Ssd);
    }
}
