//! The rule files as read: the TOML shape (`RawFile`, `RawRule`, …) with
//! the position of every value, so each mistake names file:line:col.

use super::*;

/// Byte offset → 1-based line and column (in characters).
pub(super) struct LineIndex<'a> {
    pub(super) file: &'a Path,
    pub(super) text: &'a str,
}

impl LineIndex<'_> {
    pub(super) fn at(&self, offset: usize) -> SourceLocation {
        let mut offset = offset.min(self.text.len());
        // Escapes in a TOML string can shift an expression offset off a
        // character boundary; step back to one.
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line = before.matches('\n').count() as u32 + 1;
        let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let column = before[line_start..].chars().count() as u32 + 1;
        SourceLocation {
            file: self.file.to_path_buf(),
            line,
            column,
        }
    }

    pub(super) fn err(&self, offset: usize, message: impl Into<String>) -> RuleError {
        RuleError {
            location: self.at(offset),
            message: message.into(),
        }
    }

    /// Where the content of the TOML string whose token starts at `start`
    /// begins (after the quotes, and after the newline that opens a
    /// multi-line string).
    pub(super) fn content_start(&self, start: usize) -> usize {
        let rest = &self.text[start.min(self.text.len())..];
        if rest.starts_with("\"\"\"") || rest.starts_with("'''") {
            let after = &rest[3..];
            if after.starts_with("\r\n") {
                start + 5
            } else if after.starts_with('\n') {
                start + 4
            } else {
                start + 3
            }
        } else if rest.starts_with('"') || rest.starts_with('\'') {
            start + 1
        } else {
            start
        }
    }

    /// An error inside an expression string: exact when the string has no
    /// escapes.
    pub(super) fn expr_err(&self, s: &Spanned<String>, e: ExprError) -> RuleError {
        self.err(self.content_start(s.span().start) + e.span.start, e.message)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFile {
    /// The shared model (`[model]`): `NAME = "expression"`.
    #[serde(default)]
    pub(super) model: BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    pub(super) rule: Vec<Spanned<RawRule>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRule {
    pub(super) code: Spanned<String>,
    pub(super) name: Spanned<String>,
    pub(super) family: Spanned<String>,
    pub(super) severity: Spanned<String>,
    #[serde(default)]
    pub(super) confidence: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) tags: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) applies: Option<Spanned<BTreeMap<String, Spanned<String>>>>,
    #[serde(default, rename = "let")]
    pub(super) lets: BTreeMap<String, Spanned<String>>,
    pub(super) when: Spanned<String>,
    #[serde(default)]
    pub(super) variable: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) format: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) recommend: Vec<Spanned<RawRecommend>>,
    pub(super) message: Spanned<String>,
    pub(super) rationale: Spanned<String>,
    #[serde(default)]
    pub(super) sources: Vec<Spanned<RawSource>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRecommend {
    pub(super) variable: Spanned<String>,
    pub(super) value: Spanned<String>,
    #[serde(default)]
    pub(super) profile: Option<Spanned<BTreeMap<String, Spanned<String>>>>,
    #[serde(default)]
    pub(super) format: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) offer_if: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) withheld: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSource {
    pub(super) article: Option<Spanned<String>>,
    pub(super) section: Option<String>,
    pub(super) title: Option<String>,
    pub(super) url: Option<String>,
}

pub(super) fn parse_field<T: std::str::FromStr<Err = String>>(
    idx: &LineIndex,
    s: &Spanned<String>,
) -> Result<T, RuleError> {
    s.get_ref()
        .parse()
        .map_err(|e: String| idx.err(s.span().start, e))
}

pub(super) fn compile(
    idx: &LineIndex,
    s: &Spanned<String>,
    env: &CheckEnv,
) -> Result<(Compiled, Type), RuleError> {
    let (e, t) = expr::compile(s.get_ref(), env).map_err(|e| idx.expr_err(s, e))?;
    Ok((
        Compiled {
            text: s.get_ref().trim().to_string(),
            expr: e,
        },
        t,
    ))
}
