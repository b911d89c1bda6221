//! Differential test of `lint --fix`: a fix keeps the server's meaning.
//!
//! For each generated option file the test runs `mytune lint --fix` for
//! MariaDB 10.11 and asks the installed `mariadbd` how it reads the file
//! before and after (tests/it/support/oracle.rs): the variables `--verbose
//! --help` prints, and for a line a storage engine reads as it starts
//! (`innodb_*`, `aria_*`), the global variables of a real start. They must
//! be equal: every fix mytune offers for MariaDB (a unique prefix written
//! out, a removed no-op commented out, a clamped number written as the
//! server runs it, an earlier duplicate commented out) changes how the file
//! reads, never what the server does. A file the server refused may only be
//! fixed into one it starts with the fixed lines left out. A second `--fix`
//! changes nothing.
//!
//! The corpus is what authors get wrong: a letter typo and a word typo (a
//! word dropped, swapped or added) of every option name, unique prefixes,
//! `loose-` forms of each, names removed from MariaDB or MySQL, legacy
//! names from old manuals, numbers off their range or block, and options
//! set twice (flag sets, lists and first-wins options among them).
//!
//! `cargo test` runs a seeded sample (`MYTUNE_FIXDIFF_SEED`, default 1;
//! `MYTUNE_FIXDIFF_SAMPLE`, default 160 cases, plus every pinned case);
//! `scripts/fix-differential.sh` runs the whole corpus
//! (`MYTUNE_FIXDIFF_FULL=1`).

use crate::support::oracle;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use mytune::catalog::{Catalog, VarKind};
use mytune::target::Target;
use oracle::{NOT_PROBED, Oracle, sample_for};

/// One option file.
#[derive(Debug, Clone)]
struct Case {
    /// What it probes: `kind:line`.
    id: String,
    cnf: String,
}

fn case(kind: &str, lines: &[&str]) -> Case {
    Case {
        id: format!("{kind}:{}", lines.join(" | ")),
        cnf: format!("[mysqld]\n{}\n", lines.join("\n")),
    }
}

/// The reproducers of the renames that changed meaning, pinned in every
/// sample.
const PINNED: &[&[&str]] = &[
    &["sort = 1M"],
    &["loose-innodb_log_size=256M"],
    &["loose-innodb_purge_size=64"],
    &["loose-replicate_db=test"],
    &["set-variable=max_connections=100"],
    &["skip-bdb"],
    &["safe-show-database"],
    &["log-slow-queries=/var/log/slow.log"],
    &["slave_parallel_type=LOGICAL_CLOCK"],
    &["max_conections = 200"],
    &["innodb_log_size = 256M"],
    &["slow_query_log = /var/log/slow.log"],
    &["performance_schema = maybe"],
    &["innodb_buffer_pool_inst = 4"],
    &["thread_pool_max_thr = 500"],
    &["innodb_log_files_in_group = 2"],
    &["max_connections = 100", "max_connections = 200"],
    &[
        "optimizer_switch = index_merge=off",
        "optimizer_switch = mrr=on",
    ],
    &["sql_mode = ANSI_QUOTES", "sql_mode = STRICT_ALL_TABLES"],
    &[
        "plugin_load_add = ha_blackhole",
        "plugin_load_add = ha_archive",
    ],
    &["replicate_do_db = a", "replicate_do_db = b"],
    &["innodb_buffer_pool_size = 33554433"],
    &["sort_buffer_size = 1"],
    &["innodb_page_size = 3k"],
    // Found by the whole corpus: a prefix that begins with a prefix word is
    // the whole name's prefix (`skip-name-r` is skip-name-resolve = ON, and
    // `skip-skip-name-resolve` would turn it OFF); a line refused for its
    // value is not renamed.
    &["skip-name-r=ON"],
    &["loose-skip-grant-=ON"],
    &["skip-slave=ON"],
    &["skip-symbolic"],
    &["profil=ON"],
    &["server=x"],
    &["replicate-rew="],
    &["time=SYSTEM"],
];

