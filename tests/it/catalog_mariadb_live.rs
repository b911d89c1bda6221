//! The mariadb-10.11 catalog must agree with what a real MariaDB 10.11 says
//! about its own variables: the committed `information_schema.SYSTEM_VARIABLES`
//! capture in `shared/` (skipped when absent) and a live server on
//! 127.0.0.1:3306 (skipped when unreachable, unless `MYTUNE_REQUIRE_LIVE=1`).

use crate::support::shared as shared_support;
use shared_support::shared_dir;

use mysql::prelude::Queryable;
use mytune::catalog::{Catalog, VarInfo, VarKind};

/// One row of `information_schema.SYSTEM_VARIABLES`.
struct Row {
    name: String,
    default: Option<String>,
    vtype: String,
    min: Option<String>,
    max: Option<String>,
    enum_values: Option<String>,
    read_only: String,
}

fn null(s: &str) -> Option<String> {
    (s != "NULL").then(|| s.to_string())
}

/// Compare one server row with the catalog; return what disagrees.
fn disagreements(cat: &Catalog, r: &Row, compare_default: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = r.name.to_ascii_lowercase();
    let Some(v) = cat.get(&name) else {
        return vec![format!("{name}: missing from the catalog")];
    };
    if v.status.is_removed() {
        out.push(format!("{name}: catalog says removed, server has it"));
    }
    if !v.sysvar {
        out.push(format!("{name}: catalog says option-only, server lists it"));
    }
    let dynamic = r.read_only == "NO";
    if v.dynamic != dynamic {
        out.push(format!(
            "{name}: dynamic {} vs READ_ONLY {}",
            v.dynamic, r.read_only
        ));
    }
    if !kind_matches(v, r) {
        out.push(format!(
            "{name}: kind {:?} vs {} {:?}..{:?} [{:?}]",
            v.kind, r.vtype, r.min, r.max, r.enum_values
        ));
    }
    if compare_default
        && let (Some(d), Some(cd)) = (&r.default, &v.default)
        && d != cd
    {
        out.push(format!("{name}: default {cd:?} vs server {d:?}"));
    }
    out
}

fn num_eq<T: std::str::FromStr + PartialEq>(cat: Option<T>, server: &Option<String>) -> bool {
    match server {
        None => cat.is_none(),
        Some(s) => s.parse::<T>().ok() == cat,
    }
}

fn kind_matches(v: &VarInfo, r: &Row) -> bool {
    let list = |s: &Option<String>| -> Vec<String> {
        s.as_deref()
            .map(|s| s.split(',').map(str::to_string).collect())
            .unwrap_or_default()
    };
    match (&v.kind, r.vtype.as_str()) {
        (VarKind::Bool, "BOOLEAN") => true,
        (VarKind::Path, "BOOLEAN") => v.name == "log_bin",
        (VarKind::Integer { min, max }, t) if t.contains("INT") => {
            num_eq(*min, &r.min) && num_eq(*max, &r.max)
        }
        (VarKind::Size { min, max, .. }, t) if t.contains("INT") => {
            num_eq(*min, &r.min) && num_eq(*max, &r.max)
        }
        (VarKind::Float { min, max }, "DOUBLE") => num_eq(*min, &r.min) && num_eq(*max, &r.max),
        (VarKind::Enum { values }, "ENUM") => *values == list(&r.enum_values),
        (VarKind::Set { values }, "SET") => *values == list(&r.enum_values),
        (VarKind::String, "ENUM") => r.enum_values.is_none(),
        (VarKind::String | VarKind::Path, "VARCHAR" | "FLAGSET") => true,
        // A flag set's flags (its list ends with `default`, which is no flag).
        (VarKind::Set { values }, "FLAGSET") => {
            let mut l = list(&r.enum_values);
            l.retain(|f| f != "default");
            *values == l
        }
        _ => false,
    }
}

