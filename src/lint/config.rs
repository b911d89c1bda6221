//! `mytune.toml`: what a repository tells `mytune lint` about the host its
//! committed configs are meant for, and how strict to be with them.
//!
//! Option files in Git rarely sit next to the machine they configure, so the
//! host-dependent rules (buffer pool against memory, connections against
//! memory…) need the host described. Without this file those rules are *not
//! applicable*; nothing is guessed. The file is found by walking up from each
//! linted file (like `ruff.toml`), or given with `--config`.
//!
//! ```toml
//! target = "mariadb-10.11"
//! memory = "64G"
//! cpus = 16
//! disk = "ssd"
//! connections = 2000
//! durability = "strict"      # or "relaxed"
//! workload = "oltp"          # oltp, olap, mixed
//! observability = "standard" # as the server ships them; "full": slow log + Performance Schema; "lean": neither
//! share = 1.0                # share of the host the server may use
//! ignore = ["MT006"]         # codes ignored everywhere
//!
//! [severity]                 # per code: allow (drop), info, warn, deny (= crit)
//! MT402 = "allow"
//! MT004 = "deny"
//!
//! [per-path-ignores]         # glob (relative to this file) -> codes ("*" = all)
//! "legacy/**" = ["MT004", "MT006"]
//! ```

use crate::catalog::Resolve;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;

use crate::facts::host::{Cpu, Disk, DiskKind, HostFacts, HostSource, Memory};
use crate::rules::{Durability, Observability, Profile, Severity, Workload};
use crate::target::Target;
use crate::units;

/// The file name looked for in each directory up from a linted file.
pub const FILE_NAME: &str = "mytune.toml";

/// What `[severity]` may say about a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Drop the findings of this code.
    Allow,
    /// Report them with this severity (`deny` = crit).
    As(Severity),
}

/// A loaded `mytune.toml`.
#[derive(Debug, Clone)]
pub struct ProjectConfig {
    /// The file it was read from.
    pub path: PathBuf,
    pub target: Option<Target>,
    /// The host the configs are for, when the file describes one.
    pub host: Option<HostFacts>,
    pub profile: Profile,
    pub levels: BTreeMap<String, Level>,
    /// Codes ignored everywhere.
    pub ignore: Vec<String>,
    per_path: Vec<(GlobSet, Vec<String>, String)>,
    /// `baseline = "FILE"`: the baseline of the files this configuration
    /// covers, relative to the configuration's directory.
    pub baseline: Option<PathBuf>,
}

/// A `mytune.toml` that cannot be used, with the file and what is wrong.
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct ConfigError {
    pub path: PathBuf,
    pub message: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    target: Option<String>,
    memory: Option<toml::Value>,
    cpus: Option<u32>,
    disk: Option<String>,
    connections: Option<u64>,
    durability: Option<String>,
    workload: Option<String>,
    observability: Option<String>,
    share: Option<f64>,
    #[serde(default)]
    ignore: Vec<String>,
    #[serde(default)]
    severity: BTreeMap<String, String>,
    #[serde(default, rename = "per-path-ignores")]
    per_path_ignores: BTreeMap<String, Vec<String>>,
    baseline: Option<String>,
}

impl ProjectConfig {
    /// Read and check one `mytune.toml`.
    pub fn load(path: &Path) -> Result<ProjectConfig, ConfigError> {
        let text = crate::input::read_text(path).map_err(|e| {
            let full = e.to_string();
            let prefix = format!("{}: ", path.display());
            ConfigError {
                path: path.to_path_buf(),
                message: full.strip_prefix(&prefix).unwrap_or(&full).to_string(),
            }
        })?;
        ProjectConfig::parse(&text, path)
    }

