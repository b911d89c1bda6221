//! One `mytune lint` run over many files: find each file's `mytune.toml`,
//! group the files by it (one group = one described host), turn the group's
//! sysctl/limits files into host facts, check every option file
//! structurally and against the whole rule catalog, then apply inline
//! suppressions and the configuration's severity overrides and ignores.
//!
//! Every judgement comes from a structural check ([`super::checks`]) or a
//! rule; this module only gathers facts and places findings on lines.

use crate::catalog::Resolve;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::thread;

use super::baseline::Baseline;
use super::config::{Level, ProjectConfig, find_upward};
use super::limits_file::Item;
use super::suppress::{self, Suppression};
use super::system::{FileKind, SystemFiles, classify};
use super::{by_location, finding, lint_loaded};
use crate::catalog::Catalog;
use crate::checks;
use crate::cnf;
use crate::facts::{Facts, HostFacts, SourceLocation};
use crate::rules::expr::ast::{Expr, ExprKind, Func, Namespace};
use crate::rules::{EvalInput, Finding, Rule, RuleSet};
use crate::target::Target;

/// The target when neither the command line nor `mytune.toml` names one.
pub const DEFAULT_TARGET: &str = "mysql-8.0";

/// What a run needs besides the files.
pub struct LintOptions<'a> {
    /// `--target`: wins over `mytune.toml`.
    pub target: Option<Target>,
    /// `--config`: used for every file instead of searching upward.
    pub config: Option<&'a Path>,
    pub rules: &'a RuleSet,
    /// The target when neither `--target` nor `mytune.toml` names one, and
    /// where it came from (e.g. the server installed here); `None`:
    /// [`DEFAULT_TARGET`].
    pub fallback: Option<(Target, String)>,
    /// Which baseline drops accepted findings.
    pub baseline: BaselineChoice<'a>,
    /// `--from`: the release the files run on today; every variable they
    /// leave at its default whose default changes on the target is
    /// reported (MT023).
    pub from: Option<Target>,
}

/// Where a run's baseline comes from.
#[derive(Debug, Clone, Copy, Default)]
pub enum BaselineChoice<'a> {
    /// Each group's `mytune.toml` `baseline`, if it names one.
    #[default]
    FromConfig,
    /// `--baseline FILE`, for every file.
    Given(&'a Baseline),
    /// None (`--write-baseline` records every finding).
    Off,
}

/// A rule that could not be evaluated for a file, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct NotApplicable {
    pub code: crate::rules::Code,
    pub reason: String,
}

/// The result of a run.
#[derive(Debug, Default)]
pub struct LintOutcome {
    /// Sorted by file, line, code.
    pub findings: Vec<Finding>,
    /// Distinct (code, reason) pairs, for `-v`.
    pub not_applicable: Vec<NotApplicable>,
    /// Notes for `-v` (which config and target each group used, files
    /// without server options).
    pub notes: Vec<String>,
    /// Each file linted and how it was read.
    pub files: Vec<(PathBuf, FileKind)>,
    /// The targets used (one per configuration group).
    pub targets: Vec<Target>,
    /// Where each of `targets` came from: `--target`, a mytune.toml's path,
    /// the fallback's origin, or `default`.
    pub target_origins: Vec<String>,
    /// Files or configurations that could not be read (exit code 2).
    pub errors: Vec<String>,
}

/// A file read and classified.
struct Input {
    path: PathBuf,
    text: String,
    kind: FileKind,
}

/// The most bytes one lint run reads from the files it is given (each is
/// also capped at [`crate::input::MAX_INPUT_SIZE`], and a walk at
/// [`super::walk::MAX_WALK_FILES`] files).
pub const MAX_RUN_BYTES: u64 = 256 * 1024 * 1024;

