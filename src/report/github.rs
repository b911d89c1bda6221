//! GitHub Actions workflow commands (`::error file=F,line=L,col=C,title=T::msg`):
//! printed by a step, they become annotations on the changed lines of a pull
//! request without any upload. crit → error, warn → warning, info → notice.

use std::fmt::Write;

use super::safe::{github_data as data, github_property as property};
use crate::rules::{Finding, Severity};

/// One annotation per finding.
pub fn render(findings: &[Finding]) -> String {
    let mut out = String::new();
    for f in findings {
        let cmd = match f.severity {
            Severity::Crit => "error",
            Severity::Warn => "warning",
            Severity::Info => "notice",
        };
        let mut props = Vec::new();
        if let Some(loc) = &f.location {
            let file = loc.file.to_string_lossy();
            props.push(format!(
                "file={}",
                property(file.strip_prefix("./").unwrap_or(&file))
            ));
            props.push(format!("line={}", loc.line.max(1)));
            if loc.column > 0 {
                props.push(format!("col={}", loc.column));
            }
        }
        props.push(format!(
            "title={}",
            property(&format!("{} {}", f.code, f.name))
        ));
        let message = match &f.fix {
            Some(fix) => format!(
                "{} (`mytune lint --fix` mends it: {})",
                f.message,
                crate::secrets::shown_description(fix)
            ),
            None => f.message.clone(),
        };
        let _ = writeln!(out, "::{cmd} {}::{}", props.join(","), data(&message));
    }
    out
}
