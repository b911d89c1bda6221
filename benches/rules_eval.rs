//! Evaluating the whole built-in catalog on one facts snapshot (target:
//! under 1 ms). Loading (TOML parse + expression checking) is measured
//! separately since it happens once per run.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mytune::facts::Facts;
use mytune::rules::{EvalInput, Profile, RuleSet};

fn snapshot(name: &str) -> Facts {
    let path = format!(
        "{}/tests/fixtures/snapshots/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    Facts::from_json(&std::fs::read_to_string(path).expect("snapshot")).expect("parses")
}

fn bench(c: &mut Criterion) {
    let set = RuleSet::builtin().expect("built-in rules load");
    let profile = Profile::default();
    for name in [
        "mysql57-defaults-16g-16cpu.json",
        "mariadb1011-tuned-64g-16cpu.json",
    ] {
        let facts = snapshot(name);
        c.bench_function(&format!("evaluate catalog: {name}"), |b| {
            b.iter(|| set.evaluate(black_box(&EvalInput::new(&facts, &profile))))
        });
    }
    c.bench_function("load built-in catalog", |b| {
        b.iter(|| RuleSet::builtin().expect("loads"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
