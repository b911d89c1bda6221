//! Where `lint --write-baseline FILE` may write.
//!
//! The baseline replaces FILE whole. Given an option file by mistake
//! (`--write-baseline my.cnf my.cnf`, or a link to one) it would silently
//! destroy the configuration it was meant to describe, so FILE is refused
//! when it is, after following links and hard links, one of the files the
//! run lints or a file they include, or when it exists and is not a
//! baseline: an option file (a `[group]` header) or anything else that
//! `--baseline` could not read back. A baseline written earlier is
//! replaced, as a baseline is meant to be.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::baseline::Baseline;
use super::system::FileKind;

/// Why the baseline is not written at a path; nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum DestinationError {
    #[error(
        "--write-baseline {}: that is {}, a file this run lints{}; the baseline would replace it. \
         Give the baseline a file of its own (e.g. .mytune-baseline)",
        dest.display(),
        input.display(),
        if *included { " (through an !include)" } else { "" }
    )]
    Input {
        dest: PathBuf,
        input: PathBuf,
        included: bool,
    },
    #[error(
        "--write-baseline {}: it is an option file ({group} on line {line}); the baseline would \
         replace it. Give the baseline a file of its own (e.g. .mytune-baseline)",
        dest.display()
    )]
    OptionFile {
        dest: PathBuf,
        group: String,
        line: usize,
    },
    #[error(
        "--write-baseline {}: it exists and is not a mytune baseline ({why}); the baseline would \
         replace it. Remove it first or give another path",
        dest.display()
    )]
    NotABaseline { dest: PathBuf, why: String },
}

/// (device, inode) of the file at `p`, links followed.
fn identity(p: &Path) -> Option<(u64, u64)> {
    fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
}

/// Check that writing the baseline at `dest` replaces none of `linted`
/// (with the files their option files include) and no file that is not a
/// baseline.
pub fn check(dest: &Path, linted: &[(PathBuf, FileKind)]) -> Result<(), DestinationError> {
    // Nothing there (a dangling link included): nothing to replace.
    let Some(id) = identity(dest) else {
        return Ok(());
    };
    if !fs::metadata(dest).is_ok_and(|m| m.is_file()) {
        // A directory or device: the writer refuses it with its reason.
        return Ok(());
    }
    for (path, kind) in linted {
        let mut files = vec![(path.clone(), false)];
        if *kind == FileKind::OptionFile
            && let Ok(text) = crate::input::read_text(path)
        {
            let loaded = crate::cnf::load_str(&text, path);
            files.extend(loaded.files.into_iter().skip(1).map(|f| (f, true)));
        }
        if let Some((input, included)) = files.into_iter().find(|(f, _)| identity(f) == Some(id)) {
            return Err(DestinationError::Input {
                dest: dest.to_path_buf(),
                input,
                included,
            });
        }
    }
    let text = crate::input::read_text(dest).map_err(|e| DestinationError::NotABaseline {
        dest: dest.to_path_buf(),
        why: e.to_string(),
    })?;
    if let Some((i, line)) = text.lines().enumerate().find(|(_, l)| {
        let t = l.trim();
        t.starts_with('[') && t.contains(']')
    }) {
        let t = line.trim();
        return Err(DestinationError::OptionFile {
            dest: dest.to_path_buf(),
            group: t[..=t.find(']').unwrap_or(t.len() - 1)].to_string(),
            line: i + 1,
        });
    }
    Baseline::parse(&text, dest).map_err(|e| DestinationError::NotABaseline {
        dest: dest.to_path_buf(),
        why: format!("line {}: {}", e.line, e.message),
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_earlier_baseline_may_be_replaced_and_an_option_file_not() {
        let d = tempfile::tempdir().unwrap();
        let old = d.path().join("baseline.txt");
        fs::write(
            &old,
            "# mytune lint baseline\nMT004\tmy.cnf\t5f0c1d2a9e8b7c63\tx\n",
        )
        .unwrap();
        assert!(check(&old, &[]).is_ok());
        let cnf = d.path().join("other.txt");
        fs::write(&cnf, "# mine\n[mysqld]\nmax_connections = 10\n").unwrap();
        let e = check(&cnf, &[]).unwrap_err();
        assert!(
            matches!(&e, DestinationError::OptionFile { line: 2, group, .. } if group == "[mysqld]"),
            "{e}"
        );
        assert!(check(&d.path().join("new.txt"), &[]).is_ok());
    }

    #[test]
    fn an_included_file_is_refused_through_its_link() {
        let d = tempfile::tempdir().unwrap();
        let top = d.path().join("my.cnf");
        let inc = d.path().join("inc.cnf");
        fs::write(&top, format!("[mysqld]\n!include {}\n", inc.display())).unwrap();
        fs::write(&inc, "").unwrap();
        let link = d.path().join("baseline");
        std::os::unix::fs::symlink(&inc, &link).unwrap();
        let e = check(&link, &[(top, FileKind::OptionFile)]).unwrap_err();
        assert!(
            matches!(&e, DestinationError::Input { included: true, .. }),
            "{e}"
        );
    }
}
