//! From the entries of all files to the options a program would start with.
//!
//! The server collects every option of the groups it reads in file order and
//! applies them one after another, so the last occurrence wins regardless of
//! which of its groups it is in (`[mysqld]` after `[mariadb]` overrides it).
//! The order of the `groups` argument is therefore not a precedence.

use std::collections::BTreeMap;

use crate::facts::{ConfigFacts, ConfigOption};

use super::groups::group_as_read;
use super::names::{is_flag_set, is_repeatable, merge_flags};
use super::{LoadedFiles, Modifier, OptionEntry};

impl LoadedFiles {
    /// Effective options for a reader of `groups` (compared without case and
    /// without trailing whitespace, like the server): later lines win, earlier
    /// occurrences are kept in [`ConfigOption::shadowed`]. A repeatable
    /// option ([`super::REPEATABLE_OPTIONS`]) accumulates instead: its value
    /// is every occurrence's, comma-separated, and nothing is shadowed; a
    /// flag set ([`super::FLAG_SET_OPTIONS`]) merges each occurrence's
    /// flags into the earlier ones, and nothing is shadowed either.
    ///
    /// Values: `skip-`/`disable-` give `OFF`, `enable-` and bare names give
    /// `ON`, otherwise the unquoted value. A `maximum-x` entry sets a bound, not
    /// `x`, and is stored under the key `maximum_x`.
    pub fn effective(&self, groups: &[String]) -> ConfigFacts {
        let wanted: Vec<String> = groups
            .iter()
            .map(|g| group_as_read(g).to_lowercase())
            .collect();
        let mut options: BTreeMap<String, ConfigOption> = BTreeMap::new();
        for entry in &self.entries {
            let group = entry.group_as_read();
            if !wanted.iter().any(|w| w == group) {
                continue;
            }
            let key = effective_key(entry);
            let mut shadowed = Vec::new();
            let mut value = effective_value(entry);
            if let Some(previous) = options.remove(&key) {
                if is_repeatable(&key) {
                    // Each occurrence adds an item; none is overridden.
                    value = format!("{},{value}", previous.value);
                } else if is_flag_set(&key) && entry.modifier == Modifier::None {
                    // Each occurrence changes only the flags it names.
                    value = merge_flags(&previous.value, &value);
                } else {
                    shadowed = previous.shadowed;
                    shadowed.push(previous.location);
                }
            }
            options.insert(
                key.clone(),
                ConfigOption {
                    name: key,
                    value,
                    location: entry.location.clone(),
                    group: entry.group.clone(),
                    loose: entry.loose,
                    shadowed,
                },
            );
        }
        ConfigFacts {
            files: self.files.clone(),
            groups: groups.to_vec(),
            options,
        }
    }
}

fn effective_key(entry: &OptionEntry) -> String {
    if entry.modifier == Modifier::Maximum {
        format!("maximum_{}", entry.name)
    } else {
        entry.name.clone()
    }
}

fn effective_value(entry: &OptionEntry) -> String {
    match (entry.modifier, &entry.value) {
        (Modifier::Skip | Modifier::Disable, _) => "OFF".to_string(),
        (_, None) => "ON".to_string(),
        (_, Some(v)) => v.clone(),
    }
}
