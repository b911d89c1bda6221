//! Readers for `/proc` and `/sys` text files: process limits, memory, CPUs,
//! NUMA nodes, transparent huge pages, block devices.
//!
//! Each parser takes the file's text so it can be tested on fixtures; the
//! `read_*` helpers take a root directory (`/` in production) for the same
//! reason.

use std::fs;
use std::path::{Path, PathBuf};

use crate::facts::host::{
    Limit, OtherProcesses, ProcessGroup, ProcessLimits, TransparentHugePages,
};

/// Parse `/proc/PID/limits` into open-files and processes limits. Lines that
/// are missing or unreadable leave the field `None`.
pub fn parse_limits(text: &str, pid: u32, name: &str) -> ProcessLimits {
    let mut out = ProcessLimits {
        pid,
        name: name.to_string(),
        ..Default::default()
    };
    for line in text.lines() {
        // "Max open files            1024                 524288               files"
        let (soft_hard, target) = if let Some(rest) = line.strip_prefix("Max open files") {
            (rest, 0)
        } else if let Some(rest) = line.strip_prefix("Max processes") {
            (rest, 1)
        } else {
            continue;
        };
        let mut fields = soft_hard.split_whitespace();
        let soft = fields.next().and_then(parse_limit);
        let hard = fields.next().and_then(parse_limit);
        if target == 0 {
            out.nofile_soft = soft;
            out.nofile_hard = hard;
        } else {
            out.nproc_soft = soft;
            out.nproc_hard = hard;
        }
    }
    out
}

fn parse_limit(s: &str) -> Option<Limit> {
    if s == "unlimited" {
        Some(Limit::UNLIMITED)
    } else {
        s.parse().ok().map(Limit::Value)
    }
}

/// Parse a `LimitNOFILE=` value from a systemd unit: `N`, `SOFT:HARD` (the
/// soft limit is what the server gets) or `infinity`.
pub fn parse_systemd_limit(value: &str) -> Option<Limit> {
    let v = value.trim();
    let soft = v.split(':').next().unwrap_or(v).trim();
    if soft == "infinity" {
        Some(Limit::UNLIMITED)
    } else {
        soft.parse().ok().map(Limit::Value)
    }
}

/// `MemTotal` and `SwapTotal` of `/proc/meminfo`, in bytes.
pub fn parse_meminfo(text: &str) -> (Option<u64>, Option<u64>) {
    let field = |name: &str| {
        text.lines().find_map(|l| {
            let rest = l.strip_prefix(name)?.strip_prefix(':')?;
            let mut parts = rest.split_whitespace();
            let n: u64 = parts.next()?.parse().ok()?;
            match parts.next() {
                Some("kB") => n.checked_mul(1024),
                None => Some(n),
                Some(_) => None,
            }
        })
    };
    (field("MemTotal"), field("SwapTotal"))
}

/// Count the CPUs in a kernel CPU list such as `0-3,8-11` or `0`.
pub fn parse_cpu_list(text: &str) -> Option<u32> {
    let mut count = 0u32;
    for part in text.trim().split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let a: u32 = a.trim().parse().ok()?;
                let b: u32 = b.trim().parse().ok()?;
                count += b.checked_sub(a)? + 1;
            }
            None => {
                part.trim().parse::<u32>().ok()?;
                count += 1;
            }
        }
    }
    (count > 0).then_some(count)
}

/// The bracketed choice of a sysfs multiple-choice file:
/// `always [madvise] never` → `madvise`.
pub fn selected_choice(text: &str) -> Option<String> {
    let start = text.find('[')?;
    let end = text[start..].find(']')? + start;
    Some(text[start + 1..end].to_string())
}

/// Transparent huge pages under `sys` (`/sys`).
pub fn read_thp(sys: &Path) -> Option<TransparentHugePages> {
    let dir = sys.join("kernel/mm/transparent_hugepage");
    let enabled = selected_choice(&fs::read_to_string(dir.join("enabled")).ok()?)?;
    let defrag = fs::read_to_string(dir.join("defrag"))
        .ok()
        .and_then(|t| selected_choice(&t));
    Some(TransparentHugePages { enabled, defrag })
}

/// Number of NUMA nodes under `sys` (`/sys/devices/system/node/nodeN`).
pub fn read_numa_nodes(sys: &Path) -> Option<u32> {
    let entries = fs::read_dir(sys.join("devices/system/node")).ok()?;
    let n = entries
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.strip_prefix("node")
                .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
        })
        .count();
    (n > 0).then_some(n as u32)
}

/// The process name in `proc/PID/comm`.
pub fn process_name(proc: &Path, pid: u32) -> Option<String> {
    fs::read_to_string(proc.join(pid.to_string()).join("comm"))
        .ok()
        .map(|s| s.trim().to_string())
}

