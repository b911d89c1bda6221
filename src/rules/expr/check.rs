//! Load-time checking of expressions: every name exists, every function gets
//! the right number and kind of arguments, every operator gets operands it
//! can use. What passes here can only fail at evaluation because a fact is
//! missing or a server value cannot be coerced.

use std::collections::{BTreeMap, BTreeSet};

use super::ExprError;
use super::ast::{BinOp, Expr, ExprKind, FactRef, Func, Namespace, UnOp};
use super::value::Type;
use crate::rules::fact_table::{self, FactDef};

/// What names an expression may use besides the global namespaces.
#[derive(Debug, Default)]
pub struct CheckEnv<'a> {
    /// `let.NAME` of the rule, with their types.
    pub lets: Option<&'a BTreeMap<String, Type>>,
    /// `rec.NAME`: the variables the rule recommends (message templates).
    pub recs: Option<&'a BTreeSet<String>>,
    /// Whether `rec.` takes any name: a recommended variable that did not
    /// load is one error, not one more at each `rec.` naming it.
    pub any_rec: bool,
    /// `model.NAME`: the catalog's shared model entries defined so far.
    pub models: Option<&'a BTreeMap<String, Type>>,
}

fn fixed(ns: Namespace) -> Option<&'static [FactDef]> {
    fact_table::table(ns)
}

/// The allowed string values of an enumerated fact.
fn enum_values(r: &FactRef) -> &'static [&'static str] {
    fixed(r.ns)
        .and_then(|t| t.iter().find(|f| f.name == r.name))
        .map(|f| f.values)
        .unwrap_or(&[])
}

/// Check an expression and return its type.
pub fn check(e: &Expr, env: &CheckEnv) -> Result<Type, ExprError> {
    match &e.kind {
        ExprKind::Num { .. } => Ok(Type::Num),
        ExprKind::Version(_) => Ok(Type::Version),
        ExprKind::Str(_) => Ok(Type::Str),
        ExprKind::Bool(_) => Ok(Type::Bool),
        ExprKind::List(_) => Err(ExprError::new(
            e.span,
            "type error: a list can only follow 'in'",
        )),
        ExprKind::Fact(r) => fact_type(e, r, env),
        ExprKind::Unary(op, inner) => {
            let t = check(inner, env)?;
            match op {
                UnOp::Not => want(inner, t, Type::Bool, "'!'").map(|_| Type::Bool),
                UnOp::Neg => want(inner, t, Type::Num, "'-'").map(|_| Type::Num),
            }
        }
        ExprKind::Binary(op, a, b) => {
            let ta = check(a, env)?;
            let tb = check(b, env)?;
            let what = format!("'{}'", op.as_str());
            match op {
                BinOp::And | BinOp::Or => {
                    want(a, ta, Type::Bool, &what)?;
                    want(b, tb, Type::Bool, &what)?;
                    Ok(Type::Bool)
                }
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                    want(a, ta, Type::Num, &what)?;
                    want(b, tb, Type::Num, &what)?;
                    Ok(Type::Num)
                }
                BinOp::Eq | BinOp::Ne => {
                    comparable(a, ta, b, tb, &what)?;
                    Ok(Type::Bool)
                }
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    comparable(a, ta, b, tb, &what)?;
                    for (x, t) in [(a, ta), (b, tb)] {
                        if matches!(t, Type::Str | Type::Bool) {
                            return Err(ExprError::new(
                                x.span,
                                format!(
                                    "type error: {what} orders numbers and versions, not {}",
                                    t.describe()
                                ),
                            ));
                        }
                    }
                    Ok(Type::Bool)
                }
            }
        }
        ExprKind::In(a, items) => {
            let ta = check(a, env)?;
            if items.is_empty() {
                return Err(ExprError::new(e.span, "'in' needs at least one value"));
            }
            for item in items {
                let ti = check(item, env)?;
                comparable(a, ta, item, ti, "'in'")?;
            }
            Ok(Type::Bool)
        }
        ExprKind::Call(func, args) => call(e, *func, args, env),
    }
}

