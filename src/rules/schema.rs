//! What a loaded rule is: the typed, checked form of one `[[rule]]` table.
//! The TOML layout is described in `docs/rules.md`; `loader` turns text
//! into these values and reports every mistake with file:line:col.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

use super::expr::Expr;
use super::template::Template;
use crate::facts::SourceLocation;
use crate::target::{Flavor, Target, Version};

/// How bad a finding is. Ordered: info < warn < crit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warn,
    Crit,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warn => "warn",
            Severity::Crit => "crit",
        }
    }
}

impl FromStr for Severity {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "info" => Ok(Severity::Info),
            "warn" => Ok(Severity::Warn),
            "crit" => Ok(Severity::Crit),
            _ => Err(format!(
                "unknown severity '{s}' (expected info, warn or crit)"
            )),
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How much a rule's advice can be trusted. Ordered: low < medium < high.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    Low,
    Medium,
    High,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    }

    /// One step lower (low stays low).
    pub fn lowered(self) -> Confidence {
        match self {
            Confidence::High => Confidence::Medium,
            _ => Confidence::Low,
        }
    }
}

impl FromStr for Confidence {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "low" => Ok(Confidence::Low),
            "medium" => Ok(Confidence::Medium),
            "high" => Ok(Confidence::High),
            _ => Err(format!(
                "unknown confidence '{s}' (expected low, medium or high)"
            )),
        }
    }
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Rule families and their code ranges (MT1xx innodb … MT9xx compat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// MT0xx: structural option-file checks built into `lint` (not a TOML
    /// family: no rule file may use it).
    Config,
    Innodb,
    Connections,
    Memory,
    Caches,
    Logging,
    Replication,
    Security,
    Os,
    Compat,
}

impl Family {
    pub const ALL: [Family; 9] = [
        Family::Innodb,
        Family::Connections,
        Family::Memory,
        Family::Caches,
        Family::Logging,
        Family::Replication,
        Family::Security,
        Family::Os,
        Family::Compat,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Family::Config => "config",
            Family::Innodb => "innodb",
            Family::Connections => "connections",
            Family::Memory => "memory",
            Family::Caches => "caches",
            Family::Logging => "logging",
            Family::Replication => "replication",
            Family::Security => "security",
            Family::Os => "os",
            Family::Compat => "compat",
        }
    }

    /// The hundreds digit of the family's codes (MT**1**01).
    pub fn code_digit(self) -> u32 {
        match self {
            Family::Config => 0,
            _ => Family::ALL.iter().position(|f| *f == self).expect("listed") as u32 + 1,
        }
    }
}

impl FromStr for Family {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Family::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown family '{s}' (expected {})",
                    Family::ALL.map(|f| f.as_str()).join(", ")
                )
            })
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One bound of a version range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Ge(Version),
    Gt(Version),
    Le(Version),
    Lt(Version),
    Eq(Version),
}

impl Bound {
    fn holds(self, v: Version) -> bool {
        match self {
            Bound::Ge(b) => v >= b,
            Bound::Gt(b) => v > b,
            Bound::Le(b) => v <= b,
            Bound::Lt(b) => v < b,
            Bound::Eq(b) => v == b,
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (op, v) = match self {
            Bound::Ge(v) => (">=", v),
            Bound::Gt(v) => (">", v),
            Bound::Le(v) => ("<=", v),
            Bound::Lt(v) => ("<", v),
            Bound::Eq(v) => ("=", v),
        };
        write!(f, "{op} {}", short_version(*v))
    }
}

fn short_version(v: Version) -> String {
    if v.patch == 0 {
        format!("{}.{}", v.major, v.minor)
    } else {
        v.to_string()
    }
}

/// A set of versions: all bounds must hold (`>= 5.7, < 8.0`). Empty = any.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VersionRange {
    pub bounds: Vec<Bound>,
}

impl VersionRange {
    pub fn contains(&self, v: Version) -> bool {
        self.bounds.iter().all(|b| b.holds(v))
    }

