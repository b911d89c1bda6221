//! One fixture and one expected output per TOML rule and per check-side
//! built-in check (drift MT011–MT013, skipped parts MT016, error log
//! MT017–MT020), as `lint_check_snapshots` has for lint's checks.
//!
//! Each directory of `tests/fixtures/rules/` is named for a code and holds:
//!
//! - `facts.json`: a facts snapshot (serde of `mytune::facts::Facts`) the
//!   code fires on, cut down to what the code and the rules it reads
//!   beside it need; option files, when the code reads them, are its
//!   `config` part (as `check --config` loads them);
//! - `profile.toml` (optional): the deployment profile, when the code
//!   fires only under one (the default profile otherwise);
//! - `target` (optional): the server (`mysql-8.0`) a fixture without server
//!   facts is judged for, as `lint --target` gives it;
//! - `error.log` (optional): an error-log tail, parsed as `check` parses a
//!   local server's log and taken to be of the server's current run;
//! - `expected.txt`: that code's output on the fixture and nothing else,
//!   one line per finding (`CODE severity/confidence variable: current ->
//!   recommended @ file:line:col | message`), then the recommendations and
//!   withheld recommendations it adds to the set (`(by MTnnn)`: one its
//!   findings name that an earlier rule's recommendation holds already).
//!
//! Everything is judged in-process and machine-independently, on the
//! fixture alone: the rules by one `RuleSet::evaluate` (no catalog
//! defaults, no plan of `check`'s coherent evaluation, no host probing),
//! the built-in checks by the functions `check` calls after it. A code
//! without a fixture, a fixture it does not fire on, a fixture for no code,
//! or an output that changed fails here by code. `MYTUNE_BLESS=1` writes the expected files
//! anew; read the diff before committing it.
//!
//! A new rule's fixture: write any facts it fires on to
//! `tests/fixtures/rules/CODE/facts.json` (a copy of a snapshot in
//! `tests/fixtures/snapshots/` with the facts it needs), then run the
//! ignored `minimise_rule_fixtures` (`MYTUNE_MINIMISE=CODE cargo test
//! --test it rule_snapshots -- --ignored`), which drops every fact, option
//! and log line the code's output does not depend on, and bless. Without a
//! `facts.json` it starts from the smallest snapshot the code fires on.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use mytune::check::{Input, Selection, Settings, skipped};
use mytune::collect::errorlog::parse;
use mytune::facts::Facts;
use mytune::facts::errorlog::{ErrorLogFacts, ErrorLogStatus};
use mytune::registry::Registry;
use mytune::rules::builtin_check::Runs;
use mytune::rules::{EvalInput, Finding, Profile, RuleSet};
use mytune::target::Target;
use serde_json::Value;

/// Codes no offline fixture can fire, each with the reason and the live
/// test that covers it. A code listed here that fires on its fixture, or
/// that is no code at all, fails the test: the list cannot outlive its
/// reasons.
const OFFLINE_IMPOSSIBLE: &[(&str, &str)] = &[];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules")
}

/// A fixture as read: the facts (with the error log attached) and the
/// profile.
struct Fixture {
    facts: Value,
    profile: Profile,
    target: Option<Target>,
    error_log: Option<String>,
}

impl Fixture {
    fn read(dir: &Path) -> Result<Fixture, String> {
        let text = std::fs::read_to_string(dir.join("facts.json"))
            .map_err(|e| format!("{}/facts.json: {e}", dir.display()))?;
        let facts: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{}/facts.json: {e}", dir.display()))?;
        let profile = match std::fs::read_to_string(dir.join("profile.toml")) {
            Ok(t) => {
                toml::from_str(&t).map_err(|e| format!("{}/profile.toml: {e}", dir.display()))?
            }
            Err(_) => Profile::default(),
        };
        let target = match std::fs::read_to_string(dir.join("target")) {
            Ok(t) => Some(
                t.trim()
                    .parse()
                    .map_err(|e| format!("{}/target: {e}", dir.display()))?,
            ),
            Err(_) => None,
        };
        let error_log = std::fs::read_to_string(dir.join("error.log")).ok();
        Ok(Fixture {
            facts,
            profile,
            target,
            error_log,
        })
    }

    /// The facts `check` would judge: the snapshot, with the error log
    /// parsed as the collector does for a local server whose log starts
    /// at its current run.
    fn facts(&self) -> Result<Facts, String> {
        let mut facts = Facts::from_json(&self.facts.to_string())?;
        if let Some(text) = &self.error_log {
            let server = facts
                .server
                .as_mut()
                .ok_or("an error.log needs server facts")?;
            let parsed = parse(text);
            server.error_log = Some(ErrorLogFacts {
                setting: "error.log".into(),
                path: Some("error.log".into()),
                status: ErrorLogStatus::Read,
                file_bytes: text.len() as u64,
                bytes_read: text.len() as u64,
                lines_read: parsed.lines as u64,
                first_seen: parsed.first_seen.map(|s| s.display()),
                current_start: parsed.current_start.map(|s| s.display()),
                start_matches_uptime: Some(true),
                events: parsed.events,
                ..ErrorLogFacts::default()
            });
        }
        Ok(facts)
    }
}

