//! cgroup v1/v2 limit parsing on fixture trees under `tests/fixtures/cgroup`.

use std::fs;
use std::path::PathBuf;

use mytune::collect::cgroup::{CgroupLimits, read_limits};

fn fixture(name: &str) -> (PathBuf, String) {
    let root = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/cgroup"
    ))
    .join(name);
    let self_cgroup = fs::read_to_string(root.join("self_cgroup.txt")).unwrap();
    (root, self_cgroup)
}

#[test]
fn v2_service_limits() {
    let (root, cg) = fixture("v2");
    let l = read_limits(&root, &cg);
    assert_eq!(l.version, Some(2));
    assert_eq!(l.memory_bytes, Some(2 << 30));
    assert_eq!(l.memory_source.as_deref(), Some("cgroup v2 memory.max"));
    assert_eq!(l.cpu_quota, Some(1.5));
    assert_eq!(l.cpu_source.as_deref(), Some("cgroup v2 cpu.max"));
}

#[test]
fn v2_parent_limit_applies_to_unlimited_child() {
    let (root, cg) = fixture("v2-nested");
    let l = read_limits(&root, &cg);
    assert_eq!(
        l.memory_bytes,
        Some(1 << 30),
        "the parent's memory.max bounds the child"
    );
    assert_eq!(l.cpu_quota, Some(4.0));
}

#[test]
fn v1_docker_limits() {
    let (root, cg) = fixture("v1");
    let l = read_limits(&root, &cg);
    assert_eq!(l.version, Some(1));
    assert_eq!(l.memory_bytes, Some(4 << 30));
    assert_eq!(
        l.memory_source.as_deref(),
        Some("cgroup v1 memory.limit_in_bytes")
    );
    assert_eq!(l.cpu_quota, Some(2.0));
}

#[test]
fn v1_namespaced_path_falls_back_to_the_mount_root_unlimited() {
    // /proc/self/cgroup names a path that does not exist inside the
    // namespace; the mount root says "no limit" (the huge v1 number, -1).
    let (root, cg) = fixture("v1-namespaced");
    let l = read_limits(&root, &cg);
    assert_eq!(l.version, Some(1));
    assert_eq!(l.memory_bytes, None);
    assert_eq!(l.cpu_quota, None);
}

#[test]
fn no_cgroup_filesystem() {
    let l = read_limits(&PathBuf::from("/nonexistent/cgroup"), "0::/\n");
    assert_eq!(l, CgroupLimits::default());
}
