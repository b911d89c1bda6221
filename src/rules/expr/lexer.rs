//! Tokens of the rule expression language. Hand-written so that size
//! (`1.5G`), percentage (`70%`) and version (`8.0.30`) literals are single
//! tokens with exact spans.

use super::ExprError;
use super::ast::Span;
use crate::target::Version;
use crate::units;

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// A number, already scaled for sizes and percentages. `text` is the
    /// literal as written; `plain_xy` is set for an unsuffixed `X.Y`.
    Num {
        value: f64,
        text: String,
        plain_xy: Option<Version>,
    },
    Version(Version),
    Str(String),
    Ident(String),
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Dot,
    Plus,
    Minus,
    Star,
    Slash,
    Bang,
    AndAnd,
    OrOr,
    EqEq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Tok {
    pub fn describe(&self) -> String {
        match self {
            Tok::Num { text, .. } => format!("number '{text}'"),
            Tok::Version(v) => format!("version '{v}'"),
            Tok::Str(_) => "a string".into(),
            Tok::Ident(s) => format!("'{s}'"),
            other => format!("'{}'", punct_text(other)),
        }
    }
}

fn punct_text(t: &Tok) -> &'static str {
    match t {
        Tok::LParen => "(",
        Tok::RParen => ")",
        Tok::LBracket => "[",
        Tok::RBracket => "]",
        Tok::Comma => ",",
        Tok::Dot => ".",
        Tok::Plus => "+",
        Tok::Minus => "-",
        Tok::Star => "*",
        Tok::Slash => "/",
        Tok::Bang => "!",
        Tok::AndAnd => "&&",
        Tok::OrOr => "||",
        Tok::EqEq => "==",
        Tok::NotEq => "!=",
        Tok::Lt => "<",
        Tok::Le => "<=",
        Tok::Gt => ">",
        Tok::Ge => ">=",
        _ => "?",
    }
}

pub fn tokenize(src: &str) -> Result<Vec<(Tok, Span)>, ExprError> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let (tok, end) = number(src, i)?;
            out.push((tok, Span::new(start, end)));
            i = end;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((
                Tok::Ident(src[start..i].to_ascii_lowercase()),
                Span::new(start, i),
            ));
            continue;
        }
        if c == b'"' || c == b'\'' {
            let (s, end) = string(src, i)?;
            out.push((Tok::Str(s), Span::new(start, end)));
            i = end;
            continue;
        }
        let (tok, len) = match (c, bytes.get(i + 1).copied()) {
            (b'&', Some(b'&')) => (Tok::AndAnd, 2),
            (b'|', Some(b'|')) => (Tok::OrOr, 2),
            (b'=', Some(b'=')) => (Tok::EqEq, 2),
            (b'!', Some(b'=')) => (Tok::NotEq, 2),
            (b'<', Some(b'=')) => (Tok::Le, 2),
            (b'>', Some(b'=')) => (Tok::Ge, 2),
            _ => match c {
                b'(' => (Tok::LParen, 1),
                b')' => (Tok::RParen, 1),
                b'[' => (Tok::LBracket, 1),
                b']' => (Tok::RBracket, 1),
                b',' => (Tok::Comma, 1),
                b'.' => (Tok::Dot, 1),
                b'+' => (Tok::Plus, 1),
                b'-' => (Tok::Minus, 1),
                b'*' => (Tok::Star, 1),
                b'/' => (Tok::Slash, 1),
                b'!' => (Tok::Bang, 1),
                b'<' => (Tok::Lt, 1),
                b'>' => (Tok::Gt, 1),
                b'=' => {
                    return Err(ExprError::new(
                        Span::new(i, i + 1),
                        "unexpected '=' (use '==' to compare)",
                    ));
                }
                b'&' | b'|' => {
                    let ch = c as char;
                    return Err(ExprError::new(
                        Span::new(i, i + 1),
                        format!("unexpected '{ch}' (use '{ch}{ch}')"),
                    ));
                }
                _ => {
                    let ch = src[i..].chars().next().unwrap_or('?');
                    return Err(ExprError::new(
                        Span::new(i, i + ch.len_utf8()),
                        format!("unexpected character '{ch}'"),
                    ));
                }
            },
        };
        out.push((tok, Span::new(i, i + len)));
        i += len;
    }
    Ok(out)
}

