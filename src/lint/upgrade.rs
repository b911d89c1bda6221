//! The upgrade advisor's findings: `lint --from OLD --target NEW` reports,
//! besides what NEW removes or deprecates (the usual checks against NEW's
//! catalog), every variable the file leaves at its default whose default
//! changes ([`crate::catalog::upgrade`]), and `--fix --pin-defaults` writes
//! the old defaults into the file.

use std::path::Path;

use super::{checks, finding};
use crate::catalog::release_name;
use crate::catalog::upgrade::DefaultChange;
use crate::catalog::{VarInfo, VarKind, parse_number};
use crate::cnf::{Document, server_groups};
use crate::facts::{ConfigFacts, SourceLocation};
use crate::rules::Finding;
use crate::target::Target;
use crate::units::format_size;

/// A default as an option file writes it (`16777216` → `16M`).
pub fn written(var: &VarInfo, value: &str) -> String {
    match var.kind {
        VarKind::Size { .. } => parse_number(value, true)
            .ok()
            .and_then(|n| u64::try_from(n).ok())
            .map_or_else(|| value.to_string(), format_size),
        _ => value.to_string(),
    }
}

/// The value to pin for a change, when there is one to write: none for
/// an old default the server computed, a deprecated variable (pinning it
/// would draw its own warning), a plugin's (the file may not load it) or
/// one only some builds have (`innodb_numa_interleave`: the build may lack
/// it).
/// For a flag list (`optimizer_switch`), only the flags that change:
/// setting the old list whole would leave a flag new in NEW at its new
/// default.
fn pin(c: &DefaultChange) -> Option<String> {
    if c.var.status.is_deprecated()
        || c.plugin.is_some()
        || c.builtin_turned_off
        || c.var.build_condition().is_some()
    {
        return None;
    }
    let old = c.old.as_deref()?;
    let flags = |v: &str| -> Option<Vec<(String, String)>> {
        v.split(',')
            .map(|i| {
                i.split_once('=')
                    .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            })
            .collect()
    };
    if let (Some(before), Some(after)) = (flags(old), c.new.as_deref().and_then(flags)) {
        let items: Vec<String> = after
            .iter()
            .filter_map(|(k, v)| match before.iter().find(|(b, _)| b == k) {
                Some((_, was)) if was != v => Some(format!("{k}={was}")),
                Some(_) => None,
                None => Some(format!("{k}={}", if v == "on" { "off" } else { "on" })),
            })
            .collect();
        return (!items.is_empty()).then(|| items.join(","));
    }
    Some(written(c.var, old))
}

/// MT023 for each change the file does not pin already.
pub fn default_findings(
    changes: &[DefaultChange],
    config: &ConfigFacts,
    from: Target,
    to: Target,
    file: &Path,
) -> Vec<Finding> {
    let (old, new) = (release_name(from), release_name(to));
    changes
        .iter()
        .filter(|c| !config.options.contains_key(&c.var.name))
        .map(|c| {
            let name = &c.var.name;
            let show = |v: &Option<String>| match v {
                Some(v) => written(c.var, v),
                None => "a value the server computes at start".to_string(),
            };
            let what = if let Some((a, b)) = &c.rules {
                format!(
                    "{name} is not set, and the server computes its default differently: on {old} {a}; on \
                     {new} {b}"
                )
            } else if c.builtin_turned_off {
                format!(
                    "{name}: the plugin is built in and always on in {old}, off by default in {new}; accounts \
                     that use it cannot log in until they move to another plugin or the file sets {name} = ON"
                )
            } else if !c.added.is_empty() || !c.dropped.is_empty() {
                let mut parts = Vec::new();
                if !c.added.is_empty() {
                    parts.push(format!("adds {}", c.added.join(",")));
                }
                if !c.dropped.is_empty() {
                    parts.push(format!("drops {}", c.dropped.join(",")));
                }
                format!(
                    "{name} is not set, and its default in {new} {} compared with {old}",
                    parts.join(" and ")
                )
            } else {
                format!(
                    "{name} is not set, so its default changes from {} on {old} to {} on {new}",
                    show(&c.old),
                    show(&c.new)
                )
            };
            let keep = match pin(c) {
                Some(v) => {
                    format!("; write {name} = {v} to keep today's behaviour (lint --fix --pin-defaults)")
                }
                None if c.var.status.is_deprecated() => {
                    format!("; {name} is deprecated on {new}, so it is better left to its new default")
                }
                None if c.var.build_condition().is_some() => format!(
                    "; not pinned: only builds with {} have it (write loose-{name} = {} to keep \
                     today's behaviour where they do)",
                    c.var.build_condition().unwrap_or_default(),
                    show(&c.old)
                ),
                None => String::new(),
            };
            let mut f = finding(
                &checks::DEFAULT_CHANGES,
                checks::DEFAULT_CHANGES.severity,
                format!("{what}{keep}"),
                Some(SourceLocation {
                    file: file.to_path_buf(),
                    line: 1,
                    column: 0,
                }),
                Some(name.clone()),
            );
            f.current = c.old.as_ref().map(|v| written(c.var, v));
            // What --pin-defaults writes (cleared by [`defer_to_rules`]).
            f.recommended = pin(c);
            f
        })
        .collect()
}