fn fact_type(e: &Expr, r: &FactRef, env: &CheckEnv) -> Result<Type, ExprError> {
    match r.ns {
        Namespace::Var | Namespace::Status | Namespace::Cnf => Ok(Type::Dyn),
        Namespace::Rate => Ok(Type::Num),
        Namespace::Host | Namespace::Server | Namespace::Profile => {
            let table = fixed(r.ns).expect("fixed namespace");
            table
                .iter()
                .find(|f| f.name == r.name)
                .map(|f| f.ty)
                .ok_or_else(|| {
                    ExprError::new(
                        e.span,
                        format!(
                            "unknown name '{r}' (known: {})",
                            table
                                .iter()
                                .map(|f| format!("{}.{}", r.ns.as_str(), f.name))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    )
                })
        }
        Namespace::Let => match env.lets {
            Some(lets) => lets.get(&r.name).copied().ok_or_else(|| {
                ExprError::new(
                    e.span,
                    format!(
                        "unknown name '{r}' (this rule's [rule.let] defines: {})",
                        if lets.is_empty() {
                            "nothing".to_string()
                        } else {
                            lets.keys().cloned().collect::<Vec<_>>().join(", ")
                        }
                    ),
                )
            }),
            None => Err(ExprError::new(
                e.span,
                format!(
                    "'{r}': only a rule's when, recommendations and message may use its lets (not another let or a model entry)"
                ),
            )),
        },
        Namespace::Model => match env.models {
            Some(models) => models.get(&r.name).copied().ok_or_else(|| {
                ExprError::new(
                    e.span,
                    format!(
                        "unknown name '{r}' (the [model] defines: {})",
                        if models.is_empty() {
                            "nothing".to_string()
                        } else {
                            models.keys().cloned().collect::<Vec<_>>().join(", ")
                        }
                    ),
                )
            }),
            None => Err(ExprError::new(
                e.span,
                format!("'{r}': model. names are only available in rules"),
            )),
        },
        Namespace::Rec => match env.recs {
            Some(recs) if env.any_rec || recs.contains(&r.name) => Ok(Type::Dyn),
            Some(_) => Err(ExprError::new(
                e.span,
                format!("unknown name '{r}': the rule recommends no '{}'", r.name),
            )),
            None => Err(ExprError::new(
                e.span,
                format!("'{r}': rec. can only be used in a message"),
            )),
        },
    }
}

fn want(e: &Expr, got: Type, want: Type, what: &str) -> Result<(), ExprError> {
    if got == want || got == Type::Dyn {
        Ok(())
    } else {
        Err(ExprError::new(
            e.span,
            format!(
                "type error: {what} needs {}, found {}",
                want.describe(),
                got.describe()
            ),
        ))
    }
}

fn is_version_like(e: &Expr) -> bool {
    matches!(
        &e.kind,
        ExprKind::Num {
            as_version: Some(_),
            ..
        }
    )
}

/// Can `a` and `b` be compared? Also checks string literals against
/// enumerated facts (`profile.durability == "relaxd"` is an error).
fn comparable(a: &Expr, ta: Type, b: &Expr, tb: Type, what: &str) -> Result<(), ExprError> {
    let ok = ta == tb
        || ta == Type::Dyn
        || tb == Type::Dyn
        || (ta == Type::Version && is_version_like(b))
        || (tb == Type::Version && is_version_like(a));
    if !ok {
        return Err(ExprError::new(
            b.span,
            format!(
                "type error: {what} compares {} with {}",
                ta.describe(),
                tb.describe()
            ),
        ));
    }
    for (fact, lit) in [(a, b), (b, a)] {
        if let (ExprKind::Fact(r), ExprKind::Str(s)) = (&fact.kind, &lit.kind) {
            let allowed = enum_values(r);
            if !allowed.is_empty() && !allowed.iter().any(|v| v.eq_ignore_ascii_case(s)) {
                return Err(ExprError::new(
                    lit.span,
                    format!(
                        "'{s}' is not a value of {r} (expected {})",
                        allowed.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn arity(e: &Expr, func: Func, args: &[Expr], min: usize, max: usize) -> Result<(), ExprError> {
    if args.len() < min || args.len() > max {
        let expected = if min == max {
            format!("{min}")
        } else if max == usize::MAX {
            format!("at least {min}")
        } else {
            format!("{min} to {max}")
        };
        return Err(ExprError::new(
            e.span,
            format!(
                "{}() takes {expected} argument{}, found {}",
                func.as_str(),
                if expected == "1" { "" } else { "s" },
                args.len()
            ),
        ));
    }
    Ok(())
}

fn call(e: &Expr, func: Func, args: &[Expr], env: &CheckEnv) -> Result<Type, ExprError> {
    let name = format!("{}()", func.as_str());
    let nums = |args: &[Expr]| -> Result<Type, ExprError> {
        for a in args {
            let t = check(a, env)?;
            want(a, t, Type::Num, &name)?;
        }
        Ok(Type::Num)
    };
    match func {
        Func::Min | Func::Max => {
            arity(e, func, args, 1, usize::MAX)?;
            nums(args)
        }
        Func::Clamp => {
            arity(e, func, args, 3, 3)?;
            nums(args)
        }
        Func::RoundTo | Func::RoundDown | Func::RoundUp => {
            arity(e, func, args, 2, 2)?;
            nums(args)
        }
        Func::Floor | Func::Ceil | Func::Round | Func::Num => {
            arity(e, func, args, 1, 1)?;
            nums(args)
        }
        Func::Bool => {
            arity(e, func, args, 1, 1)?;
            let t = check(&args[0], env)?;
            want(&args[0], t, Type::Bool, &name)?;
            Ok(Type::Bool)
        }
        Func::Defined => {
            arity(e, func, args, 1, 1)?;
            check(&args[0], env)?;
            Ok(Type::Bool)
        }
        Func::Coalesce => {
            arity(e, func, args, 2, usize::MAX)?;
            let mut t = check(&args[0], env)?;
            for a in &args[1..] {
                let ta = check(a, env)?;
                t = unify(a, t, ta, &name)?;
            }
            Ok(t)
        }
        Func::If => {
            arity(e, func, args, 3, 3)?;
            let tc = check(&args[0], env)?;
            want(&args[0], tc, Type::Bool, &name)?;
            let ta = check(&args[1], env)?;
            let tb = check(&args[2], env)?;
            unify(&args[2], ta, tb, &name)
        }
        Func::Sysctl => {
            arity(e, func, args, 1, 2)?;
            if !matches!(&args[0].kind, ExprKind::Str(_)) {
                return Err(ExprError::new(
                    args[0].span,
                    "sysctl() takes a quoted name, e.g. sysctl(\"net.core.somaxconn\")",
                ));
            }
            // The optional default, for a key the kernel does not have.
            if let Some(d) = args.get(1) {
                check(d, env)?;
            }
            Ok(Type::Dyn)
        }
        Func::Kernel => {
            arity(e, func, args, 1, 1)?;
            let known = crate::facts::host::KERNEL_COUNTERS;
            match &args[0].kind {
                ExprKind::Str(name) if known.iter().any(|(n, _)| n == name) => Ok(Type::Num),
                _ => Err(ExprError::new(
                    args[0].span,
                    format!(
                        "kernel() takes the quoted name of a counter mytune reads: {}",
                        known.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                    ),
                )),
            }
        }
        Func::Default => {
            arity(e, func, args, 1, 1)?;
            if !matches!(&args[0].kind, ExprKind::Str(_)) {
                return Err(ExprError::new(
                    args[0].span,
                    "default() takes a quoted variable name, e.g. default(\"key_buffer_size\")",
                ));
            }
            Ok(Type::Dyn)
        }
        Func::Field => {
            arity(e, func, args, 2, 2)?;
            let t = check(&args[0], env)?;
            if !matches!(t, Type::Dyn | Type::Str) {
                return Err(ExprError::new(
                    args[0].span,
                    format!(
                        "type error: field() splits a string or a server value, found {}",
                        t.describe()
                    ),
                ));
            }
            let n = check(&args[1], env)?;
            want(&args[1], n, Type::Num, &name)?;
            Ok(Type::Dyn)
        }
        Func::Size => {
            arity(e, func, args, 1, 1)?;
            let t = check(&args[0], env)?;
            want(&args[0], t, Type::Num, &name)?;
            Ok(Type::Str)
        }
        Func::Concat => {
            arity(e, func, args, 1, usize::MAX)?;
            for a in args {
                check(a, env)?;
            }
            Ok(Type::Str)
        }
        Func::EngineTables | Func::EngineBytes => {
            arity(e, func, args, 1, 1)?;
            match &args[0].kind {
                ExprKind::Str(_) => Ok(Type::Num),
                _ => Err(ExprError::new(
                    args[0].span,
                    format!(
                        "{name} takes a quoted storage engine name or \"*\" for all, e.g. {}(\"MyISAM\")",
                        func.as_str()
                    ),
                )),
            }
        }
    }
}

fn unify(e: &Expr, a: Type, b: Type, what: &str) -> Result<Type, ExprError> {
    match (a, b) {
        _ if a == b => Ok(a),
        (Type::Dyn, t) | (t, Type::Dyn) => Ok(t),
        _ => Err(ExprError::new(
            e.span,
            format!(
                "type error: {what} mixes {} and {}",
                a.describe(),
                b.describe()
            ),
        )),
    }
}
