//! Unit tests of the expression language: precedence, literals, coercion,
//! missing facts, and every error kind with its position.

use std::collections::{BTreeMap, BTreeSet};

use super::*;
use crate::target::Version;

/// A scope over a fixed map of facts (`"var.x" → "ON"`); anything else is
/// missing.
struct MapScope(BTreeMap<String, Value>);

impl Scope for MapScope {
    fn fact(&mut self, r: &FactRef) -> Result<Value, EvalError> {
        let key = r.to_string();
        self.0
            .get(&key)
            .cloned()
            .ok_or_else(|| EvalError::missing(key, "not in the test scope"))
    }
    fn sysctl(&mut self, name: &str) -> Result<Value, EvalError> {
        let key = format!("sysctl.{name}");
        self.0
            .get(&key)
            .cloned()
            .ok_or_else(|| EvalError::missing(key, "not in the test scope"))
    }
}

fn scope() -> MapScope {
    let mut m = BTreeMap::new();
    let text = |k: &str, v: &str| (k.to_string(), Value::text(v, k));
    for (k, v) in [
        text("var.query_cache_type", "ON"),
        text("var.max_connections", "151"),
        text("var.innodb_buffer_pool_size", "134217728"),
        text("var.from_cnf", "128M"),
        text("var.garbage", "abc"),
        text("var.version", "10.11.19-MariaDB-0+deb12u1"),
        text("status.threads_created", "12"),
        text("sysctl.net.core.somaxconn", "4096"),
    ] {
        m.insert(k, v);
    }
    m.insert("host.memory".into(), Value::Num(16.0 * (1u64 << 30) as f64));
    m.insert("host.cpus".into(), Value::Num(8.0));
    m.insert(
        "server.version".into(),
        Value::Version(Version::new(8, 0, 32)),
    );
    m.insert("server.flavor".into(), Value::Str("mysql".into()));
    m.insert("profile.durability".into(), Value::Str("strict".into()));
    MapScope(m)
}

