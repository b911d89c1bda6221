//! Build script: `MYTUNE_VERSION` for `mytune --version`, the package
//! version plus the git commit when built from a checkout
//! (`0.1.0 (git 1a2b3c4)`). Without git, or outside a checkout (a crate
//! tarball), it is the package version alone.
//!
//! It also sets `cfg(mytune_no_shared)` when `../shared` (the captured server
//! outputs and real option files some tests read) is not beside the crate:
//! those tests are then marked ignored with the reason, so `cargo test` shows
//! them as skipped. CI (`MYTUNE_REQUIRE_LIVE=1`) always has it, and the build
//! fails there without it rather than skip.
//!
//! Likewise for the programs live tests run (`mariadbd` for throw-away
//! servers, `ansible-inventory`, `promtool`, node_exporter): one missing
//! sets `cfg(mytune_no_PROGRAM)` and its tests show as ignored with the
//! package to install. Under `MYTUNE_REQUIRE_LIVE=1` nothing is ignored: the
//! tests run and fail naming what is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "build/builtin_checks.rs"]
mod builtin_checks;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    println!("cargo:rerun-if-changed=build.rs");
    let full = match git(&["rev-parse", "--short", "HEAD"]) {
        Some(commit) => {
            // Rebuild when HEAD moves: HEAD itself, the branch it names, packed refs.
            let mut watch: Vec<PathBuf> = Vec::new();
            if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
                watch.push(Path::new(&dir).join("HEAD"));
            }
            if let Some(common) = git(&["rev-parse", "--git-common-dir"]) {
                let common = PathBuf::from(common);
                if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"]) {
                    watch.push(common.join(r));
                }
                watch.push(common.join("packed-refs"));
            }
            for p in watch.iter().filter(|p| p.exists()) {
                println!("cargo:rerun-if-changed={}", p.display());
            }
            format!("{version} (git {commit})")
        }
        None => version,
    };
    println!("cargo:rustc-env=MYTUNE_VERSION={full}");
    shared_beside();
    live_programs();
    catalog_series();
    builtin_checks_table();
}

/// The built-in checks: every module of `src/checks/` is one, documented by
/// its doc comment (see `build/builtin_checks.rs`). A module the build
/// cannot read fails it naming the file.
fn builtin_checks_table() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = manifest.join("src/checks");
    println!("cargo:rerun-if-changed={}", dir.display());
    println!("cargo:rerun-if-changed=build/builtin_checks.rs");
    let checks = builtin_checks::read_dir(&dir)
        .unwrap_or_else(|e| panic!("a built-in check in src/checks/: {e}"));
    for c in &checks {
        println!(
            "cargo:rerun-if-changed={}",
            dir.join(format!("{}.rs", c.module)).display()
        );
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    std::fs::write(
        out.join("builtin_checks.rs"),
        builtin_checks::modules_rs(&dir, &checks),
    )
    .expect("OUT_DIR is writable");
    std::fs::write(
        out.join("builtin_check_docs.rs"),
        builtin_checks::docs_rs(&checks),
    )
    .expect("OUT_DIR is writable");
}

/// The variable catalogs: every `data/catalog/FLAVOR-MAJOR.MINOR.tsv` is a
/// series, so adding one is adding its file (and its row of
/// `data/catalog-sources.tsv`, which a test checks). Writes
/// `$OUT_DIR/catalog_series.rs`, the `SERIES` table `catalog` includes. A
/// file of a flavor the code does not know fails the build naming it.
fn catalog_series() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = manifest.join("data/catalog");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut series: Vec<(String, u32, u32, String)> = Vec::new();
    for e in std::fs::read_dir(&dir).expect("data/catalog is part of the source") {
        let name = e.expect("a readable entry").file_name();
        let name = name.to_string_lossy().to_string();
        let Some(stem) = name.strip_suffix(".tsv") else {
            continue;
        };
        // `mariadb-10.11-server.tsv`, `-plugins.tsv`: a probe's data, not a series.
        let Some((flavor, version)) = stem.split_once('-') else {
            continue;
        };
        let Some((major, minor)) = version.split_once('.') else {
            continue;
        };
        let (Ok(major), Ok(minor)) = (major.parse::<u32>(), minor.parse::<u32>()) else {
            continue;
        };
        series.push((flavor.to_string(), major, minor, name));
    }
    series.sort();
    let mut out = format!("const SERIES_COUNT: usize = {};\n\n", series.len());
    out.push_str("const SERIES: [Series; SERIES_COUNT] = [\n");
    for (flavor, major, minor, file) in &series {
        let variant: String = flavor[..1].to_ascii_uppercase() + &flavor[1..];
        out.push_str(&format!(
            "    Series {{ flavor: Flavor::{variant}, major: {major}, minor: {minor}, file: {file:?}, \
             data: include_str!({:?}) }},\n",
            dir.join(file).display().to_string()
        ));
    }
    out.push_str("];\n");
    let dest =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("catalog_series.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

/// The programs live tests need: (cfg, program names, where else to look).
const LIVE_PROGRAMS: &[(&str, &[&str], &[&str])] = &[
    (
        "mytune_no_mariadbd",
        &["mariadbd", "mariadb-install-db"],
        &["/usr/sbin", "/usr/libexec", "/usr/bin"],
    ),
    ("mytune_no_ansible", &["ansible-inventory"], &["/usr/bin"]),
    ("mytune_no_promtool", &["promtool"], &["/usr/bin"]),
    (
        "mytune_no_node_exporter",
        &["prometheus-node-exporter"],
        &["/usr/bin", "/usr/sbin"],
    ),
];

fn live_programs() {
    let required = std::env::var("MYTUNE_REQUIRE_LIVE").as_deref() == Ok("1");
    println!("cargo:rerun-if-env-changed=PATH");
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    for (cfg, programs, fallbacks) in LIVE_PROGRAMS {
        println!("cargo:rustc-check-cfg=cfg({cfg})");
        dirs.extend(fallbacks.iter().map(PathBuf::from));
        let found = programs
            .iter()
            .all(|p| dirs.iter().any(|d| d.join(p).is_file()));
        if !found && !required {
            println!("cargo:rustc-cfg={cfg}");
        }
    }
    // An installed package changes these directories: look again then.
    for d in ["/usr/bin", "/usr/sbin"] {
        if Path::new(d).is_dir() {
            println!("cargo:rerun-if-changed={d}");
        }
    }
}

fn shared_beside() {
    println!("cargo:rustc-check-cfg=cfg(mytune_no_shared)");
    println!("cargo:rerun-if-env-changed=MYTUNE_REQUIRE_LIVE");
    let Ok(manifest) = std::env::var("CARGO_MANIFEST_DIR") else {
        return;
    };
    let shared = Path::new(&manifest).join("../shared");
    println!("cargo:rerun-if-changed={}", shared.display());
    if shared.is_dir() {
        return;
    }
    if std::env::var("MYTUNE_REQUIRE_LIVE").as_deref() == Ok("1") {
        panic!(
            "{} is absent: CI (MYTUNE_REQUIRE_LIVE=1) runs the tests that read it",
            shared.display()
        );
    }
    println!("cargo:rustc-cfg=mytune_no_shared");
}
