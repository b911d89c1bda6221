//! The `mytune` binary: parse the command line, dispatch, map errors to exit
//! codes (0 clean, 1 findings at or above `--fail-on`, 2 usage or I/O error).

mod cli;
mod commands;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            if e.chain().any(|c| {
                c.downcast_ref::<commands::out::OutputError>()
                    .is_some_and(commands::out::OutputError::is_broken_pipe)
            }) {
                // The reader has what it wanted (`| head`): end quietly.
                return ExitCode::from(141);
            }
            mytune::stderr_line!("mytune: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: cli::Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        cli::Command::Rules(args) => commands::rules::run(&args),
        cli::Command::Explain(args) => commands::explain::run(&args),
        cli::Command::Lint(args) => commands::lint::run(&args),
        cli::Command::Collect(args) => commands::collect::run(*args),
        cli::Command::Check(args) => commands::check::run(*args),
        cli::Command::GenCnf(args) => commands::gen_cnf::run(&args),
        cli::Command::GenSysctl(args) => commands::gen_sysctl::run(&args),
        cli::Command::GenLimits(args) => commands::gen_limits::run(&args),
        cli::Command::Completions(args) => commands::meta::completions(&args),
        cli::Command::Man(args) => commands::meta::man(&args),
        cli::Command::Help(args) => commands::meta::help(&args),
    }
}