    /// Could some version satisfy both ranges? (Used by the conflict check:
    /// a test at every bound and just beside it is exact for interval sets.)
    pub fn overlaps(&self, other: &VersionRange) -> bool {
        if self.bounds.is_empty() || other.bounds.is_empty() {
            return true;
        }
        let mut probes = vec![Version::new(0, 0, 0), Version::new(u32::MAX, 0, 0)];
        for b in self.bounds.iter().chain(&other.bounds) {
            let (Bound::Ge(v) | Bound::Gt(v) | Bound::Le(v) | Bound::Lt(v) | Bound::Eq(v)) = *b;
            probes.push(v);
            probes.push(Version::new(v.major, v.minor, v.patch.saturating_add(1)));
            if v.patch > 0 {
                probes.push(Version::new(v.major, v.minor, v.patch - 1));
            } else if v.minor > 0 {
                probes.push(Version::new(v.major, v.minor - 1, u32::MAX));
            } else if v.major > 0 {
                probes.push(Version::new(v.major - 1, u32::MAX, u32::MAX));
            }
        }
        probes
            .into_iter()
            .any(|p| self.contains(p) && other.contains(p))
    }
}

impl FromStr for VersionRange {
    type Err = String;
    /// `*`, or comma-separated `OP X.Y[.Z]` with OP one of `>= > <= < =`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s == "*" || s.is_empty() {
            return Ok(VersionRange::default());
        }
        let mut bounds = Vec::new();
        for part in s.split(',') {
            let p = part.trim();
            let (op, rest) = [">=", "<=", ">", "<", "="]
                .iter()
                .find_map(|op| p.strip_prefix(op).map(|r| (*op, r.trim())))
                .ok_or_else(|| {
                    format!("'{p}' is not a version bound (expected e.g. '>= 5.7' or '< 8.0')")
                })?;
            let v: Version = rest
                .parse()
                .map_err(|_| format!("'{rest}' is not a version (expected X.Y[.Z])"))?;
            bounds.push(match op {
                ">=" => Bound::Ge(v),
                ">" => Bound::Gt(v),
                "<=" => Bound::Le(v),
                "<" => Bound::Lt(v),
                _ => Bound::Eq(v),
            });
        }
        Ok(VersionRange { bounds })
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.bounds.iter().map(|b| b.to_string()).collect();
        f.write_str(&parts.join(", "))
    }
}

/// Which product lines and versions a rule is for, by base flavor (the
/// flavor table's; PXC follows Percona Server's rules). A base flavor
/// without an entry is not for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applies {
    ranges: BTreeMap<Flavor, VersionRange>,
}

impl Default for Applies {
    /// Every product line, every version.
    fn default() -> Self {
        Applies {
            ranges: Flavor::bases()
                .map(|f| (f, VersionRange::default()))
                .collect(),
        }
    }
}

impl Applies {
    /// For no product line yet: [`Applies::with`] adds them.
    pub fn none() -> Self {
        Applies {
            ranges: BTreeMap::new(),
        }
    }

    /// Also for `flavor`'s product line, in `range`.
    pub fn with(mut self, flavor: Flavor, range: VersionRange) -> Self {
        self.ranges.insert(flavor.base(), range);
        self
    }

    pub fn for_flavor(&self, f: Flavor) -> Option<&VersionRange> {
        self.ranges.get(&f.base())
    }

    /// True when no product line is named.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// True when every flavor and version is included, so no target is needed.
    pub fn is_universal(&self) -> bool {
        Flavor::bases().all(|f| self.for_flavor(f).is_some_and(|r| r.bounds.is_empty()))
    }

    pub fn matches(&self, t: Target) -> bool {
        self.for_flavor(t.flavor)
            .is_some_and(|r| r.contains(t.version))
    }

