//! The fleet's outputs against the real components that consume them:
//! `promtool check metrics` on `--format openmetrics`, a real node_exporter
//! serving mytune's file from its textfile directory, the shipped alerting
//! rules under `promtool check rules` and `promtool test rules`, the systemd
//! units under `systemd-analyze verify`, and the Kubernetes CronJob parsed
//! as YAML (syntax only). The commands in the examples use only flags
//! `mytune check` has.
//!
//! Each skips with a printed reason when its program is missing (Debian
//! packages prometheus, prometheus-node-exporter, mariadb-server, systemd),
//! unless `MYTUNE_REQUIRE_LIVE=1`.

use crate::support::mariadb;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use mariadb::TestServer;

fn program(name: &str, package: &str) -> Option<PathBuf> {
    match mariadb::find_program(name, &[]) {
        Some(p) => Some(p),
        None => mariadb::skip_or_panic(&format!("{name} not found (install {package})")),
    }
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fleet of one live server, one closed port and one unreadable line.
fn fleet(server: &TestServer, dir: &Path) -> PathBuf {
    let closed = mariadb::free_port().unwrap();
    let inv = dir.join("fleet.txt");
    std::fs::write(
        &inv,
        format!(
            "127.0.0.1:{} alpha memory=4G cpus=2\n127.0.0.1:{closed} \"quoted\\name\"\nbad:port\n",
            server.port
        ),
    )
    .unwrap();
    inv
}

fn metrics(inv: &Path, extra: &[&str]) -> Output {
    crate::support::run::mytune_command()
        .args(["check", "--inventory"])
        .arg(inv)
        .args([
            "--no-defaults",
            "--user=root",
            "--connect-timeout=2",
            "--format",
            "openmetrics",
        ])
        .args(extra)
        .env_remove("MYSQL_PWD")
        .output()
        .expect("mytune runs")
}

#[test]
#[cfg_attr(
    any(mytune_no_mariadbd, mytune_no_promtool, mytune_no_node_exporter),
    ignore = "needs mariadbd, promtool and node_exporter (apt-get install mariadb-server prometheus prometheus-node-exporter)"
)]
fn promtool_accepts_the_metrics() {
    let Some(promtool) = program("promtool", "prometheus") else {
        return;
    };
    let Some(server) = TestServer::start("") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = metrics(&fleet(&server, dir.path()), &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let body = text(&out.stdout);
    for line in [
        "mytune_check_success{server=\"alpha\"} 1\n",
        "mytune_check_success{server=\"\\\"quoted\\\\name\\\"\"} 0\n",
        "mytune_findings{server=\"alpha\",severity=\"crit\"} ",
        "mytune_findings_by_code{server=\"alpha\",code=\"MT702\",severity=\"crit\",family=\"security\"} 1\n",
        "mytune_server_info{server=\"alpha\",flavor=\"mariadb\",version=\"",
        "mytune_inventory_problems 1\n",
    ] {
        assert!(body.contains(line), "no {line:?} in\n{body}");
    }
    assert!(body.ends_with("# EOF\n"), "{body}");
    let mut child = Command::new(promtool)
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(body.as_bytes())
        .unwrap();
    let checked = child.wait_with_output().unwrap();
    assert!(
        checked.status.success() && checked.stdout.is_empty() && checked.stderr.is_empty(),
        "promtool: {}{}\n{body}",
        text(&checked.stdout),
        text(&checked.stderr)
    );
}

/// A node_exporter with only the textfile collector, on a free port.
struct NodeExporter {
    child: Child,
    port: u16,
}

impl Drop for NodeExporter {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl NodeExporter {
    fn start(program: &Path, textfile_dir: &Path) -> NodeExporter {
        let port = mariadb::free_port().unwrap();
        let child = Command::new(program)
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .arg("--collector.disable-defaults")
            .arg("--collector.textfile")
            .arg(format!(
                "--collector.textfile.directory={}",
                textfile_dir.display()
            ))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("node_exporter starts");
        NodeExporter { child, port }
    }

    /// GET /metrics, waiting up to 10 s for the exporter to listen.
    fn scrape(&self) -> String {
        let began = Instant::now();
        loop {
            if let Ok(mut s) = TcpStream::connect(("127.0.0.1", self.port)) {
                s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
                s.write_all(b"GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n")
                    .unwrap();
                let mut body = String::new();
                s.read_to_string(&mut body).unwrap();
                return body;
            }
            assert!(
                began.elapsed() < Duration::from_secs(10),
                "node_exporter does not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
#[cfg_attr(
    any(mytune_no_mariadbd, mytune_no_node_exporter),
    ignore = "needs mariadbd and node_exporter (apt-get install mariadb-server prometheus-node-exporter)"
)]
fn node_exporter_serves_the_file_written_in_place() {
    let Some(exporter) = program("prometheus-node-exporter", "prometheus-node-exporter")
        .or_else(|| mariadb::find_program("node_exporter", &[]))
    else {
        return;
    };
    let Some(server) = TestServer::start("") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let textfiles = dir.path().join("textfile");
    std::fs::create_dir(&textfiles).unwrap();
    let prom = textfiles.join("mytune.prom");
    let inv = fleet(&server, dir.path());

    // A new file is readable by node_exporter's own user (0644)...
    let out = metrics(&inv, &["-o", prom.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&prom) & 0o044, 0o044, "{:o}", mode(&prom));
    // ...and one replaced keeps its mode; no temporary file is left.
    std::fs::set_permissions(&prom, std::fs::Permissions::from_mode(0o640)).unwrap();
    let again = metrics(&inv, &["-o", prom.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(mode(&prom), 0o640);
    let names: Vec<String> = std::fs::read_dir(&textfiles)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["mytune.prom"]);

    let node = NodeExporter::start(&exporter, &textfiles);
    let body = node.scrape();
    assert!(
        body.starts_with("HTTP/1.0 200") || body.starts_with("HTTP/1.1 200"),
        "{body}"
    );
    for line in [
        "mytune_check_success{server=\"alpha\"} 1",
        "mytune_check_success{server=\"\\\"quoted\\\\name\\\"\"} 0",
        "mytune_findings_by_code{code=\"MT702\",family=\"security\",server=\"alpha\",severity=\"crit\"} 1",
        "mytune_inventory_problems 1",
        "node_textfile_scrape_error 0",
    ] {
        assert!(body.contains(line), "no {line:?} in\n{body}");
    }
}

#[test]
#[cfg_attr(
    mytune_no_promtool,
    ignore = "needs promtool (apt-get install prometheus)"
)]
fn shipped_alerting_rules_pass_promtool_and_their_unit_tests() {
    let Some(promtool) = program("promtool", "prometheus") else {
        return;
    };
    let dir = examples().join("prometheus");
    for args in [
        ["check", "rules", "mytune-alerts.yml"],
        ["test", "rules", "mytune-alerts.test.yml"],
    ] {
        let out = Command::new(&promtool)
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "promtool {args:?}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        assert!(
            text(&out.stdout).contains("SUCCESS"),
            "{}",
            text(&out.stdout)
        );
    }
}

/// Every `--flag` of a mytune command line is one `mytune check --help` lists.
fn flags_exist(command: &str) {
    let help = crate::support::run::mytune_command()
        .args(["check", "--help"])
        .output()
        .unwrap();
    let help = text(&help.stdout);
    let mut seen = 0;
    for token in command.split_whitespace().filter(|t| t.starts_with("--")) {
        let flag = token.split('=').next().unwrap();
        assert!(
            help.contains(&format!("{flag} ")) || help.contains(&format!("{flag}=")),
            "{flag} is not a flag of mytune check"
        );
        seen += 1;
    }
    assert!(seen >= 3, "{command}");
}

#[test]
fn systemd_units_verify() {
    let Some(analyze) = program("systemd-analyze", "systemd") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let service = std::fs::read_to_string(examples().join("systemd/mytune-fleet.service")).unwrap();
    let exec = service
        .lines()
        .find_map(|l| l.strip_prefix("ExecStart="))
        .expect("an ExecStart line");
    assert!(
        exec.starts_with("/usr/bin/mytune check --inventory "),
        "{exec}"
    );
    flags_exist(exec);
    // The binary under test stands in for the installed one.
    std::fs::write(
        dir.path().join("mytune-fleet.service"),
        service.replace("/usr/bin/mytune", env!("CARGO_BIN_EXE_mytune")),
    )
    .unwrap();
    std::fs::copy(
        examples().join("systemd/mytune-fleet.timer"),
        dir.path().join("mytune-fleet.timer"),
    )
    .unwrap();
    let out = Command::new(analyze)
        .args([
            "verify",
            "--man=no",
            "./mytune-fleet.service",
            "./mytune-fleet.timer",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "systemd-analyze verify: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

#[test]
fn kubernetes_cronjob_is_well_formed() {
    let path = examples().join("kubernetes/mytune-cronjob.yml");
    let doc: serde_norway::Value =
        serde_norway::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(doc["apiVersion"].as_str(), Some("batch/v1"));
    assert_eq!(doc["kind"].as_str(), Some("CronJob"));
    let schedule = doc["spec"]["schedule"].as_str().unwrap();
    assert_eq!(schedule.split_whitespace().count(), 5, "{schedule}");
    let pod = &doc["spec"]["jobTemplate"]["spec"]["template"]["spec"];
    assert_eq!(pod["restartPolicy"].as_str(), Some("Never"));
    let container = &pod["containers"][0];
    let args = container["args"][0].as_str().unwrap();
    assert!(args.starts_with("mytune check --inventory "), "{args}");
    flags_exist(args);
    // Every mount names a volume of the pod.
    let volumes: Vec<&str> = pod["volumes"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    for m in container["volumeMounts"].as_sequence().unwrap() {
        assert!(volumes.contains(&m["name"].as_str().unwrap()), "{m:?}");
    }
}

#[test]
#[cfg_attr(
    any(mytune_no_mariadbd, mytune_no_promtool),
    ignore = "needs mariadbd and promtool (apt-get install mariadb-server prometheus)"
)]
fn one_server_as_metrics_keeps_this_host_s_facts() {
    let Some(promtool) = program("promtool", "prometheus") else {
        return;
    };
    let Some(server) = TestServer::start("") else {
        return;
    };
    // No inventory: the server of this host over its socket, named by its
    // endpoint, judged with this machine's facts as `check` judges it.
    let out = crate::support::run::mytune_command()
        .arg("check")
        .args(server.mytune_args())
        .args(["--format", "openmetrics"])
        .env_remove("MYSQL_PWD")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let body = text(&out.stdout);
    let name = format!("socket {}", server.socket.display());
    assert!(
        body.contains(&format!("mytune_check_success{{server=\"{name}\"}} 1")),
        "{body}"
    );
    let jsonl = crate::support::run::mytune_command()
        .arg("check")
        .args(server.mytune_args())
        .args(["--format", "jsonl"])
        .env_remove("MYSQL_PWD")
        .output()
        .unwrap();
    let line: serde_json::Value = serde_json::from_slice(&jsonl.stdout).unwrap();
    assert_eq!(line["status"], "ok");
    assert!(
        line["host"]["memory"]["value"].as_u64().unwrap() > 0,
        "{line}"
    );
    assert_ne!(line["host"]["memory"]["source"], "inventory");
    let mut child = Command::new(promtool)
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(body.as_bytes())
        .unwrap();
    let checked = child.wait_with_output().unwrap();
    assert!(checked.status.success(), "{}", text(&checked.stderr));
}
