//! Which option-file lines hold a credential, and those lines with the
//! value masked, for every output that quotes a line of a file.
//!
//! Reports never show a credential's value: messages print `***` for
//! `report_password`, `wsrep_sst_auth` and every other name
//! [`crate::facts::server::is_credential`] calls a credential, and snapshots
//! store only that it was set. Option-file text also reaches outputs whole —
//! a fix's new line (JSON, SARIF), `lint --diff`, a baseline's fingerprint —
//! and each of those asks here first. A line counts as holding a secret
//! when it sets a credential option, also through a `loose-` prefix or an
//! abbreviation the server expands (`report_pass` is `report_password` to
//! MariaDB), and when it is a comment quoting such a line (`--fix`
//! comments a dropped line out: `# mytune: dropped, …: report_password = …`).

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::OnceLock;

use crate::catalog::Catalog;
use crate::cnf::{Line, LineEnding, LineKind, comment_start, split_name};
use crate::facts::server::{is_credential, is_credential_name, is_setting_value};
use crate::rules::Fix;

/// What an output shows instead of a secret.
pub const MASK: &str = "***";

/// Credential options that are not server variables: the clients'
/// `password` (`[client]`, `[mysqldump]`, …).
const CLIENT_CREDENTIALS: &[&str] = &["password"];

/// Every credential option name the catalogs know, with the clients' ones.
fn credential_names() -> &'static BTreeSet<String> {
    static NAMES: OnceLock<BTreeSet<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: BTreeSet<String> =
            CLIENT_CREDENTIALS.iter().map(|n| n.to_string()).collect();
        for t in Catalog::supported() {
            if let Ok(c) = Catalog::for_target(&t) {
                names.extend(
                    c.iter()
                        .filter(|v| is_credential_name(&v.name))
                        .map(|v| v.name.clone()),
                );
            }
        }
        names
    })
}

/// Does an option named `raw_name` (as written: dashes, `loose-`, an
/// abbreviation) hold a credential? An abbreviation counts when it reaches
/// into the last word of a credential's name (`report_p`, `wsrep_sst_au`),
/// as the server's unique-prefix expansion would take it.
pub fn is_secret_name(raw_name: &str) -> bool {
    let (name, ..) = split_name(raw_name.trim());
    if name.is_empty() {
        return false;
    }
    if is_credential_name(&name) || CLIENT_CREDENTIALS.contains(&name.as_str()) {
        return true;
    }
    credential_names().iter().any(|c| {
        let last_word = c.rfind('_').map_or(0, |i| i + 1);
        c.starts_with(&name) && name.len() > last_word && name.len() >= 3
    })
}

/// The byte range of the value of `text` when `text` is an option line
/// setting a secret (the value as written: quotes included, spaces and a
/// trailing comment not).
fn option_secret(text: &str) -> Option<Range<usize>> {
    let line = Line::parse(text, LineEnding::None);
    let LineKind::Option {
        raw_name,
        value: Some(value),
    } = &line.kind
    else {
        return None;
    };
    let (name, ..) = split_name(raw_name);
    let credential = value != MASK
        && (is_credential(&name, value)
            || (is_secret_name(raw_name) && !value.is_empty() && !is_setting_value(value)));
    if !credential {
        return None;
    }
    let eq = text.find('=')?;
    let end = comment_start(text)
        .filter(|e| *e > eq)
        .unwrap_or(text.len());
    let raw = &text[eq + 1..end];
    let start = eq + 1 + (raw.len() - raw.trim_start().len());
    let stop = eq + 1 + raw.trim_end().len();
    (start < stop).then_some(start..stop)
}

/// Where the secret value of `text` is: in the line itself, or in an
/// option line a comment quotes (after its `#`, or after a `: `).
fn secret_span(text: &str) -> Option<Range<usize>> {
    if let Some(r) = option_secret(text) {
        return Some(r);
    }
    let body = text.trim_start();
    if !(body.starts_with('#') || body.starts_with(';')) {
        return None;
    }
    let starts = text
        .char_indices()
        .filter(|(_, c)| matches!(c, '#' | ';' | ':'))
        .map(|(i, c)| i + c.len_utf8());
    for s in starts {
        if let Some(r) = option_secret(&text[s..]) {
            return Some(s + r.start..s + r.end);
        }
    }
    None
}

