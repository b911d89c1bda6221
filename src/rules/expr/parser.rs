//! Precedence-climbing parser for rule expressions.
//!
//! Precedence, loosest first: `||`, `&&`, comparisons (`== != < <= > >= in`,
//! not chainable), `+ -`, `* /`, unary `! -`. Names are checked against the
//! namespaces and functions here; their types are checked in `check`.
//!
//! Nesting is bounded ([`MAX_DEPTH`]): every parenthesis, call, list, unary
//! operator and every further term of an operator chain counts one level, so
//! the tree handed to the checker, the evaluator, `Display` and `Drop` (all
//! recursive) is never deeper than the limit, and a hostile rule file is an
//! error at a position instead of a stack overflow.

use super::ExprError;
use super::ast::{BinOp, Expr, ExprKind, FactRef, Func, Namespace, Span, UnOp};
use super::lexer::{Tok, tokenize};

/// The deepest expression accepted. The built-in catalog needs under 20; the
/// limit keeps the recursive passes far from the stack of a 2 MiB thread.
pub const MAX_DEPTH: usize = 128;

/// Parse one expression (the whole text).
pub fn parse(src: &str) -> Result<Expr, ExprError> {
    let toks = tokenize(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        len: src.len(),
        depth: 0,
    };
    if p.toks.is_empty() {
        return Err(ExprError::new(Span::new(0, src.len()), "empty expression"));
    }
    let e = p.expr(0)?;
    if let Some((t, span)) = p.toks.get(p.pos) {
        return Err(ExprError::new(
            *span,
            format!(
                "unexpected {} after the end of the expression",
                t.describe()
            ),
        ));
    }
    Ok(e)
}

