//! Property tests over hostile input for the four readers (issue 14): option
//! files, rule expressions and templates, snapshots, and sysctl / limits /
//! drop-in / `mytune.toml` files. None may panic or overflow the stack, and
//! what they accept must make sense (a port range low ≤ high, a soft limit ≤
//! its hard limit, a bounded include fan-out).
//!
//! Case counts are fixed (see `CASES`), so a run takes a few seconds in CI;
//! `PROPTEST_CASES` raises them for a longer hunt.

use std::path::Path;
use std::sync::OnceLock;

use mytune::cnf;
use mytune::facts::Facts;
use mytune::lint::{config::ProjectConfig, limits_file, sysctl_file};
use mytune::rules::expr::{self, CheckEnv};
use mytune::rules::{EvalInput, Profile, RuleSet};
use proptest::prelude::*;

/// Cases per property: about 2 s for all six in a debug build.
const CASES: u32 = 256;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(CASES),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn builtin() -> &'static RuleSet {
    static SET: OnceLock<RuleSet> = OnceLock::new();
    SET.get_or_init(|| RuleSet::builtin().expect("built-in rules"))
}

// ----------------------------------------------------------- option files

/// Bytes of option-file fragments, sometimes not UTF-8 at all.
fn cnf_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        3 => prop::sample::select(vec![
            "[mysqld]\n", "[client]\n", "[client", "password SECRET\n", "!include ",
            "!includedir .\n", "!include a.cnf\n", "=", "\"", "'", "\\", "#", ";", "\n",
            "loose-", "skip-", "max_connections = ", "innodb_buffer_pool_size=1G\n",
            "\u{feff}", "{{ x }}", " ", "\t", "\r\n",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        1 => prop::collection::vec(any::<u8>(), 0..16),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn option_files_of_any_bytes_and_includes_load_within_the_budget(
        files in prop::collection::vec(cnf_bytes(), 1..6),
    ) {
        let d = tempfile::tempdir().unwrap();
        for (i, f) in files.iter().enumerate() {
            let name = if i == 0 { "a.cnf".to_string() } else { format!("f{i}.cnf") };
            std::fs::write(d.path().join(name), f).unwrap();
        }
        let loaded = cnf::load(&d.path().join("a.cnf")).expect("the top file is readable");
        prop_assert!(loaded.files.len() <= cnf::MAX_INCLUDED_FILES + 1);
        for e in &loaded.errors {
            // Errors never quote a password line (an include's own path is
            // named, whatever it is).
            let names_a_path = e.kind.as_str().starts_with("include");
            prop_assert!(names_a_path || !e.message.contains("SECRET"), "{}", e.message);
        }
    }
}

// --------------------------------------------------- rule expressions

/// Expression-like text: runs of openers (`(`, `min(`, `!`, ...), leaves,
/// operators and closers in any order, so nesting goes far past the parser's
/// limit and brackets do not always match. Size is bounded (at most 16 runs
/// of at most 1,000 pieces).
fn expression() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "1",
        "128M",
        "50%",
        "8.0.30",
        "true",
        "'x'",
        "var.max_connections",
        "host.memory",
        "server.version",
        "status.uptime",
        "[1, 2]",
        "let.x",
        "nope",
        " + ",
        " - ",
        " * ",
        " / ",
        " && ",
        " || ",
        " == ",
        " < ",
        " >= ",
        " in ",
        ", ",
        "!",
        "-",
        "(",
        "min(",
        "if(",
        "max(",
        "defined(",
        ")",
        "]",
        "[",
        "{",
        "}",
        ":size",
        "\"",
    ]);
    prop::collection::vec((piece, 1..1000usize), 1..16).prop_map(|runs| {
        runs.into_iter()
            .map(|(p, n)| {
                // Long runs only of the pieces that nest or chain.
                let n = if matches!(p, "(" | "min(" | "if(" | "max(" | "!" | "-" | ")" | " + ") {
                    n
                } else {
                    1 + n % 3
                };
                p.repeat(n)
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn expressions_of_any_shape_never_crash(src in expression()) {
        if let Ok(e) = expr::parse(&src) {
            let _ = expr::check(&e, &CheckEnv::default());
            let printed = e.to_string();
            prop_assert!(expr::parse(&printed).is_ok(), "{printed}");
        }
    }

    #[test]
    fn rule_files_of_any_expression_and_template_load_or_fail_at_a_position(
        when in expression(),
        message in expression(),
    ) {
        let text = format!(
            "[[rule]]\ncode = \"MT190\"\nname = \"fuzzed-rule\"\nfamily = \"innodb\"\n\
             severity = \"warn\"\nwhen = '''{when}'''\nmessage = '''{{{message}}}'''\n\
             rationale = \"r\"\n[[rule.sources]]\ntitle = \"t\"\n"
        );
        let user = vec![(Path::new("fuzz.toml").to_path_buf(), text)];
        // The user file alone: loading the catalog each case would take
        // 100 ms (debug build) and test nothing more.
        if let Err(e) = RuleSet::from_sources(&[], &user) {
            prop_assert!(e.0.iter().all(|e| e.location.line > 0 || e.to_string().starts_with("fuzz.toml")), "{e}");
        }
    }
}

// ------------------------------------------------------------- snapshots

fn fixture() -> &'static serde_json::Value {
    static V: OnceLock<serde_json::Value> = OnceLock::new();
    V.get_or_init(|| {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/snapshots/mariadb1011-tuned-64g-16cpu.json");
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    })
}

/// A JSON value a hostile or broken snapshot might hold.
fn odd_value() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(Into::into),
        any::<i64>().prop_map(Into::into),
        any::<f64>().prop_map(
            |f| serde_json::Number::from_f64(f).map_or(serde_json::Value::Null, Into::into)
        ),
        "\\PC{0,20}".prop_map(Into::into),
        prop::sample::select(vec![
            "0",
            "-1",
            "18446744073709551616",
            "1e309",
            "NaN",
            "OFF",
            "ON",
            "\n::error::x",
            "\u{1b}[2J",
            "99999999999999999999G",
            "",
        ])
        .prop_map(Into::into),
        Just(serde_json::json!([])),
        Just(serde_json::json!({})),
    ]
}

