//! The built-in checks' table, read from `src/checks/`: one module a check,
//! whose `//!` doc comment is its documentation (ruff's model). The first
//! paragraph is the summary, the paragraphs after it the rationale; the
//! module's `CHECK` constant gives the code and name. build.rs writes two
//! files from it: the module list with `ALL` (in code order) that
//! `src/checks/mod.rs` includes, and the documentation table
//! `rules::builtin_check` reads. A module without documentation, without a
//! code, with a code taken twice or a name that is not its file's fails the
//! build naming the file. `tests/it/builtin_checks.rs` includes this file to
//! hold those refusals.

use std::path::Path;

/// What the build reads of one check's module (its name is only held to
/// the file's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckModule {
    /// The module's name: its file name without `.rs`.
    pub module: String,
    pub code: String,
    pub summary: String,
    pub rationale: String,
}

/// Read one module's source; `module` is its file name without `.rs`.
pub fn read(module: &str, text: &str) -> Result<CheckModule, String> {
    let doc: Vec<&str> = text
        .lines()
        .map_while(|l| l.trim_start().strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l).trim_end())
        .collect();
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in doc.iter().chain([&""]) {
        if line.is_empty() {
            if !current.is_empty() {
                paragraphs.push(current.join(" "));
                current.clear();
            }
        } else {
            current.push(line);
        }
    }
    let mut paragraphs = paragraphs.into_iter();
    let summary = paragraphs.next().unwrap_or_default();
    let rationale: Vec<String> = paragraphs.collect();
    if summary.is_empty() || rationale.is_empty() {
        return Err(format!(
            "{module}.rs: no documentation: its leading `//!` doc comment needs a summary (the \
             first paragraph) and a rationale (the paragraphs after it)"
        ));
    }
    let summary = summary.strip_suffix('.').unwrap_or(&summary).to_string();
    let code = one_string(text, "Code::from_static(\"")
        .map_err(|e| format!("{module}.rs: {e} code (`code: Code::from_static(\"MT0nn\")`)"))?;
    let digits = code.strip_prefix("MT0").unwrap_or_default();
    if digits.len() != 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{module}.rs: code {code:?} is not a built-in check's (MT0 and two digits)"
        ));
    }
    let name = one_string(text, "name: \"")
        .map_err(|e| format!("{module}.rs: {e} name (`name: \"...\"`)"))?;
    if name.replace('-', "_") != module {
        return Err(format!(
            "{module}.rs: the check is named {name:?}: its module must be {}.rs",
            name.replace('-', "_")
        ));
    }
    Ok(CheckModule {
        module: module.to_string(),
        code,
        summary,
        rationale: rationale.join("\n\n"),
    })
}

/// The one string literal after `prefix` in `text`.
fn one_string(text: &str, prefix: &str) -> Result<String, &'static str> {
    let mut found = text.match_indices(prefix).map(|(at, _)| {
        let rest = &text[at + prefix.len()..];
        rest[..rest.find('"').unwrap_or(rest.len())].to_string()
    });
    match (found.next(), found.next()) {
        (Some(one), None) => Ok(one),
        (None, _) => Err("no"),
        (Some(_), Some(_)) => Err("more than one"),
    }
}

/// Every check module of `dir` (all `.rs` files but `mod.rs`), in code
/// order; a code taken twice is refused naming both files.
pub fn read_dir(dir: &Path) -> Result<Vec<CheckModule>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut checks = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        let Some(module) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().is_none_or(|e| e != "rs") || module == "mod" {
            continue;
        }
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        checks.push(read(module, &text)?);
    }
    checks.sort_by(|a, b| a.code.cmp(&b.code));
    for pair in checks.windows(2) {
        if pair[0].code == pair[1].code {
            return Err(format!(
                "{}.rs and {}.rs both have code {}",
                pair[0].module, pair[1].module, pair[0].code
            ));
        }
    }
    Ok(checks)
}

/// The module list and `ALL`, for `src/checks/mod.rs`.
pub fn modules_rs(dir: &Path, checks: &[CheckModule]) -> String {
    let mut s = String::new();
    for c in checks {
        s.push_str(&format!(
            "#[path = {:?}]\npub mod {};\n",
            dir.join(format!("{}.rs", c.module)).display().to_string(),
            c.module
        ));
    }
    s.push_str(&format!(
        "\n/// Every built-in check, in code order.\npub const ALL: [&Check; {}] = [\n",
        checks.len()
    ));
    for c in checks {
        s.push_str(&format!("    &{}::CHECK,\n", c.module));
    }
    s.push_str("];\n");
    s
}

/// The documentation table (code, summary, rationale), for
/// `rules::builtin_check`.
pub fn docs_rs(checks: &[CheckModule]) -> String {
    let mut s = format!("const DOCS: [(&str, &str, &str); {}] = [\n", checks.len());
    for c in checks {
        s.push_str(&format!(
            "    ({:?}, {:?}, {:?}),\n",
            c.code, c.summary, c.rationale
        ));
    }
    s.push_str("];\n");
    s
}
