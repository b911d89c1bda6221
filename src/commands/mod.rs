//! One module per subcommand: resolve inputs, call the library, print.

pub mod check;
pub mod collect;
pub mod explain;
pub mod gen_args;
pub mod gen_cnf;
pub mod gen_limits;
pub mod gen_sysctl;
pub mod lint;
pub mod meta;
pub mod rules;

use std::path::Path;
use std::process::ExitCode;

use mytune::rules::RuleSet;

/// Load the catalog; a broken rule file prints one `file:line:col: message`
/// line and yields exit code 2.
pub fn load_rules(dir: Option<&Path>) -> Result<RuleSet, ExitCode> {
    RuleSet::load(dir).map_err(|e| {
        eprintln!("{e}");
        ExitCode::from(2)
    })
}

/// The server installed on this host (`mariadbd`/`mysqld --version` on PATH
/// or in /usr/sbin), the default target of `lint` and `gen-*` without
/// `--target`. `MYTUNE_DETECT_SERVER=0` turns the look-up off (reproducible
/// runs on a machine that happens to have a server installed).
pub fn installed_server() -> Option<mytune::target::Target> {
    if std::env::var_os("MYTUNE_DETECT_SERVER").is_some_and(|v| v == "0") {
        return None;
    }
    mytune::generate::host::installed_server()
}

/// Write `text` to `path` (`-o/--output`): into a temporary file beside it,
/// then renamed over it, so a failed write never leaves half a file.
pub fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    use anyhow::Context;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("{}: not a file name", path.display()))?;
    let tmp = dir.join(format!(".{}.mytune-tmp", name.to_string_lossy()));
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", path.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        anyhow::anyhow!("cannot write {}: {e}", path.display())
    })
}
