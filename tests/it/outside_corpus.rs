//! lint's "the server will not start" against the real `mariadbd` on files
//! nobody on this project wrote (issue 52).
//!
//! The outside corpus is two things:
//!
//! - MariaDB's own test suite as Debian ships it for the installed server
//!   (package `mariadb-test-data`, `/usr/share/mysql/mysql-test`, the same
//!   release as `mariadbd`): every `*.opt` option list (command-line
//!   options, one `[mysqld]` line each) and every `*.cnf` (one file per
//!   server, `[mysqld.N]` read as `[mysqld]`), as the test runner hands them
//!   to the server, less what only it understands (`$VARIABLE` paths,
//!   `@group.option` references, `!include` of its own templates).
//! - Option files from public repositories (Docker images, a Kubernetes
//!   operator, Helm charts, an Ansible role), extracted into
//!   `MYTUNE_OUTSIDE_DIR` by `scripts/outside-corpus.sh` from the repository,
//!   path and commit listed in `bench/outside-corpus-sources.tsv`.
//!
//! Each file is judged by the server (tests/it/support/oracle.rs: `--verbose
//! --help`, then a real start on a throw-away datadir) and by `mytune lint
//! --target mariadb-10.11 --format json`; the figures are false "will not
//! start" (a crit where the server starts) and missed refusals (the server
//! refuses, lint has no crit).
//!
//! `cargo test` judges a seeded sample of the test suite's files
//! (`MYTUNE_OUTSIDE_SEED`, default 1; `MYTUNE_OUTSIDE_SAMPLE`, default 24);
//! `MYTUNE_OUTSIDE_FULL=1` (the script) judges all of them.

use crate::support::mariadb;
use crate::support::oracle::{self, Class, NOT_PROBED, Oracle};
use crate::support::run::mytune_command;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// Where Debian's `mariadb-test-data` puts the suite.
const DEBIAN_SUITE: &str = "/usr/share/mysql/mysql-test";

/// Where the server looks for plugin libraries (Debian).
const PLUGIN_DIR: &str = "/usr/lib/mysql/plugin";

/// One file to judge.
#[derive(Debug, Clone)]
struct Case {
    /// `source:path` (`mtr:main/foo-master.opt`, `mtr:rpl/x.cnf#2`).
    id: String,
    cnf: String,
    /// Option lines in it (what a finding can be about).
    lines: usize,
}

/// Why a file of the suite is left out, or `None`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Left {
    /// A plugin library this build does not ship (e.g. RocksDB, CONNECT).
    Plugin(String),
    /// Nothing left once paths and runner-only syntax are dropped.
    Empty,
}

/// A value that names a plugin library through the runner's `$X_SO`
/// variable: the library, if this build ships it.
fn plugin_library(var: &str) -> Result<String, String> {
    let stem = var
        .trim_start_matches("@ENV.")
        .trim_start_matches('$')
        .trim_matches(['{', '}']);
    let Some(base) = stem.strip_suffix("_SO") else {
        return Err(stem.to_string());
    };
    let lib = format!("{}.so", base.to_ascii_lowercase());
    if Path::new(PLUGIN_DIR).join(&lib).exists() {
        Ok(lib)
    } else {
        Err(lib)
    }
}

/// The name of an option line, as the catalog spells it (no prefix, `_`).
fn line_name(line: &str) -> String {
    let name = line
        .split('=')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let name = name.replace('-', "_");
    let mut n = name.as_str();
    n = n.strip_prefix("loose_").unwrap_or(n);
    for p in ["enable_", "disable_", "skip_"] {
        if let Some(rest) = n.strip_prefix(p)
            && NOT_PROBED.contains(&rest)
        {
            return rest.to_string();
        }
    }
    n.to_string()
}

