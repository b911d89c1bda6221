//! The host and server a file is generated for: this machine (collected), a
//! machine described on the command line (`--memory 64G --cpus 16 --disk
//! ssd`), and the server version installed here (the default target).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::collect::host::{self, HostDescription, HostPaths, ServerHints};
use crate::facts::host::{DiskKind, HostFacts, HostSource, Limit, ProcessLimits};
use crate::target::{Flavor, Target, Version};
use crate::units;

/// Host facts for generation.
///
/// - nothing described: this machine, as the collector reads it (cgroup
///   limits included);
/// - memory and CPUs described: a machine elsewhere, nothing read from this
///   one (its sysctl values and limits would describe the wrong host);
/// - only some figures described: this machine with those figures replaced.
pub fn host_facts(desc: &HostDescription, paths: &HostPaths) -> HostFacts {
    if desc.is_empty() {
        return host::collect(paths, &ServerHints::default());
    }
    if desc.memory_bytes.is_some() && desc.cpus.is_some() {
        return host::describe(desc, None);
    }
    host::describe(desc, Some(host::collect(paths, &ServerHints::default())))
}

/// Kernel parameters of a stock Linux 5.4+ host, for the parameters the
/// rules read. `tcp_max_syn_backlog` varies with memory (the kernel sizes it
/// from its connection hash table); 1024 is the value of small and
/// mid-sized hosts. `tcp_tw_recycle` is absent: removed in Linux 4.12.
pub const STOCK_SYSCTL: [(&str, &str); 14] = [
    ("net.core.netdev_max_backlog", "1000"),
    ("net.core.rmem_default", "212992"),
    ("net.core.somaxconn", "4096"),
    ("net.core.wmem_default", "212992"),
    ("net.ipv4.ip_local_port_range", "32768\t60999"),
    ("net.ipv4.tcp_fin_timeout", "60"),
    ("net.ipv4.tcp_keepalive_time", "7200"),
    ("net.ipv4.tcp_max_syn_backlog", "1024"),
    ("net.ipv4.tcp_sack", "1"),
    ("net.ipv4.tcp_timestamps", "1"),
    ("net.ipv4.tcp_tw_reuse", "2"),
    ("vm.dirty_background_ratio", "10"),
    ("vm.dirty_ratio", "20"),
    ("vm.swappiness", "60"),
];

/// A host described on the command line with nothing read from any machine
/// (no kernel, no sysctl, no process limits): its OS settings are unknown.
pub fn nothing_read(h: &HostFacts) -> bool {
    h.source == HostSource::Described && h.kernel.is_none()
}

/// For a host described on the command line (`--memory --cpus`), nothing
/// is known of its kernel parameters and process limits, so the OS rules
/// would not apply and `gen-sysctl` / `gen-limits` would write nothing. Take
/// a stock Linux 5.4+ host and the server's packaged systemd unit instead:
/// [`STOCK_SYSCTL`], `LimitNOFILE` of the unit, and the kernel's default
/// process limit for the memory (threads-max / 2 = memory / 256K on
/// x86_64). Returns a sentence for the file headers, or `None` when the host
/// was read (then nothing is assumed).
pub fn assume_stock_linux(h: &mut HostFacts, target: &Target) -> Option<String> {
    if !nothing_read(h) || !h.sysctl.is_empty() || h.server_process.is_some() {
        return None;
    }
    for (k, v) in STOCK_SYSCTL {
        h.sysctl.insert(k.to_string(), v.to_string());
    }
    let nofile = target.flavor.traits().stock_limit_nofile;
    let nproc = (h.memory.total_bytes / (256 << 10)).max(4096);
    h.server_process = Some(ProcessLimits {
        pid: 0,
        name: "stock systemd unit (assumed)".into(),
        nofile_soft: Some(Limit::Value(nofile)),
        nofile_hard: Some(Limit::Value(nofile)),
        nproc_soft: Some(Limit::Value(nproc)),
        nproc_hard: Some(Limit::Value(nproc)),
    });
    Some(format!(
        "Described host: its OS settings are unknown, so the files compare against a stock Linux 5.4+ (somaxconn 4096, tcp_max_syn_backlog 1024, swappiness 60, ...) and the packaged unit's LimitNOFILE={nofile}, LimitNPROC={nproc}; check them on the host (sysctl -a, systemctl show) and never lower a value it already exceeds."
    ))
}

/// For a server that does not run yet: when no server process was found on
/// this host, take the limits of this process as the server's (a server
/// started from this shell inherits them), so rules about the server's open
/// files and processes can judge the file being generated. A described host
/// has no process limits and stays without.
pub fn assume_server_inherits_limits(h: &mut HostFacts) {
    if h.server_process.is_none() {
        h.server_process = h.current_process.clone();
    }
}

