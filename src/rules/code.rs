//! A check's code (`MT101`, `MT011`): the one key every finding, rule,
//! built-in check, suppression and baseline entry is known by. A type of its
//! own so a code is never confused with a variable name or a message, and
//! its spelling is checked once, where it enters.

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;

use serde::{Deserialize, Serialize};

/// `MT` and three digits. Built-in checks are `MT0xx`; rules `MT1xx`–`MT9xx`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Code(Cow<'static, str>);

impl Code {
    /// A code written in the source (a built-in check's constant).
    pub const fn from_static(code: &'static str) -> Code {
        Code(Cow::Borrowed(code))
    }

    /// A code read from a file or the command line, in any case.
    pub fn parse(text: &str) -> Result<Code, String> {
        let t = text.trim().to_ascii_uppercase();
        if t.len() == 5 && t.starts_with("MT") && t[2..].bytes().all(|b| b.is_ascii_digit()) {
            Ok(Code(Cow::Owned(t)))
        } else {
            Err(format!(
                "'{text}' is not a code (expected MT followed by three digits, e.g. MT101)"
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The family digit (`1` for MT101; `0` for the built-in checks).
    pub fn digit(&self) -> u32 {
        u32::from(
            self.0
                .as_bytes()
                .get(2)
                .copied()
                .unwrap_or(b'0')
                .wrapping_sub(b'0'),
        )
    }
}

impl Deref for Code {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Code {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Code {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for Code {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Code> for &str {
    fn eq(&self, other: &Code) -> bool {
        **self == *other.0
    }
}

impl PartialEq<Code> for str {
    fn eq(&self, other: &Code) -> bool {
        *self == *other.0
    }
}

/// A code written in the source; codes read from input go through
/// [`Code::parse`].
impl From<&'static str> for Code {
    fn from(code: &'static str) -> Code {
        Code::from_static(code)
    }
}

impl From<Code> for String {
    fn from(c: Code) -> String {
        c.0.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_mt_and_three_digits_in_any_case() {
        assert_eq!(Code::parse("mt101").unwrap(), "MT101");
        assert_eq!(Code::parse("MT011").unwrap().digit(), 0);
        assert_eq!(Code::parse("MT815").unwrap().digit(), 8);
        for bad in [
            "MT10",
            "MT1010",
            "XX101",
            "MT1a1",
            "",
            "innodb_buffer_pool_size",
        ] {
            assert!(Code::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_code_compares_and_looks_up_as_its_text() {
        let c = Code::from_static("MT011");
        assert_eq!(c, "MT011");
        assert_eq!("MT011", c);
        let mut set = std::collections::HashSet::new();
        set.insert(c.clone());
        assert!(set.contains("MT011"));
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"MT011\"");
        assert_eq!(serde_json::from_str::<Code>("\"MT011\"").unwrap(), c);
    }
}
