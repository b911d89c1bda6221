//! Every renderer escapes what came from the server or a file (issue 50,
//! point 7): a value or user name `</details><script>alert(1)</script>`
//! and one holding a newline and an ANSI escape sequence, through each
//! format of `lint` (text, JSON, SARIF, GitHub, Markdown) and of `check`
//! (text, JSON, Markdown) against a throw-away server: a failed login with
//! such a user name (MT019) and an `init_connect` set to such a string that
//! differs from the option file (drift, MT011/MT012).

use crate::support::mariadb;

use crate::support::run::stdout;
use std::fs;
use std::process::{Command, Output};

const HTML: &str = "</details><script>alert(1)</script>";
/// A newline and a terminal escape sequence (red text), as a value.
const NASTY: &str = "a\nb\x1b[31mred";

fn mytune(args: &[&str]) -> Output {
    crate::support::run::mytune_command()
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run mytune")
}

/// No escape character, and the value's own newline did not start a line.
fn assert_inert(what: &str, out: &str) {
    assert!(
        !out.contains('\x1b'),
        "{what} passes an escape sequence:\n{out}"
    );
    assert!(
        !out.lines()
            .any(|l| l.starts_with("b\\x1b") || l.starts_with("b\x1b")),
        "{what}: a value started a line:\n{out}"
    );
}

/// Markdown: the HTML is shown as text (entities), every table row is one
/// line.
fn assert_markdown(what: &str, out: &str) {
    assert_inert(what, out);
    assert!(
        !out.contains("<script>") && !out.contains("</details>"),
        "{what}:\n{out}"
    );
    assert!(
        out.contains("&lt;/details&gt;&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{what}:\n{out}"
    );
    for l in out.lines().filter(|l| l.starts_with('|')) {
        assert!(l.ends_with('|'), "{what}: a row broken by a value: {l}");
    }
}

fn has_control(s: &str) -> bool {
    s.chars().any(char::is_control)
}

fn lint_file() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("my.cnf");
    // `\n` in a quoted value is a newline to the server's reader; the
    // escape character is written raw.
    fs::write(
        &path,
        format!("[mysqld]\nbinlog_format = \"{HTML}\"\nbinlog_row_image = \"a\\nb\x1b[31mred\"\n"),
    )
    .unwrap();
    let p = path.to_str().unwrap().to_string();
    (dir, p)
}

fn lint(path: &str, format: &str) -> String {
    stdout(&mytune(&[
        "lint",
        "--target",
        "mariadb-10.11",
        "--format",
        format,
        path,
    ]))
}

#[test]
fn lint_markdown_shows_html_and_escapes_from_a_file_as_text() {
    let (_d, p) = lint_file();
    let out = lint(&p, "markdown");
    assert_markdown("lint markdown", &out);
    assert!(out.contains("a\\\\nb\\\\x1b\\[31mred"), "{out}");
}

#[test]
fn lint_text_and_github_keep_a_value_on_its_line() {
    let (_d, p) = lint_file();
    let text = lint(&p, "text");
    assert_inert("lint text", &text);
    assert!(text.contains("'a\\nb\\x1b[31mred'"), "{text}");
    let github = lint(&p, "github");
    assert_inert("lint github", &github);
    assert!(github.lines().all(|l| l.starts_with("::")), "{github}");
    // The workflow command's own encoding of a newline, then the escape
    // written visibly.
    assert!(github.contains("a%0Ab\\x1b[31mred"), "{github}");
}

#[test]
fn lint_sarif_and_json_messages_carry_no_control_character_to_a_viewer() {
    let (_d, p) = lint_file();
    let sarif: serde_json::Value = serde_json::from_str(&lint(&p, "sarif")).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(
        results
            .iter()
            .any(|r| r["message"]["text"].as_str().unwrap().contains(HTML)),
        "SARIF viewers render message text as text: kept"
    );
    for r in results {
        let m = r["message"]["text"].as_str().unwrap();
        assert!(!has_control(m), "{m:?}");
        for v in r["properties"].as_object().unwrap().values() {
            assert!(!v.as_str().is_some_and(has_control), "{v}");
        }
    }
    // JSON is data: the value as the file holds it (the serializer escapes).
    let json: serde_json::Value = serde_json::from_str(&lint(&p, "json")).unwrap();
    assert!(
        json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["message"].as_str().unwrap().contains(NASTY)),
        "{json:#}"
    );
}

/// The check path on a real server: failed logins by user names that are
/// HTML and an escape sequence (MT019, from the error log), and an
/// `init_connect` holding HTML, a newline and an escape that differs from
/// the option file (drift). Set on the throw-away server only.
#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn check_escapes_user_names_and_server_values_in_every_format() {
    let Some(server) = mariadb::TestServer::start("") else {
        return;
    };
    server
        .sql(&format!(
            "SET GLOBAL init_connect = CONCAT('{HTML}', CHAR(10), 'x', CHAR(27), '[31mred')"
        ))
        .unwrap();
    for user in [HTML, "bad\x1b[31mred"] {
        for _ in 0..5 {
            let out = Command::new("mariadb")
                .args(["--no-defaults", "--password=wrong", "-e", "SELECT 1"])
                .arg(format!("--socket={}", server.socket.display()))
                .arg(format!("--user={user}"))
                .output()
                .expect("mariadb client");
            assert!(!out.status.success(), "the login must fail");
        }
    }
    let config = server.dir().join("drift.cnf");
    fs::write(&config, "[mysqld]\ninit_connect = \"SET NAMES utf8mb4\"\n").unwrap();
    let config = config.to_str().unwrap();
    let check = |format: &str| {
        let mut args: Vec<String> = vec!["check".into()];
        args.extend(server.mytune_args());
        args.extend(["--config", config, "--format", format].map(String::from));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = mytune(&args);
        assert!(
            out.status.code().is_some_and(|c| c < 2),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout(&out)
    };
    let json: serde_json::Value = serde_json::from_str(&check("json")).unwrap();
    let message = |code: &str| -> String {
        json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["code"] == code || f["variable"] == code)
            .and_then(|f| f["message"].as_str())
            .unwrap_or_else(|| panic!("no {code}: {json:#}"))
            .to_string()
    };
    // The reproducers reach the report (JSON keeps them exact).
    assert!(message("MT019").contains(HTML), "{}", message("MT019"));
    assert!(message("MT019").contains("bad\x1b[31mred"));
    assert!(message("init_connect").contains(&format!("{HTML}\nx\x1b[31mred")));

    let md = check("markdown");
    assert_markdown("check markdown", &md);
    assert!(md.contains("'bad\\\\x1b\\[31mred'@'localhost'"), "{md}");
    let text = check("text");
    assert_inert("check text", &text);
    assert!(text.contains("\\x1b[31mred"), "{text}");
}
