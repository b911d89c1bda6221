//! Ansible inventories as Ansible reads them: groups of hosts, child
//! groups, and variables on hosts and groups, merged the way
//! `ansible-inventory --list` shows them (the `all` group first, then groups
//! by depth, priority and name, the host's own variables last; see
//! "How variables are merged" in Ansible's inventory guide). The INI and
//! YAML readers ([`super::ansible_ini`], [`super::ansible_yaml`]) fill the
//! same [`AnsibleInventory`].
//!
//! What mytune takes from a host's variables: the address (`mytune_host`,
//! else `ansible_host`, else the inventory name), the MySQL port
//! (`mytune_port`, else `mysql_port`; `ansible_port` is the SSH port and is
//! not used), the settings of [`super::inventory::SETTINGS`], and
//! `mytune_defaults_group_suffix` (the option groups of the host's account;
//! a `mytune_password` is refused).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use super::inventory::{
    Diagnostic, Endpoint, Entry, Origin, ProfileOverrides, SETTINGS, apply_setting, valid_host,
};
use crate::collect::HostDescription;

/// A variable as text with its line, or what is wrong with it (and where).
type Lookup = Result<Option<(String, Option<u32>)>, (Option<u32>, String)>;

/// A variable's value and the line that set it (INI; YAML has none).
#[derive(Debug, Clone, PartialEq)]
pub struct Var {
    pub value: Value,
    pub line: Option<u32>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Group {
    pub name: String,
    /// Hosts listed in the group itself, in order.
    pub hosts: Vec<String>,
    pub children: Vec<String>,
    pub vars: BTreeMap<String, Var>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Host {
    pub name: String,
    pub vars: BTreeMap<String, Var>,
    /// Where the host is first listed.
    pub line: Option<u32>,
}

/// Groups and hosts in the order they first appear.
#[derive(Debug, Clone, PartialEq)]
pub struct AnsibleInventory {
    groups: Vec<Group>,
    hosts: Vec<Host>,
}

impl Default for AnsibleInventory {
    fn default() -> Self {
        AnsibleInventory {
            groups: vec![
                Group {
                    name: "all".into(),
                    ..Group::default()
                },
                Group {
                    name: "ungrouped".into(),
                    ..Group::default()
                },
            ],
            hosts: Vec::new(),
        }
    }
}

impl AnsibleInventory {
    fn group_index(&mut self, name: &str) -> usize {
        match self.groups.iter().position(|g| g.name == name) {
            Some(i) => i,
            None => {
                self.groups.push(Group {
                    name: name.to_string(),
                    ..Group::default()
                });
                self.groups.len() - 1
            }
        }
    }

    fn host_index(&mut self, name: &str, line: Option<u32>) -> usize {
        match self.hosts.iter().position(|h| h.name == name) {
            Some(i) => i,
            None => {
                self.hosts.push(Host {
                    name: name.to_string(),
                    line,
                    ..Host::default()
                });
                self.hosts.len() - 1
            }
        }
    }

    /// Make sure a group exists.
    pub fn add_group(&mut self, name: &str) {
        self.group_index(name);
    }

    /// List `host` in `group`; true when the host is new (Ansible takes a
    /// `host:port` only where a host first appears).
    pub fn add_host(&mut self, group: &str, host: &str, line: Option<u32>) -> bool {
        let new = !self.hosts.iter().any(|h| h.name == host);
        self.host_index(host, line);
        let g = self.group_index(group);
        if !self.groups[g].hosts.iter().any(|h| h == host) {
            self.groups[g].hosts.push(host.to_string());
        }
        new
    }

    pub fn set_host_var(&mut self, host: &str, key: &str, value: Value, line: Option<u32>) {
        let h = self.host_index(host, line);
        self.hosts[h]
            .vars
            .insert(key.to_string(), Var { value, line });
    }

    pub fn set_group_var(&mut self, group: &str, key: &str, value: Value, line: Option<u32>) {
        let g = self.group_index(group);
        self.groups[g]
            .vars
            .insert(key.to_string(), Var { value, line });
    }

    /// Make `child` a child of `parent`; refused when `parent` is already
    /// below `child` (Ansible refuses the loop too).
    pub fn add_child(&mut self, parent: &str, child: &str) -> Result<(), String> {
        if parent == child || self.descendants(child).contains(parent) {
            return Err(format!(
                "making {child} a child of {parent} would make a loop of groups"
            ));
        }
        if child == "all" {
            return Err("the group all cannot be a child group".into());
        }
        self.group_index(child);
        let p = self.group_index(parent);
        if !self.groups[p].children.iter().any(|c| c == child) {
            self.groups[p].children.push(child.to_string());
        }
        Ok(())
    }

    fn group(&self, name: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.name == name)
    }

    /// Every group below `name` (not itself).
    fn descendants(&self, name: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut todo = vec![name.to_string()];
        while let Some(n) = todo.pop() {
            if let Some(g) = self.group(&n) {
                for c in &g.children {
                    if out.insert(c.clone()) {
                        todo.push(c.clone());
                    }
                }
            }
        }
        out
    }

    /// The groups that list `name` as a child.
    fn parents(&self, name: &str) -> Vec<&str> {
        self.groups
            .iter()
            .filter(|g| g.children.iter().any(|c| c == name))
            .map(|g| g.name.as_str())
            .collect()
    }

    /// Put what Ansible puts implicitly: a group with no parent under
    /// `all`, a host in no group but `all` in `ungrouped` (and out of it
    /// when it is in another group).
    pub fn finish(&mut self) {
        let orphans: Vec<String> = self
            .groups
            .iter()
            .map(|g| g.name.clone())
            .filter(|n| n != "all" && self.parents(n).is_empty())
            .collect();
        for g in orphans {
            let _ = self.add_child("all", &g);
        }
        let hosts: Vec<String> = self.hosts.iter().map(|h| h.name.clone()).collect();
        for h in hosts {
            let elsewhere = self
                .groups
                .iter()
                .any(|g| g.name != "all" && g.name != "ungrouped" && g.hosts.contains(&h));
            let ug = self.group_index("ungrouped");
            if elsewhere {
                self.groups[ug].hosts.retain(|x| *x != h);
            } else if !self.groups[ug].hosts.contains(&h) {
                self.groups[ug].hosts.push(h.clone());
            }
            let all = self.group_index("all");
            self.groups[all].hosts.retain(|x| *x != h);
        }
    }

    /// Host names, in the order they first appear.
    pub fn host_names(&self) -> impl Iterator<Item = &str> {
        self.hosts.iter().map(|h| h.name.as_str())
    }

    /// Groups and the hosts listed in each (after [`finish`](Self::finish)),
    /// as `ansible-inventory --list` shows them; `all` lists none.
    pub fn group_hosts(&self) -> BTreeMap<&str, Vec<&str>> {
        self.groups
            .iter()
            .map(|g| {
                (
                    g.name.as_str(),
                    g.hosts.iter().map(String::as_str).collect(),
                )
            })
            .collect()
    }

    /// Longest path from `all` (Ansible's group depth).
    fn depth(&self, name: &str, memo: &mut BTreeMap<String, u32>) -> u32 {
        if name == "all" {
            return 0;
        }
        if let Some(d) = memo.get(name) {
            return *d;
        }
        // Loops are refused in add_child; the placeholder stops a walk anyway.
        memo.insert(name.to_string(), 1);
        let parents: Vec<String> = self.parents(name).iter().map(|p| p.to_string()).collect();
        let d = parents
            .iter()
            .map(|p| self.depth(p, memo) + 1)
            .max()
            .unwrap_or(1);
        memo.insert(name.to_string(), d);
        d
    }

    /// The groups `host` is in: those listing it, their parents up to
    /// `all`, and `all`.
    pub fn groups_of(&self, host: &str) -> BTreeSet<String> {
        let mut groups: BTreeSet<String> = self
            .groups
            .iter()
            .filter(|g| g.hosts.iter().any(|h| h == host))
            .map(|g| g.name.clone())
            .collect();
        let mut todo: Vec<String> = groups.iter().cloned().collect();
        while let Some(g) = todo.pop() {
            for p in self.parents(&g) {
                if groups.insert(p.to_string()) {
                    todo.push(p.to_string());
                }
            }
        }
        groups.insert("all".into());
        groups
    }

    /// A host's variables as Ansible merges them: `all`, then its groups by
    /// (depth, ansible_group_priority, name), then its own.
    pub fn merged_vars(&self, host: &str) -> BTreeMap<String, Var> {
        let groups = self.groups_of(host);
        let mut memo = BTreeMap::new();
        let mut ordered: Vec<(u32, i64, String)> = groups
            .into_iter()
            .map(|g| {
                let priority = self
                    .group(&g)
                    .and_then(|x| x.vars.get("ansible_group_priority"))
                    .and_then(|v| scalar_text(&v.value))
                    .and_then(|t| t.parse().ok())
                    .unwrap_or(1);
                (self.depth(&g, &mut memo), priority, g)
            })
            .collect();
        ordered.sort();
        let mut vars = BTreeMap::new();
        for (_, _, g) in ordered {
            if let Some(group) = self.group(&g) {
                for (k, v) in &group.vars {
                    vars.insert(k.clone(), v.clone());
                }
            }
        }
        if let Some(h) = self.hosts.iter().find(|h| h.name == host) {
            for (k, v) in &h.vars {
                vars.insert(k.clone(), v.clone());
            }
        }
        vars
    }

    /// The fleet entries: one per host, with its address, port and
    /// settings; a host whose values mytune cannot use is a diagnostic.
    pub fn entries(&self, file: &Path) -> (Vec<Entry>, Vec<Diagnostic>) {
        let mut entries = Vec::new();
        let mut diags = Vec::new();
        for h in &self.hosts {
            match self.entry(h, file) {
                Ok(e) => entries.push(e),
                Err((line, message)) => diags.push(Diagnostic {
                    origin: Origin {
                        file: file.to_path_buf(),
                        line: line.or(h.line),
                    },
                    message: format!("host {}: {message}", h.name),
                }),
            }
        }
        (entries, diags)
    }

    fn entry(&self, h: &Host, file: &Path) -> Result<Entry, (Option<u32>, String)> {
        let vars = self.merged_vars(&h.name);
        let text = |key: &str| -> Lookup {
            match vars.get(key) {
                None => Ok(None),
                Some(v) => match scalar_text(&v.value) {
                    Some(t) => Ok(Some((t, v.line))),
                    None => Err((v.line, format!("{key} is not a single value"))),
                },
            }
        };
        let first = |keys: &[&str]| -> Lookup {
            for k in keys {
                if let Some(t) = text(k)? {
                    return Ok(Some(t));
                }
            }
            Ok(None)
        };
        let host = match first(&["mytune_host", "ansible_host"])? {
            Some((t, line)) => {
                if !valid_host(&t) {
                    return Err((line, format!("'{t}' is not a host name or IP address")));
                }
                t
            }
            None if valid_host(&h.name) => h.name.clone(),
            None => {
                return Err((
                    h.line,
                    "the name is not a host name or IP address; give ansible_host".into(),
                ));
            }
        };
        let port = match first(&["mytune_port", "mysql_port"])? {
            Some((t, line)) => Some(
                super::inventory::parse_port(&t)
                    .map_err(|e| (line, format!("the MySQL port: {e}")))?,
            ),
            None => None,
        };
        let mut desc = HostDescription::default();
        let mut profile = ProfileOverrides::default();
        for setting in SETTINGS {
            let prefixed = format!("mytune_{setting}");
            let keys = [prefixed.as_str(), setting];
            if let Some((t, line)) = first(&keys)? {
                let key = keys
                    .iter()
                    .find(|k| vars.contains_key(**k))
                    .unwrap_or(&setting);
                apply_setting(setting, &t, &mut desc, &mut profile)
                    .map_err(|e| (line, format!("{key}: {e}")))?;
            }
        }
        // Only mytune's own names: other password variables (SSH's, a
        // role's) are not for mytune and are left alone.
        for key in vars.keys().filter(|k| k.starts_with("mytune_")) {
            if let Some(refusal) = super::inventory::password_refusal(key) {
                return Err((vars[key].line, refusal));
            }
        }
        let suffix_var = format!("mytune_{}", super::inventory::GROUP_SUFFIX);
        let group_suffix = match text(&suffix_var)? {
            Some((t, line)) => Some(
                super::inventory::parse_group_suffix(&t)
                    .map_err(|e| (line, format!("{suffix_var}: {e}")))?,
            ),
            None => None,
        };
        Ok(Entry {
            name: h.name.clone(),
            endpoint: Endpoint::Tcp {
                host: host.trim_start_matches('[').trim_end_matches(']').into(),
                port,
            },
            host: desc,
            profile,
            group_suffix,
            origin: Origin {
                file: file.to_path_buf(),
                line: h.line,
            },
            groups: self.groups_of(&h.name),
        })
    }
}

/// A scalar variable as text (numbers as Ansible prints them); `None` for a
/// list, a mapping or null.
pub fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A host pattern's names: `db[01:03]` is db01, db02, db03; `[a:c]` letters;
/// `[1:9:2]` a stride (Ansible's host ranges).
pub fn expand_ranges(pattern: &str) -> Result<Vec<String>, String> {
    let Some(open) = pattern.find('[') else {
        return Ok(vec![pattern.to_string()]);
    };
    let close = pattern[open..]
        .find(']')
        .map(|i| open + i)
        .ok_or_else(|| format!("'{pattern}' has a [ without a ]"))?;
    let inner = &pattern[open + 1..close];
    if !inner.contains(':') {
        return Err(format!("'{pattern}': a host range is [start:end]"));
    }
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    let parts: Vec<&str> = inner.split(':').collect();
    let (beg, end, step) = match parts.as_slice() {
        [b, e] => (*b, *e, "1"),
        [b, e, s] => (*b, *e, *s),
        _ => {
            return Err(format!(
                "'{pattern}': a host range is [start:end] or [start:end:step]"
            ));
        }
    };
    let beg = if beg.is_empty() { "0" } else { beg };
    let step: usize = step
        .parse()
        .ok()
        .filter(|s| *s > 0)
        .ok_or_else(|| format!("'{pattern}': the step of a range is a positive number"))?;
    if end.is_empty() {
        return Err(format!("'{pattern}': a host range needs an end"));
    }
    let seq: Vec<String> = if beg.len() == 1
        && end.len() == 1
        && beg.chars().all(|c| c.is_ascii_alphabetic())
        && end.chars().all(|c| c.is_ascii_alphabetic())
    {
        const LETTERS: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        let (b, e) = (LETTERS.find(beg).unwrap(), LETTERS.find(end).unwrap());
        if b > e {
            return Err(format!("'{pattern}': the range starts after it ends"));
        }
        LETTERS[b..=e]
            .chars()
            .step_by(step)
            .map(String::from)
            .collect()
    } else {
        let b: u64 = beg
            .parse()
            .map_err(|_| format!("'{pattern}': '{beg}' is not a number or a letter"))?;
        let e: u64 = end
            .parse()
            .map_err(|_| format!("'{pattern}': '{end}' is not a number or a letter"))?;
        if b > e {
            return Err(format!("'{pattern}': the range starts after it ends"));
        }
        if e - b > 100_000 {
            return Err(format!("'{pattern}': more than 100000 hosts in one range"));
        }
        let width = (beg.starts_with('0') && beg.len() > 1).then_some(beg.len());
        if width.is_some_and(|w| w != end.len()) {
            return Err(format!(
                "'{pattern}': a zero-padded range gives start and end the same width"
            ));
        }
        (b..=e)
            .step_by(step)
            .map(|n| match width {
                Some(w) => format!("{n:0w$}"),
                None => n.to_string(),
            })
            .collect()
    };
    let mut out = Vec::new();
    for s in seq {
        for rest in expand_ranges(tail)? {
            out.push(format!("{head}{s}{rest}"));
        }
    }
    Ok(out)
}

/// Split Ansible's `host:port` (the port is SSH's, kept as `ansible_port`):
/// `[IPv6]:port`, `name:port`, `name[1:3]:port`; a bare IPv6 address has no
/// port.
pub fn split_port(pattern: &str) -> Result<(String, Option<u16>), String> {
    if let Some(rest) = pattern.strip_prefix('[')
        && let Some((inner, after)) = rest.split_once(']')
        && inner.matches(':').count() >= 2
    {
        let port = match after.strip_prefix(':') {
            Some(p) => Some(super::inventory::parse_port(p)?),
            None if after.is_empty() => None,
            None => return Err(format!("'{pattern}' is not an address")),
        };
        return Ok((inner.to_string(), port));
    }
    // Colons outside [..] ranges.
    let mut depth = 0i32;
    let mut colons = Vec::new();
    for (i, c) in pattern.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ':' if depth == 0 => colons.push(i),
            _ => {}
        }
    }
    match colons.as_slice() {
        [i] => {
            let port = &pattern[i + 1..];
            Ok((
                pattern[..*i].to_string(),
                Some(super::inventory::parse_port(port)?),
            ))
        }
        _ => Ok((pattern.to_string(), None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_ranges_as_ansible_does() {
        assert_eq!(
            expand_ranges("db[01:03].x").unwrap(),
            ["db01.x", "db02.x", "db03.x"]
        );
        assert_eq!(expand_ranges("db[1:5:2]").unwrap(), ["db1", "db3", "db5"]);
        assert_eq!(expand_ranges("[a:c]db").unwrap(), ["adb", "bdb", "cdb"]);
        assert_eq!(
            expand_ranges("r[1:2]n[a:b]").unwrap(),
            ["r1na", "r1nb", "r2na", "r2nb"]
        );
        assert!(expand_ranges("db[3:1]").is_err());
        assert!(expand_ranges("db[01:100]").is_err());
        assert!(expand_ranges("db[1:").is_err());
    }

    #[test]
    fn splits_ssh_ports() {
        assert_eq!(split_port("db1:2222").unwrap(), ("db1".into(), Some(2222)));
        assert_eq!(
            split_port("db[1:3]:2222").unwrap(),
            ("db[1:3]".into(), Some(2222))
        );
        assert_eq!(split_port("db[1:3]").unwrap(), ("db[1:3]".into(), None));
        assert_eq!(
            split_port("[2001:db8::1]:22").unwrap(),
            ("2001:db8::1".into(), Some(22))
        );
        assert_eq!(
            split_port("2001:db8::1").unwrap(),
            ("2001:db8::1".into(), None)
        );
        assert!(split_port("db1:ssh").is_err());
    }

    #[test]
    fn merges_variables_by_depth_then_name() {
        let mut inv = AnsibleInventory::default();
        assert!(inv.add_host("db", "h1", Some(1)));
        inv.add_child("prod", "db").unwrap();
        inv.set_group_var("all", "x", "all".into(), None);
        inv.set_group_var("prod", "x", "prod".into(), None);
        inv.set_group_var("db", "x", "db".into(), None);
        inv.set_group_var("prod", "y", "prod".into(), None);
        assert!(!inv.add_host("aaa", "h1", Some(2)));
        inv.set_group_var("aaa", "y", "aaa".into(), None);
        inv.finish();
        let v = inv.merged_vars("h1");
        // db is deeper than prod (below it): db wins; aaa and prod are
        // both at depth 1: prod sorts later and wins.
        assert_eq!(v["x"].value, "db");
        assert_eq!(v["y"].value, "prod");
        assert!(inv.add_child("db", "prod").is_err());
    }
}
