//! The articles the built-in rules cite, in one place. A rule source names
//! one by its key (`article = "mysql-single-node-tuning"`); the loader
//! rejects a key that is not here, and every rendering (`explain`, the rule
//! reference, JSON, SARIF) shows the article's public title, never a key or a
//! file name.

use std::fmt;

use serde::Serialize;

/// One cited article.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Article {
    /// Stable key that rule files cite (`mysql-single-node-tuning`).
    pub key: &'static str,
    /// The title as published, in its language; for an untitled write-up a
    /// descriptive name.
    pub title: &'static str,
    /// An English translation of a title in another language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title_en: Option<&'static str>,
    /// Author and publication, where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub byline: Option<&'static str>,
    /// Where the article can be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<&'static str>,
    /// How the rules' authors read it, when not in the original (a
    /// translation and where it is reposted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'static str>,
}

/// Every article a rule may cite, in key order of first use.
pub const ARTICLES: &[Article] = &[
    Article {
        key: "mysql-single-node-tuning",
        title: "Mysql单节点调优",
        title_en: Some("MySQL single-node tuning"),
        byline: None,
        url: None,
        note: None,
    },
    Article {
        key: "cloud-host-mysql-performance-test",
        title: "弹性云主机mysql数据性能测试",
        title_en: Some("MySQL performance test on elastic cloud hosts"),
        byline: Some("高淑杰, Tianyi Cloud developer community, 天翼云开发者社区"),
        url: None,
        note: None,
    },
    Article {
        key: "mysql-challenge-100k-connections",
        title: "MySQL Challenge: 100k Connections",
        title_en: None,
        byline: Some("Vadim Tkachenko, Percona Database Performance Blog, 2019"),
        url: Some("https://www.percona.com/blog/mysql-challenge-100k-connections/"),
        note: Some(
            "read in a Chinese translation reposted at https://www.uj5u.com/houduan/364.html",
        ),
    },
    Article {
        key: "sysbench-single-node-test",
        title: "A sysbench tuning test of a single MySQL node: buffer pool, then I/O threads",
        title_en: None,
        byline: Some("an untitled Chinese write-up"),
        url: None,
        note: None,
    },
];

/// The article with this key.
pub fn find(key: &str) -> Option<&'static Article> {
    ARTICLES.iter().find(|a| a.key == key)
}

/// The keys, for error messages.
pub fn keys() -> Vec<&'static str> {
    ARTICLES.iter().map(|a| a.key).collect()
}

impl Article {
    /// The title as a source line shows it: the title, then its
    /// translation and the byline in parentheses.
    pub fn citation(&self) -> String {
        let extra: Vec<&str> = [self.title_en, self.byline].into_iter().flatten().collect();
        if extra.is_empty() {
            self.title.to_string()
        } else {
            format!("{} ({})", self.title, extra.join("; "))
        }
    }
}

impl fmt::Display for Article {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.citation())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_kebab_case() {
        let mut keys = keys();
        for k in &keys {
            assert!(
                k.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{k}"
            );
        }
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), ARTICLES.len());
    }

    #[test]
    fn citation_has_title_translation_and_byline() {
        let a = find("mysql-single-node-tuning").unwrap();
        assert_eq!(a.citation(), "Mysql单节点调优 (MySQL single-node tuning)");
        let p = find("mysql-challenge-100k-connections").unwrap();
        assert_eq!(
            p.citation(),
            "MySQL Challenge: 100k Connections (Vadim Tkachenko, Percona Database Performance Blog, 2019)"
        );
        assert!(find("000_c0584d0eda19c705.txt").is_none());
    }
}
