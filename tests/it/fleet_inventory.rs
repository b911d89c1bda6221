//! The inventory readers against Ansible itself: for the shipped examples
//! (`examples/inventory/`) and for generated inventories, mytune's hosts,
//! group members and merged host variables equal what
//! `ansible-inventory -i FILE --list` prints. The generated ones cover
//! nested children, host ranges, SSH ports, variables on hosts and groups
//! at several depths, and INI values typed as Python literals.
//!
//! Skips with a printed reason when `ansible-inventory` (Debian package
//! `ansible-core`) is missing, unless `MYTUNE_REQUIRE_LIVE=1`.

use crate::support::mariadb;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use mytune::fleet::ansible::AnsibleInventory;
use serde_json::Value;

fn ansible_inventory() -> Option<PathBuf> {
    match mariadb::find_program("ansible-inventory", &[]) {
        Some(p) => Some(p),
        None => mariadb::skip_or_panic("ansible-inventory not found (install ansible-core)"),
    }
}

/// What `ansible-inventory --list` says of FILE.
fn ansible_list(program: &Path, file: &Path, scratch: &Path) -> Value {
    let out = Command::new(program)
        .arg("-i")
        .arg(file)
        .arg("--list")
        .env("ANSIBLE_LOCAL_TEMP", scratch)
        .env("ANSIBLE_HOME", scratch)
        .env("ANSIBLE_INVENTORY_UNPARSED_FAILED", "true")
        .env("ANSIBLE_NOCOLOR", "1")
        .output()
        .expect("ansible-inventory runs");
    assert!(
        out.status.success(),
        "ansible-inventory refused {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("ansible-inventory prints JSON")
}

fn mytune_read(file: &Path) -> AnsibleInventory {
    let text = std::fs::read_to_string(file).unwrap();
    let (inv, diags) = match mytune::fleet::inventory::detect(file, &text) {
        mytune::fleet::inventory::Format::AnsibleIni => {
            mytune::fleet::ansible_ini::parse(file, &text)
        }
        mytune::fleet::inventory::Format::AnsibleYaml => {
            mytune::fleet::ansible_yaml::parse(file, &text)
        }
        other => panic!("{} read as {other:?}", file.display()),
    };
    assert!(diags.is_empty(), "{}: {diags:#?}", file.display());
    inv
}

/// Compare hosts, group members and merged variables.
fn agree(file: &Path, ansible: &Value, inv: &AnsibleInventory) {
    let text = std::fs::read_to_string(file).unwrap();
    let ctx = || format!("{}:\n{text}\nansible: {ansible:#}", file.display());
    // Group members (ansible lists `all` without hosts).
    let ours = inv.group_hosts();
    for (group, body) in ansible.as_object().unwrap() {
        if group == "_meta" || group == "all" {
            continue;
        }
        let theirs: Vec<&str> = body["hosts"]
            .as_array()
            .map(|a| a.iter().map(|h| h.as_str().unwrap()).collect())
            .unwrap_or_default();
        let mine = ours.get(group.as_str()).cloned().unwrap_or_default();
        assert_eq!(mine, theirs, "members of {group} differ in {}", ctx());
    }
    // Every host and its merged variables.
    let hostvars = ansible["_meta"]["hostvars"].as_object().unwrap();
    let mut all_theirs: Vec<String> = ansible
        .as_object()
        .unwrap()
        .iter()
        .filter(|(g, _)| *g != "_meta")
        .flat_map(|(_, b)| b["hosts"].as_array().cloned().unwrap_or_default())
        .map(|h| h.as_str().unwrap().to_string())
        .collect();
    all_theirs.sort();
    all_theirs.dedup();
    let mut all_mine: Vec<String> = inv.host_names().map(String::from).collect();
    all_mine.sort();
    assert_eq!(all_mine, all_theirs, "hosts differ in {}", ctx());
    for host in &all_mine {
        let mine: BTreeMap<String, Value> = inv
            .merged_vars(host)
            .into_iter()
            .map(|(k, v)| (k, v.value))
            .collect();
        let theirs: BTreeMap<String, Value> = hostvars
            .get(host)
            .and_then(Value::as_object)
            .map(|o| o.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default();
        assert_eq!(mine, theirs, "variables of {host} differ in {}", ctx());
    }
}

#[test]
#[cfg_attr(
    mytune_no_ansible,
    ignore = "needs ansible-inventory (apt-get install ansible-core)"
)]
fn shipped_examples_read_as_ansible_reads_them() {
    let Some(program) = ansible_inventory() else {
        return;
    };
    let scratch = tempfile::tempdir().unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/inventory");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(ext, "ini" | "yml" | "yaml") {
            continue;
        }
        let ansible = ansible_list(&program, &path, scratch.path());
        agree(&path, &ansible, &mytune_read(&path));
        seen += 1;
    }
    assert!(seen >= 2, "the INI and YAML examples are there");
}

