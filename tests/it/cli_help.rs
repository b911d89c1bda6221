//! The command line as a new user meets it (issue 15): completions and the
//! manual page from the clap definition, help that lists every value and
//! exit status, `mytune help --help`, and `rules` listing the built-in checks.

use crate::support::run::{mytune, stderr, stdout};

/// `args` exits 0 and prints something on standard output.
fn ok_stdout(args: &[&str]) -> String {
    let o = mytune(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.trim().is_empty(), "{args:?} printed nothing");
    out
}

const COMMANDS: [&str; 9] = [
    "rules",
    "explain",
    "lint",
    "collect",
    "check",
    "gen-cnf",
    "gen-sysctl",
    "gen-limits",
    "completions",
];

#[test]
fn completions_for_every_shell_name_the_commands() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = ok_stdout(&["completions", shell]);
        for cmd in COMMANDS {
            assert!(out.contains(cmd), "{shell}: {cmd} missing");
        }
        // fish spells long options `-l fail-on`.
        assert!(out.contains("fail-on"), "{shell}: --fail-on missing");
    }
    let bash = ok_stdout(&["completions", "bash"]);
    assert!(
        bash.contains("complete -F"),
        "not a bash completion:\n{bash}"
    );
    assert!(
        bash.contains("mytune__subcmd__lint"),
        "no lint completion:\n{bash}"
    );
    // Value lists reach the completions too.
    assert!(bash.contains("info warn crit"), "{bash}");
}

#[test]
fn completions_refuse_an_unknown_shell() {
    let o = mytune(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("possible values"), "{}", stderr(&o));
}

#[test]
fn man_page_is_roff_with_every_command() {
    let out = ok_stdout(&["man"]);
    assert!(out.contains(".TH mytune 1"), "{out}");
    // roff escapes dashes.
    let out = out.replace("\\-", "-");
    for cmd in COMMANDS {
        assert!(out.contains(cmd), "{cmd} missing from the man page");
    }
    assert!(out.contains("Exit status"), "{out}");
}

