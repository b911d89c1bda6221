//! `!include` / `!includedir` on real files in temporary directories:
//! relative paths, ordering, `*.cnf` filtering, cycles, depth, missing and
//! unreadable targets, and file-level problems (encoding, permissions).

use std::fs;
use std::path::Path;

use mytune::cnf::{CnfErrorKind, LoadedFiles, MAX_INCLUDE_DEPTH, load, load_str};

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        fs::create_dir_all(parent).unwrap();
    }
    fs::write(&p, text).unwrap();
    p
}

fn kinds(f: &LoadedFiles) -> Vec<CnfErrorKind> {
    f.errors.iter().map(|e| e.kind).collect()
}

fn values(f: &LoadedFiles, name: &str) -> Vec<String> {
    f.entries
        .iter()
        .filter(|e| e.name == name)
        .filter_map(|e| e.value.clone())
        .collect()
}

#[test]
fn include_is_relative_to_the_including_file_and_read_in_place() {
    let tmp = tempfile::tempdir().unwrap();
    let top = write(
        tmp.path(),
        "my.cnf",
        "[mysqld]\nport = 1\n!include sub/extra.cnf\nport = 3\n",
    );
    write(tmp.path(), "sub/extra.cnf", "[mysqld]\nport = 2\n");
    let f = load(&top).unwrap();
    assert!(f.errors.is_empty(), "{:?}", f.errors);
    assert_eq!(values(&f, "port"), vec!["1", "2", "3"]);
    assert_eq!(f.files, vec![top.clone(), tmp.path().join("sub/extra.cnf")]);
    assert_eq!(f.entries[1].location.file, tmp.path().join("sub/extra.cnf"));
    assert_eq!(f.entries[1].location.line, 2);
}

#[test]
fn an_included_file_starts_without_a_group() {
    // The server's group state is per file: an included file needs its own
    // header, and the including file's group goes on after the include.
    let tmp = tempfile::tempdir().unwrap();
    let top = write(
        tmp.path(),
        "my.cnf",
        "[mysqld]\n!include inc.cnf\nafter = 1\n",
    );
    write(tmp.path(), "inc.cnf", "orphan = 1\n[client]\nuser = x\n");
    let f = load(&top).unwrap();
    assert_eq!(kinds(&f), vec![CnfErrorKind::OptionWithoutGroup]);
    assert_eq!(f.errors[0].location.file, tmp.path().join("inc.cnf"));
    let groups: Vec<(&str, &str)> = f
        .entries
        .iter()
        .map(|e| (e.group.as_str(), e.name.as_str()))
        .collect();
    assert_eq!(groups, vec![("client", "user"), ("mysqld", "after")]);
}

#[test]
fn includedir_reads_only_cnf_files_sorted_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let conf = tmp.path().join("conf.d");
    for (name, n) in [
        ("50-server.cnf", "50"),
        ("10-base.cnf", "10"),
        ("99-last.cnf", "99"),
        ("Z-upper.cnf", "Z"),
        ("60-galera.cnf.disabled", "x"),
        ("70-win.ini", "x"),
        ("80-upper.CNF", "x"),
        ("README", "x"),
    ] {
        write(&conf, name, &format!("[mysqld]\nmark = {n}\n"));
    }
    fs::create_dir(conf.join("dir.cnf")).unwrap();
    let top = write(tmp.path(), "my.cnf", "[mysqld]\n!includedir conf.d\n");
    let f = load(&top).unwrap();
    assert!(f.errors.is_empty(), "{:?}", f.errors);
    // Byte order: digits < uppercase.
    assert_eq!(values(&f, "mark"), vec!["10", "50", "99", "Z"]);
    assert_eq!(f.files.len(), 5);
}

#[test]
fn include_cycles_are_reported_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let a = write(tmp.path(), "a.cnf", "[mysqld]\na = 1\n!include b.cnf\n");
    write(tmp.path(), "b.cnf", "[mysqld]\nb = 1\n!include a.cnf\n");
    let f = load(&a).unwrap();
    assert_eq!(kinds(&f), vec![CnfErrorKind::IncludeCycle]);
    let e = &f.errors[0];
    assert_eq!(e.location.file, tmp.path().join("b.cnf"));
    assert_eq!((e.location.line, e.location.column), (3, 10));
    assert!(e.message.contains("a.cnf -> ") && e.message.contains("b.cnf"));
    assert_eq!(f.entries.len(), 2);
}

