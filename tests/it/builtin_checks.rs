//! The built-in checks are the modules of `src/checks/`, documented by their
//! doc comments: the build reads them (`build/builtin_checks.rs`, included
//! here) and refuses a module it cannot document, naming the file.

#[allow(dead_code)]
#[path = "../../build/builtin_checks.rs"]
mod table;

use std::path::Path;

const MODULE: &str = r#"//! A line the server cannot read.
//!
//! mysqld stops at start-up on a line it cannot parse,
//! so it is reported first.
//!
//! A second paragraph.

pub const CHECK: Check = Check {
    code: Code::from_static("MT001"),
    name: "option-file-syntax-error",
};
"#;

#[test]
fn a_modules_doc_comment_is_its_summary_and_rationale() {
    let m = table::read("option_file_syntax_error", MODULE).unwrap();
    assert_eq!(m.code, "MT001");
    assert_eq!(m.summary, "A line the server cannot read");
    assert_eq!(
        m.rationale,
        "mysqld stops at start-up on a line it cannot parse, so it is reported first.\n\n\
         A second paragraph."
    );
}

#[test]
fn a_check_module_without_documentation_is_refused_by_name() {
    let undocumented = MODULE
        .lines()
        .filter(|l| !l.starts_with("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    let e = table::read("option_file_syntax_error", &undocumented).unwrap_err();
    assert!(
        e.starts_with("option_file_syntax_error.rs: no documentation:"),
        "{e}"
    );
    // The summary and the code, no rationale.
    let summary_only = MODULE
        .lines()
        .take(1)
        .chain(MODULE.lines().skip(6))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(summary_only.contains("\npub const CHECK"), "{summary_only}");
    let e = table::read("option_file_syntax_error", &summary_only).unwrap_err();
    assert!(
        e.contains("needs a summary (the first paragraph) and a rationale"),
        "{e}"
    );
}

#[test]
fn a_check_module_needs_one_built_in_code_and_its_files_name() {
    let e = table::read("x", &MODULE.replace("Code::from_static(\"MT001\")", "c")).unwrap_err();
    assert_eq!(e, "x.rs: no code (`code: Code::from_static(\"MT0nn\")`)");
    let e = table::read(
        "option_file_syntax_error",
        &MODULE.replace("MT001", "MT101"),
    )
    .unwrap_err();
    assert_eq!(
        e,
        "option_file_syntax_error.rs: code \"MT101\" is not a built-in check's (MT0 and two digits)"
    );
    let e = table::read("syntax", MODULE).unwrap_err();
    assert_eq!(
        e,
        "syntax.rs: the check is named \"option-file-syntax-error\": its module must be \
         option_file_syntax_error.rs"
    );
}

#[test]
fn two_check_modules_with_one_code_are_refused_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("option_file_syntax_error.rs"), MODULE).unwrap();
    let twin = MODULE.replace("option-file-syntax-error", "unknown-option");
    std::fs::write(dir.path().join("unknown_option.rs"), twin).unwrap();
    let e = table::read_dir(dir.path()).unwrap_err();
    assert!(e.contains("both have code MT001"), "{e}");
    assert!(
        e.contains("option_file_syntax_error.rs") && e.contains("unknown_option.rs"),
        "{e}"
    );
}

/// The table the build wrote is the one of the modules in the tree: every
/// module is a check of `mytune::checks::ALL`, in code order, with the
/// documentation of its doc comment.
#[test]
fn every_module_of_src_checks_is_a_documented_check() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/checks");
    let modules = table::read_dir(&dir).unwrap();
    let built: Vec<(&str, &str, &str)> = mytune::checks::ALL
        .iter()
        .map(|c| (c.code.as_str(), c.summary(), c.rationale()))
        .collect();
    let read: Vec<(&str, &str, &str)> = modules
        .iter()
        .map(|m| (m.code.as_str(), m.summary.as_str(), m.rationale.as_str()))
        .collect();
    assert_eq!(built, read);
    assert!(table::docs_rs(&modules).starts_with(&format!(
        "const DOCS: [(&str, &str, &str); {}]",
        modules.len()
    )));
    assert!(
        table::modules_rs(&dir, &modules).contains("pub mod unknown_option;"),
        "every module is declared"
    );
}