    pub fn overlaps(&self, other: &Applies) -> bool {
        Flavor::bases().any(|f| match (self.for_flavor(f), other.for_flavor(f)) {
            (Some(a), Some(b)) => a.overlaps(b),
            _ => false,
        })
    }
}

impl fmt::Display for Applies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_universal() {
            return f.write_str("all");
        }
        let mut parts = Vec::new();
        for flavor in Flavor::bases() {
            if let Some(r) = self.for_flavor(flavor) {
                if r.bounds.is_empty() {
                    parts.push(flavor.to_string());
                } else {
                    parts.push(format!("{flavor} {r}"));
                }
            }
        }
        f.write_str(&parts.join("; "))
    }
}

impl Serialize for Applies {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// An expression with the text it was written as.
#[derive(Debug, Clone)]
pub struct Compiled {
    pub text: String,
    pub expr: Expr,
}

impl Serialize for Compiled {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

/// How a recommended value is written into a finding and an option file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueFormat {
    /// Integers as integers, fractions with up to 6 decimals, booleans ON/OFF.
    #[default]
    Number,
    /// A byte count with the largest exact suffix (`units::format_size`).
    Size,
    /// `ON` / `OFF`.
    Bool,
    /// The text as is.
    String,
}

impl FromStr for ValueFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "number" => Ok(ValueFormat::Number),
            "size" => Ok(ValueFormat::Size),
            "bool" => Ok(ValueFormat::Bool),
            "string" => Ok(ValueFormat::String),
            _ => Err(format!(
                "unknown format '{s}' (expected number, size, bool or string)"
            )),
        }
    }
}

/// Profile conditions a recommendation is scoped to (`durability = "relaxed"`).
/// Empty = every profile.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ProfileScope {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub durability: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workload: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observability: Option<String>,
}

impl ProfileScope {
    fn pairs(&self) -> Vec<(&'static str, &str)> {
        let mut v = Vec::new();
        if let Some(d) = &self.durability {
            v.push(("durability", d.as_str()));
        }
        if let Some(w) = &self.workload {
            v.push(("workload", w.as_str()));
        }
        if let Some(o) = &self.observability {
            v.push(("observability", o.as_str()));
        }
        v
    }

    pub fn is_empty(&self) -> bool {
        self.pairs().is_empty()
    }

    /// Number of conditions; a more specific scope wins inside one rule.
    pub fn specificity(&self) -> usize {
        self.pairs().len()
    }

    /// Can one profile satisfy both scopes?
    pub fn compatible(&self, other: &ProfileScope) -> bool {
        let ok = |a: &Option<String>, b: &Option<String>| match (a, b) {
            (Some(x), Some(y)) => x == y,
            _ => true,
        };
        ok(&self.durability, &other.durability)
            && ok(&self.workload, &other.workload)
            && ok(&self.observability, &other.observability)
    }

    /// Every condition of `self` is also one of `other`, and `other` has more.
    pub fn strictly_within(&self, other: &ProfileScope) -> bool {
        let mine = self.pairs();
        let theirs = other.pairs();
        mine.len() < theirs.len() && mine.iter().all(|p| theirs.contains(p))
    }
}

impl fmt::Display for ProfileScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("any profile");
        }
        let parts: Vec<String> = self
            .pairs()
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        f.write_str(&parts.join(", "))
    }
}

