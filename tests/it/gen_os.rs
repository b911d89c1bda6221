//! gen-sysctl and gen-limits: files valid for `sysctl -p` and systemd, the
//! host's already-met values left out, unsafe kernel settings refused, the
//! nofile limit consistent with open_files_limit, and the plan's fixed point.
//!
//! The OS rules of the built-in catalog recommend `sysctl:NAME` and
//! `limit:NAME` settings; these tests build plans with such settings by hand
//! so they do not depend on the catalog's current values.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use mytune::collect::host::{HostDescription, HostPaths, describe};
use mytune::facts::Facts;
use mytune::generate::limits::{self, LimitsOptions};
use mytune::generate::{self, GenError, Plan, Setting, sysctl};
use mytune::rules::{Profile, RuleSet};
use mytune::target::Target;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/gen");

fn setting(name: &str, value: &str, baseline: Option<&str>) -> Setting {
    Setting {
        name: name.into(),
        value: value.into(),
        code: "MT899".into(),
        rule_name: "test-rule".into(),
        why: "Because the test says so.".into(),
        baseline: baseline.map(String::from),
    }
}

fn plan(settings: &[Setting]) -> Plan {
    let target: Target = "mariadb-10.11".parse().unwrap();
    Plan {
        target,
        catalog_target: target,
        settings: settings
            .iter()
            .map(|s| (s.name.clone(), s.clone()))
            .collect::<BTreeMap<_, _>>(),
        rounds: 1,
        not_applicable: Vec::new(),
        unresolved: Vec::new(),
        withheld: BTreeMap::new(),
    }
}

fn os_plan() -> Plan {
    plan(&[
        setting("sysctl:net.core.somaxconn", "4096", None),
        setting("sysctl:net.ipv4.tcp_max_syn_backlog", "8192", None),
        setting("sysctl:net.core.netdev_max_backlog", "16384", None),
        setting("sysctl:net.ipv4.ip_local_port_range", "10240\t65535", None),
        setting("sysctl:net.core.rmem_max", "16777216", None),
        setting("sysctl:net.ipv4.tcp_keepalive_time", "120", None),
        setting("sysctl:net.ipv4.tcp_fin_timeout", "15", None),
        setting("sysctl:net.ipv4.tcp_tw_reuse", "1", None),
        setting("sysctl:vm.swappiness", "1", None),
        setting("sysctl:vm.dirty_background_ratio", "5", None),
        setting("sysctl:vm.dirty_ratio", "10", None),
        setting("limit:nofile", "65535", None),
        setting("limit:nproc", "65535", None),
        setting("max_connections", "2000", None),
        setting("host:transparent_hugepage", "madvise", None),
    ])
}

fn this_host() -> mytune::facts::HostFacts {
    generate::host::host_facts(&HostDescription::default(), &HostPaths::default())
}

#[test]
fn sysctl_file_parses_like_sysctl_p_and_names_real_parameters() {
    let host = this_host();
    let file = sysctl::render(
        &os_plan(),
        Some(&host),
        &BTreeSet::new(),
        true,
        &["t".into()],
    )
    .unwrap();
    assert_eq!(file.path, "/etc/sysctl.d/60-mytune-mysql.conf");
    let entries = sysctl::parse(&file.text).unwrap_or_else(|e| panic!("{e}\n{}", file.text));
    assert_eq!(entries.len(), 11, "{}", file.text);
    // An equivalent of `sysctl -p --dry-run`: every key is a file under
    // /proc/sys and the value has as many fields as the kernel's.
    if !Path::new("/proc/sys/net/core").is_dir() {
        eprintln!("skipping the /proc/sys check: no /proc/sys/net/core here");
        return;
    }
    for (line, key, value) in entries {
        let path = Path::new("/proc/sys").join(key.replace('.', "/"));
        let Ok(current) = std::fs::read_to_string(&path) else {
            // Network namespaces of containers may hide some parameters.
            eprintln!("line {line}: {} not readable here, skipped", path.display());
            continue;
        };
        assert_eq!(
            current.split_whitespace().count(),
            value.split(' ').count(),
            "line {line}: {key} = {value} vs kernel {current:?}"
        );
        assert!(
            value.split(' ').all(|f| f.parse::<i64>().is_ok()),
            "line {line}: {value}"
        );
    }
    assert!(
        file.text
            .contains("net.ipv4.ip_local_port_range = 10240 65535\n")
    );
    assert!(
        file.text.contains("outside sysctl")
            && file.text.contains("transparent_hugepage = madvise")
            && !file.text.contains("\ntransparent_hugepage"),
        "{}",
        file.text
    );
}

