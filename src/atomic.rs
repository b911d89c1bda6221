//! Writing output files so that a failure never loses the old one.
//!
//! The text goes to a temporary file in the destination's directory, is
//! flushed to disk, and is renamed over the destination (`tempfile`'s
//! `persist`), so a full disk or a crash leaves either the old file or the
//! new one, never a truncated mix. A symbolic link at the destination is
//! replaced by the new file, not followed (its target is left alone), and
//! the caller is told so. With [`Backup::Keep`] an existing file is kept as
//! `NAME.bak` first.

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Whether to keep the file being replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backup {
    None,
    /// Keep an existing regular file as `NAME.bak` (replacing an older one).
    Keep,
}

/// What a write did besides writing, for the caller to say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// The existing file was kept here.
    pub backup: Option<PathBuf>,
    /// A symbolic link stood at the destination (pointing here) and was
    /// replaced by the file.
    pub replaced_link: Option<PathBuf>,
}

/// A write that did not happen; the destination is unchanged.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {source}", path.display())]
pub struct WriteError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

/// Write `bytes` to `path` atomically with permission bits `mode` (0o600 for
/// files holding account or server data).
pub fn write(path: &Path, bytes: &[u8], mode: u32, backup: Backup) -> Result<Written, WriteError> {
    let err = |source| WriteError {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut done = Written::default();
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            done.replaced_link = Some(fs::read_link(path).map_err(err)?);
        }
        Ok(m) if m.is_dir() => {
            return Err(err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "it is a directory",
            )));
        }
        Ok(m) if !m.is_file() => {
            return Err(err(std::io::Error::other(
                "it is a special file; give a regular file's path",
            )));
        }
        _ => {}
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(err)?;
    tmp.as_file()
        .set_permissions(fs::Permissions::from_mode(mode))
        .map_err(err)?;
    tmp.write_all(bytes).map_err(err)?;
    tmp.as_file().sync_all().map_err(err)?;
    if backup == Backup::Keep && done.replaced_link.is_none() && path.is_file() {
        let bak = PathBuf::from(format!("{}.bak", path.display()));
        // A hard link keeps the old inode under the new name at no cost; a
        // copy where links are not possible.
        let _ = fs::remove_file(&bak);
        fs::hard_link(path, &bak)
            .or_else(|_| fs::copy(path, &bak).map(|_| ()))
            .map_err(err)?;
        done.backup = Some(bak);
    }
    tmp.persist(path).map_err(|e| err(e.error))?;
    // Make the rename itself durable.
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symlink_is_replaced_and_its_target_kept() {
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("precious");
        fs::write(&target, "keep me").unwrap();
        let link = d.path().join("out.json");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let w = write(&link, b"new", 0o600, Backup::None).unwrap();
        assert_eq!(w.replaced_link.as_deref(), Some(target.as_path()));
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep me");
        assert_eq!(fs::read_to_string(&link).unwrap(), "new");
        assert!(
            !fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let mode = fs::metadata(&link).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    #[test]
    fn an_existing_file_is_kept_as_bak() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("limits.conf");
        fs::write(&p, "hand edited").unwrap();
        let w = write(&p, b"generated", 0o644, Backup::Keep).unwrap();
        let bak = d.path().join("limits.conf.bak");
        assert_eq!(w.backup.as_deref(), Some(bak.as_path()));
        assert_eq!(fs::read_to_string(&bak).unwrap(), "hand edited");
        assert_eq!(fs::read_to_string(&p).unwrap(), "generated");
        // No temporary file is left behind.
        let names: Vec<_> = fs::read_dir(d.path()).unwrap().collect();
        assert_eq!(names.len(), 2);
    }
}
