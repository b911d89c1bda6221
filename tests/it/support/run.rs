//! One way to run the built `mytune`, with the same machine-independent
//! defaults for every test: no server looked up on this host (lint's and
//! gen's default target would otherwise be whatever `mariadbd` is installed
//! here), no password, host, port or width taken from the developer's shell.
//! A test that needs one of these says so on the command it builds.

use std::process::{Command, Output};

/// The `mytune` binary with the defaults above; add arguments and run it.
pub fn mytune_command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mytune"));
    c.env("MYTUNE_DETECT_SERVER", "0");
    for var in [
        "MYSQL_PWD",
        "MYSQL_HOST",
        "MYSQL_TCP_PORT",
        "MYSQL_UNIX_PORT",
        "COLUMNS",
        "NO_COLOR",
    ] {
        c.env_remove(var);
    }
    c
}

/// Run `mytune ARGS` in the crate's directory with the defaults above.
pub fn mytune(args: &[&str]) -> Output {
    mytune_command()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run mytune")
}

/// What the run wrote to stdout, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What the run wrote to stderr, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
