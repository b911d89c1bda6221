//! Reading a file and everything it includes into [`LoadedFiles`].
//!
//! Includes are followed depth-first, in place, as the server does, so the
//! entries come out in the order the server applies them. Every problem is
//! collected; only an unreadable top file is an `Err`.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::facts::SourceLocation;

use super::document::{Document, LineKind};
use super::error::{CnfError, CnfErrorKind};
use super::names::split_name;
use super::{LoadedFiles, OptionEntry};

/// How deep includes nest before the server stops following them (its
/// `max_recursion_level`). The top file is level 0.
pub const MAX_INCLUDE_DEPTH: usize = 10;

/// Larger files are refused instead of read into memory (real option files are
/// a few KiB; this only stops `!include /some/huge/file`).
pub const MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// How many files the includes of one top file may read in all, counting a
/// file again each time it is included (the server re-reads it too).
pub const MAX_INCLUDED_FILES: usize = 256;

/// How many bytes the includes of one top file may add up to.
pub const MAX_INCLUDED_BYTES: u64 = 64 * 1024 * 1024;

/// Read `path` and everything it includes. `Err` only if `path` itself cannot
/// be read; everything else ends up in [`LoadedFiles::errors`].
pub fn load(path: &Path) -> Result<LoadedFiles, CnfError> {
    let bytes = read_file(path).map_err(|message| CnfError {
        location: whole_file(path),
        kind: CnfErrorKind::Io,
        message,
        group: None,
    })?;
    let mut loader = Loader::default();
    loader.stack.push(identity(path));
    loader.files.files.push(path.to_path_buf());
    loader.check_permissions(path);
    let text = loader.decode(&bytes, path);
    loader.files.texts.push(text.clone());
    loader.read_text(&text, path, 0);
    Ok(loader.files)
}

/// Parse `text` as if it were the file `path` (which need not exist);
/// includes are resolved relative to `path`'s directory.
pub fn load_str(text: &str, path: &Path) -> LoadedFiles {
    let mut loader = Loader::default();
    loader.stack.push(identity(path));
    loader.files.files.push(path.to_path_buf());
    loader.files.texts.push(text.to_string());
    loader.read_text(text, path, 0);
    loader.files
}

#[derive(Default)]
struct Loader {
    files: LoadedFiles,
    /// Files being read, outermost first, for cycle detection.
    stack: Vec<PathBuf>,
    /// Each file's bytes, read from disk once however often it is included.
    cache: HashMap<PathBuf, Result<Vec<u8>, String>>,
    /// Inclusions and bytes so far, against the budget.
    included: usize,
    included_bytes: u64,
    /// The budget ran out (reported once).
    exhausted: bool,
    /// Directives (file, line) that already reported a cycle: one report
    /// each, however often the fan-out meets them.
    cycles: HashSet<(PathBuf, u32)>,
}

impl Loader {
    fn error(&mut self, file: &Path, line: u32, column: u32, kind: CnfErrorKind, message: String) {
        self.error_in(file, line, column, kind, message, None);
    }

    /// An error on a line of `group`.
    fn error_in(
        &mut self,
        file: &Path,
        line: u32,
        column: u32,
        kind: CnfErrorKind,
        message: String,
        group: Option<String>,
    ) {
        self.files.errors.push(CnfError {
            location: SourceLocation {
                file: file.to_path_buf(),
                line,
                column,
            },
            kind,
            message,
            group,
        });
    }

    /// UTF-8 text of a file; bad bytes become U+FFFD and an error at their line.
    fn decode(&mut self, bytes: &[u8], path: &Path) -> String {
        if let Ok(text) = std::str::from_utf8(bytes) {
            return text.to_string();
        }
        let mut out = String::with_capacity(bytes.len());
        for (i, line) in bytes.split_inclusive(|b| *b == b'\n').enumerate() {
            match std::str::from_utf8(line) {
                Ok(t) => out.push_str(t),
                Err(e) => {
                    let good = String::from_utf8_lossy(&line[..e.valid_up_to()]);
                    let column = u32::try_from(good.chars().count() + 1).unwrap_or(u32::MAX);
                    self.error(
                        path,
                        u32::try_from(i + 1).unwrap_or(u32::MAX),
                        column,
                        CnfErrorKind::InvalidUtf8,
                        "bytes that are not UTF-8 (shown as U+FFFD); is the file in another encoding?"
                            .to_string(),
                    );
                    out.push_str(&String::from_utf8_lossy(line));
                }
            }
        }
        out
    }