/// Keep a line a throw-away server can be started with, resolving the
/// runner's plugin variables; `Err` names a plugin this build lacks.
fn keep_line(line: &str) -> Result<Option<String>, Left> {
    let name = line_name(line);
    if name == "plugin_load" || name == "plugin_load_add" {
        let value = line.split_once('=').map_or("", |(_, v)| v.trim());
        let mut libs = Vec::new();
        for part in value.split([';', ',']).filter(|p| !p.is_empty()) {
            // `name=library` or a bare library.
            let lib = part.rsplit('=').next().unwrap_or(part);
            let resolved = if lib.starts_with('$') || lib.starts_with("@ENV.") {
                plugin_library(lib).map_err(Left::Plugin)?
            } else if Path::new(PLUGIN_DIR).join(lib).exists()
                || Path::new(PLUGIN_DIR).join(format!("{lib}.so")).exists()
            {
                lib.to_string()
            } else {
                return Err(Left::Plugin(lib.to_string()));
            };
            libs.push(part.replace(lib, &resolved));
        }
        let key = line.split('=').next().unwrap_or("").trim();
        return Ok(Some(format!("{key}={}", libs.join(";"))));
    }
    // Paths and other values the runner fills in, and what a throw-away
    // server cannot be started with (the differential test's list).
    if line.contains('$') || line.contains('@') {
        return Ok(None);
    }
    if NOT_PROBED.contains(&name.as_str()) || name == "innodb_buffer_pool_size" {
        return Ok(None);
    }
    // A named time zone needs the time zone tables, a fact of the datadir
    // (the throw-away one has none): only SYSTEM and offsets are judged,
    // as in the differential test.
    if name == "default_time_zone"
        && !line
            .split_once('=')
            .is_some_and(|(_, v)| v.trim() == "SYSTEM" || v.trim().starts_with(['+', '-']))
    {
        return Ok(None);
    }
    // A key file is the host's, as a TLS certificate is: the Docker image's
    // test container has /etc/encryption/keys.enc, this machine does not.
    // The file is judged without it: the plugin then has no key source,
    // which both the server and lint read the same way.
    if HOST_KEY_FILES.contains(&name.as_str()) {
        return Ok(None);
    }
    Ok(Some(line.to_string()))
}

/// Key-management options that name a file of the server's host.
const HOST_KEY_FILES: &[&str] = &[
    "file_key_management_filename",
    "file_key_management_filekey",
];

/// Options the test runner reads itself from an option list.
const RUNNER_ONLY: &[&str] = &["timezone", "result_file", "force_restart"];

/// An `*.opt` option list as a `[mysqld]` file.
fn opt_file(text: &str) -> Result<(String, usize), Left> {
    let mut out = String::from("[mysqld]\n");
    let mut n = 0;
    for token in text.split_whitespace() {
        let Some(opt) = token.strip_prefix("--") else {
            continue;
        };
        if RUNNER_ONLY.contains(&line_name(opt).as_str()) {
            continue;
        }
        if let Some(line) = keep_line(opt)? {
            out.push_str(&line);
            out.push('\n');
            n += 1;
        }
    }
    if n == 0 {
        return Err(Left::Empty);
    }
    Ok((out, n))
}

/// Groups only the test runner reads.
fn runner_group(group: &str) -> bool {
    let g = group.to_ascii_lowercase();
    g == "env"
        || g.starts_with("mysqltest")
        || g.starts_with("mysqlbinlog")
        || g.starts_with("mysqld_multi")
        || g.starts_with("mysqlslap")
        || g == "embedded"
        || g.starts_with("client")
        || (g.starts_with("mysql") && !g.starts_with("mysqld"))
        || g.starts_with("mariadb-backup")
        || g.starts_with("mariabackup")
        || g.starts_with("xtrabackup")
        || g.starts_with("sst")
}

