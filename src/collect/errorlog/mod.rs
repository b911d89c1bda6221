//! The server's error log: a bounded tail of the `log_error` file, parsed
//! into [`ErrorLogFacts`]. Only for a server on this machine; read-only.
//!
//! At most [`TAIL_BYTES`] are read, from the end of the file (one `seek`
//! and one bounded read, however large the file), and at most
//! [`MAX_LINES`] of them parsed. The formats are those of MariaDB 10.x
//! (`2026-12-01 13:20:43 0 [Warning] ...`, and `261201 13:21:12 [ERROR]
//! mariadbd got signal 11 ;` from its crash handler) and MySQL 5.7/8.x
//! (`2025-10-01T20:38:20.318797Z 0 [Warning] [MY-010140] [Server] ...`,
//! `2024-02-14T19:24:28Z UTC - mysqld got signal 11 ;`).
//!
//! Lines are read by their fields (timestamp, thread, severity, subsystem,
//! message): only a line the server wrote itself can be a start, shutdown
//! or crash, and a failed login is one record however many lines its user
//! name holds ([`records`]).
//!
//! Runs: a server start is `Starting MariaDB ...` or `... starting as
//! process N`. Warnings printed just before it (thread 0, within a few
//! seconds: MariaDB writes its option warnings to standard error before it
//! opens the log, and `mysqld_safe` puts them in the same file; MySQL logs
//! them before its start line) belong to that start, but never the
//! `Shutdown complete` of the run before, however soon the start follows. The last start is the
//! current one; the run before it ended with `Shutdown complete` (clean),
//! a fatal signal or failed assertion (crash), or nothing at all (unclean:
//! killed, out of memory, power lost).

mod records;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::facts::errorlog::{
    AccessDenied, AccountCount, ChangedLimit, ErrorLogEvents, ErrorLogFacts, ErrorLogStatus,
    OpenFilesCapped, OptionWarning, OptionWarningKind, Stop, StopKind,
};

/// The most bytes read from the end of the log.
pub const TAIL_BYTES: u64 = 256 * 1024;
/// The most lines parsed (the last ones).
pub const MAX_LINES: usize = 20_000;
/// A start agrees with `Uptime` within this many seconds.
const UPTIME_TOLERANCE_SECS: i64 = 120;
/// Lines this close before a start line (thread 0) belong to that start.
const PRESTART_WINDOW_SECS: i64 = 5;

/// Where `log_error` sends the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    File(PathBuf),
    /// Standard error (empty, `stderr`, `/dev/stderr`): the journal under
    /// systemd, the console otherwise.
    Stderr,
}

/// Resolve `log_error` as the server does: relative names are in the
/// datadir.
pub fn resolve(log_error: &str, datadir: Option<&str>) -> Destination {
    let v = log_error.trim();
    if v.is_empty()
        || v.eq_ignore_ascii_case("stderr")
        || v == "/dev/stderr"
        || v == "/dev/fd/2"
        || v == "/proc/self/fd/2"
    {
        return Destination::Stderr;
    }
    let p = Path::new(v);
    if p.is_absolute() {
        return Destination::File(p.to_path_buf());
    }
    let rel = v.strip_prefix("./").unwrap_or(v);
    match datadir.filter(|d| !d.is_empty()) {
        Some(d) => Destination::File(Path::new(d).join(rel)),
        None => Destination::File(PathBuf::from(rel)),
    }
}

/// A bounded tail of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tail {
    pub text: String,
    pub file_bytes: u64,
    pub bytes_read: u64,
    /// The tail starts after the beginning of the file (its first partial
    /// line is dropped).
    pub truncated: bool,
    pub modified: Option<SystemTime>,
}

/// Read at most `max_bytes` from the end of `path` (a regular file).
pub fn read_tail(path: &Path, max_bytes: u64) -> io::Result<Tail> {
    let mut f = File::open(path)?;
    let meta = f.metadata()?;
    let len = meta.len();
    let start = len.saturating_sub(max_bytes);
    f.seek(SeekFrom::Start(start))?;
    let mut buf = Vec::with_capacity((len - start) as usize);
    // The file may grow while we read: never more than the bound.
    f.take(max_bytes).read_to_end(&mut buf)?;
    let bytes_read = buf.len() as u64;
    let mut text = String::from_utf8_lossy(&buf).into_owned();
    let truncated = start > 0;
    if truncated {
        // Drop the partial first line.
        match text.find('\n') {
            Some(i) => {
                text.drain(..=i);
            }
            None => text.clear(),
        }
    }
    Ok(Tail {
        text,
        file_bytes: len,
        bytes_read,
        truncated,
        modified: meta.modified().ok(),
    })
}

