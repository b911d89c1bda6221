//! MT016: a part of the collection that was skipped for a missing privilege
//! is a finding, not only a line in the header.
//!
//! With a USAGE-only account the account audit is skipped, the security
//! rules become "not applicable", and `check --fail-on crit` would exit 0
//! where root's run exits 1. A warn finding naming the privilege makes the
//! gap visible to people and to `--fail-on` gates alike.

use crate::facts::Skipped;
use crate::lint::checks::Check;
use crate::rules::{Finding, Severity};

pub const COLLECTION_INCOMPLETE: Check = Check {
    code: "MT016",
    name: "collection-incomplete",
    severity: Severity::Warn,
    summary: "A part of the server was not read for a missing privilege",
    rationale: "The rules that need the skipped part (the account audit, the data size, the grants) \
                cannot run, so the report is silent about them: silence is not a clean bill. Grant the \
                privilege named, or run mytune as an account that has it.",
    sources: &["https://dev.mysql.com/doc/refman/8.0/en/privileges-provided.html"],
};

/// The skipped-part checks, in code order.
pub const ALL: [Check; 1] = [COLLECTION_INCOMPLETE];

/// One warn finding per part skipped for a privilege ("needs ...").
pub fn findings(skipped: &[Skipped]) -> Vec<Finding> {
    skipped
        .iter()
        .filter(|s| s.reason.starts_with("needs "))
        .map(|s| {
            let what = describe(&s.what);
            let mut f = COLLECTION_INCOMPLETE.finding(
                Severity::Warn,
                format!(
                    "{what} not read: {}; it is unknown, not zero or empty: the rules that need it are not applicable, so this report cannot vouch for them",
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
        ];
        let f = findings(&skipped);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].code, "MT016");
        assert_eq!(f[0].severity, Severity::Warn);
        assert!(f[0].message.contains("SELECT on mysql.global_priv"));
    }
}