/// A test-suite `*.cnf` as one file per server it configures: `[mysqld.N]`
/// read as `[mysqld]` (the runner starts server N with
/// `--defaults-group-suffix=.N`).
fn cnf_files(text: &str) -> Result<Vec<(String, String, usize)>, Left> {
    let mut suffixes = BTreeSet::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(g) = t.strip_prefix('[').and_then(|g| g.strip_suffix(']'))
            && let Some(n) = g.strip_prefix("mysqld.")
        {
            suffixes.insert(n.to_string());
        }
    }
    if suffixes.is_empty() {
        suffixes.insert(String::new());
    }
    let mut out = Vec::new();
    for suffix in &suffixes {
        let mut file = String::new();
        let mut keep = false;
        let mut n = 0;
        for line in text.lines() {
            let t = line.trim();
            if t.starts_with('!') {
                continue;
            }
            if let Some(g) = t.strip_prefix('[').and_then(|g| g.strip_suffix(']')) {
                keep = if let Some(m) = g.strip_prefix("mysqld.") {
                    m == suffix
                } else {
                    !runner_group(g)
                };
                if keep {
                    file.push_str(if g.starts_with("mysqld.") {
                        "[mysqld]"
                    } else {
                        t
                    });
                    file.push('\n');
                }
                continue;
            }
            if !keep || t.is_empty() || t.starts_with('#') || t.starts_with(';') {
                continue;
            }
            if let Some(line) = keep_line(t)? {
                file.push_str(&line);
                file.push('\n');
                n += 1;
            }
        }
        if n > 0 {
            let tag = if suffix.is_empty() {
                String::new()
            } else {
                format!("#{suffix}")
            };
            out.push((tag, file, n));
        }
    }
    if out.is_empty() {
        return Err(Left::Empty);
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Every file of the suite, converted; and what was left out, by reason.
fn suite_cases(root: &Path) -> (Vec<Case>, BTreeMap<Left, Vec<String>>) {
    let mut paths = Vec::new();
    walk(root, &mut paths);
    paths.sort();
    let mut cases = Vec::new();
    let mut left: BTreeMap<Left, Vec<String>> = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for p in paths {
        let rel = p.strip_prefix(root).unwrap().display().to_string();
        let Ok(text) = fs::read_to_string(&p) else {
            continue;
        };
        let converted = if rel.ends_with(".opt") {
            opt_file(&text).map(|(cnf, n)| vec![(String::new(), cnf, n)])
        } else if rel.ends_with(".cnf") {
            cnf_files(&text)
        } else {
            continue;
        };
        match converted {
            Err(why) => left.entry(why).or_default().push(rel),
            Ok(files) => {
                for (tag, cnf, lines) in files {
                    // The same option list recurs across suites: judge it once.
                    if seen.insert(cnf.clone()) {
                        cases.push(Case {
                            id: format!("mtr:{rel}{tag}"),
                            cnf,
                            lines,
                        });
                    }
                }
            }
        }
    }
    (cases, left)
}

/// The files `scripts/outside-corpus.sh` extracted (`*.cnf`, named
/// `source__path.cnf`), with the same lines dropped.
fn extracted_cases(dir: &Path) -> Vec<Case> {
    let mut paths = Vec::new();
    walk(dir, &mut paths);
    paths.sort();
    let mut cases = Vec::new();
    for p in paths {
        let Ok(text) = fs::read_to_string(&p) else {
            continue;
        };
        let mut cnf = String::new();
        let mut n = 0;
        for line in text.lines() {
            let t = line.trim();
            if t.starts_with('[') || t.is_empty() || t.starts_with('#') || t.starts_with(';') {
                cnf.push_str(line);
                cnf.push('\n');
                continue;
            }
            if t.starts_with('!') {
                continue;
            }
            if let Ok(Some(l)) = keep_line(t) {
                cnf.push_str(&l);
                cnf.push('\n');
                n += 1;
            }
        }
        if n > 0 {
            cases.push(Case {
                id: format!("repo:{}", p.strip_prefix(dir).unwrap().display()),
                cnf,
                lines: n,
            });
        }
    }
    cases
}

/// lint's verdict through the command line: refuses when a finding is crit.
fn lint_verdict(cnf: &Path) -> (Class, Vec<String>) {
    let out = mytune_command()
        .args(["lint", "--target", "mariadb-10.11", "--format", "json"])
        .arg(cnf)
        .output()
        .expect("run mytune lint");
    let report: serde_json::Value = match serde_json::from_slice(&out.stdout) {
        Ok(v) => v,
        Err(e) => {
            return (
                Class::Refuses,
                vec![format!(
                    "no JSON report ({e}): {}",
                    String::from_utf8_lossy(&out.stderr)
                )],
            );
        }
    };
    let findings = report["findings"].as_array().cloned().unwrap_or_default();
    // "Will not start" is a crit of the option-file checks (MT0xx); a
    // rule's crit (MT706: skip-grant-tables) is advice about a server that
    // starts.
    let crits: Vec<String> = findings
        .iter()
        .filter(|f| {
            f["severity"] == "crit" && f["code"].as_str().is_some_and(|c| c.starts_with("MT0"))
        })
        .map(|f| {
            format!(
                "{} line {}: {}",
                f["code"].as_str().unwrap_or("?"),
                f["location"]["line"],
                f["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    if crits.is_empty() {
        (Class::Clean, Vec::new())
    } else {
        (Class::Refuses, crits)
    }
}

struct Outcome {
    case: Case,
    server: Class,
    server_lines: Vec<String>,
    lint: Class,
    lint_lines: Vec<String>,
}

fn judge_all(cases: Vec<Case>, oracle: &Oracle) -> Vec<Outcome> {
    let queue = Mutex::new(cases);
    let results = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let Some(case) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let dir = tempfile::Builder::new()
                        .prefix("mytune-outside-")
                        .tempdir()
                        .expect("temporary directory");
                    let cnf = dir.path().join("my.cnf");
                    fs::write(&cnf, &case.cnf).unwrap();
                    let scratch = dir.path().join("scratch");
                    fs::create_dir(&scratch).unwrap();
                    let verdict = oracle.judge(&cnf, &scratch).unwrap_or_else(|e| {
                        panic!("{}: the server could not judge it: {e}", case.id)
                    });
                    let (lint, lint_lines) = lint_verdict(&cnf);
                    results.lock().unwrap().push(Outcome {
                        case,
                        server: verdict.class,
                        server_lines: verdict.lines,
                        lint,
                        lint_lines,
                    });
                }
            });
        }
    });
    let mut out = results.into_inner().unwrap();
    out.sort_by(|a, b| a.case.id.cmp(&b.case.id));
    out
}

