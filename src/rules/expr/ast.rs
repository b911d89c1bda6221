//! The syntax tree of a rule expression. Every node keeps its byte span in
//! the expression text so load-time errors can point at the exact column.

use std::fmt;

use crate::target::Version;

/// Byte range `[start, end)` inside the expression text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// Where a fact comes from: the part before the dot in `var.max_connections`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Namespace {
    /// Server variable, else option-file value, else the target's default.
    Var,
    /// `SHOW GLOBAL STATUS`, first sample.
    Status,
    /// A status counter per second.
    Rate,
    /// Host facts (`host.memory`, `host.cpus`, …).
    Host,
    /// Server identity (`server.flavor`, `server.version`, …).
    Server,
    /// Option-file value only.
    Cnf,
    /// The deployment profile (`profile.durability`, …).
    Profile,
    /// A named sub-expression of the same rule (`[rule.let]`).
    Let,
    /// A value this rule recommends (message templates only).
    Rec,
    /// A named expression of the catalog's shared `[model]` (the memory
    /// model), expanded into every rule that uses it when the catalog loads.
    Model,
}

impl Namespace {
    pub const ALL: [Namespace; 10] = [
        Namespace::Var,
        Namespace::Status,
        Namespace::Rate,
        Namespace::Host,
        Namespace::Server,
        Namespace::Cnf,
        Namespace::Profile,
        Namespace::Let,
        Namespace::Rec,
        Namespace::Model,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Namespace::Var => "var",
            Namespace::Status => "status",
            Namespace::Rate => "rate",
            Namespace::Host => "host",
            Namespace::Server => "server",
            Namespace::Cnf => "cnf",
            Namespace::Profile => "profile",
            Namespace::Let => "let",
            Namespace::Rec => "rec",
            Namespace::Model => "model",
        }
    }

    pub fn from_name(s: &str) -> Option<Namespace> {
        Namespace::ALL.into_iter().find(|n| n.as_str() == s)
    }
}

/// The built-in functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Min,
    Max,
    Clamp,
    RoundTo,
    RoundDown,
    RoundUp,
    Floor,
    Ceil,
    Round,
    Defined,
    Coalesce,
    If,
    Sysctl,
    Kernel,
    Default,
    Num,
    Bool,
    EngineTables,
    EngineBytes,
    Field,
    Size,
    Concat,
}

impl Func {
    pub const ALL: [Func; 22] = [
        Func::Min,
        Func::Max,
        Func::Clamp,
        Func::RoundTo,
        Func::RoundDown,
        Func::RoundUp,
        Func::Floor,
        Func::Ceil,
        Func::Round,
        Func::Defined,
        Func::Coalesce,
        Func::If,
        Func::Sysctl,
        Func::Kernel,
        Func::Default,
        Func::Num,
        Func::Bool,
        Func::EngineTables,
        Func::EngineBytes,
        Func::Field,
        Func::Size,
        Func::Concat,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Func::Min => "min",
            Func::Max => "max",
            Func::Clamp => "clamp",
            Func::RoundTo => "round_to",
            Func::RoundDown => "round_down",
            Func::RoundUp => "round_up",
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Round => "round",
            Func::Defined => "defined",
            Func::Coalesce => "coalesce",
            Func::If => "if",
            Func::Sysctl => "sysctl",
            Func::Kernel => "kernel",
            Func::Default => "default",
            Func::Num => "num",
            Func::Bool => "bool",
            Func::EngineTables => "engine_tables",
            Func::EngineBytes => "engine_bytes",
            Func::Field => "field",
            Func::Size => "size",
            Func::Concat => "concat",
        }
    }

    pub fn from_name(s: &str) -> Option<Func> {
        Func::ALL.into_iter().find(|f| f.as_str() == s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
}

impl BinOp {
    pub fn as_str(self) -> &'static str {
        match self {
            BinOp::Or => "||",
            BinOp::And => "&&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        }
    }

    /// Binding strength, higher binds tighter.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 3,
            BinOp::Add | BinOp::Sub => 4,
            BinOp::Mul | BinOp::Div => 5,
        }
    }

    pub fn is_comparison(self) -> bool {
        self.precedence() == 3
    }
}

/// A named fact such as `var.max_connections` (names are stored lowercase).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FactRef {
    pub ns: Namespace,
    pub name: String,
}

