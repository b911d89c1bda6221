//! Which files a `mytune lint PATH...` run looks at: files given are taken
//! as they are, directories are walked for the files a MySQL deployment
//! commits (`*.cnf`, `my.cnf`, `sysctl.conf`, `sysctl.d/*.conf`,
//! `limits.conf`, `limits.d/*.conf`, `*.service.d/*.conf`), skipping hidden
//! directories (`.git`). `--exclude` globs apply to both.
//!
//! Each directory and each file is taken once, by device and inode, so a
//! symbolic-link loop (`ln -s . self`) ends the walk instead of repeating it,
//! and a walk stops with an error after [`MAX_WALK_FILES`] files.

use std::collections::HashSet;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use globset::GlobSet;

use super::system::classify_path;

/// A path that could not be listed.
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct WalkError {
    pub path: PathBuf,
    pub message: String,
}

/// The most files one run lints.
pub const MAX_WALK_FILES: usize = 10_000;

/// A file or directory's identity: device and inode.
type Id = (u64, u64);

fn id(p: &Path) -> Option<Id> {
    std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
}

/// What a walk has seen.
#[derive(Default)]
struct Seen {
    dirs: HashSet<Id>,
    files: HashSet<Id>,
    out: Vec<PathBuf>,
    errors: Vec<WalkError>,
    full: bool,
}

impl Seen {
    /// Take `p` unless the same file was taken already (or the budget is spent).
    fn add(&mut self, p: PathBuf) {
        if self.full {
            return;
        }
        if let Some(i) = id(&p)
            && !self.files.insert(i)
        {
            return;
        }
        if self.out.len() >= MAX_WALK_FILES {
            self.full = true;
            self.errors.push(WalkError {
                path: p,
                message: format!("more than {MAX_WALK_FILES} files to lint; stopped here"),
            });
            return;
        }
        self.out.push(p);
    }
}

/// What a directory walk looks for, for "nothing to lint" messages.
pub const LOOKED_FOR: &str =
    "*.cnf, my.cnf, sysctl.conf, sysctl.d/*.conf, limits.conf, limits.d/*.conf, *.service.d/*.conf";

/// Expand `paths` into files, in a stable order (as given; directory
/// contents sorted). Missing paths, and directories with no file to lint
/// in them, are errors: a wrong path must not pass as a clean run.
pub fn files(paths: &[PathBuf], exclude: &GlobSet) -> (Vec<PathBuf>, Vec<WalkError>) {
    let mut seen = Seen::default();
    for p in paths {
        match std::fs::metadata(p) {
            Err(e) => seen.errors.push(WalkError {
                path: p.clone(),
                message: match e.kind() {
                    std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
                    std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
                    _ => format!("cannot read: {e}"),
                },
            }),
            Ok(m) if m.is_dir() => {
                let before = seen.out.len();
                let errors_before = seen.errors.len();
                walk(p, exclude, &mut seen);
                if seen.out.len() == before && seen.errors.len() == errors_before {
                    seen.errors.push(WalkError {
                        path: p.clone(),
                        message: format!(
                            "no file to lint in this directory (looked for {LOOKED_FOR}, minus --exclude)"
                        ),
                    });
                }
            }
            Ok(_) if !excluded(p, exclude) => seen.add(p.clone()),
            Ok(_) => {}
        }
    }
    (seen.out, seen.errors)
}

fn excluded(p: &Path, exclude: &GlobSet) -> bool {
    let s = p.to_string_lossy();
    let s = s.strip_prefix("./").unwrap_or(&s);
    exclude.is_match(s)
}

fn walk(dir: &Path, exclude: &GlobSet, seen: &mut Seen) {
    // A directory seen before (a symbolic-link loop, or two links to one
    // directory) is not walked again.
    if seen.full || id(dir).is_some_and(|i| !seen.dirs.insert(i)) {
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            seen.errors.push(WalkError {
                path: dir.to_path_buf(),
                message: format!("cannot list: {e}"),
            });
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        let hidden = p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'));
        if hidden || excluded(&p, exclude) {
            continue;
        }
        if p.is_dir() {
            walk(&p, exclude, seen);
        } else if classify_path(&p).is_some() {
            seen.add(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::config::glob_set;

    #[test]
    fn missing_paths_and_empty_directories_are_errors() {
        let d = tempfile::tempdir().unwrap();
        let empty = d.path().join("empty");
        std::fs::create_dir_all(empty.join("sub")).unwrap();
        std::fs::write(empty.join("README.md"), "").unwrap();
        let missing = d.path().join("nonexistent.cnf");
        let (files, errors) = files(&[empty.clone(), missing.clone()], &GlobSet::empty());
        assert!(files.is_empty());
        let msgs: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        assert!(
            msgs[0].starts_with(&empty.display().to_string()),
            "{msgs:?}"
        );
        assert!(msgs[0].contains("no file to lint"), "{msgs:?}");
        assert_eq!(
            msgs[1],
            format!("{}: no such file or directory", missing.display())
        );
    }

    #[test]
    fn walks_known_names_and_excludes() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        for f in [
            "my.cnf",
            "conf.d/a.cnf",
            "sysctl.d/90-db.conf",
            "security/limits.d/mysql.conf",
            "mysqld.service.d/override.conf",
            "other.conf",
            "README.md",
            ".git/x.cnf",
            "legacy/old.cnf",
        ] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "").unwrap();
        }
        let ex = glob_set(&["**/legacy/**".to_string()]).unwrap();
        let (files, errors) = files(&[root.to_path_buf()], &ex);
        assert!(errors.is_empty());
        let rel: Vec<String> = files
            .iter()
            .map(|p| p.strip_prefix(root).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            rel,
            [
                "conf.d/a.cnf",
                "my.cnf",
                "mysqld.service.d/override.conf",
                "security/limits.d/mysql.conf",
                "sysctl.d/90-db.conf"
            ]
        );
    }
}
