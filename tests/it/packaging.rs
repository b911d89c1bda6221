//! Packaging that tells the truth (issue 15): `rust-version` is the real
//! floor of the locked dependencies, the README says so, and the licence in
//! Cargo.toml is the LICENSE file's.

use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn version(s: &str) -> Vec<u32> {
    s.split('.').map(|p| p.parse().unwrap_or(0)).collect()
}

#[test]
fn rust_version_is_the_highest_of_the_locked_dependencies() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // The packages built for this host: a checkout whose cargo cache holds
    // only what builds here (no Windows-only crates) resolves offline.
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let vv = Command::new(rustc)
        .arg("-vV")
        .output()
        .expect("run rustc -vV");
    let host = String::from_utf8_lossy(&vv.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .expect("rustc -vV names the host");
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .args(["--filter-platform", &host])
        .current_dir(root())
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let resolved: Vec<&str> = meta["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    let mut ours = None;
    let mut floor: Option<(Vec<u32>, String)> = None;
    for p in meta["packages"].as_array().unwrap() {
        if !resolved.contains(&p["id"].as_str().unwrap()) {
            continue;
        }
        let name = p["name"].as_str().unwrap();
        let rv = p["rust_version"].as_str();
        if name == "mytune" {
            ours = rv.map(str::to_string);
            continue;
        }
        if let Some(rv) = rv
            && floor.as_ref().is_none_or(|(v, _)| version(rv) > *v)
        {
            floor = Some((version(rv), format!("{name} {} ({rv})", p["version"])));
        }
    }
    let ours = ours.expect("Cargo.toml has a rust-version");
    let (floor, who) = floor.expect("some dependency declares a rust-version");
    assert_eq!(
        version(&ours),
        floor,
        "rust-version {ours} is not the floor of the locked dependencies, {who}"
    );
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("Rust {ours}+")),
        "the README must say Rust {ours}+"
    );
    assert!(readme.contains("cargo install --locked --path ."));
}

#[test]
fn licence_and_changelog_are_there() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    assert!(manifest.contains("license = \"MIT\""), "{manifest}");
    for key in ["description = ", "keywords = ", "categories = "] {
        assert!(manifest.contains(key), "Cargo.toml lacks {key}");
    }
    let licence = std::fs::read_to_string(root().join("LICENSE")).unwrap();
    assert!(licence.starts_with("MIT License"), "{licence}");
    let changelog = std::fs::read_to_string(root().join("CHANGELOG.md")).unwrap();
    assert!(changelog.contains("## [Unreleased]"));
}

#[test]
fn version_names_the_commit_when_built_from_a_checkout() {
    let out = crate::support::run::mytune_command()
        .arg("--version")
        .output()
        .unwrap();
    let v = String::from_utf8_lossy(&out.stdout).into_owned();
    let head = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(root())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    match head {
        // The commit the binary was built at: HEAD, unless HEAD moved since
        // the build; either way a short hash.
        Some(_) => assert!(
            v.starts_with(&format!("mytune {} (git ", env!("CARGO_PKG_VERSION"))),
            "{v}"
        ),
        None => assert_eq!(v.trim(), format!("mytune {}", env!("CARGO_PKG_VERSION"))),
    }
}

/// The skip summary: build.rs marks the tests that read `../shared` ignored
/// exactly when it is absent, so `cargo test` lists them as ignored with the
/// reason instead of passing having done nothing.
#[test]
fn tests_that_read_shared_are_ignored_exactly_when_it_is_absent() {
    let beside = root().join("../shared").is_dir();
    assert_eq!(cfg!(mytune_no_shared), !beside);
    // Every test that names ../shared carries the marker (20 of them).
    let mut marked = 0;
    for e in std::fs::read_dir(root().join("tests/it")).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            marked += text
                .matches("#[cfg_attr(mytune_no_shared, ignore = \"needs ../shared beside the checkout\")]")
                .count();
        }
    }
    assert!(marked >= 20, "{marked}");
}

