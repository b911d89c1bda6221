//! The layers of docs/architecture.md, held to the code: a library module
//! imports only from its own layer or below (the table is read from the
//! document, so the two cannot drift apart), no two modules import each
//! other but the one pair the document names, the library knows nothing of
//! clap, and the command line (`src/cli/`) never reaches into `commands`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`catalog` for
/// `src/catalog/line/mod.rs`).
fn module_of(file: &Path) -> String {
    let rel = file.strip_prefix(root().join("src")).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// Each library module's layer, from the table under "## Layers".
fn layers() -> BTreeMap<String, u32> {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let mut out = BTreeMap::new();
    for line in doc.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Ok(layer) = cells[1].parse::<u32>() else {
            continue;
        };
        for name in cells[2].split(',') {
            out.insert(name.trim().trim_matches('`').to_string(), layer);
        }
    }
    out
}

/// The top-level modules each library module names as `crate::NAME`.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let m = module_of(&f);
        if ["main", "cli", "commands", "lib"].contains(&m.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let entry = out.entry(m.clone()).or_default();
        let mut rest = code.as_str();
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != m && name != "stderr_line" {
                entry.insert(name);
            }
        }
    }
    out
}

#[test]
fn every_library_module_imports_only_its_own_layer_or_below() {
    let layers = layers();
    let mut wrong = Vec::new();
    for (module, uses) in imports() {
        let Some(own) = layers.get(&module) else {
            wrong.push(format!(
                "{module}: no row in docs/architecture.md's layer table"
            ));
            continue;
        };
        for u in uses {
            match layers.get(&u) {
                Some(l) if l <= own => {}
                Some(l) => wrong.push(format!("{module} (layer {own}) imports {u} (layer {l})")),
                None => wrong.push(format!("{module} imports {u}, which has no layer")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_two_library_modules_import_each_other_but_rules_and_secrets() {
    let imports = imports();
    let mut cycles = Vec::new();
    for (a, uses) in &imports {
        for b in uses {
            if a < b
                && imports.get(b).is_some_and(|u| u.contains(a))
                && (a.as_str(), b.as_str()) != ("rules", "secrets")
            {
                cycles.push(format!("{a} ⇄ {b}"));
            }
        }
    }
    assert!(cycles.is_empty(), "{}", cycles.join("\n"));
}

#[test]
fn the_library_knows_nothing_of_clap_and_the_cli_nothing_of_commands() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut wrong = Vec::new();
    for f in files {
        let m = module_of(&f);
        let text = std::fs::read_to_string(&f).unwrap();
        let rel = f.strip_prefix(root()).unwrap().display().to_string();
        let binary = ["main", "cli", "commands"].contains(&m.as_str());
        if !binary && text.contains("clap") {
            wrong.push(format!("{rel}: the library mentions clap"));
        }
        if m == "cli" && text.contains("commands::") {
            wrong.push(format!("{rel}: the command line reaches into commands"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
