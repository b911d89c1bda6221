//! Resource limits as committed: PAM's `limits.conf` / `limits.d/*.conf`
//! (`<domain> <type> <item> <value>`) and systemd drop-ins for the server
//! unit (`[Service]` with `LimitNOFILE=` / `LimitNPROC=`).
//!
//! Both become the limits the server process would get, the same
//! [`ProcessLimits`] the collector reads from `/proc/PID/limits`, so the OS
//! rules judge them like a live host. A unit started by systemd does not go
//! through PAM, so a drop-in's values win over limits.conf for the server;
//! limits.conf entries count for the `mysql` user, its groups (`@mysql`) and
//! the `*` wildcard, a named user beating a group beating `*`, as pam_limits
//! does.

use std::path::Path;

use crate::facts::SourceLocation;
use crate::facts::host::Limit;

/// The user the server runs as.
pub const SERVER_USER: &str = "mysql";

/// Which limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Item {
    Nofile,
    Nproc,
}

/// Soft, hard, or both (`-` in limits.conf, one value in a drop-in).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Soft,
    Hard,
    Both,
}

/// One limit setting that applies to the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitEntry {
    pub item: Item,
    pub kind: Kind,
    pub value: Limit,
    /// How specific the domain is: 3 user / systemd, 2 group, 1 `*`.
    pub rank: u8,
    pub location: SourceLocation,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitsError {
    pub location: SourceLocation,
    pub message: String,
}

fn parse_limit(s: &str) -> Option<Limit> {
    match s.to_ascii_lowercase().as_str() {
        "unlimited" | "infinity" | "-1" => Some(Limit::UNLIMITED),
        v => v.parse().ok().map(Limit::Value),
    }
}

fn item(s: &str) -> Option<Item> {
    match s {
        "nofile" => Some(Item::Nofile),
        "nproc" => Some(Item::Nproc),
        _ => None,
    }
}

/// The items limits.conf knows, besides the two mytune reads.
const OTHER_ITEMS: &[&str] = &[
    "core",
    "data",
    "fsize",
    "memlock",
    "rss",
    "stack",
    "cpu",
    "as",
    "maxlogins",
    "maxsyslogins",
    "nonewprivs",
    "priority",
    "locks",
    "sigpending",
    "msgqueue",
    "nice",
    "rtprio",
    "chroot",
];

/// Parse limits.conf text: entries that reach the server user, and errors.
pub fn parse_limits_conf(text: &str, file: &Path) -> (Vec<LimitEntry>, Vec<LimitsError>) {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let loc = SourceLocation {
            file: file.to_path_buf(),
            line: (i + 1) as u32,
            column: (raw.len() - raw.trim_start().len() + 1) as u32,
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        let mut bad = |message: String| {
            errors.push(LimitsError {
                location: loc.clone(),
                message,
            })
        };
        if fields.len() != 4 {
            bad(format!(
                "'{line}': expected <domain> <type> <item> <value>, found {} field{}",
                fields.len(),
                if fields.len() == 1 { "" } else { "s" }
            ));
            continue;
        }
        let kind = match fields[1] {
            "soft" => Kind::Soft,
            "hard" => Kind::Hard,
            "-" => Kind::Both,
            other => {
                bad(format!("type '{other}' (expected soft, hard or -)"));
                continue;
            }
        };
        let Some(it) = item(fields[2]) else {
            if !OTHER_ITEMS.contains(&fields[2]) {
                bad(format!("unknown item '{}'", fields[2]));
            }
            continue;
        };
        let Some(value) = parse_limit(fields[3]) else {
            bad(format!(
                "value '{}' (expected a number or unlimited)",
                fields[3]
            ));
            continue;
        };
        let domain = fields[0];
        let rank = if domain == SERVER_USER {
            3
        } else if domain == "@mysql" {
            2
        } else if domain == "*" {
            1
        } else {
            continue;
        };
        entries.push(LimitEntry {
            item: it,
            kind,
            value,
            rank,
            location: loc,
        });
    }
    (entries, errors)
}

