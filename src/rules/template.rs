//! Message templates: text with `{expression}` or `{expression:format}`
//! placeholders, checked at load time like any other expression.
//!
//! Formats: `size` (`1.5G`), `pct` (`62%`, the value being a fraction),
//! `int` (rounded), none (numbers as numbers, ON/OFF, text). `{{` and `}}`
//! are literal braces.

use serde::{Serialize, Serializer};

use super::expr::{self, CheckEnv, EvalError, Expr, ExprError, Scope, Span, Value};
use crate::units;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Plain,
    Size,
    Pct,
    Int,
}

#[derive(Debug, Clone)]
enum Piece {
    Text(String),
    Slot { expr: Expr, format: Format },
}

#[derive(Debug, Clone)]
pub struct Template {
    pub text: String,
    pieces: Vec<Piece>,
}

impl Serialize for Template {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl Template {
    /// Parse and check a template. Error spans are offsets in `src`.
    pub fn compile(src: &str, env: &CheckEnv) -> Result<Template, ExprError> {
        let mut pieces = Vec::new();
        let mut text = String::new();
        let bytes = src.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'{' if bytes.get(i + 1) == Some(&b'{') => {
                    text.push('{');
                    i += 2;
                }
                b'}' if bytes.get(i + 1) == Some(&b'}') => {
                    text.push('}');
                    i += 2;
                }
                b'}' => {
                    return Err(ExprError::new(
                        Span::new(i, i + 1),
                        "unmatched '}' in message (write '}}' for a brace)",
                    ));
                }
                b'{' => {
                    let close = find_close(src, i + 1).ok_or_else(|| {
                        ExprError::new(Span::new(i, i + 1), "unclosed '{' in message")
                    })?;
                    if !text.is_empty() {
                        pieces.push(Piece::Text(std::mem::take(&mut text)));
                    }
                    let inner = &src[i + 1..close];
                    let (body, format) = split_format(inner);
                    let format = match format {
                        None => Format::Plain,
                        Some((f, off)) => parse_format(f).ok_or_else(|| {
                            let start = i + 1 + off;
                            ExprError::new(
                                Span::new(start, start + f.len()),
                                format!("unknown format ':{f}' (expected size, pct or int)"),
                            )
                        })?,
                    };
                    let shift = |e: ExprError| {
                        ExprError::new(
                            Span::new(e.span.start + i + 1, e.span.end + i + 1),
                            e.message,
                        )
                    };
                    let e = expr::parse(body).map_err(shift)?;
                    expr::check(&e, env).map_err(shift)?;
                    pieces.push(Piece::Slot { expr: e, format });
                    i = close + 1;
                }
                _ => {
                    let ch = src[i..].chars().next().expect("in bounds");
                    text.push(ch);
                    i += ch.len_utf8();
                }
            }
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        Ok(Template {
            text: src.to_string(),
            pieces,
        })
    }

    pub fn render(&self, scope: &mut dyn Scope) -> Result<String, EvalError> {
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Slot { expr: e, format } => {
                    let v = expr::eval(e, scope)?;
                    out.push_str(&render_value(&v, *format)?);
                }
            }
        }
        Ok(out)
    }

    /// Replace every expression by `f` of it (the loader expands the
    /// catalog's model entries this way).
    pub fn map_exprs(&mut self, f: &dyn Fn(&Expr) -> Expr) {
        for p in &mut self.pieces {
            if let Piece::Slot { expr, .. } = p {
                *expr = f(expr);
            }
        }
    }

    /// Every expression in the template.
    pub fn exprs(&self) -> impl Iterator<Item = &Expr> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Slot { expr, .. } => Some(expr),
            Piece::Text(_) => None,
        })
    }
}

/// The `}` closing a placeholder, skipping quoted strings.
fn find_close(src: &str, from: usize) -> Option<usize> {
    let bytes = src.as_bytes();
    let mut quote = None;
    let mut i = from;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'}' => return Some(i),
            None if b == b'{' => return None,
            None => {}
        }
        i += 1;
    }
    None
}

/// Split `expr:format` at the last `:` outside quotes.
fn split_format(inner: &str) -> (&str, Option<(&str, usize)>) {
    let mut quote = None;
    let mut last = None;
    for (i, b) in inner.bytes().enumerate() {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b':' => last = Some(i),
            None => {}
        }
    }
    match last {
        Some(i) => (&inner[..i], Some((inner[i + 1..].trim(), i + 1))),
        None => (inner, None),
    }
}

fn parse_format(f: &str) -> Option<Format> {
    match f {
        "size" => Some(Format::Size),
        "pct" => Some(Format::Pct),
        "int" => Some(Format::Int),
        _ => None,
    }
}

fn render_value(v: &Value, format: Format) -> Result<String, EvalError> {
    Ok(match format {
        Format::Plain => match v {
            Value::Num(n) if n.fract() != 0.0 => format!("{n:.2}")
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string(),
            other => other.to_string(),
        },
        Format::Size => {
            let n = v.as_num()?;
            if n < 0.0 {
                format!("-{}", units::human_size((-n).round() as u64))
            } else {
                units::human_size(n.round() as u64)
            }
        }
        Format::Pct => {
            let p = v.as_num()? * 100.0;
            if p.abs() < 10.0 && p.fract().abs() > 0.05 {
                format!("{p:.1}%")
            } else {
                format!("{}%", p.round() as i64)
            }
        }
        Format::Int => format!("{}", v.as_num()?.round() as i64),
    })
}
