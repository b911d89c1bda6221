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
pub mod out;
pub mod profile_args;
pub mod rules;

use std::path::Path;
use std::process::ExitCode;

use mytune::rules::RuleSet;

pub use out::emit;

/// Load the catalog; a broken rule file prints one `file:line:col: message`
/// line and yields exit code 2.
pub fn load_rules(dir: Option<&Path>) -> Result<RuleSet, ExitCode> {
    RuleSet::load(dir).map_err(|e| {
        mytune::stderr_line!("{e}");
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

/// Write `text` to `path` (`-o/--output`) atomically (a temporary file
/// beside it, fsync, rename), so a failed write never leaves half a file;
/// a report holds server data, so it is the owner's only.
pub fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    let w = mytune::atomic::write(path, text.as_bytes(), 0o600, mytune::atomic::Backup::None)?;
    if let Some(target) = w.replaced_link {
        eprintln!(
            "mytune: {} was a symbolic link to {}; replaced it with the file",
            path.display(),
            target.display()
        );
    }
    Ok(())
}