/// Collect the error-log facts of a local server from its variables.
pub fn collect(
    variables: &BTreeMap<String, String>,
    uptime_secs: u64,
    now: SystemTime,
) -> ErrorLogFacts {
    let setting = variables.get("log_error").cloned().unwrap_or_default();
    let datadir = variables.get("datadir").map(String::as_str);
    let mut facts = ErrorLogFacts {
        setting: setting.clone(),
        ..ErrorLogFacts::default()
    };
    let path = match resolve(&setting, datadir) {
        Destination::Stderr => {
            facts.status = ErrorLogStatus::Stderr;
            facts.reason = Some(
                "log_error is standard error: the log is in the journal (journalctl -u mariadb or -u mysql) or the console, not in a file"
                    .into(),
            );
            return facts;
        }
        Destination::File(p) => p,
    };
    // MySQL adds `.err` to a name without an extension.
    let path = if !path.exists() && path.extension().is_none() {
        let with_err = path.with_extension("err");
        if with_err.exists() { with_err } else { path }
    } else {
        path
    };
    facts.path = Some(path.display().to_string());
    match std::fs::metadata(&path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            facts.status = ErrorLogStatus::Absent;
            facts.reason = Some("no such file on this machine".into());
            return facts;
        }
        Err(e) => {
            facts.status = ErrorLogStatus::Unreadable;
            facts.reason = Some(io_reason(&e));
            return facts;
        }
        Ok(m) if !m.is_file() => {
            // A pipe or a terminal would block the read.
            facts.status = ErrorLogStatus::NotAFile;
            facts.reason = Some("not a regular file".into());
            return facts;
        }
        Ok(_) => {}
    }
    let tail = match read_tail(&path, TAIL_BYTES) {
        Ok(t) => t,
        Err(e) => {
            facts.status = ErrorLogStatus::Unreadable;
            facts.reason = Some(io_reason(&e));
            return facts;
        }
    };
    facts.status = ErrorLogStatus::Read;
    facts.file_bytes = tail.file_bytes;
    facts.bytes_read = tail.bytes_read;
    facts.truncated = tail.truncated;
    let parsed = parse(&tail.text);
    facts.lines_read = parsed.lines as u64;
    if parsed.lines_dropped {
        facts.truncated = true;
    }
    facts.first_seen = parsed.first_seen.as_ref().map(Stamp::display);
    facts.current_start = parsed.current_start.as_ref().map(Stamp::display);
    let age_of_last = tail
        .modified
        .and_then(|m| now.duration_since(m).ok())
        .map(|d| d.as_secs() as i64);
    facts.start_matches_uptime = parsed
        .start_age(now, age_of_last)
        .map(|age| matches_uptime(age, uptime_secs as i64));
    facts.events = parsed.events;
    facts
}

fn io_reason(e: &io::Error) -> String {
    if e.kind() == io::ErrorKind::PermissionDenied {
        "permission denied: run mytune as root or as a member of the log's group (often adm or mysql)"
            .into()
    } else {
        e.to_string()
    }
}

/// Does a start `age` seconds ago agree with `uptime`? Either exactly
/// (within the tolerance) or one hour apart (a change to or from summer
/// time between the start and the last line, which are local times).
fn matches_uptime(age: i64, uptime: i64) -> bool {
    let d = (age - uptime).abs();
    d <= UPTIME_TOLERANCE_SECS || (d - 3600).abs() <= UPTIME_TOLERANCE_SECS
}

/// A timestamp as logged: civil seconds since 1970 as written, and the UTC
/// offset when the log states one (MySQL's `Z` or `+08:00`; MariaDB writes
/// local time without one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub civil: i64,
    pub offset: Option<i32>,
}

impl Stamp {
    /// `2026-12-01 13:20:43` (local time as logged), with `Z` or the offset
    /// when the log states one.
    pub fn display(&self) -> String {
        let days = self.civil.div_euclid(86_400);
        let rem = self.civil.rem_euclid(86_400);
        let (y, m, d) = civil_from_days(days);
        let mut s = format!(
            "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
            rem / 3600,
            rem % 3600 / 60,
            rem % 60
        );
        match self.offset {
            Some(0) => s.push_str(" UTC"),
            Some(o) => {
                let sign = if o < 0 { '-' } else { '+' };
                let o = o.abs();
                s.push_str(&format!(" {sign}{:02}:{:02}", o / 3600, o % 3600 / 60));
            }
            None => {}
        }
        s
    }

    fn utc(&self) -> Option<i64> {
        self.offset.map(|o| self.civil - i64::from(o))
    }
}

/// What one line holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<'a> {
    pub stamp: Option<Stamp>,
    /// The connection/thread id after the timestamp (0: the server itself).
    pub thread: Option<u64>,
    /// The thread is an OS thread (`0x7f4b…`, InnoDB's own lines): the
    /// server's, never a connection's.
    pub os_thread: bool,
    /// `Note`, `Warning`, `ERROR`, `System`.
    pub level: Option<&'a str>,
    /// MySQL's subsystem tag (`Server`, `InnoDB`, `Repl`), or MariaDB's
    /// message prefix (`InnoDB`, `Aria`, `WSREP`).
    pub subsystem: Option<&'a str>,
    /// The message after the level and MySQL's `[MY-…] [Server]` tags.
    pub message: &'a str,
}

