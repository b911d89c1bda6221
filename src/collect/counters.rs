//! The kernel's counters an OS rule needs as evidence before it advises:
//! dropped packets (`/proc/net/softnet_stat`), listen-queue overflows
//! (`/proc/net/netstat`), orphaned and TIME-WAIT sockets
//! (`/proc/net/sockstat`), dirty pages (`/proc/vmstat`). Only the counters
//! of [`KERNEL_COUNTERS`] are kept; a file that is missing or unreadable
//! leaves its counters out, so the rules that need them stay silent.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use crate::facts::host::KERNEL_COUNTERS;

/// Every counter of [`KERNEL_COUNTERS`] this host reports, under `proc`
/// (`/proc`).
pub fn read(proc: &Path) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    if let Ok(text) = fs::read_to_string(proc.join("net/softnet_stat")) {
        out.extend(softnet(&text));
    }
    if let Ok(text) = fs::read_to_string(proc.join("net/netstat")) {
        out.extend(netstat(&text));
    }
    if let Ok(text) = fs::read_to_string(proc.join("net/sockstat")) {
        out.extend(sockstat(&text));
    }
    if let Ok(text) = fs::read_to_string(proc.join("vmstat")) {
        out.extend(vmstat(&text));
    }
    out.retain(|k, _| KERNEL_COUNTERS.iter().any(|(name, _)| name == k));
    out
}

/// One line per CPU of hexadecimal columns: processed, dropped,
/// time_squeeze, …; summed over the CPUs.
fn softnet(text: &str) -> Vec<(String, u64)> {
    let mut dropped = 0u64;
    let mut squeezed = 0u64;
    let mut lines = 0;
    for line in text.lines() {
        let cols: Vec<u64> = line
            .split_whitespace()
            .map_while(|c| u64::from_str_radix(c, 16).ok())
            .collect();
        if cols.len() < 3 {
            return Vec::new();
        }
        dropped = dropped.saturating_add(cols[1]);
        squeezed = squeezed.saturating_add(cols[2]);
        lines += 1;
    }
    if lines == 0 {
        return Vec::new();
    }
    vec![
        ("softnet.dropped".into(), dropped),
        ("softnet.time_squeeze".into(), squeezed),
    ]
}

/// Pairs of lines, a header of names and a line of values, each starting
/// with the section (`TcpExt:`); as `Section.Name`.
fn netstat(text: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for pair in lines.chunks(2) {
        let [names, values] = pair else { break };
        let (Some((section, names)), Some((section2, values))) =
            (names.split_once(':'), values.split_once(':'))
        else {
            continue;
        };
        if section != section2 {
            continue;
        }
        for (name, value) in names.split_whitespace().zip(values.split_whitespace()) {
            if let Ok(v) = value.parse::<u64>() {
                out.push((format!("{section}.{name}"), v));
            }
        }
    }
    out
}

/// `TCP: inuse 12 orphan 0 tw 2 alloc 15 mem 41`: the TCP line's orphans
/// and TIME-WAIT sockets.
fn sockstat(text: &str) -> Vec<(String, u64)> {
    let Some(tcp) = text.lines().find_map(|l| l.strip_prefix("TCP:")) else {
        return Vec::new();
    };
    let words: Vec<&str> = tcp.split_whitespace().collect();
    words
        .chunks(2)
        .filter_map(|kv| match kv {
            [k @ ("orphan" | "tw"), v] => Some((format!("sockstat.tcp_{k}"), v.parse().ok()?)),
            _ => None,
        })
        .collect()
}

/// `NAME VALUE` lines.
fn vmstat(text: &str) -> Vec<(String, u64)> {
    text.lines()
        .filter_map(|l| {
            let (k, v) = l.split_once(' ')?;
            Some((format!("vmstat.{k}"), v.trim().parse().ok()?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softnet_drops_are_summed_over_the_cpus() {
        let text = "000ad290 00000002 00000001 00000000\n000b0de9 0000000a 00000000 00000000\n";
        assert_eq!(
            softnet(text),
            [
                ("softnet.dropped".to_string(), 12),
                ("softnet.time_squeeze".to_string(), 1)
            ]
        );
        assert!(softnet("garbage\n").is_empty());
    }

    #[test]
    fn netstat_pairs_names_with_values_by_section() {
        let text = "TcpExt: SyncookiesSent ListenOverflows ListenDrops\nTcpExt: 0 7 9\nIpExt: InNoRoutes\nIpExt: 3\n";
        let got: BTreeMap<String, u64> = netstat(text).into_iter().collect();
        assert_eq!(got["TcpExt.ListenOverflows"], 7);
        assert_eq!(got["TcpExt.ListenDrops"], 9);
        assert_eq!(got["IpExt.InNoRoutes"], 3);
    }

    #[test]
    fn sockstat_reads_the_tcp_line() {
        let text = "sockets: used 33\nTCP: inuse 12 orphan 4 tw 2 alloc 15 mem 41\n";
        assert_eq!(
            sockstat(text),
            [
                ("sockstat.tcp_orphan".to_string(), 4),
                ("sockstat.tcp_tw".to_string(), 2)
            ]
        );
    }

    /// This machine's own /proc: every counter of the table that its kernel
    /// has is read, and nothing outside the table.
    #[test]
    fn this_hosts_counters_are_the_tables() {
        let got = read(Path::new("/proc"));
        if !Path::new("/proc/net/netstat").exists() {
            eprintln!("skipped: no /proc/net/netstat here");
            return;
        }
        assert!(got.contains_key("TcpExt.ListenOverflows"), "{got:?}");
        assert!(got.contains_key("vmstat.nr_dirty"), "{got:?}");
        assert!(
            got.keys()
                .all(|k| KERNEL_COUNTERS.iter().any(|(n, _)| n == k))
        );
    }
}