/// One line saying what the host is, for file headers:
/// `2G memory (--memory), 16 CPUs (--cpus), ssd`.
pub fn summary(h: &HostFacts) -> String {
    let mut parts = vec![
        format!(
            "{} memory ({})",
            units::human_size(h.memory.effective_bytes),
            h.memory.effective_source
        ),
        format!("{} CPUs ({})", h.cpu.effective, h.cpu.effective_source),
    ];
    if let Some(d) = &h.datadir_disk {
        parts.push(
            match d.kind {
                DiskKind::Ssd => "ssd",
                DiskKind::Hdd => "hdd",
                DiskKind::Unknown if d.rotational == Some(true) => {
                    "disk kind unknown (a paravirtual disk says rotational whatever backs it; --disk tells)"
                }
                DiskKind::Unknown => "disk kind unknown",
            }
            .to_string(),
        );
    }
    let source = match h.source {
        HostSource::Collected => "this host",
        HostSource::Described => "described host",
    };
    format!("{source}: {}", parts.join(", "))
}

/// Server programs looked for, with the places distributions install them
/// outside `PATH`.
const SERVER_PROGRAMS: [(&str, &[&str]); 2] = [
    ("mariadbd", &["/usr/sbin/mariadbd", "/usr/libexec/mariadbd"]),
    ("mysqld", &["/usr/sbin/mysqld", "/usr/libexec/mysqld"]),
];

/// The server installed on this machine, from `mariadbd --version` or
/// `mysqld --version`; `None` when there is none or it cannot be run.
pub fn installed_server() -> Option<Target> {
    for (name, fallbacks) in SERVER_PROGRAMS {
        let Some(program) = find_program(name, fallbacks) else {
            continue;
        };
        let Ok(out) = Command::new(&program).arg("--version").output() else {
            continue;
        };
        if let Some(t) = parse_version_output(&String::from_utf8_lossy(&out.stdout)) {
            return Some(t);
        }
    }
    None
}

/// Parse `mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu`,
/// `mysqld  Ver 8.0.36 for Linux on x86_64 (MySQL Community Server - GPL)`
/// or Percona's `Ver 8.0.32-24 for Linux on x86_64 (Percona Server (GPL), …)`.
pub fn parse_version_output(text: &str) -> Option<Target> {
    let line = text.lines().find(|l| l.contains(" Ver "))?;
    let after = line.split(" Ver ").nth(1)?.trim_start();
    let version_string = after.split_whitespace().next()?;
    let version = Version::parse_prefix(version_string)?;
    let flavor = Flavor::detect(version_string, line);
    Some(Target::new(flavor, version))
}

fn find_program(name: &str, fallbacks: &[&str]) -> Option<PathBuf> {
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    fallbacks
        .iter()
        .map(Path::new)
        .find(|p| p.is_file())
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_server_version_lines() {
        let t = parse_version_output(
            "mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (Debian 12)\n",
        )
        .unwrap();
        assert_eq!(t, "mariadb-10.11.19".parse().unwrap());
        let t = parse_version_output(
            "/usr/sbin/mysqld  Ver 8.0.36 for Linux on x86_64 (MySQL Community Server - GPL)",
        )
        .unwrap();
        assert_eq!(t, "mysql-8.0.36".parse().unwrap());
        let t = parse_version_output(
            "/usr/sbin/mysqld  Ver 8.0.32-24 for Linux on x86_64 (Percona Server (GPL), Release '24', Revision 'e5c6e9d2')",
        )
        .unwrap();
        assert_eq!(t.flavor, Flavor::Percona);
        assert_eq!(parse_version_output("garbage"), None);
    }

    #[test]
    fn fully_described_host_reads_nothing_here() {
        let desc = HostDescription {
            memory_bytes: Some(64 << 30),
            cpus: Some(16),
            disk: Some(DiskKind::Ssd),
        };
        let paths = HostPaths {
            proc: "/nonexistent/proc".into(),
            sys: "/nonexistent/sys".into(),
            cgroup: "/nonexistent/cgroup".into(),
            systemd_dirs: vec![],
        };
        let h = host_facts(&desc, &paths);
        assert_eq!(h.source, HostSource::Described);
        assert!(h.sysctl.is_empty());
        let mut h2 = h.clone();
        assume_server_inherits_limits(&mut h2);
        assert!(h2.server_process.is_none());
        assert_eq!(
            summary(&h),
            "described host: 64G memory (--memory), 16 CPUs (--cpus), ssd"
        );
    }
}
