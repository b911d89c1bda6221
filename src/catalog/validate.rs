//! Checking an option-file value against a variable's type and range.
//!
//! The server reads option values with `my_getopt`: booleans as
//! ON/OFF/TRUE/FALSE/1/0, numbers with an optional K/M/G/T/P/E suffix, enum
//! values in any case (or by index), sets as comma-separated lists. Out of
//! range numbers are clamped with a warning and numbers are rounded down to
//! the block size; mytune reports both as errors, because the server would
//! not run with the value that was written.

use super::types::{VarInfo, VarKind};

/// Why a value does not fit a variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError {
    /// The server accepts the value but runs with another one (clamped to the
    /// range or rounded to the block size); `false`: it refuses to start.
    pub adjusted: bool,
    pub message: String,
}

impl std::fmt::Display for ValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}
use crate::units;

impl VarInfo {
    /// Check an option-file value (as text, e.g. "64M", "ON", "O_DIRECT")
    /// against type and range, the way the server would. `Ok` or a message
    /// saying what is wrong and what is accepted.
    pub fn validate(&self, value: &str) -> Result<(), String> {
        self.check_value(value).map_err(|e| e.message)
    }

    /// [`VarInfo::validate`] that also tells whether the server would refuse
    /// the value (and not start) or adjust it (clamp to the range, round to
    /// the block size) and run with another value than the one written.
    pub fn check_value(&self, value: &str) -> Result<(), ValueError> {
        self.check_kind(value.trim())
            .map_err(|(adjusted, message)| ValueError { adjusted, message })
    }

    fn check_kind(&self, v: &str) -> Result<(), (bool, String)> {
        let rejected = |m: String| (false, m);
        let adjusted = |m: String| (true, m);
        match &self.kind {
            VarKind::Bool => validate_bool(v).map_err(rejected),
            VarKind::Integer { min, max } => {
                let n = parse_int(v).map_err(rejected)?;
                check_range(
                    n,
                    *min,
                    *max,
                    |b| b.to_string(),
                    "a whole number (K/M/G suffixes allowed)",
                )
                .map_err(adjusted)
            }
            VarKind::Size { min, max, block } => {
                let n = units::parse_size(v)
                    .map_err(|e| rejected(format!("{e}; expected a size such as 64M")))?;
                check_range(
                    n as i128,
                    min.map(i128::from),
                    max.map(i128::from),
                    |b| units::format_size(b as u64),
                    "a size such as 64M",
                )
                .map_err(adjusted)?;
                if let Some(b) = block.filter(|b| *b > 1)
                    && n % b != 0
                {
                    return Err(adjusted(format!(
                        "'{v}' is not a multiple of {}; the server rounds it down to {}",
                        units::format_size(b),
                        units::format_size(n - n % b)
                    )));
                }
                Ok(())
            }
            VarKind::Float { min, max } => {
                let f: f64 = v
                    .parse()
                    .ok()
                    .filter(|f: &f64| f.is_finite())
                    .ok_or_else(|| {
                        rejected(format!("'{v}' is not a number; expected a decimal number"))
                    })?;
                if let Some(lo) = min
                    && f < *lo
                {
                    return Err(adjusted(format!("'{v}' is below the minimum {lo}")));
                }
                if let Some(hi) = max
                    && f > *hi
                {
                    return Err(adjusted(format!("'{v}' is above the maximum {hi}")));
                }
                Ok(())
            }
            VarKind::Enum { values } => {
                if values.iter().any(|a| a.eq_ignore_ascii_case(v)) {
                    return Ok(());
                }
                if let Ok(i) = v.parse::<usize>()
                    && i < values.len()
                {
                    return Ok(());
                }
                let mut msg = format!("'{v}' is not one of: {}", values.join(", "));
                if let Some(note) = &self.note {
                    msg.push_str(" (");
                    msg.push_str(note);
                    msg.push(')');
                }
                Err(rejected(msg))
            }
            VarKind::Set { values } => {
                // A flag set (optimizer_switch): `flag=on|off|default`, or
                // `default` alone.
                let flags = self
                    .note
                    .as_deref()
                    .is_some_and(|n| n.starts_with("flag set"));
                let known = |item: &str| -> bool {
                    if flags {
                        let (flag, state) = item.split_once('=').unwrap_or((item, ""));
                        return (flag.eq_ignore_ascii_case("default") && state.is_empty())
                            || (values.iter().any(|a| a.eq_ignore_ascii_case(flag))
                                && ["on", "off", "default"]
                                    .iter()
                                    .any(|s| s.eq_ignore_ascii_case(state)));
                    }
                    values.iter().any(|a| a.eq_ignore_ascii_case(item))
                };
                let bad: Vec<&str> = v
                    .split(',')
                    .map(str::trim)
                    .filter(|item| !item.is_empty())
                    .filter(|item| !known(item))
                    .collect();
                if bad.is_empty() {
                    Ok(())
                } else {
                    Err(rejected(format!(
                        "'{}' {} not allowed; accepted (comma-separated): {}",
                        bad.join(","),
                        if bad.len() == 1 { "is" } else { "are" },
                        values.join(", ")
                    )))
                }
            }
            VarKind::String => Ok(()),
            VarKind::Path => {
                if v.is_empty() && self.name != "secure_file_priv" {
                    Err(rejected(
                        "empty value where a file or directory name was expected".into(),
                    ))
                } else {
                    Ok(())
                }
            }
        }
    }
}

fn validate_bool(v: &str) -> Result<(), String> {
    const OK: [&str; 6] = ["on", "off", "true", "false", "1", "0"];
    if v.is_empty() || OK.iter().any(|a| a.eq_ignore_ascii_case(v)) {
        Ok(())
    } else {
        Err(format!(
            "'{v}' is not a boolean; expected ON, OFF, TRUE, FALSE, 1 or 0"
        ))
    }
}

/// A signed whole number with an optional size suffix (the server applies
/// suffixes to every numeric option).
fn parse_int(v: &str) -> Result<i128, String> {
    let (neg, body) = match v.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, v),
    };
    let n = units::parse_size(body)
        .map_err(|_| format!("'{v}' is not a whole number (K/M/G suffixes allowed)"))?;
    Ok(if neg { -(n as i128) } else { n as i128 })
}

fn check_range(
    n: i128,
    min: Option<i128>,
    max: Option<i128>,
    show: impl Fn(i128) -> String,
    accepted: &str,
) -> Result<(), String> {
    if let Some(lo) = min
        && n < lo
    {
        return Err(format!(
            "{n} is below the minimum {}{}; expected {accepted}",
            show(lo),
            range_text(min, max, &show)
        ));
    }
    if let Some(hi) = max
        && n > hi
    {
        return Err(format!(
            "{n} is above the maximum {}{}; expected {accepted}",
            show(hi),
            range_text(min, max, &show)
        ));
    }
    Ok(())
}

fn range_text(min: Option<i128>, max: Option<i128>, show: &impl Fn(i128) -> String) -> String {
    match (min, max) {
        (Some(lo), Some(hi)) => format!(" (range {} to {})", show(lo), show(hi)),
        _ => String::new(),
    }
}
