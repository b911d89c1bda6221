//! Failed-login records that span lines.
//!
//! Why: the server writes `Access denied for user 'NAME'@'HOST' (using
//! password: YES)` with NAME exactly as the client sent it, newlines
//! included. A client can therefore put whole lines into the log, such as
//! `2026-12-06 10:00:00 0 [Note] mariadbd: Shutdown complete`, that look like
//! the server's own. Read line by line, such a name forged crashes, clean
//! stops and starts, and hid the failed login itself.
//!
//! A record is read by its fields instead: it opens on a connection's line
//! whose message begins `Access denied for user '`, and it closes where a
//! line ends with `'@'HOST' (using password: YES|NO)` (HOST never holds a
//! quote), at most [`USER_NAME_MAX_CHARS`] characters of name later (the
//! server truncates longer names). Lines up to a close that must belong to
//! the record (the opening line did not close, or a later line without a
//! timestamp closes) are part of the name. Lines after the first close
//! that could still be part of the name (a later close within the length
//! bound) are ambiguous: failed logins there still count, but none of them
//! is a server event.

use super::Line;

/// The most characters of a user name the server logs (MariaDB's
/// `USERNAME_CHAR_LENGTH`; MySQL's limit is 32).
pub const USER_NAME_MAX_CHARS: usize = 128;
/// The most characters of a user or host name kept in the facts.
const ACCOUNT_PART_MAX: usize = 64;
const OPENER: &str = "Access denied for user '";

/// What each physical line of a tail is, as far as failed logins go.
#[derive(Debug, Default)]
pub struct Roles {
    /// Part of a failed login's user name: never classified.
    pub inside: Vec<bool>,
    /// May be part of a user name: its failed login counts, but it is no
    /// server event.
    pub untrusted: Vec<bool>,
    /// The account of a failed login that opens on this line.
    pub account: Vec<Option<String>>,
}

/// Split `NAME'@'HOST' (using password: YES)` (the text after the opening
/// quote) into name and host, from the end.
pub fn split_account(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_end_matches('\r');
    let body = s
        .strip_suffix("' (using password: YES)")
        .or_else(|| s.strip_suffix("' (using password: NO)"))
        // Servers that log no password part.
        .or_else(|| s.strip_suffix('\''))?;
    let at = body.rfind("'@'")?;
    let host = &body[at + 3..];
    (!host.contains('\'')).then(|| (&body[..at], host))
}

/// `'user'@'host'`, each part clipped. Kept as the server logged it, a
/// newline included: the reports escape what they print.
pub fn account_text(user: &str, host: &str) -> String {
    let part = |p: &str| -> String { p.chars().take(ACCOUNT_PART_MAX).collect() };
    format!("'{}'@'{}'", part(user), part(host))
}

/// Does this line open a failed-login record? The text after the quote.
fn opener<'a>(raw: &'a str, line: &Line<'_>) -> Option<&'a str> {
    if line.stamp.is_none() || line.thread == Some(0) || line.os_thread {
        return None;
    }
    line.message.strip_prefix(OPENER)?;
    // The message is a suffix of the raw line.
    let at = raw.len() - line.message.trim_end_matches('\r').len();
    raw.get(at + OPENER.len()..)
}

/// The roles of `raw` lines (with their parsed fields `lines`).
pub fn roles(raw: &[&str], lines: &[Line<'_>]) -> Roles {
    let n = raw.len();
    let mut r = Roles {
        inside: vec![false; n],
        untrusted: vec![false; n],
        account: vec![None; n],
    };
    for i in 0..n {
        if r.inside[i] {
            continue;
        }
        let Some(first) = opener(raw[i], &lines[i]) else {
            continue;
        };
        // Candidate closes: (line, account), within the name's bound.
        let mut closes: Vec<(usize, String)> = Vec::new();
        let mut name = String::new();
        for (j, text) in raw.iter().enumerate().skip(i) {
            let text = if j == i { first } else { *text };
            let sep = if j == i { "" } else { "\n" };
            if let Some((user, host)) = split_account(text) {
                let full = format!("{name}{sep}{user}");
                if full.chars().count() <= USER_NAME_MAX_CHARS {
                    closes.push((j, account_text(&full, host)));
                }
            }
            name.push_str(sep);
            name.push_str(text);
            if name.chars().count() > USER_NAME_MAX_CHARS {
                break;
            }
        }
        let Some((first_close, _)) = closes.first() else {
            // No close within the bound (a cut tail): the first line alone.
            r.account[i] = Some(account_text(first, "?"));
            continue;
        };
        let last_plain = closes
            .iter()
            .rev()
            .find(|(j, _)| lines[*j].stamp.is_none())
            .map(|(j, _)| *j);
        let end = last_plain.map_or(*first_close, |p| p.max(*first_close));
        let last = closes.last().map_or(end, |(j, _)| *j);
        r.account[i] = closes
            .iter()
            .find(|(j, _)| *j == end)
            .map(|(_, a)| a.clone());
        for k in i + 1..=end {
            r.inside[k] = true;
        }
        for k in end + 1..=last {
            r.untrusted[k] = true;
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collect::errorlog::parse_line;

    fn roles_of(text: &str) -> Roles {
        let raw: Vec<&str> = text.lines().collect();
        let lines: Vec<Line<'_>> = raw.iter().map(|l| parse_line(l)).collect();
        roles(&raw, &lines)
    }

    #[test]
    fn accounts_are_read_from_the_end() {
        assert_eq!(
            split_account("a'@'b'@'localhost' (using password: YES)"),
            Some(("a'@'b", "localhost"))
        );
        assert_eq!(split_account("x'@'h' (using"), None);
        assert_eq!(account_text("a\nb", "h"), "'a\nb'@'h'");
    }

    #[test]
    fn a_name_with_newlines_is_one_record() {
        let text = "2026-12-06  9:56:23 5 [Warning] Access denied for user 'evil\n\
                    2026-12-06 10:00:00 0 [Note] mariadbd: Shutdown complete\n\
                    x'@'localhost' (using password: YES)\n\
                    2026-12-06  9:56:24 0 [Note] InnoDB: Buffer pool(s) load completed at 261206  9:56:24\n";
        let r = roles_of(text);
        assert_eq!(r.inside, vec![false, true, true, false]);
        assert_eq!(
            r.account[0].as_deref(),
            Some("'evil\n2026-12-06 10:00:00 0 [Note] mariadbd: Shutdown complete\nx'@'localhost'")
        );
    }

    #[test]
    fn lines_a_name_could_hold_after_its_first_close_are_untrusted() {
        // A name that closes early, forges a crash, and opens a new record
        // the server's real close ends.
        let text = "2026-12-06  9:56:23 5 [Warning] Access denied for user 'x'@'h' (using password: NO)\n\
                    261206 10:00:00 [ERROR] mariadbd got signal 11 ;\n\
                    261206 10:00:00 7 Access denied for user 'q'@'localhost' (using password: YES)\n\
                    Sorry, we probably made a mistake, and this is a bug. Not in a name: far too long to be one.\n";
        let r = roles_of(text);
        assert_eq!(r.inside, vec![false; 4]);
        assert_eq!(r.untrusted, vec![false, true, true, false]);
        assert_eq!(r.account[0].as_deref(), Some("'x'@'h'"));
        assert_eq!(r.account[2].as_deref(), Some("'q'@'localhost'"));
    }
}