impl Line<'_> {
    /// Written by the server itself (thread 0, an OS thread, the crash
    /// handler's lines without a thread, or MySQL's InnoDB start-up
    /// thread), not on behalf of a client connection.
    pub fn is_server(&self) -> bool {
        self.os_thread || matches!(self.thread, None | Some(0)) || self.subsystem == Some("InnoDB")
    }
}

/// MariaDB's subsystems that prefix their messages (`InnoDB: ...`).
const MARIADB_SUBSYSTEMS: [&str; 5] = ["InnoDB", "Aria", "WSREP", "Mroonga", "Spider"];

/// Split one log line into timestamp, thread, level and message. A line
/// without a timestamp (a backtrace, `Version: ...`) has only a message.
pub fn parse_line(line: &str) -> Line<'_> {
    let line = line.trim_end_matches('\r');
    let Some((stamp, rest)) = parse_stamp(line) else {
        return Line {
            stamp: None,
            thread: None,
            os_thread: false,
            level: None,
            subsystem: None,
            message: line,
        };
    };
    let mut rest = rest.trim_start();
    // MySQL's crash handler: `... UTC - mysqld got signal 11 ;`.
    if let Some(r) = rest.strip_prefix("UTC - ") {
        rest = r;
    }
    let mut thread = None;
    let mut os_thread = false;
    let word_end = rest.find(' ').unwrap_or(rest.len());
    let word = &rest[..word_end];
    if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) {
        thread = word.parse().ok();
        rest = rest[word_end..].trim_start();
    } else if let Some(hex) = word.strip_prefix("0x")
        && !hex.is_empty()
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
    {
        // InnoDB's own lines name the OS thread (`0x7f4b...`), never 0.
        thread = Some(u64::from_str_radix(hex, 16).unwrap_or(1).max(1));
        os_thread = true;
        rest = rest[word_end..].trim_start();
    }
    let mut level = None;
    let mut subsystem = None;
    if let Some(r) = rest.strip_prefix('[')
        && let Some(end) = r.find(']')
    {
        level = Some(&r[..end]);
        rest = r[end + 1..].trim_start();
        // MySQL 8: `[MY-010140] [Server] `.
        if rest.starts_with("[MY-")
            && let Some(end) = rest.find(']')
        {
            rest = rest[end + 1..].trim_start();
            if let Some(r) = rest.strip_prefix('[')
                && let Some(end) = r.find(']')
                && !r[..end].contains(' ')
            {
                subsystem = Some(&r[..end]);
                rest = r[end + 1..].trim_start();
            }
        }
    }
    if subsystem.is_none()
        && let Some((prefix, _)) = rest.split_once(": ")
        && MARIADB_SUBSYSTEMS.contains(&prefix)
    {
        subsystem = Some(prefix);
    }
    Line {
        stamp: Some(stamp),
        thread,
        os_thread,
        level,
        subsystem,
        message: rest,
    }
}

fn digits(s: &[u8]) -> Option<i64> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// `HH:MM:SS` or ` H:MM:SS` (MariaDB's crash handler pads the hour with a
/// space).
fn hms(s: &[u8]) -> Option<i64> {
    if s.len() < 8 || s[2] != b':' || s[5] != b':' {
        return None;
    }
    let h = if s[0] == b' ' {
        digits(&s[1..2])?
    } else {
        digits(&s[0..2])?
    };
    let m = digits(&s[3..5])?;
    let sec = digits(&s[6..8])?;
    (h < 24 && m < 60 && sec < 61).then_some(h * 3600 + m * 60 + sec)
}

fn date(y: i64, m: i64, d: i64) -> Option<i64> {
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then(|| days_from_civil(y, m, d))
}

