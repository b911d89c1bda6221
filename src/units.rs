//! Sizes the way MySQL reads them.
//!
//! The server accepts `128M`, `1g`, `4K` for numeric options: a whole number
//! with an optional one-letter suffix, 1024-based, in any case. Option files,
//! rule expressions and generated files all go through these two functions so a
//! size means the same thing everywhere in mytune. Durations of the command
//! line (`500ms`, `10s`, `2m`) are read here too.

use std::time::Duration;

/// The suffixes MySQL accepts, in increasing order, with their multipliers.
const SUFFIXES: [(char, u64); 6] = [
    ('K', 1 << 10),
    ('M', 1 << 20),
    ('G', 1 << 30),
    ('T', 1 << 40),
    ('P', 1 << 50),
    ('E', 1 << 60),
];

/// Multiplier for a size suffix letter (any case), or `None`.
pub fn suffix_multiplier(c: char) -> Option<u64> {
    let up = c.to_ascii_uppercase();
    SUFFIXES.iter().find(|(s, _)| *s == up).map(|(_, m)| *m)
}

/// Parse an unsigned integer with an optional size suffix, as the server does
/// for numeric options (`64M`, `1G`, `4096`). Leading `+` and surrounding
/// whitespace are accepted; fractions, negative numbers and trailing garbage
/// are not. Overflow is an error.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let t = t.strip_prefix('+').unwrap_or(t);
    if t.is_empty() {
        return Err("empty value where a number was expected".into());
    }
    let (digits, mult) = match t.chars().last() {
        Some(c) if c.is_ascii_alphabetic() => match suffix_multiplier(c) {
            Some(m) => (&t[..t.len() - 1], m),
            None => {
                return Err(format!(
                    "'{s}' has an unknown size suffix '{c}' (use K, M, G, T, P or E)"
                ));
            }
        },
        _ => (t, 1),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!(
            "'{s}' is not a whole number with an optional K/M/G/T/P/E suffix"
        ));
    }
    let n: u64 = digits.parse().map_err(|_| format!("'{s}' is too large"))?;
    n.checked_mul(mult)
        .ok_or_else(|| format!("'{s}' is too large"))
}

/// Parse a host's memory as people write it (`64G`, `23.5G`, `512M`): a
/// suffix is required, since a bare `64` is 64 bytes and almost certainly a
/// mistake, and one decimal place is accepted, as mytune prints sizes
/// (`human_size`). Not for option files: the server refuses fractions.
pub fn parse_memory(s: &str) -> Result<u64, String> {
    let t = s.trim();
    if !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()) {
        let n: u64 = t.parse().map_err(|_| format!("'{s}' is too large"))?;
        let hint = if n >= 1 << 20 {
            format!("write {} if you mean {n} bytes", format_size(n))
        } else {
            format!("{n} bytes? write {n}G (or {n}M)")
        };
        return Err(format!("'{s}' has no unit: {hint}"));
    }
    if let Some((whole, rest)) = t.split_once('.') {
        let (frac, suffix) = rest.split_at(rest.len().saturating_sub(1));
        let mult = suffix
            .chars()
            .next()
            .and_then(suffix_multiplier)
            .ok_or_else(|| format!("'{s}' needs a unit: K, M, G, T, P or E (e.g. 23.5G)"))?;
        if whole.is_empty()
            || frac.is_empty()
            || !whole.chars().all(|c| c.is_ascii_digit())
            || !frac.chars().all(|c| c.is_ascii_digit())
        {
            return Err(format!("'{s}' is not a size such as 64G or 23.5G"));
        }
        let v: f64 = format!("{whole}.{frac}")
            .parse()
            .map_err(|_| format!("'{s}' is not a size such as 64G or 23.5G"))?;
        let bytes = v * mult as f64;
        if !bytes.is_finite() || bytes >= u64::MAX as f64 {
            return Err(format!("'{s}' is too large"));
        }
        return nonzero(s, bytes.round() as u64);
    }
    nonzero(s, parse_size(t)?)
}

fn nonzero(s: &str, n: u64) -> Result<u64, String> {
    if n == 0 {
        return Err(format!("'{s}' is no memory at all"));
    }
    Ok(n)
}

/// Print a byte count with the largest suffix that divides it exactly
/// (`134217728` → `128M`), so the value can be pasted into an option file.
pub fn format_size(bytes: u64) -> String {
    if bytes == 0 {
        return "0".into();
    }
    for (suffix, mult) in SUFFIXES.iter().rev() {
        if bytes.is_multiple_of(*mult) {
            return format!("{}{}", bytes / mult, suffix);
        }
    }
    bytes.to_string()
}