/// A small deterministic generator (xorshift), so a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One generated inventory, written both ways.
struct Generated {
    ini: String,
    yaml: String,
}

/// A value as INI text and as YAML text (both read to the same JSON).
fn value(rng: &mut Rng) -> (String, String) {
    match rng.below(7) {
        0 => {
            let n = rng.below(100_000).to_string();
            (n.clone(), n)
        }
        1 => {
            let n = format!("-{}", rng.below(50) + 1);
            (n.clone(), n)
        }
        2 => {
            let s = format!("{}G", rng.below(512) + 1);
            (s.clone(), s)
        }
        3 => {
            let s = format!("v{}", rng.below(1000));
            (s.clone(), s)
        }
        4 => {
            let s = format!("{}.5", rng.below(10));
            (s.clone(), s)
        }
        5 => {
            let n = rng.below(9);
            (format!("'two words {n}'"), format!("\"two words {n}\""))
        }
        _ => {
            let ip = format!(
                "10.{}.{}.{}",
                rng.below(256),
                rng.below(256),
                rng.below(256)
            );
            (ip.clone(), ip)
        }
    }
}

/// Variables: name, then the value as INI and as YAML text.
type Vars = Vec<(String, (String, String))>;

/// One value per key (the last): a YAML mapping may not repeat a key.
fn unique(pairs: Vars) -> Vars {
    let mut out: Vars = Vec::new();
    for (k, v) in pairs {
        out.retain(|(x, _)| *x != k);
        out.push((k, v));
    }
    out
}

fn generate(seed: u64) -> Generated {
    let mut rng = Rng(seed * 2_654_435_761 + 1);
    let vars = [
        "ansible_host",
        "mysql_port",
        "mytune_memory",
        "mytune_cpus",
        "tier",
        "note",
    ];
    let ngroups = 2 + rng.below(4) as usize;
    let names: Vec<String> = (0..ngroups).map(|i| format!("g{i}")).collect();
    // Children only point to later groups: no loops.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); ngroups];
    for (p, kids) in children.iter_mut().enumerate() {
        for c in p + 1..ngroups {
            if rng.below(3) == 0 {
                kids.push(c);
            }
        }
    }
    let mut hosts: Vec<Vec<(String, Vars)>> = vec![Vec::new(); ngroups];
    for group_hosts in hosts.iter_mut() {
        for _ in 0..rng.below(4) {
            let pattern = match rng.below(4) {
                0 => format!("h{}[1:{}]", rng.below(5), 2 + rng.below(3)),
                1 => format!("h{}:{}", rng.below(5), 2200 + rng.below(10)),
                _ => format!("h{}", rng.below(8)),
            };
            let hv = unique(
                (0..rng.below(3))
                    .map(|_| {
                        let k = vars[rng.below(vars.len() as u64) as usize].to_string();
                        let (mut ini, mut yaml) = value(&mut rng);
                        if ini.starts_with('\'') {
                            // Quoted values with spaces on a host line: shlex
                            // removes the quotes, as Ansible's reader does.
                            ini = format!("\"{}\"", &ini[1..ini.len() - 1]);
                            yaml = ini.clone();
                        }
                        (k, (ini, yaml))
                    })
                    .collect(),
            );
            // A YAML mapping may not repeat a key.
            if !group_hosts.iter().any(|(p, _)| *p == pattern) {
                group_hosts.push((pattern, hv));
            }
        }
    }
    let group_vars: Vec<Vars> = (0..ngroups)
        .map(|_| {
            unique(
                (0..rng.below(4))
                    .map(|_| {
                        let k = vars[rng.below(vars.len() as u64) as usize].to_string();
                        (k, value(&mut rng))
                    })
                    .collect(),
            )
        })
        .collect();
    let all_vars = unique(
        (0..rng.below(3))
            .map(|_| {
                let k = vars[rng.below(vars.len() as u64) as usize].to_string();
                (k, value(&mut rng))
            })
            .collect(),
    );

    let mut ini = String::from("# generated\n");
    let mut yaml = String::from("all:\n");
    if !all_vars.is_empty() {
        ini.push_str("[all:vars]\n");
        yaml.push_str("  vars:\n");
        for (k, (i, y)) in &all_vars {
            writeln!(ini, "{k}={i}").unwrap();
            writeln!(yaml, "    {k}: {y}").unwrap();
        }
    }
    yaml.push_str("  children:\n");
    for g in 0..ngroups {
        writeln!(ini, "[{}]", names[g]).unwrap();
        writeln!(yaml, "    {}:", names[g]).unwrap();
        if !hosts[g].is_empty() {
            yaml.push_str("      hosts:\n");
        }
        for (pattern, hv) in &hosts[g] {
            let mut line = pattern.clone();
            writeln!(yaml, "        {pattern}:").unwrap();
            for (k, (i, y)) in hv {
                write!(line, " {k}={i}").unwrap();
                writeln!(yaml, "          {k}: {y}").unwrap();
            }
            writeln!(ini, "{line}").unwrap();
        }
        if !group_vars[g].is_empty() {
            writeln!(ini, "[{}:vars]", names[g]).unwrap();
            yaml.push_str("      vars:\n");
            for (k, (i, y)) in &group_vars[g] {
                writeln!(ini, "{k}={i}").unwrap();
                writeln!(yaml, "        {k}: {y}").unwrap();
            }
        }
        if !children[g].is_empty() {
            writeln!(ini, "[{}:children]", names[g]).unwrap();
            yaml.push_str("      children:\n");
            for c in &children[g] {
                writeln!(ini, "{}", names[*c]).unwrap();
                writeln!(yaml, "        {}:", names[*c]).unwrap();
            }
        }
    }
    Generated { ini, yaml }
}

