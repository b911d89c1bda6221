//! `docs/rules.md` is generated from the rules; this test fails when it has
//! drifted from them.

use mytune::rules::{RuleSet, docs};

#[test]
fn docs_rules_md_is_up_to_date() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    let generated = docs::markdown(&RuleSet::builtin().expect("built-in rules load"));
    assert!(
        committed == generated,
        "docs/rules.md is out of date with rules/*.toml; regenerate it with\n    cargo run -- rules --format markdown > docs/rules.md"
    );
}