/// Option names a test can set in a file the throw-away server reads.
fn probe_names(cat: &Catalog) -> Vec<&mytune::catalog::VarInfo> {
    cat.iter()
        .filter(|v| v.status.is_current() && v.plugin.is_none())
        .filter(|v| !NOT_PROBED.contains(&v.name.as_str()))
        .collect()
}

/// `name` with one letter typo, chosen by `i`: a letter dropped, doubled,
/// two swapped, or one replaced.
fn letter_typo(name: &str, i: usize) -> String {
    let b = name.as_bytes();
    let at = (i * 7) % (b.len() - 1);
    let mut out = b.to_vec();
    match i % 4 {
        0 => {
            out.remove(at);
        }
        1 => out.insert(at, b[at]),
        2 => out.swap(at, at + 1),
        _ => out[at] = if b[at] == b'e' { b'a' } else { b'e' },
    }
    String::from_utf8(out).expect("ASCII names")
}

/// `name` with one word typo, chosen by `i`: a word dropped, two swapped,
/// or one added (`extra`, a word of another option).
fn word_typo(name: &str, i: usize, extra: &str) -> Option<String> {
    let mut words: Vec<&str> = name.split('_').collect();
    let at = i % words.len();
    match i % 3 {
        0 if words.len() >= 2 => {
            words.remove(at);
        }
        1 if words.len() >= 2 => {
            let j = if at + 1 < words.len() { at + 1 } else { at - 1 };
            words.swap(at, j);
        }
        _ => words.insert(at, extra),
    }
    Some(words.join("_")).filter(|n| n != name)
}

/// The whole corpus, in a stable order.
fn corpus(cat: &Catalog, others: &[&Catalog]) -> Vec<Case> {
    let mut cases: Vec<Case> = PINNED.iter().map(|l| case("pinned", l)).collect();
    let names = probe_names(cat);
    for (i, v) in names.iter().enumerate() {
        let value = sample_for(&v.name, &v.kind, v.default.as_deref());
        let typo = letter_typo(&v.name, i);
        let extra = names[(i * 13 + 5) % names.len()]
            .name
            .split('_')
            .next()
            .unwrap_or("max");
        let word = word_typo(&v.name, i, extra);
        let known = |n: &str| cat.get(n).is_some();
        if !known(&typo) {
            cases.push(case("letter", &[&format!("{typo}={value}")]));
            cases.push(case("letter", &[&format!("loose-{typo}={value}")]));
        }
        if let Some(w) = word.filter(|w| !known(w)) {
            cases.push(case("word", &[&format!("{w}={value}")]));
            cases.push(case("word", &[&format!("loose-{w}={value}")]));
        }
        let cut = v.name.len() * 2 / 3;
        if cut >= 3 {
            let p = v.name[..cut].replace('_', "-");
            cases.push(case("prefix", &[&format!("{p}={value}")]));
            cases.push(case("prefix", &[&format!("loose-{p}={value}")]));
        }
        // Set twice: the earlier line is commented out only where the
        // later one replaces it.
        if i % 5 == 0 {
            cases.push(case(
                "twice",
                &[
                    &format!("{}={value}", v.name),
                    &format!("{}={value}", v.name),
                ],
            ));
        }
        // A number off its range or block: written as the server runs it.
        match &v.kind {
            VarKind::Integer { max: Some(max), .. } if i % 2 == 0 => {
                cases.push(case("range", &[&format!("{}={}", v.name, max + 1)]));
            }
            VarKind::Size {
                min,
                block: Some(b),
                ..
            } if *b > 1 => {
                let n = min.unwrap_or(0).max(*b) * 3 + 1;
                cases.push(case("block", &[&format!("{}={n}", v.name)]));
            }
            _ => {}
        }
    }
    // Names other releases and products removed or never had.
    let mut legacy: Vec<&str> = others
        .iter()
        .chain(std::iter::once(&cat))
        .flat_map(|c| c.iter())
        .filter(|v| v.status.is_removed() || cat.get(&v.name).is_none())
        .filter(|v| v.plugin.is_none())
        .map(|v| v.name.as_str())
        .collect();
    legacy.sort_unstable();
    legacy.dedup();
    for (i, name) in legacy.iter().enumerate() {
        if i % 3 == 0 {
            cases.push(case("legacy", &[&format!("{name}=1")]));
            cases.push(case("legacy", &[&format!("loose-{name}=1")]));
        }
    }
    cases
}

