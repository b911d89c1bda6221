//! `gen-sysctl`: the plan's kernel parameters (`sysctl:` recommendations) as
//! a `sysctl.d` file.
//!
//! The rules decide the values and fire only where the host falls short; the
//! file leaves out what the host already has, unless `--all` asks for every
//! parameter the rules look at (then the ones no rule changes keep the
//! host's value, so the file pins the whole set). Two settings are refused
//! whatever a rule says: `net.ipv4.tcp_tw_recycle` (removed in Linux 4.12,
//! it dropped connections from clients behind NAT) and
//! `net.ipv4.tcp_timestamps = 0` (`tcp_tw_reuse` and PAWS need timestamps).

use std::collections::BTreeSet;

use super::plan::{HOST_PREFIX, Plan, SYSCTL_PREFIX, Setting, same_value};
use super::{GenError, GeneratedFile, wrap};
use crate::facts::HostFacts;
use crate::rules::RuleSet;

/// Where the file belongs; `sysctl --system` reads `/etc/sysctl.d/*.conf`
/// in name order, after the distribution's `10-`/`50-` files.
pub const SYSCTL_PATH: &str = "/etc/sysctl.d/60-mytune-mysql.conf";

const COMMENT_WIDTH: usize = 96;

/// The kernel parameters any rule of `rules` reads through `sysctl("…")`.
pub fn read_by_rules(rules: &RuleSet) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for r in rules.rules() {
        let texts = std::iter::once(r.when.text.as_str())
            .chain(r.lets.iter().map(|(_, c)| c.text.as_str()))
            .chain(r.recommend.iter().map(|rec| rec.value.text.as_str()));
        for t in texts {
            let mut rest = t;
            while let Some(i) = rest.find("sysctl(\"") {
                rest = &rest[i + "sysctl(\"".len()..];
                if let Some(end) = rest.find('"') {
                    out.insert(rest[..end].to_string());
                    rest = &rest[end..];
                }
            }
        }
    }
    out
}

/// Is `key` a sysctl name (`net.core.somaxconn`, `net.ipv4.conf.eth0.rp_filter`)?
pub fn valid_key(key: &str) -> bool {
    key.contains('.')
        && key.split('.').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        })
}