/// What `code` says on `fixture`, one line each: its findings, then what
/// it adds to the recommendation set. Empty when it does not fire.
fn output(set: &RuleSet, code: &str, fixture: &Fixture) -> Result<String, String> {
    let facts = fixture.facts()?;
    let mut input = EvalInput::new(&facts, &fixture.profile);
    if let Some(t) = fixture.target {
        input = input.with_target(t);
    }
    let ev = set.evaluate(&input);
    let mut findings: Vec<Finding> = ev.findings.clone();
    if set.get(code).is_none() {
        findings.extend(check_findings(set, &facts, &fixture.profile));
    }
    let mut lines: Vec<String> = findings
        .iter()
        .filter(|f| f.code == code)
        .map(finding_line)
        .collect();
    for r in ev.recommendations.values().filter(|r| r.code == code) {
        lines.push(format!("recommend {} = {}", r.variable, r.value));
    }
    // A value the code's findings name that an earlier rule recommends
    // already (the first rule to recommend a variable sets it).
    let taken: BTreeSet<(String, String, String)> = findings
        .iter()
        .filter(|f| f.code == code && f.recommended.is_some())
        .filter_map(|f| ev.recommendations.get(f.variable.as_deref()?))
        .filter(|r| r.code != code)
        .map(|r| (r.variable.clone(), r.value.clone(), r.code.to_string()))
        .collect();
    for (variable, value, by) in taken {
        lines.push(format!("recommend {variable} = {value} (by {by})"));
    }
    for w in ev.withheld.values().filter(|w| w.code == code) {
        lines.push(format!(
            "withhold {} = {} | {}",
            w.variable,
            w.value,
            one_line(&w.note)
        ));
    }
    Ok(lines.iter().map(|l| format!("{l}\n")).collect())
}

/// The check-side built-in checks' findings, as `mytune check` makes them:
/// the library's check pipeline on the fixture (a snapshot: whether a file
/// changed since the start is unknown). Facts without a server have only
/// the parts skipped for a privilege.
fn check_findings(set: &RuleSet, facts: &Facts, profile: &Profile) -> Vec<Finding> {
    if facts.server.is_none() {
        return skipped::findings(&facts.skipped);
    }
    let selection = Selection::new(&[], &[]);
    let settings = Settings {
        rules: set,
        selection: &selection,
        config: &[],
        upgrade_to: None,
        verbose: false,
    };
    let input = Input {
        facts: facts.clone(),
        source: "fixture".into(),
        live: false,
        profile: profile.clone(),
        profile_source: "fixture".into(),
    };
    match mytune::check::run(&settings, input) {
        Ok(checked) => checked.report.findings,
        Err(e) => panic!("the check pipeline refused a fixture: {e}"),
    }
}

fn one_line(s: &str) -> String {
    s.replace('\n', "\\n")
}

fn finding_line(f: &Finding) -> String {
    let mut s = format!("{} {}/{}", f.code, f.severity, f.confidence);
    if let Some(v) = &f.variable {
        s.push_str(&format!(" {v}:"));
    }
    if f.current.is_some() || f.recommended.is_some() {
        let shown = |v: &Option<String>| match v.as_deref() {
            None => "-".to_string(),
            Some("") => "''".to_string(),
            Some(v) => v.to_string(),
        };
        s.push_str(&format!(
            " {} -> {}",
            shown(&f.current),
            shown(&f.recommended)
        ));
    }
    if let Some(loc) = &f.location {
        s.push_str(&format!(" @ {loc}"));
    }
    s.push_str(&format!(" | {}", one_line(&f.message)));
    if let Some(fix) = &f.fix {
        s.push_str(&format!(" | fix: {}", one_line(&fix.description)));
    }
    s
}

/// Every code the test covers: the TOML rules and the check-side built-in
/// checks (lint's have `lint_check_snapshots`).
fn codes(set: &RuleSet) -> Vec<String> {
    let lint: BTreeSet<String> = mytune::checks::ALL
        .iter()
        .filter(|c| c.runs == Runs::Lint)
        .map(|c| c.code.to_string())
        .collect();
    Registry::new(set)
        .entries()
        .iter()
        .map(|e| e.code().to_string())
        .filter(|c| !lint.contains(c))
        .collect()
}