/// The file after `mytune lint --fix` (the same text when nothing was
/// fixed).
fn fixed(path: &Path) -> String {
    // The whole-corpus script may run a copy of the binary, so a build
    // meanwhile does not change it under the run.
    let bin = std::env::var("MYTUNE_FIXDIFF_BIN").unwrap_or(env!("CARGO_BIN_EXE_mytune").into());
    let out = Command::new(bin)
        .args([
            "lint",
            "--target",
            "mariadb-10.11",
            "--fix",
            "--format",
            "json",
        ])
        .arg(path)
        .output()
        .expect("run mytune");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    fs::read_to_string(path).expect("read the fixed file")
}

/// Lines of `after` that differ from `before` (one line for one line).
fn changed_lines<'a>(before: &str, after: &'a str) -> Vec<&'a str> {
    before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .map(|(_, b)| b)
        .collect()
}

/// `text` without its lines that `after` changed: what a refused file
/// means once the fixed lines are gone.
fn without_changed(before: &str, after: &str) -> String {
    before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a == b)
        .map(|(a, _)| format!("{a}\n"))
        .collect()
}

/// Lines a storage engine reads as it starts: judged by a real start too.
fn engine_line(text: &str) -> bool {
    let t = text.to_ascii_lowercase().replace('-', "_");
    ["innodb", "aria", "myisam", "key_buffer", "plugin_load"]
        .iter()
        .any(|e| t.contains(e))
}

/// What went wrong with one case, if anything.
fn judge(oracle: &Oracle, c: &Case, dir: &Path) -> Result<bool, String> {
    let cnf = dir.join("my.cnf");
    fs::write(&cnf, &c.cnf).map_err(|e| e.to_string())?;
    let after = fixed(&cnf);
    if after == c.cnf {
        return Ok(false);
    }
    let again = fixed(&cnf);
    if again != after {
        return Err(format!(
            "a second --fix changed the file again:\n{after}---\n{again}"
        ));
    }
    let before_path = dir.join("before.cnf");
    fs::write(&before_path, &c.cnf).map_err(|e| e.to_string())?;
    let before_vars = oracle.variables(&before_path)?;
    let after_vars = oracle.variables(&cnf)?;
    // A refused file's meaning is "does not start": the fix may only drop
    // the lines the server refused.
    let refused = before_vars.is_empty();
    let expected = if refused {
        let rest = dir.join("rest.cnf");
        fs::write(&rest, without_changed(&c.cnf, &after)).map_err(|e| e.to_string())?;
        oracle.variables(&rest)?
    } else {
        before_vars
    };
    if after_vars.is_empty() {
        // Refused before and after for the same reason (a value mytune's
        // catalog does not validate, under a prefix and under the full
        // name): what the server does has not changed.
        if refused {
            let scratch = dir.join("why");
            fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
            let before_why = oracle.judge(&before_path, &scratch)?.lines;
            let after_why = oracle.judge(&cnf, &scratch)?.lines;
            if after_why.iter().all(|l| before_why.contains(l)) {
                return Ok(true);
            }
        }
        return Err(format!("the server refuses the fixed file:\n{after}"));
    }
    let diff = differences(&expected, &after_vars);
    if !diff.is_empty() {
        return Err(format!(
            "the fix changed what the server reads ({}):\n{after}",
            diff.join("; ")
        ));
    }
    if changed_lines(&c.cnf, &after).iter().any(|l| engine_line(l)) && !refused {
        let scratch = dir.join("scratch");
        fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
        let before_start = oracle.started_variables(&before_path, &scratch)?;
        let after_start = oracle.started_variables(&cnf, &scratch)?;
        match (before_start, after_start) {
            (Some(b), Some(a)) => {
                let diff = differences(&b, &a);
                if !diff.is_empty() {
                    return Err(format!(
                        "after a real start the fix changed ({}):\n{after}",
                        diff.join("; ")
                    ));
                }
            }
            (None, None) => {}
            // A start refused for the dropped lines (an InnoDB option the
            // server no longer has): the fixed file must start as the
            // file without them does.
            (None, Some(a)) => {
                let rest = dir.join("rest-start.cnf");
                fs::write(&rest, without_changed(&c.cnf, &after)).map_err(|e| e.to_string())?;
                match oracle.started_variables(&rest, &scratch)? {
                    Some(r) if differences(&r, &a).is_empty() => {}
                    _ => {
                        return Err(format!(
                            "a real start: before refused, after starts otherwise than without the fixed \
                             lines:\n{after}"
                        ));
                    }
                }
            }
            (b, a) => {
                return Err(format!(
                    "a real start: before {}, after {}:\n{after}",
                    if b.is_some() { "starts" } else { "refused" },
                    if a.is_some() { "starts" } else { "refused" }
                ));
            }
        }
    }
    Ok(true)
}