    /// Parse `text` as the file `path` (globs are relative to its directory).
    pub fn parse(text: &str, path: &Path) -> Result<ProjectConfig, ConfigError> {
        let err = |message: String| ConfigError {
            path: path.to_path_buf(),
            message,
        };
        let raw: Raw = toml::from_str(text).map_err(|e| err(toml_error(text, &e)))?;
        let target = raw
            .target
            .as_deref()
            .map(|s| s.parse::<Target>().map(Resolve::resolved))
            .transpose()
            .map_err(|e| err(format!("target: {e}")))?;

        let mut profile = Profile::default();
        if let Some(d) = &raw.durability {
            profile.durability = d
                .parse::<Durability>()
                .map_err(|e| err(format!("durability: {e}")))?;
        }
        if let Some(w) = &raw.workload {
            profile.workload = w
                .parse::<Workload>()
                .map_err(|e| err(format!("workload: {e}")))?;
        }
        if let Some(o) = &raw.observability {
            profile.observability = o
                .parse::<Observability>()
                .map_err(|e| err(format!("observability: {e}")))?;
        }
        profile.connections = raw.connections;
        if let Some(s) = raw.share {
            profile.share = s;
        }
        profile.validate().map_err(err)?;

        let memory = match &raw.memory {
            None => None,
            Some(toml::Value::String(s)) => {
                Some(units::parse_memory(s).map_err(|e| err(format!("memory: {e}")))?)
            }
            Some(toml::Value::Integer(n)) => {
                let why = match units::parse_memory(&n.to_string()) {
                    Err(e) => e,
                    Ok(_) => "expected a size such as \"64G\"".to_string(),
                };
                return Err(err(format!("memory: {why}")));
            }
            Some(other) => {
                return Err(err(format!(
                    "memory: expected a size such as \"64G\", found {other}"
                )));
            }
        };
        let disk = match raw.disk.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None => None,
            Some("ssd") => Some(DiskKind::Ssd),
            Some("hdd") => Some(DiskKind::Hdd),
            Some(other) => return Err(err(format!("disk: '{other}' (expected ssd or hdd)"))),
        };
        if raw.cpus == Some(0) {
            return Err(err("cpus: must be at least 1".into()));
        }
        let host = (memory.is_some() || raw.cpus.is_some() || disk.is_some()).then(|| {
            let source = format!("{}", path.display());
            HostFacts {
                source: HostSource::Described,
                // A value not given stays unknown: 0 with no source.
                memory: Memory {
                    total_bytes: memory.unwrap_or(0),
                    cgroup_limit_bytes: None,
                    effective_bytes: memory.unwrap_or(0),
                    effective_source: memory.map(|_| source.clone()).unwrap_or_default(),
                },
                cpu: Cpu {
                    logical: raw.cpus.unwrap_or(0),
                    cgroup_quota: None,
                    effective: raw.cpus.unwrap_or(0),
                    effective_source: raw.cpus.map(|_| source).unwrap_or_default(),
                },
                datadir_disk: disk.map(|kind| Disk {
                    kind,
                    ..Disk::default()
                }),
                ..HostFacts::default()
            }
        });

        let mut levels = BTreeMap::new();
        for (code, level) in &raw.severity {
            let level = match level.as_str() {
                "allow" => Level::Allow,
                "deny" | "crit" => Level::As(Severity::Crit),
                "warn" => Level::As(Severity::Warn),
                "info" => Level::As(Severity::Info),
                other => {
                    return Err(err(format!(
                        "severity.{code}: '{other}' (expected allow, info, warn or deny)"
                    )));
                }
            };
            levels.insert(check_code(code).map_err(&err)?, level);
        }
        let ignore = raw
            .ignore
            .iter()
            .map(|c| check_code(c))
            .collect::<Result<Vec<_>, _>>()
            .map_err(&err)?;
        let mut per_path = Vec::new();
        for (glob, codes) in &raw.per_path_ignores {
            let set = glob_set(std::slice::from_ref(glob))
                .map_err(|e| err(format!("per-path-ignores: {e}")))?;
            let codes = codes
                .iter()
                .map(|c| {
                    if c == "*" {
                        Ok(c.clone())
                    } else {
                        check_code(c)
                    }
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(&err)?;
            per_path.push((set, codes, glob.clone()));
        }
        let baseline = match raw.baseline.as_deref() {
            Some("") => return Err(err("baseline: an empty path".into())),
            Some(b) => Some(path.parent().unwrap_or(Path::new(".")).join(b)),
            None => None,
        };
        Ok(ProjectConfig {
            path: path.to_path_buf(),
            target,
            host,
            profile,
            levels,
            ignore,
            per_path,
            baseline,
        })
    }

    /// The directory globs are relative to.
    pub fn root(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }

    /// Is `code` ignored for a finding in `file`?
    pub fn ignores(&self, code: &str, file: &Path) -> bool {
        if self.ignore.iter().any(|c| c == code) {
            return true;
        }
        if !self
            .per_path
            .iter()
            .any(|(_, codes, _)| codes.iter().any(|c| c == "*" || c == code))
        {
            return false;
        }
        let rel = relative_to(file, self.root());
        self.per_path.iter().any(|(set, codes, _)| {
            set.is_match(&rel) && codes.iter().any(|c| c == "*" || c == code)
        })
    }
}

/// The nearest `mytune.toml` in `start`'s directory or above it.
pub fn find_upward(start: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(start).ok()?;
    let mut dir = if abs.is_dir() {
        Some(abs.as_path())
    } else {
        abs.parent()
    };
    while let Some(d) = dir {
        let candidate = d.join(FILE_NAME);
        if candidate.is_file() {
            return Some(candidate);
        }
        dir = d.parent();
    }
    None
}

/// A glob set from patterns; a pattern without `/` also matches a file name
/// at any depth (`*.bak` = `**/*.bak`).
pub fn glob_set(patterns: &[String]) -> Result<GlobSet, String> {
    let mut b = GlobSetBuilder::new();
    for p in patterns {
        let glob = |s: &str| Glob::new(s).map_err(|e| format!("glob '{p}': {e}"));
        b.add(glob(p)?);
        if !p.contains('/') {
            b.add(glob(&format!("**/{p}"))?);
        }
    }
    b.build().map_err(|e| e.to_string())
}

/// `file` relative to `root` when it is below it (both made absolute), else
/// as given.
pub fn relative_to(file: &Path, root: &Path) -> PathBuf {
    let (Ok(f), Ok(r)) = (std::path::absolute(file), std::path::absolute(root)) else {
        return file.to_path_buf();
    };
    f.strip_prefix(&r)
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| file.to_path_buf())
}