/// A leading timestamp in one of the formats the servers write, and the
/// rest of the line.
fn parse_stamp(line: &str) -> Option<(Stamp, &str)> {
    let b = line.as_bytes();
    // 2026-12-01 13:20:43 / 2025-10-01T20:38:20.318797Z / ...+08:00
    if b.len() >= 19 && b[4] == b'-' && b[7] == b'-' && (b[10] == b' ' || b[10] == b'T') {
        let days = date(digits(&b[0..4])?, digits(&b[5..7])?, digits(&b[8..10])?)?;
        let secs = hms(&b[11..19])?;
        let mut i = 19;
        if b.get(i) == Some(&b'.') {
            i += 1;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        let mut offset = None;
        match b.get(i) {
            Some(b'Z') => {
                offset = Some(0);
                i += 1;
            }
            Some(&c @ (b'+' | b'-')) if b[10] == b'T' && b.len() >= i + 6 && b[i + 3] == b':' => {
                let h = digits(&b[i + 1..i + 3])?;
                let m = digits(&b[i + 4..i + 6])?;
                let o = (h * 3600 + m * 60) as i32;
                offset = Some(if c == b'-' { -o } else { o });
                i += 6;
            }
            _ => {}
        }
        // A timestamp is followed by a space (or ends the line).
        if i < b.len() && b[i] != b' ' {
            return None;
        }
        return Some((
            Stamp {
                civil: days * 86_400 + secs,
                offset,
            },
            &line[i..],
        ));
    }
    // 261201 13:21:12 / 160105  9:10:50 (YYMMDD)
    if b.len() >= 15 && b[6] == b' ' && b[..6].iter().all(u8::is_ascii_digit) {
        // The hour may be padded with a space: `160105  9:10:50`.
        let secs = hms(&b[7..15])?;
        let i = 15;
        let days = date(
            2000 + digits(&b[0..2])?,
            digits(&b[2..4])?,
            digits(&b[4..6])?,
        )?;
        if i < b.len() && b[i] != b' ' {
            return None;
        }
        return Some((
            Stamp {
                civil: days * 86_400 + secs,
                offset: None,
            },
            &line[i..],
        ));
    }
    None
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// What a message says, as far as mytune cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Start,
    ShutdownComplete,
    /// `signal 11`, `assertion failure`.
    Crash(String),
    Recovery,
    Option(OptionWarning),
    OpenFiles {
        limit: u64,
        requested: u64,
    },
    ChangedLimits(Vec<ChangedLimit>),
    /// `'user'@'host'`.
    AccessDenied(String),
}

/// Classify one line (already split by [`parse_line`]) by its fields: a
/// start, shutdown or crash only on a line the server wrote itself
/// ([`Line::is_server`]) with a timestamp, the message in the server's own
/// form from its first word; a failed login only on a connection's line
/// whose message begins with it. Free text elsewhere in a message (a user
/// name such as `mariadbd got signal 11 ;`) is never an event. A line
/// without a timestamp is an event only as glibc's failed assertion, which
/// the crash report follows.
pub fn classify(line: &Line<'_>) -> Option<Event> {
    let m = line.message;
    if line.stamp.is_none() {
        return is_glibc_assertion(m).then(|| Event::Crash("assertion failure".into()));
    }
    if !line.is_server() {
        return m
            .strip_prefix("Access denied for user ")
            .and_then(account)
            .map(Event::AccessDenied);
    }
    if is_start(m) {
        return Some(Event::Start);
    }
    if m.split_once(": Shutdown complete")
        .is_some_and(|(program, _)| !program.is_empty() && !program.contains(' '))
    {
        return Some(Event::ShutdownComplete);
    }
    // `mariadbd got signal 11 ;`, `/usr/sbin/mysqld got signal 6 ;`
    if let Some((program, rest)) = m.split_once(" got signal ")
        && !program.is_empty()
        && !program.contains(' ')
    {
        let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if !n.is_empty() {
            return Some(Event::Crash(format!("signal {n}")));
        }
    }
    if m.split_once(" got exception ")
        .is_some_and(|(program, _)| !program.is_empty() && !program.contains(' '))
    {
        return Some(Event::Crash("exception".into()));
    }
    if line.subsystem == Some("InnoDB") && m.contains("Assertion failure") {
        return Some(Event::Crash("assertion failure".into()));
    }
    if m.contains("Starting crash recovery") || m.contains("Database was not shutdown normally") {
        return Some(Event::Recovery);
    }
    if let Some(rest) = m.strip_prefix("Could not increase number of max_open_files to more than ")
    {
        let limit = leading_number(rest)?;
        let requested = rest
            .find("(request: ")
            .and_then(|i| leading_number(&rest[i + 10..]))?;
        return Some(Event::OpenFiles { limit, requested });
    }
    if let Some(rest) = m.strip_prefix("Changed limits: ") {
        let changed = changed_limits(rest);
        return (!changed.is_empty()).then_some(Event::ChangedLimits(changed));
    }
    option_warning(m).map(Event::Option)
}

/// A server start: MariaDB's `Starting MariaDB VERSION ... as process N`,
/// or `PROGRAM (mysqld VERSION) starting as process N` of MySQL and older
/// MariaDB.
fn is_start(m: &str) -> bool {
    if m.starts_with("Starting MariaDB ") {
        return ends_with_process(m);
    }
    if let Some((program, rest)) = m.split_once(" (")
        && !program.contains(' ')
        && let Some((_, after)) = rest.split_once(") starting as process ")
    {
        return after
            .split_whitespace()
            .next()
            .is_some_and(|pid| pid.bytes().all(|b| b.is_ascii_digit()));
    }
    false
}

fn ends_with_process(m: &str) -> bool {
    m.rsplit_once(" as process ").is_some_and(|(_, pid)| {
        let pid = pid.trim_end();
        !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
    })
}

/// glibc's `PROGRAM: FILE:LINE: FUNCTION: Assertion `EXPR' failed.`.
fn is_glibc_assertion(m: &str) -> bool {
    m.ends_with("' failed.")
        && m.contains(": Assertion `")
        && m.split_once(": ")
            .is_some_and(|(program, _)| !program.is_empty() && !program.contains(' '))
}

fn leading_number(s: &str) -> Option<u64> {
    let n: String = s
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    n.parse().ok()
}

/// `'user'@'host' (using password: YES)` → `'user'@'host'`, each part
/// clipped, read from the end: the host and the closing text are the
/// server's, the user name anything a client sent.
fn account(s: &str) -> Option<String> {
    let (user, host) = records::split_account(s.strip_prefix('\'')?)?;
    Some(records::account_text(user, host))
}

/// `max_open_files: 20000  max_connections: 16770 (was 100000)  table_cache:
/// 200 (was 2000)` (MariaDB) or `max_connections: 9190 (requested 10000)`
/// (MySQL): the variables lowered below what was asked.
fn changed_limits(s: &str) -> Vec<ChangedLimit> {
    let words: Vec<&str> = s.split_whitespace().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let Some(name) = words[i].strip_suffix(':') else {
            i += 1;
            continue;
        };
        let value = words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
        let requested = match (words.get(i + 2), words.get(i + 3)) {
            (Some(&"(was"), Some(n)) | (Some(&"(requested"), Some(n)) => {
                n.trim_end_matches(')').parse::<u64>().ok()
            }
            _ => None,
        };
        if let (Some(value), Some(requested)) = (value, requested)
            && value < requested
            && name != "max_open_files"
        {
            let variable = if name == "table_cache" {
                "table_open_cache"
            } else {
                name
            };
            out.push(ChangedLimit {
                variable: variable.to_string(),
                value,
                requested,
            });
        }
        i += 2;
    }
    out
}