#[test]
fn man_dir_writes_one_page_per_command() {
    let d = tempfile::tempdir().unwrap();
    let o = mytune(&["man", "--dir", d.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for page in [
        "mytune.1",
        "mytune-lint.1",
        "mytune-check.1",
        "mytune-gen-cnf.1",
    ] {
        let text = std::fs::read_to_string(d.path().join(page)).unwrap_or_default();
        assert!(text.contains(".TH"), "{page}: {text}");
    }
    let lint = std::fs::read_to_string(d.path().join("mytune-lint.1")).unwrap();
    assert!(lint.contains("fail\\-on"), "{lint}");
}

#[test]
fn enumerated_options_list_their_values() {
    let lint = ok_stdout(&["lint", "--help"]);
    for needle in [
        "[possible values: info, warn, crit]",
        "text",
        "json",
        "sarif",
        "github",
        "markdown",
    ] {
        assert!(lint.contains(needle), "lint --help lacks {needle}:\n{lint}");
    }
    let gen_cnf = ok_stdout(&["gen-cnf", "--help"]);
    for needle in [
        "[possible values: oltp, olap, mixed]",
        "[possible values: strict, relaxed]",
        "[possible values: ssd, hdd]",
        "VERIFY_IDENTITY",
    ] {
        assert!(
            gen_cnf.contains(needle),
            "gen-cnf --help lacks {needle}:\n{gen_cnf}"
        );
    }
    let check = ok_stdout(&["check", "--help"]);
    for needle in [
        "[possible values: info, warn, crit]",
        "DISABLED",
        "PREFERRED",
        "REQUIRED",
        "VERIFY_CA",
        "VERIFY_IDENTITY",
        "auto",
        "always",
        "never",
    ] {
        assert!(
            check.contains(needle),
            "check --help lacks {needle}:\n{check}"
        );
    }
}

#[test]
fn target_help_lists_the_supported_series() {
    for cmd in ["lint", "gen-cnf", "gen-sysctl", "gen-limits"] {
        let out = ok_stdout(&[cmd, "--help"]);
        for series in [
            "mysql-5.7",
            "mysql-8.0",
            "mysql-8.4",
            "mariadb-10.6",
            "mariadb-10.11",
            "mariadb-11.4",
            "percona-5.7",
            "percona-8.0",
            "percona-8.4",
            "pxc-5.7",
            "pxc-8.0",
            "pxc-8.4",
        ] {
            assert!(out.contains(series), "{cmd} --help lacks {series}:\n{out}");
        }
    }
}

#[test]
fn exit_codes_are_in_the_help() {
    for cmd in ["lint", "check"] {
        let out = ok_stdout(&[cmd, "--help"]);
        assert!(out.contains("Exit status:"), "{cmd}:\n{out}");
        assert!(
            out.contains("1  findings at or above --fail-on"),
            "{cmd}:\n{out}"
        );
        assert!(out.contains("2  usage error"), "{cmd}:\n{out}");
    }
    for cmd in [
        "collect",
        "gen-cnf",
        "gen-sysctl",
        "gen-limits",
        "rules",
        "explain",
    ] {
        let out = ok_stdout(&[cmd, "--help"]);
        assert!(out.contains("Exit status:"), "{cmd}:\n{out}");
    }
    assert!(ok_stdout(&["--help"]).contains("Exit status"));
}

#[test]
fn help_subcommand_answers_and_has_help_of_its_own() {
    let out = ok_stdout(&["help", "--help"]);
    assert!(out.contains("Usage: mytune help"), "{out}");
    let out = ok_stdout(&["help", "lint"]);
    assert!(out.contains("Usage: mytune lint"), "{out}");
    assert!(out.contains("--fail-on"), "{out}");
    // The same text as the command's own --help.
    assert_eq!(
        ok_stdout(&["help", "gen-cnf"]),
        ok_stdout(&["gen-cnf", "--help"])
    );
    assert_eq!(
        ok_stdout(&["help", "check"]),
        ok_stdout(&["check", "--help"])
    );
    let out = ok_stdout(&["help"]);
    assert!(out.contains("Usage: mytune"), "{out}");
    let o = mytune(&["help", "frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no command 'frobnicate'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn rules_lists_the_built_in_checks() {
    let out = ok_stdout(&["rules"]);
    for code in [
        "MT001", "MT002", "MT003", "MT004", "MT005", "MT006", "MT007", "MT008", "MT009", "MT010",
        "MT011", "MT012", "MT013", "MT014", "MT015", "MT101",
    ] {
        assert!(
            out.contains(code),
            "{code} missing from mytune rules:\n{out}"
        );
    }
    assert!(out.contains("unknown-option"), "{out}");
    // Built-in checks come first, in code order.
    let pos = |c: &str| out.find(c).unwrap();
    assert!(pos("MT001") < pos("MT011") && pos("MT011") < pos("MT015"));
    assert!(pos("MT015") < pos("MT101"));
}

#[test]
fn version_names_the_package_version() {
    let out = ok_stdout(&["--version"]);
    assert!(
        out.starts_with(&format!("mytune {}", env!("CARGO_PKG_VERSION"))),
        "{out}"
    );
}

/// Every run with findings ended with a line on standard error explaining
/// exit 1: noise in every CI log. Standard error holds errors and warnings
/// only; the exit codes are in --help.
#[test]
fn check_is_quiet_on_stderr_when_it_only_reports_findings() {
    let snap = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/snapshots/mysql80-overcommitted-8g-4cpu.json"
    );
    let o = mytune(&["check", "--snapshot", snap, "--color", "never"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "nothing but the report");
    let help = stdout(&mytune(&["check", "--help"]));
    assert!(help.contains("1  findings at or above --fail-on"), "{help}");
}

/// `--snapshot nothere.json` gave the cause twice ("No such file or
/// directory (os error 2): No such file or directory (os error 2)").
#[test]
fn a_missing_input_names_its_cause_once() {
    let o = mytune(&["check", "--snapshot", "nothere.json"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
    assert!(err.contains("nothere.json"), "{err}");
}
