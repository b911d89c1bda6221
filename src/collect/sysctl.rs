//! Kernel settings that matter to a database server, read from `/proc/sys`.
//!
//! Only a fixed list is read (reading all of `/proc/sys` is slow and full of
//! noise). A key the running kernel does not have (`net.ipv4.tcp_tw_recycle`
//! is gone since Linux 4.12) is simply absent, which lets rules tell "not
//! set" from "not there".

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// The sysctl keys collected, by dotted name.
pub const KEYS: &[&str] = &[
    "net.core.somaxconn",
    "net.core.netdev_max_backlog",
    "net.ipv4.tcp_max_syn_backlog",
    "net.ipv4.ip_local_port_range",
    "net.ipv4.tcp_fin_timeout",
    "net.ipv4.tcp_tw_reuse",
    "net.ipv4.tcp_tw_recycle",
    "net.ipv4.tcp_timestamps",
    "net.ipv4.tcp_sack",
    "net.core.rmem_default",
    "net.core.rmem_max",
    "net.core.wmem_default",
    "net.core.wmem_max",
    "net.ipv4.tcp_keepalive_time",
    "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
    "vm.swappiness",
    "vm.dirty_ratio",
    "vm.dirty_background_ratio",
    "vm.overcommit_memory",
    "vm.zone_reclaim_mode",
    "fs.file-max",
    "fs.nr_open",
    "fs.aio-max-nr",
];

/// Read [`KEYS`] under `proc_sys` (`/proc/sys`).
pub fn read(proc_sys: &Path) -> BTreeMap<String, String> {
    KEYS.iter()
        .filter_map(|key| {
            let text = fs::read_to_string(proc_sys.join(key.replace('.', "/"))).ok()?;
            Some((key.to_string(), normalize(&text)))
        })
        .collect()
}

/// Fold whitespace runs (multi-value entries are tab-separated) into single
/// spaces and trim, so `32768\t60999\n` becomes `32768 60999`.
pub fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_keys_from_a_tree_and_skips_missing_ones() {
        let dir = tempfile::tempdir().unwrap();
        let core = dir.path().join("net/core");
        fs::create_dir_all(&core).unwrap();
        fs::write(core.join("somaxconn"), "4096\n").unwrap();
        let ipv4 = dir.path().join("net/ipv4");
        fs::create_dir_all(&ipv4).unwrap();
        fs::write(ipv4.join("ip_local_port_range"), "32768\t60999\n").unwrap();
        let got = read(dir.path());
        assert_eq!(
            got.get("net.core.somaxconn").map(String::as_str),
            Some("4096")
        );
        assert_eq!(
            got.get("net.ipv4.ip_local_port_range").map(String::as_str),
            Some("32768 60999")
        );
        assert!(!got.contains_key("net.ipv4.tcp_tw_recycle"));
        assert_eq!(got.len(), 2);
    }
}
