//! What the server does with one option line: refuse to start, start but
//! warn (adjust the value, ignore the line), or apply it.
//!
//! Lint, drift and the generators ask this one place, so that a verdict such
//! as "the server will not start" is said only where the server would say it
//! too. The rules here follow the servers' option parser (`my_getopt`) and
//! are checked against the real `mariadbd` by the differential test
//! (`tests/it/differential_mariadb.rs`); what the parser's source does not show
//! (which removed options MariaDB still accepts as no-ops, which numeric
//! options take `maximum-`, which are read in the first pass) was asked of
//! the server by `scripts/probe-mariadbd.py` and is embedded from
//! `data/catalog/mariadb-10.11-server.tsv`.
//!
//! What the two parsers share (MySQL 5.7/8.x and MariaDB):
//! - a number is a leading integer and at most one suffix letter
//!   (K/M/G/T/P/E, any case); anything after the letter is ignored, so
//!   `16MB` is 16M and `1e3` is 1 exbibyte; any other character ends the
//!   start ("Unknown suffix");
//! - an empty number is 0; a negative number for an unsigned option and a
//!   number beyond 64 bits are refused; a value out of range is clamped
//!   with a warning;
//! - a boolean is ON/OFF/TRUE/FALSE/1/0; any other word is a warning and
//!   the option is OFF;
//! - an enum value is a value, a unique prefix of one, or its index;
//! - `loose-` turns an unknown option into a warning.
//!
//! Where they differ: MariaDB accepts a unique prefix of an option name
//! (with a note), keeps many removed options as warned no-ops, and disables
//! a plugin whose options it cannot parse (InnoDB and Aria then stop the
//! start); MySQL 8.0 and later refuse prefixes and removed options.
//!
//! This module judges a line's name; `value` its value, `plugins` what
//! plugins bring and need, `names` how messages name things.

mod names;
mod plugins;
mod value;

pub use names::{flavor_name, release_name, written_name};
pub use value::{enum_index, parse_number};

use std::collections::HashSet;

use names::{did_you_mean, other_product, since_text};
use plugins::{FATAL_PLUGINS, MARIADB_PLUGIN_PREFIXES, mariadb_plugin};
use value::is_enable_option;

use super::server_facts::server_facts;
use super::{Catalog, VarInfo, VarKind, VarStatus};
use crate::cnf::{Modifier, OptionEntry, canonical_name};
use crate::target::{Dialect, Target, Version};

/// The server's reaction to a line, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effect {
    /// The server stops at start-up.
    Refuses,
    /// The server starts and warns: the line is ignored, or its value is
    /// adjusted, or it works but is deprecated.
    Warns,
    /// The server applies the line as written.
    Applies,
}

/// Why, in terms a check can map to its code.
#[derive(Debug, Clone, PartialEq)]
pub enum Reason {
    /// No option of that name (or loaded plugin).
    Unknown { suggestions: Vec<String> },
    /// An option of a plugin the file does not load.
    PluginNotLoaded { plugin: String },
    /// Removed in this series; `ignored`: the server keeps it as a no-op.
    Removed {
        since: Option<Version>,
        replacement: Option<String>,
        ignored: bool,
    },
    Deprecated {
        since: Option<Version>,
        replacement: Option<String>,
    },
    /// A prefix of an option name, taken as that option.
    Prefix { full: String, silent: bool },
    /// A prefix of several option names.
    AmbiguousPrefix { candidates: Vec<String> },
    /// A value the server cannot read, or a form it refuses.
    BadValue,
    /// A value the server reads as another one (clamped, rounded, a
    /// boolean it does not recognize).
    Adjusted { runs_with: Option<String> },
    /// An option only some builds have (`condition`: what the build
    /// needs, "NUMA support"); one without it refuses the line.
    BuildDependent { condition: String },
    /// An option of a later series than the target's release.
    Introduced { since: Option<Version> },
}

/// One finding about one line.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement<'c> {
    pub effect: Effect,
    pub reason: Reason,
    /// The option the line names (after prefix resolution), when known.
    pub var: Option<&'c VarInfo>,
    /// What the server does and why, for a user.
    pub message: String,
}