/// A pin a rule would contradict is no pin: with the old default written,
/// the rule (evaluated on the pinned file) recommends another value, so the
/// report would push the variable two ways and `--pin-defaults` would ask
/// for more changes. Such an MT023 says so and keeps no pin.
pub fn defer_to_rules(upgrade: &mut [Finding], rules_on_pinned: &[Finding]) {
    for f in upgrade
        .iter_mut()
        .filter(|f| f.code == checks::DEFAULT_CHANGES.code)
    {
        let Some(pinned) = f.recommended.clone() else {
            continue;
        };
        let Some(rule) = rules_on_pinned.iter().find(|r| {
            r.variable == f.variable && r.recommended.as_ref().is_some_and(|v| *v != pinned)
        }) else {
            continue;
        };
        let name = f.variable.clone().unwrap_or_default();
        if let Some(i) = f.message.find("; write ") {
            f.message.truncate(i);
        }
        f.message.push_str(&format!(
            "; not pinned: with {name} = {pinned} written, {} recommends {name} = {}",
            rule.code,
            rule.recommended.as_deref().unwrap_or("")
        ));
        f.recommended = None;
    }
}

/// The top file with the old defaults the findings name written into its
/// server group (`[mysqld]` where the file has one, else a new one), each
/// with a comment saying why. `None` when there is nothing to pin.
pub fn pin_defaults(
    text: &str,
    findings: &[Finding],
    changes: &[DefaultChange],
    from: Target,
    to: Target,
) -> Option<String> {
    let mut doc = Document::parse(text);
    let groups = server_groups(&to);
    let mut any = false;
    for f in findings
        .iter()
        .filter(|f| f.code == checks::DEFAULT_CHANGES.code)
    {
        let Some(c) = changes
            .iter()
            .find(|c| Some(&c.var.name) == f.variable.as_ref())
        else {
            continue;
        };
        // The pin the finding carries (none where a rule disagrees).
        let Some(v) = f.recommended.clone() else {
            continue;
        };
        let there = if !c.added.is_empty() || !c.dropped.is_empty() {
            "other flags".to_string()
        } else {
            c.new
                .as_deref()
                .map_or_else(|| "computed at start".to_string(), |n| written(c.var, n))
        };
        let comment = format!(
            "mytune: {}'s default, pinned for the upgrade to {} (its default there: {there})",
            release_name(from),
            release_name(to),
        );
        if doc
            .set_where_read(&groups, "mysqld", &c.var.name, Some(&v), Some(&comment))
            .is_ok()
        {
            any = true;
        }
    }
    any.then(|| doc.to_string())
}

/// `check --upgrade-to NEW` on a running server: MT023 for every variable
/// that runs with today's default whose default changes on `to`. (A value
/// set on purpose stays what it is; one removed on `to` is the option
/// files' business, judged by lint against `to`.)
pub fn running_default_findings(
    changes: &[DefaultChange],
    variables: &std::collections::BTreeMap<String, String>,
    from: Target,
    to: Target,
) -> Vec<Finding> {
    let (old, new) = (release_name(from), release_name(to));
    changes
        .iter()
        .filter_map(|c| {
            let name = &c.var.name;
            let running = variables.get(name);
            let at_default = match (running, c.old.as_deref()) {
                (Some(r), Some(d)) => crate::catalog::upgrade::same_value(&c.var.kind, r, d),
                // A plugin new on `to`: nothing runs today to compare.
                (None, _) => c.builtin_turned_off,
                (Some(_), None) => false,
            };
            if !at_default {
                return None;
            }
            let shown = |v: &Option<String>| match v {
                Some(v) => written(c.var, v),
                None => "a value the server computes at start".to_string(),
            };
            let message = if let Some((a, b)) = &c.rules {
                format!(
                    "{name} runs with the default {old} computes ({a}); {new} computes it differently: {b}; \
                     set it in the option file to keep today's value"
                )
            } else if c.builtin_turned_off {
                format!(
                    "{name}: the plugin is built in and always on in {old}, off by default in {new}; accounts \
                     that use it cannot log in after the upgrade until they move to another plugin or the \
                     option file sets {name} = ON"
                )
            } else {
                let keep = match pin(c) {
                    Some(v) => format!("; to keep it, set {name} = {v} in the option file before upgrading"),
                    None => String::new(),
                };
                format!(
                    "{name} runs with {old}'s default {}, which becomes {} on {new}{keep}",
                    shown(&c.old),
                    if !c.added.is_empty() || !c.dropped.is_empty() {
                        let mut d = Vec::new();
                        if !c.added.is_empty() {
                            d.push(format!("adding {}", c.added.join(",")));
                        }
                        if !c.dropped.is_empty() {
                            d.push(format!("dropping {}", c.dropped.join(",")));
                        }
                        d.join(" and ")
                    } else {
                        shown(&c.new)
                    }
                )
            };
            let mut f = finding(
                &checks::DEFAULT_CHANGES,
                checks::DEFAULT_CHANGES.severity,
                message,
                None,
                Some(name.clone()),
            );
            f.current = running.cloned();
            Some(f)
        })
        .collect()
}
