//! Validation of JSON reports against the schema committed in
//! `docs/report-schema.json`, shared by the check report tests. Use with
//! `#[path = "support/report_schema.rs"] mod report_schema;`.

use std::path::Path;

use serde_json::Value;

/// Panic with every schema violation (and the report) when `report` does not
/// match `docs/report-schema.json`.
pub fn validate(report: &Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report-schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(report)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "report does not match the schema: {errors:#?}\n{report:#}"
    );
}