#[test]
#[cfg_attr(
    mytune_no_ansible,
    ignore = "needs ansible-inventory (apt-get install ansible-core)"
)]
fn generated_inventories_read_as_ansible_reads_them() {
    let Some(program) = ansible_inventory() else {
        return;
    };
    let scratch = tempfile::tempdir().unwrap();
    for seed in 1..=8u64 {
        let g = generate(seed);
        for (ext, text) in [("ini", &g.ini), ("yml", &g.yaml)] {
            let path = scratch.path().join(format!("gen{seed}.{ext}"));
            std::fs::write(&path, text).unwrap();
            let ansible = ansible_list(&program, &path, scratch.path());
            agree(&path, &ansible, &mytune_read(&path));
        }
    }
}

/// Regression test for YAML values read as YAML 1.2 (`yes` as text): every
/// spelling Ansible's YAML 1.1 loader takes for a boolean, unquoted and
/// quoted, in host, group and `all` variables and in lists, and spellings
/// that are not booleans (`y`, `n`, `yEs`), read as `ansible-inventory
/// --list` reads them; and the INI form, where only Python's `True` and
/// `False` are booleans.
#[test]
#[cfg_attr(
    mytune_no_ansible,
    ignore = "needs ansible-inventory (apt-get install ansible-core)"
)]
fn yaml_1_1_booleans_read_as_ansible_reads_them() {
    let Some(program) = ansible_inventory() else {
        return;
    };
    let scratch = tempfile::tempdir().unwrap();
    let words = [
        "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "true",
        "True", "TRUE", "false", "False", "FALSE", "y", "Y", "n", "N", "yEs", "oN",
    ];
    let mut yaml = String::from("all:\n  vars:\n");
    for (i, w) in words.iter().enumerate() {
        writeln!(yaml, "    all_{i}: {w}").unwrap();
    }
    yaml.push_str("  children:\n    db:\n      vars:\n");
    for (i, w) in words.iter().enumerate() {
        writeln!(yaml, "        quoted_{i}: '{w}'").unwrap();
        writeln!(yaml, "        dquoted_{i}: \"{w}\"").unwrap();
    }
    writeln!(yaml, "        flow: [{}]", words.join(", ")).unwrap();
    yaml.push_str("        block:\n");
    for w in &words {
        writeln!(yaml, "          - {w}").unwrap();
    }
    yaml.push_str("      hosts:\n        db1:\n");
    for (i, w) in words.iter().enumerate() {
        writeln!(yaml, "          host_{i}: {w}  # a comment").unwrap();
    }
    yaml.push_str("          nested: {a: yes, b: 'no', c: Off}\n");
    let path = scratch.path().join("bools.yml");
    std::fs::write(&path, &yaml).unwrap();
    let ansible = ansible_list(&program, &path, scratch.path());
    let inv = mytune_read(&path);
    agree(&path, &ansible, &inv);
    // Not only equal to Ansible: booleans where YAML 1.2 reads text.
    let vars = inv.merged_vars("db1");
    assert_eq!(vars["host_0"].value, Value::Bool(true), "yes");
    assert_eq!(vars["host_11"].value, Value::Bool(false), "OFF");
    assert_eq!(vars["quoted_0"].value, Value::String("yes".into()));
    assert_eq!(vars["host_18"].value, Value::String("y".into()));

    let mut ini = String::from("[db]\n");
    write!(ini, "db1").unwrap();
    for (i, w) in words.iter().enumerate() {
        write!(ini, " host_{i}={w}").unwrap();
    }
    ini.push_str("\n[db:vars]\n");
    for (i, w) in words.iter().enumerate() {
        writeln!(ini, "group_{i}={w}").unwrap();
    }
    let path = scratch.path().join("bools.ini");
    std::fs::write(&path, &ini).unwrap();
    let ansible = ansible_list(&program, &path, scratch.path());
    agree(&path, &ansible, &mytune_read(&path));
}