/// A value as `sysctl -p` writes it to `/proc/sys`: fields separated by one
/// space.
pub fn normalize_value(v: &str) -> String {
    v.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn check(key: &str, s: &Setting) -> Result<String, GenError> {
    let value = normalize_value(&s.value);
    let unwritable = |why: &str| GenError::Unwritable {
        code: s.code.to_string(),
        setting: s.name.clone(),
        value: s.value.clone(),
        why: why.into(),
    };
    if !valid_key(key) {
        return Err(unwritable(
            "not a sysctl name (dotted, letters, digits, _ and -)",
        ));
    }
    if value.is_empty() || value.contains(['#', ';', '=']) {
        return Err(unwritable("not a value sysctl.d can hold"));
    }
    let unsafe_ = |why: &str| GenError::Unsafe {
        code: s.code.clone(),
        setting: key.to_string(),
        value: value.clone(),
        why: why.into(),
    };
    if key == "net.ipv4.tcp_tw_recycle" {
        return Err(unsafe_(
            "tcp_tw_recycle was removed in Linux 4.12 and dropped connections from clients behind NAT",
        ));
    }
    if key == "net.ipv4.tcp_timestamps" && value == "0" {
        return Err(unsafe_(
            "TCP timestamps are needed by tcp_tw_reuse and protect against wrapped sequence numbers",
        ));
    }
    Ok(value)
}

fn fields_equal(a: &str, b: &str) -> bool {
    let (a, b) = (normalize_value(a), normalize_value(b));
    let (fa, fb): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
    fa.len() == fb.len() && fa.iter().zip(&fb).all(|(x, y)| same_value(x, y))
}

/// Render the sysctl.d file. `host` is the machine the file is for (its
/// current values decide what is left out); `all` also writes values the
/// host already has and every parameter in `read` at its host value.
pub fn render(
    plan: &Plan,
    host: Option<&HostFacts>,
    read: &BTreeSet<String>,
    all: bool,
    header: &[String],
) -> Result<GeneratedFile, GenError> {
    let mut text = String::new();
    let comment = |text: &mut String, s: &str| {
        for line in wrap(s, COMMENT_WIDTH) {
            text.push_str(&format!("# {line}\n"));
        }
    };
    for h in header {
        comment(&mut text, h);
    }
    comment(
        &mut text,
        &format!("Install as {SYSCTL_PATH}, then: sysctl --system"),
    );
    let host_value = |key: &str| host.and_then(|h| h.sysctl.get(key)).cloned();
    // A described host's values are a stock Linux's, assumed: say so, and
    // never pin them (the real host may have more).
    let stock = host.is_some_and(super::host::nothing_read);
    let label = if stock { "stock Linux" } else { "host" };

    let mut written = BTreeSet::new();
    let mut met = Vec::new();
    for (key, s) in plan.namespaced(SYSCTL_PREFIX) {
        let value = check(key, s)?;
        let current = host_value(key);
        if !all && current.as_deref().is_some_and(|c| fields_equal(c, &value)) {
            met.push(key.to_string());
            continue;
        }
        text.push('\n');
        let was = match &current {
            Some(c) => format!(" ({label}: {})", normalize_value(c)),
            None => String::new(),
        };
        comment(
            &mut text,
            &format!("{} {}: {}{was}", s.code, s.rule_name, s.why),
        );
        text.push_str(&format!("{key} = {value}\n"));
        written.insert(key.to_string());
    }
    if all && !stock {
        let rest: Vec<&String> = read.iter().filter(|k| !written.contains(*k)).collect();
        for key in rest {
            if let Some(c) = host_value(key).filter(|_| valid_key(key)) {
                text.push('\n');
                comment(&mut text, "the host's value; no rule asks to change it");
                text.push_str(&format!("{key} = {}\n", normalize_value(&c)));
                written.insert(key.clone());
            }
        }
    }
    if !met.is_empty() {
        text.push('\n');
        comment(
            &mut text,
            &format!(
                "already met by the {} (left out; --all writes them): {}",
                if stock { "stock Linux values" } else { "host" },
                met.join(", ")
            ),
        );
    }
    if written.is_empty() {
        text.push('\n');
        comment(
            &mut text,
            "no rule recommends a kernel parameter for this host and profile",
        );
    }
    // Host settings outside sysctl (THP, the I/O scheduler) cannot go in
    // this file; say what the rules recommend so they are not lost.
    let others: Vec<String> = plan
        .namespaced(HOST_PREFIX)
        .map(|(k, s)| format!("{k} = {} ({})", normalize_value(&s.value), s.code))
        .collect();
    if !others.is_empty() {
        text.push('\n');
        comment(
            &mut text,
            &format!(
                "also recommended, outside sysctl (see mytune explain CODE): {}",
                others.join("; ")
            ),
        );
    }
    Ok(GeneratedFile {
        path: SYSCTL_PATH.into(),
        text,
    })
}

/// Parse a sysctl.d file the way `sysctl -p` does: `#` and `;` comment
/// lines, blank lines, `key = value` (a leading `-` ignores errors for that
/// key). Returns `(line, key, value)` or the first line it cannot read.
pub fn parse(text: &str) -> Result<Vec<(usize, String, String)>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .ok_or_else(|| format!("line {}: no '=' in {raw:?}", i + 1))?;
        let key = k.trim().trim_start_matches('-').replace('/', ".");
        if !valid_key(&key) {
            return Err(format!("line {}: {key:?} is not a sysctl name", i + 1));
        }
        out.push((i + 1, key, normalize_value(v)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_values() {
        assert!(valid_key("net.core.somaxconn"));
        assert!(valid_key("net.ipv4.conf.eth-0.rp_filter"));
        assert!(!valid_key("somaxconn"));
        assert!(!valid_key("net..core"));
        assert!(!valid_key("net.core.x y"));
        assert_eq!(normalize_value("1024\t 65535 "), "1024 65535");
        assert!(fields_equal("1024\t65535", "1024 65535"));
        assert!(!fields_equal("1024 65535", "1024"));
    }

    #[test]
    fn parses_like_sysctl_p() {
        let p =
            parse("# c\n; c\n\nnet.core.somaxconn = 4096\n-net/ipv4/tcp_fin_timeout=10\n").unwrap();
        assert_eq!(
            p,
            vec![
                (4, "net.core.somaxconn".into(), "4096".into()),
                (5, "net.ipv4.tcp_fin_timeout".into(), "10".into())
            ]
        );
        assert!(parse("net.core.somaxconn 4096\n").is_err());
    }
}
