//! Writing output files so that a failure never loses the old one, and the
//! reader of the file (mariadbd running as `mysql`, systemd, the kernel's
//! sysctl loader) can still read the new one.
//!
//! Every file mytune writes goes through here, under one set of rules:
//!
//! - The text goes to a temporary file in the destination's directory, is
//!   flushed to disk, and is renamed over the destination, so a full disk or
//!   a crash leaves either the old file or the new one, never a mix.
//! - A file that is **replaced** keeps its owner, group and mode: they are
//!   set on the temporary file (fchown, fchmod) before the rename. A file
//!   whose owner cannot be given back (mytune is not root and the file is
//!   someone else's), a file with more than one hard link (the rename would
//!   split them), or a directory that cannot be written is refused: the
//!   file is left untouched and no temporary file is left behind.
//! - A **new** file gets its mode from a typed choice, [`Perms`]: files
//!   other programs read get 0644 less the umask, files holding account or
//!   server data get 0600.
//! - A symbolic link at the destination is followed (see [`link`]).
//!
//! [`write_all`] stages every file before renaming any, so a run that
//! writes several files refuses them all or writes them all.

pub mod link;

use std::fs;
use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

pub use link::LinkError;

/// The mode of a file mytune creates (a file it replaces keeps its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Perms {
    /// Read by the server or the system (option, sysctl and limits files,
    /// unit drop-ins, lint baselines): 0644, less the umask.
    Shared,
    /// Holds account or server data (reports, snapshots): 0600.
    Private,
}

impl Perms {
    /// The mode a new file is created with (the kernel applies the umask).
    pub fn new_file_mode(self) -> u32 {
        match self {
            Perms::Shared => 0o644,
            Perms::Private => 0o600,
        }
    }
}

/// Whether to keep the file being replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backup {
    None,
    /// Keep an existing regular file as `NAME.bak` (replacing an older one).
    Keep,
}

/// What a write did besides writing, for the caller to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The file written: the path given, or the target of the link there.
    pub file: PathBuf,
    /// The path given was a symbolic link, kept; `file` is its target.
    pub followed_link: bool,
    /// The existing file was kept here.
    pub backup: Option<PathBuf>,
}

