//! `--only` / `--skip`: which findings and rules a run reports, by code
//! (`MT101`), name (`innodb-buffer-pool-too-small`) or family (`innodb`,
//! `config` for the option-file checks).

use crate::rules::{Finding, NotApplicable};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Keep only these (empty: everything).
    pub only: Vec<String>,
    pub skip: Vec<String>,
}

impl Selection {
    pub fn new(only: &[String], skip: &[String]) -> Selection {
        let split = |v: &[String]| {
            v.iter()
                .flat_map(|s| s.split(','))
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        };
        Selection {
            only: split(only),
            skip: split(skip),
        }
    }

    /// Is a rule or check with this code, name and family selected?
    pub fn keeps(&self, code: &str, name: &str, family: &str) -> bool {
        let hit = |keys: &[String]| {
            keys.iter().any(|k| {
                k.eq_ignore_ascii_case(code)
                    || k.eq_ignore_ascii_case(name)
                    || k.eq_ignore_ascii_case(family)
            })
        };
        (self.only.is_empty() || hit(&self.only)) && !hit(&self.skip)
    }

    pub fn keeps_finding(&self, f: &Finding) -> bool {
        self.keeps(&f.code, &f.name, f.family.as_str())
    }

    /// Not-applicable entries carry only the code; `name_family` looks the
    /// rest up.
    pub fn keeps_not_applicable(
        &self,
        n: &NotApplicable,
        name_family: impl Fn(&str) -> Option<(String, String)>,
    ) -> bool {
        match name_family(&n.code) {
            Some((name, family)) => self.keeps(&n.code, &name, &family),
            None => self.keeps(&n.code, "", ""),
        }
    }

    /// Keys that match no known code, name or family (a typo in `--only`
    /// would otherwise silently report nothing).
    pub fn unknown_keys<'a>(&'a self, known: &dyn Fn(&str) -> bool) -> Vec<&'a str> {
        self.only
            .iter()
            .chain(&self.skip)
            .map(String::as_str)
            .filter(|k| !known(k))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selects_by_code_name_or_family() {
        let s = Selection::new(&["innodb,MT301".into()], &["mt102".into()]);
        assert!(s.keeps("MT101", "innodb-buffer-pool-too-small", "innodb"));
        assert!(!s.keeps("MT102", "innodb-buffer-pool-too-large", "innodb"));
        assert!(s.keeps("MT301", "x", "memory"));
        assert!(!s.keeps("MT302", "y", "memory"));
        let all = Selection::new(&[], &["config".into()]);
        assert!(all.keeps("MT101", "a", "innodb"));
        assert!(!all.keeps("MT011", "option-file-drift", "config"));
    }
}