#[test]
fn sysctl_leaves_out_what_the_host_has_unless_all() {
    let mut host = describe(
        &HostDescription {
            memory_bytes: Some(8 << 30),
            cpus: Some(4),
            disk: None,
        },
        None,
    );
    // Values read from a host (a kernel release marks facts read from a
    // machine; a host only described gets stock values, see below).
    host.kernel = Some("6.1.0".into());
    host.sysctl
        .insert("net.core.somaxconn".into(), "4096".into());
    host.sysctl
        .insert("net.ipv4.ip_local_port_range".into(), "10240\t65535".into());
    host.sysctl
        .insert("net.ipv4.tcp_syncookies".into(), "1".into());
    let read: BTreeSet<String> = ["net.ipv4.tcp_syncookies".to_string()].into();
    let plan = os_plan();
    let text = sysctl::render(&plan, Some(&host), &read, false, &[])
        .unwrap()
        .text;
    assert!(!text.contains("\nnet.core.somaxconn ="), "{text}");
    assert!(!text.contains("\nnet.ipv4.ip_local_port_range ="), "{text}");
    assert!(!text.contains("tcp_syncookies ="), "{text}");
    assert!(text.contains("already met by the host"), "{text}");
    assert!(text.contains("\nvm.swappiness = 1\n"), "{text}");
    let all = sysctl::render(&plan, Some(&host), &read, true, &[])
        .unwrap()
        .text;
    assert!(all.contains("\nnet.core.somaxconn = 4096\n"), "{all}");
    assert!(all.contains("\nnet.ipv4.tcp_syncookies = 1\n"), "{all}");
    // Every value line has a comment naming where it comes from.
    assert!(
        all.contains("# MT899 test-rule: Because the test says so. (host: 4096)"),
        "{all}"
    );
}

#[test]
fn unsafe_kernel_settings_are_refused() {
    for (key, value) in [
        ("net.ipv4.tcp_tw_recycle", "1"),
        ("net.ipv4.tcp_tw_recycle", "0"),
        ("net.ipv4.tcp_timestamps", "0"),
    ] {
        let p = plan(&[setting(&format!("sysctl:{key}"), value, None)]);
        let err = sysctl::render(&p, None, &BTreeSet::new(), true, &[]).unwrap_err();
        assert!(matches!(err, GenError::Unsafe { .. }), "{key}: {err}");
    }
    let p = plan(&[setting("sysctl:net.ipv4.tcp_timestamps", "1", None)]);
    assert!(sysctl::render(&p, None, &BTreeSet::new(), true, &[]).is_ok());
    let p = plan(&[setting("sysctl:somaxconn", "1", None)]);
    assert!(matches!(
        sysctl::render(&p, None, &BTreeSet::new(), true, &[]),
        Err(GenError::Unwritable { .. })
    ));
    let p = plan(&[setting("sysctl:net.core.somaxconn", "1\nvm.x = 2", None)]);
    assert!(sysctl::render(&p, None, &BTreeSet::new(), true, &[]).is_err());
}

#[test]
fn sysctl_keys_read_by_rules_are_found() {
    let rules = RuleSet::load(Some(Path::new(FIXTURES).join("rules").as_path())).unwrap();
    // The fixture rules read no sysctl; the scan must not invent any.
    let read = sysctl::read_by_rules(&rules);
    assert!(read.iter().all(|k| sysctl::valid_key(k)), "{read:?}");
}

