//! Text to a width: how every text output wraps, and how wide it may be.
//!
//! One rule for all of them (the check report, `rules`, `explain`, the
//! comments of generated files): words are never broken and never split at
//! a hyphen (`mariadb-secure-installation`, `skip-name-resolve` stay whole),
//! and the width is the terminal's, `COLUMNS` when it holds a usable
//! number, else 80.

/// The width when nothing says otherwise, and the least a layout assumes.
pub const DEFAULT_WIDTH: u16 = 80;

/// `text` as lines of at most `width` columns (a longer word stands alone
/// on its line), continuation lines starting with `indent`. Paragraphs
/// (line breaks in `text`) are kept.
pub fn lines(text: &str, width: usize, indent: &str) -> Vec<String> {
    let opts = textwrap::Options::new(width.max(1))
        .subsequent_indent(indent)
        .break_words(false)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    let mut out = Vec::new();
    for para in text.split('\n') {
        if para.trim().is_empty() {
            out.push(String::new());
            continue;
        }
        out.extend(
            textwrap::wrap(para, &opts)
                .into_iter()
                .map(|l| l.into_owned()),
        );
    }
    out
}

/// [`lines`] joined by line breaks.
pub fn fill(text: &str, width: usize, indent: &str) -> String {
    lines(text, width, indent).join("\n")
}

/// The width text output fits: `COLUMNS` when it is a number of at least
/// 20, else `terminal` (the terminal's width, when output goes to one),
/// else [`DEFAULT_WIDTH`]. `COLUMNS=0` or garbage counts as unset.
pub fn width(columns: Option<&str>, terminal: Option<u16>) -> u16 {
    columns
        .and_then(|c| c.trim().parse::<u16>().ok())
        .filter(|&c| c >= 20)
        .or(terminal.filter(|&t| t >= 20))
        .unwrap_or(DEFAULT_WIDTH)
}

/// [`width`] for standard output: `COLUMNS`, else the terminal's width
/// when standard output is one.
pub fn stdout_width() -> u16 {
    use std::io::IsTerminal;
    let terminal = std::io::stdout()
        .is_terminal()
        .then(|| terminal_size::terminal_size().map(|(w, _)| w.0))
        .flatten();
    width(std::env::var("COLUMNS").ok().as_deref(), terminal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_splits_a_word_or_a_hyphenated_name() {
        let text = "run mariadb-secure-installation to drop the anonymous accounts";
        for w in 20..60 {
            for l in lines(text, w, "") {
                assert!(!l.ends_with('-'), "width {w}: split at a hyphen: {l:?}");
            }
        }
        assert!(
            lines(text, 20, "")
                .iter()
                .any(|l| l.contains("mariadb-secure-installation"))
        );
    }

    #[test]
    fn garbage_or_zero_columns_fall_back() {
        assert_eq!(width(Some("0"), None), 80);
        assert_eq!(width(Some("wide"), Some(132)), 132);
        assert_eq!(width(Some("100"), Some(132)), 100);
        assert_eq!(width(None, None), 80);
        assert_eq!(width(Some("5"), None), 80);
    }
}