fn run(src: &str) -> Result<Value, EvalError> {
    let e = parse(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
    check(&e, &CheckEnv::default()).unwrap_or_else(|e| panic!("{src}: {e:?}"));
    eval(&e, &mut scope())
}

fn truth(src: &str) -> bool {
    run(src)
        .and_then(|v| v.as_bool())
        .unwrap_or_else(|e| panic!("{src}: {e}"))
}

fn num(src: &str) -> f64 {
    run(src)
        .and_then(|v| v.as_num())
        .unwrap_or_else(|e| panic!("{src}: {e}"))
}

/// The error of compiling `src`, with the 0-based column it points at.
fn compile_err(src: &str) -> (usize, String) {
    let e = parse(src)
        .and_then(|e| check(&e, &CheckEnv::default()).map(|_| ()))
        .expect_err(src);
    (e.span.start, e.message)
}

#[test]
fn precedence_and_associativity() {
    assert_eq!(num("1 + 2 * 3"), 7.0);
    assert_eq!(num("(1 + 2) * 3"), 9.0);
    assert_eq!(num("10 - 4 - 3"), 3.0);
    assert_eq!(num("8 / 4 / 2"), 1.0);
    assert_eq!(num("-2 * 3 + 1"), -5.0);
    assert!(truth("true || false && false"));
    assert!(!truth("(true || false) && false"));
    assert!(!truth("!true && true"));
    assert!(truth("1 + 1 == 2 && 3 > 2"));
    assert!(truth("2 * 3 in [5, 6]"));
}

#[test]
fn canonical_text_keeps_needed_parentheses_only() {
    let p = |s: &str| parse(s).unwrap().to_string();
    assert_eq!(p("1+2*3"), "1 + 2 * 3");
    assert_eq!(p("(1 + 2) * 3"), "(1 + 2) * 3");
    assert_eq!(
        p("!(a_b > 1)".replace("a_b", "var.a_b").as_str()),
        "!(var.a_b > 1)"
    );
    assert_eq!(p("-(1 - 2)"), "-(1 - 2)");
    assert_eq!(
        p("x.y in [1,2]".replace("x.y", "var.y").as_str()),
        "var.y in [1, 2]"
    );
}

#[test]
fn sizes_and_percentages() {
    assert_eq!(num("128M"), 134217728.0);
    assert_eq!(num("1.5G"), 1610612736.0);
    assert_eq!(num("4k"), 4096.0);
    assert_eq!(num("2T"), 2.0 * (1u64 << 40) as f64);
    assert!((num("70%") - 0.7).abs() < 1e-12);
    assert!(truth("1.5G > 1G && 1.5G < 2G"));
    assert!(truth("50% * host.memory == 8G"));
}

#[test]
fn versions_compare_numerically() {
    assert!(truth("8.0.30 > 8.0.4"));
    assert!(truth("10.11.0 > 10.6.99"));
    assert!(truth("server.version >= 8.0.30"));
    assert!(truth("server.version >= 8.0 && server.version < 8.4"));
    assert!(truth("var.version >= 10.6.0"), "a server's version string");
    assert!(truth("var.version < 11.0"));
}

#[test]
fn server_strings_are_coerced() {
    assert!(truth("var.query_cache_type"));
    assert!(truth("var.query_cache_type == \"on\""), "case-insensitive");
    assert!(truth("var.query_cache_type in [\"ON\", \"DEMAND\"]"));
    assert!(truth("var.max_connections > 100"));
    assert!(truth("var.innodb_buffer_pool_size == 128M"));
    assert!(truth("var.from_cnf == 128M"), "option-file sizes");
    assert!(truth("var.max_connections * 2 == 302"));
    let e = run("var.garbage > 1").unwrap_err();
    assert_eq!(
        e,
        EvalError::Invalid("var.garbage = 'abc' is not a number".into())
    );
    assert!(run("!var.garbage").is_err());
}

#[test]
fn missing_facts_are_reported_not_guessed() {
    let e = run("var.nope > 1").unwrap_err();
    assert_eq!(e.to_string(), "needs var.nope (not in the test scope)");
    assert!(!truth("defined(var.nope)"));
    assert!(truth("defined(var.max_connections)"));
    assert!(!truth("false && var.nope > 1"), "&& is lazy");
    assert!(truth("true || var.nope > 1"), "|| is lazy");
    assert_eq!(num("coalesce(var.nope, status.nope, 7)"), 7.0);
    assert_eq!(num("if(host.cpus > 4, 1, var.nope)"), 1.0);
    assert!(run("coalesce(var.nope, status.nope)").is_err());
    assert!(run("rate.com_select > 1").is_err());
}

#[test]
fn functions() {
    assert_eq!(num("min(3, 1, 2)"), 1.0);
    assert_eq!(num("max(3, 1, 2)"), 3.0);
    assert_eq!(num("clamp(100, 1, 64)"), 64.0);
    assert_eq!(num("clamp(-5, 1, 64)"), 1.0);
    assert_eq!(num("round_to(300M, 128M)"), 256.0 * (1u64 << 20) as f64);
    assert_eq!(num("round_down(250M, 128M)"), 128.0 * (1u64 << 20) as f64);
    assert_eq!(num("round_up(129M, 128M)"), 256.0 * (1u64 << 20) as f64);
    assert_eq!(num("floor(2.7) + ceil(2.1) + round(2.5)"), 8.0);
    assert_eq!(num("num(var.from_cnf)"), 134217728.0);
    assert!(truth("bool(var.query_cache_type)"));
    assert_eq!(num("sysctl(\"net.core.somaxconn\")"), 4096.0);
    assert!(run("sysctl(\"net.nope\")").is_err());
    // The test scope has no data-size summary: the default Scope::engine.
    assert!(matches!(
        run("engine_tables(\"MyISAM\") == 0"),
        Err(EvalError::Missing { .. })
    ));
    assert!(!truth("defined(engine_bytes(\"*\"))"));
}

#[test]
fn engine_functions_take_a_quoted_name() {
    let (col, msg) = compile_err("engine_tables(var.x) > 0");
    assert_eq!(col, 14);
    assert!(msg.contains("quoted storage engine name"), "{msg}");
    let (_, msg) = compile_err("engine_bytes()");
    assert!(msg.contains("takes 1 argument"), "{msg}");
    let (_, msg) = compile_err("engine_tables(\"InnoDB\") == \"x\"");
    assert!(msg.contains("compares"), "{msg}");
}

#[test]
fn domain_errors_make_values_invalid() {
    assert!(matches!(run("1 / 0"), Err(EvalError::Invalid(m)) if m.contains("division by zero")));
    assert!(
        matches!(run("round_to(1, 0)"), Err(EvalError::Invalid(m)) if m.contains("positive multiple"))
    );
    assert!(matches!(run("clamp(1, 5, 2)"), Err(EvalError::Invalid(m)) if m.contains("reversed")));
}

#[test]
fn lexer_errors_point_at_the_character() {
    assert_eq!(compile_err("1 # 2").0, 2);
    let (col, msg) = compile_err("var.x > 12X");
    assert_eq!(col, 10);
    assert!(msg.contains("unknown size suffix 'X'"), "{msg}");
    let (col, msg) = compile_err("var.x == \"abc");
    assert_eq!(col, 9);
    assert!(msg.contains("unterminated string"), "{msg}");
    let (col, msg) = compile_err("var.x = 1");
    assert_eq!(col, 6);
    assert!(msg.contains("'=='"), "{msg}");
    let (col, msg) = compile_err("true & false");
    assert_eq!(col, 5);
    assert!(msg.contains("'&&'"), "{msg}");
    let (col, msg) = compile_err("1.2.3.4");
    assert_eq!(col, 0);
    assert!(msg.contains("not a number or a version"), "{msg}");
    let (_, msg) = compile_err("8.0.30M");
    assert!(msg.contains("cannot have a suffix"), "{msg}");
}

#[test]
fn parser_errors_point_at_the_token() {
    let (col, msg) = compile_err("1 +");
    assert_eq!(col, 3);
    assert!(msg.contains("end of the expression"), "{msg}");
    let (col, msg) = compile_err("min(1, 2");
    assert_eq!(col, 3);
    assert!(msg.contains("never closed"), "{msg}");
    let (col, msg) = compile_err("1 2");
    assert_eq!(col, 2);
    assert!(msg.contains("after the end"), "{msg}");
    let (col, msg) = compile_err("1 < 2 < 3");
    assert_eq!(col, 6);
    assert!(msg.contains("cannot be chained"), "{msg}");
    let (col, msg) = compile_err("2 * foo.bar");
    assert_eq!(col, 4);
    assert!(msg.contains("unknown namespace 'foo.'"), "{msg}");
    let (col, msg) = compile_err("1 + frob(2)");
    assert_eq!(col, 4);
    assert!(msg.contains("unknown function 'frob'"), "{msg}");
    let (col, msg) = compile_err("memory > 1G");
    assert_eq!(col, 0);
    assert!(msg.contains("unknown name 'memory'"), "{msg}");
    let (col, msg) = compile_err("var. > 1");
    assert_eq!(col, 5);
    assert!(msg.contains("expected a name after 'var.'"), "{msg}");
}

#[test]
fn type_errors_point_at_the_operand() {
    let (col, msg) = compile_err("host.ram > 1G");
    assert_eq!(col, 0);
    assert!(msg.contains("unknown name 'host.ram'"), "{msg}");
    let (col, msg) = compile_err("1 + \"a\"");
    assert_eq!(col, 4);
    assert!(
        msg.contains("type error: '+' needs a number, found a string"),
        "{msg}"
    );
    let (col, msg) = compile_err("host.cpus && true");
    assert_eq!(col, 0);
    assert!(
        msg.contains("'&&' needs a boolean, found a number"),
        "{msg}"
    );
    let (col, msg) = compile_err("server.flavor < \"mysql\"");
    assert_eq!(col, 0);
    assert!(msg.contains("orders numbers and versions"), "{msg}");
    let (col, msg) = compile_err("server.version > \"8.0\"");
    assert_eq!(col, 17);
    assert!(msg.contains("compares a version with a string"), "{msg}");
    let (col, msg) = compile_err("profile.durability == \"relaxd\"");
    assert_eq!(col, 22);
    assert!(msg.contains("expected strict, relaxed"), "{msg}");
    let (col, msg) = compile_err("1 + clamp(1, 2)");
    assert_eq!(col, 4);
    assert!(msg.contains("clamp() takes 3 arguments, found 2"), "{msg}");
    let (col, msg) = compile_err("sysctl(var.x)");
    assert_eq!(col, 7);
    assert!(msg.contains("quoted name"), "{msg}");
    let (_, msg) = compile_err("[1, 2]");
    assert!(msg.contains("only follow 'in'"), "{msg}");
    let (col, msg) = compile_err("if(true, 1, \"a\")");
    assert_eq!(col, 12);
    assert!(msg.contains("mixes a number and a string"), "{msg}");
    let (col, msg) = compile_err("let.x > 1");
    assert_eq!(col, 0);
    assert!(msg.contains("only a rule's when"), "{msg}");
    let (_, msg) = compile_err("rec.x > 1");
    assert!(msg.contains("only be used in a message"), "{msg}");
}

#[test]
fn lets_and_recs_resolve_in_their_environments() {
    let lets: BTreeMap<String, Type> = [("per_thread".to_string(), Type::Num)].into();
    let recs: BTreeSet<String> = ["max_connections".to_string()].into();
    let env = CheckEnv {
        lets: Some(&lets),
        recs: Some(&recs),
        any_rec: false,
        models: None,
    };
    assert!(compile("let.per_thread * 2 > rec.max_connections", &env).is_ok());
    let e = compile("let.other > 1", &env).unwrap_err();
    assert!(e.message.contains("defines: per_thread"), "{}", e.message);
    let e = compile("rec.other", &env).unwrap_err();
    assert!(e.message.contains("recommends no 'other'"), "{}", e.message);
}

#[test]
fn field_splits_on_whitespace_and_counts_from_one() {
    assert_eq!(num(r#"num(field("32768 60999", 2))"#), 60999.0);
    assert_eq!(
        num(r#"num(field(sysctl("net.core.somaxconn"), 1))"#),
        4096.0
    );
    assert!(truth(r#"field("4096 87380 6291456", 3) == 6291456"#));
    let e = run(r#"field("32768", 2)"#).unwrap_err();
    assert_eq!(e.to_string(), "field() = '32768' has no field 2");
    let e = run(r#"field("1 2", 0)"#).unwrap_err();
    assert_eq!(e.to_string(), "field() counts from 1, found 0");
    assert!(
        compile_err("field(1, 1)")
            .1
            .contains("field() splits a string")
    );
}

#[test]
fn sysctl_default_needs_a_scope_that_read_the_kernel() {
    // The test scope cannot tell "absent" from "unknown": no default.
    let e = run(r#"sysctl("net.ipv4.tcp_tw_recycle", 0)"#).unwrap_err();
    assert!(matches!(e, EvalError::Missing { .. }), "{e}");
    assert_eq!(num(r#"num(sysctl("net.core.somaxconn", 0))"#), 4096.0);
    assert!(
        compile_err(r#"sysctl("a.b", 1, 2)"#)
            .1
            .contains("takes 1 to 2")
    );
}

/// The reproducers of issue 14: each used to overflow the stack.
fn hostile(depth: usize) -> Vec<(&'static str, String)> {
    vec![
        (
            "parens",
            format!("{}true{}", "(".repeat(depth), ")".repeat(depth)),
        ),
        ("flat sum", format!("{} > 0", vec!["1"; depth].join(" + "))),
        (
            "min",
            format!("{}1{} > 0", "min(".repeat(depth), ", 2)".repeat(depth)),
        ),
        (
            "if",
            format!("{}1{} > 0", "if(true, ".repeat(depth), ", 2)".repeat(depth)),
        ),
        ("not chain", format!("{}true", "!".repeat(depth))),
        ("minus chain", format!("{}1 > 0", "-".repeat(depth))),
        (
            "in list",
            format!("{}1 in [1]{}", "(".repeat(depth), ")".repeat(depth)),
        ),
    ]
}

#[test]
fn deep_or_long_expressions_are_refused_with_a_position_not_a_stack_overflow() {
    for depth in [parser::MAX_DEPTH + 1, 10_000, 100_000] {
        for (what, src) in hostile(depth) {
            let e = parse(&src).expect_err(what);
            assert!(
                e.message.contains("nested too deeply"),
                "{what} x {depth}: {}",
                e.message
            );
            assert!(e.span.start < src.len(), "{what}: span {:?}", e.span);
        }
    }
}

#[test]
fn expressions_just_under_the_depth_limit_check_evaluate_and_print() {
    // Every recursive pass (checker, evaluator, Display, Drop) handles the
    // deepest accepted tree on a test thread's small stack.
    let depth = parser::MAX_DEPTH - 3;
    for (what, src) in hostile(depth) {
        let e = parse(&src).unwrap_or_else(|e| panic!("{what}: {e:?}"));
        check(&e, &CheckEnv::default()).unwrap_or_else(|e| panic!("{what}: {e:?}"));
        eval(&e, &mut scope()).unwrap_or_else(|e| panic!("{what}: {e:?}"));
        let printed = e.to_string();
        parse(&printed).unwrap_or_else(|e| panic!("{what} reprinted: {e:?}"));
    }
}