/// What a line is judged against besides the catalog.
#[derive(Debug, Clone, Default)]
pub struct LineContext {
    /// Plugins the option files load (`plugin-load`, `plugin-load-add`,
    /// `early-plugin-load`), by plugin name.
    pub plugins: HashSet<String>,
    /// The release the file is for (deprecations and removals as of it);
    /// `None`: the newest release the catalog knows.
    pub target: Option<Target>,
    /// `innodb_page_size` in bytes, when the files set it.
    pub innodb_page_size: Option<i128>,
    /// The files turn `getopt_prefix_matching` off (MariaDB): a name is
    /// then never taken as a prefix of another (the server reads that
    /// option first, wherever it stands).
    pub no_prefix_matching: bool,
    /// Key management plugins the files load without what they need to
    /// initialize (`file_key_management` without
    /// `file_key_management_filename`): loaded, but no key source.
    pub keyless_plugins: HashSet<String>,
}

/// MariaDB booleans that, turned on, keep the server from serving, with
/// what it does instead (each seen against mariadbd 10.11.19).
const MARIADB_ON_STOPS: &[(&str, &str)] = &[
    // Without its built-in InnoDB there is no engine for the default.
    (
        "ignore_builtin_innodb",
        "disables the built-in InnoDB, the default storage engine; the server will not start \
         (Unknown/unsupported storage engine: InnoDB)",
    ),
    // A mode, not a setting (with and without a provider).
    (
        "wsrep_recover",
        "makes the server recover the Galera position and exit instead of starting; pass \
         --wsrep-recover on the command line when you need it, never in an option file",
    ),
];

/// Options MariaDB reads in its first pass besides those the probe found:
/// the performance schema's.
pub(in crate::catalog) fn is_early(name: &str) -> bool {
    // getopt_prefix_matching decides how the rest is read, so it is read
    // first (silently, as the server's start with `getopt_prefix_matchi`
    // shows).
    name.starts_with("performance_schema") || name == "getopt_prefix_matching"
}