/// Number, size, percentage or version literal starting at `start`.
fn number(src: &str, start: usize) -> Result<(Tok, usize), ExprError> {
    let bytes = src.as_bytes();
    let mut i = start;
    let mut groups = Vec::new();
    loop {
        let g = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        groups.push(&src[g..i]);
        if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
            i += 1;
            continue;
        }
        break;
    }
    let text_end = i;
    let text = &src[start..text_end];
    let next = bytes.get(i).copied();
    let ident_follows = |j: usize| {
        bytes
            .get(j)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
    };
    if groups.len() > 3 {
        return Err(ExprError::new(
            Span::new(start, text_end),
            format!("'{text}' is not a number or a version (X.Y.Z)"),
        ));
    }
    if groups.len() == 3 {
        if next.is_some_and(|b| b.is_ascii_alphabetic() || b == b'%') {
            return Err(ExprError::new(
                Span::new(start, text_end + 1),
                format!("a version literal ('{text}') cannot have a suffix"),
            ));
        }
        let v = parse_version(&groups).ok_or_else(|| {
            ExprError::new(Span::new(start, text_end), format!("'{text}' is too large"))
        })?;
        return Ok((Tok::Version(v), text_end));
    }
    let value: f64 = text
        .parse()
        .map_err(|_| ExprError::new(Span::new(start, text_end), "not a number"))?;
    let plain_xy = if groups.len() == 2 {
        parse_version(&groups)
    } else {
        None
    };
    match next {
        Some(b'%') => Ok((
            Tok::Num {
                value: value / 100.0,
                text: src[start..=text_end].to_string(),
                plain_xy: None,
            },
            text_end + 1,
        )),
        Some(b) if b.is_ascii_alphabetic() => {
            let mult = units::suffix_multiplier(b as char);
            match mult {
                Some(m) if !ident_follows(i + 1) => Ok((
                    Tok::Num {
                        value: value * m as f64,
                        text: src[start..=text_end].to_string(),
                        plain_xy: None,
                    },
                    text_end + 1,
                )),
                _ => {
                    let mut j = i;
                    while ident_follows(j) {
                        j += 1;
                    }
                    Err(ExprError::new(
                        Span::new(i, j),
                        format!(
                            "unknown size suffix '{}' (use K, M, G, T, P or E)",
                            &src[i..j]
                        ),
                    ))
                }
            }
        }
        _ => Ok((
            Tok::Num {
                value,
                text: text.to_string(),
                plain_xy,
            },
            text_end,
        )),
    }
}

fn parse_version(groups: &[&str]) -> Option<Version> {
    let n = |i: usize| -> Option<u32> {
        match groups.get(i) {
            Some(g) => g.parse().ok(),
            None => Some(0),
        }
    };
    Some(Version::new(n(0)?, n(1)?, n(2)?))
}

/// A quoted string; `\\`, `\"`, `\'`, `\n`, `\t` escapes.
fn string(src: &str, start: usize) -> Result<(String, usize), ExprError> {
    let quote = src.as_bytes()[start] as char;
    let mut out = String::new();
    let mut chars = src[start + 1..].char_indices();
    while let Some((off, c)) = chars.next() {
        let pos = start + 1 + off;
        if c == quote {
            return Ok((out, pos + 1));
        }
        if c == '\\' {
            match chars.next() {
                Some((_, 'n')) => out.push('\n'),
                Some((_, 't')) => out.push('\t'),
                Some((_, e @ ('\\' | '"' | '\''))) => out.push(e),
                Some((o, e)) => {
                    return Err(ExprError::new(
                        Span::new(pos, start + 1 + o + e.len_utf8()),
                        format!("unknown escape '\\{e}'"),
                    ));
                }
                None => break,
            }
        } else {
            out.push(c);
        }
    }
    Err(ExprError::new(
        Span::new(start, src.len()),
        "unterminated string",
    ))
}
