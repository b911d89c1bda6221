//! Which files a `mytune lint PATH...` run looks at: files given are taken
//! as they are, directories are walked for the files a MySQL deployment
//! commits (`*.cnf`, `my.cnf`, `sysctl.conf`, `sysctl.d/*.conf`,
//! `limits.conf`, `limits.d/*.conf`, `*.service.d/*.conf`), skipping hidden
//! directories (`.git`). `--exclude` globs apply to both.

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

/// Expand `paths` into files, in a stable order (as given; directory
/// contents sorted). Missing paths are errors.
pub fn files(paths: &[PathBuf], exclude: &GlobSet) -> (Vec<PathBuf>, Vec<WalkError>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, exclude, &mut out, &mut errors);
        } else if !excluded(p, exclude) {
            out.push(p.clone());
        }
    }
    (out, errors)
}

fn excluded(p: &Path, exclude: &GlobSet) -> bool {
    let s = p.to_string_lossy();
    let s = s.strip_prefix("./").unwrap_or(&s);
    exclude.is_match(s)
}

fn walk(dir: &Path, exclude: &GlobSet, out: &mut Vec<PathBuf>, errors: &mut Vec<WalkError>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(WalkError {
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
            walk(&p, exclude, out, errors);
        } else if classify_path(&p).is_some() {
            out.push(p);
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
