//! The suggested-changes block: every recommended value of the reported
//! findings, ready to paste into an option file, each marked as applicable
//! online (with the statement the flavor supports) or needing a restart.
//!
//! Which statement applies is a fact about the server, not advice: `SET
//! PERSIST` exists on MySQL and Percona Server 8.0 and later and writes
//! `mysqld-auto.cnf`; MariaDB has only `SET GLOBAL`, which lasts until the
//! next restart, so the option-file line must be added as well. A variable
//! the catalog marks read-only (or does not know) needs a restart.

use serde::Serialize;

use crate::catalog::{Catalog, VarKind};
use crate::rules::Finding;
use crate::target::Target;
use crate::units;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SuggestedChange {
    /// The finding that recommends it.
    pub code: crate::rules::Code,
    pub variable: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current: Option<String>,
    /// As written in an option file (`4G`, `ON`).
    pub value: String,
    pub apply: Apply,
}

/// How a change takes effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "mode", rename_all = "lowercase")]
pub enum Apply {
    /// `statement` changes the running server; `persisted`: it also survives
    /// a restart (`SET PERSIST`), otherwise the option-file line is needed
    /// too. `undo` puts today's running value back (absent when today's
    /// value is not known); after `SET PERSIST`, `RESET PERSIST` too.
    Online {
        statement: String,
        persisted: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        undo: Option<String>,
    },
    /// Only the option-file line and a restart.
    Restart,
}

/// One change per recommended server variable, in finding order; a variable
/// recommended twice keeps its first (most severe) recommendation. Host
/// settings (namespaced `sysctl:`/`limits:` names) are left out.
pub fn suggest(
    findings: &[Finding],
    target: &Target,
    catalog: Option<&Catalog>,
) -> Vec<SuggestedChange> {
    let mut out: Vec<SuggestedChange> = Vec::new();
    for f in findings {
        let (Some(var), Some(value)) = (&f.variable, &f.recommended) else {
            continue;
        };
        // Host settings (`sysctl:vm.swappiness`, `limits:nofile`) do not
        // belong in an option file: the findings table shows them.
        if var.contains(':') || out.iter().any(|c| &c.variable == var) {
            continue;
        }
        let info = catalog.and_then(|c| c.get(var));
        let apply = match info {
            Some(v) if v.dynamic && v.sysvar => {
                let sql = sql_value(Some(&v.kind), value);
                let old = f.current.as_deref().map(|c| sql_value(Some(&v.kind), c));
                if target.has_set_persist() {
                    Apply::Online {
                        statement: format!("SET PERSIST {var} = {sql};"),
                        persisted: true,
                        undo: old.map(|o| format!("SET GLOBAL {var} = {o};")),
                    }
                } else {
                    Apply::Online {
                        statement: format!("SET GLOBAL {var} = {sql};"),
                        persisted: false,
                        undo: old.map(|o| format!("SET GLOBAL {var} = {o};")),
                    }
                }
            }
            _ => Apply::Restart,
        };
        out.push(SuggestedChange {
            code: f.code.clone(),
            variable: var.clone(),
            current: f.current.clone(),
            value: value.clone(),
            apply,
        });
    }
    out
}

/// The suggested changes as a DBA applies them: the online statements as
/// one SQL block, the statements that undo them, and the option-file
/// lines (those read only at a restart marked once, by `restart_only`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Paste {
    /// `SET GLOBAL` / `SET PERSIST` statements, in finding order.
    pub apply_now: Vec<String>,
    /// Statements that restore today's values of the changes above (those
    /// whose value today is known).
    pub undo: Vec<String>,
    /// Every change as an option-file line.
    pub option_file: Vec<OptionLine>,
}

/// One `name = value` line of the option-file part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionLine {
    pub variable: String,
    pub value: String,
    /// The finding that recommends it.
    pub code: crate::rules::Code,
    /// Takes effect only when the server restarts.
    pub restart_only: bool,
}

/// The three parts of the block for `changes`.
pub fn paste(changes: &[SuggestedChange]) -> Paste {
    let mut p = Paste {
        apply_now: Vec::new(),
        undo: Vec::new(),
        option_file: Vec::new(),
    };
    for c in changes {
        if let Apply::Online {
            statement,
            undo,
            persisted,
        } = &c.apply
        {
            p.apply_now.push(statement.clone());
            if let Some(u) = undo {
                p.undo.push(u.clone());
                // Today's value back, and the persisted one gone.
                if *persisted {
                    p.undo.push(format!("RESET PERSIST {};", c.variable));
                }
            }
        }
    }
    // The online ones first, then those a restart reads.
    let mut lines: Vec<OptionLine> = changes
        .iter()
        .map(|c| OptionLine {
            variable: c.variable.clone(),
            value: c.value.clone(),
            code: c.code.clone(),
            restart_only: c.apply == Apply::Restart,
        })
        .collect();
    lines.sort_by_key(|l| l.restart_only);
    p.option_file = lines;
    p
}