/// Lint `files` (already expanded from directories).
pub fn lint_files(files: &[PathBuf], opts: &LintOptions) -> LintOutcome {
    let mut out = LintOutcome::default();

    // Group files by their mytune.toml.
    let mut configs: BTreeMap<Option<PathBuf>, Option<ProjectConfig>> = BTreeMap::new();
    let mut groups: BTreeMap<Option<PathBuf>, Vec<Input>> = BTreeMap::new();
    let forced = opts.config.map(Path::to_path_buf);
    let mut upward_cache: HashMap<PathBuf, Option<PathBuf>> = HashMap::new();
    let mut total_bytes: u64 = 0;
    for path in files {
        let bytes = match crate::input::read_bytes(path) {
            Ok(b) => b,
            Err(e) => {
                out.errors.push(e.to_string());
                continue;
            }
        };
        total_bytes += bytes.len() as u64;
        if total_bytes > MAX_RUN_BYTES {
            out.errors.push(format!(
                "{}: the files of this run add up to more than {MAX_RUN_BYTES} bytes; stopped here",
                path.display()
            ));
            break;
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let kind = classify(path, &text);
        let cfg_path = match &forced {
            Some(p) => Some(p.clone()),
            None => {
                let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
                upward_cache
                    .entry(dir)
                    .or_insert_with_key(|d| find_upward(&d.join("x")))
                    .clone()
            }
        };
        if !configs.contains_key(&cfg_path) {
            let loaded = match &cfg_path {
                None => None,
                Some(p) => match ProjectConfig::load(p) {
                    Ok(c) => Some(c),
                    Err(e) => {
                        out.errors.push(e.to_string());
                        return out;
                    }
                },
            };
            configs.insert(cfg_path.clone(), loaded);
        }
        out.files.push((path.clone(), kind));
        groups.entry(cfg_path).or_default().push(Input {
            path: path.clone(),
            text,
            kind,
        });
    }

    let mut na: BTreeSet<NotApplicable> = BTreeSet::new();
    for (cfg_path, inputs) in groups {
        let cfg = configs.get(&cfg_path).and_then(Option::as_ref);
        let (target, origin) = match (opts.target, cfg.and_then(|c| c.target.map(|t| (t, c)))) {
            (Some(t), _) => (t, "--target".to_string()),
            (None, Some((t, c))) => {
                let cwd = std::env::current_dir().unwrap_or_default();
                let path = c.path.strip_prefix(&cwd).unwrap_or(&c.path);
                (t, path.display().to_string())
            }
            (None, None) => opts.fallback.clone().unwrap_or_else(|| {
                (
                    DEFAULT_TARGET.parse().expect("valid default target"),
                    "default".to_string(),
                )
            }),
        };
        // One meaning per target: a bare series is its newest known release.
        let target = target.resolved();
        if !out.targets.contains(&target) {
            out.targets.push(target);
            out.target_origins.push(origin);
        }
        match cfg {
            Some(c) => out.notes.push(format!(
                "{}: target {target}, host {}",
                c.path.display(),
                if c.host.is_some() {
                    "described"
                } else {
                    "not described (host-dependent rules are not applicable)"
                }
            )),
            None => out.notes.push(format!(
                "no mytune.toml for {} file(s): target {target}, no host described, so host-dependent rules are not applicable",
                inputs.len()
            )),
        }
        let loaded_baseline;
        let baseline = match (opts.baseline, cfg.and_then(|c| c.baseline.as_deref())) {
            (BaselineChoice::Given(b), _) => Some(b),
            (BaselineChoice::FromConfig, Some(path)) => match Baseline::load(path) {
                Ok(b) => {
                    loaded_baseline = b;
                    Some(&loaded_baseline)
                }
                Err(e) => {
                    out.errors.push(e.to_string());
                    continue;
                }
            },
            _ => None,
        };
        match lint_group(
            &inputs,
            target,
            opts.from,
            cfg,
            opts.rules,
            &mut na,
            &mut out.notes,
        ) {
            Ok(f) => match baseline {
                Some(b) => out.findings.extend(apply_baseline(b, f, &inputs)),
                None => out.findings.extend(f),
            },
            Err(e) => out.errors.push(e),
        }
    }
    out.not_applicable = na.into_iter().collect();
    dedup(&mut out.findings);
    out
}

/// Drop the findings `baseline` accepts; add an MT022 for each of its
/// entries about these files that matched nothing.
fn apply_baseline(baseline: &Baseline, findings: Vec<Finding>, inputs: &[Input]) -> Vec<Finding> {
    let cache: std::cell::RefCell<HashMap<PathBuf, Option<String>>> = Default::default();
    let read = |p: &Path| -> Option<String> {
        if let Some(i) = inputs.iter().find(|i| i.path == p) {
            return Some(i.text.clone());
        }
        cache
            .borrow_mut()
            .entry(p.to_path_buf())
            .or_insert_with(|| crate::input::read_text(p).ok())
            .clone()
    };
    // The files of this group, and the files they include.
    let mut linted: Vec<PathBuf> = Vec::new();
    for i in inputs {
        let files = match i.kind {
            FileKind::OptionFile => cnf::load_str(&i.text, &i.path).files,
            _ => vec![i.path.clone()],
        };
        for f in files {
            if !linted.contains(&f) {
                linted.push(f);
            }
        }
    }
    let (mut kept, stale) = baseline.apply(findings, &linted, &read);
    for e in stale {
        kept.push(finding(
            &checks::unused_baseline_entry::CHECK,
            checks::unused_baseline_entry::CHECK.severity,
            format!(
                "this baseline entry ({} in {}{}) matches no finding any more; remove it",
                e.code,
                e.file,
                if e.variable == "-" {
                    String::new()
                } else {
                    format!(", {}", e.variable)
                }
            ),
            Some(SourceLocation {
                file: baseline.path.clone(),
                line: e.line,
                column: 1,
            }),
            None,
        ));
    }
    kept
}

#[allow(clippy::too_many_arguments)]
fn lint_group(
    inputs: &[Input],
    target: Target,
    from: Option<Target>,
    cfg: Option<&ProjectConfig>,
    rules: &RuleSet,
    na: &mut BTreeSet<NotApplicable>,
    notes: &mut Vec<String>,
) -> Result<Vec<Finding>, String> {
    let catalog = Catalog::for_target(&target).map_err(|e| e.to_string())?;
    let old_catalog = match from {
        Some(f) => Some(Catalog::for_target(&f).map_err(|e| format!("--from: {e}"))?),
        None => None,
    };
    let changes = old_catalog
        .map(|old| crate::catalog::upgrade::default_changes(old, catalog))
        .unwrap_or_default();

    // The OS side, in the order the system reads it.
    let mut system: Vec<&Input> = inputs
        .iter()
        .filter(|i| i.kind != FileKind::OptionFile)
        .collect();
    system.sort_by_key(|i| (i.kind, reading_order_name(&i.path)));
    let mut sys = SystemFiles::default();
    for i in &system {
        sys.add(i.kind, &i.text, &i.path);
    }
    let host: Option<HostFacts> = match (cfg.and_then(|c| c.host.clone()), sys.is_empty()) {
        (None, true) => None,
        (h, _) => {
            let mut h = h.unwrap_or_default();
            sys.apply(&mut h);
            Some(h)
        }
    };
    let profile = cfg.map(|c| c.profile.clone()).unwrap_or_default();

    // Each finding with the file whose evaluation produced it.
    let mut findings: Vec<(Finding, Option<PathBuf>)> = sys
        .errors
        .iter()
        .map(|e| {
            let f = finding(
                &checks::system_file_syntax_error::CHECK,
                checks::system_file_syntax_error::CHECK.severity,
                e.message.clone(),
                Some(e.location.clone()),
                None,
            );
            (f, None)
        })
        .collect();

    let series_only = target.version.patch == 0;
    let known = |name: &str| {
        catalog.get(name).is_some_and(|v| {
            let status = if series_only {
                v.status.clone()
            } else {
                v.status_at(target.version)
            };
            status.exists()
        })
    };
    let defaults = |name: &str| catalog.get(name).and_then(|v| v.default.clone());
    let refs: HashMap<&str, Vec<SysRef>> = rules
        .rules()
        .iter()
        .map(|r| (r.code.as_str(), system_refs(r)))
        .collect();
    let place = |f: &mut Finding, fallback: Option<&Path>| -> bool {
        if f.location.is_some() {
            return true;
        }
        let from_system = refs.get(f.code.as_str()).and_then(|rs| {
            rs.iter().find_map(|r| match r {
                SysRef::Sysctl(k) => sys.sysctl.get(k).map(|(_, l)| l.clone()),
                SysRef::Limit(item) => sys.limit_location(*item).cloned(),
            })
        });
        f.location = from_system.or_else(|| {
            fallback.map(|p| SourceLocation {
                file: p.to_path_buf(),
                line: 1,
                column: 0,
            })
        });
        f.location.is_some()
    };
    let evaluate = |facts: &Facts| {
        rules.evaluate(
            &EvalInput::new(facts, &profile)
                .with_target(target)
                .with_defaults(&defaults)
                .with_known_variables(&known),
        )
    };

    let option_files: Vec<&Input> = inputs
        .iter()
        .filter(|i| i.kind == FileKind::OptionFile)
        .collect();
    let server_groups = cnf::server_groups(&target);
    let per_file = parallel_map(&option_files, |input| {
        let loaded = cnf::load_str(&input.text, &input.path);
        let config = loaded.effective(&server_groups);
        let mut found: Vec<(Finding, Option<PathBuf>)> =
            lint_loaded(&loaded, &config, &target, catalog)
                .into_iter()
                .map(|f| (f, Some(input.path.clone())))
                .collect();
        if let Some(from) = from {
            found.extend(
                super::upgrade::default_findings(
                    &changes,
                    catalog,
                    &config,
                    from,
                    target,
                    &input.path,
                )
                .into_iter()
                .map(|f| (f, Some(input.path.clone()))),
            );
        }
        if config.options.is_empty() {
            return (found, Vec::new(), Some(input.path.clone()));
        }
        // Upgrade pins, judged by the rules as if written (one plan).
        let pins: Vec<(String, String)> = found
            .iter()
            .filter(|(f, _)| f.code == checks::default_changes_on_upgrade::CHECK.code)
            .filter_map(|(f, _)| Some((f.variable.clone()?, f.recommended.clone()?)))
            .collect();
        if !pins.is_empty() {
            let mut pinned = config.clone();
            for (name, value) in pins {
                pinned.options.insert(
                    name.clone(),
                    crate::facts::ConfigOption {
                        name,
                        value,
                        location: SourceLocation {
                            file: input.path.clone(),
                            line: 1,
                            column: 0,
                        },
                        group: "mysqld".into(),
                        loose: false,
                        shadowed: Vec::new(),
                    },
                );
            }
            let on_pinned = evaluate(&Facts {
                config: Some(pinned),
                host: host.clone(),
                ..Facts::default()
            });
            let mut upgrade: Vec<Finding> = Vec::new();
            found.retain(|(f, _)| {
                if f.code == checks::default_changes_on_upgrade::CHECK.code {
                    upgrade.push(f.clone());
                    false
                } else {
                    true
                }
            });
            super::upgrade::defer_to_rules(&mut upgrade, &on_pinned.findings);
            found.extend(upgrade.into_iter().map(|f| (f, Some(input.path.clone()))));
        }
        let facts = Facts {
            config: Some(config),
            host: host.clone(),
            ..Facts::default()
        };
        let eval = evaluate(&facts);
        for mut f in eval.findings {
            place(&mut f, Some(&input.path));
            found.push((f, Some(input.path.clone())));
        }
        let na = eval
            .not_applicable
            .into_iter()
            .map(|n| NotApplicable {
                code: n.code,
                reason: n.reason,
            })
            .collect();
        (found, na, None)
    });
    for (f, n, skipped) in per_file {
        findings.extend(f);
        na.extend(n);
        if let Some(p) = skipped {
            notes.push(format!(
                "{}: no options in the groups {target} reads; rules not evaluated",
                p.display()
            ));
        }
    }
    if option_files.is_empty() && !sys.is_empty() {
        // System files alone: only what they can be blamed for.
        let facts = Facts {
            host: host.clone(),
            ..Facts::default()
        };
        let eval = evaluate(&facts);
        for mut f in eval.findings {
            if place(&mut f, None) {
                findings.push((f, None));
            }
        }
        na.extend(eval.not_applicable.into_iter().map(|n| NotApplicable {
            code: n.code,
            reason: n.reason,
        }));
    }
    // Per-path ignores count for the file a finding is located in and the
    // option file whose evaluation produced it.
    if let Some(c) = cfg {
        findings.retain(|(f, origin)| {
            let at = f
                .location
                .as_ref()
                .is_some_and(|l| c.ignores(&f.code, &l.file));
            let from = origin.as_deref().is_some_and(|o| c.ignores(&f.code, o));
            !(at || from)
        });
    }
    let mut findings: Vec<Finding> = findings.into_iter().map(|(f, _)| f).collect();
    dedup(&mut findings);

    // Inline suppressions, then the severity overrides.
    let mut suppressions: Vec<Suppression> = Vec::new();
    let mut seen: HashSet<&Path> = HashSet::new();
    for i in inputs {
        if seen.insert(&i.path) && i.text.contains("mytune:") {
            suppressions.extend(suppress::scan(&i.text, &i.path));
        }
    }
    // Findings are sorted by file: look at each file once.
    let mut others: Vec<PathBuf> = Vec::new();
    let mut last: Option<&Path> = None;
    for p in findings
        .iter()
        .filter_map(|f| f.location.as_ref().map(|l| l.file.as_path()))
    {
        if last != Some(p) {
            last = Some(p);
            if seen.insert(p) {
                others.push(p.to_path_buf());
            }
        }
    }
    suppressions.extend(suppress::scan_files(&others));
    let (mut kept, unused) = suppress::apply(findings, &suppressions);
    kept.extend(unused.into_iter().map(|s| {
        let what = if s.codes.is_empty() {
            "any finding".to_string()
        } else {
            s.codes.join(", ")
        };
        finding(
            &checks::unused_suppression::CHECK,
            checks::unused_suppression::CHECK.severity,
            format!("this `mytune: ignore` suppresses nothing here ({what}); remove it"),
            Some(s.location),
            None,
        )
    }));
    if let Some(c) = cfg {
        kept.retain_mut(|f| {
            if f.location
                .as_ref()
                .is_some_and(|l| c.ignores(&f.code, &l.file))
            {
                return false;
            }
            match c.levels.get(f.code.as_str()) {
                Some(Level::Allow) => false,
                Some(Level::As(s)) => {
                    f.severity = *s;
                    true
                }
                None => true,
            }
        });
    }
    Ok(kept)
}

/// Sort key within one kind: systemd-sysctl reads sysctl.d by file name
/// with /etc/sysctl.conf as `99-sysctl.conf`; pam_limits reads limits.conf
/// before limits.d.
fn reading_order_name(p: &Path) -> String {
    match p.file_name().and_then(|n| n.to_str()).unwrap_or("") {
        "sysctl.conf" => "99-sysctl.conf".into(),
        "limits.conf" => String::new(),
        n => n.to_string(),
    }
}

/// A system fact a rule reads, to place its findings.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SysRef {
    Sysctl(String),
    Limit(Item),
}

