//! The upgrade advisor's findings: `lint --from OLD --target NEW` reports,
//! besides what NEW removes or deprecates (the usual checks against NEW's
//! catalog), every variable the file leaves at its default whose default
//! changes ([`crate::catalog::upgrade`]), and `--fix --pin-defaults` writes
//! the old defaults into the file.

use std::path::Path;

use super::finding;
use crate::catalog::upgrade::{DefaultChange, flag_diff, same_value};
use crate::catalog::{Catalog, Effect, LineContext, VarInfo, VarKind, parse_number, release_name};
use crate::checks;
use crate::cnf::{Document, Modifier, OptionEntry, server_groups};
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

/// What `--pin-defaults` writes for one change, and what it leaves at the
/// new release's default, with why.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pin {
    /// The value to write (`None`: nothing to write).
    pub value: Option<String>,
    /// Flags of a `name=on|off` list only the new release has
    /// (`hash_join_cardinality=off`): left at its default, since the old
    /// release had no such behaviour to keep.
    pub new_flags: Vec<String>,
    /// Items of the old default the new release does not accept
    /// (`NO_AUTO_CREATE_USER` in MySQL 8.0's `sql_mode`): left out.
    pub gone: Vec<String>,
    /// The new release would not run with the old default as written (it
    /// refuses, clamps or warns about it): what it says.
    pub refused: Option<String>,
}

/// What to pin for a change, from the two catalogs only. Nothing for an old
/// default the server computed, a deprecated variable (pinning it would
/// draw its own warning) or a plugin's (the file may not load it).
///
/// A flag list (`optimizer_switch`) is pinned flag by flag: a flag both
/// releases have gets the old value where the defaults differ; a flag only
/// the new release has is left out, because the old release had no such
/// behaviour (neither catalog says which value would reproduce its
/// absence). A set (`sql_mode`) keeps the old items the new release
/// accepts. A value the new release would refuse or adjust is not pinned.
pub fn pin(c: &DefaultChange, catalog: &Catalog) -> Pin {
    let mut p = Pin::default();
    // A variable only some builds have (`innodb_numa_interleave`): the
    // build may lack it.
    if c.var.status.is_deprecated()
        || c.plugin.is_some()
        || c.builtin_turned_off
        || c.var.build_condition().is_some()
    {
        return p;
    }
    let Some(old) = c.old.as_deref() else {
        return p;
    };
    let value = if let Some(d) = c.new.as_deref().and_then(|new| flag_diff(old, new)) {
        p.new_flags = d.only_new.iter().map(|(k, v)| format!("{k}={v}")).collect();
        p.gone = d.only_old.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let items: Vec<String> = d
            .changed
            .iter()
            .map(|(k, was, _)| format!("{k}={was}"))
            .collect();
        (!items.is_empty()).then(|| items.join(","))
    } else if let VarKind::Set { values } = &c.var.kind {
        let (keep, gone): (Vec<&str>, Vec<&str>) = old
            .split(',')
            .map(str::trim)
            .filter(|i| !i.is_empty())
            .partition(|i| values.iter().any(|a| a.eq_ignore_ascii_case(i)));
        p.gone = gone.iter().map(|g| g.to_string()).collect();
        let kept = keep.join(",");
        let same_as_new = c
            .new
            .as_deref()
            .is_some_and(|n| same_value(&c.var.kind, &kept, n));
        (!keep.is_empty() && !same_as_new).then_some(kept)
    } else {
        Some(written(c.var, old))
    };
    if let Some(v) = &value
        && let Some(why) = target_objects(catalog, &c.var.name, v)
    {
        p.refused = Some(why);
        return p;
    }
    p.value = value;
    p
}

/// What the target says about `name = value` in its server group, when it
/// would not apply the line as written (refused, adjusted, warned about).
fn target_objects(catalog: &Catalog, name: &str, value: &str) -> Option<String> {
    let entry = OptionEntry {
        group: "mysqld".into(),
        raw_name: name.into(),
        name: name.into(),
        value: Some(value.into()),
        modifier: Modifier::None,
        loose: false,
        location: SourceLocation {
            file: "pin".into(),
            line: 1,
            column: 0,
        },
    };
    let ctx = LineContext {
        target: Some(catalog.release()),
        ..LineContext::default()
    };
    catalog
        .judge_line(&entry, &ctx)
        .into_iter()
        .find(|j| j.effect != Effect::Applies)
        .map(|j| j.message)
}

