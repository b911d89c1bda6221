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