/// What a recommended (or `variable`) name sets. A plain name is a server
/// variable; a name with a namespace prefix is a host setting, which
/// `check` compares with the host facts and `gen-sysctl` / `gen-limits`
/// write instead of my.cnf.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting<'a> {
    /// `innodb_buffer_pool_size`: a server variable (my.cnf).
    Server(&'a str),
    /// `sysctl:net.core.somaxconn`: a kernel setting (sysctl.conf), by its
    /// dotted key.
    Sysctl(&'a str),
    /// `limit:nofile`: a resource limit of the server process (limits.conf
    /// item, systemd `LimitNOFILE=`); one of [`LIMIT_ITEMS`].
    Limit(&'a str),
    /// `host:thp`: another host setting; one of [`HOST_SETTINGS`].
    Host(&'a str),
}

/// Resource limits a rule may recommend (`limit:ITEM`), named as in
/// limits.conf.
pub const LIMIT_ITEMS: &[&str] = &["nofile", "nproc", "memlock", "core"];

/// Other host settings a rule may recommend (`host:NAME`): `thp` is the
/// transparent huge pages mode (`/sys/kernel/mm/transparent_hugepage/enabled`),
/// `io_scheduler` the I/O scheduler of the datadir's block device.
pub const HOST_SETTINGS: &[&str] = &["thp", "io_scheduler"];

impl<'a> Setting<'a> {
    /// Split a canonical name (as the loader stores it) at its namespace.
    pub fn parse(name: &'a str) -> Setting<'a> {
        match name.split_once(':') {
            Some(("sysctl", k)) => Setting::Sysctl(k),
            Some(("limit", k)) => Setting::Limit(k),
            Some(("host", k)) => Setting::Host(k),
            _ => Setting::Server(name),
        }
    }

    /// The name inside the namespace (`net.core.somaxconn`, `nofile`).
    pub fn key(self) -> &'a str {
        match self {
            Setting::Server(k) | Setting::Sysctl(k) | Setting::Limit(k) | Setting::Host(k) => k,
        }
    }

    pub fn is_server(self) -> bool {
        matches!(self, Setting::Server(_))
    }
}

/// One recommended setting.
#[derive(Debug, Clone, Serialize)]
pub struct Recommend {
    /// Canonical variable name (lowercase, underscores), or a namespaced
    /// host setting (`sysctl:net.core.somaxconn`, see [`Setting`]).
    pub variable: String,
    pub value: Compiled,
    #[serde(skip_serializing_if = "ProfileScope::is_empty")]
    pub profile: ProfileScope,
    pub format: ValueFormat,
    /// `offer_if`: the value is offered only when this condition holds.
    /// When it is false, or a fact it needs is missing, the recommendation
    /// is withheld: the finding recommends nothing, `check` suggests no
    /// change, and `gen-cnf` writes the line commented out under
    /// [`Recommend::withheld`]. For a change that is safe only when the
    /// server proves something (MT208: no login depends on host names).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offer_if: Option<Compiled>,
    /// `withheld`: why a withheld value is not offered and what to do
    /// first (a template; required with `offer_if`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub withheld: Option<Template>,
    /// Where the entry is, for conflict messages.
    #[serde(skip)]
    pub location: SourceLocation,
}

/// A reference behind a rule: a section of a cited article, a manual page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Source {
    /// Key of a cited article ([`super::articles`]); its title and url are
    /// filled in from there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article: Option<String>,
    /// The title of the article or manual page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Section or step inside it (`§1.2.2`, `step 2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl Source {
    /// A section of a registered article; `None` for an unknown key.
    pub fn article(key: &str, section: Option<String>) -> Option<Source> {
        let a = super::articles::find(key)?;
        Some(Source {
            article: Some(a.key.to_string()),
            title: Some(a.citation()),
            section,
            url: a.url.map(str::to_string),
        })
    }

    /// A manual page or other link without a title.
    pub fn link(url: impl Into<String>) -> Source {
        Source {
            article: None,
            title: None,
            section: None,
            url: Some(url.into()),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(t) = &self.title {
            parts.push(t.clone());
        }
        if let Some(s) = &self.section {
            parts.push(s.clone());
        }
        if let Some(u) = &self.url {
            parts.push(format!("<{u}>"));
        }
        f.write_str(&parts.join(", "))
    }
}

/// A loaded, checked rule.
#[derive(Debug, Clone, Serialize)]
pub struct Rule {
    pub code: crate::rules::Code,
    pub name: String,
    pub family: Family,
    pub severity: Severity,
    pub confidence: Confidence,
    pub tags: Vec<String>,
    pub applies: Applies,
    /// Named sub-expressions (`let.NAME`), in name order.
    #[serde(
        rename = "let",
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "lets_as_map"
    )]
    pub lets: Vec<(String, Compiled)>,
    /// The shared model entries the rule uses (directly or through other
    /// entries), as (name, expression as written), in definition order.
    /// They are already expanded into the rule's expressions.
    #[serde(
        rename = "model",
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "model_as_map"
    )]
    pub models: Vec<(String, String)>,
    pub when: Compiled,
    /// The variable a finding is about when the rule recommends nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variable: Option<String>,
    /// How the current value of `variable` is shown (as read when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<ValueFormat>,
    pub recommend: Vec<Recommend>,
    pub message: Template,
    pub rationale: String,
    pub sources: Vec<Source>,
    /// The rule reads `status.` or `rate.` (its confidence drops on a server
    /// that has not been up for a day).
    pub reads_status: bool,
    /// Where the `[[rule]]` table starts.
    pub origin: SourceLocation,
}