/// Why a file was not written.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error(
        "it has {links} hard links, and replacing it would split them (the other names would keep the \
         old text); remove the other links or edit it in place yourself"
    )]
    HardLinks { links: u64 },
    #[error(
        "it belongs to {owner}, group {group}, and mytune, running as {me}, cannot give the new \
         file that owner (see chown(2)); run it as root or as the file's owner"
    )]
    Owner {
        owner: String,
        group: String,
        me: String,
    },
    #[error(
        "its directory {} cannot be written ({source}); mytune replaces a file by renaming a new \
         one over it, so it needs to write the directory",
        dir.display()
    )]
    Directory {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("it is a directory")]
    IsDirectory,
    #[error("it is not a regular file (a device, socket or pipe); give a regular file's path")]
    Special,
    #[error("it changed while mytune was writing it; run again")]
    Changed,
    #[error(transparent)]
    Link(#[from] LinkError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// A write that did not happen; the destination is unchanged.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}{}: {reason} (nothing was changed)", path.display(), via.as_ref().map(|l| format!(" (the target of the symbolic link {})", l.display())).unwrap_or_default())]
pub struct WriteError {
    /// The file that was to be written.
    pub path: PathBuf,
    /// The symbolic link given, when `path` is its target.
    pub via: Option<PathBuf>,
    /// Boxed: results stay small on the path that succeeds.
    pub reason: Box<Refusal>,
}

/// A file written to its temporary name, ready to be renamed into place.
#[derive(Debug)]
pub struct Staged {
    /// The path given.
    given: PathBuf,
    /// The file to replace or create (links followed).
    dest: PathBuf,
    followed: bool,
    /// (device, inode) of the file replaced, to see it is still the same.
    before: Option<(u64, u64)>,
    tmp: tempfile::NamedTempFile,
    backup: Backup,
}

/// Write `bytes` at `path` atomically: see the module documentation.
pub fn write(
    path: &Path,
    bytes: &[u8],
    perms: Perms,
    backup: Backup,
) -> Result<Written, WriteError> {
    stage(path, bytes, perms, backup)?.commit()
}

/// Write several files: each is staged before any is renamed into place, so
/// a file that cannot be written leaves all of them as they were.
pub fn write_all(
    files: &[(&Path, &[u8])],
    perms: Perms,
    backup: Backup,
) -> Result<Vec<Written>, WriteError> {
    let staged = files
        .iter()
        .map(|(p, b)| stage(p, b, perms, backup))
        .collect::<Result<Vec<_>, _>>()?;
    staged.into_iter().map(Staged::commit).collect()
}

/// Check `path` can be replaced or created as [`write`] would, and write
/// `bytes` to a temporary file beside it with the final owner and mode.
pub fn stage(
    path: &Path,
    bytes: &[u8],
    perms: Perms,
    backup: Backup,
) -> Result<Staged, WriteError> {
    let refuse = |dest: &Path, followed: bool, reason: Refusal| WriteError {
        path: dest.to_path_buf(),
        via: followed.then(|| path.to_path_buf()),
        reason: Box::new(reason),
    };
    let (dest, followed) = link::resolve(path).map_err(|e| refuse(path, false, e.into()))?;
    let fail = |reason: Refusal| refuse(&dest, followed, reason);
    let existing = match fs::symlink_metadata(&dest) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(fail(e.into())),
    };
    if let Some(m) = &existing {
        if m.is_dir() {
            return Err(fail(Refusal::IsDirectory));
        }
        if !m.is_file() {
            return Err(fail(Refusal::Special));
        }
        if m.nlink() > 1 {
            return Err(fail(Refusal::HardLinks { links: m.nlink() }));
        }
    }
    let Some(name) = dest.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Err(fail(Refusal::IsDirectory));
    };
    let dir = link::dir_of(&dest);
    // A file replaced gets its own mode below; until then it is private.
    let mode = match existing {
        Some(_) => 0o600,
        None => perms.new_file_mode(),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .permissions(fs::Permissions::from_mode(mode))
        .tempfile_in(&dir)
        .map_err(|source| {
            fail(match source.kind() {
                std::io::ErrorKind::PermissionDenied
                | std::io::ErrorKind::ReadOnlyFilesystem
                | std::io::ErrorKind::NotFound => Refusal::Directory {
                    dir: dir.clone(),
                    source,
                },
                _ => Refusal::Io(source),
            })
        })?;
    if let Some(m) = &existing {
        keep_owner_and_mode(tmp.as_file(), m).map_err(fail)?;
    }
    tmp.write_all(bytes).map_err(|e| fail(e.into()))?;
    tmp.as_file().sync_all().map_err(|e| fail(e.into()))?;
    Ok(Staged {
        given: path.to_path_buf(),
        before: existing.map(|m| (m.dev(), m.ino())),
        dest,
        followed,
        tmp,
        backup,
    })
}

impl Staged {
    /// Add `bytes` to the staged file (output written as it is made, such
    /// as one line per server of a fleet); [`Staged::commit`] makes it
    /// durable and puts it in place.
    pub fn append(&mut self, bytes: &[u8]) -> Result<(), WriteError> {
        self.tmp.write_all(bytes).map_err(|e| WriteError {
            path: self.dest.clone(),
            via: self.followed.then(|| self.given.clone()),
            reason: Box::new(e.into()),
        })
    }
}

/// Give the temporary file `tmp` the owner, group and mode of `old`.
fn keep_owner_and_mode(tmp: &fs::File, old: &fs::Metadata) -> Result<(), Refusal> {
    let mine = tmp.metadata()?;
    if (mine.uid(), mine.gid()) != (old.uid(), old.gid()) {
        std::os::unix::fs::fchown(tmp, Some(old.uid()), Some(old.gid())).map_err(|e| {
            if e.kind() == std::io::ErrorKind::PermissionDenied {
                Refusal::Owner {
                    owner: link::user_name(old.uid()),
                    group: link::group_name(old.gid()),
                    me: link::user_name(mine.uid()),
                }
            } else {
                Refusal::Io(e)
            }
        })?;
    }
    // After chown, which clears set-user-ID and set-group-ID bits.
    tmp.set_permissions(fs::Permissions::from_mode(old.mode() & 0o7777))?;
    Ok(())
}

