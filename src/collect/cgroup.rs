//! cgroup memory and CPU limits, v1 and v2.
//!
//! A server in a container or a systemd slice may be allowed far less memory
//! and CPU than the machine has; sizing from `/proc/meminfo` alone would then
//! recommend a buffer pool the kernel OOM-kills. The effective limit of a
//! cgroup is the lowest limit on the path from it to the root, so every level
//! is read. Everything here takes the cgroup mount point and the contents of
//! `/proc/self/cgroup` as inputs so it can be tested on fixture trees.

use std::fs;
use std::path::{Path, PathBuf};

/// Limits found for one process's cgroup.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CgroupLimits {
    /// 1 or 2; `None` when no cgroup filesystem was found.
    pub version: Option<u8>,
    /// Lowest memory limit on the path, in bytes; `None` for "max".
    pub memory_bytes: Option<u64>,
    /// The file that set it, e.g. `cgroup v2 memory.max`.
    pub memory_source: Option<String>,
    /// Lowest CPU quota on the path in CPUs (quota / period).
    pub cpu_quota: Option<f64>,
    pub cpu_source: Option<String>,
}

/// v1 reports "no limit" as a huge page-aligned number; anything at or above
/// this is treated as unlimited.
const V1_UNLIMITED_FLOOR: u64 = 1 << 62;

/// Read the limits of the cgroup described by `proc_self_cgroup` (the text of
/// `/proc/self/cgroup`) under the cgroup mount `root` (`/sys/fs/cgroup`).
pub fn read_limits(root: &Path, proc_self_cgroup: &str) -> CgroupLimits {
    let entries = parse_proc_cgroup(proc_self_cgroup);
    if root.join("cgroup.controllers").is_file() {
        // Unified hierarchy (v2 only).
        let path = entries
            .iter()
            .find(|e| e.hierarchy == "0")
            .map(|e| e.path.as_str())
            .unwrap_or("/");
        let mut limits = CgroupLimits {
            version: Some(2),
            ..Default::default()
        };
        for dir in dirs_to_root(root, path) {
            if let Some(m) = read_trimmed(&dir.join("memory.max")).and_then(|t| parse_v2_max(&t))
                && limits.memory_bytes.is_none_or(|cur| m < cur)
            {
                limits.memory_bytes = Some(m);
                limits.memory_source = Some("cgroup v2 memory.max".into());
            }
            if let Some(q) = read_trimmed(&dir.join("cpu.max")).and_then(|t| parse_v2_cpu_max(&t))
                && limits.cpu_quota.is_none_or(|cur| q < cur)
            {
                limits.cpu_quota = Some(q);
                limits.cpu_source = Some("cgroup v2 cpu.max".into());
            }
        }
        return limits;
    }
    let memory_mount = root.join("memory");
    let cpu_mount = ["cpu", "cpu,cpuacct", "cpuacct,cpu"]
        .iter()
        .map(|d| root.join(d))
        .find(|p| p.join("cpu.cfs_quota_us").is_file());
    if !memory_mount.is_dir() && cpu_mount.is_none() {
        return CgroupLimits::default();
    }
    let mut limits = CgroupLimits {
        version: Some(1),
        ..Default::default()
    };
    let path_for = |controller: &str| {
        entries
            .iter()
            .find(|e| e.controllers.iter().any(|c| c == controller))
            .map(|e| e.path.clone())
            .unwrap_or_else(|| "/".into())
    };
    for dir in dirs_to_root(&memory_mount, &path_for("memory")) {
        if let Some(m) = read_trimmed(&dir.join("memory.limit_in_bytes"))
            .and_then(|t| t.parse::<u64>().ok())
            .filter(|m| *m < V1_UNLIMITED_FLOOR)
            && limits.memory_bytes.is_none_or(|cur| m < cur)
        {
            limits.memory_bytes = Some(m);
            limits.memory_source = Some("cgroup v1 memory.limit_in_bytes".into());
        }
    }
    if let Some(cpu_mount) = cpu_mount {
        for dir in dirs_to_root(&cpu_mount, &path_for("cpu")) {
            let quota =
                read_trimmed(&dir.join("cpu.cfs_quota_us")).and_then(|t| t.parse::<i64>().ok());
            let period =
                read_trimmed(&dir.join("cpu.cfs_period_us")).and_then(|t| t.parse::<i64>().ok());
            if let (Some(q), Some(p)) = (quota, period)
                && q > 0
                && p > 0
            {
                let cpus = q as f64 / p as f64;
                if limits.cpu_quota.is_none_or(|cur| cpus < cur) {
                    limits.cpu_quota = Some(cpus);
                    limits.cpu_source = Some("cgroup v1 cpu.cfs_quota_us".into());
                }
            }
        }
    }
    limits
}