/// Print a byte count for people: `1.5G`, `768M`, `12K`, rounded to one
/// decimal, and `512 bytes` below a kibibyte (a bare `512` in a sentence
/// reads as a count). Not for option files (the server rejects fractions).
pub fn human_size(bytes: u64) -> String {
    for (suffix, mult) in SUFFIXES.iter().rev() {
        if bytes >= *mult {
            let v = bytes as f64 / *mult as f64;
            return if (v - v.round()).abs() < 0.05 {
                format!("{:.0}{}", v.round(), suffix)
            } else {
                format!("{v:.1}{suffix}")
            };
        }
    }
    if bytes == 1 {
        return "1 byte".into();
    }
    format!("{bytes} bytes")
}

/// `500ms`, `10s`, `2m`, `1h`, or a bare number of seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num
        .parse()
        .map_err(|_| format!("'{s}' is not a duration (e.g. 500ms, 10s, 2m)"))?;
    let secs = match unit.trim() {
        "ms" => n / 1000.0,
        "" | "s" => n,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        other => {
            return Err(format!(
                "'{s}' has an unknown unit '{other}' (use ms, s, m or h)"
            ));
        }
    };
    Duration::try_from_secs_f64(secs).map_err(|_| format!("'{s}' is out of range"))
}

/// A duration that must not be 0 (the server and the driver read 0 as
/// "no limit").
pub fn parse_time_box(s: &str) -> Result<Duration, String> {
    let d = parse_duration(s)?;
    if d < Duration::from_millis(1) {
        return Err(format!(
            "'{s}' would mean no limit at all; give at least 1ms (e.g. 500ms, 10s)"
        ));
    }
    Ok(d)
}

#[cfg(test)]
mod memory_tests {
    use super::*;

    #[test]
    fn a_bare_number_is_not_a_memory_size() {
        assert_eq!(
            parse_memory("64").unwrap_err(),
            "'64' has no unit: 64 bytes? write 64G (or 64M)"
        );
        assert!(
            parse_memory("68719476736")
                .unwrap_err()
                .contains("write 64G")
        );
    }

    #[test]
    fn sizes_as_mytune_prints_them_are_accepted() {
        assert_eq!(parse_memory("64G"), Ok(64 << 30));
        assert_eq!(parse_memory("23.5G"), Ok(47 << 29));
        assert_eq!(parse_memory(&human_size(1536 << 20)), Ok(1536 << 20));
        assert!(parse_memory("1.G").is_err());
        assert!(parse_memory("1.5").is_err());
        assert!(parse_memory("-1.5G").is_err());
        assert!(parse_memory("0G").is_err());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_suffixes_in_any_case() {
        assert_eq!(parse_size("128M"), Ok(128 << 20));
        assert_eq!(parse_size("128m"), Ok(128 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size(" 4k "), Ok(4096));
        assert_eq!(parse_size("2E"), Ok(2 << 60));
        assert_eq!(parse_size("42"), Ok(42));
    }

    #[test]
    fn rejects_what_the_server_rejects() {
        assert!(parse_size("1.5G").is_err());
        assert!(parse_size("-1").is_err());
        assert!(parse_size("12X").is_err());
        assert!(parse_size("").is_err());
        assert!(parse_size("M").is_err());
        assert!(parse_size("16E").is_err(), "overflow must be an error");
    }

    #[test]
    fn formats_exact_sizes() {
        assert_eq!(format_size(134217728), "128M");
        assert_eq!(format_size(1 << 30), "1G");
        assert_eq!(format_size(1536 << 20), "1536M");
        assert_eq!(format_size(1000), "1000");
        assert_eq!(human_size(1536 << 20), "1.5G");
        assert_eq!(human_size(512), "512 bytes");
        assert_eq!(human_size(0), "0 bytes");
    }
}

#[cfg(test)]
mod duration_tests {
    use super::*;

    #[test]
    fn parses_durations() {
        assert_eq!(parse_duration("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("10"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("ten").is_err());
        assert!(parse_duration("5d").is_err());
        assert!(parse_duration("-1s").is_err());
        assert!(parse_time_box("0ms").unwrap_err().contains("no limit"));
        assert!(parse_time_box("0").is_err());
        assert_eq!(parse_time_box("1ms"), Ok(Duration::from_millis(1)));
    }
}