#[test]
fn a_file_including_itself_through_includedir_is_a_cycle() {
    let tmp = tempfile::tempdir().unwrap();
    let top = write(tmp.path(), "self.cnf", "[mysqld]\nx = 1\n!includedir .\n");
    let f = load(&top).unwrap();
    assert_eq!(kinds(&f), vec![CnfErrorKind::IncludeCycle]);
    assert_eq!(f.entries.len(), 1);
}

#[test]
fn include_depth_is_limited() {
    let tmp = tempfile::tempdir().unwrap();
    let n = MAX_INCLUDE_DEPTH + 3;
    for i in 0..n {
        write(
            tmp.path(),
            &format!("f{i}.cnf"),
            &format!("[mysqld]\nlevel = {i}\n!include f{}.cnf\n", i + 1),
        );
    }
    write(tmp.path(), &format!("f{n}.cnf"), "[mysqld]\n");
    let f = load(&tmp.path().join("f0.cnf")).unwrap();
    assert_eq!(kinds(&f), vec![CnfErrorKind::IncludeTooDeep]);
    // Levels 0..=10 are read, as the server does.
    assert_eq!(values(&f, "level").len(), MAX_INCLUDE_DEPTH + 1);
}

#[test]
fn missing_include_and_unreadable_dir_are_errors_not_panics() {
    let tmp = tempfile::tempdir().unwrap();
    let top = write(
        tmp.path(),
        "my.cnf",
        "[mysqld]\n!include nope.cnf\n!includedir /nonexistent/conf.d/\n!include /dev/null\n!include .\nlast = 1\n",
    );
    let f = load(&top).unwrap();
    assert_eq!(
        kinds(&f),
        vec![
            CnfErrorKind::IncludeNotFound,
            CnfErrorKind::IncludeDirAbsent,
            CnfErrorKind::IncludeUnreadable,
            CnfErrorKind::IncludeUnreadable,
        ]
    );
    let lines: Vec<u32> = f.errors.iter().map(|e| e.location.line).collect();
    assert_eq!(lines, vec![2, 3, 4, 5]);
    assert_eq!(values(&f, "last"), vec!["1"]);
}

#[test]
fn load_str_resolves_includes_next_to_the_named_path() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "inc.cnf", "[client]\nuser = u\n");
    let f = load_str(
        "[mysqld]\n!include inc.cnf\n",
        &tmp.path().join("virtual.cnf"),
    );
    assert!(f.errors.is_empty(), "{:?}", f.errors);
    assert_eq!(values(&f, "user"), vec!["u"]);
}

#[test]
fn unreadable_top_file_is_err() {
    let err = load(Path::new("/nonexistent/my.cnf")).unwrap_err();
    assert_eq!(err.kind, CnfErrorKind::Io);
    assert!(err.to_string().starts_with("/nonexistent/my.cnf"));
}

#[test]
fn non_utf8_bytes_are_an_error_with_position() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("latin1.cnf");
    fs::write(
        &p,
        b"[mysqld]\n# caf\xe9\ninit_connect = 'SET NAMES latin1' # \xff\xfe\nport = 1\n",
    )
    .unwrap();
    let f = load(&p).unwrap();
    let got: Vec<(CnfErrorKind, u32, u32)> = f
        .errors
        .iter()
        .map(|e| (e.kind, e.location.line, e.location.column))
        .collect();
    assert_eq!(
        got,
        vec![
            (CnfErrorKind::InvalidUtf8, 2, 6),
            (CnfErrorKind::InvalidUtf8, 3, 37),
        ]
    );
    assert_eq!(f.entries.len(), 2);
    assert_eq!(f.entries[0].value.as_deref(), Some("SET NAMES latin1"));
}

#[cfg(unix)]
#[test]
fn world_writable_files_are_flagged() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let p = write(tmp.path(), "ww.cnf", "[mysqld]\nport = 1\n");
    fs::set_permissions(&p, fs::Permissions::from_mode(0o666)).unwrap();
    let f = load(&p).unwrap();
    assert_eq!(kinds(&f), vec![CnfErrorKind::WorldWritable]);
    assert_eq!(f.entries.len(), 1);
}
