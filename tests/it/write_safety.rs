//! Files mytune writes stay files the server can read, and nothing is
//! written over what should not be (issue 50, points 2 and 6).
//!
//! - A file replaced keeps its owner, group and mode (`lint --fix` of a
//!   `mysql:mysql 0640` include, `gen-cnf --base F -o F`); one with other
//!   hard links, one whose owner cannot be given back, or one in a directory
//!   that cannot be written is refused with exit 2, byte-identical, with no
//!   temporary file left.
//! - A new option file gets 0644 less the umask; a report stays 0600.
//! - Every writer follows a symbolic link at its destination and keeps the
//!   link, except a link another user planted in a sticky directory.
//! - `--write-baseline` never replaces an input, an included file, or an
//!   option file.
//! - A server running as `mysql` from the start (as systemd starts it) reads
//!   the file `gen-cnf -o` wrote through `!includedir`; the same file as
//!   0600 root:root is skipped by that server, which is what went wrong.
//!
//! Tests that need another OS user run as root (as CI does) and skip
//! visibly otherwise, or panic under MYTUNE_REQUIRE_LIVE=1.

use crate::support::mariadb;

use crate::support::run::stderr;
use std::ffi::OsStr;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_mytune");

/// gen-cnf for a described MariaDB host; its file sets max_connections.
const GEN_CNF: [&str; 7] = [
    "gen-cnf",
    "--target",
    "mariadb-10.11",
    "--memory",
    "512M",
    "--cpus",
    "2",
];

/// A MySQL 8.0 line `lint --fix` renames (removed in 8.0; documented
/// successor transaction_isolation).
const FIXABLE: &str = "[mysqld]\ntx_isolation = SERIALIZABLE\n";

/// `mytune ARGS` under `umask`, as the user `user` (uid, gid) when given.
fn mytune_as<S: AsRef<OsStr>>(user: Option<(u32, u32)>, umask: &str, args: &[S]) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(args);
    if let Some((uid, gid)) = user {
        cmd.uid(uid).gid(gid);
    }
    cmd.output().expect("mytune runs")
}

fn mytune<S: AsRef<OsStr>>(args: &[S]) -> Output {
    mytune_as(None, "022", args)
}

/// (uid, gid, permission bits) of `p`, links followed.
fn owner_mode(p: &Path) -> (u32, u32, u32) {
    let m = fs::metadata(p).unwrap();
    (m.uid(), m.gid(), m.mode() & 0o7777)
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The `mysql` user's (uid, gid) when this test runs as root; else `None`
/// after saying why the test skips (a panic under MYTUNE_REQUIRE_LIVE=1).
fn mysql_user_as_root(what: &str) -> Option<(u32, u32)> {
    if !mariadb::is_root() {
        return mariadb::skip_or_panic(&format!("{what} needs root"));
    }
    match mariadb::os_user("mysql") {
        Ok(ids) => Some(ids),
        Err(e) => mariadb::skip_or_panic(&format!("{what}: {e}")),
    }
}

/// A temporary directory every user may enter (tempdir makes it 0700).
fn open_tempdir() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    fs::set_permissions(d.path(), fs::Permissions::from_mode(0o755)).unwrap();
    d
}

fn chown(p: &Path, (uid, gid): (u32, u32)) {
    std::os::unix::fs::lchown(p, Some(uid), Some(gid)).unwrap();
}

fn chmod(p: &Path, mode: u32) {
    fs::set_permissions(p, fs::Permissions::from_mode(mode)).unwrap();
}

/// The value of the `max_connections = N` line of an option file.
fn max_connections_in(text: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix("max_connections = "))
        .unwrap_or_else(|| panic!("no max_connections line:\n{text}"))
        .trim()
        .to_string()
}

// ---- a file replaced keeps its owner, group and mode -------------------

