//! The OS side of a committed deployment: which files are sysctl, limits or
//! systemd drop-ins, and the host facts they add up to.
//!
//! mytune does not judge kernel or limit settings here: it turns the files
//! into the `HostFacts` the collector would have read on the configured host
//! (`sysctl`, `server_process`, `systemd_limit_nofile`) and remembers the
//! line of every value, so the OS rules of the catalog decide and their
//! findings point at the line to change.

use std::collections::BTreeMap;
use std::path::Path;

use super::limits_file::{self, Item, Kind, LimitEntry};
use super::sysctl_file;
use crate::facts::SourceLocation;
use crate::facts::host::{HostFacts, Limit, ProcessLimits};

/// What kind of file a linted path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FileKind {
    OptionFile,
    Sysctl,
    Limits,
    SystemdDropIn,
}

impl FileKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::OptionFile => "option file",
            FileKind::Sysctl => "sysctl file",
            FileKind::Limits => "limits file",
            FileKind::SystemdDropIn => "systemd drop-in",
        }
    }
}

/// Recognise a file by its path (`sysctl.conf`, `sysctl.d/*.conf`,
/// `limits.conf`, `limits.d/*.conf`, `*.service.d/*.conf`, `*.cnf`), else by
/// its content; anything else is an option file.
pub fn classify(path: &Path, text: &str) -> FileKind {
    if let Some(kind) = classify_path(path) {
        return kind;
    }
    if sysctl_file::looks_like(text) {
        FileKind::Sysctl
    } else if limits_file::looks_like_limits(text) {
        FileKind::Limits
    } else if limits_file::looks_like_unit(text) {
        FileKind::SystemdDropIn
    } else {
        FileKind::OptionFile
    }
}

/// The kind a path names by itself, when it does.
pub fn classify_path(path: &Path) -> Option<FileKind> {
    let name = path.file_name()?.to_str()?;
    let parent = path
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|p| p.to_str())
        .unwrap_or("");
    let conf = name.ends_with(".conf");
    if parent.ends_with(".service.d") && conf {
        Some(FileKind::SystemdDropIn)
    } else if name == "sysctl.conf" || (parent == "sysctl.d" && conf) {
        Some(FileKind::Sysctl)
    } else if name == "limits.conf" || (parent == "limits.d" && conf) {
        Some(FileKind::Limits)
    } else if name.ends_with(".cnf") || name == "my.cnf" {
        Some(FileKind::OptionFile)
    } else {
        None
    }
}

/// A problem in a system file (not a finding of a rule).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemFileError {
    pub location: SourceLocation,
    pub message: String,
}

/// The system files of one deployment, merged in reading order.
#[derive(Debug, Clone, Default)]
pub struct SystemFiles {
    /// Dotted name → (value, where the winning line is).
    pub sysctl: BTreeMap<String, (String, SourceLocation)>,
    limits: Vec<LimitEntry>,
    pub errors: Vec<SystemFileError>,
}

impl SystemFiles {
    pub fn is_empty(&self) -> bool {
        self.sysctl.is_empty() && self.limits.is_empty()
    }

    /// Add one file (later files win, as in the order given).
    pub fn add(&mut self, kind: FileKind, text: &str, path: &Path) {
        match kind {
            FileKind::Sysctl => {
                let (entries, errors) = sysctl_file::parse(text, path);
                for e in entries {
                    self.sysctl.insert(e.key, (e.value, e.location));
                }
                self.errors
                    .extend(errors.into_iter().map(|e| SystemFileError {
                        location: e.location,
                        message: e.message,
                    }));
            }
            FileKind::Limits | FileKind::SystemdDropIn => {
                let (entries, errors) = if kind == FileKind::Limits {
                    limits_file::parse_limits_conf(text, path)
                } else {
                    limits_file::parse_dropin(text, path)
                };
                self.limits.extend(entries);
                self.errors
                    .extend(errors.into_iter().map(|e| SystemFileError {
                        location: e.location,
                        message: e.message,
                    }));
            }
            FileKind::OptionFile => {}
        }
    }

    /// The winning entry for one limit: the most specific domain, then the
    /// last one read.
    fn limit(&self, item: Item, soft: bool) -> Option<&LimitEntry> {
        self.limits
            .iter()
            .filter(|e| {
                e.item == item
                    && match e.kind {
                        Kind::Both => true,
                        Kind::Soft => soft,
                        Kind::Hard => !soft,
                    }
            })
            .fold(None, |best: Option<&LimitEntry>, e| match best {
                Some(b) if b.rank > e.rank => Some(b),
                _ => Some(e),
            })
    }

