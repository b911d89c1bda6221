//! The servers of a fleet, read from inventory files: which server, how to
//! reach it, and what is known of its host and how it is meant to run.
//!
//! Three formats, told apart by extension and then by content ([`detect`]):
//! plain lines ([`super::plain`]), Ansible INI and Ansible YAML
//! ([`super::ansible`]). A line or host mytune cannot read is a
//! [`Diagnostic`] naming file and line, and is skipped: one typo never ends a
//! fleet run. The same server listed twice (in one file or across files) is
//! checked once, and said.
//!
//! Credentials never come from an inventory: they are taken as for one
//! server (option files, `MYSQL_PWD`, the prompt), so an inventory can be
//! committed and shared.
//!
//! The settings an entry may carry, by name with or without a `mytune_`
//! prefix (the prefixed one wins; a prefix keeps them apart from other
//! roles' variables in an Ansible inventory): `memory`, `cpus`, `disk`
//! describe the server's host (a remote server never gets this machine's
//! facts), `durability`, `workload`, `observability`, `connections`, `share`
//! its profile.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use crate::collect::HostDescription;
use crate::facts::host::DiskKind;
use crate::rules::{Durability, Observability, Profile, Workload};

/// Where an entry or a problem comes from: a file, and the line when known
/// (YAML values carry none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub file: PathBuf,
    pub line: Option<u32>,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}", self.file.display()),
            None => write!(f, "{}", self.file.display()),
        }
    }
}

/// Something in an inventory that was skipped or merged, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub origin: Origin,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.origin, self.message)
    }
}

/// How to reach a server: TCP (a port of `None` takes the port of the
/// connection options, 3306 by default) or a Unix socket on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    Tcp { host: String, port: Option<u16> },
    Socket(PathBuf),
}

impl Endpoint {
    /// The same server whatever the spelling of its name's case or of a
    /// default port.
    fn key(&self, default_port: u16) -> String {
        match self {
            Endpoint::Tcp { host, port } => format!(
                "tcp {}:{}",
                host.trim_end_matches('.').to_ascii_lowercase(),
                port.unwrap_or(default_port)
            ),
            Endpoint::Socket(p) => format!("socket {}", p.display()),
        }
    }

    /// `db1:3306`, `[2001:db8::1]:3306`, `socket /run/mysqld/mysqld.sock`.
    pub fn describe(&self, default_port: u16) -> String {
        match self {
            Endpoint::Tcp { host, port } if host.contains(':') => {
                format!("[{host}]:{}", port.unwrap_or(default_port))
            }
            Endpoint::Tcp { host, port } => format!("{host}:{}", port.unwrap_or(default_port)),
            Endpoint::Socket(p) => format!("socket {}", p.display()),
        }
    }
}

/// Profile settings of one entry; `None` leaves the run's own.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ProfileOverrides {
    pub durability: Option<Durability>,
    pub workload: Option<Workload>,
    pub observability: Option<Observability>,
    pub connections: Option<u64>,
    pub share: Option<f64>,
}

impl ProfileOverrides {
    /// `base` with what this entry says on top.
    pub fn over(&self, base: Profile) -> Profile {
        Profile {
            durability: self.durability.unwrap_or(base.durability),
            workload: self.workload.unwrap_or(base.workload),
            observability: self.observability.unwrap_or(base.observability),
            connections: self.connections.or(base.connections),
            share: self.share.unwrap_or(base.share),
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == ProfileOverrides::default()
    }
}

/// One server of the fleet.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// What reports call it: the inventory's name for it.
    pub name: String,
    pub endpoint: Endpoint,
    /// Its host, as far as the inventory describes it.
    pub host: HostDescription,
    pub profile: ProfileOverrides,
    /// Its own `--defaults-group-suffix` (`defaults_group_suffix=_prod`,
    /// Ansible's `mytune_defaults_group_suffix`): the option groups that
    /// hold its account, as the `mysql` client reads them. Never a password.
    pub group_suffix: Option<String>,
    pub origin: Origin,
    /// The Ansible groups it is in, directly or through child groups (`all`
    /// included); none for a plain list.
    pub groups: BTreeSet<String>,
}