/// Limits of process `pid` (its `limits` file under `proc`).
pub fn read_process_limits(proc: &Path, pid: u32) -> Option<ProcessLimits> {
    let name = process_name(proc, pid).unwrap_or_default();
    let text = fs::read_to_string(proc.join(pid.to_string()).join("limits")).ok()?;
    Some(parse_limits(&text, pid, &name))
}

/// Server process names, newest product name first.
pub const SERVER_PROCESS_NAMES: [&str; 2] = ["mariadbd", "mysqld"];

/// PIDs of running `mariadbd`/`mysqld` processes, lowest first.
pub fn find_server_pids(proc: &Path) -> Vec<u32> {
    let Ok(entries) = fs::read_dir(proc) else {
        return Vec::new();
    };
    let mut pids: Vec<u32> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .filter(|pid| {
            process_name(proc, *pid).is_some_and(|n| SERVER_PROCESS_NAMES.contains(&n.as_str()))
        })
        .collect();
    pids.sort_unstable();
    pids
}

/// What [`block_device_of`] reads of the disk under a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockDevice {
    /// The whole-disk device name (`vda`, `nvme0n1`).
    pub name: String,
    /// `queue/rotational`.
    pub rotational: Option<bool>,
    /// The selected `queue/scheduler`.
    pub scheduler: Option<String>,
    /// The kernel driver bound to the device (`device/driver`): `virtio_blk`,
    /// `nvme`, `sd`, …
    pub driver: Option<String>,
}

/// Block-device facts for the filesystem holding `path`.
/// Returns `None` for filesystems without a block device (overlay, tmpfs).
pub fn block_device_of(path: &Path, sys: &Path) -> Option<BlockDevice> {
    use std::os::unix::fs::MetadataExt;
    let dev = fs::metadata(path).ok()?.dev();
    let (major, minor) = split_dev(dev);
    let mut dir: PathBuf = fs::canonicalize(sys.join(format!("dev/block/{major}:{minor}"))).ok()?;
    // A partition's queue settings live on its parent disk.
    if dir.join("partition").is_file() {
        dir = dir.parent()?.to_path_buf();
    }
    // Device-mapper / md: follow the first underlying device.
    for _ in 0..4 {
        if dir.join("queue/rotational").is_file() && !dir.join("dm").is_dir() {
            break;
        }
        let slave = fs::read_dir(dir.join("slaves"))
            .ok()?
            .filter_map(Result::ok)
            .next()?;
        dir = fs::canonicalize(slave.path()).ok()?;
        if dir.join("partition").is_file() {
            dir = dir.parent()?.to_path_buf();
        }
    }
    let name = dir.file_name()?.to_string_lossy().into_owned();
    let rotational = fs::read_to_string(dir.join("queue/rotational"))
        .ok()
        .map(|t| t.trim() == "1");
    let scheduler = fs::read_to_string(dir.join("queue/scheduler"))
        .ok()
        .and_then(|t| selected_choice(&t).or_else(|| Some(t.trim().to_string())))
        .filter(|s| !s.is_empty());
    let driver = fs::read_link(dir.join("device/driver"))
        .ok()
        .and_then(|l| l.file_name().map(|n| n.to_string_lossy().into_owned()));
    Some(BlockDevice {
        name,
        rotational,
        scheduler,
        driver,
    })
}

/// Linux `dev_t` → (major, minor), as glibc's `gnu_dev_major/minor`.
/// `Name:` and `VmRSS:` of a `/proc/PID/status` text, the resident memory in
/// bytes. Kernel threads have no `VmRSS` line: `None`.
pub fn parse_status_rss(text: &str) -> Option<(String, u64)> {
    let mut name = None;
    let mut rss = None;
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("Name:") {
            name = Some(n.trim().to_string());
        } else if let Some(r) = line.strip_prefix("VmRSS:") {
            let mut parts = r.split_whitespace();
            let n: u64 = parts.next()?.parse().ok()?;
            rss = match parts.next() {
                Some("kB") => n.checked_mul(1024),
                _ => None,
            };
        }
    }
    Some((name?, rss?))
}

