//! Evaluation of checked expressions against a [`Scope`] that resolves
//! facts. `&&`, `||`, `if()` and `coalesce()` are lazy, so
//! `defined(var.x) && var.x > 0` never needs a missing `var.x`.

use std::cmp::Ordering;

use super::ast::{BinOp, Expr, ExprKind, FactRef, Func, UnOp};
use super::value::{EvalError, Value};

/// Resolves facts for the evaluator.
pub trait Scope {
    fn fact(&mut self, r: &FactRef) -> Result<Value, EvalError>;
    fn sysctl(&mut self, name: &str) -> Result<Value, EvalError>;
    /// True when the kernel's settings were read and `name` is not among
    /// them (removed or not built in), so `sysctl(name, default)` may use
    /// its default. False when nothing is known about the kernel.
    fn sysctl_absent(&mut self, _name: &str) -> bool {
        false
    }
    /// `kernel("TcpExt.ListenOverflows")`: a counter of the host's kernel.
    fn kernel(&mut self, name: &str) -> Result<Value, EvalError> {
        Err(EvalError::missing(
            format!("kernel(\"{name}\")"),
            "no kernel counters",
        ))
    }
    /// `default("key_buffer_size")`: the target's compiled-in default.
    fn default_value(&mut self, name: &str) -> Result<Value, EvalError> {
        Err(EvalError::missing(
            format!("default(\"{name}\")"),
            "no defaults known",
        ))
    }
    /// `engine_tables("MyISAM")` / `engine_bytes("InnoDB")`: a figure of the
    /// server's data-size summary for one storage engine (any case), `"*"`
    /// for all engines. An engine the summary does not list has 0; a missing
    /// or partial summary is a missing fact.
    fn engine(&mut self, engine: &str, figure: EngineFigure) -> Result<Value, EvalError> {
        let _ = figure;
        Err(EvalError::missing(
            format!("engine figures of {engine}"),
            "no data-size summary",
        ))
    }
}

/// Which figure of a storage engine's data-size summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineFigure {
    /// Number of base tables.
    Tables,
    /// Data + index bytes.
    Bytes,
}

pub fn eval(e: &Expr, scope: &mut dyn Scope) -> Result<Value, EvalError> {
    match &e.kind {
        ExprKind::Num { value, .. } => Ok(Value::Num(*value)),
        ExprKind::Version(v) => Ok(Value::Version(*v)),
        ExprKind::Str(s) => Ok(Value::Str(s.clone())),
        ExprKind::Bool(b) => Ok(Value::Bool(*b)),
        ExprKind::List(_) => Err(EvalError::Invalid("a list is not a value".into())),
        ExprKind::Fact(r) => scope.fact(r),
        ExprKind::Unary(UnOp::Not, inner) => Ok(Value::Bool(!eval(inner, scope)?.as_bool()?)),
        ExprKind::Unary(UnOp::Neg, inner) => Ok(Value::Num(-eval(inner, scope)?.as_num()?)),
        ExprKind::Binary(BinOp::And, a, b) => Ok(Value::Bool(
            eval(a, scope)?.as_bool()? && eval(b, scope)?.as_bool()?,
        )),
        ExprKind::Binary(BinOp::Or, a, b) => Ok(Value::Bool(
            eval(a, scope)?.as_bool()? || eval(b, scope)?.as_bool()?,
        )),
        ExprKind::Binary(op, a, b) => {
            let va = eval(a, scope)?;
            let vb = eval(b, scope)?;
            binary(e, *op, a, va, b, vb)
        }
        ExprKind::In(a, items) => {
            let va = eval(a, scope)?;
            for item in items {
                let vi = eval(item, scope)?;
                if compare(a, &va, item, &vi)? == Ordering::Equal {
                    return Ok(Value::Bool(true));
                }
            }
            Ok(Value::Bool(false))
        }
        ExprKind::Call(func, args) => call(*func, args, scope),
    }
}

fn finite(n: f64, e: &Expr) -> Result<Value, EvalError> {
    if n.is_finite() {
        Ok(Value::Num(n))
    } else {
        Err(EvalError::Invalid(format!("`{e}` has no finite value")))
    }
}

