//! MT016: a part of the collection that was skipped for a missing privilege
//! or a reply past `--read-timeout` is a finding, not only a line in the
//! header.
//!
//! With a USAGE-only account, or an account audit waiting on a lock, the
//! audit is skipped, the security rules become "not applicable", and
//! `check` would pass where root's run fails. A warn finding naming what is
//! unknown and why makes the gap visible to people and to `--fail-on` gates
//! alike.

use crate::checks;
use crate::facts::Skipped;
use crate::rules::{Finding, Severity};

/// Was the part skipped because its reply did not come within
/// `--read-timeout`? (The connection was then dropped and opened again.)
pub fn timed_out(s: &Skipped) -> bool {
    s.reason.contains("(--read-timeout)")
}

/// One warn finding per part skipped for a privilege ("needs ...") or for a
/// reply that did not come within `--read-timeout`.
pub fn findings(skipped: &[Skipped]) -> Vec<Finding> {
    skipped
        .iter()
        .filter(|s| s.reason.starts_with("needs ") || timed_out(s))
        .map(|s| {
            let what = describe(&s.what);
            let fix = if timed_out(s) {
                "; its connection was dropped with the reply still owed and another opened, so no later reply was misread; raise --read-timeout, or find what makes the statement wait (SHOW PROCESSLIST: a lock?)"
            } else {
                ""
            };
            let mut f = checks::collection_incomplete::CHECK.finding(
                Severity::Warn,
                format!(
                    "{what} not read: {}; it is unknown, not zero or empty: the rules that need it are not applicable, so this report cannot vouch for them{fix}",
                    s.reason
                ),
                None,
                None,
            );
            f.tags = vec!["collection".to_string()];
            f
        })
        .collect()
}

/// What a skipped part holds, and so what is unknown, in words.
fn describe(what: &str) -> String {
    match what {
        "" => "a part".into(),
        "accounts" => {
            "the account audit (empty passwords, anonymous and remote root accounts)".into()
        }
        "data_size" => "the data size per engine (bytes and tables of InnoDB, MyISAM, ...)".into(),
        "grants" => "this account's own grants".into(),
        "database grants" => "the database grants to every user (mysql.db)".into(),
        "host_cache" => "the host cache (connection errors per client host)".into(),
        other => other.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn privilege_gaps_are_warn_findings_naming_the_privilege() {
        let skipped = [
            Skipped {
                what: "accounts".into(),
                reason: "needs SELECT on mysql.global_priv".into(),
            },
            Skipped {
                what: "data size".into(),
                reason: "timed out".into(),
            },
            Skipped {
                what: "accounts".into(),
                reason: "timed out after 3 s waiting for the server's reply (--read-timeout)"
                    .into(),
            },
        ];
        let f = findings(&skipped);
        assert_eq!(f.len(), 2);
        assert!(
            f[1].message.contains("raise --read-timeout"),
            "{}",
            f[1].message
        );
        assert_eq!(f[0].code, "MT016");
        assert_eq!(f[0].severity, Severity::Warn);
        assert!(f[0].message.contains("SELECT on mysql.global_priv"));
    }
}
