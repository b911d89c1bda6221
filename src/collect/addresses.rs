//! The host's own IP addresses, from `/proc/net/fib_trie` (IPv4: the
//! `/32 host LOCAL` entries) and `/proc/net/if_inet6` (IPv6), loopback and
//! link-local left out. An account such as `'root'@'192.0.2.2'` on a server
//! of this host is reached only from this host, so the security rules must
//! not call it remote (MT703); a `/proc` that cannot be read gives none.

use std::collections::BTreeSet;
use std::fs;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::Path;

/// Every non-loopback, non-link-local address of the host, as text
/// (`192.0.2.2`, `fd00::2`), sorted and unique.
pub fn read_local_addresses(proc: &Path) -> Vec<String> {
    let mut out: BTreeSet<IpAddr> = BTreeSet::new();
    if let Ok(text) = fs::read_to_string(proc.join("net/fib_trie")) {
        out.extend(parse_fib_trie(&text).into_iter().map(IpAddr::V4));
    }
    if let Ok(text) = fs::read_to_string(proc.join("net/if_inet6")) {
        out.extend(parse_if_inet6(&text).into_iter().map(IpAddr::V6));
    }
    out.into_iter()
        .filter(|a| match a {
            IpAddr::V4(v) => !v.is_loopback() && !v.is_link_local() && !v.is_unspecified(),
            IpAddr::V6(v) => {
                !v.is_loopback() && !v.is_unspecified() && (v.segments()[0] & 0xffc0) != 0xfe80
            }
        })
        .map(|a| a.to_string())
        .collect()
}

/// The addresses a `fib_trie` marks `/32 host LOCAL`: the line before such
/// a line names the address (`|-- 192.0.2.2`).
fn parse_fib_trie(text: &str) -> Vec<Ipv4Addr> {
    let mut out = Vec::new();
    let mut last: Option<Ipv4Addr> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(addr) = t.strip_prefix("|-- ") {
            last = addr.trim().parse().ok();
        } else if t.starts_with("/32 host LOCAL")
            && let Some(a) = last.take()
        {
            out.push(a);
        }
    }
    out
}

/// `if_inet6` lines start with the address as 32 hex digits.
fn parse_if_inet6(text: &str) -> Vec<Ipv6Addr> {
    text.lines()
        .filter_map(|line| {
            let hex = line.split_whitespace().next()?;
            (hex.len() == 32).then_some(())?;
            u128::from_str_radix(hex, 16).ok().map(Ipv6Addr::from)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIB_TRIE: &str = "Main:
  +-- 0.0.0.0/0 3 0 5
     |-- 0.0.0.0
        /0 universe UNICAST
     +-- 127.0.0.0/8 2 0 2
           |-- 127.0.0.1
              /32 host LOCAL
        |-- 127.255.255.255
           /32 link BROADCAST
     +-- 192.0.2.0/24 2 0 2
           |-- 192.0.2.0
              /24 link UNICAST
           |-- 192.0.2.2
              /32 host LOCAL
        |-- 192.0.2.255
           /32 link BROADCAST
Local:
           |-- 192.0.2.2
              /32 host LOCAL
";

    const IF_INET6: &str = "00000000000000000000000000000001 01 80 10 80       lo
fd000000000000000000000000000002 04 40 00 82     eth0
fe8000000000000000fc00fffe000001 04 40 20 80     eth0
";

    #[test]
    fn own_addresses_leave_out_loopback_broadcast_and_link_local() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("net")).unwrap();
        fs::write(dir.path().join("net/fib_trie"), FIB_TRIE).unwrap();
        fs::write(dir.path().join("net/if_inet6"), IF_INET6).unwrap();
        assert_eq!(read_local_addresses(dir.path()), ["192.0.2.2", "fd00::2"]);
    }

    #[test]
    fn unreadable_proc_gives_no_addresses() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read_local_addresses(dir.path()).is_empty());
    }
}
