//! `docs/rules.md` is generated from the rules; this test fails when it has
//! drifted from them.

use mytune::rules::{RuleSet, articles};

#[test]
fn docs_rules_md_is_up_to_date() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    let generated = mytune::registry::markdown(&RuleSet::builtin().expect("built-in rules load"));
    assert!(
        committed == generated,
        "docs/rules.md is out of date with the registry (rules/*.toml and the built-in checks); regenerate it with\n    cargo run -- rules --format markdown > docs/rules.md"
    );
}

/// Generated option files print the first sentence of a recommending rule's
/// rationale as the line's "why"; it has to give a reason, not cite an
/// article (the article's view belongs further on in the rationale).
#[test]
fn recommending_rules_open_their_rationale_with_a_reason() {
    let set = RuleSet::builtin().expect("built-in rules load");
    let mut offenders = Vec::new();
    for rule in set.rules().iter().filter(|r| !r.recommend.is_empty()) {
        let text = rule.rationale.trim();
        let first = text.split(". ").next().unwrap_or(text).to_lowercase();
        let cites = [
            "the article",
            "the source articles",
            "the tianyi cloud",
            "percona's",
        ]
        .iter()
        .any(|p| first.starts_with(p))
            || articles::ARTICLES
                .iter()
                .any(|a| first.starts_with(&a.title.to_lowercase()));
        if cites {
            offenders.push(format!("{}: {}", rule.code, first));
        }
    }
    assert!(
        offenders.is_empty(),
        "rationales that open with an article citation:\n{}",
        offenders.join("\n")
    );
}
