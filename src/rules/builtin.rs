//! The built-in rule catalog, embedded at build time. This is the one
//! place that lists the files: one per family, in code order.

/// (path shown in errors, file contents)
pub const BUILTIN_RULE_FILES: &[(&str, &str)] = &[
    ("rules/innodb.toml", include_str!("../../rules/innodb.toml")),
    (
        "rules/connections.toml",
        include_str!("../../rules/connections.toml"),
    ),
    ("rules/memory.toml", include_str!("../../rules/memory.toml")),
    ("rules/caches.toml", include_str!("../../rules/caches.toml")),
    (
        "rules/logging.toml",
        include_str!("../../rules/logging.toml"),
    ),
    (
        "rules/replication.toml",
        include_str!("../../rules/replication.toml"),
    ),
    (
        "rules/security.toml",
        include_str!("../../rules/security.toml"),
    ),
    ("rules/os.toml", include_str!("../../rules/os.toml")),
    ("rules/compat.toml", include_str!("../../rules/compat.toml")),
];