/// The text between the first pair of single quotes after `from`.
fn quoted(s: &str) -> Option<&str> {
    let start = s.find('\'')? + 1;
    let len = s[start..].find('\'')?;
    Some(&s[start..start + len])
}

/// An option name as the server spells it in a warning, normalized; never
/// a value (`'loose-foo_password=secret'` keeps only the name).
pub fn option_name(raw: &str) -> Option<String> {
    let raw = raw.split('=').next().unwrap_or(raw).trim();
    let raw = raw.trim_start_matches('-');
    let mut n = raw.to_ascii_lowercase().replace('-', "_");
    for p in ["loose_", "enable_", "disable_", "skip_", "maximum_"] {
        if let Some(rest) = n.strip_prefix(p)
            && !rest.is_empty()
        {
            n = rest.to_string();
            break;
        }
    }
    let ok = !n.is_empty()
        && n.len() <= 64
        && n.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
    ok.then_some(n)
}

fn option_warning(m: &str) -> Option<OptionWarning> {
    let w = |option: String, kind, detail: Option<String>| OptionWarning {
        option,
        kind,
        detail,
    };
    // MariaDB: 'innodb-log-files-in-group' was removed. It does nothing now ...
    if m.contains("' was removed") && m.starts_with('\'') {
        return Some(w(
            option_name(quoted(m)?)?,
            OptionWarningKind::Removed,
            None,
        ));
    }
    // mariadbd: unknown variable 'loose-x=1' / unknown option '--loose-x'
    for key in ["unknown variable '", "unknown option '"] {
        if let Some(i) = m.find(key) {
            return Some(w(
                option_name(quoted(&m[i..])?)?,
                OptionWarningKind::Unknown,
                None,
            ));
        }
    }
    // option 'innodb-io-capacity': unsigned value 50 adjusted to 100
    if let Some(i) = m.find("option '")
        && m.contains(" adjusted to ")
    {
        let rest = &m[i..];
        let name = option_name(quoted(rest)?)?;
        let detail = rest
            .find(" value ")
            .map(|j| rest[j + 7..].trim_end_matches('.').to_string())
            .filter(|d| d.len() <= 80 && !d.contains('\''));
        return Some(w(name, OptionWarningKind::Adjusted, detail));
    }
    // Using unique option prefix 'sort' is error-prone ... full name 'sort_buffer_size' instead.
    if let Some(rest) = m.strip_prefix("Using unique option prefix ") {
        let name = option_name(quoted(rest)?)?;
        let full = rest
            .find("full name ")
            .and_then(|j| quoted(&rest[j..]))
            .and_then(option_name);
        return Some(w(name, OptionWarningKind::Prefix, full));
    }
    if m.to_ascii_lowercase().contains("deprecated") {
        let replacement = m.find("Please use ").and_then(|j| {
            let r = &m[j + 11..];
            let r = r.split(" instead").next()?;
            let r = r.trim().trim_matches('\'');
            (r.len() <= 80 && !r.contains('\'')).then(|| r.to_string())
        });
        // The syntax 'expire-logs-days' is deprecated ... / 'x' is deprecated ...
        if (m.starts_with("The syntax '") || m.starts_with('\''))
            && let Some(name) = quoted(m).and_then(option_name)
        {
            return Some(w(name, OptionWarningKind::Deprecated, replacement));
        }
        // The parameter innodb_file_format is deprecated and has no effect.
        if let Some(rest) = m.strip_prefix("The parameter ")
            && let Some(name) = rest.split_whitespace().next().and_then(option_name)
        {
            return Some(w(name, OptionWarningKind::Deprecated, replacement));
        }
        // MySQL: Deprecated configuration parameters innodb_log_file_size and/or ... have been used
        if let Some(rest) = m.strip_prefix("Deprecated configuration parameters ") {
            let names = rest.split(" have been").next().unwrap_or_default();
            let first = names.split_whitespace().next().and_then(option_name)?;
            let detail = names
                .split_whitespace()
                .filter(|w| w.contains('_'))
                .skip(1)
                .filter_map(option_name)
                .next()
                .map(|other| format!("also {other}; {}", replacement.clone().unwrap_or_default()))
                .or(replacement);
            return Some(w(first, OptionWarningKind::Deprecated, detail));
        }
    }
    None
}

