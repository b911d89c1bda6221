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

/// Expand `paths` into files, in a stable order (as given; directory
/// contents sorted). Missing paths are errors.
pub fn files(paths: &[PathBuf], exclude: &GlobSet) -> (Vec<PathBuf>, Vec<WalkError>) {
    let mut seen = Seen::default();
    for p in paths {
        if p.is_dir() {
            walk(p, exclude, &mut seen);
        } else if !excluded(p, exclude) {
            seen.add(p.clone());
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
