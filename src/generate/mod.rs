//! Generated files: a commented option file (`gen-cnf`), a `sysctl.d` file
//! (`gen-sysctl`) and a `limits.d` file with a systemd drop-in
//! (`gen-limits`).
//!
//! Why this module holds no tuning advice: every value written comes from a
//! rule's recommendation (`rules/*.toml`), so `check`, `lint` and the
//! generators can never disagree. What lives here is mechanics only:
//!
//! - [`host`] turns `--memory/--cpus/--disk` or this machine into host facts
//!   and finds the locally installed server;
//! - [`plan`] runs the rule engine to a fixed point (a recommendation is
//!   applied, the rules are evaluated again until nothing changes), so that
//!   rules that depend on each other's variables (the buffer pool and the
//!   per-connection memory) see the values that will actually be written;
//! - [`cnf`], [`sysctl`] and [`limits`] write one kind of file each, checking
//!   every value against what its consumer accepts (the variable catalog, the
//!   kernel's sysctl syntax, systemd's unit syntax).

pub mod cnf;
pub mod host;
pub mod limits;
pub mod plan;
pub mod sysctl;

use thiserror::Error;

pub use plan::{Plan, Setting, WithheldSetting};

/// Why a file could not be generated.
#[derive(Debug, Clone, Error, PartialEq)]
pub enum GenError {
    #[error(transparent)]
    Catalog(#[from] crate::catalog::CatalogError),
    /// A rule recommended a value the target would refuse or change.
    #[error(
        "{code} recommends {variable} = {value}, which {target} does not accept as is: {message}"
    )]
    BadValue {
        code: crate::rules::Code,
        variable: String,
        value: String,
        target: String,
        message: String,
    },
    /// A rule recommended a variable the target does not have.
    #[error("{code} recommends {variable}, which {target} does not have")]
    UnknownVariable {
        code: crate::rules::Code,
        variable: String,
        target: String,
    },
    /// Applying the recommendations and evaluating again kept changing them.
    #[error(
        "the rules do not agree on a configuration after {rounds} rounds; still changing: {}",
        changing.join(", ")
    )]
    NotConverged {
        rounds: usize,
        changing: Vec<String>,
    },
    /// A rule recommended an OS setting that is never safe to write.
    #[error("{code} recommends {setting} = {value}: {why}; mytune never writes it")]
    Unsafe {
        code: crate::rules::Code,
        setting: String,
        value: String,
        why: String,
    },
    /// A recommendation cannot be written into the file's syntax.
    #[error("{code} recommends {setting} = {value:?}: {why}")]
    Unwritable {
        code: String,
        setting: String,
        value: String,
        why: String,
    },
    #[error("invalid profile: {0}")]
    Profile(String),
}

/// One generated file and where it belongs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// The absolute path it is meant to be installed at.
    pub path: String,
    pub text: String,
}

/// Split a comment into lines of at most `width` characters (words are not
/// broken), for `# ` comment blocks.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let one = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.is_empty() {
        return Vec::new();
    }
    crate::wrap::lines(&one, width, "")
}

/// The first sentence of a rule's rationale: the short "why" of a line.
pub(crate) fn first_sentence(text: &str) -> &str {
    let t = text.trim();
    let mut prev = ' ';
    for (i, c) in t.char_indices() {
        if prev == '.' && c.is_whitespace() {
            return &t[..i];
        }
        prev = c;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_on_words() {
        assert_eq!(
            wrap("aaa bbb ccc ddd", 7),
            vec!["aaa bbb".to_string(), "ccc ddd".to_string()]
        );
        assert_eq!(wrap("", 10), Vec::<String>::new());
        assert_eq!(wrap("averyveryverylongword x", 5).len(), 2);
    }

    #[test]
    fn first_sentence_stops_at_a_full_stop() {
        assert_eq!(first_sentence("One. Two."), "One.");
        assert_eq!(
            first_sentence("Sizes 1.5G differ. More"),
            "Sizes 1.5G differ."
        );
        assert_eq!(first_sentence("No stop"), "No stop");
    }
}
