//! Terminal-aware width of `check`'s text report (issue 15): the terminal's
//! width when stdout is one, `COLUMNS` over it, 120 when not a terminal;
//! below 100 columns findings are blocks instead of tables, and nothing is
//! wider than the terminal unless it is one word that cannot be broken.
//! The terminal is a real pseudo-terminal from `script` (util-linux; bsdutils
//! is essential on Debian).

use std::process::Command;

const SNAP: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/snapshots/mysql80-overcommitted-8g-4cpu.json"
);

/// The text of `check` run with `columns` columns on a pseudo-terminal
/// (`None`: through a pipe), with `env`.
fn report(columns: Option<u16>, env: &[(&str, &str)]) -> String {
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
    String::from_utf8_lossy(&out.stdout).replace('\r', "")
}

/// The widest table line (in characters) of that report.
fn widest_table_line(columns: Option<u16>, env: &[(&str, &str)]) -> usize {
    let text = report(columns, env);
    text.lines()
        .filter(|l| l.starts_with(['┌', '│', '├', '└', '╞', '┆']))
        .map(|l| l.chars().count())
        .max()
        .unwrap_or_else(|| panic!("no table in:\n{text}"))
}

#[test]
fn tables_fit_the_terminal() {
    assert_eq!(widest_table_line(Some(100), &[]), 100);
    assert_eq!(widest_table_line(Some(200), &[]), 200);
}

#[test]
fn columns_overrides_the_terminal() {
    assert_eq!(widest_table_line(Some(200), &[("COLUMNS", "110")]), 110);
}

#[test]
fn narrow_terminals_get_blocks_that_fit_and_never_split_a_name() {
    for cols in [60u16, 80] {
        let text = report(Some(cols), &[]);
        assert!(
            !text.contains('┆'),
            "{cols}: a table below 100 columns:\n{text}"
        );
        // The paste block goes into a client or an option file as it is:
        // its statements and lines are not wrapped.
        let paste = text
            .split("Suggested changes:")
            .nth(1)
            .and_then(|rest| rest.split("\n\n\n").next())
            .unwrap_or_default();
        // Diagnostics on stderr (the pseudo-terminal shows both) stay one
        // line each, as tools read them.
        let report = text.lines().filter(|l| !l.starts_with("mytune: "));
        for line in report.filter(|l| !paste.contains(*l)) {
            // Longer only when it is a single word (a path) after the indent.
            let width = line.chars().count();
            assert!(
                width <= usize::from(cols) || line.split_whitespace().count() == 1,
                "{cols}: {width} > {cols}: {line:?}"
            );
        }
        // Each finding's code opens its block, and names are whole.
        assert!(
            text.contains("MT301 memory · max_connections 2000\u{a0}→\u{a0}"),
            "{text}"
        );
        for name in [
            "innodb_buffer_pool_size",
            "max_connections",
            "sort_buffer_size",
        ] {
            assert!(text.contains(name), "{cols}: {name} split:\n{text}");
        }
        // Header lines wrap under their label.
        assert!(text.contains("\n          "), "{text}");
    }
}

#[test]
fn not_a_terminal_is_120() {
    assert_eq!(widest_table_line(None, &[]), 120);
}

/// `mytune rules` printed 131 columns, `explain` wrapped at about 100 and
/// lint's findings ran on
/// in an 80-column terminal; names such as `mariadb-secure-installation`
/// were split at their hyphen by the terminal's own wrap.
#[test]
fn rules_and_explain_fit_an_80_column_terminal() {
    let bin = env!("CARGO_BIN_EXE_mytune");
    for args in [
        "rules",
        "explain MT501",
        "explain MT702",
        "explain MT002",
        "explain MT208",
    ] {
        let out = Command::new("script")
            .args([
                "-q",
                "-e",
                "-c",
                &format!("stty rows 50 cols 80; env -u COLUMNS {bin} {args}"),
                "/dev/null",
            ])
            .env_remove("COLUMNS")
            .output()
            .expect("script (util-linux) runs");
        let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
        assert!(
            out.status.success() || args.starts_with("lint"),
            "{args}: {text}"
        );
        assert!(text.lines().count() > 3, "{args}: {text}");
        for line in text.lines() {
            let width = line.chars().count();
            assert!(
                width <= 80 || line.split_whitespace().count() == 1,
                "{args}: {width} > 80: {line:?}"
            );
        }
    }
}
