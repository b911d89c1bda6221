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

/// How far apart two names are as sequences of words (`_`-separated): a
/// word dropped, added or two neighbours swapped costs 1, and so does a
/// word with one letter wrong; a word replaced by an unrelated one costs 2
/// (a drop and an add), because that names another setting, not a typo
/// (`innodb_log_size` is one word from `innodb_log_file_size` but two from
/// `innodb_page_size`).
pub(crate) fn word_distance(a: &str, b: &str) -> usize {
    let a: Vec<&str> = a.split('_').collect();
    let b: Vec<&str> = b.split('_').collect();
    let sub = |x: &str, y: &str| -> usize {
        if x == y {
            0
        } else if x.len().min(y.len()) >= 3 && distance(x, y, 1) <= 1 {
            1
        } else {
            2
        }
    };
    // Damerau-Levenshtein (optimal string alignment) over words.
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + sub(a[i - 1], b[j - 1]));
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// Up to `n` candidates for a misspelt `name`, the likeliest first. A
/// candidate qualifies as a letter typo (edit distance within
/// [`limit_for`]), a word typo (one word dropped, added, swapped or
/// misspelt: [`word_distance`] 1), or a completion (`name` a prefix of it,
/// at least 6 characters typed). They are ranked by the smaller of the two
/// distances, then the letter distance, then length and name, so the order
/// is stable. Only suggestions: a guess is never applied (`lint --fix`
/// renames nothing by similarity).
pub(crate) fn ranked<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
    n: usize,
) -> Vec<&'a str> {
    let limit = limit_for(name.len());
    let (mut prev, mut cur) = (Vec::with_capacity(64), Vec::with_capacity(64));
    let mut found: Vec<((usize, usize, usize), &'a str)> = Vec::new();
    for c in candidates {
        if c == name {
            continue;
        }
        // Letter distance up to a wider bound, so a word typo can be
        // ranked among letter typos.
        let d = distance_with(name, c, limit + 6, &mut prev, &mut cur);
        let w = if name.len().abs_diff(c.len()) <= 24 {
            word_distance(name, c)
        } else {
            usize::MAX
        };
        let completion = name.len() >= 6 && c.starts_with(name);
        if d <= limit || w <= 1 || completion {
            let score = if completion {
                d.min(w).min(2)
            } else {
                d.min(w)
            };
            found.push(((score, d, c.len()), c));
        }
    }
    found.sort();
    found.dedup_by(|a, b| a.1 == b.1);
    let best = found.first().map(|(k, _)| k.0).unwrap_or(0);
    found
        .into_iter()
        // Nothing much worse than the best: one more edit at most.
        .take_while(|(k, _)| k.0 <= best + 1)
        .take(n)
        .map(|(_, c)| c)
        .collect()
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
    fn ranks_letter_and_word_typos_and_completions() {
        let names = [
            "max_connections",
            "max_connect_errors",
            "innodb_buffer_pool_size",
            "innodb_log_file_size",
            "innodb_page_size",
            "replicate_do_db",
            "replicate_ignore_db",
            "replicate_do_table",
        ];
        let r = |n: &str| ranked(n, names.iter().copied(), 3);
        assert_eq!(r("max_conections")[0], "max_connections");
        assert_eq!(r("innodb_buffer_pool")[0], "innodb_buffer_pool_size");
        assert_eq!(r("innodb_log_size")[0], "innodb_log_file_size");
        assert_eq!(
            r("replicate_db")[..2],
            ["replicate_do_db", "replicate_ignore_db"]
        );
        assert_eq!(r("pool_buffer_innodb_size"), Vec::<&str>::new());
        assert_eq!(r("innodb_pool_buffer_size")[0], "innodb_buffer_pool_size");
        assert!(r("zzzzzz").is_empty());
    }

    #[test]
    fn word_distance_counts_whole_words() {
        assert_eq!(word_distance("innodb_log_size", "innodb_log_file_size"), 1);
        assert_eq!(word_distance("innodb_log_size", "innodb_page_size"), 2);
        assert_eq!(word_distance("a_b_c", "a_c_b"), 1);
        assert_eq!(word_distance("max_conections", "max_connections"), 1);
    }
}
