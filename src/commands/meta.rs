//! Commands about mytune itself: `completions`, `man` and `help`, all made
//! from the clap definition so they never drift from the real options.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs, HelpArgs, ManArgs};

/// `mytune completions SHELL`: the completion script on standard output.
pub fn completions(args: &CompletionsArgs) -> anyhow::Result<ExitCode> {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "mytune", &mut buf);
    std::io::stdout()
        .lock()
        .write_all(&buf)
        .context("cannot write the completion script")?;
    Ok(ExitCode::SUCCESS)
}

/// `mytune man`: mytune.1 on standard output, or every page into `--dir`.
pub fn man(args: &ManArgs) -> anyhow::Result<ExitCode> {
    let cmd = Cli::command();
    match &args.dir {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            clap_mangen::generate_to(cmd, dir)
                .with_context(|| format!("cannot write the manual pages into {}", dir.display()))?;
            eprintln!("mytune: wrote the manual pages into {}", dir.display());
        }
        None => {
            let mut buf = Vec::new();
            clap_mangen::Man::new(cmd).render(&mut buf)?;
            std::io::stdout()
                .lock()
                .write_all(&buf)
                .context("cannot write the manual page")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `mytune help [COMMAND]...`: the long help of mytune or of a command.
pub fn help(args: &HelpArgs) -> anyhow::Result<ExitCode> {
    let mut cmd = Cli::command();
    cmd.build();
    let mut current = &mut cmd;
    for name in &args.command {
        current = match current.find_subcommand_mut(name) {
            Some(c) => c,
            None => bail!("no command '{name}' (see `mytune --help`)"),
        };
    }
    // Plain text (StyledStr's Display), the same as `COMMAND --help`.
    let text = current.render_long_help().to_string();
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        // `mytune help | head`: the reader had enough.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        r => r.context("cannot write the help")?,
    }
    Ok(ExitCode::SUCCESS)
}