/// Replace the value at a random path (by index among the keys at each
/// level) with `v`.
fn mutate(doc: &mut serde_json::Value, path: &[usize], v: serde_json::Value) {
    let mut at = doc;
    for (depth, i) in path.iter().enumerate() {
        let next = match at {
            serde_json::Value::Object(m) if !m.is_empty() => {
                let k = m.keys().nth(i % m.len()).unwrap().clone();
                m.get_mut(&k).unwrap()
            }
            serde_json::Value::Array(a) if !a.is_empty() => {
                let n = a.len();
                &mut a[i % n]
            }
            _ => break,
        };
        if depth + 1 == path.len() {
            *next = v;
            return;
        }
        at = next;
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_snapshots_are_refused_or_evaluated_without_a_crash(
        edits in prop::collection::vec((prop::collection::vec(any::<usize>(), 1..5), odd_value()), 1..6),
        truncate in prop::option::of(0usize..4000),
    ) {
        let mut doc = fixture().clone();
        for (path, v) in edits {
            mutate(&mut doc, &path, v);
        }
        let mut text = doc.to_string();
        if let Some(n) = truncate {
            let mut n = n.min(text.len());
            while !text.is_char_boundary(n) {
                n -= 1;
            }
            text.truncate(n);
        }
        if let Ok(facts) = Facts::from_json(&text) {
            if let Some(h) = &facts.host {
                prop_assert!(h.cpu.effective > 0 || h.cpu.effective_source.is_empty());
                prop_assert!(
                    h.memory.effective_bytes > 0 || h.memory.effective_source.is_empty()
                );
            }
            let profile = Profile::default();
            let ev = builtin().evaluate(&EvalInput::new(&facts, &profile));
            let out = mytune::report::text::findings(&ev.findings, "fuzz");
            prop_assert!(!out.contains('\x1b'), "an escape sequence in {}", out);
        }
    }
}

// ------------------------------------- sysctl, limits, drop-ins, mytune.toml

fn system_text() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        3 => (
            prop::sample::select(vec![
                "net.ipv4.ip_local_port_range", "net.core.somaxconn", "vm.swappiness",
                "fs.file-max", "-net/ipv4/tcp_tw_reuse", "vm.dirty_ratio", "x",
            ]),
            prop::collection::vec(-70000i64..70000, 0..4),
        )
            .prop_map(|(k, v)| format!("{k} = {}", v.iter().map(i64::to_string).collect::<Vec<_>>().join(" "))),
        2 => (
            prop::sample::select(vec!["LimitNOFILE", "LimitNPROC", "Restart"]),
            prop::sample::select(vec!["10:5", "5:10", "infinity", "1024", "x:y", ":", "-1", "10:infinity", "infinity:10"]),
        )
            .prop_map(|(k, v)| format!("{k}={v}")),
        2 => (
            prop::sample::select(vec!["*", "mysql", "@mysql", "root"]),
            prop::sample::select(vec!["soft", "hard", "-", "bogus"]),
            prop::sample::select(vec!["nofile", "nproc", "core"]),
            prop::sample::select(vec!["1", "unlimited", "-1", "x", "99999999999999999999"]),
        )
            .prop_map(|(d, t, i, v)| format!("{d} {t} {i} {v}")),
        1 => prop::sample::select(vec!["[Service]", "[Unit]", "# c", "; c", ""]).prop_map(str::to_string),
        1 => "\\PC{0,30}",
    ];
    prop::collection::vec(line, 0..20).prop_map(|l| l.join("\n"))
}

