//! Terminal-aware width of `check`'s text report (issue 15): the terminal's
//! width when stdout is one, `COLUMNS` over it, 120 when not a terminal.
//! The terminal is a real pseudo-terminal from `script` (util-linux; bsdutils
//! is essential on Debian).

use std::process::Command;

const SNAP: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/snapshots/mysql80-overcommitted-8g-4cpu.json"
);

/// The widest table line (in characters) of `check` run with `columns`
/// columns on a pseudo-terminal (`None`: through a pipe), with `env`.
fn widest_table_line(columns: Option<u16>, env: &[(&str, &str)]) -> usize {
    let bin = env!("CARGO_BIN_EXE_mytune");
    // The environment goes on the command line: the shell `script` starts
    // sets COLUMNS from the terminal itself.
    let vars: String = env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
    let check = format!("env -u COLUMNS {vars}{bin} check --snapshot {SNAP} --color never");
    let mut c = match columns {
        Some(cols) => {
            let mut c = Command::new("script");
            c.args([
                "-q",
                "-e",
                "-c",
                &format!("stty rows 50 cols {cols}; {check}"),
                "/dev/null",
            ]);
            c
        }
        None => {
            let mut c = Command::new("sh");
            c.args(["-c", &check]);
            c
        }
    };
    c.env_remove("COLUMNS");
    let out = c.output().expect("script (util-linux) runs");
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    text.lines()
        .filter(|l| l.starts_with(['┌', '│', '├', '└', '╞', '┆']))
        .map(|l| l.chars().count())
        .max()
        .unwrap_or_else(|| panic!("no table in:\n{text}"))
}

#[test]
fn tables_fit_the_terminal() {
    assert_eq!(widest_table_line(Some(80), &[]), 80);
    assert_eq!(widest_table_line(Some(100), &[]), 100);
    assert_eq!(widest_table_line(Some(200), &[]), 200);
}

#[test]
fn columns_overrides_the_terminal() {
    assert_eq!(widest_table_line(Some(200), &[("COLUMNS", "90")]), 90);
}

#[test]
fn not_a_terminal_is_120() {
    assert_eq!(widest_table_line(None, &[]), 120);
}