    fn check_permissions(&mut self, path: &Path) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            if let Ok(meta) = fs::metadata(path)
                && meta.is_file()
                && meta.permissions().mode() & 0o002 != 0
            {
                self.error(
                    path,
                    1,
                    0,
                    CnfErrorKind::WorldWritable,
                    "the file is world-writable; the server ignores such option files".to_string(),
                );
            }
        }
        #[cfg(not(unix))]
        let _ = path;
    }

    fn read_text(&mut self, text: &str, path: &Path, depth: usize) {
        let doc = Document::parse(text);
        if doc.bom {
            self.error(
                path,
                1,
                1,
                CnfErrorKind::ByteOrderMark,
                "the file starts with a UTF-8 byte-order mark; MySQL's reader does not skip it, reads the first line as an option before any group and refuses to start".to_string(),
            );
        }
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut group: Option<String> = None;
        for (i, line) in doc.lines.into_iter().enumerate() {
            let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
            if let Some(issue) = line.issue {
                // A header's own issue belongs to the group it opens.
                let at_group = match &line.kind {
                    LineKind::Group { name } => Some(name.to_lowercase()),
                    _ => group.clone(),
                };
                let message = if quotes_secret(at_group.as_deref(), &line.text, issue.kind) {
                    unquoted_message(issue.kind).to_string()
                } else {
                    issue.message
                };
                self.error_in(path, line_no, issue.column, issue.kind, message, at_group);
            }
            match line.kind {
                LineKind::Group { name } => group = Some(name.to_lowercase()),
                LineKind::Option { raw_name, value } => {
                    let Some(group) = &group else { continue };
                    let (name, modifier, loose) = split_name(&raw_name);
                    self.files.entries.push(OptionEntry {
                        group: group.clone(),
                        raw_name,
                        name,
                        value,
                        modifier,
                        loose,
                        location: SourceLocation {
                            file: path.to_path_buf(),
                            line: line_no,
                            column: line.column,
                        },
                    });
                }
                LineKind::Include { path: target } => {
                    if self.too_deep(path, line_no, line.column, depth, "!include") {
                        continue;
                    }
                    let target = resolve(&dir, &target);
                    self.include_file(&target, path, line_no, line.column, depth + 1);
                }
                LineKind::IncludeDir { path: target } => {
                    if self.too_deep(path, line_no, line.column, depth, "!includedir") {
                        continue;
                    }
                    let target = resolve(&dir, &target);
                    self.include_dir(&target, path, line_no, line.column, depth + 1);
                }
                LineKind::Blank | LineKind::Comment | LineKind::Error => {}
            }
        }
    }

    fn too_deep(&mut self, path: &Path, line: u32, column: u32, depth: usize, what: &str) -> bool {
        if depth < MAX_INCLUDE_DEPTH {
            return false;
        }
        self.error(
            path,
            line,
            column,
            CnfErrorKind::IncludeTooDeep,
            format!(
                "'{what}' nested more than {MAX_INCLUDE_DEPTH} levels deep; the server skips it"
            ),
        );
        true
    }

    fn include_file(&mut self, target: &Path, from: &Path, line: u32, column: u32, depth: usize) {
        if self.exhausted {
            return;
        }
        let id = identity(target);
        if let Some(pos) = self.stack.iter().position(|p| *p == id) {
            if !self.cycles.insert((from.to_path_buf(), line)) {
                return;
            }
            let chain: Vec<String> = self.stack[pos..]
                .iter()
                .chain(std::iter::once(&id))
                .map(|p| p.display().to_string())
                .collect();
            self.error(
                from,
                line,
                column,
                CnfErrorKind::IncludeCycle,
                format!("include cycle: {}; not followed again", chain.join(" -> ")),
            );
            return;
        }
        if !target.exists() {
            self.error(
                from,
                line,
                column,
                CnfErrorKind::IncludeNotFound,
                format!(
                    "included file {} does not exist; the server skips it silently",
                    target.display()
                ),
            );
            return;
        }
        let read = self
            .cache
            .entry(id.clone())
            .or_insert_with(|| read_file(target))
            .clone();
        let bytes = match read {
            Ok(b) => b,
            Err(message) => {
                self.error(from, line, column, CnfErrorKind::IncludeUnreadable, message);
                return;
            }
        };
        self.included += 1;
        self.included_bytes += bytes.len() as u64;
        if self.included > MAX_INCLUDED_FILES || self.included_bytes > MAX_INCLUDED_BYTES {
            self.exhausted = true;
            self.error(
                from,
                line,
                column,
                CnfErrorKind::IncludeBudget,
                format!(
                    "the includes read more than {MAX_INCLUDED_FILES} files or \
                     {MAX_INCLUDED_BYTES} bytes in all (does a directory include itself?); \
                     mytune stopped following them here"
                ),
            );
            return;
        }
        self.files.files.push(target.to_path_buf());
        self.check_permissions(target);
        let text = self.decode(&bytes, target);
        self.files.texts.push(text.clone());
        self.stack.push(id);
        self.read_text(&text, target, depth);
        self.stack.pop();
    }

    fn include_dir(&mut self, dir: &Path, from: &Path, line: u32, column: u32, depth: usize) {
        if self.exhausted {
            return;
        }
        let listing = match fs::read_dir(dir) {
            Ok(l) => l,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && dir.is_absolute() => {
                self.error(
                    from,
                    line,
                    column,
                    CnfErrorKind::IncludeDirAbsent,
                    format!(
                        "directory {} does not exist on this machine, so the files there were not \
                         checked; the server refuses to start on a host where it is missing",
                        dir.display()
                    ),
                );
                return;
            }
            Err(e) => {
                self.error(
                    from,
                    line,
                    column,
                    CnfErrorKind::IncludeDirUnreadable,
                    format!(
                        "cannot list directory {}: {e}; the server refuses to start",
                        dir.display()
                    ),
                );
                return;
            }
        };
        // Only names ending in ".cnf" (case-sensitive; the server on Windows
        // also reads ".ini"), regular files, sorted by name as bytes.
        let mut names: Vec<_> = listing
            .filter_map(Result::ok)
            .map(|e| e.file_name())
            .filter(|n| n.as_encoded_bytes().ends_with(b".cnf"))
            .collect();
        names.sort_by(|a, b| a.as_encoded_bytes().cmp(b.as_encoded_bytes()));
        for name in names {
            let file = dir.join(&name);
            if fs::metadata(&file).is_ok_and(|m| m.is_file()) {
                self.include_file(&file, from, line, column, depth);
            }
        }
    }
}