    /// Where the value of a limit was set (soft first).
    pub fn limit_location(&self, item: Item) -> Option<&SourceLocation> {
        self.limit(item, true)
            .or_else(|| self.limit(item, false))
            .map(|e| &e.location)
    }

    /// Put these facts into `host` (file values replace collected ones).
    pub fn apply(&self, host: &mut HostFacts) {
        for (k, (v, _)) in &self.sysctl {
            host.sysctl.insert(k.clone(), v.clone());
        }
        let get = |item, soft| self.limit(item, soft).map(|e| e.value);
        let nofile_soft = get(Item::Nofile, true);
        let nofile_hard = get(Item::Nofile, false);
        let nproc_soft = get(Item::Nproc, true);
        let nproc_hard = get(Item::Nproc, false);
        if [nofile_soft, nofile_hard, nproc_soft, nproc_hard]
            .iter()
            .any(Option::is_some)
        {
            host.server_process = Some(ProcessLimits {
                pid: 0,
                name: "server (as configured)".into(),
                nofile_soft,
                nofile_hard,
                nproc_soft,
                nproc_hard,
            });
        }
        let systemd: Option<Limit> = self
            .limits
            .iter()
            .rfind(|e| e.rank == 4 && e.item == Item::Nofile && e.kind == Kind::Soft)
            .map(|e| e.value);
        if systemd.is_some() {
            host.systemd_limit_nofile = systemd;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_by_path_then_content() {
        let k = |p: &str, t: &str| classify(Path::new(p), t);
        assert_eq!(k("etc/sysctl.conf", ""), FileKind::Sysctl);
        assert_eq!(k("etc/sysctl.d/90-db.conf", ""), FileKind::Sysctl);
        assert_eq!(k("etc/security/limits.conf", ""), FileKind::Limits);
        assert_eq!(k("etc/security/limits.d/mysql.conf", ""), FileKind::Limits);
        assert_eq!(
            k("etc/systemd/system/mysqld.service.d/override.conf", ""),
            FileKind::SystemdDropIn
        );
        assert_eq!(
            k("mysqld.service.d/limits.conf", "[Service]"),
            FileKind::SystemdDropIn
        );
        assert_eq!(k("x/my.cnf", "net.core.somaxconn=1"), FileKind::OptionFile);
        assert_eq!(
            k("seed-sysctl.conf", "net.core.somaxconn=1"),
            FileKind::Sysctl
        );
        assert_eq!(k("seed-limits.conf", "* soft nofile 1"), FileKind::Limits);
        assert_eq!(
            k("unit.conf", "[Service]\nLimitNOFILE=1"),
            FileKind::SystemdDropIn
        );
        assert_eq!(k("server.conf", "[mysqld]\n"), FileKind::OptionFile);
    }

    #[test]
    fn limits_precedence_and_dropin() {
        let mut s = SystemFiles::default();
        s.add(
            FileKind::Limits,
            "* soft nofile 1000\n* hard nofile 2000\nmysql soft nofile 1500\n",
            Path::new("limits.conf"),
        );
        let mut h = HostFacts::default();
        s.apply(&mut h);
        let p = h.server_process.clone().unwrap();
        assert_eq!(p.nofile_soft, Some(Limit::Value(1500)));
        assert_eq!(p.nofile_hard, Some(Limit::Value(2000)));
        assert_eq!(s.limit_location(Item::Nofile).unwrap().line, 3);
        assert!(h.systemd_limit_nofile.is_none());

        s.add(
            FileKind::SystemdDropIn,
            "[Service]\nLimitNOFILE=65535\n",
            Path::new("mysqld.service.d/limits.conf"),
        );
        s.add(
            FileKind::Sysctl,
            "net.core.somaxconn = 128\n",
            Path::new("sysctl.conf"),
        );
        let mut h = HostFacts::default();
        s.apply(&mut h);
        let p = h.server_process.unwrap();
        assert_eq!(p.nofile_soft, Some(Limit::Value(65535)));
        assert_eq!(p.nofile_hard, Some(Limit::Value(65535)));
        assert_eq!(h.systemd_limit_nofile, Some(Limit::Value(65535)));
        assert_eq!(h.sysctl["net.core.somaxconn"], "128");
    }
}
