//! `mytune gen-cnf`: a commented option file for this host or a described
//! one, written from the rules' recommendations.

use std::process::ExitCode;

use anyhow::bail;

use mytune::cnf;
use mytune::collect::{self, HostMode, ServerOptions};
use mytune::facts::Facts;
use mytune::generate;
use mytune::generate::cnf::Origin;

use super::gen_args::Resolved;
use crate::cli::generate::{GenCnfArgs, Refused};

/// Where a generated file goes, for the header of a new one: it is a
/// drop-in read after the distribution's files, not a my.cnf replacement.
pub const DROP_IN_HEADER: [&str; 2] = [
    "Install as a drop-in that is read after the distribution's files, e.g. /etc/mysql/mariadb.conf.d/99-mytune.cnf (Debian/Ubuntu MariaDB), /etc/mysql/mysql.conf.d/99-mytune.cnf (Debian/Ubuntu MySQL) or /etc/my.cnf.d/99-mytune.cnf (RHEL, Fedora, SUSE); a later file wins for each option.",
    "It holds no paths (datadir, socket, pid or log files): do not use it as the whole my.cnf.",
];

pub fn run(args: &GenCnfArgs) -> anyhow::Result<ExitCode> {
    let live = if args.from_server {
        Some(collect_server(args)?)
    } else {
        None
    };
    let mut base_text = match &args.base {
        Some(p) => Some(mytune::input::read_text(p)?),
        None => None,
    };
    let mut resolved = args.common.resolve("gen-cnf", live)?;
    let mut refused_notes = Vec::new();
    if let (Some(p), Some(text)) = (&args.base, base_text.as_mut()) {
        refused_notes = refused_lines(p, text, &resolved.plan.target, args.refused)?;
        // The base file's effective options are the starting values.
        let loaded = cnf::load_str(text, p);
        let mut facts = resolved.facts.clone();
        facts.config = Some(loaded.effective(&cnf::server_groups(&resolved.plan.target)));
        let plan = generate::plan::build(
            &resolved.rules,
            &facts,
            &resolved.profile,
            resolved.plan.target,
        )?;
        resolved = Resolved {
            facts,
            plan,
            ..resolved
        };
    }
    let origin = if resolved.facts.server.is_some() {
        Origin::Server
    } else if args.base.is_some() {
        Origin::BaseFile
    } else {
        Origin::Defaults
    };
    let mut header = resolved.header.clone();
    header.extend(DROP_IN_HEADER.iter().map(|l| l.to_string()));
    for w in resolved.plan.shortfalls_of_os(false) {
        mytune::stderr_line!("mytune gen-cnf: warning: {w}");
        header.push(format!("Warning: {w}."));
    }
    for n in resolved.plan.notes_of_os(false) {
        header.push(format!("Note: {n}."));
    }
    for w in &refused_notes {
        mytune::stderr_line!("mytune gen-cnf: warning: {w}");
        header.push(format!("Warning: {w}."));
    }
    let text = generate::cnf::render(&resolved.plan, &header, base_text.as_deref(), origin)?;
    match &args.output {
        Some(path) => {
            super::write_file(path, &text, mytune::atomic::Perms::Shared)?;
            eprintln!("mytune gen-cnf: wrote {}", path.display());
        }
        None => super::emit(&text)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Read the live server (and this host when the server is local).
fn collect_server(args: &GenCnfArgs) -> anyhow::Result<Facts> {
    let cfg = collect::connect::resolve_from_env(&args.connect.args())?;
    let _deadline = mytune::collect::live::Deadline::start(args.timeout);
    let host_mode = HostMode {
        disabled: false,
        description: args.common.description(),
        paths: Default::default(),
        described_only: false,
    };
    let facts = collect::collect(&cfg, &ServerOptions::default(), &host_mode, &mut |_, _| {})?;
    if facts.host.is_none() {
        bail!(
            "{} is a remote server: describe its host with --memory and --cpus",
            cfg.endpoint()
        );
    }
    Ok(facts)
}

/// The lines of the base file `path` (the top file; included files are not
/// edited) that the target's server refuses at start-up, as `lint` judges
/// them. Without `--refused` they are an error listing them; `keep` leaves
/// them and returns a warning each; `drop` comments them out in `text`,
/// saying why, and returns a note each.
fn refused_lines(
    path: &std::path::Path,
    text: &mut String,
    target: &mytune::target::Target,
    how: Option<Refused>,
) -> anyhow::Result<Vec<String>> {
    let loaded = cnf::load_str(text, path);
    let effective = loaded.effective(&cnf::server_groups(target));
    let catalog = mytune::catalog::Catalog::for_target(target)?;
    let refused: Vec<(u32, String)> =
        mytune::lint::lint_loaded(&loaded, &effective, target, catalog)
            .into_iter()
            .filter(|f| f.severity == mytune::rules::Severity::Crit)
            .filter_map(|f| {
                let loc = f.location?;
                (loc.file == path && loc.line > 0)
                    .then(|| (loc.line, format!("{loc}: {} ({})", f.message, f.code)))
            })
            .collect();
    if refused.is_empty() {
        return Ok(Vec::new());
    }
    match how {
        None => {
            for (_, r) in &refused {
                mytune::stderr_line!("mytune gen-cnf: {r}");
            }
            bail!(
                "{} line(s) of {} would stop the {} server: choose --refused keep (write them as they are) or --refused drop (comment them out)",
                refused.len(),
                path.display(),
                target
            );
        }
        Some(Refused::Keep) => Ok(refused
            .into_iter()
            .map(|(_, r)| format!("kept as --refused keep asks, though the server refuses it: {r}"))
            .collect()),
        Some(Refused::Drop) => {
            let lines: std::collections::BTreeSet<u32> = refused.iter().map(|(l, _)| *l).collect();
            let mut out = String::with_capacity(text.len() + 64 * lines.len());
            for (i, line) in text.split_inclusive('\n').enumerate() {
                let n = i as u32 + 1;
                if lines.contains(&n) {
                    out.push_str("# mytune: dropped, the server refuses it: ");
                }
                out.push_str(line);
            }
            *text = out;
            Ok(refused
                .into_iter()
                .map(|(_, r)| format!("commented out as --refused drop asks: {r}"))
                .collect())
        }
    }
}