/// The resident memory of every process under `proc` except `exclude` (the
/// server, mytune), grouped by name. `same_cgroup`: count only processes
/// whose `/proc/PID/cgroup` reads the same as this text (the server's, when
/// its memory limit is a cgroup's: processes outside do not draw on it).
pub fn read_other_processes(
    proc: &Path,
    exclude: &[u32],
    same_cgroup: Option<&str>,
) -> Option<OtherProcesses> {
    let entries = fs::read_dir(proc).ok()?;
    let mut groups: Vec<ProcessGroup> = Vec::new();
    let mut out = OtherProcesses::default();
    for e in entries.filter_map(Result::ok) {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        if exclude.contains(&pid) {
            continue;
        }
        if let Some(cg) = same_cgroup
            && fs::read_to_string(e.path().join("cgroup")).ok().as_deref() != Some(cg)
        {
            continue;
        }
        // A process may end between the listing and the read: skip it.
        let Some((name, rss)) = fs::read_to_string(e.path().join("status"))
            .ok()
            .and_then(|t| parse_status_rss(&t))
        else {
            continue;
        };
        if rss == 0 {
            continue;
        }
        out.count += 1;
        out.resident_bytes = out.resident_bytes.saturating_add(rss);
        match groups.iter_mut().find(|g| g.name == name) {
            Some(g) => {
                g.processes += 1;
                g.resident_bytes += rss;
            }
            None => groups.push(ProcessGroup {
                name,
                processes: 1,
                resident_bytes: rss,
            }),
        }
    }
    groups.sort_by(|a, b| {
        b.resident_bytes
            .cmp(&a.resident_bytes)
            .then_with(|| a.name.cmp(&b.name))
    });
    groups.truncate(OtherProcesses::LARGEST);
    out.largest = groups;
    Some(out)
}

fn split_dev(dev: u64) -> (u64, u64) {
    let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & 0xffff_f000);
    let minor = (dev & 0xff) | ((dev >> 12) & 0xffff_ff00);
    (major, minor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_resident_memory_from_process_status() {
        let text = "Name:\tmariadbd\nUmask:\t0022\nVmRSS:\t  204800 kB\nThreads:\t9\n";
        assert_eq!(parse_status_rss(text), Some(("mariadbd".into(), 200 << 20)));
        // Kernel threads have no VmRSS line.
        assert_eq!(parse_status_rss("Name:\tkthreadd\nState:\tS\n"), None);
    }

    #[test]
    fn other_processes_are_grouped_by_name_largest_first() {
        let dir = tempfile::tempdir().unwrap();
        let add = |pid: u32, name: &str, kb: u64| {
            let d = dir.path().join(pid.to_string());
            fs::create_dir(&d).unwrap();
            fs::write(
                d.join("status"),
                format!("Name:\t{name}\nVmRSS:\t{kb} kB\n"),
            )
            .unwrap();
        };
        for pid in 10..17 {
            add(pid, "mysqld", 3 << 20);
        }
        add(20, "bash", 4096);
        add(30, "mariadbd", 8 << 20);
        add(40, "mytune", 2048);
        fs::create_dir(dir.path().join("self")).unwrap();
        let o = read_other_processes(dir.path(), &[30, 40], None).unwrap();
        assert_eq!(o.count, 8);
        assert_eq!(o.resident_bytes, (7 * (3u64 << 30)) + (4 << 20));
        assert_eq!(o.largest[0].name, "mysqld");
        assert_eq!(o.largest[0].processes, 7);
        assert_eq!(o.largest[1].name, "bash");
    }

    #[test]
    fn parses_meminfo() {
        let text = "MemTotal:       24684000 kB\nMemFree:  1 kB\nSwapTotal:             0 kB\n";
        assert_eq!(parse_meminfo(text), (Some(24684000 * 1024), Some(0)));
        assert_eq!(parse_meminfo("garbage"), (None, None));
    }

    #[test]
    fn counts_cpu_lists() {
        assert_eq!(parse_cpu_list("0-1\n"), Some(2));
        assert_eq!(parse_cpu_list("0-3,8-11"), Some(8));
        assert_eq!(parse_cpu_list("0"), Some(1));
        assert_eq!(parse_cpu_list("x"), None);
        assert_eq!(parse_cpu_list("3-1"), None);
    }

    #[test]
    fn picks_bracketed_choice() {
        assert_eq!(
            selected_choice("always [madvise] never\n").as_deref(),
            Some("madvise")
        );
        assert_eq!(
            selected_choice("[none] mq-deadline").as_deref(),
            Some("none")
        );
        assert_eq!(selected_choice("none"), None);
    }

    #[test]
    fn parses_systemd_limits() {
        assert_eq!(parse_systemd_limit("32768"), Some(Limit::Value(32768)));
        assert_eq!(parse_systemd_limit("1024:524288"), Some(Limit::Value(1024)));
        assert_eq!(parse_systemd_limit("infinity"), Some(Limit::UNLIMITED));
        assert_eq!(parse_systemd_limit(""), None);
    }

    #[test]
    fn splits_device_numbers() {
        // 8:1 (sda1) in the classic encoding.
        assert_eq!(split_dev((8 << 8) | 1), (8, 1));
        // Large numbers use the high bits: glibc's makedev layout.
        let (major, minor) = (0x1234u64, 0x56789u64);
        let dev = ((major & 0xfff) << 8)
            | ((major & 0xffff_f000) << 32)
            | (minor & 0xff)
            | ((minor & 0xffff_ff00) << 12);
        assert_eq!(split_dev(dev), (major, minor));
    }
}