/// How a list default changes: flag by flag for a `name=on|off` list
/// (`changes mrr from on to off, adds hash_join_cardinality=off`), item by
/// item for a set.
fn list_change(c: &DefaultChange) -> String {
    let mut parts = Vec::new();
    if let Some(d) = c
        .old
        .as_deref()
        .zip(c.new.as_deref())
        .and_then(|(a, b)| flag_diff(a, b))
    {
        for (k, was, now) in &d.changed {
            parts.push(format!("changes {k} from {was} to {now}"));
        }
        if !d.only_new.is_empty() {
            let flags: Vec<String> = d.only_new.iter().map(|(k, v)| format!("{k}={v}")).collect();
            parts.push(format!("adds {}", flags.join(",")));
        }
        if !d.only_old.is_empty() {
            let flags: Vec<&str> = d.only_old.iter().map(|(k, _)| k.as_str()).collect();
            parts.push(format!("drops {}", flags.join(",")));
        }
    } else {
        if !c.added.is_empty() {
            parts.push(format!("adds {}", c.added.join(",")));
        }
        if !c.dropped.is_empty() {
            parts.push(format!("drops {}", c.dropped.join(",")));
        }
    }
    parts.join(" and ")
}

/// What an MT023 message adds after the change: the pin, or why there is
/// none, and what stays at the new default.
fn keep_text(
    c: &DefaultChange,
    p: &Pin,
    old: &str,
    new: &str,
    write: impl Fn(&str) -> String,
) -> String {
    let name = &c.var.name;
    let mut out = String::new();
    match (&p.value, &p.refused) {
        (Some(v), _) => out.push_str(&write(v)),
        (None, Some(why)) => out.push_str(&format!(
            "; not pinned: {new} does not take {old}'s default as written ({why})"
        )),
        (None, None) if c.var.status.is_deprecated() => out.push_str(&format!(
            "; {name} is deprecated on {new}, so it is better left to its new default"
        )),
        (None, None) => {}
    }
    if !p.new_flags.is_empty() {
        out.push_str(&format!(
            "; flags new in {new} stay at its default ({old} had no such behaviour to keep)"
        ));
    }
    if !p.gone.is_empty() {
        out.push_str(&format!(
            "; {new} does not accept {}, so {}",
            p.gone.join(","),
            if p.value.is_some() {
                "the pin leaves it out"
            } else {
                "there is nothing else to pin"
            }
        ));
    }
    out
}