fn check_code(code: &str) -> Result<String, String> {
    crate::rules::Code::parse(code)
        .map(String::from)
        .map_err(|_| format!("'{code}' is not a rule code (expected MTxyy)"))
}

/// A TOML error with line:col.
fn toml_error(text: &str, e: &toml::de::Error) -> String {
    match e.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("{line}:{col}: {}", e.message())
        }
        None => e.message().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_file() {
        let c = ProjectConfig::parse(
            "target = \"mariadb-10.11\"\nmemory = \"64G\"\ncpus = 16\ndisk = \"SSD\"\n\
             connections = 2000\ndurability = \"relaxed\"\nignore = [\"mt006\"]\n\
             [severity]\nMT402 = \"allow\"\nMT004 = \"deny\"\n\
             [per-path-ignores]\n\"legacy/**\" = [\"MT004\"]\n\"*.bak.cnf\" = [\"*\"]\n",
            Path::new("/repo/mytune.toml"),
        )
        .unwrap();
        // A bare series means the catalog's newest release of it.
        assert_eq!(c.target.unwrap().to_string(), "mariadb-10.11.19");
        let h = c.host.as_ref().unwrap();
        assert_eq!(h.memory.effective_bytes, 64 << 30);
        assert_eq!(h.cpu.effective, 16);
        assert_eq!(h.datadir_disk.as_ref().unwrap().kind, DiskKind::Ssd);
        assert_eq!(c.profile.connections, Some(2000));
        assert_eq!(c.profile.durability, Durability::Relaxed);
        assert_eq!(c.levels["MT402"], Level::Allow);
        assert_eq!(c.levels["MT004"], Level::As(Severity::Crit));
        assert!(c.ignores("MT006", Path::new("/elsewhere/x.cnf")));
        assert!(c.ignores("MT004", Path::new("/repo/legacy/a/b.cnf")));
        assert!(!c.ignores("MT004", Path::new("/repo/new/b.cnf")));
        assert!(c.ignores("MT101", Path::new("/repo/x/old.bak.cnf")));
    }

    #[test]
    fn no_host_without_host_keys() {
        let c = ProjectConfig::parse("target = \"mysql-8.4\"\n", Path::new("mytune.toml")).unwrap();
        assert!(c.host.is_none());
    }

    #[test]
    fn errors_name_the_problem_and_place() {
        let bad = |text: &str| {
            ProjectConfig::parse(text, Path::new("m/mytune.toml"))
                .unwrap_err()
                .to_string()
        };
        let e = bad("memory = \"64Q\"\n");
        assert!(e.starts_with("m/mytune.toml: memory:"), "{e}");
        assert!(bad("target = \"oracle-19\"\n").contains("target:"));
        assert!(bad("disk = \"tape\"\n").contains("expected ssd or hdd"));
        assert!(bad("[severity]\nMT101 = \"maybe\"\n").contains("expected allow"));
        assert!(bad("ignore = [\"E501\"]\n").contains("not a rule code"));
        let e = bad("cpus = 4\nfrobnicate = 1\n");
        assert!(e.contains("2:1:") && e.contains("frobnicate"), "{e}");
        assert!(bad("share = 2.0\n").contains("share"));
        assert!(bad("[per-path-ignores]\n\"a[\" = [\"MT001\"]\n").contains("glob"));
    }
}