impl Catalog {
    /// Judge one option line of a group the server reads. Returns nothing
    /// when the server applies it as written; several judgements when, say,
    /// a deprecated option also has a value out of range.
    pub fn judge_line(&self, e: &OptionEntry, ctx: &LineContext) -> Vec<Judgement<'_>> {
        let t = ctx.target.unwrap_or_else(|| self.release());
        let written = written_name(e);
        let mut out = Vec::new();
        let facts = server_facts(t);
        if t.dialect() == Dialect::Mariadb && e.name.contains('.') {
            // A named key cache's or connection's variable, or an error.
            out.extend(self.dotted_name(e, ctx));
            return out;
        }
        // A system variable without an option of its name is, to the
        // option parser, possibly a prefix of another option
        // (`profiling` → `profiling_history_size`).
        let resolve_prefix = || {
            if ctx.no_prefix_matching {
                Ok(None)
            } else {
                self.resolve_prefix(e)
            }
        };
        let exact = self.resolve_option(&written).filter(|(v, _)| {
            !facts.is_some_and(|f| f.not_option.contains(&v.name))
                || !matches!(resolve_prefix(), Ok(Some(_)))
        });
        if let Some((info, super::OptionPrefix::Autoset)) = exact {
            // The server sizes it; a value is refused.
            if e.value.is_some() {
                out.push(Judgement {
                    effect: Effect::Refuses,
                    message: format!(
                        "{}: an option set to size itself (autoset-) takes no value (\"automatically set \
                         option cannot take an argument\"); the server will not start",
                        e.raw_name
                    ),
                    reason: Reason::BadValue,
                    var: Some(info),
                });
            }
            return out;
        }
        let (info, prefix) = match exact {
            Some((info, _)) => (info, None),
            None => match resolve_prefix() {
                Ok(Some((_, Some(info), silent))) => (info, Some(silent)),
                Ok(Some((full, None, _))) => {
                    let msg = self.ignored_message(&full).unwrap_or("");
                    let message = if full == e.name {
                        format!(
                            "{} is not a {} option: the server accepts it, warns (\"{msg}\") and ignores \
                             it; remove it",
                            e.raw_name,
                            flavor_name(t.flavor)
                        )
                    } else {
                        format!(
                            "{} is taken as {full} (a unique prefix), which the server accepts, warns \
                             about (\"{msg}\") and ignores; remove it",
                            e.raw_name
                        )
                    };
                    out.push(Judgement {
                        effect: Effect::Warns,
                        message,
                        reason: Reason::Removed {
                            since: None,
                            replacement: None,
                            ignored: true,
                        },
                        var: None,
                    });
                    return out;
                }
                Ok(None) => {
                    if !self.is_builtin_plugin_option(&e.name) {
                        out.push(self.unknown(e, t));
                    }
                    return out;
                }
                Err(candidates) => {
                    let fatal = self.prefix_is_fatal(&candidates);
                    out.push(Judgement {
                        effect: if fatal { Effect::Refuses } else { Effect::Warns },
                        message: format!(
                            "{} is a prefix of several options ({}): the server reports it as ambiguous{}",
                            e.raw_name,
                            if candidates.len() > 4 {
                                format!(
                                    "{} and {} more",
                                    candidates[..3].join(", "),
                                    candidates.len() - 3
                                )
                            } else {
                                candidates.join(", ")
                            },
                            if fatal {
                                " and will not start"
                            } else {
                                " and disables the plugin those options belong to"
                            }
                        ),
                        reason: Reason::AmbiguousPrefix { candidates },
                        var: None,
                    });
                    return out;
                }
            },
        };
        if prefix.is_none() && facts.is_some_and(|f| f.not_option.contains(&info.name)) {
            let (effect, what) = if e.loose {
                (
                    Effect::Warns,
                    "loose- makes the server skip it with a warning",
                )
            } else {
                (Effect::Refuses, "the server will not start")
            };
            out.push(Judgement {
                effect,
                message: format!(
                    "{} is a system variable but not a server option: an option file cannot set it \
                     ({}); {what}",
                    e.raw_name,
                    if info.dynamic {
                        "use SET GLOBAL or SET SESSION"
                    } else {
                        "it is read-only or computed by the server"
                    }
                ),
                reason: Reason::Unknown {
                    suggestions: Vec::new(),
                },
                var: Some(info),
            });
            return out;
        }
        if let Some(silent) = prefix {
            out.push(Judgement {
                effect: if silent {
                    Effect::Applies
                } else {
                    Effect::Warns
                },
                message: format!(
                    "{} is taken as {} (a unique prefix{}); write the full name, a new option \
                     with the same prefix would make it ambiguous",
                    e.raw_name,
                    info.name,
                    if silent {
                        ""
                    } else {
                        ", which the server notes at start-up"
                    }
                ),
                reason: Reason::Prefix {
                    full: info.name.clone(),
                    silent,
                },
                var: Some(info),
            });
        }
        if let Some(plugin) = info.plugin.as_deref()
            && !ctx.plugins.contains(plugin)
        {
            let effect = if e.loose {
                Effect::Warns
            } else {
                Effect::Refuses
            };
            out.push(Judgement {
                effect,
                message: format!(
                    "{} is an option of the {plugin} plugin, which these files do not load \
                     (plugin-load-add = ...); {}",
                    info.name,
                    if e.loose {
                        "loose- makes the server skip it with a warning"
                    } else {
                        "the server will not start"
                    }
                ),
                reason: Reason::PluginNotLoaded {
                    plugin: plugin.to_string(),
                },
                var: Some(info),
            });
            return out;
        }
        if info.release_builds_lack() {
            // Debug builds only: what everyone runs does not know it.
            let (effect, what) = if e.loose {
                (
                    Effect::Warns,
                    "loose- makes a release build skip it with a warning",
                )
            } else {
                (
                    Effect::Refuses,
                    "a release build does not know it and will not start",
                )
            };
            out.push(Judgement {
                effect,
                message: format!("{} exists only in debug builds: {what}", info.name),
                reason: Reason::BuildDependent {
                    condition: "debugging".to_string(),
                },
                var: Some(info),
            });
            return out;
        }
        if let Some(condition) = info.build_condition()
            && !e.loose
        {
            out.push(Judgement {
                effect: Effect::Warns,
                message: format!(
                    "{} exists only in builds with {condition}; a build without it does not know the \
                     option and will not start (write loose-{} where the file may meet such a build)",
                    info.name, info.name
                ),
                reason: Reason::BuildDependent {
                    condition: condition.to_string(),
                },
                var: Some(info),
            });
        }
        let mut status = self.status_of(info, t);
        if !status.is_removed() && self.ignored_message(&info.name).is_some() {
            // The catalog still lists it, but the server says it does nothing.
            status = VarStatus::Removed {
                since: None,
                replacement: status.replacement().map(str::to_string),
            };
        }
        match &status {
            VarStatus::Introduced { since } => {
                let (effect, what) = if e.loose {
                    (
                        Effect::Warns,
                        "loose- makes the server skip it with a warning",
                    )
                } else {
                    (Effect::Refuses, "the server will not start")
                };
                let came = since.map_or_else(
                    || "a later release".to_string(),
                    |v| format!("{} {}.{}", flavor_name(t.flavor), v.major, v.minor),
                );
                out.push(Judgement {
                    effect,
                    message: format!(
                        "{} is not an option of {}: it came with {came}; {what}",
                        info.name,
                        release_name(t)
                    ),
                    reason: Reason::Introduced { since: *since },
                    var: Some(info),
                });
                return out;
            }
            VarStatus::Removed { since, replacement } => {
                let ignored = self.ignored_message(&info.name).is_some();
                let when = since_text(t.flavor, *since);
                // A documented successor that is no rename (two lines, other
                // values) comes from the legacy table.
                let instead = replacement
                    .as_deref()
                    .map(|r| format!("; use {r} instead"))
                    .or_else(|| {
                        super::legacy::lookup(&info.name)
                            .map(|l| format!("; write {} instead", l.instead))
                    })
                    .unwrap_or_default();
                let (effect, what) = if ignored {
                    (
                        Effect::Warns,
                        "the server accepts it, warns and ignores it: remove it",
                    )
                } else if e.loose {
                    (
                        Effect::Warns,
                        "loose- makes the server skip it with a warning",
                    )
                } else {
                    (Effect::Refuses, "the server will not start with it")
                };
                out.push(Judgement {
                    effect,
                    message: format!("{} was removed{when}: {what}{instead}", info.name),
                    reason: Reason::Removed {
                        since: *since,
                        replacement: replacement.clone(),
                        ignored,
                    },
                    var: Some(info),
                });
                return out;
            }
            VarStatus::Deprecated { .. }
                if facts.is_some_and(|f| f.silent_deprecated.contains(&info.name)) => {}
            VarStatus::Deprecated { since, replacement } => {
                let instead = replacement
                    .as_deref()
                    .map(|r| format!("; use {r} instead"))
                    .unwrap_or_default();
                out.push(Judgement {
                    effect: Effect::Warns,
                    message: format!(
                        "{} is deprecated{}{instead}",
                        info.name,
                        since_text(t.flavor, *since).replacen(" in ", " since ", 1)
                    ),
                    reason: Reason::Deprecated {
                        since: *since,
                        replacement: replacement.clone(),
                    },
                    var: Some(info),
                });
            }
            VarStatus::Current => {
                // The server warns when the option is set, not when it is
                // turned off.
                let turned_off = matches!(e.modifier, Modifier::Skip | Modifier::Disable)
                    || e.value.as_deref().is_some_and(|v| {
                        v.eq_ignore_ascii_case("off") || v == "0" || v.eq_ignore_ascii_case("false")
                    });
                // secure_auth warns in every form (`secure_auth=0`,
                // `--skip-secure-auth`): checked against the server, which
                // the probe's question (set it ON) cannot tell apart.
                let any_form = info.name == "secure_auth";
                if (!turned_off || any_form)
                    && facts.is_some_and(|f| f.warns_deprecated.contains(&info.name))
                {
                    out.push(Judgement {
                        effect: Effect::Warns,
                        message: format!(
                            "{} is deprecated: the server warns that it will be removed in a future release",
                            info.name
                        ),
                        reason: Reason::Deprecated {
                            since: None,
                            replacement: None,
                        },
                        var: Some(info),
                    });
                }
            }
        }
        if let Some(j) = self.judge_value(e, info, ctx) {
            out.push(j);
        }
        out
    }

    /// The status as of the target's release.
    pub(in crate::catalog) fn status_of(&self, info: &VarInfo, t: Target) -> VarStatus {
        info.status_at(t.version)
    }

    pub(in crate::catalog) fn unknown(&self, e: &OptionEntry, t: Target) -> Judgement<'_> {
        // A documented successor says more than a guess by spelling.
        let (suggestions, hint) = match super::legacy::lookup(&e.name) {
            Some(l) if self.get(&e.name).is_none() => (
                Vec::new(),
                format!(
                    " (removed in {}; write {} instead)",
                    l.removed_in, l.instead
                ),
            ),
            _ => {
                let s = self.suggest_cached(&e.name);
                let hint = did_you_mean(&s);
                (s, hint)
            }
        };
        if let Some(msg) = self.ignored_message(&e.name) {
            return Judgement {
                effect: Effect::Warns,
                message: format!(
                    "{} is not a {} option: the server accepts it, warns (\"{msg}\") and ignores it; \
                     remove it",
                    e.raw_name,
                    flavor_name(t.flavor)
                ),
                reason: Reason::Removed {
                    since: None,
                    replacement: None,
                    ignored: true,
                },
                var: None,
            };
        }
        let (effect, what) = if e.loose {
            (
                Effect::Warns,
                "loose- makes the server skip it with a warning",
            )
        } else {
            (Effect::Refuses, "the server will not start")
        };
        // Another product's option (a file written for Percona Server,
        // MariaDB or a Galera cluster): say whose, not "unknown".
        if let Some((product, plugin)) = other_product(&e.name, t) {
            let plugin = plugin
                .map(|p| format!(", with its {p} plugin loaded"))
                .unwrap_or_default();
            return Judgement {
                effect,
                message: format!(
                    "{} is an option of {product}{plugin}, not of {}; {what}",
                    e.raw_name,
                    release_name(t)
                ),
                reason: Reason::Unknown {
                    suggestions: Vec::new(),
                },
                var: None,
            };
        }
        Judgement {
            effect,
            message: format!(
                "unknown option {} for {}{hint}; {what}",
                e.raw_name,
                release_name(t)
            ),
            reason: Reason::Unknown { suggestions },
            var: None,
        }
    }

    /// MariaDB takes a unique prefix of an option name. `Ok(Some((name,
    /// var, silent)))`: resolved (silently in the first pass; `var` is
    /// `None` for a no-op option the catalog does not list); `Ok(None)`: no
    /// option starts so; `Err(names)`: ambiguous.
    ///
    /// The server reads options in sets: a first pass (max_connections and
    /// the performance schema's), its own options, then each plugin's
    /// (InnoDB, Aria, the feedback plugin; every INFORMATION_SCHEMA plugin
    /// has a set of one, its enable option). A prefix is looked up set by
    /// set, and is ambiguous only within one.
    #[allow(clippy::type_complexity)]
    pub(in crate::catalog) fn resolve_prefix(
        &self,
        e: &OptionEntry,
    ) -> Result<Option<(String, Option<&VarInfo>, bool)>, Vec<String>> {
        if self.target().dialect() != Dialect::Mariadb || e.modifier == Modifier::Maximum {
            return Ok(None);
        }
        let facts = server_facts(self.target());
        let whole = canonical_name(
            e.raw_name
                .trim_start_matches("loose-")
                .trim_start_matches("loose_"),
        );
        // Every option name the server has: the catalog's (not the system
        // variables without an option) and the no-ops it keeps.
        let mut names: Vec<(String, Option<&VarInfo>)> = self
            .iter()
            .filter(|v| !facts.is_some_and(|f| f.not_option.contains(&v.name)))
            .filter(|v| v.status.exists() || self.ignored_message(&v.name).is_some())
            // Options of debug builds are no candidates for a release server.
            .filter(|v| !v.release_builds_lack())
            // `skip_log_bin` is `skip-` + `log-bin` to the server, not an
            // option of its own: `skip_log` is ambiguous among the `log`
            // options, not a prefix of it.
            .filter(|v| !self.is_modifier_form(v))
            // A plugin library's options exist only once it is loaded, and
            // are then read after the server's own: not prefix candidates.
            .filter(|v| v.plugin.is_none())
            .map(|v| (v.name.clone(), Some(v)))
            .collect();
        if let Some(f) = facts {
            for n in f.ignored.keys() {
                if self.get(n).is_none() {
                    names.push((n.clone(), None));
                }
            }
        }
        let whole_is_a_prefix = names
            .iter()
            .any(|(n, _)| n.starts_with(&whole) && *n != whole);
        let p = if whole_is_a_prefix {
            whole.clone()
        } else {
            e.name.clone()
        };
        let mut matching: Vec<&(String, Option<&VarInfo>)> =
            names.iter().filter(|(n, _)| n.starts_with(&p)).collect();
        // The server looks a name up set by set, and within a set tries the
        // name as written, then without its `skip-`/`enable-`/`disable-`
        // prefix: `skip_b` is ambiguous among the server's own `b…` options
        // before the no-op `skip-bdb`, read in a later set, is reached.
        let stripped: Vec<&(String, Option<&VarInfo>)> = if whole_is_a_prefix && e.name != whole {
            names
                .iter()
                .filter(|(n, _)| n.starts_with(&e.name))
                .collect()
        } else {
            Vec::new()
        };
        // `plugin-NAME` takes a prefix too, among the options that answer
        // to the plugin- form (`enable-plugin-innodb-sys-tables` is
        // plugin-innodb-sys-tablestats: 10.11 has no INNODB_SYS_TABLES).
        if matching.is_empty()
            && let Some(rest) = p.strip_prefix("plugin_")
        {
            matching = names
                .iter()
                .filter(|(n, v)| {
                    n.starts_with(rest) && v.is_some_and(|v| self.takes_plugin_form(v))
                })
                .collect();
        }
        if matching.is_empty() {
            return Ok(None);
        }
        let early: Vec<_> = matching
            .iter()
            .filter(|(n, _)| facts.is_some_and(|f| f.early.contains(n)) || is_early(n))
            .collect();
        if early.len() == 1 {
            return Ok(Some((early[0].0.clone(), early[0].1, true)));
        }
        let set_of = |(n, v): &(String, Option<&VarInfo>)| -> String {
            // The no-ops a plugin (or the server) keeps are looked up after
            // its real options (`innodb_buffer_pool_i` is
            // innodb_buffer_pool_in_core_dump, not the removed
            // innodb_buffer_pool_instances).
            if v.is_none_or(|v| v.status.is_removed()) || self.ignored_message(n).is_some() {
                return format!("~{}", mariadb_plugin(n).unwrap_or(""));
            }
            // A plugin's enable option (`innodb`, `feedback`) is in that
            // plugin's set: `--inno` is ambiguous between `innodb` and
            // `innodb-encrypt-temporary-tables`, the server says.
            if MARIADB_PLUGIN_PREFIXES.contains(&n.as_str()) {
                return n.clone();
            }
            match mariadb_plugin(n) {
                Some(plugin) if v.is_some_and(|v| v.kind == VarKind::String && !v.sysvar) => {
                    format!("{plugin}:{n}")
                }
                Some(plugin) => plugin.to_string(),
                // Any other plugin's enable option (an INFORMATION_SCHEMA
                // table such as `thread_pool_stats`): a set of one, read
                // after the server's own (`thread_pool_sta` is
                // `thread_pool_stall_limit`).
                None if v.is_some_and(is_enable_option) => format!(":{n}"),
                None => String::new(),
            }
        };
        let pick = |set: &str| match pick_in_set(&matching, set, &set_of)? {
            Some(hit) => Ok(Some(hit)),
            None => pick_in_set(&stripped, set, &set_of),
        };
        // The server's own options, then a plugin's main set, then the
        // plugins of one option each.
        let mut sets: Vec<String> = matching
            .iter()
            .chain(&stripped)
            .map(|c| set_of(c))
            .collect();
        sets.sort_by_key(|s| {
            (
                s.starts_with('~'),
                !s.is_empty(),
                s.contains(':'),
                s.clone(),
            )
        });
        sets.dedup();
        for set in sets {
            if let Some(hit) = pick(&set)? {
                return Ok(Some(hit));
            }
        }
        Ok(None)
    }

    pub(in crate::catalog) fn prefix_is_fatal(&self, candidates: &[String]) -> bool {
        let of =
            |c: &String, p: &str| c == p || (c.starts_with(p) && c[p.len()..].starts_with('_'));
        candidates
            .iter()
            .all(|c| FATAL_PLUGINS.iter().any(|p| of(c, p)))
            || !candidates
                .iter()
                .any(|c| MARIADB_PLUGIN_PREFIXES.iter().any(|p| of(c, p)))
    }

    /// The warning the server prints for a name it keeps as a no-op.
    pub fn ignored_message(&self, name: &str) -> Option<&'static str> {
        server_facts(self.target())?
            .ignored
            .get(name)
            .map(String::as_str)
    }

    /// `maximum-NAME` is accepted (MariaDB: the options the server said
    /// so of, of any kind with a session value; MySQL: not recorded,
    /// assumed for numbers).
    pub(super) fn takes_maximum(&self, info: &VarInfo) -> bool {
        match server_facts(self.target()) {
            Some(f) => f.maximum.contains(&info.name),
            None => matches!(info.kind, VarKind::Integer { .. } | VarKind::Size { .. }),
        }
    }

    /// `autoset-NAME` is accepted: MariaDB sizes the option itself.
    pub(super) fn takes_autoset(&self, info: &VarInfo) -> bool {
        server_facts(self.target()).is_some_and(|f| f.autoset.contains(&info.name))
    }

    /// `plugin-NAME` is accepted: an option of a MariaDB plugin's own list.
    pub(super) fn takes_plugin_form(&self, info: &VarInfo) -> bool {
        server_facts(self.target()).is_some_and(|f| f.plugin_form.contains(&info.name))
            || (self.target().dialect() == Dialect::Mariadb && info.plugin.is_some())
    }

    /// MariaDB reads `NAME.VAR` as VAR of the key cache or the
    /// multi-source replication connection NAME (`hot.key_buffer_size`,
    /// `m1.slave-parallel-mode`), and as plain VAR for any other option
    /// (`m1.max-connections=5` sets max_connections, with its checks): the
    /// line is judged as VAR. A VAR that is no option is an error even with
    /// `loose-` (so MySQL's component options such as
    /// `loose-validate_password.length` stop a MariaDB start).
    pub(in crate::catalog) fn dotted_name(
        &self,
        e: &OptionEntry,
        ctx: &LineContext,
    ) -> Vec<Judgement<'_>> {
        if self.target().dialect() != Dialect::Mariadb {
            return Vec::new();
        }
        let Some((_, var)) = e.name.split_once('.') else {
            return Vec::new();
        };
        let raw_var = e.raw_name.rsplit_once('.').map_or(var, |(_, v)| v);
        let (name, modifier, loose) = crate::cnf::split_name(raw_var);
        let sub = OptionEntry {
            name,
            raw_name: raw_var.to_string(),
            modifier,
            loose: e.loose || loose,
            ..e.clone()
        };
        if self.resolve_option(&written_name(&sub)).is_some() {
            return self.judge_line(&sub, ctx);
        }
        vec![Judgement {
            effect: Effect::Refuses,
            message: format!(
                "{}: MariaDB reads NAME.VARIABLE as VARIABLE (of the key cache or replication \
                 connection NAME), and {var} is no option; even with loose- the server will not start",
                e.raw_name
            ),
            reason: Reason::Unknown {
                suggestions: Vec::new(),
            },
            var: None,
        }]
    }
}

/// The one candidate of `set` (`Ok(None)`: none; `Err`: several, the server
/// calls the name ambiguous).
#[allow(clippy::type_complexity)]
fn pick_in_set<'v>(
    candidates: &[&(String, Option<&'v VarInfo>)],
    set: &str,
    set_of: &dyn Fn(&(String, Option<&'v VarInfo>)) -> String,
) -> Result<Option<(String, Option<&'v VarInfo>, bool)>, Vec<String>> {
    let in_set: Vec<_> = candidates.iter().filter(|c| set_of(c) == set).collect();
    match in_set.len() {
        0 => Ok(None),
        1 => Ok(Some((in_set[0].0.clone(), in_set[0].1, false))),
        _ => Err(in_set.iter().map(|c| c.0.clone()).collect()),
    }
}
