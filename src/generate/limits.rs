//! `gen-limits`: the plan's process limits (`limit:` recommendations) as a
//! `limits.d` file for the server's user and a systemd drop-in for its unit.
//!
//! Both are needed: `pam_limits` (limits.d) applies to login sessions, such
//! as a server started by hand or by `mysqld_safe` from a shell, while a
//! server started by systemd gets only its unit's `Limit*=` settings. The
//! values must also agree with the option file: the server cannot open more
//! files than its hard `nofile` limit, so when the plan sets
//! `open_files_limit` and no rule recommends `limit:nofile`, the limit is
//! that value, and a rule recommending less is an error.

use super::plan::{LIMIT_PREFIX, Plan};
use super::{GenError, GeneratedFile, wrap};
use crate::target::Target;
use crate::units;

const COMMENT_WIDTH: usize = 96;

/// Who and what the limits are for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitsOptions {
    /// The server's OS user (`mysql`).
    pub user: String,
    /// The systemd unit (`mariadb.service`).
    pub unit: String,
}

impl LimitsOptions {
    /// The user and unit the distribution packages use for `target`.
    pub fn for_target(target: &Target) -> LimitsOptions {
        LimitsOptions {
            user: "mysql".into(),
            unit: target.flavor.traits().systemd_unit.into(),
        }
    }
}

/// A limit as both files name it, and whether its value is a byte count
/// (limits.conf counts those in KiB, systemd in bytes).
struct LimitKind {
    name: &'static str,
    directive: &'static str,
    bytes: bool,
}

const LIMITS: [LimitKind; 4] = [
    LimitKind {
        name: "nofile",
        directive: "LimitNOFILE",
        bytes: false,
    },
    LimitKind {
        name: "nproc",
        directive: "LimitNPROC",
        bytes: false,
    },
    LimitKind {
        name: "memlock",
        directive: "LimitMEMLOCK",
        bytes: true,
    },
    LimitKind {
        name: "core",
        directive: "LimitCORE",
        bytes: true,
    },
];

/// One limit to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitValue {
    /// `nofile`.
    pub name: String,
    /// `None` = unlimited.
    pub value: Option<u64>,
    /// Where it comes from: `MT8xx name: why`.
    pub why: String,
}