fn catalog() -> &'static Catalog {
    let c = Catalog::for_target(&"mariadb-10.11".parse().unwrap()).unwrap();
    assert_eq!(c.target().to_string(), "mariadb-10.11");
    c
}

#[test]
#[cfg_attr(mytune_no_shared, ignore = "needs ../shared beside the checkout")]
fn catalog_agrees_with_the_captured_10_11_19_system_variables() {
    let Some(shared) = shared_dir() else {
        eprintln!("skipped: no shared/ directory beside the crate (or /work/shared)");
        return;
    };
    let path =
        shared.join("catalog/sysvars/mariadb-10.11.19_information_schema.SYSTEM_VARIABLES.tsv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} is absent", path.display());
        return;
    };
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).expect(n);
    let (cn, cd, ct, cmin, cmax, ce, cro) = (
        col("VARIABLE_NAME"),
        col("DEFAULT_VALUE"),
        col("VARIABLE_TYPE"),
        col("NUMERIC_MIN_VALUE"),
        col("NUMERIC_MAX_VALUE"),
        col("ENUM_VALUE_LIST"),
        col("READ_ONLY"),
    );
    let cat = catalog();
    let mut bad = Vec::new();
    let mut n = 0;
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != head.len() {
            continue;
        }
        n += 1;
        let row = Row {
            name: f[cn].to_string(),
            default: null(f[cd]),
            vtype: f[ct].to_string(),
            min: null(f[cmin]),
            max: null(f[cmax]),
            enum_values: null(f[ce]),
            read_only: f[cro].to_string(),
        };
        bad.extend(disagreements(cat, &row, true));
    }
    assert!(n > 600, "only {n} rows read from {}", path.display());
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn catalog_agrees_with_the_live_server() {
    let required = std::env::var("MYTUNE_REQUIRE_LIVE").as_deref() == Ok("1");
    let url = std::env::var("MYTUNE_TEST_SERVER_URL")
        .unwrap_or_else(|_| "mysql://root@127.0.0.1:3306".to_string());
    let opts = match mysql::Opts::from_url(&url) {
        Ok(o) => o,
        Err(e) => panic!("bad MYTUNE_TEST_SERVER_URL: {e}"),
    };
    let mut conn = match mysql::Conn::new(opts) {
        Ok(c) => c,
        Err(e) if !required => {
            eprintln!("skipped: no server reachable at {url}: {e}");
            return;
        }
        Err(e) => panic!("MYTUNE_REQUIRE_LIVE=1 but no server at {url}: {e}"),
    };
    let version: String = conn
        .query_first("SELECT VERSION()")
        .expect("SELECT VERSION()")
        .unwrap_or_default();
    if !version.starts_with("10.11.") {
        eprintln!("skipped: the live server is {version}, not MariaDB 10.11");
        return;
    }
    type Tuple = (
        String,
        Option<String>,
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        String,
    );
    let rows: Vec<Tuple> = conn
        .query(
            "SELECT VARIABLE_NAME, DEFAULT_VALUE, VARIABLE_TYPE, NUMERIC_MIN_VALUE, \
             NUMERIC_MAX_VALUE, ENUM_VALUE_LIST, READ_ONLY FROM information_schema.SYSTEM_VARIABLES",
        )
        .expect("query information_schema.SYSTEM_VARIABLES");
    assert!(
        rows.len() > 600,
        "only {} variables from the live server",
        rows.len()
    );
    let cat = catalog();
    let mut bad = Vec::new();
    for (name, default, vtype, min, max, enum_values, read_only) in rows {
        let row = Row {
            name,
            default,
            vtype,
            min,
            max,
            enum_values,
            read_only,
        };
        // Defaults depend on how the server was built and packaged; the
        // captured file already pins them, so compare metadata only here.
        bad.extend(disagreements(cat, &row, false));
    }
    assert!(
        bad.is_empty(),
        "{} disagreements with {version}:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
