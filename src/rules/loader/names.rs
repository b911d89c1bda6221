//! The spellings the loader accepts: kebab-case rule names, variable and
//! setting names (`innodb-buffer-pool-size` is `innodb_buffer_pool_size`).

use super::*;

pub(super) fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// `Innodb-Buffer-Pool` → `innodb_buffer_pool`, or `None` if not a name.
pub(super) fn canonical_variable(s: &str) -> Option<String> {
    let c = s.trim().to_ascii_lowercase().replace('-', "_");
    (!c.is_empty()
        && c.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'))
    .then_some(c)
}

/// A recommended name: a server variable ([`canonical_variable`]) or a
/// namespaced host setting (`sysctl:net.core.somaxconn`, `limit:nofile`,
/// `host:thp`; see [`super::schema::Setting`]). Sysctl keys keep their dots
/// and dashes (`fs.file-max`) and are lowercased.
pub(super) fn canonical_setting(s: &str) -> Result<String, String> {
    let s = s.trim();
    let Some((ns, key)) = s.split_once(':') else {
        return canonical_variable(s).ok_or_else(|| format!("'{s}' is not a variable name"));
    };
    let key = key.trim().to_ascii_lowercase();
    match ns.trim() {
        "sysctl" => {
            let ok = key.contains('.')
                && !key.starts_with('.')
                && !key.ends_with('.')
                && key
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b));
            if ok {
                Ok(format!("sysctl:{key}"))
            } else {
                Err(format!(
                    "'{key}' is not a sysctl key (expected a dotted name such as net.core.somaxconn)"
                ))
            }
        }
        "limit" if LIMIT_ITEMS.contains(&key.as_str()) => Ok(format!("limit:{key}")),
        "limit" => Err(format!(
            "unknown limit '{key}' (expected {})",
            LIMIT_ITEMS.join(", ")
        )),
        "host" if HOST_SETTINGS.contains(&key.as_str()) => Ok(format!("host:{key}")),
        "host" => Err(format!(
            "unknown host setting '{key}' (expected {})",
            HOST_SETTINGS.join(", ")
        )),
        other => Err(format!(
            "unknown setting namespace '{other}:' (expected a server variable, sysctl:KEY, limit:ITEM or host:NAME)"
        )),
    }
}