/// Does this line of an option file hold a secret?
pub fn holds_secret(text: &str) -> bool {
    secret_span(text).is_some()
}

/// The line with a secret's value written as [`MASK`]; unchanged when it
/// holds none.
pub fn mask_line(text: &str) -> String {
    let mut out = text.to_string();
    // Each round masks one value (a masked value is no secret any more);
    // a line holds a few at most.
    for _ in 0..8 {
        let Some(r) = secret_span(&out) else { break };
        out.replace_range(r, MASK);
    }
    out
}

/// The secret values of `old` and `new` (as written and unquoted).
fn secret_values(lines: &[&str]) -> Vec<String> {
    let mut values = Vec::new();
    for l in lines {
        if let Some(r) = secret_span(l) {
            let raw = &l[r];
            values.push(raw.to_string());
            values.push(crate::cnf::unquote_value(raw));
        }
    }
    values.retain(|v| !v.is_empty() && v != MASK);
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    values.dedup();
    values
}

/// Mask every secret of `lines` in `text` (a fix's description).
fn mask_in(text: &str, values: &[String]) -> String {
    let mut out = text.to_string();
    for v in values {
        out = out.replace(v.as_str(), MASK);
    }
    out
}

/// A fix as an output may show it: `None` when none of its lines (before
/// or after) holds a secret; otherwise a copy whose new lines and
/// description show every secret as [`MASK`]. Such a copy is for reading
/// only: applied, it would write `***`.
pub fn masked_fix(fix: &Fix) -> Option<Fix> {
    let lines: Vec<&str> = fix
        .edits
        .iter()
        .flat_map(|e| [e.old.as_str(), e.text.as_str()])
        .collect();
    if !lines.iter().any(|l| holds_secret(l)) {
        return None;
    }
    let values = secret_values(&lines);
    let mut out = fix.clone();
    out.description = mask_in(&fix.description, &values);
    for e in &mut out.edits {
        e.text = mask_in(&mask_line(&e.text), &values);
        e.old = mask_in(&mask_line(&e.old), &values);
    }
    Some(out)
}

/// A fix's description as an output may show it (its secrets masked).
pub fn shown_description(fix: &Fix) -> String {
    masked_fix(fix).map_or_else(|| fix.description.clone(), |m| m.description)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::LineEdit;

    #[test]
    fn credential_lines_and_their_abbreviations_hold_secrets() {
        for line in [
            "report_password = s3cret",
            "  loose-report-password=\"s3cret\"  # why",
            "wsrep_sst_auth = root:s3cret",
            "wsrep_sst_au = root:s3cret",
            "report_pass = s3cret",
            "password = s3cret",
            "# mytune: dropped, set again at line 4: report-password = s3cret",
            "#report_password=s3cret",
        ] {
            assert!(holds_secret(line), "{line}");
            let masked = mask_line(line);
            assert!(
                !masked.contains("s3cret") && masked.contains(MASK),
                "{masked}"
            );
        }
        for line in [
            "report_host = db1",
            "strict_password_validation = ON",
            "key_buffer_size = 64M",
            "ssl_key = /etc/mysql/key.pem",
            "rocksdb_stats_dump_period_sec = 600",
            "# a comment: nothing here",
            "report_password",
        ] {
            assert!(!holds_secret(line), "{line}");
            assert_eq!(mask_line(line), line);
        }
        assert_eq!(
            mask_line("  report_password = 'a#b'  # note"),
            "  report_password = ***  # note"
        );
    }

    #[test]
    fn a_fix_on_a_secret_line_is_masked_description_included() {
        let fix = Fix {
            description: "rename report_pass to report_password (s3cret)".into(),
            edits: vec![LineEdit {
                file: "my.cnf".into(),
                line: 2,
                old: "report_pass = s3cret".into(),
                text: "report_password = s3cret".into(),
            }],
        };
        let m = masked_fix(&fix).unwrap();
        assert_eq!(m.edits[0].text, "report_password = ***");
        assert!(!m.description.contains("s3cret"), "{}", m.description);
        let plain = Fix {
            description: "d".into(),
            edits: vec![LineEdit {
                file: "my.cnf".into(),
                line: 2,
                old: "tx_isolation = READ-COMMITTED".into(),
                text: "transaction_isolation = READ-COMMITTED".into(),
            }],
        };
        assert!(masked_fix(&plain).is_none());
    }
}