/// Would quoting this line's text in an error risk showing a password? Lines
/// of client groups (`[client]`, `[mysql]`, `[client-server]`, ...) and lines
/// before any group (an `!include` of a file that is not an option file) are
/// never quoted, nor any line that names a password.
fn quotes_secret(group: Option<&str>, text: &str, kind: CnfErrorKind) -> bool {
    if unquoted_message(kind).is_empty() {
        return false;
    }
    let server_group = group.is_some_and(|g| {
        let g = g.to_ascii_lowercase();
        let base = g.split_once('-').map_or(g.as_str(), |(b, _)| b);
        [
            "mysqld",
            "server",
            "mariadb",
            "mariadbd",
            "mysqld_safe",
            "galera",
            "embedded",
        ]
        .contains(&base)
            && g != "mariadb-client"
    });
    let lower = text.to_ascii_lowercase();
    let names_secret = ["pass", "pwd", "secret", "auth", "key"]
        .iter()
        .any(|w| lower.contains(w));
    if kind == CnfErrorKind::OptionWithoutGroup {
        // Quoted when it is a plain option name (`port`), so the message
        // stays useful; an included file that is not an option file (say
        // /proc/self/cmdline, holding a -pSECRET) is not.
        let name = text.split('=').next().unwrap_or("").trim();
        let plain = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        return names_secret || !plain;
    }
    !server_group || names_secret
}

/// The message of an issue whose usual text quotes the line, without the
/// quote (empty for kinds that never quote).
fn unquoted_message(kind: CnfErrorKind) -> &'static str {
    match kind {
        CnfErrorKind::InvalidOptionName => {
            "option name contains whitespace (a missing '='?); the server reads it as one unknown option name and refuses to start (the line is not quoted: it may hold a password)"
        }
        CnfErrorKind::GroupTrailingText => {
            "text after the group header; the server ignores it (not quoted: it may hold a password)"
        }
        CnfErrorKind::UnknownDirective => {
            "unknown directive (only !include and !includedir exist); the server ignores this line (not quoted: it may hold a password)"
        }
        CnfErrorKind::OptionWithoutGroup => {
            "an option comes before any [group] header; the server refuses to start (add e.g. [mysqld] above it; the line is not quoted: it may hold a password)"
        }
        CnfErrorKind::UnclosedGroup => {
            "group header has no closing ']'; the server refuses to start (not quoted: it may hold a password)"
        }
        _ => "",
    }
}

/// Where an include argument points: `~/` is the home directory (the server
/// expands it too), an absolute path is itself, and a relative path is taken
/// from the including file's directory (the server would use its working
/// directory; see the `syntax` module doc).
fn resolve(dir: &Path, arg: &str) -> PathBuf {
    if let Some(rest) = arg.strip_prefix("~/")
        && let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty())
    {
        return PathBuf::from(home).join(rest);
    }
    dir.join(arg)
}

/// A path's identity for cycle detection: canonical when it exists.
fn identity(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn whole_file(path: &Path) -> SourceLocation {
    SourceLocation {
        file: path.to_path_buf(),
        line: 0,
        column: 0,
    }
}

/// Read a regular file of sane size.
fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    let meta = fs::metadata(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    if meta.len() > MAX_FILE_SIZE {
        return Err(format!(
            "{} is {} bytes, more than an option file can sensibly be ({MAX_FILE_SIZE})",
            path.display(),
            meta.len()
        ));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_SIZE + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_paths_resolve_like_the_server_but_from_the_files_dir() {
        let dir = Path::new("/etc/mysql");
        assert_eq!(resolve(dir, "conf.d/"), PathBuf::from("/etc/mysql/conf.d/"));
        assert_eq!(resolve(dir, "/abs/x.cnf"), PathBuf::from("/abs/x.cnf"));
        match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            Some(home) => assert_eq!(resolve(dir, "~/x.cnf"), PathBuf::from(home).join("x.cnf")),
            None => assert_eq!(resolve(dir, "~/x.cnf"), PathBuf::from("/etc/mysql/~/x.cnf")),
        }
    }
}
