//! `mytune gen-sysctl`: a sysctl.d file from the rules' kernel-parameter
//! recommendations for this host.

use std::process::ExitCode;

use mytune::generate;

use crate::cli::generate::GenSysctlArgs;

pub fn run(args: &GenSysctlArgs) -> anyhow::Result<ExitCode> {
    let r = args.common.resolve("gen-sysctl", None)?;
    let read = generate::sysctl::read_by_rules(&r.rules);
    let mut header = r.header.clone();
    for w in r.plan.shortfalls_of_os(true) {
        mytune::stderr_line!("mytune gen-sysctl: warning: {w}");
        header.push(format!("Warning: {w}."));
    }
    let file = generate::sysctl::render(&r.plan, r.facts.host.as_ref(), &read, args.all, &header)?;
    super::emit(&file.text)?;
    Ok(ExitCode::SUCCESS)
}
