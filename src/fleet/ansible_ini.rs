//! Ansible's INI inventory format, read line by line as Ansible's `ini`
//! inventory plugin reads it: `[group]`, `[group:vars]` and
//! `[group:children]` sections, host lines split like a POSIX shell with
//! `#` comments, `key=value` host variables, host ranges, and values typed as
//! Python literals (`16` a number, `'x y'` a string).
//!
//! Where Ansible stops at the first bad line, mytune says which line and
//! goes on with the next one.

use std::path::Path;

use serde_json::Value;

use super::ansible::{AnsibleInventory, expand_ranges, split_port};
use super::inventory::{Diagnostic, Origin};

/// The parts of a section header line: `[name]`, `[name:vars]`; `None` when
/// the line is not one.
pub fn section_header(line: &str) -> Option<(&str, Option<&str>)> {
    let rest = line.trim_end().strip_prefix('[')?;
    let close = rest.find(']')?;
    let inner = &rest[..close];
    let after = rest[close + 1..].trim_start();
    if !(after.is_empty() || after.starts_with('#')) {
        return None;
    }
    let (name, tag) = match inner.split_once(':') {
        Some((n, t)) => (n, Some(t)),
        None => (inner, None),
    };
    let name_ok = !name.is_empty() && !name.chars().any(|c| c.is_whitespace() || c == ']');
    let tag_ok =
        tag.is_none_or(|t| !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_'));
    (name_ok && tag_ok).then_some((name, tag))
}

enum Section {
    Hosts(String),
    Vars(String),
    Children(String),
    /// After a header mytune could not read: its lines are skipped.
    Skipped,
}

/// Parse an INI inventory.
pub fn parse(path: &Path, text: &str) -> (AnsibleInventory, Vec<Diagnostic>) {
    let mut inv = AnsibleInventory::default();
    let mut diags = Vec::new();
    let mut section = Section::Hosts("ungrouped".into());
    for (i, raw) in text.lines().enumerate() {
        let n = i as u32 + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        let mut say = |message: String| {
            diags.push(Diagnostic {
                origin: Origin {
                    file: path.to_path_buf(),
                    line: Some(n),
                },
                message,
            })
        };
        if let Some((name, tag)) = section_header(line) {
            section = match tag.unwrap_or("hosts") {
                "hosts" => Section::Hosts(name.into()),
                "vars" => Section::Vars(name.into()),
                "children" => Section::Children(name.into()),
                other => {
                    say(format!(
                        "section [{name}:{other}] has an unknown type (hosts, vars or children); its lines are skipped"
                    ));
                    Section::Skipped
                }
            };
            if let Section::Hosts(g) | Section::Vars(g) | Section::Children(g) = &section {
                inv.add_group(g);
            }
            continue;
        }
        if line.starts_with('[') && line.ends_with(']') {
            say(format!(
                "'{line}' is not a section header (a group name has no spaces or colons); skipped"
            ));
            section = Section::Skipped;
            continue;
        }
        match &section {
            Section::Skipped => {}
            Section::Hosts(group) => {
                if let Err(e) = host_line(&mut inv, group, line, n) {
                    say(format!("{e}; the line is skipped"));
                }
            }
            Section::Vars(group) => match line.split_once('=') {
                Some((k, v)) => inv.set_group_var(group, k.trim(), literal(v.trim()), Some(n)),
                None => say(format!(
                    "'{line}' in [{group}:vars] is not key=value; skipped"
                )),
            },
            Section::Children(group) => {
                let child = line
                    .split('#')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .collect::<Vec<_>>();
                match child.as_slice() {
                    [c] if !c.contains(':') && !c.contains(']') => {
                        if let Err(e) = inv.add_child(group, c) {
                            say(format!("{e}; skipped"));
                        }
                    }
                    _ => say(format!(
                        "'{line}' in [{group}:children] is not a group name; skipped"
                    )),
                }
            }
        }
    }
    inv.finish();
    (inv, diags)
}

/// `pattern key=value ...`: the hosts of the pattern, each in the group
/// with the variables.
fn host_line(inv: &mut AnsibleInventory, group: &str, line: &str, n: u32) -> Result<(), String> {
    let tokens = shell_words(line)?;
    let Some((pattern, vars)) = tokens.split_first() else {
        return Ok(());
    };
    let mut parsed = Vec::new();
    for t in vars {
        match t.split_once('=') {
            Some((k, v)) if !k.is_empty() => parsed.push((k.to_string(), literal(v))),
            _ => return Err(format!("'{t}' is not a key=value host variable")),
        }
    }
    let (hosts, port) = split_port(pattern)?;
    for host in expand_ranges(&hosts)? {
        let new = inv.add_host(group, &host, Some(n));
        if let Some(p) = port.filter(|_| new) {
            inv.set_host_var(&host, "ansible_port", Value::from(p), Some(n));
        }
        for (k, v) in &parsed {
            inv.set_host_var(&host, k, v.clone(), Some(n));
        }
    }
    Ok(())
}

/// Split a line as Python's `shlex.split(line, comments=True)` does: words
/// separated by whitespace, '...' literal, "..." with `\"` and `\\`
/// escapes, a backslash escaping the next character outside quotes, and `#`
/// outside quotes ending the line.
pub fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '#' => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => word.push(x),
                        None => return Err("no closing quotation".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x @ ('"' | '\\')) => word.push(x),
                            Some(x) => {
                                word.push('\\');
                                word.push(x);
                            }
                            None => return Err("no closing quotation".into()),
                        },
                        Some(x) => word.push(x),
                        None => return Err("no closing quotation".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(x) => word.push(x),
                    None => return Err("no escaped character".into()),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// A value typed as Ansible types INI values (Python's `ast.literal_eval`,
/// else the text itself): integers (also 0x, 0o, 0b and `_` separators),
/// decimal floats, `True`, `False`, `None`, and quoted strings. Lists and
/// mappings stay text.
pub fn literal(s: &str) -> Value {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let negative = s.starts_with('-');
    if let Some(n) = python_int(body) {
        let n = if negative { -n } else { n };
        return match i64::try_from(n) {
            Ok(i) => Value::from(i),
            Err(_) => Value::String(s.to_string()),
        };
    }
    if let Some(f) = python_float(body) {
        let f = if negative { -f } else { f };
        if let Some(n) = serde_json::Number::from_f64(f) {
            return Value::Number(n);
        }
    }
    match s {
        "True" => return Value::Bool(true),
        "False" => return Value::Bool(false),
        "None" => return Value::Null,
        _ => {}
    }
    for q in ['\'', '"'] {
        if s.len() >= 2
            && s.starts_with(q)
            && s.ends_with(q)
            && !s[1..s.len() - 1].contains(q)
            && !s[1..s.len() - 1].contains('\\')
        {
            return Value::String(s[1..s.len() - 1].to_string());
        }
    }
    Value::String(s.to_string())
}

fn python_int(s: &str) -> Option<i128> {
    let digits = |t: &str, radix: u32| -> Option<i128> {
        if t.is_empty() || t.starts_with('_') || t.ends_with('_') || t.contains("__") {
            return None;
        }
        i128::from_str_radix(&t.replace('_', ""), radix).ok()
    };
    let lower = s.to_ascii_lowercase();
    if let Some(h) = lower.strip_prefix("0x") {
        return digits(h.strip_prefix('_').unwrap_or(h), 16);
    }
    if let Some(o) = lower.strip_prefix("0o") {
        return digits(o.strip_prefix('_').unwrap_or(o), 8);
    }
    if let Some(b) = lower.strip_prefix("0b") {
        return digits(b.strip_prefix('_').unwrap_or(b), 2);
    }
    if !s.chars().all(|c| c.is_ascii_digit() || c == '_') {
        return None;
    }
    // Python refuses leading zeros on a non-zero decimal ("010").
    if s.len() > 1 && s.starts_with('0') && s.chars().any(|c| c != '0' && c != '_') {
        return None;
    }
    digits(s, 10)
}

fn python_float(s: &str) -> Option<f64> {
    // Decimal digits with one dot and/or an exponent: 1.5, .5, 5., 1e3, 1.5E-2.
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let mantissa_ok = mantissa.matches('.').count() <= 1
        && mantissa.chars().any(|c| c.is_ascii_digit())
        && mantissa.chars().all(|c| c.is_ascii_digit() || c == '.');
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
    });
    if !mantissa_ok || !exponent_ok || (!mantissa.contains('.') && exponent.is_none()) {
        return None;
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_shlex() {
        assert_eq!(
            shell_words(r#"db1 a="x y" b='p q' c=\# d # note"#).unwrap(),
            ["db1", "a=x y", "b=p q", "c=#", "d"]
        );
        assert!(shell_words("db1 a='open").is_err());
    }

    #[test]
    fn types_values_as_python_literals() {
        assert_eq!(literal("16"), Value::from(16));
        assert_eq!(literal("-3"), Value::from(-3));
        assert_eq!(literal("0x10"), Value::from(16));
        assert_eq!(literal("1_000"), Value::from(1000));
        assert_eq!(literal("010"), Value::from("010"));
        assert_eq!(literal("1.5"), serde_json::json!(1.5));
        assert_eq!(literal("True"), Value::Bool(true));
        assert_eq!(literal("true"), Value::from("true"));
        assert_eq!(literal("'x y'"), Value::from("x y"));
        assert_eq!(literal("64G"), Value::from("64G"));
        assert_eq!(literal("10.0.0.1"), Value::from("10.0.0.1"));
        assert_eq!(literal("inf"), Value::from("inf"));
    }

    #[test]
    fn reads_sections_and_reports_bad_lines() {
        let text = "\
solo ansible_host=10.0.0.9
[db]
db[1:2] mysql_port=3307
db3 novalue
[db:vars]
mytune_memory=64G
[prod:children]
db
[weird:stuff]
x
[bad group]
";
        let (inv, diags) = parse(Path::new("hosts"), text);
        let hosts: Vec<&str> = inv.host_names().collect();
        assert_eq!(hosts, ["solo", "db1", "db2"]);
        assert_eq!(inv.merged_vars("db1")["mytune_memory"].value, "64G");
        assert_eq!(inv.merged_vars("db2")["mysql_port"].value, 3307);
        let at: Vec<String> = diags.iter().map(|d| d.origin.to_string()).collect();
        assert_eq!(at, ["hosts:4", "hosts:9", "hosts:11"], "{diags:?}");
    }
}
