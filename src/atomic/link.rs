//! The one rule for symbolic links at an output's path, and who may be
//! trusted in a shared directory.
//!
//! A link at the destination is followed, as shell redirection (`>`) and an
//! editor follow it: its target is the file written, in the target's own
//! directory, and the link stays. Replacing the link instead would quietly
//! detach a configuration managed through links (`/etc/mysql/my.cnf` →
//! `/etc/alternatives/my.cnf`), and the server would never see the change.
//!
//! Following a link is what makes `/tmp` dangerous: another user can plant
//! `/tmp/report.txt` → `/etc/shadow` for root to write through. The kernel's
//! `fs.protected_symlinks` and `fs.protected_regular` (proc(5): "/proc/sys/fs")
//! refuse exactly that, and mytune applies the same rule itself (renaming a
//! temporary file would not pass through the kernel's check): in a sticky,
//! world-writable directory, a link or an existing file that belongs neither
//! to the user running mytune nor to the directory's owner is refused.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// At most this many links in a chain, as the kernel's own limit (40).
const MAX_HOPS: usize = 40;

/// Why a path is not written through.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error(
        "{} is a symbolic link owned by {owner} in {}, a directory anyone may write to (sticky): \
         mytune does not follow it, as the kernel's fs.protected_symlinks would not; \
         write to the link's target directly",
        link.display(),
        dir.display()
    )]
    Untrusted {
        link: PathBuf,
        dir: PathBuf,
        owner: String,
    },
    #[error(
        "{} belongs to {owner} in {}, a directory anyone may write to (sticky): \
         mytune does not write into another user's file there, as the kernel's \
         fs.protected_regular would not",
        file.display(),
        dir.display()
    )]
    ForeignFile {
        file: PathBuf,
        dir: PathBuf,
        owner: String,
    },
    #[error("{}: more than {MAX_HOPS} symbolic links in a chain (a loop?)", path.display())]
    Loop { path: PathBuf },
    #[error("cannot read the symbolic link {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The directory an entry `path` lives in (`.` for a bare name).
pub fn dir_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Follow the links at `path` (each checked against the sticky-directory
/// rule) to the file to write; returns it, and whether a link was followed.
pub fn resolve(path: &Path) -> Result<(PathBuf, bool), LinkError> {
    let mut at = path.to_path_buf();
    let mut followed = false;
    for _ in 0..MAX_HOPS {
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let dir = dir_of(&at);
                if !trusted_in(&dir, &m) {
                    return Err(LinkError::Untrusted {
                        link: at.clone(),
                        dir,
                        owner: user_name(m.uid()),
                    });
                }
                let to = fs::read_link(&at).map_err(|source| LinkError::Read {
                    path: at.clone(),
                    source,
                })?;
                at = if to.is_absolute() { to } else { dir.join(to) };
                followed = true;
            }
            Ok(m) => {
                let dir = dir_of(&at);
                if !trusted_in(&dir, &m) {
                    return Err(LinkError::ForeignFile {
                        file: at.clone(),
                        dir,
                        owner: user_name(m.uid()),
                    });
                }
                return Ok((at, followed));
            }
            // Not there (yet): the file to create.
            Err(_) => return Ok((at, followed)),
        }
    }
    Err(LinkError::Loop {
        path: path.to_path_buf(),
    })
}

/// May an entry with metadata `m` in `dir` be followed or written into?
/// Everywhere but in a sticky world-writable directory; there only when it
/// belongs to this process's user or to the directory's owner.
fn trusted_in(dir: &Path, m: &fs::Metadata) -> bool {
    let Ok(d) = fs::metadata(dir) else {
        return true;
    };
    let shared = d.mode() & 0o1002 == 0o1002;
    let me = rustix::process::geteuid().as_raw();
    !shared || m.uid() == me || m.uid() == d.uid()
}

/// `NAME (uid N)` from /etc/passwd, or `uid N`.
pub fn user_name(uid: u32) -> String {
    named("/etc/passwd", uid).map_or_else(|| format!("uid {uid}"), |n| format!("{n} (uid {uid})"))
}

/// `NAME (gid N)` from /etc/group, or `gid N`.
pub fn group_name(gid: u32) -> String {
    named("/etc/group", gid).map_or_else(|| format!("gid {gid}"), |n| format!("{n} (gid {gid})"))
}

/// The name of `id` in a passwd(5)/group(5) style file (name:x:id:...).
fn named(file: &str, id: u32) -> Option<String> {
    let text = fs::read_to_string(file).ok()?;
    text.lines().find_map(|l| {
        let mut f = l.split(':');
        let name = f.next()?;
        let n: u32 = f.nth(1)?.parse().ok()?;
        (n == id).then(|| name.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_of_links_resolves_to_its_last_target() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real.cnf");
        fs::write(&real, "x").unwrap();
        std::os::unix::fs::symlink("real.cnf", d.path().join("a")).unwrap();
        std::os::unix::fs::symlink(d.path().join("a"), d.path().join("b")).unwrap();
        let (to, followed) = resolve(&d.path().join("b")).unwrap();
        assert!(followed);
        assert_eq!(
            fs::canonicalize(to).unwrap(),
            fs::canonicalize(&real).unwrap()
        );
    }

    #[test]
    fn a_link_loop_is_an_error_not_a_hang() {
        let d = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("b", d.path().join("a")).unwrap();
        std::os::unix::fs::symlink("a", d.path().join("b")).unwrap();
        let e = resolve(&d.path().join("a")).unwrap_err();
        assert!(matches!(e, LinkError::Loop { .. }), "{e}");
    }

    #[test]
    fn a_dangling_link_names_the_file_to_create() {
        let d = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("new.cnf", d.path().join("out")).unwrap();
        let (to, followed) = resolve(&d.path().join("out")).unwrap();
        assert!(followed);
        assert_eq!(to, d.path().join("new.cnf"));
    }
}