/// Every readable entry of the inventories, duplicates removed, and what was
/// said about the rest.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Inventory {
    pub entries: Vec<Entry>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Inventory {
    /// Keep the entries in any of `groups` (`--group`); none given keeps
    /// all. A group no entry is in is an error naming it, so a typo does not
    /// quietly check nothing.
    pub fn select(&mut self, groups: &[String]) -> Result<(), String> {
        if groups.is_empty() {
            return Ok(());
        }
        let unknown: Vec<&str> = groups
            .iter()
            .filter(|g| !self.entries.iter().any(|e| e.groups.contains(*g)))
            .map(String::as_str)
            .collect();
        if !unknown.is_empty() {
            return Err(format!(
                "--group: no host of the inventories is in {} (groups come from Ansible inventories)",
                unknown.join(", ")
            ));
        }
        self.entries
            .retain(|e| groups.iter().any(|g| e.groups.contains(g)));
        Ok(())
    }
}

/// An inventory that cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum InventoryError {
    #[error("cannot read the inventory {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The format of an inventory file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `host[:port]` or a socket path per line, then a name and settings.
    Plain,
    AnsibleIni,
    AnsibleYaml,
}

/// `.yml`/`.yaml` is YAML and `.ini` Ansible INI; otherwise the content
/// says: a `[group]` header line means INI, a first line that is a YAML
/// mapping key (`all:`) or document start means YAML, anything else plain.
pub fn detect(path: &Path, text: &str) -> Format {
    match path.extension().and_then(|e| e.to_str()) {
        Some("yml" | "yaml") => return Format::AnsibleYaml,
        Some("ini") => return Format::AnsibleIni,
        _ => {}
    }
    let lines = || {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with(';'))
    };
    if lines().any(|l| super::ansible_ini::section_header(l).is_some()) {
        return Format::AnsibleIni;
    }
    match lines().next() {
        Some(first) if first == "---" || (first.ends_with(':') && !first.contains(' ')) => {
            Format::AnsibleYaml
        }
        _ => Format::Plain,
    }
}

/// Read every inventory and merge them. `default_port` is the port an entry
/// without one gets (from the connection options), so `db1` and `db1:3306`
/// are known as one server.
pub fn load(paths: &[PathBuf], default_port: u16) -> Result<Inventory, InventoryError> {
    let mut all = Vec::new();
    let mut diagnostics = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|source| InventoryError::Read {
            path: path.clone(),
            source,
        })?;
        let (entries, diags) = parse(path, &text);
        all.extend(entries);
        diagnostics.extend(diags);
    }
    let (entries, dups) = dedupe(all, default_port);
    diagnostics.extend(dups);
    Ok(Inventory {
        entries,
        diagnostics,
    })
}

/// Parse one inventory's text (format from [`detect`]).
pub fn parse(path: &Path, text: &str) -> (Vec<Entry>, Vec<Diagnostic>) {
    match detect(path, text) {
        Format::Plain => super::plain::parse(path, text),
        Format::AnsibleIni => {
            let (inv, mut diags) = super::ansible_ini::parse(path, text);
            let (entries, more) = inv.entries(path);
            diags.extend(more);
            (entries, diags)
        }
        Format::AnsibleYaml => {
            let (inv, mut diags) = super::ansible_yaml::parse(path, text);
            let (entries, more) = inv.entries(path);
            diags.extend(more);
            (entries, diags)
        }
    }
}