fn binary(
    e: &Expr,
    op: BinOp,
    a: &Expr,
    va: Value,
    b: &Expr,
    vb: Value,
) -> Result<Value, EvalError> {
    let cmp = |want: fn(Ordering) -> bool| -> Result<Value, EvalError> {
        Ok(Value::Bool(want(compare(a, &va, b, &vb)?)))
    };
    match op {
        BinOp::Add => finite(va.as_num()? + vb.as_num()?, e),
        BinOp::Sub => finite(va.as_num()? - vb.as_num()?, e),
        BinOp::Mul => finite(va.as_num()? * vb.as_num()?, e),
        BinOp::Div => {
            let d = vb.as_num()?;
            if d == 0.0 {
                return Err(EvalError::Invalid(format!("division by zero in `{e}`")));
            }
            finite(va.as_num()? / d, e)
        }
        BinOp::Eq => cmp(|o| o == Ordering::Equal),
        BinOp::Ne => cmp(|o| o != Ordering::Equal),
        BinOp::Lt => cmp(|o| o == Ordering::Less),
        BinOp::Le => cmp(|o| o != Ordering::Greater),
        BinOp::Gt => cmp(|o| o == Ordering::Greater),
        BinOp::Ge => cmp(|o| o != Ordering::Less),
        BinOp::And | BinOp::Or => unreachable!("handled lazily"),
    }
}

fn version_literal(e: &Expr) -> Option<Value> {
    match &e.kind {
        ExprKind::Num {
            as_version: Some(v),
            ..
        } => Some(Value::Version(*v)),
        _ => None,
    }
}