/// One line of `/proc/PID/cgroup`: `hierarchy-ID:controller-list:path`.
#[derive(Debug, Clone, PartialEq)]
struct CgroupEntry {
    hierarchy: String,
    controllers: Vec<String>,
    path: String,
}

fn parse_proc_cgroup(text: &str) -> Vec<CgroupEntry> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ':');
            let hierarchy = parts.next()?.trim().to_string();
            let controllers = parts
                .next()?
                .split(',')
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect();
            let path = parts.next()?.trim().to_string();
            Some(CgroupEntry {
                hierarchy,
                controllers,
                path,
            })
        })
        .collect()
}

/// The directories from `mount/path` up to `mount`, deepest first. A path
/// that does not exist under the mount (a cgroup namespace shows its own root
/// as `/` but `/proc/self/cgroup` may still name the outer path) is skipped,
/// so the mount root is always read.
fn dirs_to_root(mount: &Path, path: &str) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let mut rel = PathBuf::from(path.trim_start_matches('/'));
    loop {
        let dir = mount.join(&rel);
        if dir.is_dir() {
            dirs.push(dir);
        }
        if !rel.pop() {
            break;
        }
    }
    if dirs.last().map(PathBuf::as_path) != Some(mount) && mount.is_dir() {
        dirs.push(mount.to_path_buf());
    }
    dirs
}

fn read_trimmed(path: &Path) -> Option<String> {
    fs::read_to_string(path).ok().map(|s| s.trim().to_string())
}

/// `memory.max`: a byte count or `max`.
fn parse_v2_max(text: &str) -> Option<u64> {
    if text == "max" {
        None
    } else {
        text.parse().ok()
    }
}

/// `cpu.max`: `QUOTA PERIOD` or `max PERIOD`.
fn parse_v2_cpu_max(text: &str) -> Option<f64> {
    let mut parts = text.split_whitespace();
    let quota = parts.next()?;
    let period: f64 = parts.next().unwrap_or("100000").parse().ok()?;
    if quota == "max" || period <= 0.0 {
        return None;
    }
    let quota: f64 = quota.parse().ok()?;
    (quota > 0.0).then(|| quota / period)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_proc_cgroup_lines() {
        let e = parse_proc_cgroup("4:memory:/a/b\n1:cpu,cpuacct:/a\n0::/x\n");
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].controllers, vec!["memory"]);
        assert_eq!(e[1].controllers, vec!["cpu", "cpuacct"]);
        assert_eq!(e[2].hierarchy, "0");
        assert_eq!(e[2].path, "/x");
    }

    #[test]
    fn parses_v2_values() {
        assert_eq!(parse_v2_max("max"), None);
        assert_eq!(parse_v2_max("2147483648"), Some(2 << 30));
        assert_eq!(parse_v2_cpu_max("max 100000"), None);
        assert_eq!(parse_v2_cpu_max("150000 100000"), Some(1.5));
        assert_eq!(parse_v2_cpu_max("garbage"), None);
    }
}