/// `name: before → after` for every variable that differs.
fn differences(before: &[(String, String)], after: &[(String, String)]) -> Vec<String> {
    let b: BTreeMap<_, _> = before.iter().cloned().collect();
    let a: BTreeMap<_, _> = after.iter().cloned().collect();
    let mut out = Vec::new();
    for (k, v) in &b {
        match a.get(k) {
            Some(w) if w == v => {}
            Some(w) => out.push(format!("{k}: {v} → {w}")),
            None => out.push(format!("{k}: {v} → (gone)")),
        }
    }
    for (k, w) in &a {
        if !b.contains_key(k) {
            out.push(format!("{k}: (none) → {w}"));
        }
    }
    out
}

/// The pinned cases and `n` others, chosen from `seed`.
fn sample(cases: Vec<Case>, seed: u64, n: usize) -> Vec<Case> {
    let (mut keep, rest): (Vec<Case>, Vec<Case>) =
        cases.into_iter().partition(|c| c.id.starts_with("pinned:"));
    keep.extend(oracle::seeded_sample(rest, n, seed));
    keep
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn fixes_keep_what_the_real_mariadbd_reads() {
    let Some(oracle) = Oracle::start_or_skip("lint --fix against mariadbd") else {
        return;
    };
    let target: Target = "mariadb-10.11".parse().unwrap();
    let cat = Catalog::for_target(&target).unwrap();
    let others: Vec<&Catalog> = ["mariadb-10.6", "mysql-5.7", "mysql-8.0", "mysql-8.4"]
        .iter()
        .map(|t| Catalog::for_target(&t.parse().unwrap()).unwrap())
        .collect();
    let all = corpus(cat, &others);
    let total = all.len();
    assert!(
        total >= 1000,
        "the corpus has {total} cases, fewer than 1,000"
    );
    let crate::support::oracle::Sampling { full, seed, n } =
        crate::support::oracle::sampling("FIXDIFF", 160);
    let cases = if full { all } else { sample(all, seed, n) };
    let started = std::time::Instant::now();
    let mut failures = Vec::new();
    let mut fixed_cases = 0;
    for c in &cases {
        let dir = tempfile::tempdir().unwrap();
        match judge(&oracle, c, dir.path()) {
            Ok(true) => fixed_cases += 1,
            Ok(false) => {}
            Err(why) => failures.push(format!("{}: {why}", c.id)),
        }
    }
    eprintln!(
        "fix differential: {} of {total} cases (seed {seed}), {fixed_cases} fixed, {} changed meaning, {:.1} s",
        cases.len(),
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} fix(es) changed what the server reads:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(fixed_cases > 0, "the sample had no fix to prove");
}