impl fmt::Display for FactRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.ns.as_str(), self.name)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// A number; sizes (`128M`) and percentages (`70%`) are already scaled.
    /// `as_version` is set for a plain `X.Y` literal, which may also be read as
    /// a version when compared with one (`server.version >= 8.0`).
    Num {
        value: f64,
        text: String,
        as_version: Option<Version>,
    },
    Version(Version),
    Str(String),
    Bool(bool),
    Fact(FactRef),
    List(Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    In(Box<Expr>, Vec<Expr>),
    Call(Func, Vec<Expr>),
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    /// Visit every fact reference, in order.
    pub fn for_each_fact(&self, f: &mut dyn FnMut(&FactRef)) {
        match &self.kind {
            ExprKind::Fact(r) => f(r),
            ExprKind::List(items) | ExprKind::Call(_, items) => {
                items.iter().for_each(|e| e.for_each_fact(f))
            }
            ExprKind::Unary(_, e) => e.for_each_fact(f),
            ExprKind::Binary(_, a, b) => {
                a.for_each_fact(f);
                b.for_each_fact(f);
            }
            ExprKind::In(a, items) => {
                a.for_each_fact(f);
                items.iter().for_each(|e| e.for_each_fact(f));
            }
            ExprKind::Num { .. } | ExprKind::Version(_) | ExprKind::Str(_) | ExprKind::Bool(_) => {}
        }
    }
}

/// Canonical text of an expression: literals as written, binary operations
/// parenthesised only where precedence needs it. Two expressions with the same
/// canonical text recommend the same value.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_expr(self, 0, f)
    }
}

fn fmt_expr(e: &Expr, parent_prec: u8, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match &e.kind {
        ExprKind::Num { text, .. } => f.write_str(text),
        ExprKind::Version(v) => write!(f, "{v}"),
        ExprKind::Str(s) => write!(f, "{s:?}"),
        ExprKind::Bool(b) => write!(f, "{b}"),
        ExprKind::Fact(r) => write!(f, "{r}"),
        ExprKind::List(items) => {
            f.write_str("[")?;
            fmt_list(items, f)?;
            f.write_str("]")
        }
        ExprKind::Unary(op, inner) => {
            f.write_str(match op {
                UnOp::Not => "!",
                UnOp::Neg => "-",
            })?;
            fmt_expr(inner, 6, f)
        }
        ExprKind::Binary(op, a, b) => {
            let p = op.precedence();
            if p < parent_prec {
                f.write_str("(")?;
            }
            fmt_expr(a, p, f)?;
            write!(f, " {} ", op.as_str())?;
            fmt_expr(b, p + 1, f)?;
            if p < parent_prec {
                f.write_str(")")?;
            }
            Ok(())
        }
        ExprKind::In(a, items) => {
            if 3 < parent_prec {
                f.write_str("(")?;
            }
            fmt_expr(a, 4, f)?;
            f.write_str(" in [")?;
            fmt_list(items, f)?;
            f.write_str("]")?;
            if 3 < parent_prec {
                f.write_str(")")?;
            }
            Ok(())
        }
        ExprKind::Call(func, args) => {
            write!(f, "{}(", func.as_str())?;
            fmt_list(args, f)?;
            f.write_str(")")
        }
    }
}

fn fmt_list(items: &[Expr], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        fmt_expr(item, 0, f)?;
    }
    Ok(())
}

impl Expr {
    /// Levels of nesting: 1 for a leaf, one more for each operator, call,
    /// list or `in` around it. The evaluator recurses once per level, so the
    /// loader bounds it after expanding the shared model into a rule.
    pub fn depth(&self) -> usize {
        let max = |items: &[Expr]| items.iter().map(Expr::depth).max().unwrap_or(0);
        1 + match &self.kind {
            ExprKind::List(items) | ExprKind::Call(_, items) => max(items),
            ExprKind::Unary(_, e) => e.depth(),
            ExprKind::Binary(_, a, b) => a.depth().max(b.depth()),
            ExprKind::In(a, items) => a.depth().max(max(items)),
            _ => 0,
        }
    }

    /// A copy with every fact for which `f` returns an expression replaced by
    /// it (used to expand `let.` names when comparing recommendations).
    pub fn substitute(&self, f: &dyn Fn(&FactRef) -> Option<Expr>) -> Expr {
        let sub = |e: &Expr| e.substitute(f);
        let kind = match &self.kind {
            ExprKind::Fact(r) => match f(r) {
                Some(e) => return e,
                None => ExprKind::Fact(r.clone()),
            },
            ExprKind::List(items) => ExprKind::List(items.iter().map(sub).collect()),
            ExprKind::Call(func, args) => ExprKind::Call(*func, args.iter().map(sub).collect()),
            ExprKind::Unary(op, e) => ExprKind::Unary(*op, Box::new(sub(e))),
            ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, Box::new(sub(a)), Box::new(sub(b))),
            ExprKind::In(a, items) => {
                ExprKind::In(Box::new(sub(a)), items.iter().map(sub).collect())
            }
            other => other.clone(),
        };
        Expr::new(kind, self.span)
    }
}
