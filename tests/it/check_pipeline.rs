//! The check pipeline as a library function (`mytune::check::run`), judged
//! without the binary: the same facts and files give the report `mytune
//! check` prints, with drift against the option files, the selection, the
//! header's profile and memory figures, and the notes for standard error.

use std::path::PathBuf;

use mytune::check::{CheckError, Input, Selection, Settings};
use mytune::rules::{Profile, RuleSet};

use crate::support::snapshots::snapshot;

const TUNED: &str = "mariadb1011-tuned-64g-16cpu.json";

fn input(facts: mytune::facts::Facts) -> Input {
    Input {
        facts,
        source: "snapshot tuned".into(),
        live: false,
        profile: Profile::default(),
        profile_source: "defaults".into(),
    }
}

#[test]
fn the_pipeline_reports_drift_against_the_option_files_without_the_binary() {
    let rules = RuleSet::builtin().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("my.cnf");
    // The snapshot runs max_connections = 500; the file says 300.
    std::fs::write(&cnf, "[mysqld]\nmax_connections = 300\n").unwrap();
    let config = [cnf.clone()];
    let selection = Selection::new(&[], &[]);
    let settings = Settings {
        rules: &rules,
        selection: &selection,
        config: &config,
        upgrade_to: None,
        verbose: false,
    };
    let checked = mytune::check::run(&settings, input(snapshot(TUNED))).unwrap();
    let report = &checked.report;
    let drift: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.code == "MT011")
        .collect();
    assert_eq!(drift.len(), 1, "{:#?}", report.findings);
    assert_eq!(drift[0].variable.as_deref(), Some("max_connections"));
    assert_eq!(drift[0].current.as_deref(), Some("500"));
    assert_eq!(report.header.config_files, vec![cnf.display().to_string()]);
    assert_eq!(
        report.header.profile,
        format!("{} (defaults)", Profile::default())
    );
    assert!(report.header.memory_use.is_some(), "{:#?}", report.header);
    assert!(checked.file_problems.is_empty());
    assert!(report.not_applicable.is_empty(), "only kept under verbose");
}

#[test]
fn the_selection_and_verbose_shape_the_report() {
    let rules = RuleSet::builtin().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("my.cnf");
    std::fs::write(&cnf, "[mysqld]\nmax_connections = 300\n").unwrap();
    let config: [PathBuf; 1] = [cnf];
    let selection = Selection::new(&["MT011".to_string()], &[]);
    let settings = Settings {
        rules: &rules,
        selection: &selection,
        config: &config,
        upgrade_to: None,
        verbose: true,
    };
    let report = mytune::check::run(&settings, input(snapshot(TUNED)))
        .unwrap()
        .report;
    assert!(!report.findings.is_empty());
    assert!(report.findings.iter().all(|f| f.code == "MT011"));
    assert!(
        report.header.error_log.is_some(),
        "verbose adds the log note"
    );
}

#[test]
fn facts_without_a_server_are_a_typed_error() {
    let rules = RuleSet::builtin().unwrap();
    let selection = Selection::new(&[], &[]);
    let settings = Settings {
        rules: &rules,
        selection: &selection,
        config: &[],
        upgrade_to: None,
        verbose: false,
    };
    let mut facts = snapshot(TUNED);
    facts.server = None;
    let err = mytune::check::run(&settings, input(facts)).unwrap_err();
    assert!(matches!(err, CheckError::NoServer), "{err}");
    assert!(err.to_string().contains("no server facts"));
}