/// Parse a systemd unit drop-in: `Limit*=` of the `[Service]` section.
pub fn parse_dropin(text: &str, file: &Path) -> (Vec<LimitEntry>, Vec<LimitsError>) {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    let mut in_service = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        let loc = SourceLocation {
            file: file.to_path_buf(),
            line: (i + 1) as u32,
            column: (raw.len() - raw.trim_start().len() + 1) as u32,
        };
        if line.starts_with('[') {
            in_service = line == "[Service]";
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            errors.push(LimitsError {
                location: loc,
                message: format!("'{line}' is not a Key=value line"),
            });
            continue;
        };
        let it = match key.trim() {
            "LimitNOFILE" => Item::Nofile,
            "LimitNPROC" => Item::Nproc,
            _ => continue,
        };
        if !in_service {
            errors.push(LimitsError {
                location: loc,
                message: format!("{} outside [Service] has no effect", key.trim()),
            });
            continue;
        }
        let value = value.trim();
        let (soft, hard) = match value.split_once(':') {
            Some((s, h)) => (parse_limit(s), parse_limit(h)),
            None => (parse_limit(value), parse_limit(value)),
        };
        let (Some(soft), Some(hard)) = (soft, hard) else {
            errors.push(LimitsError {
                location: loc,
                message: format!(
                    "{}={value}: expected a number, infinity or SOFT:HARD",
                    key.trim()
                ),
            });
            continue;
        };
        if soft.as_u64() > hard.as_u64() {
            errors.push(LimitsError {
                location: loc,
                message: format!(
                    "{}={value}: the soft limit is above the hard limit; systemd refuses the setting",
                    key.trim()
                ),
            });
            continue;
        }
        for (kind, value) in [(Kind::Soft, soft), (Kind::Hard, hard)] {
            entries.push(LimitEntry {
                item: it,
                kind,
                value,
                rank: 4,
                location: loc.clone(),
            });
        }
    }
    (entries, errors)
}

/// Does the text look like limits.conf (a setting with four fields and a
/// type of soft, hard or -)?
pub fn looks_like_limits(text: &str) -> bool {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .is_some_and(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f.len() == 4 && matches!(f[1], "soft" | "hard" | "-")
        })
}

/// Does the text look like a systemd unit file?
pub fn looks_like_unit(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with(';'))
        .is_some_and(|l| matches!(l, "[Service]" | "[Unit]" | "[Install]"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_conf_entries_for_the_server_user() {
        let (e, err) = parse_limits_conf(
            "# comment\n* soft nofile 655350\n* hard nofile 655350\nmysql - nproc unlimited\n\
             root soft nofile 1\n* soft core 0\n* soft nofile lots\n* bogus nofile 1\n",
            Path::new("limits.conf"),
        );
        assert_eq!(e.len(), 3, "{e:?}");
        assert_eq!(e[0].value, Limit::Value(655350));
        assert_eq!((e[0].kind, e[0].rank), (Kind::Soft, 1));
        assert_eq!(e[2].item, Item::Nproc);
        assert_eq!(e[2].value, Limit::UNLIMITED);
        assert_eq!(e[2].rank, 3);
        assert_eq!(err.len(), 2);
        assert_eq!(err[0].location.line, 7);
    }

    #[test]
    fn dropin_limits() {
        let (e, err) = parse_dropin(
            "[Service]\nLimitNOFILE=1000000\nLimitNPROC=1024:infinity\nRestart=always\n\
             [Unit]\nLimitNOFILE=5\n",
            Path::new("override.conf"),
        );
        assert_eq!(e.len(), 4);
        assert_eq!(e[0].value, Limit::Value(1_000_000));
        assert_eq!(e[3].value, Limit::UNLIMITED);
        assert_eq!(err.len(), 1);
        assert!(err[0].message.contains("outside [Service]"));
    }

    #[test]
    fn a_soft_limit_above_the_hard_limit_is_an_error() {
        let (e, err) = parse_dropin("[Service]\nLimitNOFILE=10:5\n", Path::new("d.conf"));
        assert!(e.is_empty());
        assert_eq!(err.len(), 1);
        assert!(
            err[0]
                .message
                .contains("soft limit is above the hard limit")
        );
        let (e, err) = parse_dropin("[Service]\nLimitNOFILE=5:infinity\n", Path::new("d.conf"));
        assert_eq!((e.len(), err.len()), (2, 0));
    }

    #[test]
    fn recognition() {
        assert!(looks_like_limits("* soft nofile 1\n"));
        assert!(!looks_like_limits("[mysqld]\n"));
        assert!(looks_like_unit("# x\n[Service]\nLimitNOFILE=1\n"));
        assert!(!looks_like_unit("[mysqld]\n"));
    }
}
