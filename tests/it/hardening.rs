//! The reproducers of issue 14 ("no crash, no hang, no leaked secret, no lost
//! file") against the binary, offline: hostile rule files, closed pipes and
//! full disks, control characters in values, huge values, special files,
//! include fan-outs, symbolic-link loops, atomic writes and credentials in
//! snapshots. Every run is bounded in time so a regression fails instead of
//! hanging CI.

use crate::support::run::{stderr, stdout};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mytune");

/// Run mytune in `dir`, killed after `limit` (the test then fails).
fn run_in(dir: &Path, args: &[&str], limit: Duration) -> (Output, Duration) {
    let start = Instant::now();
    let mut child = crate::support::run::mytune_command()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mytune");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut o = Vec::new();
        let _ = out.read_to_end(&mut o);
        o
    });
    let err_reader = std::thread::spawn(move || {
        let mut e = Vec::new();
        let _ = err.read_to_end(&mut e);
        e
    });
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let o = Output {
                status,
                stdout: reader.join().unwrap(),
                stderr: err_reader.join().unwrap(),
            };
            return (o, start.elapsed());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mytune {args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn run(dir: &Path, args: &[&str]) -> Output {
    run_in(dir, args, Duration::from_secs(30)).0
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/snapshots")
        .join(name)
}

// ---------------------------------------------------------------- rule files

/// A user rule file whose condition is `when` and message `message`.
fn rule_file(when: &str, message: &str) -> String {
    format!(
        "[[rule]]\ncode = \"MT190\"\nname = \"hostile-rule\"\nfamily = \"innodb\"\nseverity = \"warn\"\n\
         when = \"{when}\"\nmessage = \"{message}\"\nrationale = \"r\"\n[[rule.sources]]\ntitle = \"t\"\n"
    )
}

#[test]
fn hostile_rule_files_are_an_error_at_a_position_not_a_stack_overflow() {
    let n = 100_000;
    let cases = [
        (
            "parens",
            rule_file(&format!("{}true{}", "(".repeat(n), ")".repeat(n)), "m"),
            6,
        ),
        (
            "flat-sum",
            rule_file(&format!("{} > 0", vec!["1"; 50_000].join(" + ")), "m"),
            6,
        ),
        (
            "min",
            rule_file(
                &format!("{}1{} > 0", "min(".repeat(10_000), ", 2)".repeat(10_000)),
                "m",
            ),
            6,
        ),
        (
            "if",
            rule_file(
                &format!(
                    "{}1{} > 0",
                    "if(true, ".repeat(10_000),
                    ", 2)".repeat(10_000)
                ),
                "m",
            ),
            6,
        ),
        ("bang", rule_file(&format!("{}true", "!".repeat(n)), "m"), 6),
        (
            "minus",
            rule_file(&format!("{}1 > 0", "-".repeat(n)), "m"),
            6,
        ),
        (
            "template",
            rule_file("true", &format!("{{{}1{}}}", "(".repeat(n), ")".repeat(n))),
            7,
        ),
    ];
    for (what, text, line) in cases {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("r.toml"), text).unwrap();
        for cmd in [
            &["rules", "--rules", "."][..],
            &["explain", "MT190", "--rules", "."],
        ] {
            let o = run(d.path(), cmd);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{what} {cmd:?}: {err}");
            assert!(
                err.starts_with(&format!("./r.toml:{line}:")) && err.contains("nested too deeply"),
                "{what}: {err}"
            );
        }
    }
}

#[test]
fn a_rule_file_that_is_not_utf8_is_an_error_at_the_bad_byte() {
    let d = tempfile::tempdir().unwrap();
    let bad = rule_file("true", "m")
        .into_bytes()
        .split(|b| *b == b'\n')
        .map(|l| {
            if l == b"rationale = \"r\"" {
                b"rationale = \"r\xff\"".to_vec()
            } else {
                l.to_vec()
            }
        })
        .collect::<Vec<_>>()
        .join(&b'\n');
    std::fs::write(d.path().join("r.toml"), bad).unwrap();
    let o = run(d.path(), &["rules", "--rules", "."]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).trim(),
        "./r.toml:8:15: bytes that are not UTF-8; rule files are UTF-8 text"
    );
}

// ------------------------------------------------------------------- output