/// Compare two values of checked-compatible types. Server values are coerced
/// to the other side's type; two server values compare as numbers when both
/// are numeric, else as case-insensitive strings.
fn compare(a: &Expr, va: &Value, b: &Expr, vb: &Value) -> Result<Ordering, EvalError> {
    use Value as V;
    let num = |x: f64, y: f64| {
        if (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0) {
            Ordering::Equal
        } else {
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
    };
    let text = |x: &str, y: &str| x.to_ascii_lowercase().cmp(&y.to_ascii_lowercase());
    Ok(match (va, vb) {
        (V::Version(x), V::Num(_)) => match version_literal(b) {
            Some(V::Version(y)) => x.cmp(&y),
            _ => {
                return Err(EvalError::Invalid(
                    "a version compared with a number".into(),
                ));
            }
        },
        (V::Num(_), V::Version(y)) => match version_literal(a) {
            Some(V::Version(x)) => x.cmp(y),
            _ => {
                return Err(EvalError::Invalid(
                    "a number compared with a version".into(),
                ));
            }
        },
        (V::Version(x), other) => x.cmp(&other.as_version()?),
        (other, V::Version(y)) => other.as_version()?.cmp(y),
        // A version string against an `X.Y` literal: a version comparison.
        (V::Text { text, .. }, V::Num(_))
            if super::value::text_to_num(text).is_none() && version_literal(b).is_some() =>
        {
            match version_literal(b) {
                Some(V::Version(y)) => va.as_version()?.cmp(&y),
                _ => unreachable!("checked by the guard"),
            }
        }
        (V::Num(_), V::Text { text, .. })
            if super::value::text_to_num(text).is_none() && version_literal(a).is_some() =>
        {
            match version_literal(a) {
                Some(V::Version(x)) => x.cmp(&vb.as_version()?),
                _ => unreachable!("checked by the guard"),
            }
        }
        (V::Num(x), other) => num(*x, other.as_num()?),
        (other, V::Num(y)) => num(other.as_num()?, *y),
        (V::Bool(x), other) => x.cmp(&other.as_bool()?),
        (other, V::Bool(y)) => other.as_bool()?.cmp(y),
        (V::Text { text: x, .. }, V::Text { text: y, .. }) => {
            match (super::value::text_to_num(x), super::value::text_to_num(y)) {
                (Some(nx), Some(ny)) => num(nx, ny),
                _ => text(x, y),
            }
        }
        (x, y) => text(&x.as_text(), &y.as_text()),
    })
}

fn nums(args: &[Expr], scope: &mut dyn Scope) -> Result<Vec<f64>, EvalError> {
    args.iter().map(|a| eval(a, scope)?.as_num()).collect()
}

fn multiple(m: f64, func: Func) -> Result<f64, EvalError> {
    if m > 0.0 {
        Ok(m)
    } else {
        Err(EvalError::Invalid(format!(
            "{}() needs a positive multiple, found {}",
            func.as_str(),
            super::value::format_num(m)
        )))
    }
}

fn call(func: Func, args: &[Expr], scope: &mut dyn Scope) -> Result<Value, EvalError> {
    match func {
        Func::Min => Ok(Value::Num(
            nums(args, scope)?.into_iter().fold(f64::INFINITY, f64::min),
        )),
        Func::Max => Ok(Value::Num(
            nums(args, scope)?
                .into_iter()
                .fold(f64::NEG_INFINITY, f64::max),
        )),
        Func::Clamp => {
            let n = nums(args, scope)?;
            if n[1] > n[2] {
                return Err(EvalError::Invalid(format!(
                    "clamp() bounds are reversed ({} > {})",
                    super::value::format_num(n[1]),
                    super::value::format_num(n[2])
                )));
            }
            Ok(Value::Num(n[0].clamp(n[1], n[2])))
        }
        Func::RoundTo | Func::RoundDown | Func::RoundUp => {
            let n = nums(args, scope)?;
            let m = multiple(n[1], func)?;
            let q = n[0] / m;
            let q = match func {
                Func::RoundTo => q.round(),
                Func::RoundDown => q.floor(),
                _ => q.ceil(),
            };
            Ok(Value::Num(q * m))
        }
        Func::Floor => Ok(Value::Num(eval(&args[0], scope)?.as_num()?.floor())),
        Func::Ceil => Ok(Value::Num(eval(&args[0], scope)?.as_num()?.ceil())),
        Func::Round => Ok(Value::Num(eval(&args[0], scope)?.as_num()?.round())),
        Func::Num => Ok(Value::Num(eval(&args[0], scope)?.as_num()?)),
        Func::Bool => Ok(Value::Bool(eval(&args[0], scope)?.as_bool()?)),
        Func::Defined => match eval(&args[0], scope) {
            Ok(_) => Ok(Value::Bool(true)),
            Err(EvalError::Missing { .. }) => Ok(Value::Bool(false)),
            Err(e) => Err(e),
        },
        Func::Coalesce => {
            let mut last = None;
            for a in args {
                match eval(a, scope) {
                    Ok(v) => return Ok(v),
                    Err(e @ EvalError::Missing { .. }) => last = Some(e),
                    Err(e) => return Err(e),
                }
            }
            Err(last.expect("coalesce has at least two arguments"))
        }
        Func::If => {
            if eval(&args[0], scope)?.as_bool()? {
                eval(&args[1], scope)
            } else {
                eval(&args[2], scope)
            }
        }
        Func::Sysctl => {
            let ExprKind::Str(name) = &args[0].kind else {
                return Err(EvalError::Invalid("sysctl() takes a quoted name".into()));
            };
            match (scope.sysctl(name), args.get(1)) {
                (Err(EvalError::Missing { .. }), Some(default)) if scope.sysctl_absent(name) => {
                    eval(default, scope)
                }
                (r, _) => r,
            }
        }
        Func::Kernel | Func::Default => {
            let ExprKind::Str(name) = &args[0].kind else {
                return Err(EvalError::Invalid(format!(
                    "{}() takes a quoted name",
                    func.as_str()
                )));
            };
            if func == Func::Kernel {
                scope.kernel(name)
            } else {
                scope.default_value(name)
            }
        }
        Func::Field => {
            let v = eval(&args[0], scope)?;
            let n = eval(&args[1], scope)?.as_num()?;
            let text = v.as_text();
            let origin = match &v {
                Value::Text { origin, .. } => origin.clone(),
                _ => "field()".to_string(),
            };
            if n < 1.0 || n.fract() != 0.0 {
                return Err(EvalError::Invalid(format!(
                    "field() counts from 1, found {}",
                    super::value::format_num(n)
                )));
            }
            match text.split_whitespace().nth(n as usize - 1) {
                Some(f) => Ok(Value::text(f, format!("field {} of {origin}", n as usize))),
                None => Err(EvalError::Invalid(format!(
                    "{origin} = '{text}' has no field {}",
                    n as usize
                ))),
            }
        }
        Func::Size | Func::Concat => text_function(func, args, scope),
        Func::EngineTables | Func::EngineBytes => match &args[0].kind {
            ExprKind::Str(name) => {
                let figure = if func == Func::EngineTables {
                    EngineFigure::Tables
                } else {
                    EngineFigure::Bytes
                };
                scope.engine(name, figure)
            }
            _ => Err(EvalError::Invalid(format!(
                "{}() takes a quoted engine name",
                func.as_str()
            ))),
        },
    }
}

/// `size(x)` and `concat(…)`, out of line: the recursive evaluator's stack
/// frame stays small (deeply nested expressions are checked to the limit).
#[inline(never)]
fn text_function(func: Func, args: &[Expr], scope: &mut dyn Scope) -> Result<Value, EvalError> {
    if func == Func::Size {
        let n = eval(&args[0], scope)?.as_num()?;
        return Ok(Value::Str(crate::units::human_size(
            n.max(0.0).round() as u64
        )));
    }
    let mut out = String::new();
    for a in args {
        match eval(a, scope)? {
            Value::Num(n) => out.push_str(&super::value::format_num(n)),
            v => out.push_str(&v.as_text()),
        }
    }
    Ok(Value::Str(out))
}