impl Staged {
    /// Rename the staged file into place (keeping the old one as `.bak`
    /// first when asked), and make the rename durable.
    pub fn commit(self) -> Result<Written, WriteError> {
        let fail = |reason: Refusal| WriteError {
            path: self.dest.clone(),
            via: self.followed.then(|| self.given.clone()),
            reason: Box::new(reason),
        };
        let now = fs::symlink_metadata(&self.dest)
            .ok()
            .map(|m| (m.dev(), m.ino()));
        if now != self.before {
            return Err(fail(Refusal::Changed));
        }
        // What was appended after staging.
        self.tmp.as_file().sync_all().map_err(|e| fail(e.into()))?;
        let mut backup = None;
        if self.backup == Backup::Keep && self.before.is_some() {
            let bak = PathBuf::from(format!("{}.bak", self.dest.display()));
            // A hard link keeps the old inode (owner and mode included) under
            // the new name at no cost; a copy where links are not possible.
            let _ = fs::remove_file(&bak);
            fs::hard_link(&self.dest, &bak)
                .or_else(|_| fs::copy(&self.dest, &bak).map(|_| ()))
                .map_err(|e| fail(e.into()))?;
            backup = Some(bak);
        }
        self.tmp
            .persist(&self.dest)
            .map_err(|e| fail(e.error.into()))?;
        if let Ok(d) = fs::File::open(link::dir_of(&self.dest)) {
            let _ = d.sync_all();
        }
        Ok(Written {
            file: self.dest,
            followed_link: self.followed,
            backup,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(p: &Path) -> u32 {
        fs::metadata(p).unwrap().permissions().mode() & 0o7777
    }

    fn names(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_symlink_is_followed_and_kept() {
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("real.cnf");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        let link = d.path().join("out.cnf");
        std::os::unix::fs::symlink("real.cnf", &link).unwrap();
        let w = write(&link, b"new", Perms::Private, Backup::None).unwrap();
        assert!(w.followed_link);
        assert_eq!(w.file, d.path().join("real.cnf"));
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(mode(&target), 0o640);
    }

    #[test]
    fn a_replaced_file_keeps_its_mode_and_a_new_one_gets_the_chosen_mode() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("kept.cnf");
        fs::write(&p, "old").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o604)).unwrap();
        write(&p, b"new", Perms::Private, Backup::None).unwrap();
        assert_eq!(mode(&p), 0o604);
        let private = d.path().join("report.txt");
        write(&private, b"x", Perms::Private, Backup::None).unwrap();
        assert_eq!(mode(&private), 0o600);
    }

    #[test]
    fn a_hard_linked_file_is_refused_and_left_alone() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a.cnf");
        fs::write(&p, "old").unwrap();
        fs::hard_link(&p, d.path().join("b.cnf")).unwrap();
        let e = write(&p, b"new", Perms::Shared, Backup::None).unwrap_err();
        assert!(matches!(*e.reason, Refusal::HardLinks { links: 2 }), "{e}");
        assert_eq!(fs::read_to_string(&p).unwrap(), "old");
        assert_eq!(names(d.path()), ["a.cnf", "b.cnf"]);
    }

    #[test]
    fn one_refused_file_stops_every_file_of_the_run() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a.cnf");
        let b = d.path().join("b.cnf");
        fs::write(&a, "a").unwrap();
        fs::write(&b, "b").unwrap();
        fs::hard_link(&b, d.path().join("c.cnf")).unwrap();
        let files: [(&Path, &[u8]); 2] = [(&a, b"A"), (&b, b"B")];
        assert!(write_all(&files, Perms::Shared, Backup::None).is_err());
        assert_eq!(fs::read_to_string(&a).unwrap(), "a");
        assert_eq!(names(d.path()), ["a.cnf", "b.cnf", "c.cnf"]);
    }

    #[test]
    fn an_existing_file_is_kept_as_bak() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("limits.conf");
        fs::write(&p, "hand edited").unwrap();
        let w = write(&p, b"generated", Perms::Shared, Backup::Keep).unwrap();
        let bak = d.path().join("limits.conf.bak");
        assert_eq!(w.backup.as_deref(), Some(bak.as_path()));
        assert_eq!(fs::read_to_string(&bak).unwrap(), "hand edited");
        assert_eq!(fs::read_to_string(&p).unwrap(), "generated");
        // No temporary file is left behind.
        assert_eq!(names(d.path()), ["limits.conf", "limits.conf.bak"]);
    }
}
