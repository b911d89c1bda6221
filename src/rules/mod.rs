//! The rule engine: one catalog of TOML rules drives `check`, `gen-cnf` and
//! `lint`, so every heuristic lives in exactly one rule and none in Rust.
//!
//! - [`loader`] reads rule files into checked [`Rule`]s ([`RuleSet`]), with
//!   file:line:col errors;
//! - [`expr`] is the expression language of conditions, recommendations and
//!   message placeholders;
//! - [`evaluate`] applies a [`RuleSet`] to [`crate::facts::Facts`] and a
//!   [`Profile`], producing an [`Evaluation`] (findings, recommendations,
//!   rules not applicable with their reasons);
//! - [`articles`] is the registry of the articles rules cite;
//! - [`docs`] renders the catalog itself (rule reference, `explain`).

pub mod articles;
pub mod builtin;
pub mod builtin_check;
pub mod code;
pub mod docs;
pub mod evaluate;
pub mod expr;
pub mod fact_table;
pub mod finding;
pub mod loader;
pub mod profile;
pub mod schema;
pub mod template;

pub use code::Code;
pub use evaluate::{Defaults, EvalInput};
pub use finding::{Evaluation, Finding, Fix, LineEdit, NotApplicable, Recommendation, Withheld};
pub use loader::{ModelEntry, RuleError, RuleErrors, RuleSet};
pub use profile::{Durability, Observability, Profile, Workload};
pub use schema::{Confidence, Family, Rule, Setting, Severity};
