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

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, OnceLock};

use super::{ArgKind, Catalog, VarInfo, VarKind, VarStatus};
use crate::cnf::{Modifier, OptionEntry, canonical_name};
use crate::target::{Flavor, Target, Version};
use crate::units;

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

/// Plugins whose options failing to parse stops the start: the plugin is
/// disabled, and the server cannot run without it.
const FATAL_PLUGINS: &[&str] = &["innodb", "aria"];

/// Option-name prefixes that belong to a plugin's own option list (parsed
/// after the server's), MariaDB.
const MARIADB_PLUGIN_PREFIXES: &[&str] = &["innodb", "aria", "feedback"];

/// The MariaDB plugin whose option list holds `name`, if not the server's.
fn mariadb_plugin(name: &str) -> Option<&'static str> {
    MARIADB_PLUGIN_PREFIXES
        .iter()
        .find(|p| name.starts_with(*p) && name[p.len()..].starts_with('_'))
        .copied()
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
        if t.flavor == Flavor::Mariadb && e.name.contains('.') {
            // A named key cache's or connection's variable, or an error.
            out.extend(self.dotted_name(e, ctx));
            return out;
        }
        // A system variable without an option of its name is, to the
        // option parser, possibly a prefix of another option
        // (`profiling` → `profiling_history_size`).
        let exact = self.resolve_option(&written).filter(|(v, _)| {
            !facts.is_some_and(|f| f.not_option.contains(&v.name))
                || !matches!(self.resolve_prefix(e), Ok(Some(_)))
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
            None => match self.resolve_prefix(e) {
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
    fn status_of(&self, info: &VarInfo, t: Target) -> VarStatus {
        info.status_at(t.version)
    }

    fn unknown(&self, e: &OptionEntry, t: Target) -> Judgement<'_> {
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
    fn resolve_prefix(
        &self,
        e: &OptionEntry,
    ) -> Result<Option<(String, Option<&VarInfo>, bool)>, Vec<String>> {
        if self.target().flavor != Flavor::Mariadb || e.modifier == Modifier::Maximum {
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
        let p = if names
            .iter()
            .any(|(n, _)| n.starts_with(&whole) && *n != whole)
        {
            whole
        } else {
            e.name.clone()
        };
        let matching: Vec<&(String, Option<&VarInfo>)> =
            names.iter().filter(|(n, _)| n.starts_with(&p)).collect();
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
        let pick = |set: &str| -> Result<Option<(String, Option<&VarInfo>, bool)>, Vec<String>> {
            let in_set: Vec<_> = matching.iter().filter(|c| set_of(c) == set).collect();
            match in_set.len() {
                0 => Ok(None),
                1 => Ok(Some((in_set[0].0.clone(), in_set[0].1, false))),
                _ => Err(in_set.iter().map(|c| c.0.clone()).collect()),
            }
        };
        // The server's own options, then a plugin's main set, then the
        // plugins of one option each.
        let mut sets: Vec<String> = matching.iter().map(|c| set_of(c)).collect();
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

    fn prefix_is_fatal(&self, candidates: &[String]) -> bool {
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
            || (self.target().flavor == Flavor::Mariadb && info.plugin.is_some())
    }

    fn judge_value<'c>(
        &'c self,
        e: &OptionEntry,
        info: &'c VarInfo,
        ctx: &LineContext,
    ) -> Option<Judgement<'c>> {
        let plugin_fatal = self.target().flavor == Flavor::Mariadb
            && FATAL_PLUGINS
                .iter()
                .any(|p| info.name.starts_with(p) && info.name[p.len()..].starts_with('_'));
        let bad = |why: String| self.plugin_value_error(info, why, plugin_fatal);
        let facts = server_facts(self.target());
        // A debug build's option: a release server takes any text for it
        // (`debug_exit_info=abc` starts; it only prints resource usage at
        // exit).
        if self.target().flavor == Flavor::Mariadb && info.name == "debug_exit_info" {
            return None;
        }
        // `skip-host-cache` names the option skip_host_cache itself: no
        // prefix is in play then.
        // The server still reads `skip_symbolic_links` as skip- and
        // `symbolic_links` when that is an option. With skip-, disable- or
        // enable- it ignores any value written.
        let whole = canonical_name(e.raw_name.trim_start_matches("loose-"));
        let modifier = if info.name == whole {
            [
                ("skip_", Modifier::Skip),
                ("disable_", Modifier::Disable),
                ("enable_", Modifier::Enable),
            ]
            .iter()
            .find(|(p, _)| {
                whole
                    .strip_prefix(p)
                    .and_then(|rest| self.get(rest))
                    .is_some_and(|v| v.kind == VarKind::Bool || self.is_modifier_form(info))
            })
            .map_or(Modifier::None, |(_, m)| *m)
        } else {
            e.modifier
        };
        let no_arg = match facts {
            Some(f) => f.no_arg.contains(&info.name),
            None => info.arg == ArgKind::NoArg,
        };
        if no_arg
            && (e.value.is_some() || modifier != Modifier::None && modifier != Modifier::Loose)
        {
            return Some(Judgement {
                effect: Effect::Refuses,
                message: format!(
                    "{} takes no value (write the bare name); the server will not start",
                    info.name
                ),
                reason: Reason::BadValue,
                var: Some(info),
            });
        }
        let adjusted = |why: String, runs_with: Option<String>| Judgement {
            effect: Effect::Warns,
            message: why,
            reason: Reason::Adjusted { runs_with },
            var: Some(info),
        };
        // The value the prefix implies.
        let value: String = match (modifier, e.value.as_deref()) {
            (Modifier::Maximum, v) => {
                if !self.takes_maximum(info) {
                    return Some(bad(format!(
                        "maximum-{} cannot be set: it has no session value to limit",
                        info.name
                    )));
                }
                v.unwrap_or("").to_string()
            }
            (Modifier::Skip | Modifier::Disable, _) => "0".into(),
            (Modifier::Enable, _) => "1".into(),
            (_, Some(v)) => v.to_string(),
            (_, None) => {
                // MariaDB: what the server answered; MySQL and Percona: the
                // help output's `=#` / `[=#]`, else the kind.
                let required = match facts {
                    Some(f) => f.arg_required.contains(&info.name),
                    None => match info.arg {
                        ArgKind::Required => true,
                        ArgKind::Optional | ArgKind::NoArg => false,
                        ArgKind::Unknown => {
                            !matches!(info.kind, VarKind::Bool | VarKind::String | VarKind::Path)
                        }
                    },
                };
                if required {
                    return Some(bad(format!(
                        "{} needs a value ({}); a bare name is refused",
                        info.name,
                        info.kind.name()
                    )));
                }
                match info.kind {
                    // An optional argument: a bare number is 1, a bare
                    // boolean ON (judged as ON below), a bare enum its
                    // first value.
                    VarKind::Integer { .. }
                    | VarKind::Size { .. }
                    | VarKind::Float { .. }
                    | VarKind::Bool => "1".into(),
                    _ => return None,
                }
            }
        };
        let v = value.trim();
        // Encryption turned on (a boolean ON, an enum's ON or FORCE) without
        // a key management plugin.
        let turns_on = match &info.kind {
            VarKind::Bool => ["on", "true", "1"]
                .iter()
                .any(|a| a.eq_ignore_ascii_case(v)),
            VarKind::Enum { values } => {
                enum_index(values, v).is_some_and(|i| !values[i].eq_ignore_ascii_case("off"))
            }
            _ => false,
        };
        if self.target().flavor == Flavor::Mariadb
            && MARIADB_NEEDS_KEY_MANAGEMENT.contains(&info.name.as_str())
            && turns_on
            && !MARIADB_KEY_MANAGEMENT_PLUGINS
                .iter()
                .any(|p| ctx.plugins.contains(*p))
        {
            let innodb = if info.name.starts_with("innodb_") {
                " (InnoDB: \"cannot enable encryption, encryption plugin is not available\"; InnoDB \
                 does not start, and it is the default storage engine)"
            } else {
                ""
            };
            return Some(Judgement {
                effect: Effect::Refuses,
                message: format!(
                    "{} = {value} needs a key management plugin (plugin-load-add = \
                     file_key_management, with its key file), which these files do not load{innodb}; \
                     the server will not start",
                    info.name
                ),
                reason: Reason::BadValue,
                var: Some(info),
            });
        }
        match &info.kind {
            VarKind::Bool => {
                const OK: [&str; 6] = ["on", "off", "true", "false", "1", "0"];
                const ON: [&str; 3] = ["on", "true", "1"];
                if self.target().flavor == Flavor::Mariadb
                    && ON.iter().any(|a| a.eq_ignore_ascii_case(v))
                    && let Some((_, why)) = MARIADB_ON_STOPS.iter().find(|(n, _)| *n == info.name)
                {
                    return Some(Judgement {
                        effect: Effect::Refuses,
                        message: format!("{} = {value} {why}", info.name),
                        reason: Reason::BadValue,
                        var: Some(info),
                    });
                }
                if OK.iter().any(|a| a.eq_ignore_ascii_case(v)) {
                    None
                } else {
                    Some(adjusted(
                        format!(
                            "{} = {value}: '{v}' is not a boolean (ON, OFF, TRUE, FALSE, 1, 0): \
                             the server warns and {}",
                            info.name,
                            if plugin_fatal {
                                "ignores the line"
                            } else {
                                "sets it OFF"
                            }
                        ),
                        Some("OFF".into()),
                    ))
                }
            }
            VarKind::Integer { min, max } => {
                let unsigned = min.is_none_or(|m| m >= 0)
                    && !server_facts(self.target()).is_some_and(|f| f.signed.contains(&info.name));
                let n = match parse_number(v, unsigned) {
                    Ok(n) => n,
                    Err(why) => return Some(bad(format!("{} = {value}: {why}", info.name))),
                };
                let (min, max) = &self.bounds(info, *min, *max);
                if self.zero_is_silent(info, n, *min) {
                    return None;
                }
                if let Some(j) = self.judge_innodb_size(info, n, *min, &value, ctx) {
                    return Some(j);
                }
                if self.target().flavor == Flavor::Mariadb
                    && info.name == "lower_case_table_names"
                    && n == 2
                {
                    return Some(adjusted(
                        "lower_case_table_names = 2 is for case-insensitive file systems: on a \
                         case-sensitive one (Linux's) the server warns and runs with 0"
                            .into(),
                        None,
                    ));
                }
                range(info, n, *min, *max, None).map(|(why, to)| adjusted(why, Some(to)))
            }
            VarKind::Size { min, max, block } => {
                let n = match parse_number(v, true) {
                    Ok(n) => n,
                    Err(why) => return Some(bad(format!("{} = {value}: {why}", info.name))),
                };
                let (lo, hi) = self.bounds(info, min.map(i128::from), max.map(i128::from));
                if self.zero_is_silent(info, n, lo) {
                    return None;
                }
                if let Some(j) = self.judge_innodb_size(info, n, lo, &value, ctx) {
                    return Some(j);
                }
                range(info, n, lo, hi, block.filter(|b| *b > 1).map(i128::from))
                    .map(|(why, to)| adjusted(why, Some(to)))
            }
            VarKind::Float { min, max } => {
                let f: f64 = match v.parse::<f64>().ok().filter(|f| f.is_finite()) {
                    Some(f) => f,
                    None if v.is_empty() => 0.0,
                    None => {
                        return Some(bad(format!(
                            "{} = {value}: '{v}' is not a decimal number",
                            info.name
                        )));
                    }
                };
                let clamp = min
                    .filter(|lo| f < *lo)
                    .map(|lo| ("below the minimum", lo))
                    .or_else(|| max.filter(|hi| f > *hi).map(|hi| ("above the maximum", hi)));
                clamp.map(|(what, to)| {
                    adjusted(
                        format!(
                            "{} = {value} is {what} {to}: the server warns and runs with {to}",
                            info.name
                        ),
                        Some(to.to_string()),
                    )
                })
            }
            VarKind::Enum { values } => {
                if let Some(i) = enum_index(values, v) {
                    return self.needs_provider(info, &values[i], ctx);
                }
                let mut why = format!(
                    "{} = {value}: '{v}' is not one of {}",
                    info.name,
                    values.join(", ")
                );
                if let Some(note) = &info.note {
                    why.push_str(&format!(" ({note})"));
                }
                Some(self.plugin_value_error(info, why, plugin_fatal))
            }
            VarKind::Set { values } => {
                let bad_items: Vec<&str> = v
                    .split(',')
                    .map(str::trim)
                    .filter(|item| !item.is_empty())
                    .filter(|item| !set_item_ok(info, values, item))
                    .collect();
                let items: Vec<&str> = v.split(',').map(str::trim).collect();
                if bad_items.is_empty() && info.name == "log_slow_filter" && v.is_empty() {
                    return Some(adjusted(
                        "log_slow_filter is empty: the server warns and logs every kind (ALL)"
                            .into(),
                        Some("ALL".into()),
                    ));
                }
                if bad_items.is_empty()
                    && info.name == "log_output"
                    && items.len() > 1
                    && items.iter().any(|i| i.eq_ignore_ascii_case("none"))
                {
                    return Some(adjusted(
                        format!(
                            "log_output = {value}: NONE wins over the other values, so the server \
                             warns and writes neither the general nor the slow log"
                        ),
                        Some("NONE".into()),
                    ));
                }
                if bad_items.is_empty()
                    && self.target().flavor == Flavor::Mariadb
                    && info.name == "tls_version"
                    && items.iter().any(|i| {
                        i.eq_ignore_ascii_case("tlsv1.0") || i.eq_ignore_ascii_case("tlsv1.1")
                    })
                {
                    return Some(adjusted(
                        format!(
                            "tls_version = {value}: TLSv1.0 and TLSv1.1 are insecure, and the server warns \
                             about them; use TLSv1.2,TLSv1.3"
                        ),
                        None,
                    ));
                }
                if bad_items.is_empty() {
                    None
                } else {
                    let why = format!(
                        "{} = {value}: '{}' {} not allowed; accepted (comma-separated): {}",
                        info.name,
                        bad_items.join(","),
                        if bad_items.len() == 1 { "is" } else { "are" },
                        values.join(", ")
                    );
                    Some(self.plugin_value_error(info, why, plugin_fatal))
                }
            }
            VarKind::String | VarKind::Path if info.name == "default_time_zone" => {
                self.judge_time_zone(info, v)
            }
            VarKind::String => {
                if let Some(j) = self.judge_string_syntax(info, v, &value, plugin_fatal) {
                    return Some(j);
                }
                self.judge_name_value(info, v, &value)
            }
            VarKind::Path => self.judge_name_value(info, v, &value),
        }
    }

    /// MariaDB reads `NAME.VAR` as VAR of the key cache or the
    /// multi-source replication connection NAME (`hot.key_buffer_size`,
    /// `m1.slave-parallel-mode`), and as plain VAR for any other option
    /// (`m1.max-connections=5` sets max_connections, with its checks): the
    /// line is judged as VAR. A VAR that is no option is an error even with
    /// `loose-` (so MySQL's component options such as
    /// `loose-validate_password.length` stop a MariaDB start).
    fn dotted_name(&self, e: &OptionEntry, ctx: &LineContext) -> Vec<Judgement<'_>> {
        if self.target().flavor != Flavor::Mariadb {
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

    /// MariaDB ≥ 10.7 compresses InnoDB pages with lz4, lzo, lzma, bzip2
    /// or snappy only through a provider plugin (`provider_lz4`, …); without
    /// it InnoDB fails to start ("compression algorithm … is not
    /// available. Please, load the corresponding provider plugin").
    fn needs_provider<'c>(
        &'c self,
        info: &'c VarInfo,
        value: &str,
        ctx: &LineContext,
    ) -> Option<Judgement<'c>> {
        if self.target().flavor != Flavor::Mariadb
            || info.name != "innodb_compression_algorithm"
            || self.target().version < Version::new(10, 7, 0)
        {
            return None;
        }
        let v = value.to_ascii_lowercase();
        if v == "none" || v == "zlib" || ctx.plugins.contains(&format!("provider_{v}")) {
            return None;
        }
        Some(Judgement {
            effect: Effect::Refuses,
            message: format!(
                "innodb_compression_algorithm = {value} needs the provider_{v} plugin \
                 (plugin-load-add = provider_{v}), or InnoDB does not start; the server will not start"
            ),
            reason: Reason::BadValue,
            var: Some(info),
        })
    }

    /// `default_time_zone`: SYSTEM or an offset the server can read, else a
    /// named zone, which needs the time zone tables (mysql_tzinfo_to_sql):
    /// without them the server stops ("Illegal or unknown default time
    /// zone"). Whether they are loaded is a fact of the datadir, so a named
    /// zone is a warning.
    fn judge_time_zone<'c>(&'c self, info: &'c VarInfo, v: &str) -> Option<Judgement<'c>> {
        if v.eq_ignore_ascii_case("system") {
            return None;
        }
        if let Some(rest) = v.strip_prefix(['+', '-']) {
            let ok = rest.split_once(':').is_some_and(|(h, m)| {
                h.len() <= 2
                    && m.len() == 2
                    && h.parse::<u32>().is_ok_and(|h| h <= 14)
                    && m.parse::<u32>().is_ok_and(|m| m < 60)
            });
            return (!ok).then(|| Judgement {
                effect: Effect::Refuses,
                message: format!(
                    "default_time_zone = {v} is not an offset the server reads (+HH:MM, -12:59 to \
                     +14:00); the server will not start"
                ),
                reason: Reason::BadValue,
                var: Some(info),
            });
        }
        Some(Judgement {
            effect: Effect::Warns,
            message: format!(
                "default_time_zone = {v} is a named zone: it works only when the time zone tables \
                 are loaded (mysql_tzinfo_to_sql); on a server without them it will not start"
            ),
            reason: Reason::Adjusted { runs_with: None },
            var: Some(info),
        })
    }

    /// Character-set and collation names, which the server checks at
    /// start-up (MariaDB: the names the server lists).
    fn judge_name_value<'c>(
        &'c self,
        info: &'c VarInfo,
        v: &str,
        value: &str,
    ) -> Option<Judgement<'c>> {
        let facts = server_facts(self.target())?;
        let lower = v.to_ascii_lowercase();
        if info.name == "character_set_server" && !facts.charsets.is_empty() {
            return self.judge_server_charsets(info, &lower, value, facts);
        }
        let (known, what) =
            if info.name.starts_with("character_set_") && info.name != "character_set_dir" {
                (
                    facts.charsets.contains(&lower) || lower == "utf8",
                    "character set",
                )
            } else if matches!(
                info.name.as_str(),
                "default_storage_engine"
                    | "default_tmp_storage_engine"
                    | "enforce_storage_engine"
                    | "storage_engine"
            ) {
                (
                    facts.engines.is_empty() || facts.engines.contains(&lower),
                    "storage engine",
                )
            } else if matches!(info.name.as_str(), "lc_messages" | "lc_time_names") {
                (
                    facts.locales.is_empty() || facts.locales.contains(&lower),
                    "locale",
                )
            } else if info.name.starts_with("collation_") {
                (
                    facts.collations.contains_key(&lower)
                        || lower.starts_with("utf8_")
                            && facts
                                .collations
                                .contains_key(&lower.replacen("utf8_", "utf8mb3_", 1)),
                    "collation",
                )
            } else {
                return None;
            };
        if known || facts.charsets.is_empty() {
            return None;
        }
        Some(Judgement {
            effect: Effect::Refuses,
            message: format!(
                "{} = {value}: the server knows no {what} '{v}'; the server will not start",
                info.name
            ),
            reason: Reason::BadValue,
            var: Some(info),
        })
    }

    /// `character_set_server` (MariaDB) is a list: the server takes the
    /// first name it knows, printing an error for each unknown one before
    /// it, and stops only when it knows none. A character set clients cannot
    /// use (ucs2, utf16, utf16le, utf32) is the server's but not the
    /// clients' default: it warns and gives them latin1.
    fn judge_server_charsets<'c>(
        &'c self,
        info: &'c VarInfo,
        lower: &str,
        value: &str,
        facts: &ServerFacts,
    ) -> Option<Judgement<'c>> {
        let known = |c: &str| facts.charsets.contains(c) || c == "utf8";
        let names: Vec<&str> = lower.split(',').map(str::trim).collect();
        let Some(first) = names.iter().position(|c| known(c)) else {
            return Some(Judgement {
                effect: Effect::Refuses,
                message: format!(
                    "{} = {value}: the server knows no character set {}; the server will not start",
                    info.name,
                    names
                        .iter()
                        .map(|n| format!("'{n}'"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
                reason: Reason::BadValue,
                var: Some(info),
            });
        };
        let chosen = names[first];
        let adjusted = |why: String| Judgement {
            effect: Effect::Warns,
            message: why,
            reason: Reason::Adjusted {
                runs_with: Some(chosen.to_string()),
            },
            var: Some(info),
        };
        if first > 0 {
            return Some(adjusted(format!(
                "{} = {value}: the server knows no character set {}, prints an error for it and uses {chosen}, \
                 the first it knows",
                info.name,
                names[..first]
                    .iter()
                    .map(|n| format!("'{n}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        if ["ucs2", "utf16", "utf16le", "utf32"].contains(&chosen) {
            return Some(adjusted(format!(
                "{} = {value}: clients cannot use {chosen}, so the server warns and gives them latin1 as \
                 their default character set",
                info.name
            )));
        }
        None
    }

    /// What the server checks in the text of some string options when it
    /// reads them: replication filter rules, the proxy protocol networks,
    /// a plugin's enable value.
    fn judge_string_syntax<'c>(
        &'c self,
        info: &'c VarInfo,
        v: &str,
        value: &str,
        plugin_fatal: bool,
    ) -> Option<Judgement<'c>> {
        let refuse = |why: String| Judgement {
            effect: Effect::Refuses,
            message: format!("{} = {value}: {why}; the server will not start", info.name),
            reason: Reason::BadValue,
            var: Some(info),
        };
        let v = v.trim();
        match info.name.as_str() {
            // "Could not add do table rule" / "Bad syntax in
            // replicate-rewrite-db": the rule is parsed at start-up.
            "replicate_do_table" | "replicate_ignore_table" => {
                let ok = v
                    .split_once('.')
                    .is_some_and(|(db, t)| !db.is_empty() && !t.is_empty());
                (!ok).then(|| refuse("a table rule is written db_name.table_name".into()))
            }
            "replicate_wild_do_table" | "replicate_wild_ignore_table" => (!v.contains('.'))
                .then(|| refuse("a table pattern is written db_pattern.table_pattern".into())),
            "replicate_rewrite_db" => {
                let ok = v
                    .split_once("->")
                    .is_some_and(|(a, b)| !a.trim().is_empty() && !b.trim().is_empty());
                (!ok).then(|| refuse("a rewrite rule is written from_name->to_name".into()))
            }
            "performance_schema_instrument" if v.is_empty() && self.target().flavor == Flavor::Mariadb => {
                Some(Judgement {
                    effect: Effect::Warns,
                    message: "performance_schema_instrument is empty: the server warns (\"Missing value for \
                              performance_schema_instrument\") and ignores the line"
                        .into(),
                    reason: Reason::Adjusted { runs_with: None },
                    var: Some(info),
                })
            }
            "proxy_protocol_networks" if self.target().flavor == Flavor::Mariadb => {
                let bad = v.split(',').map(str::trim).find(|item| {
                    let addr = item.split_once('/').map_or(*item, |(a, _)| a);
                    !(item.is_empty()
                        || *item == "*"
                        || item.eq_ignore_ascii_case("localhost")
                        || addr.parse::<std::net::IpAddr>().is_ok()
                            && item
                                .split_once('/')
                                .is_none_or(|(_, m)| !m.is_empty() && m.bytes().all(|b| b.is_ascii_digit())))
                });
                bad.map(|item| {
                    refuse(format!(
                        "'{item}' is not a network (an address, address/prefix length, localhost or *)"
                    ))
                })
            }
            // A plugin's enable option takes ON, OFF, FORCE or
            // FORCE_PLUS_PERMANENT; anything else fails the plugin's option
            // parsing and the server disables the plugin.
            _ if self.target().flavor == Flavor::Mariadb && is_enable_option(info) => {
                let ok = ["on", "off", "force", "force_plus_permanent", "1", "0", "true", "false"]
                    .iter()
                    .any(|a| a.eq_ignore_ascii_case(v));
                let fatal = plugin_fatal || FATAL_PLUGINS.contains(&info.name.as_str());
                (!ok).then(|| {
                    self.plugin_value_error(
                        info,
                        format!(
                            "{} = {value}: '{v}' is not ON, OFF, FORCE or FORCE_PLUS_PERMANENT (the plugin's \
                             enable option)",
                            info.name
                        ),
                        fatal,
                    )
                })
            }
            _ => None,
        }
    }

    /// InnoDB's own start-up checks of sizes (MariaDB): the buffer pool's
    /// minimum for the default page size, and sizes no machine can give
    /// (the pool must be mapped, the redo log preallocated). Also
    /// `aria_block_size`, fixed when the Aria files were made.
    fn judge_innodb_size<'c>(
        &'c self,
        info: &'c VarInfo,
        n: i128,
        min: Option<i128>,
        value: &str,
        ctx: &LineContext,
    ) -> Option<Judgement<'c>> {
        if self.target().flavor != Flavor::Mariadb {
            return None;
        }
        const MIB: i128 = 1 << 20;
        const PIB: i128 = 1 << 50;
        let refuse = |why: String| Judgement {
            effect: Effect::Refuses,
            message: format!("{} = {value}: {why}; the server will not start", info.name),
            reason: Reason::BadValue,
            var: Some(info),
        };
        let runs = n.max(min.unwrap_or(0));
        match info.name.as_str() {
            "innodb_buffer_pool_size"
                if runs < 6 * MIB && ctx.innodb_page_size.is_none_or(|p| p == 16384) =>
            {
                Some(refuse(
                    "with the default innodb_page_size = 16K, InnoDB needs a buffer pool of at least 6M \
                     (\"innodb_page_size=16384 requires innodb_buffer_pool_size >= 6 MiB\")"
                        .into(),
                ))
            }
            // The pool's address space is reserved at start: more than the
            // 128 PiB a 64-bit Linux process can address cannot be mapped.
            "innodb_buffer_pool_size" | "innodb_buffer_pool_size_max" if runs > 128 * PIB => Some(refuse(
                "more than a 64-bit Linux process can address (128 PiB), so InnoDB cannot map the buffer pool"
                    .into(),
            )),
            // The redo log file is preallocated whole at start.
            "innodb_log_file_size" if runs > PIB => Some(refuse(
                "InnoDB preallocates the whole redo log at start, and no disk holds more than a petabyte in \
                 one file"
                    .into(),
            )),
            // Fixed when the datadir was made: the checked datadir is the
            // usual one, made with the defaults (Aria 8K, InnoDB 16K).
            "aria_block_size" if n != 8192 => Some(refuse(
                "the Aria block size is fixed when the datadir's Aria files are created (8K by default): on \
                 a datadir made with another size Aria does not start (\"Block size in control file … is \
                 different than given aria_block_size\"); set it only before initializing a new datadir"
                    .into(),
            )),
            "innodb_page_size" => {
                let pages = n.clamp(4096, 65536);
                if pages.count_ones() != 1 {
                    Some(refuse(format!(
                        "InnoDB takes a page size of 4K, 8K, 16K, 32K or 64K, and {} is none (\"Invalid page \
                         size\"): InnoDB does not start, and it is the default storage engine",
                        units::format_size(pages as u64)
                    )))
                } else if pages != 16384 {
                    Some(refuse(format!(
                        "the page size is fixed when the datadir is created (16K unless set then): on a datadir \
                         made with another size InnoDB does not start (\"Data file './ibdata1' uses page size \
                         16384, but the innodb_page_size start-up parameter is {pages}\"); set it only before \
                         initializing a new datadir"
                    )))
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// An enum or set value the server cannot read: a refusal, except in a
    /// MariaDB plugin that is not needed to start (the plugin is disabled).
    fn plugin_value_error<'c>(
        &'c self,
        info: &'c VarInfo,
        why: String,
        fatal: bool,
    ) -> Judgement<'c> {
        let plugin = self.target().flavor == Flavor::Mariadb
            && (is_enable_option(info)
                || info.plugin.is_some()
                || MARIADB_PLUGIN_PREFIXES
                    .iter()
                    .any(|p| info.name.starts_with(p) && info.name[p.len()..].starts_with('_')));
        if plugin && !fatal {
            Judgement {
                effect: Effect::Warns,
                message: format!("{why}; the server disables the plugin the option belongs to"),
                reason: Reason::BadValue,
                var: Some(info),
            }
        } else {
            Judgement {
                effect: Effect::Refuses,
                message: format!("{why}; the server will not start"),
                reason: Reason::BadValue,
                var: Some(info),
            }
        }
    }
}

/// The product that has an option `name` the target's flavor lacks, as
/// "Percona Server 8.0" (its series nearest the target's that has it), with
/// the plugin that provides it, if any. Nearest products first: Percona
/// Server and PXC for MySQL, MySQL and its derivatives for MariaDB.
fn other_product(name: &str, target: Target) -> Option<(String, Option<String>)> {
    let key = |v: Version| i64::from(v.major) * 1000 + i64::from(v.minor);
    let order: &[Flavor] = match target.flavor {
        Flavor::Mysql => &[Flavor::Percona, Flavor::Pxc, Flavor::Mariadb],
        Flavor::Percona => &[Flavor::Pxc, Flavor::Mysql, Flavor::Mariadb],
        Flavor::Pxc => &[Flavor::Percona, Flavor::Mysql, Flavor::Mariadb],
        Flavor::Mariadb => &[Flavor::Mysql, Flavor::Percona, Flavor::Pxc],
    };
    let canon = canonical_name(name);
    for other in order {
        let mut series: Vec<Target> = Catalog::supported()
            .into_iter()
            .filter(|t| t.flavor == *other)
            .collect();
        series.sort_by_key(|t| {
            (
                (key(t.version) - key(target.version)).abs(),
                std::cmp::Reverse(t.version),
            )
        });
        for t in series {
            let Ok(c) = Catalog::for_target(&t) else {
                continue;
            };
            if let Some(v) = c
                .get(&canon)
                .filter(|v| v.status.exists() && !v.release_builds_lack())
            {
                return Some((
                    format!(
                        "{} {}.{}",
                        flavor_name(t.flavor),
                        t.version.major,
                        t.version.minor
                    ),
                    v.plugin.clone(),
                ));
            }
        }
    }
    None
}

/// ` (did you mean a, b or c?)`, or nothing: the ranked suggestions of an
/// unknown name, for the reader to choose from.
fn did_you_mean(suggestions: &[String]) -> String {
    match suggestions {
        [] => String::new(),
        [one] => format!(" (did you mean {one}?)"),
        [init @ .., last] => format!(" (did you mean {} or {last}?)", init.join(", ")),
    }
}

impl Catalog {
    /// [`Catalog::suggest`], remembered per target and name: the same
    /// unknown option (often a plugin's `loose-` option) recurs in every
    /// file of a repository, and the search is the costliest step of a lint
    /// run.
    fn suggest_cached(&self, name: &str) -> Vec<String> {
        type Cache = Mutex<HashMap<(Target, String), Vec<String>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(Cache::default);
        let key = (self.target(), name.to_string());
        if let Some(hit) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
            return hit;
        }
        let found: Vec<String> = self
            .suggestions(name, 3)
            .into_iter()
            .map(str::to_string)
            .collect();
        if let Ok(mut c) = cache.lock() {
            c.insert(key, found.clone());
        }
        found
    }
}

/// Storage-engine plugins built into MySQL 5.7/8.x and Percona Server but
/// off or optional, each with its `--NAME[=ON|OFF|FORCE]` enable option
/// (`skip-federated`). The MySQL test-suite help output the catalogs come
/// from leaves plugin options out, so they are listed here, from the MySQL
/// Reference Manual's "Alternative Storage Engines" chapter.
const MYSQL_BUILTIN_ENGINE_PLUGINS: &[&str] = &["federated", "archive", "blackhole", "mrg_myisam"];

impl Catalog {
    /// A numeric option's bounds: the catalog's, else what the server was
    /// seen to clamp to (MariaDB's probed facts).
    fn bounds(
        &self,
        info: &VarInfo,
        min: Option<i128>,
        max: Option<i128>,
    ) -> (Option<i128>, Option<i128>) {
        let facts = server_facts(self.target());
        let probed = |m: Option<&HashMap<String, i128>>| m.and_then(|m| m.get(&info.name).copied());
        (
            min.or_else(|| probed(facts.map(|f| &f.min))),
            max.or_else(|| probed(facts.map(|f| &f.max))),
        )
    }

    /// A value from 0 up to the catalog's minimum the server takes without
    /// a word (`max_relay_log_size = 0` means max_binlog_size; 4095 rounds
    /// down to it).
    fn zero_is_silent(&self, info: &VarInfo, n: i128, min: Option<i128>) -> bool {
        n >= 0
            && min.is_some_and(|m| n < m)
            && server_facts(self.target()).is_some_and(|f| f.zero_silent.contains(&info.name))
    }

    /// The character set of a collation the server knows (MariaDB: from the
    /// server; `utf8_…` is `utf8mb3_…`).
    pub fn collation_charset(&self, collation: &str) -> Option<&str> {
        let facts = server_facts(self.target())?;
        let lower = collation.to_ascii_lowercase();
        let key = if lower.starts_with("utf8_") {
            lower.replacen("utf8_", "utf8mb3_", 1)
        } else {
            lower
        };
        facts
            .collations
            .get(&key)
            .map(String::as_str)
            .filter(|c| !c.is_empty())
    }

    /// `skip_log_bin`, `skip_ssl`, `disable_log_bin`: a modifier and an
    /// option, listed so a line using them is known, but no option name of
    /// their own to MariaDB's parser (its `--help` has no `--skip-log-bin`).
    fn is_modifier_form(&self, v: &VarInfo) -> bool {
        if self.target().flavor != Flavor::Mariadb || v.sysvar {
            return false;
        }
        ["skip_", "disable_", "enable_"].iter().any(|p| {
            v.name
                .strip_prefix(p)
                .is_some_and(|rest| self.get(rest).is_some())
        })
    }

    /// An enable option of a built-in plugin the catalog does not list.
    fn is_builtin_plugin_option(&self, name: &str) -> bool {
        self.target().flavor != Flavor::Mariadb && MYSQL_BUILTIN_ENGINE_PLUGINS.contains(&name)
    }
}

/// MariaDB encrypts temporary files, and InnoDB its tables, redo log and
/// temporary tables, only with a key management plugin loaded; without one
/// the server stops ("Failed to enable encryption of temporary files";
/// "InnoDB: cannot enable encryption, encryption plugin is not available",
/// and InnoDB is the default engine). (`encrypt_binlog = ON` starts
/// without one: the full differential run showed it.)
const MARIADB_NEEDS_KEY_MANAGEMENT: &[&str] = &[
    "encrypt_tmp_files",
    "innodb_encrypt_tables",
    "innodb_encrypt_log",
    "innodb_encrypt_temporary_tables",
];

/// Key management plugins (MariaDB Knowledge Base, "Encryption Key
/// Management").
const MARIADB_KEY_MANAGEMENT_PLUGINS: &[&str] = &[
    "file_key_management",
    "hashicorp_key_management",
    "aws_key_management",
    "example_key_management",
];

/// Options the server starts with but warns about, because they act only
/// with another one: MariaDB warns "You need to use --log-bin to make
/// --binlog-format work" (and the same for these), checked by the
/// differential test.
const MARIADB_NEEDS_LOG_BIN: &[&str] = &[
    "binlog_format",
    "log_slave_updates",
    "expire_logs_days",
    "binlog_expire_logs_seconds",
];

impl Catalog {
    /// Does the server warn when the binary log is on without a name
    /// (`log_bin` bare or empty, `flashback` alone) and neither
    /// `log_basename` nor `log_bin_index` names it? MariaDB does ("No
    /// argument was provided to --log-bin ..."), checked by the
    /// differential test.
    pub fn warns_unnamed_binlog(&self) -> bool {
        self.target().flavor == Flavor::Mariadb
    }

    /// The option `name` needs to have any effect, when the server warns
    /// about it standing alone (MariaDB: the binary log's settings without
    /// `log_bin`).
    pub fn requires(&self, name: &str) -> Option<&'static str> {
        (self.target().flavor == Flavor::Mariadb && MARIADB_NEEDS_LOG_BIN.contains(&name))
            .then_some("log_bin")
    }
}

/// Options MariaDB reads in its first pass besides those the probe found:
/// the performance schema's.
fn is_early(name: &str) -> bool {
    // getopt_prefix_matching decides how the rest is read, so it is read
    // first (silently, as the server's start with `getopt_prefix_matchi`
    // shows).
    name.starts_with("performance_schema") || name == "getopt_prefix_matching"
}

/// A plugin's enable option as the catalog has it: a string that is no
/// system variable, ON by default (`innodb`, `feedback`, `thread_pool_stats`).
fn is_enable_option(v: &VarInfo) -> bool {
    v.kind == VarKind::String
        && !v.sysvar
        && v.default
            .as_deref()
            .is_some_and(|d| ["ON", "OFF", "FORCE", "FORCE_PLUS_PERMANENT"].contains(&d))
}

/// A set item: a value or (a flag set such as optimizer_switch)
/// `flag=on|off|default`.
fn set_item_ok(info: &VarInfo, values: &[String], item: &str) -> bool {
    if info.name == "optimizer_switch"
        || info
            .note
            .as_deref()
            .is_some_and(|n| n.starts_with("flag set"))
    {
        let (flag, state) = item.split_once('=').unwrap_or((item, ""));
        return (flag.eq_ignore_ascii_case("default") && state.is_empty())
            || (values.iter().any(|a| a.eq_ignore_ascii_case(flag))
                && ["on", "off", "default"]
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(state)));
    }
    values.iter().any(|a| a.eq_ignore_ascii_case(item))
}

/// An enum value as the parser finds it: the value, a unique prefix of
/// one, or its index; an empty value is index 0.
pub fn enum_index(values: &[String], v: &str) -> Option<usize> {
    if let Some(i) = values.iter().position(|a| a.eq_ignore_ascii_case(v)) {
        return Some(i);
    }
    if v.is_empty() {
        return (!values.is_empty()).then_some(0);
    }
    let lower = v.to_ascii_lowercase();
    let prefixed: Vec<usize> = values
        .iter()
        .enumerate()
        .filter(|(_, a)| a.to_ascii_lowercase().starts_with(&lower))
        .map(|(i, _)| i)
        .collect();
    if prefixed.len() == 1 {
        return Some(prefixed[0]);
    }
    v.parse::<usize>().ok().filter(|i| *i < values.len())
}

/// A number as `my_getopt` reads it: a leading (signed) integer, then at
/// most one suffix letter; the rest of the text is ignored.
pub fn parse_number(v: &str, unsigned: bool) -> Result<i128, String> {
    let bytes = v.as_bytes();
    let mut i = 0;
    let neg = match bytes.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    if neg && unsigned {
        return Err(format!("'{v}' is negative, and the option takes no sign"));
    }
    let start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    let digits = &v[start..i];
    let mut n: i128 = if digits.is_empty() {
        0
    } else {
        digits
            .parse::<i128>()
            .ok()
            .filter(|n| *n <= i128::from(u64::MAX))
            .ok_or_else(|| format!("'{v}' is beyond the 64-bit range"))?
    };
    if let Some(c) = v[i..].chars().next() {
        match units::suffix_multiplier(c) {
            Some(m) => n = n.saturating_mul(i128::from(m)),
            None => {
                return Err(format!(
                    "'{v}' has the unknown suffix '{c}' (the server takes K, M, G, T, P or E)"
                ));
            }
        }
    }
    Ok(if neg { -n } else { n })
}

/// Clamping and rounding: `(message, the value the server runs with)`.
fn range(
    info: &VarInfo,
    n: i128,
    min: Option<i128>,
    max: Option<i128>,
    block: Option<i128>,
) -> Option<(String, String)> {
    let show = |x: i128| match info.kind {
        VarKind::Size { .. } if x >= 0 => units::format_size(x as u64),
        _ => x.to_string(),
    };
    if let Some(lo) = min
        && n < lo
    {
        return Some((
            format!(
                "{} = {} is below the minimum {}: the server warns and runs with {}",
                info.name,
                show(n),
                show(lo),
                show(lo)
            ),
            lo.to_string(),
        ));
    }
    if let Some(hi) = max
        && n > hi
    {
        return Some((
            format!(
                "{} = {} is above the maximum {}: the server warns and runs with {}",
                info.name,
                show(n),
                show(hi),
                show(hi)
            ),
            hi.to_string(),
        ));
    }
    if let Some(b) = block
        && n % b != 0
    {
        let to = n - n % b;
        return Some((
            format!(
                "{} = {} is not a multiple of {}: the server rounds it down to {}",
                info.name,
                show(n),
                show(b),
                show(to)
            ),
            to.to_string(),
        ));
    }
    None
}

fn since_text(flavor: Flavor, since: Option<Version>) -> String {
    match since {
        Some(v) => format!(" in {} {v}", flavor_name(flavor)),
        None => String::new(),
    }
}

/// "MariaDB 10.11.19": one wording for a release in messages.
pub fn release_name(t: Target) -> String {
    format!("{} {}", flavor_name(t.flavor), t.version)
}

/// "MySQL", "MariaDB", "Percona Server": one wording for versions.
pub fn flavor_name(flavor: Flavor) -> &'static str {
    flavor.product_name()
}

