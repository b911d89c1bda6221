//! `check --inventory` for people: one line per server that fits 80
//! columns (server, version, crit/warn/info, the top finding), then the full
//! reason of every server that could not be checked, and a closing line.
//! `--details` adds each server's full report after it.
//!
//! Names, versions and messages come from files and servers: they are
//! escaped ([`super::safe::escape`]) and cut to their column with `…`.

use std::fmt::Write;

use super::safe::escape;
use crate::fleet::outcome::ServerOutcome;
use crate::rules::Severity;

/// The width the summary fits.
pub const WIDTH: usize = 80;

const NAME: usize = 18;
const VERSION: usize = 16;
const COUNT: usize = 4;

/// `s` in exactly `width` columns (a wide character takes two): padded, or
/// cut with `…`.
fn fit(s: &str, width: usize) -> String {
    let cols = textwrap::core::display_width;
    let n = cols(s);
    if n <= width {
        return format!("{s}{}", " ".repeat(width - n));
    }
    let mut cut = String::new();
    for c in s.chars() {
        let mut next = cut.clone();
        next.push(c);
        if cols(&next) > width.saturating_sub(1) {
            break;
        }
        cut = next;
    }
    let pad = width.saturating_sub(1 + cols(&cut));
    format!("{cut}{}…", " ".repeat(pad))
}

/// The summary table and the reasons of the servers not checked.
/// `skipped`: inventory lines or hosts skipped (said in the last line).
pub fn render(outcomes: &[ServerOutcome], skipped: usize, fail_on: Severity) -> String {
    let mut out = String::new();
    let rest = WIDTH - (NAME + 1 + VERSION + 1 + 3 * (COUNT + 1) + 1);
    let _ = writeln!(
        out,
        "{} {} CRIT WARN INFO  TOP FINDING",
        fit("SERVER", NAME),
        fit("VERSION", VERSION),
    );
    for o in outcomes {
        let name = fit(&escape(&o.name), NAME);
        let line = match &o.status {
            Ok(r) => {
                let h = &r.header;
                let version = format!("{} {}", h.flavor.as_str(), h.version);
                let top = r
                    .findings
                    .first()
                    .map(|f| format!("{} {}", f.code, escape(&f.message)))
                    .unwrap_or_else(|| "-".into());
                format!(
                    "{name} {} {:>4} {:>4} {:>4}  {}",
                    fit(&escape(&version), VERSION),
                    r.summary.crit,
                    r.summary.warn,
                    r.summary.info,
                    fit(&top, rest)
                )
            }
            Err(e) => format!(
                "{name} {}",
                fit(&format!("not checked: {}", escape(e)), WIDTH - NAME - 1)
            ),
        };
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let failed: Vec<&ServerOutcome> = outcomes.iter().filter(|o| o.status.is_err()).collect();
    if !failed.is_empty() {
        let _ = writeln!(out, "\nNot checked:");
        for o in &failed {
            let reason = o.status.as_ref().err().map(|e| escape(e).into_owned());
            let text = format!("{}: {}", escape(&o.name), reason.unwrap_or_default());
            for l in textwrap::wrap(
                &text,
                textwrap::Options::new(WIDTH)
                    .initial_indent("  ")
                    .subsequent_indent("    "),
            ) {
                let _ = writeln!(out, "{l}");
            }
        }
    }
    let checked = outcomes.len() - failed.len();
    let reaching = outcomes.iter().filter(|o| o.reaches(fail_on)).count();
    let mut last = format!(
        "{} server{}: {checked} checked, {} not; {reaching} with findings at or above {fail_on}",
        outcomes.len(),
        if outcomes.len() == 1 { "" } else { "s" },
        failed.len()
    );
    if skipped > 0 {
        let _ = write!(
            last,
            "; {skipped} inventory entr{} skipped",
            if skipped == 1 { "y" } else { "ies" }
        );
    }
    let _ = writeln!(out);
    for l in textwrap::wrap(&last, WIDTH) {
        let _ = writeln!(out, "{l}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_columns() {
        assert_eq!(fit("abc", 5), "abc  ");
        assert_eq!(fit("abcdef", 5), "abcd…");
        assert_eq!(fit("abcde", 5), "abcde");
        // Wide characters take two columns.
        assert_eq!(fit("数据库服务器", 5), "数据…");
        assert_eq!(fit("数据", 5), "数据 ");
    }
}
