//! Property tests of the expression parser: it never panics, and the
//! canonical text of a parsed expression parses back to the same text.

use mytune::rules::expr::parse;
use proptest::prelude::*;

proptest! {
    #[test]
    fn parser_never_panics(s in "\\PC{0,40}") {
        let _ = parse(&s);
    }

    #[test]
    fn parser_never_panics_on_expression_like_text(
        s in "[a-z_.0-9 ()\\[\\],+*/<>=!&|%\"'-]{0,40}"
    ) {
        let _ = parse(&s);
    }

    #[test]
    fn canonical_text_round_trips(
        a in 0u32..1000, b in 0u32..1000, c in 0u32..1000,
        op1 in prop::sample::select(vec!["+", "-", "*", "/"]),
        op2 in prop::sample::select(vec!["+", "-", "*", "/"]),
        cmp in prop::sample::select(vec!["<", "<=", "==", "!=", ">", ">="]),
        paren in any::<bool>(),
    ) {
        let src = if paren {
            format!("({a} {op1} var.x) {op2} {b} {cmp} min({c}, host.memory)")
        } else {
            format!("{a} {op1} var.x {op2} {b} {cmp} min({c}, host.memory) || !defined(status.y)")
        };
        let once = parse(&src).unwrap().to_string();
        let twice = parse(&once).unwrap().to_string();
        prop_assert_eq!(once, twice);
    }
}

mod loader_and_evaluator {
    use std::path::PathBuf;

    use mytune::facts::Facts;
    use mytune::rules::{EvalInput, Profile, RuleSet};
    use proptest::prelude::*;

    fn rule_with(when: &str, message: &str) -> String {
        format!(
            "[[rule]]\ncode = \"MT901\"\nname = \"x-y\"\nfamily = \"compat\"\nseverity = \"warn\"\nwhen = {when:?}\nmessage = {message:?}\nrationale = \"r\"\n[[rule.sources]]\ntitle = \"t\"\n"
        )
    }

    proptest! {
        /// Any text in `when` or `message` loads or is a located error.
        #[test]
        fn loader_never_panics(when in "\\PC{0,30}", message in "\\PC{0,30}") {
            let text = rule_with(&when, &message);
            if let Err(e) = RuleSet::from_sources(&[], &[(PathBuf::from("p.toml"), text)]) {
                prop_assert!(e.to_string().starts_with("p.toml:"), "{}", e);
            }
        }

        /// Whatever a server reports, evaluation yields findings or reasons,
        /// never a panic.
        #[test]
        fn evaluation_never_panics(
            values in prop::collection::vec("\\PC{0,12}|[0-9]{1,20}|-?[0-9]{1,4}[KMGkmg]?|ON|OFF", 12)
        ) {
            let text = std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/snapshots/mysql57-defaults-16g-16cpu.json"
            ))
            .unwrap();
            let mut facts = Facts::from_json(&text).unwrap();
            let server = facts.server.as_mut().unwrap();
            let names: Vec<String> = server.variables.keys().cloned().collect();
            for (name, v) in names.iter().zip(values.iter()) {
                server.variables.insert(name.clone(), v.clone());
            }
            server.status.insert("connections".into(), values[0].clone());
            let profile = Profile::default();
            let set = RuleSet::builtin().unwrap();
            let _ = set.evaluate(&EvalInput::new(&facts, &profile));
        }
    }
}