/// Live tests that cannot run here show as ignored, with the package to
/// install, instead of passing having done nothing: build.rs sets
/// `cfg(mytune_no_mariadbd)` exactly when mariadbd is missing (never under
/// `MYTUNE_REQUIRE_LIVE=1`), and every test that starts a throw-away server
/// itself carries the marker.
#[test]
fn live_tests_are_ignored_exactly_when_mariadbd_is_absent() {
    let required = std::env::var("MYTUNE_REQUIRE_LIVE").as_deref() == Ok("1");
    let found = crate::support::mariadb::find_program(
        "mariadbd",
        &[
            "/usr/sbin/mariadbd",
            "/usr/libexec/mariadbd",
            "/usr/bin/mariadbd",
        ],
    )
    .is_some();
    // Under MYTUNE_REQUIRE_LIVE=1 nothing is ignored: a missing mariadbd
    // fails the tests that need it.
    let expected = !found && !required;
    assert_eq!(
        cfg!(mytune_no_mariadbd),
        expected,
        "build.rs's probe and this one"
    );
    let mut unmarked = Vec::new();
    let mut marked = 0;
    for e in std::fs::read_dir(root().join("tests/it")).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // Each test's attributes and the start of its body up to the next
        // test: one that starts a server there must be ignored without
        // mariadbd (alone or with other programs: `any(mytune_no_mariadbd, ...)`).
        for chunk in text.split("#[test]\n").skip(1) {
            let body = chunk.split("\n}\n").next().unwrap_or(chunk);
            let attrs = body.split("\nfn ").next().unwrap_or(body);
            let marker = attrs.contains("#[cfg_attr(")
                && attrs.contains("mytune_no_mariadbd")
                && attrs.contains("ignore = \"needs mariadbd");
            marked += usize::from(marker);
            // (`format!` keeps this test's own body from naming them.)
            let starts = ["TestServer", "Oracle"]
                .iter()
                .any(|t| body.contains(&format!("{t}::")));
            let ignored = body.lines().take(3).any(|l| l.starts_with("#[ignore"));
            if starts && !ignored && !marker {
                let name = body
                    .split("fn ")
                    .nth(1)
                    .and_then(|r| r.split('(').next())
                    .unwrap_or("?");
                unmarked.push(format!("{}: {name}", path.display()));
            }
        }
    }
    assert!(
        unmarked.is_empty(),
        "unmarked live tests:\n{}",
        unmarked.join("\n")
    );
    assert!(marked >= 80, "{marked}");
}

/// The README is for users: at most 300 lines, and its counts and lists are
/// the tool's (it said 113, 100 and 106 rules while there were 114).
#[test]
fn the_readme_counts_and_lists_are_true() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 300, "the README has {lines} lines; at most 300");
    let rules = mytune::rules::RuleSet::builtin().unwrap();
    let families: std::collections::BTreeSet<String> =
        rules.rules().iter().map(|r| r.family.to_string()).collect();
    let out = crate::support::run::mytune_command()
        .args(["rules", "--format", "json"])
        .output()
        .unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let builtin = mytune::registry::builtins().len();
    assert_eq!(
        listed.as_array().unwrap().len(),
        rules.rules().len() + builtin
    );
    let said = format!(
        "{} rules in {} families and {builtin} built-in checks",
        rules.rules().len(),
        families.len()
    );
    assert!(readme.contains(&said), "the README must say: {said}");
    let targets = mytune::catalog::Catalog::supported()
        .iter()
        .map(|t| format!("{}-{}.{}", t.flavor, t.version.major, t.version.minor))
        .collect::<Vec<_>>()
        .join(", ");
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&format!("Targets: {targets};")),
        "the README must list the targets: {targets}"
    );
    // The test command .ci/run calls is the README's.
    assert!(readme.contains("cargo test --all-targets"));
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(ci.contains("\ncargo test --all-targets"));
}

/// Installing needed the system's OpenSSL headers and pkg-config (the mysql
/// driver's native-tls) and zlib: no package of the locked graph may link a
/// system TLS or compression library again.
#[test]
fn the_locked_dependencies_need_no_system_tls_or_zlib() {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).unwrap();
    for sys in ["openssl-sys", "native-tls", "libz-sys", "openssl"] {
        assert!(
            !lock.contains(&format!("name = \"{sys}\"\n")),
            "Cargo.lock has {sys}"
        );
    }
}