/// Print the figures by source and every disagreement; return (false "will
/// not start", missed refusals).
fn report(outcomes: &[Outcome]) -> (usize, usize) {
    // source → (files, lines, server refuses, false crits, missed)
    let mut by_source: BTreeMap<String, [usize; 5]> = BTreeMap::new();
    let (mut false_crit, mut missed) = (0, 0);
    for o in outcomes {
        let source = source_of(&o.case.id);
        let row = by_source.entry(source).or_default();
        row[0] += 1;
        row[1] += o.case.lines;
        if o.server == Class::Refuses {
            row[2] += 1;
        }
        let is_false = o.lint == Class::Refuses && o.server != Class::Refuses;
        let is_missed = o.server == Class::Refuses && o.lint != Class::Refuses;
        if is_false {
            row[3] += 1;
            false_crit += 1;
        }
        if is_missed {
            row[4] += 1;
            missed += 1;
        }
        if is_false || is_missed {
            println!(
                "DISAGREE {} | server {}: {} | lint: {}\n  file: {}",
                o.case.id,
                o.server.name(),
                o.server_lines.join(" / "),
                o.lint_lines.join(" / "),
                o.case.cnf.trim_end().replace('\n', "\\n")
            );
        }
    }
    println!("\nsource\tfiles\tlines\tserver refuses\tfalse crit\tmissed refusal");
    for (source, r) in &by_source {
        println!("{source}\t{}\t{}\t{}\t{}\t{}", r[0], r[1], r[2], r[3], r[4]);
    }
    println!(
        "outside corpus: {} files, {} option lines; false 'will not start': {false_crit}; \
         missed refusals: {missed}",
        outcomes.len(),
        outcomes.iter().map(|o| o.case.lines).sum::<usize>()
    );
    (false_crit, missed)
}