#[test]
fn every_rule_has_a_fixture_whose_output_is_its_snapshot() {
    let set = RuleSet::builtin().expect("built-in rules load");
    let codes = codes(&set);
    assert_eq!(
        codes.len(),
        set.rules().len()
            + mytune::checks::ALL
                .iter()
                .filter(|c| c.runs != Runs::Lint)
                .count(),
        "every rule and check-side check: {codes:?}"
    );
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(fixtures()).expect("tests/fixtures/rules") {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !codes.contains(&name) {
            failures.push(format!("{name}: a fixture for no rule or check-side check"));
        }
    }
    for (code, why) in OFFLINE_IMPOSSIBLE {
        if !codes.iter().any(|c| c == code) {
            failures.push(format!(
                "{code}: in OFFLINE_IMPOSSIBLE ({why}) but no such code"
            ));
        }
    }
    for code in &codes {
        let offline_impossible = OFFLINE_IMPOSSIBLE.iter().find(|(c, _)| c == code);
        let dir = fixtures().join(code);
        if !dir.is_dir() {
            if offline_impossible.is_none() {
                failures.push(format!("{code}: no fixture in {}", dir.display()));
            }
            continue;
        }
        let got = match Fixture::read(&dir).and_then(|fx| output(&set, code, &fx)) {
            Ok(got) => got,
            Err(e) => {
                failures.push(format!("{code}: {e}"));
                continue;
            }
        };
        match (got.is_empty(), offline_impossible) {
            (true, None) => failures.push(format!(
                "{code}: does not fire on its fixture {}",
                dir.display()
            )),
            (false, Some((_, why))) => failures.push(format!(
                "{code}: fires on {}, so it is not offline-impossible ({why}): take it out of OFFLINE_IMPOSSIBLE",
                dir.display()
            )),
            _ => {}
        }
        crate::support::snapshots::expect_output(
            code,
            &dir.join("expected.txt"),
            &got,
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Profiles a rule may need to fire, tried in this order when a fixture is
/// seeded from the snapshots (`None`: the default profile).
const SEED_PROFILES: &[Option<&str>] = &[
    None,
    Some("durability = \"relaxed\"\n"),
    Some("workload = \"olap\"\n"),
    Some("workload = \"oltp\"\n"),
    Some("observability = \"full\"\n"),
    Some("observability = \"lean\"\n"),
    Some("connections = 200\n"),
    Some("connections = 5000\n"),
    Some("share = 0.5\n"),
];

/// Greedy delta debugging: the smallest sub-list of `items` (chunks
/// halving down to one item) for which `keep` still holds.
fn shrink<T: Clone>(mut items: Vec<T>, keep: &mut dyn FnMut(&[T]) -> bool) -> Vec<T> {
    let mut chunk = items.len();
    while chunk > 0 {
        let mut i = 0;
        while i < items.len() {
            let end = (i + chunk).min(items.len());
            let candidate: Vec<T> = items[..i].iter().chain(&items[end..]).cloned().collect();
            if keep(&candidate) {
                items = candidate;
            } else {
                i = end;
            }
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    items
}

fn pointer_key(k: &str) -> String {
    k.replace('~', "~0").replace('/', "~1")
}

/// Drop every object member and array element under `ptr` that `keep`
/// does not need, depth first.
fn minimise_value(root: &mut Value, ptr: &str, keep: &mut dyn FnMut(&Value) -> bool) {
    let Some(node) = root.pointer(ptr).cloned() else {
        return;
    };
    match node {
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let build = |ks: &[String]| {
                Value::Object(
                    ks.iter()
                        .map(|k| (k.clone(), map[k.as_str()].clone()))
                        .collect(),
                )
            };
            let kept = shrink(keys, &mut |ks| {
                let mut candidate = root.clone();
                *candidate.pointer_mut(ptr).unwrap() = build(ks);
                keep(&candidate)
            });
            *root.pointer_mut(ptr).unwrap() = build(&kept);
            for k in kept {
                minimise_value(root, &format!("{ptr}/{}", pointer_key(&k)), keep);
            }
        }
        Value::Array(items) => {
            let kept = shrink(items, &mut |xs| {
                let mut candidate = root.clone();
                *candidate.pointer_mut(ptr).unwrap() = Value::Array(xs.to_vec());
                keep(&candidate)
            });
            let n = kept.len();
            *root.pointer_mut(ptr).unwrap() = Value::Array(kept);
            for i in 0..n {
                minimise_value(root, &format!("{ptr}/{i}"), keep);
            }
        }
        _ => {}
    }
}

/// Writes and cuts down fixtures: for each code without a `facts.json`,
/// the smallest snapshot of `tests/fixtures/snapshots/` it fires on under
/// the first profile that fires it; then, for every code (or only those
/// in `MYTUNE_MINIMISE`, comma-separated), drops every fact and error-log
/// line its output does not depend on. Bless afterwards.
#[test]
#[ignore = "writes fixtures: run by hand to seed or cut down tests/fixtures/rules"]
fn minimise_rule_fixtures() {
    let set = RuleSet::builtin().expect("built-in rules load");
    let only: Option<BTreeSet<String>> = std::env::var("MYTUNE_MINIMISE")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    let snapshots_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/snapshots");
    let mut snapshots: Vec<(u64, PathBuf)> = std::fs::read_dir(&snapshots_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| (std::fs::metadata(&p).unwrap().len(), p))
        .collect();
    snapshots.sort();
    for code in codes(&set) {
        if only.as_ref().is_some_and(|o| !o.contains(&code)) {
            continue;
        }
        let dir = fixtures().join(&code);
        if !dir.join("facts.json").exists() {
            let seeded = SEED_PROFILES.iter().find_map(|&profile| {
                snapshots.iter().find_map(|(_, path)| {
                    let fx = Fixture {
                        facts: serde_json::from_str(&std::fs::read_to_string(path).unwrap())
                            .unwrap(),
                        profile: profile
                            .map_or_else(Profile::default, |p| toml::from_str(p).unwrap()),
                        target: None,
                        error_log: None,
                    };
                    let fires = output(&set, &code, &fx).is_ok_and(|o| !o.is_empty());
                    fires.then(|| (path.clone(), profile))
                })
            });
            let Some((path, profile)) = seeded else {
                eprintln!("{code}: fires on no snapshot; write a facts.json for it");
                continue;
            };
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::copy(&path, dir.join("facts.json")).unwrap();
            if let Some(p) = profile {
                std::fs::write(dir.join("profile.toml"), p).unwrap();
            }
            eprintln!("{code}: seeded from {}", path.display());
        }
        let mut fx = Fixture::read(&dir).unwrap();
        let wanted = output(&set, &code, &fx).unwrap();
        if wanted.is_empty() {
            eprintln!("{code}: does not fire on its facts.json; not cut down");
            continue;
        }
        let before = fx.facts.to_string().len();
        let (profile, target, log) = (fx.profile.clone(), fx.target, fx.error_log.clone());
        let mut keep = |v: &Value| {
            let candidate = Fixture {
                facts: v.clone(),
                profile: profile.clone(),
                target,
                error_log: log.clone(),
            };
            output(&set, &code, &candidate).is_ok_and(|o| o == wanted)
        };
        // Twice: a member may become droppable once another one is gone.
        for _ in 0..2 {
            minimise_value(&mut fx.facts, "", &mut keep);
        }
        std::fs::write(
            dir.join("facts.json"),
            serde_json::to_string_pretty(&fx.facts).unwrap() + "\n",
        )
        .unwrap();
        if let Some(text) = &fx.error_log {
            let facts = fx.facts.clone();
            let lines: Vec<&str> = text.lines().collect();
            let kept = shrink(lines, &mut |ls| {
                let candidate = Fixture {
                    facts: facts.clone(),
                    profile: profile.clone(),
                    target,
                    error_log: Some(ls.iter().map(|l| format!("{l}\n")).collect()),
                };
                output(&set, &code, &candidate).is_ok_and(|o| o == wanted)
            });
            let text: String = kept.iter().map(|l| format!("{l}\n")).collect();
            std::fs::write(dir.join("error.log"), text).unwrap();
        }
        eprintln!(
            "{code}: {before} -> {} bytes of facts",
            fx.facts.to_string().len()
        );
    }
}

/// MT019 judges by the rule set's model, not by numbers in code: the same
/// log (27 failed logins, 25 within one minute) is a burst with the
/// built-in thresholds, a note when a burst needs 30 a minute, and nothing
/// when 30 failed logins are needed at all.
#[test]
fn failed_login_thresholds_are_the_rule_sets_model() {
    let fixture = Fixture::read(&fixtures().join("MT019")).unwrap();
    let with_model = |noted: &str, burst: &str| {
        let files: Vec<(PathBuf, String)> = mytune::rules::builtin::BUILTIN_RULE_FILES
            .iter()
            .map(|(path, text)| {
                let text = text
                    .replace(
                        "failed_logins_noted = \"5\"",
                        &format!("failed_logins_noted = \"{noted}\""),
                    )
                    .replace(
                        "failed_logins_burst_per_minute = \"20\"",
                        &format!("failed_logins_burst_per_minute = \"{burst}\""),
                    );
                (PathBuf::from(path), text)
            })
            .collect();
        let set = RuleSet::from_sources(&files, &[]).expect("the edited rules load");
        output(&set, "MT019", &fixture).unwrap()
    };
    assert!(with_model("5", "20").starts_with("MT019 warn/high | 27 failed logins"));
    assert!(with_model("5", "30").starts_with("MT019 info/high | 27 failed logins"));
    assert_eq!(with_model("30", "30"), "");
}