/// A value as SQL accepts it: sizes and numbers as plain numbers (`SET
/// GLOBAL x = 4G` is a syntax error), `ON`/`OFF` bare, text quoted.
pub fn sql_value(kind: Option<&VarKind>, value: &str) -> String {
    let number = || units::parse_size(value).ok().map(|n| n.to_string());
    let quoted = || format!("'{}'", value.replace('\\', "\\\\").replace('\'', "\\'"));
    match kind {
        Some(VarKind::Size { .. } | VarKind::Integer { .. }) => {
            if value.parse::<i128>().is_ok() {
                value.to_string()
            } else {
                number().unwrap_or_else(quoted)
            }
        }
        Some(VarKind::Float { .. }) if value.parse::<f64>().is_ok() => value.to_string(),
        Some(VarKind::Bool) if ["ON", "OFF"].contains(&value.to_ascii_uppercase().as_str()) => {
            value.to_ascii_uppercase()
        }
        Some(_) => quoted(),
        None => number().unwrap_or_else(quoted),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sql_values() {
        let size = VarKind::Size {
            min: None,
            max: None,
            block: None,
        };
        assert_eq!(sql_value(Some(&size), "4G"), "4294967296");
        assert_eq!(sql_value(Some(&size), "123"), "123");
        assert_eq!(sql_value(Some(&VarKind::Bool), "on"), "ON");
        assert_eq!(
            sql_value(Some(&VarKind::Enum { values: vec![] }), "O_DIRECT"),
            "'O_DIRECT'"
        );
        assert_eq!(sql_value(Some(&VarKind::String), "it's"), "'it\\'s'");
        assert_eq!(sql_value(None, "16M"), "16777216");
    }

    #[test]
    fn host_settings_stay_out_of_the_option_file_block() {
        let f = |code: &str, var: &str, value: &str| Finding {
            code: crate::rules::Code::parse(code).unwrap(),
            name: "n".into(),
            family: crate::rules::Family::Os,
            severity: crate::rules::Severity::Warn,
            tags: vec![],
            message: String::new(),
            variable: Some(var.into()),
            current: None,
            recommended: Some(value.into()),
            location: None,
            rationale: String::new(),
            sources: vec![],
            confidence: crate::rules::Confidence::High,
            fix: None,
        };
        let t: Target = "mariadb-10.11".parse().unwrap();
        let changes = suggest(
            &[
                f("MT815", "sysctl:vm.dirty_ratio", "10"),
                f("MT101", "innodb_buffer_pool_size", "1G"),
                f("MT102", "innodb_buffer_pool_size", "2G"),
            ],
            &t,
            None,
        );
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].code, "MT101");
        assert_eq!(changes[0].apply, Apply::Restart);
    }

    #[test]
    fn the_paste_block_has_apply_undo_and_option_file_parts() {
        let change = |var: &str, apply: Apply| SuggestedChange {
            code: "MT100".into(),
            variable: var.into(),
            current: Some("10".into()),
            value: "1".into(),
            apply,
        };
        let p = paste(&[
            change("skip_name_resolve", Apply::Restart),
            change(
                "long_query_time",
                Apply::Online {
                    statement: "SET GLOBAL long_query_time = 1;".into(),
                    persisted: false,
                    undo: Some("SET GLOBAL long_query_time = 10;".into()),
                },
            ),
        ]);
        assert_eq!(p.apply_now, ["SET GLOBAL long_query_time = 1;"]);
        assert_eq!(p.undo, ["SET GLOBAL long_query_time = 10;"]);
        assert_eq!(p.option_file[0].variable, "long_query_time");
        assert!(p.option_file[1].restart_only);
    }

    #[test]
    fn set_persist_only_where_it_exists() {
        let t = |s: &str| s.parse::<Target>().unwrap();
        assert!(t("mysql-8.0").has_set_persist());
        assert!(t("percona-8.0").has_set_persist());
        assert!(!t("mysql-5.7").has_set_persist());
        assert!(!t("mariadb-10.11").has_set_persist());
    }
}