/// The parsed tail.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parsed {
    pub lines: usize,
    /// More than [`MAX_LINES`] lines: the first ones were not parsed.
    pub lines_dropped: bool,
    pub first_seen: Option<Stamp>,
    pub current_start: Option<Stamp>,
    /// The latest timestamp of the tail (for local-time logs, placed in
    /// time by the file's modification time).
    pub last_seen: Option<Stamp>,
    pub events: ErrorLogEvents,
}

impl Parsed {
    /// How many seconds before `now` the current start was: from the
    /// stated UTC offset, or for local-time logs from the distance to the
    /// last line, which was written `age_of_last` seconds ago.
    pub fn start_age(&self, now: SystemTime, age_of_last: Option<i64>) -> Option<i64> {
        let start = self.current_start?;
        if let Some(utc) = start.utc() {
            let now = now.duration_since(SystemTime::UNIX_EPOCH).ok()?.as_secs() as i64;
            return Some(now - utc);
        }
        let last = self.last_seen?;
        Some(last.civil - start.civil + age_of_last?)
    }
}

/// One run of the server in the tail: from a start (or the tail's first
/// line) to the next start.
#[derive(Debug, Default)]
struct Run {
    start: Option<Stamp>,
    crash: Option<(Option<Stamp>, String)>,
    clean: Option<Option<Stamp>>,
    last: Option<Stamp>,
    lines: usize,
    recovery: bool,
}

