//! sysctl.conf / sysctl.d/*.conf as `sysctl -p` and systemd-sysctl read
//! them: `key = value` lines, `#` and `;` comments, a leading `-` meaning
//! "ignore a failure to set it", `/` or `.` as separator in the key.
//!
//! The result is the same `name → value` map the collector reads from the
//! running kernel (`HostFacts.sysctl`), so the OS rules judge a committed file
//! exactly as they judge a live host.

use crate::facts::SourceLocation;
use std::path::Path;

/// One `key = value` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SysctlEntry {
    /// Dotted name (`net.ipv4.tcp_tw_recycle`).
    pub key: String,
    /// Runs of whitespace folded to one space, as the collector stores
    /// multi-value entries (`4096 87380 134217728`).
    pub value: String,
    pub location: SourceLocation,
}

/// A line that is not `key = value`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SysctlError {
    pub location: SourceLocation,
    pub message: String,
}

/// Parse a sysctl file's text; bad lines become errors, the rest is kept.
pub fn parse(text: &str, file: &Path) -> (Vec<SysctlEntry>, Vec<SysctlError>) {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        let at = |column: usize| SourceLocation {
            file: file.to_path_buf(),
            line: (i + 1) as u32,
            column: column as u32,
        };
        let indent = raw.len() - raw.trim_start().len();
        let Some((key, value)) = line.split_once('=') else {
            errors.push(SysctlError {
                location: at(indent + 1),
                message: format!("'{line}' is not a key = value line"),
            });
            continue;
        };
        let key = key.trim();
        let key = key.strip_prefix('-').unwrap_or(key).trim();
        let valid = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '_' | '-' | '*'));
        if !valid {
            errors.push(SysctlError {
                location: at(indent + 1),
                message: format!("'{key}' is not a sysctl name"),
            });
            continue;
        }
        let key = key.replace('/', ".");
        let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Err(why) = check_value(&key, &value) {
            errors.push(SysctlError {
                location: at(indent + 1),
                message: format!("{key} = {value}: {why}; the kernel refuses it"),
            });
            continue;
        }
        entries.push(SysctlEntry {
            key,
            value,
            location: at(indent + 1),
        });
    }
    (entries, errors)
}

/// Ranges the kernel enforces for the parameters the rules read; a value
/// outside them is refused by `sysctl -p` and never reaches the kernel.
fn check_value(key: &str, value: &str) -> Result<(), String> {
    let int = |v: &str| {
        v.parse::<i64>()
            .map_err(|_| format!("'{v}' is not a whole number"))
    };
    let in_range = |v: &str, lo: i64, hi: i64| -> Result<i64, String> {
        let n = int(v)?;
        if n < lo || n > hi {
            return Err(format!("{n} is outside {lo}..{hi}"));
        }
        Ok(n)
    };
    match key {
        "net.ipv4.ip_local_port_range" => {
            let parts: Vec<&str> = value.split(' ').collect();
            let [low, high] = parts[..] else {
                return Err("expected two ports, LOW HIGH".into());
            };
            let low = in_range(low, 1, 65535)?;
            let high = in_range(high, 1, 65535)?;
            if low > high {
                return Err(format!("the first port ({low}) is above the last ({high})"));
            }
            Ok(())
        }
        "net.core.somaxconn"
        | "net.ipv4.tcp_max_syn_backlog"
        | "net.core.netdev_max_backlog"
        | "fs.file-max"
        | "fs.aio-max-nr"
        | "fs.nr_open"
        | "vm.min_free_kbytes" => in_range(value, 0, i64::MAX).map(|_| ()),
        "vm.swappiness" => in_range(value, 0, 200).map(|_| ()),
        "vm.dirty_ratio" | "vm.dirty_background_ratio" | "vm.overcommit_ratio" => {
            in_range(value, 0, 100).map(|_| ())
        }
        "vm.overcommit_memory" => in_range(value, 0, 2).map(|_| ()),
        _ => Ok(()),
    }
}

/// Does the text look like a sysctl file (its first setting has a dotted
/// `key = value`)?
pub fn looks_like(text: &str) -> bool {
    let Some(first) = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with(';'))
    else {
        return false;
    };
    let Some((key, _)) = first.split_once('=') else {
        return false;
    };
    let key = key.trim().trim_start_matches('-');
    (key.contains('.') || key.contains('/'))
        && ["net", "vm", "kernel", "fs"]
            .iter()
            .any(|p| key.starts_with(&format!("{p}.")) || key.starts_with(&format!("{p}/")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_keys_values_and_comments() {
        let (e, err) = parse(
            "# c\n; c\nnet.core.somaxconn = 65535\n -net/ipv4/tcp_tw_reuse=1\n\
             net.ipv4.tcp_rmem =\t4096  87380 134217728 \nbogus line\n",
            Path::new("s.conf"),
        );
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].key, "net.core.somaxconn");
        assert_eq!(e[0].value, "65535");
        assert_eq!(e[0].location.line, 3);
        assert_eq!(e[1].key, "net.ipv4.tcp_tw_reuse");
        assert_eq!(e[1].location.column, 2);
        assert_eq!(e[2].value, "4096 87380 134217728");
        assert_eq!(err.len(), 1);
        assert_eq!(err[0].location.line, 6);
    }

    #[test]
    fn values_the_kernel_refuses_are_errors() {
        let (e, err) = parse(
            "net.ipv4.ip_local_port_range = 60999 1024\nnet.core.somaxconn = -1\n\
             vm.swappiness = 300\nnet.ipv4.ip_local_port_range = 1024 65535\n",
            Path::new("s.conf"),
        );
        assert_eq!(e.len(), 1, "{e:?}");
        let messages: Vec<&str> = err.iter().map(|e| e.message.as_str()).collect();
        assert!(messages[0].contains("the first port (60999) is above the last (1024)"));
        assert!(messages[1].contains("-1 is outside 0.."));
        assert!(messages[2].contains("300 is outside 0..200"));
    }

    #[test]
    fn recognises_sysctl_text() {
        assert!(looks_like("# x\nnet.core.somaxconn = 1\n"));
        assert!(looks_like("vm/swappiness=1\n"));
        assert!(!looks_like("[mysqld]\nmax_connections = 1\n"));
        assert!(!looks_like("* soft nofile 1\n"));
        assert!(!looks_like("max_connections = 1\n"));
    }
}
