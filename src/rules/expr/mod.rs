//! The expression language of rule conditions, recommendations and message
//! placeholders.
//!
//! Hand-written (lexer → precedence-climbing parser → type checker →
//! evaluator) rather than generated, so that size, percentage and version
//! literals are first-class tokens and every error carries an exact span.
//! Syntax and semantics are documented in `docs/rules.md`.

pub mod ast;
pub mod check;
pub mod eval;
pub mod lexer;
pub mod parser;
pub mod value;

#[cfg(test)]
mod tests;

pub use ast::{Expr, FactRef, Namespace, Span};
pub use check::{CheckEnv, check};
pub use eval::{EngineFigure, Scope, eval};
pub use parser::{MAX_DEPTH, parse};
pub use value::{EvalError, Type, Value};

/// A syntax, name or type error at a span of the expression text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ExprError {
    pub span: Span,
    pub message: String,
}

impl ExprError {
    pub fn new(span: Span, message: impl Into<String>) -> ExprError {
        ExprError {
            span,
            message: message.into(),
        }
    }
}

/// Parse and check in one step.
pub fn compile(src: &str, env: &CheckEnv) -> Result<(Expr, Type), ExprError> {
    let e = parse(src)?;
    let t = check(&e, env)?;
    Ok((e, t))
}