/// The sysctl keys and process limits a rule reads, in the order it reads
/// them. A `host.` fact that is a process limit says which (its row of the
/// fact table).
fn system_refs(rule: &Rule) -> Vec<SysRef> {
    fn walk(e: &Expr, out: &mut Vec<SysRef>) {
        match &e.kind {
            ExprKind::Call(Func::Sysctl, args) => {
                if let Some(ExprKind::Str(k)) = args.first().map(|a| &a.kind) {
                    out.push(SysRef::Sysctl(k.clone()));
                }
            }
            ExprKind::Fact(r) if r.ns == Namespace::Host => {
                let limit = crate::rules::fact_table::HOST_FACTS
                    .iter()
                    .find(|d| d.name == r.name)
                    .and_then(|d| d.limit);
                match limit {
                    Some("nofile") => out.push(SysRef::Limit(Item::Nofile)),
                    Some("nproc") => out.push(SysRef::Limit(Item::Nproc)),
                    _ => {}
                }
            }
            ExprKind::List(items) | ExprKind::Call(_, items) => {
                items.iter().for_each(|i| walk(i, out))
            }
            ExprKind::Unary(_, a) => walk(a, out),
            ExprKind::Binary(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            ExprKind::In(a, items) => {
                walk(a, out);
                items.iter().for_each(|i| walk(i, out));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(&rule.when.expr, &mut out);
    rule.lets.iter().for_each(|(_, c)| walk(&c.expr, &mut out));
    rule.recommend
        .iter()
        .for_each(|r| walk(&r.value.expr, &mut out));
    rule.message.exprs().for_each(|e| walk(e, &mut out));
    out
}

/// Sort by location then code, and drop exact repeats (a sysctl finding
/// reached from several option files of one host).
fn dedup(findings: &mut Vec<Finding>) {
    findings.sort_by(|a, b| {
        by_location(a, b)
            .then_with(|| a.code.cmp(&b.code))
            .then_with(|| a.message.cmp(&b.message))
    });
    findings
        .dedup_by(|a, b| a.code == b.code && a.location == b.location && a.message == b.message);
}

/// Map over the inputs on the available cores, keeping their order.
fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len().max(1));
    if workers <= 1 {
        return items.iter().map(&f).collect();
    }
    let chunk = items.len().div_ceil(workers);
    let f = &f;
    thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(f).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a lint worker panicked"))
            .collect()
    })
}