/// Keep the first entry of each server and of each name; say what was
/// dropped.
fn dedupe(entries: Vec<Entry>, default_port: u16) -> (Vec<Entry>, Vec<Diagnostic>) {
    let mut kept: Vec<Entry> = Vec::new();
    let mut by_endpoint: HashMap<String, usize> = HashMap::new();
    let mut by_name: HashMap<String, usize> = HashMap::new();
    let mut diags = Vec::new();
    for e in entries {
        let key = e.endpoint.key(default_port);
        if let Some(&i) = by_endpoint.get(&key) {
            let first = &kept[i];
            diags.push(Diagnostic {
                origin: e.origin.clone(),
                message: format!(
                    "{} is {}, already listed as {} ({}): checked once",
                    e.name,
                    e.endpoint.describe(default_port),
                    first.name,
                    first.origin
                ),
            });
            continue;
        }
        if let Some(&i) = by_name.get(&e.name) {
            let first = &kept[i];
            diags.push(Diagnostic {
                origin: e.origin.clone(),
                message: format!(
                    "the name {} is already used for {} ({}); this entry ({}) is skipped: give it another name",
                    e.name,
                    first.endpoint.describe(default_port),
                    first.origin,
                    e.endpoint.describe(default_port)
                ),
            });
            continue;
        }
        by_endpoint.insert(key, kept.len());
        by_name.insert(e.name.clone(), kept.len());
        kept.push(e);
    }
    (kept, diags)
}

/// The settings an entry may carry (also with a `mytune_` prefix).
pub const SETTINGS: [&str; 8] = [
    "memory",
    "cpus",
    "disk",
    "durability",
    "workload",
    "observability",
    "connections",
    "share",
];

/// The variable naming an entry's `--defaults-group-suffix` (also with a
/// `mytune_` prefix; in Ansible inventories only with it).
pub const GROUP_SUFFIX: &str = "defaults_group_suffix";

/// A `--defaults-group-suffix` from an inventory: letters, digits, `_`,
/// `-` and `.` (it becomes part of an option group's name).
pub fn parse_group_suffix(v: &str) -> Result<String, String> {
    let v = v.trim();
    if v.is_empty()
        || !v
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return Err(format!(
            "{GROUP_SUFFIX} '{v}' is not an option group suffix (letters, digits, _, - and ., as _prod)"
        ));
    }
    Ok(v.to_string())
}

/// Why an inventory variable that looks like a password is refused.
pub fn password_refusal(key: &str) -> Option<String> {
    let bare = key.strip_prefix("mytune_").unwrap_or(key);
    matches!(bare, "password" | "pass" | "mysql_password").then(|| {
        format!(
            "{key}: mytune reads no password from an inventory; put the account in an option              file group such as [client_prod] and give {GROUP_SUFFIX}=_prod"
        )
    })
}

/// The setting a variable name stands for (`memory`, `mytune_memory`), if
/// any.
pub fn setting_name(var: &str) -> Option<&'static str> {
    let bare = var.strip_prefix("mytune_").unwrap_or(var);
    SETTINGS.iter().copied().find(|s| *s == bare)
}

/// Apply one setting's value to an entry's host and profile; the error says
/// what is wrong with the value.
pub fn apply_setting(
    setting: &str,
    value: &str,
    host: &mut HostDescription,
    profile: &mut ProfileOverrides,
) -> Result<(), String> {
    let v = value.trim();
    match setting {
        "memory" => host.memory_bytes = Some(crate::units::parse_memory(v)?),
        "cpus" => {
            host.cpus = Some(
                v.parse::<u32>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("cpus '{v}' is not a number of CPUs (1 or more)"))?,
            )
        }
        "disk" => {
            host.disk = Some(match v.to_ascii_lowercase().as_str() {
                "ssd" => DiskKind::Ssd,
                "hdd" => DiskKind::Hdd,
                _ => return Err(format!("disk '{v}' is not ssd or hdd")),
            })
        }
        "durability" => profile.durability = Some(v.parse()?),
        "workload" => profile.workload = Some(v.parse()?),
        "observability" => profile.observability = Some(v.parse()?),
        "connections" => {
            profile.connections = Some(
                v.parse()
                    .map_err(|_| format!("connections '{v}' is not a number of connections"))?,
            )
        }
        "share" => {
            profile.share = Some(
                v.parse::<f64>()
                    .ok()
                    .filter(|s| *s > 0.0 && *s <= 1.0)
                    .ok_or_else(|| format!("share '{v}' is not a fraction in (0, 1]"))?,
            )
        }
        other => return Err(format!("unknown setting '{other}'")),
    }
    Ok(())
}

