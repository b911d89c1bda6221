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