fn systemd_verify(dropin: &str) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let unit = dir.path().join("mytune-gen-test.service");
    // The drop-in's [Service] section appended to a minimal unit: systemd
    // merges drop-ins the same way.
    std::fs::write(
        &unit,
        format!("[Unit]\nDescription=mytune test\n\n[Service]\nExecStart=/bin/true\n\n{dropin}"),
    )
    .unwrap();
    let out = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&unit)
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn limits_files_are_valid_for_pam_and_systemd() {
    let p = os_plan();
    let opts = LimitsOptions::for_target(&p.target);
    assert_eq!(opts.unit, "mariadb.service");
    let files = limits::render(&p, &opts, &["t".into()]).unwrap();
    assert_eq!(files[0].path, "/etc/security/limits.d/90-mytune-mysql.conf");
    assert_eq!(
        files[1].path,
        "/etc/systemd/system/mariadb.service.d/90-mytune-limits.conf"
    );
    // limits.conf: `<domain> <type> <item> <value>`, four fields.
    let pam: Vec<&str> = files[0]
        .text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    assert_eq!(
        pam,
        vec![
            "mysql soft nofile 65535",
            "mysql hard nofile 65535",
            "mysql soft nproc 65535",
            "mysql hard nproc 65535"
        ]
    );
    assert!(files[1].text.contains("[Service]\n"));
    assert!(files[1].text.contains("\nLimitNOFILE=65535\n"));
    assert!(files[1].text.contains("\nLimitNPROC=65535\n"));
    match systemd_verify(&files[1].text) {
        Some(stderr) => assert!(
            !stderr.contains("mytune-gen-test.service:"),
            "systemd-analyze verify complains: {stderr}\n{}",
            files[1].text
        ),
        None => eprintln!("skipping systemd-analyze verify: not installed"),
    }
    let cmds = limits::apply_commands(&files, &opts);
    assert!(cmds.iter().any(|c| c == "systemctl daemon-reload"));
    assert!(
        cmds.iter()
            .any(|c| c == "systemctl restart mariadb.service")
    );
}

#[test]
fn nofile_follows_open_files_limit() {
    // No limit rule: the limit is open_files_limit.
    let p = plan(&[setting("open_files_limit", "20000", None)]);
    let l = limits::limits(&p).unwrap();
    assert_eq!(l.len(), 1);
    assert_eq!(l[0].value, Some(20000));
    // A limit rule asking for less than the server's open files: an error.
    let p = plan(&[
        setting("open_files_limit", "20000", None),
        setting("limit:nofile", "10000", None),
    ]);
    assert!(limits::limits(&p).is_err());
    // Unlimited and byte limits.
    let p = plan(&[
        setting("limit:nofile", "unlimited", None),
        setting("limit:memlock", "64M", None),
    ]);
    let files = limits::render(&p, &LimitsOptions::for_target(&p.target), &[]).unwrap();
    assert!(files[0].text.contains("mysql hard nofile unlimited\n"));
    assert!(
        files[0].text.contains("mysql hard memlock 65536\n"),
        "{}",
        files[0].text
    );
    assert!(files[1].text.contains("LimitNOFILE=infinity\n"));
    assert!(files[1].text.contains("LimitMEMLOCK=67108864\n"));
    // Unknown limits and odd user names are refused.
    let p = plan(&[setting("limit:bogus", "1", None)]);
    assert!(limits::limits(&p).is_err());
    let opts = LimitsOptions {
        user: "my sql".into(),
        unit: "mariadb.service".into(),
    };
    assert!(limits::render(&plan(&[]), &opts, &[]).is_err());
}

fn described_facts() -> Facts {
    Facts {
        host: Some(describe(
            &HostDescription {
                memory_bytes: Some(2 << 30),
                cpus: Some(2),
                disk: None,
            },
            None,
        )),
        ..Facts::default()
    }
}

#[test]
fn the_plan_reaches_a_fixed_point_across_rules() {
    let rules = RuleSet::load(Some(Path::new(FIXTURES).join("rules").as_path())).unwrap();
    let target: Target = "mariadb-10.11".parse().unwrap();
    let plan =
        generate::plan::build(&rules, &described_facts(), &Profile::default(), target).unwrap();
    // MT992 read div_precision_increment = 8 that MT991 set, not the
    // default 4.
    assert_eq!(plan.get("div_precision_increment").unwrap().value, "8");
    let depth = plan.get("max_sp_recursion_depth").unwrap();
    assert_eq!(depth.value, "17");
    assert_eq!(depth.code, "MT992");
    assert_eq!(depth.baseline.as_deref(), Some("0"));
    assert!(plan.rounds >= 3, "rounds {}", plan.rounds);
}

#[test]
fn rules_that_never_settle_are_an_error() {
    let rules = RuleSet::load(Some(Path::new(FIXTURES).join("diverging").as_path())).unwrap();
    let target: Target = "mariadb-10.11".parse().unwrap();
    let err =
        generate::plan::build(&rules, &described_facts(), &Profile::default(), target).unwrap_err();
    match err {
        GenError::NotConverged { changing, .. } => {
            assert!(
                changing.contains(&"net_retry_count".to_string()),
                "{changing:?}"
            )
        }
        other => panic!("{other}"),
    }
}