/// A TCP port number (1 to 65535).
pub fn parse_port(s: &str) -> Result<u16, String> {
    s.trim()
        .parse::<u16>()
        .ok()
        .filter(|p| *p > 0)
        .ok_or_else(|| format!("'{s}' is not a TCP port (1 to 65535)"))
}

/// Is `host` a host name, an IPv4 address or an IPv6 address (with an
/// optional `%zone`)?
pub fn valid_host(host: &str) -> bool {
    if host.contains(':') {
        let addr = host.split_once('%').map_or(host, |(a, _)| a);
        return addr.parse::<std::net::Ipv6Addr>().is_ok();
    }
    !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tcp(host: &str, port: Option<u16>) -> Endpoint {
        Endpoint::Tcp {
            host: host.into(),
            port,
        }
    }

    fn entry(name: &str, endpoint: Endpoint, line: u32) -> Entry {
        Entry {
            name: name.into(),
            endpoint,
            host: HostDescription::default(),
            profile: ProfileOverrides::default(),
            group_suffix: None,
            origin: Origin {
                file: "fleet.txt".into(),
                line: Some(line),
            },
            groups: BTreeSet::new(),
        }
    }

    #[test]
    fn the_same_server_is_kept_once_and_said() {
        let (kept, diags) = dedupe(
            vec![
                entry("a", tcp("DB1.example.com", None), 1),
                entry("b", tcp("db1.example.com.", Some(3306)), 2),
                entry("a", tcp("db2", None), 3),
                entry("c", tcp("db1.example.com", Some(3307)), 4),
            ],
            3306,
        );
        let names: Vec<&str> = kept.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a", "c"]);
        assert_eq!(diags.len(), 2);
        assert!(
            diags[0].to_string().starts_with(
                "fleet.txt:2: b is db1.example.com.:3306, already listed as a (fleet.txt:1)"
            ),
            "{}",
            diags[0]
        );
        assert!(diags[1].message.contains("the name a is already used"));
    }

    #[test]
    fn detects_formats() {
        let p = Path::new("hosts");
        assert_eq!(detect(p, "# x\n[db]\ndb1\n"), Format::AnsibleIni);
        assert_eq!(detect(p, "all:\n  hosts:\n"), Format::AnsibleYaml);
        assert_eq!(detect(p, "---\nall:\n"), Format::AnsibleYaml);
        assert_eq!(detect(p, "db1:3306 one\n[::1]:3306 v6\n"), Format::Plain);
        assert_eq!(detect(Path::new("x.yml"), "db1\n"), Format::AnsibleYaml);
        assert_eq!(detect(Path::new("x.ini"), "db1\n"), Format::AnsibleIni);
    }

    #[test]
    fn settings_are_checked() {
        let mut h = HostDescription::default();
        let mut p = ProfileOverrides::default();
        apply_setting("memory", "64G", &mut h, &mut p).unwrap();
        apply_setting("cpus", "16", &mut h, &mut p).unwrap();
        apply_setting("disk", "SSD", &mut h, &mut p).unwrap();
        apply_setting("durability", "relaxed", &mut h, &mut p).unwrap();
        apply_setting("share", "0.5", &mut h, &mut p).unwrap();
        assert_eq!(h.memory_bytes, Some(64 << 30));
        assert_eq!(h.cpus, Some(16));
        assert_eq!(p.durability, Some(Durability::Relaxed));
        assert!(apply_setting("cpus", "0", &mut h, &mut p).is_err());
        assert!(apply_setting("disk", "nvme", &mut h, &mut p).is_err());
        assert!(apply_setting("share", "2", &mut h, &mut p).is_err());
        assert!(apply_setting("memory", "lots", &mut h, &mut p).is_err());
        assert_eq!(setting_name("mytune_cpus"), Some("cpus"));
        assert_eq!(setting_name("ansible_host"), None);
    }
}