/// MT023 for each change the file does not pin already.
pub fn default_findings(
    changes: &[DefaultChange],
    catalog: &Catalog,
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
                format!(
                    "{name} is not set, and its default in {new} {} compared with {old}",
                    list_change(c)
                )
            } else {
                format!(
                    "{name} is not set, so its default changes from {} on {old} to {} on {new}",
                    show(&c.old),
                    show(&c.new)
                )
            };
            let pinned = pin(c, catalog);
            let keep = match c.var.build_condition() {
                Some(cond) => format!(
                    "; not pinned: only builds with {cond} have it (write loose-{name} = {} to keep \
                     today's behaviour where they do)",
                    show(&c.old)
                ),
                None => keep_text(c, &pinned, &old, &new, |v| {
                    format!("; write {name} = {v} to keep today's behaviour (lint --fix --pin-defaults)")
                }),
            };
            let mut f = finding(
                &checks::default_changes_on_upgrade::CHECK,
                checks::default_changes_on_upgrade::CHECK.severity,
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
            f.recommended = pinned.value;
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
        .filter(|f| f.code == checks::default_changes_on_upgrade::CHECK.code)
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
        .filter(|f| f.code == checks::default_changes_on_upgrade::CHECK.code)
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
        let (old, new) = (release_name(from), release_name(to));
        let flags = c
            .old
            .as_deref()
            .zip(c.new.as_deref())
            .and_then(|(a, b)| flag_diff(a, b));
        let comment = match flags {
            Some(d) => {
                let there: Vec<String> = d
                    .changed
                    .iter()
                    .map(|(k, _, now)| format!("{k}={now}"))
                    .collect();
                let mut comment = format!(
                    "mytune: {old}'s value of each flag whose default changes, pinned for the upgrade to \
                     {new} (its default there: {})",
                    there.join(",")
                );
                if !d.only_new.is_empty() {
                    let names: Vec<&str> = d.only_new.iter().map(|(k, _)| k.as_str()).collect();
                    comment.push_str(&format!(
                        "; flags {old} lacks ({}) stay at {new}'s default",
                        names.join(", ")
                    ));
                }
                comment
            }
            None => {
                let there = c
                    .new
                    .as_deref()
                    .map_or_else(|| "computed at start".to_string(), |n| written(c.var, n));
                format!(
                    "mytune: {old}'s default, pinned for the upgrade to {new} (its default there: {there})"
                )
            }
        };
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
    catalog: &Catalog,
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
                let keep = keep_text(c, &pin(c, catalog), &old, &new, |v| {
                    format!("; to keep it, set {name} = {v} in the option file before upgrading")
                });
                if !c.added.is_empty() || !c.dropped.is_empty() {
                    format!(
                        "{name} runs with {old}'s default; its default on {new} {}{keep}",
                        list_change(c)
                    )
                } else {
                    format!(
                        "{name} runs with {old}'s default {}, which becomes {} on {new}{keep}",
                        shown(&c.old),
                        shown(&c.new)
                    )
                }
            };
            let mut f = finding(
                &checks::default_changes_on_upgrade::CHECK,
                checks::default_changes_on_upgrade::CHECK.severity,
                message,
                None,
                Some(name.clone()),
            );
            f.current = running.cloned();
            Some(f)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::VarStatus;

    fn change<'c>(var: &'c VarInfo, old: &str) -> DefaultChange<'c> {
        DefaultChange {
            var,
            old: Some(old.into()),
            new: var.default.clone(),
            added: vec!["x".into()],
            dropped: Vec::new(),
            builtin_turned_off: false,
            plugin: None,
            rules: None,
        }
    }

    fn optimizer_switch(default: &str) -> VarInfo {
        VarInfo {
            name: "optimizer_switch".into(),
            kind: VarKind::String,
            default: Some(default.into()),
            dynamic: true,
            sysvar: true,
            status: VarStatus::Current,
            note: None,
            plugin: None,
            arg: Default::default(),
        }
    }

    /// A flag both releases have keeps the old value; a flag only the new
    /// release has is not invented a value; a flag the new release lacks
    /// is not written (it would refuse it).
    #[test]
    fn pin_defaults_pins_only_flags_the_old_release_had() {
        let catalog = Catalog::for_target(&"mariadb-10.11".parse().unwrap()).unwrap();
        let var = optimizer_switch("mrr=off,derived_merge=on,cset_narrowing=off");
        let c = change(&var, "mrr=on,derived_merge=on,index_merge=on");
        let p = pin(&c, catalog);
        assert_eq!(p.value.as_deref(), Some("mrr=on"), "{p:?}");
        assert_eq!(p.new_flags, ["cset_narrowing=off"]);
        assert_eq!(p.gone, ["index_merge=on"]);
        // Only new flags: nothing to write at all.
        let c = change(&var, "mrr=off,derived_merge=on");
        assert_eq!(pin(&c, catalog).value, None);
    }

    /// MySQL 5.7's `sql_mode` default holds NO_AUTO_CREATE_USER, which 8.0
    /// refuses at start: the pin keeps only what 8.0 accepts, and here that
    /// is 8.0's default, so nothing is written.
    #[test]
    fn pin_defaults_keeps_only_set_items_the_new_release_accepts() {
        let old = Catalog::for_target(&"mysql-5.7".parse().unwrap()).unwrap();
        let new = Catalog::for_target(&"mysql-8.0".parse().unwrap()).unwrap();
        let changes = crate::catalog::upgrade::default_changes(old, new);
        let sql_mode = changes
            .iter()
            .find(|c| c.var.name == "sql_mode")
            .expect("sql_mode's default changes");
        let p = pin(sql_mode, new);
        assert_eq!(p.value, None, "{p:?}");
        assert_eq!(p.gone, ["NO_AUTO_CREATE_USER"]);
    }

    /// MariaDB 10.6's `innodb_log_write_ahead_size` default (8K) is above
    /// 10.11's maximum: the server would clamp it, so it is not pinned.
    #[test]
    fn pin_defaults_skips_an_old_default_the_new_release_adjusts() {
        let old = Catalog::for_target(&"mariadb-10.6".parse().unwrap()).unwrap();
        let new = Catalog::for_target(&"mariadb-10.11".parse().unwrap()).unwrap();
        let changes = crate::catalog::upgrade::default_changes(old, new);
        let c = changes
            .iter()
            .find(|c| c.var.name == "innodb_log_write_ahead_size")
            .expect("8K → 512");
        let p = pin(c, new);
        assert_eq!(p.value, None);
        assert!(p.refused.unwrap().contains("maximum"));
    }
}
