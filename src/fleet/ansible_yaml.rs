//! Ansible's YAML inventory format, as Ansible's `yaml` inventory plugin
//! reads it: top-level groups (usually `all`), each a mapping of `hosts`
//! (host patterns, each with its variables), `vars` and `children` (groups
//! again). What the plugin skips with a warning, mytune skips with a
//! diagnostic.
//!
//! YAML values carry no line numbers here: a problem names the line where
//! its host is first a key (found in the text), the group and the host. A
//! YAML syntax error names its line and leaves the file out.
//!
//! Scalars are typed as Ansible's YAML 1.1 loader (PyYAML) types them: an
//! unquoted `yes`, `no`, `on` or `off` (lower case, capitalised or upper
//! case) is a boolean as `true` and `false` are, where YAML 1.2 reads text;
//! quoted, each stays text.

use std::path::Path;

use serde_json::Value as Json;
use serde_norway::Value;

use super::ansible::{AnsibleInventory, expand_ranges, split_port};
use super::inventory::{Diagnostic, Origin};

/// Parse a YAML inventory.
pub fn parse(path: &Path, text: &str) -> (AnsibleInventory, Vec<Diagnostic>) {
    let mut inv = AnsibleInventory::default();
    let mut diags = Vec::new();
    let mut say = |line: Option<u32>, message: String| {
        diags.push(Diagnostic {
            origin: Origin {
                file: path.to_path_buf(),
                line,
            },
            message,
        })
    };
    let doc: Value = match load(text) {
        Ok(v) => v,
        Err(e) => {
            let line = e.location().map(|l| l.line() as u32);
            say(line, format!("not a YAML inventory: {e}"));
            return (inv, diags);
        }
    };
    match doc {
        Value::Mapping(groups) => {
            for (name, data) in &groups {
                let name = key_text(name);
                group(&mut inv, text, &name, data, &mut say, 0);
            }
        }
        Value::Null => say(None, "the inventory is empty".into()),
        _ => say(
            None,
            "not an Ansible YAML inventory: the top level is a mapping of groups (all: ...)".into(),
        ),
    }
    inv.finish();
    (inv, diags)
}

/// The YAML 1.1 booleans YAML 1.2 reads as text, as PyYAML's resolver
/// lists them (`y` and `n` are not among them).
fn yaml11_bool(s: &str) -> Option<bool> {
    match s {
        "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Some(true),
        "no" | "No" | "NO" | "off" | "Off" | "OFF" => Some(false),
        _ => None,
    }
}

/// The document as [`serde_norway::Value`], with YAML 1.1's booleans in
/// values ([`yaml11_bool`]).
fn load(text: &str) -> Result<Value, serde_norway::Error> {
    use serde::de::DeserializeSeed;
    Node { text, key: false }.deserialize(serde_norway::Deserializer::from_str(text))
}

/// A value of the document in `text`. A plain scalar reaches the visitor
/// as a slice of `text` where it is written; a quoted one as the slice
/// after its quote, or as a copy when it has escapes: so a scalar is plain
/// when the byte before its slice is no quote.
#[derive(Clone, Copy)]
struct Node<'t> {
    text: &'t str,
    /// A mapping key: kept as written.
    key: bool,
}

impl Node<'_> {
    fn plain(&self, s: &str) -> bool {
        let start = self.text.as_ptr() as usize;
        let at = s.as_ptr() as usize;
        if at < start || at + s.len() > start + self.text.len() {
            return false;
        }
        let offset = at - start;
        offset == 0 || !matches!(self.text.as_bytes()[offset - 1], b'\'' | b'"')
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for Node<'de> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Node<'de> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Value, E> {
        match yaml11_bool(s).filter(|_| !self.key && self.plain(s)) {
            Some(b) => Ok(Value::Bool(b)),
            None => Ok(Value::String(s.to_string())),
        }
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        serde::de::DeserializeSeed::deserialize(self, d)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(Node { key: false, ..self })? {
            items.push(v);
        }
        Ok(Value::Sequence(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = serde_norway::Mapping::new();
        while let Some(k) = map.next_key_seed(Node { key: true, ..self })? {
            if out.contains_key(&k) {
                return Err(serde::de::Error::custom(format!(
                    "duplicate entry with key {}",
                    key_text(&k)
                )));
            }
            let v = map.next_value_seed(Node { key: false, ..self })?;
            out.insert(k, v);
        }
        Ok(Value::Mapping(out))
    }

    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        use serde::de::VariantAccess;
        let (tag, contents) = data.variant::<String>()?;
        let value = contents.newtype_variant_seed(Node { key: false, ..self })?;
        Ok(Value::Tagged(Box::new(serde_norway::value::TaggedValue {
            tag: serde_norway::value::Tag::new(tag),
            value,
        })))
    }
}

fn key_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => super::ansible::scalar_text(&to_json(other)).unwrap_or_default(),
    }
}

/// A section given as one string (`hosts: db1`) is a mapping with that key,
/// as Ansible reads it.
fn as_mapping(v: &Value) -> Option<Option<serde_norway::Mapping>> {
    match v {
        Value::Null => Some(None),
        Value::Mapping(m) => Some(Some(m.clone())),
        Value::String(s) => {
            let mut m = serde_norway::Mapping::new();
            m.insert(Value::String(s.clone()), Value::Null);
            Some(Some(m))
        }
        Value::Tagged(t) => as_mapping(&t.value),
        _ => None,
    }
}