#[test]
fn lint_fix_as_root_keeps_a_mysql_owned_0640_include_mysql_mysql_0640() {
    let Some(mysql) = mysql_user_as_root("fixing a file another user owns") else {
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let inc = d.path().join("conf.d/tuning.cnf");
    fs::create_dir(d.path().join("conf.d")).unwrap();
    fs::write(&inc, FIXABLE).unwrap();
    chown(&inc, mysql);
    chmod(&inc, 0o640);
    let top = d.path().join("my.cnf");
    let text = format!(
        "[mysqld]\n!includedir {}\n",
        d.path().join("conf.d").display()
    );
    fs::write(&top, text).unwrap();
    let o = mytune(&[
        OsStr::new("lint"),
        "--target".as_ref(),
        "mysql-8.0".as_ref(),
        "--fix".as_ref(),
        d.path().as_os_str(),
    ]);
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
    let text = fs::read_to_string(&inc).unwrap();
    assert!(
        text.contains("transaction_isolation = SERIALIZABLE"),
        "{text}"
    );
    assert_eq!(owner_mode(&inc), (mysql.0, mysql.1, 0o640));
    assert_eq!(listing(&d.path().join("conf.d")), ["tuning.cnf"]);
}

#[test]
fn gen_cnf_base_f_o_f_keeps_the_owner_group_and_mode_of_f() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("99-mytune.cnf");
    fs::write(&f, "[mariadb]\n# mine\nmax_connections = 77\n").unwrap();
    if let Some(mysql) = mariadb::is_root()
        .then(|| mariadb::os_user("mysql").ok())
        .flatten()
    {
        chown(&f, mysql);
    }
    chmod(&f, 0o640);
    let before = owner_mode(&f);
    let mut args: Vec<&OsStr> = GEN_CNF.iter().map(OsStr::new).collect();
    args.extend([
        "--base".as_ref(),
        f.as_os_str(),
        "-o".as_ref(),
        f.as_os_str(),
    ]);
    let o = mytune(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = fs::read_to_string(&f).unwrap();
    assert!(text.contains("# mine"), "{text}");
    assert!(text.contains("(was 77)"), "{text}");
    assert_eq!(owner_mode(&f), before);
}

#[test]
fn a_hard_linked_file_is_refused_and_left_byte_identical() {
    let d = tempfile::tempdir().unwrap();
    let a = d.path().join("a.cnf");
    fs::write(&a, FIXABLE).unwrap();
    fs::hard_link(&a, d.path().join("b.cnf")).unwrap();
    let o = mytune(&[
        OsStr::new("lint"),
        "--target".as_ref(),
        "mysql-8.0".as_ref(),
        "--fix".as_ref(),
        a.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("it has 2 hard links"), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(&a).unwrap(), FIXABLE);
    assert_eq!(listing(d.path()), ["a.cnf", "b.cnf"]);
    // gen-cnf -o onto it: the same refusal.
    let mut args: Vec<&OsStr> = GEN_CNF.iter().map(OsStr::new).collect();
    args.extend(["-o".as_ref(), a.as_os_str()]);
    let o = mytune(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(&a).unwrap(), FIXABLE);
    assert_eq!(listing(d.path()), ["a.cnf", "b.cnf"]);
}

#[test]
fn a_file_whose_owner_cannot_be_given_back_is_refused_when_not_root() {
    let Some(mysql) = mysql_user_as_root("running mytune as another user") else {
        return;
    };
    // A directory mysql may write, holding root's file: mysql could
    // replace it, but the new file would be mysql's.
    let d = open_tempdir();
    let dir = d.path().join("conf");
    fs::create_dir(&dir).unwrap();
    let f = dir.join("my.cnf");
    fs::write(&f, FIXABLE).unwrap();
    chmod(&f, 0o644);
    chown(&dir, mysql);
    let o = mytune_as(
        Some(mysql),
        "022",
        &[
            OsStr::new("lint"),
            "--target".as_ref(),
            "mysql-8.0".as_ref(),
            "--fix".as_ref(),
            f.as_os_str(),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("it belongs to root (uid 0)")
            && stderr(&o).contains("cannot give the new file that owner"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read_to_string(&f).unwrap(), FIXABLE);
    assert_eq!(owner_mode(&f), (0, 0, 0o644));
    assert_eq!(listing(&dir), ["my.cnf"]);
}

#[test]
fn a_read_only_directory_is_refused_with_exit_2_and_no_temp_file() {
    // Root writes any directory: run as mysql then, as a user would.
    let user = if mariadb::is_root() {
        match mysql_user_as_root("a read-only directory") {
            Some(u) => Some(u),
            None => return,
        }
    } else {
        None
    };
    let d = open_tempdir();
    let dir = d.path().join("conf.d");
    fs::create_dir(&dir).unwrap();
    let f = dir.join("99-mytune.cnf");
    fs::write(&f, "[mariadb]\nmax_connections = 77\n").unwrap();
    if let Some(u) = user {
        chown(&dir, u);
        chown(&f, u);
    }
    chmod(&dir, 0o555);
    for out in [&f, &dir.join("new.cnf")] {
        let mut args: Vec<&OsStr> = GEN_CNF.iter().map(OsStr::new).collect();
        args.extend(["-o".as_ref(), out.as_os_str()]);
        let o = mytune_as(user, "022", &args);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot be written") && stderr(&o).contains("nothing was changed"),
            "{}",
            stderr(&o)
        );
        assert_eq!(listing(&dir), ["99-mytune.cnf"]);
    }
    assert_eq!(
        fs::read_to_string(&f).unwrap(),
        "[mariadb]\nmax_connections = 77\n"
    );
    chmod(&dir, 0o755);
}

// ---- a new file's mode --------------------------------------------------

#[test]
fn gen_cnf_o_creates_0644_under_umask_022_and_0640_under_027() {
    let d = tempfile::tempdir().unwrap();
    for (umask, want) in [("022", 0o644), ("027", 0o640)] {
        let out = d.path().join(format!("99-mytune-{umask}.cnf"));
        let mut args: Vec<&OsStr> = GEN_CNF.iter().map(OsStr::new).collect();
        args.extend(["-o".as_ref(), out.as_os_str()]);
        let o = mytune_as(None, umask, &args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(owner_mode(&out).2, want, "umask {umask}");
    }
}

#[test]
fn a_check_report_stays_0600_whatever_the_umask() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("report.txt");
    let snap = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/snapshots/mariadb1011-tuned-64g-16cpu.json");
    let o = mytune_as(
        None,
        "000",
        &[
            OsStr::new("check"),
            "--snapshot".as_ref(),
            snap.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ],
    );
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(owner_mode(&out).2, 0o600);
}

// ---- --write-baseline never replaces an input or an option file ---------

fn write_baseline(dest: &Path, files: &[&Path]) -> Output {
    let mut args: Vec<&OsStr> = vec![
        "lint".as_ref(),
        "--target".as_ref(),
        "mysql-8.0".as_ref(),
        "--write-baseline".as_ref(),
        dest.as_os_str(),
    ];
    args.extend(files.iter().map(|f| f.as_os_str()));
    mytune(&args)
}

#[test]
fn write_baseline_onto_an_input_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let inc = d.path().join("inc.cnf");
    fs::write(&inc, FIXABLE).unwrap();
    let cnf = d.path().join("my.cnf");
    let text = format!(
        "[mysqld]\nmax_connections = 10\n!include {}\n",
        inc.display()
    );
    fs::write(&cnf, &text).unwrap();
    let link = d.path().join("baseline-link");
    std::os::unix::fs::symlink(&cnf, &link).unwrap();
    let other = d.path().join("other.txt");
    fs::write(&other, "[client]\nuser = app\n").unwrap();
    for (dest, says) in [
        (&cnf, "a file this run lints"),
        (&link, "a file this run lints"),
        (&inc, "a file this run lints (through an !include)"),
        (&other, "it is an option file ([client] on line 1)"),
    ] {
        let o = write_baseline(dest, &[&cnf]);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{}: {}",
            dest.display(),
            stderr(&o)
        );
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
    }
    assert_eq!(fs::read_to_string(&cnf).unwrap(), text);
    assert_eq!(fs::read_to_string(&inc).unwrap(), FIXABLE);
    assert_eq!(
        fs::read_to_string(&other).unwrap(),
        "[client]\nuser = app\n"
    );
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        listing(d.path()),
        ["baseline-link", "inc.cnf", "my.cnf", "other.txt"]
    );
    // A baseline written before is replaced, as it is meant to be.
    let baseline = d.path().join("baseline.txt");
    for _ in 0..2 {
        let o = write_baseline(&baseline, &[&cnf]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    assert!(
        fs::read_to_string(&baseline)
            .unwrap()
            .starts_with("# mytune lint baseline")
    );
}

// ---- one rule for symbolic links, for every writer ----------------------

/// The writer followed `link`: the link is still there, its target holds
/// what was written, and one stderr line said so.
fn assert_followed(o: &Output, link: &Path, target: &Path) {
    assert_ne!(o.status.code(), Some(2), "{}", stderr(o));
    assert!(
        fs::symlink_metadata(link).unwrap().file_type().is_symlink(),
        "the link {} was replaced",
        link.display()
    );
    assert_eq!(fs::read_link(link).unwrap(), target);
    let said: Vec<_> = stderr(o)
        .lines()
        .filter(|l| l.contains("is a symbolic link: wrote its target"))
        .map(str::to_string)
        .collect();
    assert_eq!(said.len(), 1, "{}", stderr(o));
    assert!(
        said[0].contains(&target.display().to_string()),
        "{}",
        said[0]
    );
}

/// A link `name` in `d` to `target` (created with `text` when given).
fn link_to(d: &Path, name: &str, target: &str, text: Option<&str>) -> (PathBuf, PathBuf) {
    let target = d.join(target);
    if let Some(t) = text {
        fs::write(&target, t).unwrap();
    }
    let link = d.join(name);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    (link, target)
}

#[test]
fn gen_cnf_o_follows_a_symlink_and_creates_its_target_0644() {
    let d = tempfile::tempdir().unwrap();
    let (link, target) = link_to(d.path(), "99-mytune.cnf", "managed.cnf", None);
    let mut args: Vec<&OsStr> = GEN_CNF.iter().map(OsStr::new).collect();
    args.extend(["-o".as_ref(), link.as_os_str()]);
    let o = mytune(&args);
    assert_followed(&o, &link, &target);
    assert!(fs::read_to_string(&target).unwrap().contains("[mariadb]"));
    assert_eq!(owner_mode(&target).2, 0o644);
}

#[test]
fn check_o_follows_a_symlink_and_keeps_the_target_mode() {
    let d = tempfile::tempdir().unwrap();
    let (link, target) = link_to(d.path(), "report.txt", "reports-report.txt", Some("old"));
    chmod(&target, 0o640);
    let snap = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/snapshots/mariadb1011-tuned-64g-16cpu.json");
    let o = mytune(&[
        OsStr::new("check"),
        "--snapshot".as_ref(),
        snap.as_os_str(),
        "-o".as_ref(),
        link.as_os_str(),
    ]);
    assert_followed(&o, &link, &target);
    assert_ne!(fs::read_to_string(&target).unwrap(), "old");
    assert_eq!(owner_mode(&target).2, 0o640);
}

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn collect_o_follows_a_symlink_and_creates_its_target_0600() {
    let Some(server) = mariadb::TestServer::start("") else {
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let (link, target) = link_to(d.path(), "snap.json", "snapshots-today.json", None);
    let mut args: Vec<String> = vec!["collect".into()];
    args.extend(server.mytune_args());
    args.extend(["--no-host".into(), "-o".into(), link.display().to_string()]);
    let o = mytune(&args);
    assert_followed(&o, &link, &target);
    assert!(fs::read_to_string(&target).unwrap().contains("\"server\""));
    assert_eq!(owner_mode(&target).2, 0o600);
}

#[test]
fn gen_limits_output_dir_follows_a_symlink_and_keeps_the_old_target_as_bak() {
    let d = tempfile::tempdir().unwrap();
    let limits = d.path().join("out/etc/security/limits.d");
    fs::create_dir_all(&limits).unwrap();
    let target = d.path().join("managed-limits.conf");
    fs::write(&target, "# managed\n").unwrap();
    let link = limits.join("90-mytune-mysql.conf");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = d.path().join("out");
    let o = mytune(&[
        OsStr::new("gen-limits"),
        "--target".as_ref(),
        "mysql-8.0".as_ref(),
        "--memory".as_ref(),
        "64G".as_ref(),
        "--cpus".as_ref(),
        "16".as_ref(),
        "--connections".as_ref(),
        "2000".as_ref(),
        "--output-dir".as_ref(),
        out.as_os_str(),
    ]);
    assert_followed(&o, &link, &target);
    assert!(fs::read_to_string(&target).unwrap().contains("nofile"));
    assert_eq!(
        fs::read_to_string(d.path().join("managed-limits.conf.bak")).unwrap(),
        "# managed\n"
    );
}

#[test]
fn lint_fix_follows_a_symlink_and_fixes_its_target() {
    let d = tempfile::tempdir().unwrap();
    let (link, target) = link_to(d.path(), "my.cnf", "real.cnf", Some(FIXABLE));
    let o = mytune(&[
        OsStr::new("lint"),
        "--target".as_ref(),
        "mysql-8.0".as_ref(),
        "--fix".as_ref(),
        link.as_os_str(),
    ]);
    assert_followed(&o, &link, &target);
    assert!(
        fs::read_to_string(&target)
            .unwrap()
            .contains("transaction_isolation")
    );
}

#[test]
fn lint_pin_defaults_follows_a_symlink_and_pins_in_its_target() {
    let d = tempfile::tempdir().unwrap();
    let (link, target) = link_to(
        d.path(),
        "my.cnf",
        "real.cnf",
        Some("[mysqld]\ninnodb_buffer_pool_size = 4G\n"),
    );
    let o = mytune(&[
        OsStr::new("lint"),
        "--from".as_ref(),
        "mysql-8.0".as_ref(),
        "--target".as_ref(),
        "mysql-8.4".as_ref(),
        "--fix".as_ref(),
        "--pin-defaults".as_ref(),
        link.as_os_str(),
    ]);
    assert!(
        stderr(&o).contains("pinned the old defaults in 1 file(s)"),
        "{}",
        stderr(&o)
    );
    assert_followed(&o, &link, &target);
    assert!(
        fs::read_to_string(&target)
            .unwrap()
            .contains("innodb_io_capacity = 200")
    );
}

#[test]
fn write_baseline_follows_a_symlink_and_writes_its_target() {
    let d = tempfile::tempdir().unwrap();
    let cnf = d.path().join("my.cnf");
    fs::write(&cnf, FIXABLE).unwrap();
    let (link, target) = link_to(d.path(), ".mytune-baseline", "ci-baseline.txt", None);
    let o = write_baseline(&link, &[&cnf]);
    assert_followed(&o, &link, &target);
    assert!(
        fs::read_to_string(&target)
            .unwrap()
            .starts_with("# mytune lint baseline")
    );
    assert_eq!(owner_mode(&target).2, 0o644);
}

#[test]
fn man_dir_follows_a_symlink_at_a_page() {
    let d = tempfile::tempdir().unwrap();
    let pages = d.path().join("man1");
    fs::create_dir(&pages).unwrap();
    let target = d.path().join("mytune-lint.1.shared");
    let link = pages.join("mytune-lint.1");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let o = mytune(&[OsStr::new("man"), "--dir".as_ref(), pages.as_os_str()]);
    assert_followed(&o, &link, &target);
    assert!(fs::read_to_string(&target).unwrap().contains(".TH"));
}

#[test]
fn a_link_another_user_planted_in_a_sticky_directory_is_not_followed() {
    let Some(mysql) = mysql_user_as_root("a link owned by another user") else {
        return;
    };
    let d = open_tempdir();
    let precious = d.path().join("precious.cnf");
    fs::write(&precious, "[mysqld]\n# root's\n").unwrap();
    let shared = d.path().join("shared");
    fs::create_dir(&shared).unwrap();
    chmod(&shared, 0o1777);
    let link = shared.join("out.cnf");
    std::os::unix::fs::symlink(&precious, &link).unwrap();
    chown(&link, mysql);
    let mut args: Vec<&OsStr> = GEN_CNF.iter().map(OsStr::new).collect();
    args.extend(["-o".as_ref(), link.as_os_str()]);
    let o = mytune(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("mytune does not follow it"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        fs::read_to_string(&precious).unwrap(),
        "[mysqld]\n# root's\n"
    );
    assert_eq!(listing(&shared), ["out.cnf"]);
}

// ---- the server reads what gen-cnf wrote ---------------------------------

#[test]
#[cfg_attr(
    mytune_no_mariadbd,
    ignore = "needs mariadbd (apt-get install mariadb-server)"
)]
fn a_server_running_as_mysql_reads_the_file_gen_cnf_o_wrote_through_includedir() {
    if mysql_user_as_root("a server running as mysql").is_none() {
        return;
    }
    let d = open_tempdir();
    let confd = d.path().join("mariadb.conf.d");
    fs::create_dir(&confd).unwrap();
    chmod(&confd, 0o755);
    let file = confd.join("99-mytune.cnf");
    let mut args: Vec<&OsStr> = GEN_CNF.iter().map(OsStr::new).collect();
    args.extend(["-o".as_ref(), file.as_os_str()]);
    let o = mytune(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Root's file, as `sudo mytune gen-cnf -o` writes it.
    assert_eq!(owner_mode(&file), (0, 0, 0o644));
    let want = max_connections_in(&fs::read_to_string(&file).unwrap());
    assert_ne!(want, "151", "the file must change max_connections");
    let include = format!("!includedir {}", confd.display());
    let Some(server) = mariadb::TestServer::start_as_user(&include, "mysql") else {
        return;
    };
    // The server is mysql's: its pid file is.
    let (uid, _) = mariadb::os_user("mysql").unwrap();
    assert_eq!(fs::metadata(server.dir().join("pid")).unwrap().uid(), uid);
    let got = server.sql("SELECT @@max_connections").unwrap();
    assert_eq!(
        got.trim(),
        want,
        "the server did not read {}",
        file.display()
    );
    drop(server);
    // What mytune wrote before: root's 0600 file, which that server skips
    // without a word and runs on its defaults.
    chmod(&file, 0o600);
    let Some(server) = mariadb::TestServer::start_as_user(&include, "mysql") else {
        return;
    };
    let got = server.sql("SELECT @@max_connections").unwrap();
    assert_eq!(got.trim(), "151", "a 0600 root file was read after all");
}
