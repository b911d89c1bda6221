//! "Did you mean …": the closest known name to a misspelt one.
//!
//! Option files fail at server start on an unknown name, so the linter should
//! point at the likely intended variable. Plain Levenshtein distance over
//! canonical names is enough for ~800 names and runs only on unknown names.

/// Edit distance (insertions, deletions, substitutions) between two ASCII
/// strings, giving up early once it exceeds `limit` (returns `limit + 1`).
pub(crate) fn distance(a: &str, b: &str, limit: usize) -> usize {
    distance_with(a, b, limit, &mut Vec::new(), &mut Vec::new())
}

/// [`distance`] with caller-provided row buffers, so a scan over many
/// candidates allocates once.
fn distance_with(
    a: &str,
    b: &str,
    limit: usize,
    prev: &mut Vec<usize>,
    cur: &mut Vec<usize>,
) -> usize {
    let a = a.as_bytes();
    let b = b.as_bytes();
    if a.len().abs_diff(b.len()) > limit {
        return limit + 1;
    }
    prev.clear();
    prev.extend(0..=b.len());
    cur.clear();
    cur.resize(b.len() + 1, 0);
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        let mut row_min = cur[0];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
            row_min = row_min.min(cur[j + 1]);
        }
        if row_min > limit {
            return limit + 1;
        }
        std::mem::swap(prev, cur);
    }
    prev[b.len()]
}

/// How many edits a name of this length may be away from a suggestion.
pub(crate) fn limit_for(len: usize) -> usize {
    match len {
        0..=4 => 1,
        5..=11 => 2,
        _ => 3,
    }
}

/// Pick the best candidate for `name` among `candidates`: the smallest edit
/// distance within [`limit_for`], else the shortest candidate that `name` is
/// a prefix of (at least 6 characters typed), else `None`.
pub(crate) fn best<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = limit_for(name.len());
    let mut best: Option<(usize, &'a str)> = None;
    let mut prefix: Option<&'a str> = None;
    let (mut prev, mut cur) = (Vec::with_capacity(64), Vec::with_capacity(64));
    for c in candidates {
        if c == name {
            continue;
        }
        let d = distance_with(name, c, limit, &mut prev, &mut cur);
        if d <= limit {
            let better = match best {
                None => true,
                Some((bd, bc)) => d < bd || (d == bd && (c.len(), c) < (bc.len(), bc)),
            };
            if better {
                best = Some((d, c));
            }
        }
        if name.len() >= 6
            && c.starts_with(name)
            && prefix.is_none_or(|p| (c.len(), c) < (p.len(), p))
        {
            prefix = Some(c);
        }
    }
    best.map(|(_, c)| c).or(prefix)
}

/// The candidate at the smallest edit distance from `name` (1 ≤ d ≤
/// [`limit_for`]), if it is the only one within `d + 1`: a clear typo, not a
/// guess between neighbours (`max_conections` → `max_connections`, but not
/// `innodb_log_fil` between two file options).
pub(crate) fn unique<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = limit_for(name.len());
    let (mut prev, mut cur) = (Vec::with_capacity(64), Vec::with_capacity(64));
    let mut near: Vec<(usize, &'a str)> = candidates
        .filter(|c| *c != name)
        .map(|c| (distance_with(name, c, limit + 1, &mut prev, &mut cur), c))
        .filter(|(d, _)| *d <= limit + 1)
        .collect();
    near.sort();
    match near.as_slice() {
        [(d, c)] if *d <= limit => Some(c),
        [(d, c), (d2, _), ..] if *d <= limit && *d2 > d + 1 => Some(c),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("kitten", "sitting", 5), 3);
        assert_eq!(distance("abc", "abc", 2), 0);
        assert_eq!(distance("abc", "abcdefgh", 2), 3);
        assert_eq!(distance("max_conections", "max_connections", 3), 1);
    }

    #[test]
    fn picks_closest_then_prefix() {
        let names = [
            "max_connections",
            "max_connect_errors",
            "innodb_buffer_pool_size",
        ];
        assert_eq!(
            best("max_conections", names.iter().copied()),
            Some("max_connections")
        );
        assert_eq!(
            best("innodb_buffer_pool", names.iter().copied()),
            Some("innodb_buffer_pool_size")
        );
        assert_eq!(best("zzzzzz", names.iter().copied()), None);
    }

    #[test]
    fn a_clear_typo_has_no_close_second() {
        let names = ["max_connections", "max_connect_errors", "sort_buffer_size"];
        assert_eq!(
            unique("max_conections", names.iter().copied()),
            Some("max_connections")
        );
        assert_eq!(unique("zzzzzz", names.iter().copied()), None);
        let two = ["innodb_log_file_size", "innodb_log_file_sizes"];
        assert_eq!(unique("innodb_log_file_siz", two.iter().copied()), None);
    }
}