/// The option name as written, without `loose-` but with any other prefix,
/// canonical form.
pub fn written_name(e: &OptionEntry) -> String {
    match e.modifier {
        Modifier::None | Modifier::Loose => e.name.clone(),
        m => format!("{}_{}", m.as_str(), e.name),
    }
}

/// What the server binary itself told `scripts/probe-mariadbd.py`.
#[derive(Debug, Default)]
struct ServerFacts {
    /// Names accepted as no-ops, with the server's warning.
    ignored: HashMap<String, String>,
    /// Options that take `maximum-`.
    maximum: HashSet<String>,
    /// Options that take `autoset-` (bare).
    autoset: HashSet<String>,
    /// Plugin options that also take a `plugin-` prefix.
    plugin_form: HashSet<String>,
    /// Options of the first pass.
    early: HashSet<String>,
    /// Numeric options with min ≥ 0 that still take a sign (clamped).
    signed: HashSet<String>,
    /// System variables without an option of the same name.
    not_option: HashSet<String>,
    /// Deprecated options the server starts with without a warning.
    silent_deprecated: HashSet<String>,
    /// Options the server warns are deprecated, beyond the catalog's.
    warns_deprecated: HashSet<String>,
    /// Storage engines available without loading a plugin.
    engines: HashSet<String>,
    /// A bare name is refused: the option requires a value.
    arg_required: HashSet<String>,
    /// The option takes no value at all.
    no_arg: HashSet<String>,
    charsets: HashSet<String>,
    /// Collation → its character set.
    collations: HashMap<String, String>,
    /// Locale names `lc_messages` / `lc_time_names` take (lowercase).
    locales: HashSet<String>,
    /// Bounds the server clamps to with a warning, where the catalog has
    /// none.
    min: HashMap<String, i128>,
    max: HashMap<String, i128>,
    /// 0 is taken without a warning below the catalog's minimum.
    zero_silent: HashSet<String>,
}