struct Parser {
    toks: Vec<(Tok, Span)>,
    pos: usize,
    len: usize,
    /// Levels entered so far (see [`MAX_DEPTH`]).
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|(t, _)| t)
    }

    fn peek_span(&self) -> Span {
        self.toks
            .get(self.pos)
            .map(|(_, s)| *s)
            .unwrap_or(Span::new(self.len, self.len))
    }

    fn bump(&mut self) -> Option<(Tok, Span)> {
        let t = self.toks.get(self.pos).cloned();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    fn expect(&mut self, want: Tok, what: &str) -> Result<Span, ExprError> {
        match self.bump() {
            Some((t, s)) if t == want => Ok(s),
            Some((t, s)) => Err(ExprError::new(
                s,
                format!("expected {what}, found {}", t.describe()),
            )),
            None => Err(ExprError::new(
                Span::new(self.len, self.len),
                format!("expected {what}, found the end of the expression"),
            )),
        }
    }

    /// Enter one more level at the current token; refuse past [`MAX_DEPTH`].
    fn descend(&mut self) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ExprError::new(
                self.peek_span(),
                format!(
                    "expression nested too deeply (more than {MAX_DEPTH} levels of parentheses, \
                     calls, operators or chained terms); split it, e.g. with `let`"
                ),
            ));
        }
        Ok(())
    }

    fn binop(&self) -> Option<BinOp> {
        Some(match self.peek()? {
            Tok::OrOr => BinOp::Or,
            Tok::AndAnd => BinOp::And,
            Tok::EqEq => BinOp::Eq,
            Tok::NotEq => BinOp::Ne,
            Tok::Lt => BinOp::Lt,
            Tok::Le => BinOp::Le,
            Tok::Gt => BinOp::Gt,
            Tok::Ge => BinOp::Ge,
            Tok::Plus => BinOp::Add,
            Tok::Minus => BinOp::Sub,
            Tok::Star => BinOp::Mul,
            Tok::Slash => BinOp::Div,
            _ => return None,
        })
    }

    fn expr(&mut self, min: u8) -> Result<Expr, ExprError> {
        let entry = self.depth;
        self.descend()?;
        let mut lhs = self.unary()?;
        let mut compared = false;
        loop {
            let is_in = matches!(self.peek(), Some(Tok::Ident(s)) if s == "in");
            let prec = if is_in {
                3
            } else {
                match self.binop() {
                    Some(op) => op.precedence(),
                    None => break,
                }
            };
            if prec < min {
                break;
            }
            if prec == 3 && compared {
                return Err(ExprError::new(
                    self.peek_span(),
                    "comparisons cannot be chained; join them with '&&'",
                ));
            }
            // Each further term deepens the left-leaning tree by one.
            self.descend()?;
            if is_in {
                self.bump();
                let open = self.expect(Tok::LBracket, "'[' after 'in'")?;
                let (items, close) = self.list_tail(open, Tok::RBracket)?;
                let span = lhs.span.to(close);
                lhs = Expr::new(ExprKind::In(Box::new(lhs), items), span);
            } else {
                let op = self.binop().expect("peeked");
                self.bump();
                let rhs = self.expr(prec + 1)?;
                let span = lhs.span.to(rhs.span);
                lhs = Expr::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span);
            }
            compared = prec == 3;
        }
        self.depth = entry;
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        let op = match self.peek() {
            Some(Tok::Bang) => UnOp::Not,
            Some(Tok::Minus) => UnOp::Neg,
            _ => return self.primary(),
        };
        let entry = self.depth;
        self.descend()?;
        let (_, s) = self.bump().expect("peeked");
        let inner = self.unary()?;
        self.depth = entry;
        let span = s.to(inner.span);
        Ok(Expr::new(ExprKind::Unary(op, Box::new(inner)), span))
    }

    /// Items after an opening `[` or `(` up to the matching close.
    fn list_tail(&mut self, open: Span, close_tok: Tok) -> Result<(Vec<Expr>, Span), ExprError> {
        let close_txt = if close_tok == Tok::RParen {
            "')'"
        } else {
            "']'"
        };
        let mut items = Vec::new();
        if self.peek() == Some(&close_tok) {
            let (_, s) = self.bump().expect("peeked");
            return Ok((items, s));
        }
        loop {
            if self.peek().is_none() {
                return Err(ExprError::new(
                    open,
                    format!("this bracket is never closed (expected {close_txt})"),
                ));
            }
            items.push(self.expr(0)?);
            match self.bump() {
                Some((Tok::Comma, _)) => continue,
                Some((t, s)) if t == close_tok => return Ok((items, s)),
                Some((t, s)) => {
                    return Err(ExprError::new(
                        s,
                        format!("expected ',' or {close_txt}, found {}", t.describe()),
                    ));
                }
                None => {
                    return Err(ExprError::new(
                        open,
                        format!("this bracket is never closed (expected {close_txt})"),
                    ));
                }
            }
        }
    }

    fn primary(&mut self) -> Result<Expr, ExprError> {
        let Some((tok, span)) = self.bump() else {
            return Err(ExprError::new(
                Span::new(self.len, self.len),
                "expected a value, found the end of the expression",
            ));
        };
        match tok {
            Tok::Num {
                value,
                text,
                plain_xy,
            } => Ok(Expr::new(
                ExprKind::Num {
                    value,
                    text,
                    as_version: plain_xy,
                },
                span,
            )),
            Tok::Version(v) => Ok(Expr::new(ExprKind::Version(v), span)),
            Tok::Str(s) => Ok(Expr::new(ExprKind::Str(s), span)),
            Tok::LParen => {
                let inner = self.expr(0)?;
                let close = self.expect(Tok::RParen, "')'")?;
                Ok(Expr::new(inner.kind, span.to(close)))
            }
            Tok::LBracket => {
                let (items, close) = self.list_tail(span, Tok::RBracket)?;
                Ok(Expr::new(ExprKind::List(items), span.to(close)))
            }
            Tok::Ident(name) => self.ident(name, span),
            other => Err(ExprError::new(
                span,
                format!("expected a value, found {}", other.describe()),
            )),
        }
    }

    fn ident(&mut self, name: String, span: Span) -> Result<Expr, ExprError> {
        match name.as_str() {
            "true" => return Ok(Expr::new(ExprKind::Bool(true), span)),
            "false" => return Ok(Expr::new(ExprKind::Bool(false), span)),
            "in" => return Err(ExprError::new(span, "expected a value, found 'in'")),
            _ => {}
        }
        match self.peek() {
            Some(Tok::LParen) => {
                let func = Func::from_name(&name).ok_or_else(|| {
                    ExprError::new(
                        span,
                        format!(
                            "unknown function '{name}' (known: {})",
                            Func::ALL.map(|f| f.as_str()).join(", ")
                        ),
                    )
                })?;
                let (_, open) = self.bump().expect("peeked");
                let (args, close) = self.list_tail(open, Tok::RParen)?;
                Ok(Expr::new(ExprKind::Call(func, args), span.to(close)))
            }
            Some(Tok::Dot) => {
                let ns = Namespace::from_name(&name).ok_or_else(|| {
                    ExprError::new(
                        span,
                        format!(
                            "unknown namespace '{name}.' (known: {})",
                            Namespace::ALL
                                .map(|n| format!("{}.", n.as_str()))
                                .join(", ")
                        ),
                    )
                })?;
                self.bump();
                match self.bump() {
                    Some((Tok::Ident(member), mspan)) => Ok(Expr::new(
                        ExprKind::Fact(FactRef { ns, name: member }),
                        span.to(mspan),
                    )),
                    Some((t, s)) => Err(ExprError::new(
                        s,
                        format!("expected a name after '{name}.', found {}", t.describe()),
                    )),
                    None => Err(ExprError::new(
                        Span::new(self.len, self.len),
                        format!("expected a name after '{name}.'"),
                    )),
                }
            }
            _ => Err(ExprError::new(
                span,
                format!(
                    "unknown name '{name}' (facts are written with a namespace, e.g. var.{name} or host.memory)"
                ),
            )),
        }
    }
}
