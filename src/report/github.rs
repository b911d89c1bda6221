//! GitHub Actions workflow commands (`::error file=F,line=L,col=C,title=T::msg`):
//! printed by a step, they become annotations on the changed lines of a pull
//! request without any upload. crit → error, warn → warning, info → notice.

use std::fmt::Write;

use crate::rules::{Finding, Severity};

/// Escape the message part of a workflow command: GitHub's own escapes for
/// `%`, CR and LF, then other control characters (terminal escape sequences)
/// written visibly ([`super::safe`]).
fn data(s: &str) -> String {
    let encoded = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    super::safe::escape(&encoded).into_owned()
}

/// Escape a property value of a workflow command.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

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
