//! The plain inventory: one server per line, for a fleet kept as a list.
//!
//! ```text
//! # address              name      settings (optional)
//! db1.example.com
//! db2.example.com:3307   billing   memory=64G cpus=16 disk=ssd
//! [2001:db8::7]:3306     v6
//! /run/mysqld/mysqld.sock local
//! ```
//!
//! The address is `host`, `host:port`, `[IPv6]:port` or a socket path (it
//! starts with `/`); the name defaults to the address. `#` starts a comment
//! at the start of a line or after a space. A line that cannot be read is a
//! diagnostic and is skipped; so is a setting mytune does not know (a typo
//! would otherwise go unnoticed).

use std::path::{Path, PathBuf};

use super::inventory::{
    Diagnostic, Endpoint, Entry, Origin, ProfileOverrides, apply_setting, parse_port, setting_name,
    valid_host,
};
use crate::collect::HostDescription;

/// Parse a plain inventory.
pub fn parse(path: &Path, text: &str) -> (Vec<Entry>, Vec<Diagnostic>) {
    let mut entries = Vec::new();
    let mut diags = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let origin = Origin {
            file: path.to_path_buf(),
            line: Some(i as u32 + 1),
        };
        match parse_line(raw, &origin) {
            Ok(Some(e)) => entries.push(e),
            Ok(None) => {}
            Err(message) => diags.push(Diagnostic { origin, message }),
        }
    }
    (entries, diags)
}

/// The text before a comment: `#` at the start or after whitespace.
fn strip_comment(line: &str) -> &str {
    let mut prev_space = true;
    for (i, c) in line.char_indices() {
        if c == '#' && prev_space {
            return &line[..i];
        }
        prev_space = c.is_whitespace();
    }
    line
}

fn parse_line(raw: &str, origin: &Origin) -> Result<Option<Entry>, String> {
    let mut tokens = strip_comment(raw).split_whitespace();
    let Some(address) = tokens.next() else {
        return Ok(None);
    };
    let endpoint = parse_address(address)?;
    let mut name = None;
    let mut host = HostDescription::default();
    let mut profile = ProfileOverrides::default();
    let mut group_suffix = None;
    for token in tokens {
        match token.split_once('=') {
            Some((key, value)) => {
                if let Some(refusal) = super::inventory::password_refusal(key) {
                    return Err(refusal);
                }
                if key.strip_prefix("mytune_").unwrap_or(key) == super::inventory::GROUP_SUFFIX {
                    group_suffix = Some(super::inventory::parse_group_suffix(value)?);
                    continue;
                }
                let setting = setting_name(key).ok_or_else(|| {
                    format!(
                        "unknown setting '{key}' (known: {}, {})",
                        super::inventory::SETTINGS.join(", "),
                        super::inventory::GROUP_SUFFIX
                    )
                })?;
                apply_setting(setting, value, &mut host, &mut profile)?;
            }
            None if name.is_none() => name = Some(token.to_string()),
            None => {
                return Err(format!(
                    "unexpected '{token}' after the name '{}': settings are written key=value",
                    name.unwrap_or_default()
                ));
            }
        }
    }
    Ok(Some(Entry {
        name: name.unwrap_or_else(|| address.to_string()),
        endpoint,
        host,
        profile,
        group_suffix,
        origin: origin.clone(),
        groups: Default::default(),
    }))
}

/// `host`, `host:port`, `[IPv6]:port`, a bare IPv6 address, or a socket
/// path.
pub fn parse_address(s: &str) -> Result<Endpoint, String> {
    let bad =
        || format!("'{s}' is not a host, host:port, [IPv6]:port or socket path (starting with /)");
    if s.starts_with('/') {
        return Ok(Endpoint::Socket(PathBuf::from(s)));
    }
    if let Some(rest) = s.strip_prefix('[') {
        let (host, after) = rest.split_once(']').ok_or_else(bad)?;
        let port = match after {
            "" => None,
            p => Some(parse_port(p.strip_prefix(':').ok_or_else(bad)?)?),
        };
        if !host.contains(':') || !valid_host(host) {
            return Err(bad());
        }
        return Ok(Endpoint::Tcp {
            host: host.to_string(),
            port,
        });
    }
    let (host, port) = match s.matches(':').count() {
        0 => (s, None),
        1 => {
            let (h, p) = s.split_once(':').expect("one colon");
            (h, Some(parse_port(p)?))
        }
        // A bare IPv6 address has no port.
        _ => (s, None),
    };
    if !valid_host(host) {
        return Err(bad());
    }
    Ok(Endpoint::Tcp {
        host: host.to_string(),
        port,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_and_says_what_it_skips() {
        let text = "\
# fleet
db1.example.com
db2.example.com:3307   billing   memory=64G cpus=16 # main
[2001:db8::7]:3306 v6
/run/mysqld/mysqld.sock local mytune_disk=hdd
db3:port
db4 four five
db5 five memroy=1G
db6 six cpus=many
  # indented comment
";
        let (entries, diags) = parse(Path::new("fleet.txt"), text);
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["db1.example.com", "billing", "v6", "local"]);
        assert_eq!(
            entries[1].endpoint,
            Endpoint::Tcp {
                host: "db2.example.com".into(),
                port: Some(3307)
            }
        );
        assert_eq!(entries[1].host.memory_bytes, Some(64 << 30));
        assert_eq!(
            entries[2].endpoint,
            Endpoint::Tcp {
                host: "2001:db8::7".into(),
                port: Some(3306)
            }
        );
        assert_eq!(
            entries[3].endpoint,
            Endpoint::Socket("/run/mysqld/mysqld.sock".into())
        );
        let lines: Vec<String> = diags.iter().map(|d| d.origin.to_string()).collect();
        assert_eq!(
            lines,
            ["fleet.txt:6", "fleet.txt:7", "fleet.txt:8", "fleet.txt:9"]
        );
        assert!(diags[0].message.contains("not a TCP port"), "{}", diags[0]);
        assert!(diags[2].message.contains("unknown setting 'memroy'"));
    }
}