/// `mtr:rpl/x.cnf#2` → `mtr/rpl`; `repo:docker__x.cnf` → `docker`.
fn source_of(id: &str) -> String {
    if let Some(rest) = id.strip_prefix("mtr:") {
        let parts: Vec<&str> = rest.split('/').collect();
        // suite/<name>/… or <suite>/t/…: the suite's directory.
        let suite = match parts.as_slice() {
            [top, name, ..] if ["suite", "plugin"].contains(top) && parts.len() > 2 => {
                format!("{top}/{name}")
            }
            [top, ..] => top.to_string(),
            [] => String::new(),
        };
        return format!("mtr/{suite}");
    }
    let rest = id.strip_prefix("repo:").unwrap_or(id);
    rest.split("__").next().unwrap_or(rest).to_string()
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn lint_agrees_with_mariadbd_on_the_outside_corpus() {
    let suite = std::env::var_os("MYTUNE_MTR_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEBIAN_SUITE));
    if !suite.join("main").is_dir() {
        mariadb::skip_or_panic::<()>(&format!(
            "outside corpus: no MariaDB test suite at {} (apt-get install mariadb-test-data)",
            suite.display()
        ));
        return;
    }
    let Some(oracle) = Oracle::start_or_skip("outside corpus") else {
        return;
    };
    let (mut cases, left) = suite_cases(&suite);
    let crate::support::oracle::Sampling { full, seed, n } =
        crate::support::oracle::sampling("OUTSIDE", 24);
    if let Some(dir) = std::env::var_os("MYTUNE_OUTSIDE_DIR") {
        cases.extend(extracted_cases(Path::new(&dir)));
    }
    let total = cases.len();
    for (why, files) in &left {
        println!("left out ({why:?}): {} files", files.len());
    }
    if !full {
        cases = oracle::seeded_sample(cases, n, seed);
    }
    println!(
        "outside corpus against mariadbd {}: {} of {total} files, seed {seed}",
        oracle.version,
        cases.len()
    );
    assert!(!cases.is_empty(), "no file of the outside corpus to judge");
    let began = Instant::now();
    let outcomes = judge_all(cases, &oracle);
    let (false_crit, missed) = report(&outcomes);
    println!("took {:.1} s", began.elapsed().as_secs_f64());
    assert_eq!(
        false_crit, 0,
        "lint said 'will not start' where the server starts (seed {seed})"
    );
    assert_eq!(
        missed, 0,
        "the server refused files lint let through (seed {seed})"
    );
}

#[test]
fn an_option_list_becomes_one_mysqld_line_per_option() {
    let (cnf, n) = opt_file("--max-connections=77 --loose-skip-innodb-adaptive-hash-index\n--timezone=GMT-3 --secure-file-priv=$MYSQLTEST_VARDIR\n")
        .unwrap();
    assert_eq!(
        cnf,
        "[mysqld]\nmax-connections=77\nloose-skip-innodb-adaptive-hash-index\n"
    );
    assert_eq!(n, 2);
    assert_eq!(
        opt_file("--plugin-load-add=$HA_ROCKSDB_SO --default-storage-engine=rocksdb"),
        Err(Left::Plugin("ha_rocksdb.so".into()))
    );
    assert_eq!(opt_file("--datadir=$MYSQLTEST_VARDIR/x"), Err(Left::Empty));
}

#[test]
fn a_suite_cnf_gives_one_file_per_server() {
    let files = cnf_files(
        "!include ../my.cnf\n[mysqld.1]\nlog-slave-updates\nport=@mysqld.1.port\n\
         [mysqld.2]\nslave-parallel-threads=4\n[ENV]\nSERVER_MYPORT_1=@mysqld.1.port\n",
    )
    .unwrap();
    assert_eq!(
        files,
        vec![
            (
                "#1".to_string(),
                "[mysqld]\nlog-slave-updates\n".to_string(),
                1
            ),
            (
                "#2".to_string(),
                "[mysqld]\nslave-parallel-threads=4\n".to_string(),
                1
            ),
        ]
    );
}

/// The outside corpus's last missed refusal (MariaDB's test suite,
/// galera_encrypt_tmp_files): file_key_management loaded without its key
/// file fails to initialize, so an option that needs a key stops the server
/// as if no key plugin were loaded; options that only warn without keys
/// (encrypt_binlog) and a named key file (its existence is the host's, not
/// the file's) stay below crit.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn encryption_with_a_key_plugin_that_cannot_initialize_is_refused_as_the_server_does() {
    let Some(oracle) = Oracle::start_or_skip("key plugin start") else {
        return;
    };
    let keyless = "[mysqld]\nplugin_load_add = file_key_management\n";
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("keys.txt");
    fs::write(
        &keys,
        "1;a7addd9adea9978fda19f21e6be987880e68ac92632ca052e5bb42b1a506939a\n",
    )
    .unwrap();
    let with_keys = format!(
        "{keyless}file_key_management_filename = {}\n",
        keys.display()
    );
    let cases = [
        (format!("{keyless}encrypt_tmp_files = ON\n"), Class::Refuses),
        (
            format!("{keyless}innodb_encrypt_tables = ON\n"),
            Class::Refuses,
        ),
        (format!("{keyless}encrypt_binlog = ON\n"), Class::Warns),
        (
            format!("{with_keys}innodb_encrypt_tables = ON\n"),
            Class::Clean,
        ),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let cnf = dir.path().join(format!("case{i}.cnf"));
        fs::write(&cnf, text).unwrap();
        let scratch = dir.path().join(format!("scratch{i}"));
        fs::create_dir(&scratch).unwrap();
        let verdict = oracle.judge(&cnf, &scratch).unwrap();
        assert_eq!(
            verdict.class, *expected,
            "{text}: the server says {:?}",
            verdict.lines
        );
        let out = mytune_command()
            .args(["lint", "--target", "mariadb-10.11", "--format", "json"])
            .arg(&cnf)
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let crit: Vec<&serde_json::Value> = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["severity"] == "crit")
            .collect();
        assert_eq!(
            !crit.is_empty(),
            *expected == Class::Refuses,
            "{text}: lint's crits {crit:#?}"
        );
        if *expected == Class::Refuses {
            let m = crit[0]["message"].as_str().unwrap();
            assert!(m.contains("without file_key_management_filename"), "{m}");
        }
    }
}