/// The limits of the plan, with `nofile` made consistent with
/// `open_files_limit`.
pub fn limits(plan: &Plan) -> Result<Vec<LimitValue>, GenError> {
    let mut out = Vec::new();
    for (name, s) in plan.namespaced(LIMIT_PREFIX) {
        let unwritable = |why: String| GenError::Unwritable {
            code: s.code.to_string(),
            setting: s.name.clone(),
            value: s.value.clone(),
            why,
        };
        let kind = LIMITS.iter().find(|k| k.name == name).ok_or_else(|| {
            unwritable(format!(
                "unknown limit (known: {})",
                LIMITS.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
            ))
        })?;
        let v = s.value.trim();
        let value = if v.eq_ignore_ascii_case("unlimited") || v.eq_ignore_ascii_case("infinity") {
            None
        } else {
            let n = units::parse_size(v).map_err(unwritable)?;
            if !kind.bytes && !v.bytes().all(|b| b.is_ascii_digit()) {
                return Err(unwritable("a count, not a size".into()));
            }
            Some(n)
        };
        out.push(LimitValue {
            name: name.to_string(),
            value,
            why: format!("{} {}: {}", s.code, s.rule_name, s.why),
        });
    }
    if let Some(ofl) = plan.get("open_files_limit") {
        let wanted = units::parse_size(&ofl.value).map_err(|e| GenError::Unwritable {
            code: ofl.code.to_string(),
            setting: ofl.name.clone(),
            value: ofl.value.clone(),
            why: e,
        })?;
        match out.iter().find(|l| l.name == "nofile") {
            Some(l) if l.value.is_some_and(|v| v < wanted) => {
                return Err(GenError::Unwritable {
                    code: ofl.code.to_string(),
                    setting: format!("{LIMIT_PREFIX}nofile"),
                    value: l.value.map(|v| v.to_string()).unwrap_or_default(),
                    why: format!(
                        "below open_files_limit = {wanted} ({}); the server cannot open more files than its hard limit",
                        ofl.code
                    ),
                });
            }
            Some(_) => {}
            None => out.push(LimitValue {
                name: "nofile".into(),
                value: Some(wanted),
                why: format!(
                    "open_files_limit = {wanted} ({} {}): the server cannot open more files than its hard limit",
                    ofl.code, ofl.rule_name
                ),
            }),
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

fn kind_of(name: &str) -> &'static LimitKind {
    LIMITS
        .iter()
        .find(|k| k.name == name)
        .expect("limits() only returns known limits")
}

fn comment(text: &mut String, s: &str) {
    for line in wrap(s, COMMENT_WIDTH) {
        text.push_str(&format!("# {line}\n"));
    }
}

/// The `limits.d` path for a user.
pub fn limits_path(user: &str) -> String {
    format!("/etc/security/limits.d/90-mytune-{user}.conf")
}

/// The drop-in path for a unit.
pub fn dropin_path(unit: &str) -> String {
    format!("/etc/systemd/system/{unit}.d/90-mytune-limits.conf")
}

/// Render the two files. Errors when the user or unit name could not be
/// written safely.
pub fn render(
    plan: &Plan,
    opts: &LimitsOptions,
    header: &[String],
) -> Result<Vec<GeneratedFile>, GenError> {
    let bad_name = |what: &str, v: &str| GenError::Unwritable {
        code: "-".into(),
        setting: what.into(),
        value: v.into(),
        why: "letters, digits, '_', '-', '.', '@' only".into(),
    };
    let name_ok = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_-.@".contains(&b))
    };
    if !name_ok(&opts.user) {
        return Err(bad_name("user", &opts.user));
    }
    if !name_ok(&opts.unit) {
        return Err(bad_name("unit", &opts.unit));
    }
    let values = limits(plan)?;

    let mut pam = String::new();
    for h in header {
        comment(&mut pam, h);
    }
    comment(
        &mut pam,
        &format!(
            "Limits of user {} for login sessions (a server started from a shell or by mysqld_safe); a server started by systemd gets the drop-in's values instead. Takes effect at the next login.",
            opts.user
        ),
    );
    let mut unit = String::new();
    for h in header {
        comment(&mut unit, h);
    }
    comment(
        &mut unit,
        &format!(
            "Limits of {} when systemd starts it. Apply: systemctl daemon-reload && systemctl restart {}",
            opts.unit, opts.unit
        ),
    );
    unit.push_str("[Service]\n");
    if values.is_empty() {
        let none = "no rule recommends a process limit for this host and profile";
        pam.push('\n');
        comment(&mut pam, none);
        comment(&mut unit, none);
    }
    for l in &values {
        let k = kind_of(&l.name);
        pam.push('\n');
        comment(&mut pam, &l.why);
        let pam_value = match l.value {
            None => "unlimited".to_string(),
            Some(v) if k.bytes => v.div_ceil(1024).to_string(),
            Some(v) => v.to_string(),
        };
        for kind in ["soft", "hard"] {
            pam.push_str(&format!("{} {kind} {} {pam_value}\n", opts.user, l.name));
        }
        comment(&mut unit, &l.why);
        let unit_value = match l.value {
            None => "infinity".to_string(),
            Some(v) => v.to_string(),
        };
        unit.push_str(&format!("{}={unit_value}\n", k.directive));
    }
    Ok(vec![
        GeneratedFile {
            path: limits_path(&opts.user),
            text: pam,
        },
        GeneratedFile {
            path: dropin_path(&opts.unit),
            text: unit,
        },
    ])
}

/// The commands that install and apply the files.
pub fn apply_commands(files: &[GeneratedFile], opts: &LimitsOptions) -> Vec<String> {
    let mut cmds: Vec<String> = files
        .iter()
        .map(|f| format!("install -D -m 0644 {} {}", base_name(&f.path), f.path))
        .collect();
    cmds.push("systemctl daemon-reload".into());
    cmds.push(format!("systemctl restart {}", opts.unit));
    cmds.push(format!(
        "systemctl show {} -p LimitNOFILE -p LimitNPROC   # check",
        opts.unit
    ));
    cmds
}

fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}