const MARIADB_10_11: &str = include_str!("../../data/catalog/mariadb-10.11-server.tsv");

/// The probed facts for a target: MariaDB's come from 10.11.19, the only
/// server here; 10.6 and 11.4 use them too (both keep the same no-op
/// options; names 11.x removed on its own stay "removed").
fn server_facts(t: Target) -> Option<&'static ServerFacts> {
    static FACTS: OnceLock<ServerFacts> = OnceLock::new();
    if t.flavor != Flavor::Mariadb {
        return None;
    }
    Some(FACTS.get_or_init(|| parse_facts(MARIADB_10_11)))
}

fn parse_facts(text: &str) -> ServerFacts {
    let mut f = ServerFacts::default();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut cols = line.splitn(3, '\t');
        let (Some(name), Some(fact)) = (cols.next(), cols.next()) else {
            continue;
        };
        let msg = cols.next().unwrap_or("").to_string();
        match fact {
            "ignored" => {
                f.ignored.insert(name.to_string(), msg);
            }
            "maximum" => {
                f.maximum.insert(name.to_string());
            }
            "autoset" => {
                f.autoset.insert(name.to_string());
            }
            "plugin-form" => {
                f.plugin_form.insert(name.to_string());
            }
            "early" => {
                f.early.insert(name.to_string());
            }
            "signed" => {
                f.signed.insert(name.to_string());
            }
            "not-option" => {
                f.not_option.insert(name.to_string());
            }
            "silent-deprecated" => {
                f.silent_deprecated.insert(name.to_string());
            }
            "charset" => {
                f.charsets.insert(name.to_string());
            }
            "warns-deprecated" => {
                f.warns_deprecated.insert(name.to_string());
            }
            "engine" => {
                f.engines.insert(name.to_string());
            }
            "arg-required" => {
                f.arg_required.insert(name.to_string());
            }
            "no-arg" => {
                f.no_arg.insert(name.to_string());
            }
            "collation" => {
                f.collations.insert(name.to_string(), msg.clone());
            }
            "locale" => {
                f.locales.insert(name.to_string());
            }
            "min" | "max" => {
                if let Ok(n) = msg.trim().parse::<i128>() {
                    let map = if fact == "min" {
                        &mut f.min
                    } else {
                        &mut f.max
                    };
                    map.insert(name.to_string(), n);
                }
            }
            "zero-silent" => {
                f.zero_silent.insert(name.to_string());
            }
            _ => {}
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_like_my_getopt() {
        assert_eq!(parse_number("16MB", true), Ok(16 << 20));
        assert_eq!(parse_number("2MiB", true), Ok(2 << 20));
        assert_eq!(parse_number("1e3", true), Ok(1 << 60));
        assert_eq!(parse_number("", true), Ok(0));
        assert!(parse_number("-1", true).is_err());
        assert_eq!(parse_number("-1", false), Ok(-1));
        assert!(parse_number("1.5G", true).is_err());
        assert!(parse_number("16 M", true).is_err());
        assert!(parse_number("abc", true).is_err());
        assert!(parse_number("99999999999999999999999", true).is_err());
    }

    #[test]
    fn enum_values_by_name_prefix_or_index() {
        let v: Vec<String> = ["STATEMENT", "ROW", "MIXED"].map(String::from).to_vec();
        assert_eq!(enum_index(&v, "row"), Some(1));
        assert_eq!(enum_index(&v, "ST"), Some(0));
        assert_eq!(enum_index(&v, "2"), Some(2));
        assert_eq!(enum_index(&v, "3"), None);
        assert_eq!(enum_index(&v, ""), Some(0));
        assert_eq!(enum_index(&v, "bogus"), None);
    }
}
