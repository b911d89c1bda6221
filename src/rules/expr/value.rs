//! Runtime values and static types of the expression language, and the
//! coercions from the strings a server prints (`ON`, `134217728`, `128M`).

use std::fmt;

use crate::target::Version;
use crate::units;

/// A static type, as the checker sees it. `Dyn` is a value read from the
/// server or an option file: a string, coerced when an operator needs a
/// number, a boolean or a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    Num,
    Bool,
    Str,
    Version,
    Dyn,
}

impl Type {
    pub fn describe(self) -> &'static str {
        match self {
            Type::Num => "a number",
            Type::Bool => "a boolean",
            Type::Str => "a string",
            Type::Version => "a version",
            Type::Dyn => "a server value",
        }
    }
}

/// A runtime value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Num(f64),
    Bool(bool),
    Str(String),
    Version(Version),
    /// A fact as the server or option file wrote it; `origin` names the fact
    /// (`var.max_connections`) for error messages.
    Text {
        text: String,
        origin: String,
    },
}

/// Why an expression has no value: a fact is missing, or a value is not what
/// the rule needs. Either makes the rule *not applicable*, with this as the
/// reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    #[error("needs {fact} ({why})")]
    Missing { fact: String, why: String },
    #[error("{0}")]
    Invalid(String),
}

impl EvalError {
    pub fn missing(fact: impl Into<String>, why: impl Into<String>) -> EvalError {
        EvalError::Missing {
            fact: fact.into(),
            why: why.into(),
        }
    }
}

impl Value {
    pub fn text(text: impl Into<String>, origin: impl Into<String>) -> Value {
        Value::Text {
            text: text.into(),
            origin: origin.into(),
        }
    }

    fn what(&self) -> String {
        match self {
            Value::Text { text, origin } => format!("{origin} = '{text}'"),
            other => format!("'{other}'"),
        }
    }

    pub fn as_num(&self) -> Result<f64, EvalError> {
        match self {
            Value::Num(n) => Ok(*n),
            Value::Text { text, .. } => text_to_num(text)
                .ok_or_else(|| EvalError::Invalid(format!("{} is not a number", self.what()))),
            other => Err(EvalError::Invalid(format!(
                "{} is not a number",
                other.what()
            ))),
        }
    }

    pub fn as_bool(&self) -> Result<bool, EvalError> {
        match self {
            Value::Bool(b) => Ok(*b),
            Value::Text { text, .. } => text_to_bool(text).ok_or_else(|| {
                EvalError::Invalid(format!("{} is not ON/OFF or a boolean", self.what()))
            }),
            other => Err(EvalError::Invalid(format!(
                "{} is not a boolean",
                other.what()
            ))),
        }
    }

    pub fn as_version(&self) -> Result<Version, EvalError> {
        match self {
            Value::Version(v) => Ok(*v),
            Value::Text { text, .. } => Version::parse_prefix(text)
                .ok_or_else(|| EvalError::Invalid(format!("{} is not a version", self.what()))),
            other => Err(EvalError::Invalid(format!(
                "{} is not a version",
                other.what()
            ))),
        }
    }

    /// The value as a string (case is kept).
    pub fn as_text(&self) -> String {
        match self {
            Value::Str(s) | Value::Text { text: s, .. } => s.clone(),
            other => other.to_string(),
        }
    }
}

/// `ON`/`OFF`, `YES`/`NO`, `TRUE`/`FALSE`, `1`/`0`, any case.
pub fn text_to_bool(s: &str) -> Option<bool> {
    match s.trim().to_ascii_uppercase().as_str() {
        "ON" | "YES" | "TRUE" | "1" => Some(true),
        "OFF" | "NO" | "FALSE" | "0" => Some(false),
        _ => None,
    }
}

/// A decimal number (`0.5`, `-1`, `134217728`) or a size as an option file
/// may write it (`128M`).
pub fn text_to_num(s: &str) -> Option<f64> {
    let t = s.trim();
    if t.is_empty() {
        return None;
    }
    if let Ok(n) = t.parse::<f64>()
        && n.is_finite()
        && t.bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
    {
        return Some(n);
    }
    units::parse_size(t).ok().map(|n| n as f64)
}

/// Print a number the way an option file would take it: integers without a
/// fraction, others with up to 6 decimals.
pub fn format_num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e18 {
        format!("{}", n as i64)
    } else {
        let s = format!("{n:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Num(n) => f.write_str(&format_num(*n)),
            Value::Bool(true) => f.write_str("ON"),
            Value::Bool(false) => f.write_str("OFF"),
            Value::Str(s) => f.write_str(s),
            // A series target (`--target mysql-8.0`) has patch level 0: say
            // "8.0", as the target's own name does, not "8.0.0".
            Value::Version(v) if v.patch == 0 => write!(f, "{}.{}", v.major, v.minor),
            Value::Version(v) => write!(f, "{v}"),
            Value::Text { text, .. } => f.write_str(text),
        }
    }
}