fn group(
    inv: &mut AnsibleInventory,
    text: &str,
    name: &str,
    data: &Value,
    say: &mut dyn FnMut(Option<u32>, String),
    depth: u32,
) {
    if depth > 64 {
        say(
            None,
            format!("group {name}: groups nested too deep; skipped"),
        );
        return;
    }
    let data = match data {
        Value::Tagged(t) => &t.value,
        d => d,
    };
    let map = match data {
        Value::Null => {
            inv.add_group(name);
            return;
        }
        Value::Mapping(m) => m,
        _ => {
            say(
                None,
                format!("'{name}' is not a group (a mapping of hosts, vars and children); skipped"),
            );
            return;
        }
    };
    inv.add_group(name);
    for (key, value) in map {
        let key = key_text(key);
        let Some(section) = as_mapping(value) else {
            say(
                None,
                format!("group {name}: {key} is not a mapping; skipped"),
            );
            continue;
        };
        let Some(section) = section else { continue };
        match key.as_str() {
            "vars" => {
                for (k, v) in &section {
                    inv.set_group_var(name, &key_text(k), to_json(v), None);
                }
            }
            "children" => {
                for (child, child_data) in &section {
                    let child = key_text(child);
                    group(inv, text, &child, child_data, say, depth + 1);
                    if let Err(e) = inv.add_child(name, &child) {
                        say(None, format!("group {name}: {e}; skipped"));
                    }
                }
            }
            "hosts" => {
                for (pattern, vars) in &section {
                    let pattern = key_text(pattern);
                    let line = key_line(text, &pattern);
                    if let Err(e) = hosts(inv, name, &pattern, vars, line) {
                        say(line, format!("group {name}: host {pattern}: {e}; skipped"));
                    }
                }
            }
            other => say(
                None,
                format!(
                    "group {name}: unexpected key {other} (a group has hosts, vars and children); skipped"
                ),
            ),
        }
    }
}

fn hosts(
    inv: &mut AnsibleInventory,
    group: &str,
    pattern: &str,
    vars: &Value,
    line: Option<u32>,
) -> Result<(), String> {
    let vars = match vars {
        Value::Null => serde_norway::Mapping::new(),
        Value::Mapping(m) => m.clone(),
        _ => return Err("its variables are not a mapping".into()),
    };
    let (names, port) = split_port(pattern)?;
    for host in expand_ranges(&names)? {
        let new = inv.add_host(group, &host, line);
        if let Some(p) = port.filter(|_| new) {
            inv.set_host_var(&host, "ansible_port", Json::from(p), None);
        }
        for (k, v) in &vars {
            inv.set_host_var(&host, &key_text(k), to_json(v), None);
        }
    }
    Ok(())
}

/// The first line that has `key` as a mapping key (`key:`, `'key':` or
/// `"key":`), for diagnostics: YAML values carry no positions here.
fn key_line(text: &str, key: &str) -> Option<u32> {
    let forms = [
        format!("{key}:"),
        format!("'{key}':"),
        format!("\"{key}\":"),
    ];
    text.lines()
        .position(|l| {
            let t = l.trim_start().trim_start_matches("- ");
            forms.iter().any(|f| {
                t.strip_prefix(f.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t', '#']))
            })
        })
        .map(|i| i as u32 + 1)
}

/// A YAML value as JSON (what `ansible-inventory --list` prints).
pub fn to_json(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Json::from(i)
            } else if let Some(u) = n.as_u64() {
                Json::from(u)
            } else {
                n.as_f64()
                    .and_then(serde_json::Number::from_f64)
                    .map(Json::Number)
                    .unwrap_or(Json::Null)
            }
        }
        Value::String(s) => Json::String(s.clone()),
        Value::Sequence(s) => Json::Array(s.iter().map(to_json).collect()),
        Value::Mapping(m) => {
            Json::Object(m.iter().map(|(k, v)| (key_text(k), to_json(v))).collect())
        }
        Value::Tagged(t) => to_json(&t.value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_groups_hosts_and_children() {
        let text = "\
all:
  vars:
    mytune_memory: 1G
  hosts:
    solo:
  children:
    mysql:
      hosts:
        db[1:2]:
          mysql_port: 3307
        db3:2200:
      vars:
        mytune_cpus: 8
      children:
        replicas:
          hosts:
            db3:
              mytune_cpus: 2
      other: 5
";
        let (inv, diags) = parse(Path::new("fleet.yml"), text);
        let hosts: Vec<&str> = inv.host_names().collect();
        assert_eq!(hosts, ["solo", "db1", "db2", "db3"]);
        assert_eq!(inv.merged_vars("db1")["mysql_port"].value, 3307);
        assert_eq!(inv.merged_vars("db3")["mytune_cpus"].value, 2);
        assert_eq!(inv.merged_vars("db3")["ansible_port"].value, 2200);
        assert_eq!(inv.merged_vars("solo")["mytune_memory"].value, "1G");
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(
            diags[0].message.contains("other is not a mapping"),
            "{diags:?}"
        );
        // Hosts know the line they are first a key on.
        let (entries, _) = inv.entries(Path::new("fleet.yml"));
        let at: Vec<Option<u32>> = entries.iter().map(|e| e.origin.line).collect();
        assert_eq!(at, [Some(5), Some(9), Some(9), Some(11)]);
    }

    #[test]
    fn a_syntax_error_names_its_line() {
        let (inv, diags) = parse(Path::new("f.yml"), "all:\n  hosts:\n    a: [\n");
        assert_eq!(inv.host_names().count(), 0);
        assert_eq!(diags.len(), 1);
        assert!(diags[0].origin.line.is_some(), "{diags:?}");
    }
}
