//! One module per subcommand: resolve inputs, call the library, print.

pub mod check;
pub mod collect;
pub mod explain;
pub mod fleet;
pub mod gen_args;
pub mod gen_cnf;
pub mod gen_limits;
pub mod gen_sysctl;
pub mod lint;
pub mod meta;
pub mod out;
pub mod rules;

use std::path::Path;
use std::process::ExitCode;

use mytune::atomic::{Backup, Perms, Written};
use mytune::rules::RuleSet;

pub use out::emit;

/// Load the catalog; a broken rule file prints one `file:line:col: message`
/// line and yields exit code 2.
pub fn load_rules(dir: Option<&Path>) -> Result<RuleSet, ExitCode> {
    RuleSet::load(dir).map_err(|e| {
        // One line per error: a file with several reports them all.
        for line in e.to_string().lines() {
            mytune::stderr_line!("{line}");
        }
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

/// Write `text` to `path` (`-o/--output`) by the rules of
/// [`mytune::atomic`]: atomically, a file replaced keeps its owner, group
/// and mode, a new one gets `perms`, a symbolic link is followed.
pub fn write_file(path: &Path, text: &str, perms: Perms) -> anyhow::Result<()> {
    let w = mytune::atomic::write(path, text.as_bytes(), perms, Backup::None)?;
    tell_written(path, &w);
    Ok(())
}

/// The stderr lines a write owes its user: a link followed, a file kept.
pub fn tell_written(given: &Path, w: &Written) {
    if w.followed_link {
        mytune::stderr_line!(
            "mytune: {} is a symbolic link: wrote its target {} and kept the link",
            given.display(),
            w.file.display()
        );
    }
    if let Some(bak) = &w.backup {
        mytune::stderr_line!("mytune: kept the previous file as {}", bak.display());
    }
}