impl Rule {
    /// Does any expression of the rule read `var.NAME` (or `cnf.NAME`, or
    /// `sysctl("KEY")` for a `sysctl:KEY` setting)? A text search of the
    /// compiled sources, names as the rules write them.
    pub fn reads(&self, setting: &str) -> bool {
        let needles: Vec<String> = match setting.strip_prefix("sysctl:") {
            Some(key) => vec![format!("sysctl(\"{key}\"")],
            None if setting.contains(':') => return false,
            None => vec![format!("var.{setting}"), format!("cnf.{setting}")],
        };
        for text in self.sources_text() {
            for needle in &needles {
                let mut from = 0;
                while let Some(i) = text[from..].find(needle.as_str()) {
                    let end = from + i + needle.len();
                    let next = text[end..].chars().next();
                    if !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                        return true;
                    }
                    from = end;
                }
            }
        }
        false
    }

    /// Every setting [`Rule::reads`] says yes to, in one pass over the
    /// sources: the NAME of each `var.NAME` and `cnf.NAME`, and `sysctl:KEY`
    /// for each `sysctl("KEY")`. For a caller asking about many settings
    /// (the coherent plan asks about each planned setting, per rule, per
    /// pass, per server of a fleet).
    pub fn read_settings(&self) -> BTreeSet<String> {
        let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let mut out = BTreeSet::new();
        for text in self.sources_text() {
            for prefix in ["var.", "cnf."] {
                for (i, _) in text.match_indices(prefix) {
                    let rest = &text[i + prefix.len()..];
                    let end = rest.find(|c: char| !ident(c)).unwrap_or(rest.len());
                    if end > 0 {
                        out.insert(rest[..end].to_string());
                    }
                }
            }
            for (i, m) in text.match_indices("sysctl(\"") {
                let rest = &text[i + m.len()..];
                if let Some(q) = rest.find('"')
                    && !rest[q + 1..].chars().next().is_some_and(ident)
                {
                    out.insert(format!("sysctl:{}", &rest[..q]));
                }
            }
        }
        out
    }

    /// The expression sources [`Rule::reads`] searches.
    fn sources_text(&self) -> impl Iterator<Item = &str> {
        self.lets
            .iter()
            .map(|(_, c)| c.text.as_str())
            .chain(self.models.iter().map(|(_, t)| t.as_str()))
            .chain([self.when.text.as_str(), self.message.text.as_str()])
            .chain(self.recommend.iter().map(|r| r.value.text.as_str()))
            .chain(
                self.recommend
                    .iter()
                    .filter_map(|r| r.offer_if.as_ref().map(|c| c.text.as_str())),
            )
    }
}

fn model_as_map<S: Serializer>(models: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(models.iter().map(|(k, v)| (k, v)))
}

fn lets_as_map<S: Serializer>(lets: &[(String, Compiled)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(lets.iter().map(|(k, v)| (k, &v.text)))
}