fn toml_text() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        (
            prop::sample::select(vec![
                "memory",
                "cpus",
                "target",
                "disk",
                "share",
                "connections",
                "durability",
                "workload"
            ]),
            prop::sample::select(vec![
                "64",
                "\"64G\"",
                "\"23.5G\"",
                "\"1.G\"",
                "0",
                "-1",
                "\"ssd\"",
                "0.5",
                "2.0",
                "\"mysql-8.0\"",
                "\"relaxed\"",
                "[]",
                "{}",
                "\"\"",
                "1e400",
            ]),
        )
            .prop_map(|(k, v)| format!("{k} = {v}")),
        "\\PC{0,30}",
    ];
    prop::collection::vec(line, 0..10).prop_map(|l| l.join("\n"))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn system_files_never_crash_and_accept_only_sense(text in system_text()) {
        let f = Path::new("fuzz.conf");
        let (entries, _) = sysctl_file::parse(&text, f);
        for e in entries.iter().filter(|e| e.key == "net.ipv4.ip_local_port_range") {
            let p: Vec<i64> = e.value.split(' ').map(|x| x.parse().unwrap()).collect();
            prop_assert!(p.len() == 2 && p[0] <= p[1] && p[0] >= 1, "{}", e.value);
        }
        for e in entries.iter().filter(|e| e.key == "net.core.somaxconn") {
            prop_assert!(!e.value.starts_with('-'), "{}", e.value);
        }
        let _ = limits_file::parse_limits_conf(&text, f);
        let (dropin, _) = limits_file::parse_dropin(&text, f);
        for pair in dropin.chunks(2) {
            if let [soft, hard] = pair {
                prop_assert!(soft.value.as_u64() <= hard.value.as_u64());
            }
        }
    }

    #[test]
    fn mytune_toml_never_crashes_and_memory_has_a_unit(text in toml_text()) {
        if let Ok(cfg) = ProjectConfig::parse(&text, Path::new("mytune.toml"))
            && let Some(h) = &cfg.host
        {
            let m = h.memory.effective_bytes;
            prop_assert!(
                m >= 1 << 10 || h.memory.effective_source.is_empty(),
                "memory {m} from {text}"
            );
            prop_assert!(h.cpu.effective > 0 || h.cpu.effective_source.is_empty(), "{text}");
        }
    }
}