/// Parse a tail of the log into events (pure: the unit tests run on real
/// log excerpts).
pub fn parse(text: &str) -> Parsed {
    let all: Vec<&str> = text.lines().collect();
    let dropped = all.len() > MAX_LINES;
    let raw = &all[all.len().saturating_sub(MAX_LINES)..];
    let lines: Vec<Line<'_>> = raw.iter().map(|l| parse_line(l)).collect();
    // Failed logins by their fields first: a user name may hold lines.
    let roles = records::roles(raw, &lines);
    let events: Vec<Option<Event>> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if roles.inside[i] {
                return None;
            }
            if let Some(a) = &roles.account[i] {
                return Some(Event::AccessDenied(a.clone()));
            }
            let e = classify(l);
            if roles.untrusted[i] && !matches!(e, Some(Event::AccessDenied(_))) {
                return None;
            }
            e
        })
        .collect();

    // Timestamps a client wrote (inside a user name) place nothing in time.
    let stamp_of = |i: usize| {
        if roles.inside[i] {
            None
        } else {
            lines[i].stamp
        }
    };

    // Where each run begins: a start line, moved back over the thread-0
    // warnings printed just before it.
    let mut begins: Vec<usize> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        if e != &Some(Event::Start) {
            continue;
        }
        let start = lines[i].stamp;
        let floor = begins.last().map_or(0, |b| b + 1);
        let mut b = i;
        while b > floor {
            let prev = &lines[b - 1];
            let close = match (prev.stamp, start) {
                (Some(p), Some(s)) => {
                    p.civil <= s.civil && s.civil - p.civil <= PRESTART_WINDOW_SECS
                }
                _ => false,
            };
            // Never over the end of the run before (its `Shutdown
            // complete`, however soon the start follows: systemctl
            // restart), nor over a client's line.
            let prestart = match &events[b - 1] {
                Some(Event::Option(_) | Event::OpenFiles { .. } | Event::ChangedLimits(_)) => true,
                Some(_) => false,
                None => {
                    !roles.inside[b - 1]
                        && prev.is_server()
                        && prev.level.is_some_and(|l| {
                            l.eq_ignore_ascii_case("warning") || l.eq_ignore_ascii_case("note")
                        })
                }
            };
            if close && prestart && prev.thread.unwrap_or(0) == 0 {
                b -= 1;
            } else {
                break;
            }
        }
        begins.push(b);
    }

    let mut parsed = Parsed {
        lines: lines.len(),
        lines_dropped: dropped,
        first_seen: (0..lines.len()).find_map(stamp_of),
        last_seen: (0..lines.len())
            .filter_map(stamp_of)
            .max_by_key(|s| s.civil),
        ..Parsed::default()
    };
    parsed.events.starts = begins.len() as u32;

    // Runs, in order; the first may have begun before the tail.
    let mut bounds: Vec<(usize, usize)> = Vec::new();
    let mut prev = 0;
    for &b in &begins {
        if b > prev {
            bounds.push((prev, b));
        }
        prev = b;
    }
    bounds.push((prev, lines.len()));
    let current_has_start = !begins.is_empty();
    let mut runs: Vec<Run> = Vec::new();
    for &(from, to) in &bounds {
        let mut run = Run::default();
        for i in from..to {
            let l = &lines[i];
            if let Some(stamp) = stamp_of(i) {
                run.last = Some(stamp);
            }
            run.lines += 1;
            match &events[i] {
                Some(Event::Start) => run.start = l.stamp,
                Some(Event::Crash(what)) => {
                    if run.crash.is_none() {
                        run.crash = Some((l.stamp, what.clone()));
                    } else if what.starts_with("signal")
                        && let Some((_, w)) = &mut run.crash
                        && !w.starts_with("signal")
                    {
                        *w = format!("{what} after an {w}");
                    }
                }
                Some(Event::ShutdownComplete) => run.clean = Some(l.stamp),
                Some(Event::Recovery) => run.recovery = true,
                _ => {}
            }
        }
        runs.push(run);
    }

    // Events of the current run (the whole tail when it holds no start).
    let (cur_from, cur_to) = *bounds.last().expect("at least one run");
    let mut options: Vec<OptionWarning> = Vec::new();
    let mut denied: Vec<(Option<Stamp>, String)> = Vec::new();
    for i in cur_from..cur_to {
        match &events[i] {
            Some(Event::Option(w))
                if !options
                    .iter()
                    .any(|o| o.option == w.option && o.kind == w.kind) =>
            {
                options.push(w.clone());
            }
            Some(Event::OpenFiles { limit, requested }) => {
                parsed.events.open_files = Some(OpenFilesCapped {
                    limit: *limit,
                    requested: *requested,
                    at: lines[i].stamp.map(|s| s.display()),
                });
            }
            Some(Event::ChangedLimits(c)) => {
                for c in c {
                    parsed
                        .events
                        .changed_limits
                        .retain(|x| x.variable != c.variable);
                    parsed.events.changed_limits.push(c.clone());
                }
            }
            Some(Event::AccessDenied(a)) => denied.push((lines[i].stamp, a.clone())),
            _ => {}
        }
    }
    parsed.events.options = options;
    parsed.events.access_denied = access_denied(&denied);

    if current_has_start {
        let current = runs.last().expect("a current run");
        parsed.current_start = current.start;
        let restarted_at = current.start.map(|s| s.display());
        if runs.len() >= 2 {
            let previous = &runs[runs.len() - 2];
            let stop = match (&previous.crash, &previous.clean) {
                (Some((at, what)), _) => Some(Stop {
                    kind: StopKind::Crash,
                    at: at.or(previous.last).map(|s| s.display()),
                    detail: Some(what.clone()),
                    restarted_at: restarted_at.clone(),
                    recovery: current.recovery,
                }),
                (None, Some(at)) => Some(Stop {
                    kind: StopKind::Clean,
                    at: at.map(|s| s.display()),
                    detail: None,
                    restarted_at: restarted_at.clone(),
                    recovery: current.recovery,
                }),
                (None, None) if previous.lines > 0 => Some(Stop {
                    kind: StopKind::Unclean,
                    at: previous.last.map(|s| s.display()),
                    detail: None,
                    restarted_at: restarted_at.clone(),
                    recovery: current.recovery,
                }),
                (None, None) => None,
            };
            parsed.events.previous_stop = stop;
            for r in &runs[..runs.len() - 2] {
                if let Some((at, what)) = &r.crash {
                    parsed.events.earlier_crashes.push(Stop {
                        kind: StopKind::Crash,
                        at: at.or(r.last).map(|s| s.display()),
                        detail: Some(what.clone()),
                        restarted_at: None,
                        recovery: false,
                    });
                }
            }
            let n = parsed.events.earlier_crashes.len();
            if n > 10 {
                parsed.events.earlier_crashes.drain(..n - 10);
            }
        } else if current.recovery {
            parsed.events.previous_stop = Some(Stop {
                kind: StopKind::Unclean,
                at: None,
                detail: None,
                restarted_at,
                recovery: true,
            });
        }
    }
    parsed
}

