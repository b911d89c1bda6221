//! Reading the files a user names: bounded, regular, and once.
//!
//! Every top-level input (lint files, `--config`, `--snapshot`, `--base`,
//! rule files) goes through [`read_bytes`] or [`read_text`], so that a FIFO
//! cannot hang a run, `/dev/zero` cannot fill memory and a 100 MB file is
//! refused before it is read. The cap is the one includes already have
//! ([`MAX_INPUT_SIZE`]). Standard input (`-`) is read through [`read_stdin`]
//! with the same cap.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest input read (the option-file include cap: real inputs are a few
/// KiB, snapshots a few hundred).
pub const MAX_INPUT_SIZE: u64 = 16 * 1024 * 1024;

/// Why an input was not read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The cause is part of the message and not a `source`: printed with
    /// its chain (`{:#}`), it would be said twice.
    #[error("{}: cannot read: {cause}", path.display())]
    Io {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("{}: {kind}, not a regular file; give a file", path.display())]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("{}: {len} bytes, more than the {MAX_INPUT_SIZE}-byte limit for an input", path.display())]
    TooLarge { path: PathBuf, len: u64 },
    #[error("{}:{line}:{column}: bytes that are not UTF-8; is the file in another encoding?", path.display())]
    NotUtf8 {
        path: PathBuf,
        line: u32,
        column: u32,
    },
}

/// What kind of non-regular file `meta` describes, in words.
fn kind_of(meta: &fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a named pipe (FIFO)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

/// Refuse anything but a regular file of at most [`MAX_INPUT_SIZE`] bytes
/// (symbolic links are followed).
pub fn check_regular(path: &Path) -> Result<fs::Metadata, InputError> {
    let meta = fs::metadata(path).map_err(|cause| InputError::Io {
        path: path.to_path_buf(),
        cause,
    })?;
    if !meta.is_file() {
        return Err(InputError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(&meta),
        });
    }
    if meta.len() > MAX_INPUT_SIZE {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            len: meta.len(),
        });
    }
    Ok(meta)
}

/// The bytes of a regular file of sane size. The type is checked before the
/// file is opened (opening a FIFO would block) and the read is capped in case
/// the file grows meanwhile.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, InputError> {
    let meta = check_regular(path)?;
    let io = |cause| InputError::Io {
        path: path.to_path_buf(),
        cause,
    };
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    fs::File::open(path)
        .and_then(|f| f.take(MAX_INPUT_SIZE + 1).read_to_end(&mut bytes))
        .map_err(io)?;
    if bytes.len() as u64 > MAX_INPUT_SIZE {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            len: bytes.len() as u64,
        });
    }
    Ok(bytes)
}

/// Standard input, capped like a file (`path` names it in errors).
pub fn read_stdin(path: &Path) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_INPUT_SIZE + 1)
        .read_to_end(&mut bytes)
        .map_err(|cause| InputError::Io {
            path: path.to_path_buf(),
            cause,
        })?;
    if bytes.len() as u64 > MAX_INPUT_SIZE {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            len: bytes.len() as u64,
        });
    }
    Ok(bytes)
}

/// `bytes` as UTF-8, or an error at the 1-based line and column (in
/// characters) of the first bad byte.
pub fn utf8(bytes: Vec<u8>, path: &Path) -> Result<String, InputError> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let good = &bytes[..e.utf8_error().valid_up_to()];
        let line_start = good.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let line = good.iter().filter(|b| **b == b'\n').count() + 1;
        // `good` is valid UTF-8 by construction.
        let column = std::str::from_utf8(&good[line_start..]).map_or(0, |s| s.chars().count()) + 1;
        InputError::NotUtf8 {
            path: path.to_path_buf(),
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
    })
}

/// A regular file's text (see [`read_bytes`] and [`utf8`]).
pub fn read_text(path: &Path) -> Result<String, InputError> {
    utf8(read_bytes(path)?, path)
}

/// A file's text, or standard input's when `path` is `-`.
pub fn read_text_or_stdin(path: &Path) -> Result<String, InputError> {
    if path == Path::new("-") {
        utf8(read_stdin(Path::new("standard input"))?, path)
    } else {
        read_text(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_byte_is_placed_at_its_line_and_column() {
        let e = utf8(b"ok\nab\xffc\n".to_vec(), Path::new("r.toml")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "r.toml:2:3: bytes that are not UTF-8; is the file in another encoding?"
        );
    }

    #[test]
    fn devices_and_directories_are_refused_without_reading() {
        let e = read_bytes(Path::new("/dev/zero")).unwrap_err();
        assert!(e.to_string().contains("a character device"), "{e}");
        let e = read_bytes(Path::new("/")).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
    }
}