/// Run with standard output a pipe whose reader is already gone.
fn closed_pipe(dir: &Path, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    crate::support::run::mytune_command()
        .args(args)
        .current_dir(dir)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// Every subcommand that prints, offline.
fn printing_commands(snapshot: &str) -> Vec<Vec<String>> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        s(&["rules"]),
        s(&["rules", "--format", "markdown"]),
        s(&["explain", "MT101"]),
        s(&["lint", "examples/seed000-1gb-vps.cnf"]),
        s(&["check", "--snapshot", snapshot]),
        s(&["gen-cnf", "--memory", "8G", "--cpus", "4"]),
        s(&["gen-sysctl", "--memory", "8G", "--cpus", "4"]),
        s(&GEN_LIMITS),
    ]
}

#[test]
fn a_closed_pipe_ends_every_command_quietly_with_status_141() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let snap = fixture("mariadb1011-tuned-64g-16cpu.json");
    for args in printing_commands(snap.to_str().unwrap()) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = closed_pipe(root, &args);
        assert_eq!(o.status.code(), Some(141), "{args:?}: {}", stderr(&o));
        assert!(
            !stderr(&o).contains("panicked") && !stderr(&o).contains("failed printing"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_full_disk_on_stdout_is_exit_2_with_a_message_in_every_command() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let snap = fixture("mariadb1011-tuned-64g-16cpu.json");
    for args in printing_commands(snap.to_str().unwrap()) {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = crate::support::run::mytune_command()
            .args(&args)
            .current_dir(root)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write the output: No space left on device"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn no_value_can_start_a_line_of_text_output() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("my.cnf"),
        "[mysqld]\nmax_connections = \"x\\n::error file=README.md,line=1::INJECTED\x1b[2J\"\n",
    )
    .unwrap();
    let o = run(d.path(), &["lint", "my.cnf"]);
    let out = stdout(&o);
    assert!(out.contains("MT005"), "{out}");
    assert!(
        out.lines().all(|l| !l.starts_with("::")),
        "a workflow command:\n{out}"
    );
    assert!(!out.contains('\x1b'), "an escape sequence:\n{out}");
    assert!(out.contains(r"x\n::error file=README.md,line=1::INJECTED\x1b[2J"));
}

/// A snapshot with `edit` applied to its JSON.
fn snapshot_with(dir: &Path, edit: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let text = std::fs::read_to_string(fixture("mariadb1011-tuned-64g-16cpu.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    edit(&mut v);
    let p = dir.join("snap.json");
    std::fs::write(&p, v.to_string()).unwrap();
    p
}

#[test]
fn the_check_text_report_is_linear_in_value_length() {
    let d = tempfile::tempdir().unwrap();
    // 1 MB of sql_mode, drifting from the option file: it lands in a table
    // cell. This took over 60 s before cells were clipped.
    let long = "NO_ENGINE_SUBSTITUTION,".repeat(45_000);
    snapshot_with(d.path(), |v| {
        v["server"]["variables"]["sql_mode"] = long.clone().into();
    });
    std::fs::write(
        d.path().join("my.cnf"),
        "[mysqld]\nsql_mode = STRICT_TRANS_TABLES\n",
    )
    .unwrap();
    let (o, took) = run_in(
        d.path(),
        &["check", "--snapshot", "snap.json", "--config", "my.cnf"],
        Duration::from_secs(30),
    );
    assert!(took < Duration::from_secs(10), "took {took:?}");
    let out = stdout(&o);
    assert!(out.contains("more characters)"), "{out}");
    assert!(out.len() < 100_000, "{} bytes", out.len());
    // The JSON report keeps the value whole.
    let o = run(
        d.path(),
        &[
            "check",
            "--snapshot",
            "snap.json",
            "--config",
            "my.cnf",
            "--format",
            "json",
        ],
    );
    assert!(stdout(&o).contains(&long));
}

// ------------------------------------------------------------ bounded input

#[test]
fn special_files_as_inputs_are_refused_with_a_message() {
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("fifo.cnf");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let cases: [&[&str]; 7] = [
        &["lint", "fifo.cnf"],
        &["lint", "/dev/zero"],
        &["lint", "--config", "fifo.cnf", "/dev/null"],
        &["check", "--snapshot", "fifo.cnf"],
        &["check", "--snapshot", "/dev/zero"],
        &["gen-cnf", "--from-snapshot", "/dev/zero"],
        &[
            "gen-cnf",
            "--memory",
            "8G",
            "--cpus",
            "4",
            "--base",
            "/dev/zero",
        ],
    ];
    for args in cases {
        let (o, took) = run_in(d.path(), args, Duration::from_secs(10));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("not a regular file"),
            "{args:?} took {took:?}: {err}"
        );
    }
}

#[test]
fn a_huge_top_level_file_is_refused_before_it_is_read() {
    let d = tempfile::tempdir().unwrap();
    let f = std::fs::File::create(d.path().join("huge.cnf")).unwrap();
    f.set_len(100 << 20).unwrap();
    let (o, took) = run_in(d.path(), &["lint", "huge.cnf"], Duration::from_secs(10));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("more than the 16777216-byte limit"),
        "{}",
        stderr(&o)
    );
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn an_includedir_fan_out_ends_quickly_with_a_clear_error() {
    let d = tempfile::tempdir().unwrap();
    let conf = d.path().join("conf.d");
    std::fs::create_dir(&conf).unwrap();
    for i in 0..10 {
        std::fs::write(
            conf.join(format!("f{i}.cnf")),
            format!("[mysqld]\nmax_connections = {}\n!includedir .\n", 100 + i),
        )
        .unwrap();
    }
    let (o, took) = run_in(d.path(), &["lint", "conf.d"], Duration::from_secs(60));
    let out = stdout(&o);
    assert!(took < Duration::from_secs(20), "took {took:?}");
    assert!(
        out.contains("mytune stopped following them"),
        "{}",
        &out[..out.len().min(2000)]
    );
}

#[test]
fn a_symlink_loop_is_walked_once_and_each_file_linted_once() {
    let d = tempfile::tempdir().unwrap();
    let conf = d.path().join("conf");
    std::fs::create_dir(&conf).unwrap();
    std::fs::write(conf.join("my.cnf"), "[mysqld]\nmax_connections = 100\n").unwrap();
    std::os::unix::fs::symlink(".", conf.join("self")).unwrap();
    let (o, took) = run_in(
        d.path(),
        &["lint", "--format", "json", "conf"],
        Duration::from_secs(20),
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["inputs"].as_array().unwrap().len(), 1, "{}", v["inputs"]);
}

// ------------------------------------------------------------------- files

/// A gen-limits profile the rules recommend limits for (so there are files
/// to write), into `dir`.
const GEN_LIMITS: [&str; 9] = [
    "gen-limits",
    "--target",
    "mysql-8.0",
    "--memory",
    "64G",
    "--cpus",
    "16",
    "--connections",
    "2000",
];

fn gen_limits_to(dir: &str) -> Vec<&str> {
    let mut args = GEN_LIMITS.to_vec();
    args.extend(["--output-dir", dir]);
    args
}

#[test]
fn gen_limits_output_dir_keeps_a_replaced_file_as_bak_and_says_so() {
    let d = tempfile::tempdir().unwrap();
    let args = gen_limits_to("out");
    let o = run(d.path(), &args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let limits = d.path().join("out/etc/security/limits.d");
    let file = std::fs::read_dir(&limits)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::write(&file, "# hand edited\n").unwrap();
    let o = run(d.path(), &args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bak = PathBuf::from(format!("{}.bak", file.display()));
    assert_eq!(std::fs::read_to_string(&bak).unwrap(), "# hand edited\n");
    assert!(
        stderr(&o).contains("kept the previous file as out/etc/security/limits.d/"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn gen_limits_follows_a_symlink_at_the_destination_and_keeps_it() {
    let d = tempfile::tempdir().unwrap();
    let args = gen_limits_to("out");
    assert_eq!(run(d.path(), &args).status.code(), Some(0));
    let limits = d.path().join("out/etc/security/limits.d");
    let file = std::fs::read_dir(&limits)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    // One rule for every output: the link is followed, its target written
    // (the old one kept as .bak beside it), the link kept.
    let target = d.path().join("managed.conf");
    std::fs::write(&target, "# managed elsewhere\n").unwrap();
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(&target, &file).unwrap();
    let o = run(d.path(), &args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(&file)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&target).unwrap().contains("nofile"),
        "{}",
        std::fs::read_to_string(&target).unwrap()
    );
    assert_eq!(
        std::fs::read_to_string(d.path().join("managed.conf.bak")).unwrap(),
        "# managed elsewhere\n"
    );
    assert!(
        stderr(&o).contains("is a symbolic link: wrote its target"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_failed_write_leaves_the_old_file_whole() {
    // A file-size limit stands in for a full disk: the write fails part way.
    let d = tempfile::tempdir().unwrap();
    // A profile for which the rules recommend limits (a file to write).
    let args =
        "gen-limits --target mysql-8.0 --memory 64G --cpus 16 --connections 2000 --output-dir out";
    let ok = Command::new("sh")
        .arg("-c")
        .arg(format!("'{BIN}' {args}"))
        .current_dir(d.path())
        .output()
        .unwrap();
    assert!(ok.status.success());
    let unit = std::fs::read_dir(d.path().join("out/etc/systemd/system"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let dropin = std::fs::read_dir(&unit)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let old = "# the old drop-in\n".repeat(100);
    std::fs::write(&dropin, &old).unwrap();
    std::fs::write(d.path().join("pad"), "x".repeat(600)).unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("trap '' XFSZ; ulimit -f 1; '{BIN}' {args}"))
        .current_dir(d.path())
        .output()
        .unwrap();
    // The drop-in is small enough to write; make sure something failed or
    // everything was written whole: never a truncated mix.
    let now = std::fs::read_to_string(&dropin).unwrap();
    assert!(
        now == old || now.starts_with("# Generated") || now.contains("LimitNOFILE"),
        "status {:?}, {}: {now}",
        o.status,
        stderr(&o)
    );
    let leftovers: Vec<_> = std::fs::read_dir(&unit)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

// ----------------------------------------------------------------- secrets

#[test]
fn credentials_in_an_old_snapshot_never_reach_a_report() {
    let d = tempfile::tempdir().unwrap();
    snapshot_with(d.path(), |v| {
        let vars = &mut v["server"]["variables"];
        vars["report_password"] = "SECRET123".into();
        vars["wsrep_sst_auth"] = "sst:SECRET123".into();
    });
    for format in ["text", "json", "markdown"] {
        let o = run(
            d.path(),
            &["check", "--snapshot", "snap.json", "--format", format, "-v"],
        );
        assert!(!stdout(&o).contains("SECRET123"), "{format}");
        assert!(!stderr(&o).contains("SECRET123"), "{format}");
    }
}

#[test]
fn a_snapshot_without_memory_or_cpus_is_refused() {
    let d = tempfile::tempdir().unwrap();
    for (key, field) in [("memory", "effective_bytes"), ("cpu", "effective")] {
        snapshot_with(d.path(), |v| {
            v["host"][key][field] = 0.into();
        });
        let o = run(d.path(), &["check", "--snapshot", "snap.json"]);
        assert_eq!(o.status.code(), Some(2), "{key}: {}", stderr(&o));
        assert!(stderr(&o).contains("not a real host"), "{}", stderr(&o));
    }
}

#[test]
fn option_file_errors_never_quote_a_password() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("my.cnf"),
        "[client]\npassword SECRET123\n[mysqld]\nreport_password SECRET456\n",
    )
    .unwrap();
    let o = run(d.path(), &["lint", "my.cnf"]);
    let all = stdout(&o) + &stderr(&o);
    assert!(all.contains("MT001"), "{all}");
    assert!(
        !all.contains("SECRET123") && !all.contains("SECRET456"),
        "{all}"
    );
}

#[test]
fn an_include_of_proc_self_cmdline_does_not_echo_the_command_line_password() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("f.cnf"), "!include /proc/self/cmdline\n").unwrap();
    // Port 1 on 127.0.0.1: nothing listens; the option file fails first.
    let o = run(
        d.path(),
        &[
            "collect",
            "--defaults-file",
            "f.cnf",
            "-pSECRET123",
            "-h",
            "127.0.0.1",
            "-P",
            "1",
        ],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("/proc/self/cmdline:1:1"), "{err}");
    assert!(!err.contains("SECRET123"), "{err}");
    assert!(
        err.contains("Using a password on the command line interface can be insecure."),
        "{err}"
    );
}

// ------------------------------------------------------------------ values

#[test]
fn a_bare_number_for_memory_is_an_error_suggesting_the_unit() {
    let d = tempfile::tempdir().unwrap();
    let o = run(d.path(), &["gen-cnf", "--memory", "64", "--cpus", "4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("'64' has no unit: 64 bytes? write 64G"),
        "{}",
        stderr(&o)
    );
    std::fs::write(d.path().join("mytune.toml"), "memory = 64\ncpus = 4\n").unwrap();
    std::fs::write(d.path().join("my.cnf"), "[mysqld]\nmax_connections = 100\n").unwrap();
    let o = run(d.path(), &["lint", "my.cnf"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("memory: '64' has no unit: 64 bytes? write 64G"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn decimal_sizes_as_mytune_prints_them_are_accepted() {
    let d = tempfile::tempdir().unwrap();
    let o = run(d.path(), &["gen-cnf", "--memory", "23.5G", "--cpus", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::write(
        d.path().join("mytune.toml"),
        "memory = \"23.5G\"\ncpus = 2\n",
    )
    .unwrap();
    std::fs::write(d.path().join("my.cnf"), "[mysqld]\nmax_connections = 100\n").unwrap();
    let o = run(d.path(), &["lint", "my.cnf"]);
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn kernel_and_systemd_values_that_make_no_sense_are_reported() {
    let d = tempfile::tempdir().unwrap();
    let sysctl = d.path().join("sysctl.d");
    std::fs::create_dir(&sysctl).unwrap();
    std::fs::write(
        sysctl.join("90-db.conf"),
        "net.ipv4.ip_local_port_range = 60999 1024\nnet.core.somaxconn = -5\n",
    )
    .unwrap();
    let dropin = d.path().join("mariadb.service.d");
    std::fs::create_dir(&dropin).unwrap();
    std::fs::write(dropin.join("limits.conf"), "[Service]\nLimitNOFILE=10:5\n").unwrap();
    let o = run(d.path(), &["lint", "sysctl.d", "mariadb.service.d"]);
    let out = stdout(&o);
    assert!(
        out.contains("MT010") && out.contains("the first port (60999) is above the last (1024)"),
        "{out}"
    );
    assert!(out.contains("-5 is outside 0.."), "{out}");
    assert!(
        out.contains("LimitNOFILE=10:5: the soft limit is above the hard limit"),
        "{out}"
    );
    assert!(!out.contains("-59974"), "{out}");
}

#[test]
fn a_full_or_closed_stderr_is_not_a_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for args in [
        &["lint", "/nonexistent.cnf"][..],
        &["check", "--snapshot", "/nonexistent.json"],
        &["collect", "--no-defaults", "-h", "127.0.0.1", "-P", "1"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = crate::support::run::mytune_command()
            .args(args)
            .current_dir(root)
            .stdout(Stdio::null())
            .stderr(full)
            .status()
            .unwrap();
        assert_eq!(o.code(), Some(2), "{args:?}");
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = crate::support::run::mytune_command()
            .args(args)
            .current_dir(root)
            .stdout(Stdio::null())
            .stderr(writer)
            .status()
            .unwrap();
        assert_eq!(o.code(), Some(2), "{args:?}");
    }
}

#[test]
fn findings_never_quote_a_credential_from_an_option_file() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("my.cnf"),
        "[mysqld]\nreport_password = SECRET3\nreport-password = SECRET4\nwsrep_sst_auth = u:SECRET5\nmax_connections = 5\n",
    )
    .unwrap();
    let o = run(d.path(), &["lint", "my.cnf"]);
    let out = stdout(&o);
    assert!(
        out.contains("MT006") && out.contains("this value (***)"),
        "{out}"
    );
    assert!(!out.contains("SECRET"), "{out}");
    // Drift against a snapshot: credentials are not compared or shown.
    snapshot_with(d.path(), |_| {});
    for format in ["text", "json"] {
        let o = run(
            d.path(),
            &[
                "check",
                "--snapshot",
                "snap.json",
                "--config",
                "my.cnf",
                "--format",
                format,
            ],
        );
        assert!(!stdout(&o).contains("SECRET"), "{format}: {}", stdout(&o));
        assert!(!stderr(&o).contains("SECRET"), "{format}");
    }
}

#[test]
fn markdown_and_github_formats_keep_values_on_their_line_and_drop_escapes() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("my.cnf"),
        "[mysqld]\nmax_connections = \"x\\n::error file=README.md,line=1::INJECTED\x1b[2J\"\n",
    )
    .unwrap();
    for format in ["markdown", "github"] {
        let out = stdout(&run(d.path(), &["lint", "--format", format, "my.cnf"]));
        assert!(out.contains("INJECTED"), "{format}: {out}");
        assert!(!out.contains('\x1b'), "{format}: {out}");
        assert!(
            !out.lines().any(|l| l.starts_with("::error file=README.md")),
            "{format}: {out}"
        );
    }
    // The check report in markdown: a drifting sql_mode and a version string
    // holding a workflow command and an escape sequence.
    snapshot_with(d.path(), |v| {
        v["server"]["variables"]["sql_mode"] = "X\n::error file=README.md::INJECTED\x1b[2J".into();
        v["server"]["version_string"] = "10.11.19-MariaDB\n::error::V".into();
    });
    std::fs::write(
        d.path().join("drift.cnf"),
        "[mysqld]\nsql_mode = STRICT_TRANS_TABLES\n",
    )
    .unwrap();
    for format in ["markdown", "text"] {
        let o = run(
            d.path(),
            &[
                "check",
                "--snapshot",
                "snap.json",
                "--config",
                "drift.cnf",
                "--format",
                format,
            ],
        );
        let out = stdout(&o);
        assert!(out.contains("INJECTED"), "{format}: {out}");
        assert!(!out.contains('\x1b'), "{format}: {out}");
        assert!(!out.lines().any(|l| l.starts_with("::")), "{format}: {out}");
    }
}