fn mytune(args: &[&str]) -> (bool, String, String) {
    let out = crate::support::run::mytune_command()
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_gen_sysctl_and_gen_limits_run_on_this_host() {
    let (ok, out, err) = mytune(&["gen-sysctl", "--target", "mariadb-10.11"]);
    assert!(ok, "{err}");
    sysctl::parse(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    assert!(out.contains("/etc/sysctl.d/"), "{out}");

    // The built-in rules on this host: whatever they recommend, both files
    // are written where they belong and systemd accepts the drop-in.
    let dir = tempfile::tempdir().unwrap();
    let (ok, _, err) = mytune(&[
        "gen-limits",
        "--target",
        "mariadb-10.11",
        "--unit",
        "mysql.service",
        "--output-dir",
        dir.path().to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    if err.contains("no rule recommends a process limit") {
        // Nothing to change on this host: nothing written (issue 15).
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        return;
    }
    let dropin = std::fs::read_to_string(
        dir.path()
            .join("etc/systemd/system/mysql.service.d/90-mytune-limits.conf"),
    )
    .unwrap();
    assert!(dropin.contains("[Service]\n"), "{dropin}");
    if let Some(stderr) = systemd_verify(&dropin) {
        assert!(!stderr.contains("mytune-gen-test.service:"), "{stderr}");
    }
    let pam = std::fs::read_to_string(
        dir.path()
            .join("etc/security/limits.d/90-mytune-mysql.conf"),
    )
    .unwrap();
    for line in pam
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        assert_eq!(line.split_whitespace().count(), 4, "{line}\n{pam}");
        assert!(line.starts_with("mysql "), "{line}");
    }
}

/// A host described on the command line: its kernel parameters and limits
/// are unknown, so the files compare against a stock Linux and the packaged
/// unit, say so, and carry the values the expected connections need (seed
/// 003's 100,000-connection host).
#[test]
fn cli_described_host_gets_files_against_stock_linux() {
    let args = [
        "--target",
        "percona-8.0",
        "--memory",
        "256G",
        "--cpus",
        "64",
        "--connections",
        "100000",
    ];
    let (ok, out, err) = mytune(&[&["gen-sysctl"][..], &args].concat());
    assert!(ok, "{err}");
    let parsed = sysctl::parse(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    let value = |k: &str| {
        parsed
            .iter()
            .find(|(_, key, _)| key == k)
            .map(|(_, _, v)| v.clone())
            .unwrap_or_else(|| panic!("{k} missing\n{out}"))
    };
    assert_eq!(value("net.core.somaxconn"), "65535");
    assert_eq!(value("net.ipv4.tcp_max_syn_backlog"), "65535");
    assert!(out.contains("stock Linux 5.4+"), "{out}");
    assert!(out.contains("(stock Linux: 4096)"), "{out}");
    assert!(!out.contains("tcp_tw_recycle ="), "{out}");

    let (ok, out, err) = mytune(&[&["gen-limits"][..], &args].concat());
    assert!(ok, "{err}");
    // Against the packaged unit's LimitNOFILE=10000: five descriptors per
    // connection the memory allows (MT801).
    let nofile: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("LimitNOFILE="))
        .unwrap_or_else(|| panic!("no LimitNOFILE\n{out}"))
        .parse()
        .unwrap();
    assert!(nofile > 65535, "{out}");
    assert!(out.contains("mysql soft nofile"), "{out}");

    // With --all nothing is pinned at the assumed stock values.
    let (ok, out, _) = mytune(&[&["gen-sysctl", "--all"][..], &args].concat());
    assert!(ok);
    assert!(!out.contains("no rule asks to change it"), "{out}");
}

#[test]
fn cli_rejects_bad_profiles() {
    let (ok, _, err) = mytune(&["gen-cnf", "--share", "1.5"]);
    assert!(!ok && err.contains("1.5"), "{err}");
    let (ok, _, err) = mytune(&["gen-cnf", "--durability", "sloppy"]);
    assert!(!ok && err.contains("sloppy"), "{err}");
    let (ok, _, err) = mytune(&["gen-cnf", "--target", "oracle-8.0"]);
    assert!(!ok && err.contains("oracle"), "{err}");
}
