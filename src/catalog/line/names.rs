//! How messages name things: a release, a flavor, the option as written,
//! the product that has an option the target lacks, and the ranked
//! suggestions for a misspelt name (remembered per target).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::catalog::Catalog;
use crate::cnf::{Modifier, OptionEntry, canonical_name};
use crate::target::{Flavor, TRAITS, Target, Version};

/// The product that has an option `name` the target's flavor lacks, as
/// "Percona Server 8.0" (its series nearest the target's that has it), with
/// the plugin that provides it, if any. Nearest products first: Percona
/// Server and PXC for MySQL, MySQL and its derivatives for MariaDB.
pub(in crate::catalog) fn other_product(
    name: &str,
    target: Target,
) -> Option<(String, Option<String>)> {
    let key = |v: Version| i64::from(v.major) * 1000 + i64::from(v.minor);
    // The same product line first, then the same option parser, then the
    // table's order.
    let mut order: Vec<Flavor> = TRAITS
        .iter()
        .map(|t| t.flavor)
        .filter(|f| *f != target.flavor)
        .collect();
    order.sort_by_key(|f| {
        (
            f.base() != target.flavor.base(),
            f.traits().dialect != target.dialect(),
        )
    });
    let canon = canonical_name(name);
    for other in &order {
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
pub(in crate::catalog) fn did_you_mean(suggestions: &[String]) -> String {
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
    pub(in crate::catalog) fn suggest_cached(&self, name: &str) -> Vec<String> {
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

pub(in crate::catalog) fn since_text(flavor: Flavor, since: Option<Version>) -> String {
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