fn access_denied(denied: &[(Option<Stamp>, String)]) -> Option<AccessDenied> {
    if denied.is_empty() {
        return None;
    }
    let mut per: BTreeMap<&str, u64> = BTreeMap::new();
    for (_, a) in denied {
        *per.entry(a.as_str()).or_default() += 1;
    }
    let mut top: Vec<(&str, u64)> = per.iter().map(|(a, n)| (*a, *n)).collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let times: Vec<i64> = denied
        .iter()
        .filter_map(|(s, _)| s.map(|s| s.civil))
        .collect();
    let mut peak = 0;
    let mut lo = 0;
    for hi in 0..times.len() {
        while times[hi] - times[lo] >= 60 {
            lo += 1;
        }
        peak = peak.max(hi - lo + 1);
    }
    let stamps: Vec<Stamp> = denied.iter().filter_map(|(s, _)| *s).collect();
    Some(AccessDenied {
        count: denied.len() as u64,
        peak_per_minute: peak as u64,
        accounts: per.len() as u64,
        top: top
            .into_iter()
            .take(3)
            .map(|(a, n)| AccountCount {
                account: a.to_string(),
                count: n,
            })
            .collect(),
        first: stamps.first().map(Stamp::display),
        last: stamps.last().map(Stamp::display),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_log_error_like_the_server() {
        assert_eq!(resolve("", Some("/var/lib/mysql/")), Destination::Stderr);
        assert_eq!(resolve("stderr", None), Destination::Stderr);
        assert_eq!(resolve("/dev/stderr", None), Destination::Stderr);
        assert_eq!(
            resolve("./vm.err", Some("/var/lib/mysql/")),
            Destination::File("/var/lib/mysql/vm.err".into())
        );
        assert_eq!(
            resolve("/var/log/mysql/error.log", Some("/d")),
            Destination::File("/var/log/mysql/error.log".into())
        );
    }

    #[test]
    fn timestamps_of_every_format() {
        let l = parse_line("2026-12-01 13:20:43 0 [Warning] 'x' was removed.");
        assert_eq!(l.stamp.unwrap().display(), "2026-12-01 13:20:43");
        assert_eq!(l.thread, Some(0));
        assert_eq!(l.level, Some("Warning"));
        assert_eq!(l.message, "'x' was removed.");
        let l = parse_line(
            "2025-10-01T20:38:20.318797Z 0 [Warning] [MY-010140] [Server] Could not increase",
        );
        assert_eq!(l.stamp.unwrap().display(), "2025-10-01 20:38:20 UTC");
        assert_eq!(l.message, "Could not increase");
        let l = parse_line(
            "2023-06-26T10:20:02.359283+08:00 0 [Note] [MY-012551] [InnoDB] Database was not shutdown normally!",
        );
        assert_eq!(l.stamp.unwrap().offset, Some(8 * 3600));
        assert_eq!(l.message, "Database was not shutdown normally!");
        let l = parse_line("261201 13:21:12 [ERROR] mariadbd got signal 11 ;");
        assert_eq!(l.stamp.unwrap().display(), "2026-12-01 13:21:12");
        assert_eq!(l.thread, None);
        assert_eq!(classify(&l), Some(Event::Crash("signal 11".into())));
        let l = parse_line(
            "160105  9:10:50 [Warning] option 'open_files_limit': unsigned value 18446744073709551615 adjusted to 4294967295",
        );
        assert_eq!(l.stamp.unwrap().display(), "2016-01-05 09:10:50");
        let l = parse_line("2024-02-14T19:24:28Z UTC - mysqld got signal 11 ;");
        assert_eq!(l.stamp.unwrap().display(), "2024-02-14 19:24:28 UTC");
        assert_eq!(classify(&l), Some(Event::Crash("signal 11".into())));
        let l = parse_line("Version: '10.11.19-MariaDB-0+deb12u1'  socket: '/tmp/s'  port: 0");
        assert_eq!(l.stamp, None);
        // Docker's entrypoint lines are not the server's.
        assert_eq!(
            parse_line("2026-06-28 08:27:37+00:00 [Note] [Entrypoint]: Starting temporary server")
                .stamp,
            None
        );
    }

    #[test]
    fn option_names_never_keep_values() {
        assert_eq!(
            option_name("loose-foo_password=hunter2").as_deref(),
            Some("foo_password")
        );
        assert_eq!(option_name("--loose-bar").as_deref(), Some("bar"));
        assert_eq!(
            option_name("innodb-log-files-in-group").as_deref(),
            Some("innodb_log_files_in_group")
        );
        assert_eq!(option_name("a b"), None);
    }

    #[test]
    fn changed_limits_of_both_servers() {
        assert_eq!(
            changed_limits(
                "max_open_files: 20000  max_connections: 16770 (was 100000)  table_cache: 200 (was 2000)"
            ),
            vec![
                ChangedLimit {
                    variable: "max_connections".into(),
                    value: 16770,
                    requested: 100000
                },
                ChangedLimit {
                    variable: "table_open_cache".into(),
                    value: 200,
                    requested: 2000
                },
            ]
        );
        assert_eq!(
            changed_limits("table_open_cache: 400 (requested 40000)"),
            vec![ChangedLimit {
                variable: "table_open_cache".into(),
                value: 400,
                requested: 40000
            }]
        );
        assert!(changed_limits("max_open_files: 20000  max_connections: 19810 (was 100000)  table_cache: 10 (was 10)").len() == 1);
    }

    #[test]
    fn uptime_agreement_allows_summer_time() {
        assert!(matches_uptime(1000, 1030));
        assert!(matches_uptime(4600, 1000));
        assert!(!matches_uptime(2000, 1000));
    }
}
