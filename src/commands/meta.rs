//! Commands about mytune itself: `completions`, `man` and `help`, all made
//! from the clap definition so they never drift from the real options.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::CommandFactory;

use mytune::atomic::{self, Backup, Perms};

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
            // As clap_mangen::generate_to names them, written as every
            // other output is: all or none, links followed, modes kept.
            let mut cmd = cmd.disable_help_subcommand(true);
            cmd.build();
            let mut all = Vec::new();
            pages(cmd, &mut all)?;
            let paths: Vec<_> = all.iter().map(|(name, _)| dir.join(name)).collect();
            let batch: Vec<(&std::path::Path, &[u8])> = paths
                .iter()
                .zip(&all)
                .map(|(p, (_, text))| (p.as_path(), text.as_slice()))
                .collect();
            let written = atomic::write_all(&batch, Perms::Shared, Backup::None)?;
            for (p, w) in paths.iter().zip(&written) {
                super::tell_written(p, w);
            }
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

/// The manual page of `cmd` and of each of its visible subcommands, as
/// (file name, text).
fn pages(cmd: clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
        pages(sub, out)?;
    }
    let man = clap_mangen::Man::new(cmd);
    let mut text = Vec::new();
    man.render(&mut text)?;
    out.push((man.get_filename(), text));
    Ok(())
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
