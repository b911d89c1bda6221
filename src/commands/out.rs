//! Standard output for every subcommand, with write errors as values.
//!
//! `println!` panics (exit 101) when stdout is a closed pipe or a full disk.
//! Commands print through [`emit`] instead; `main` ends a closed pipe
//! (`mytune rules | head -1`) quietly with status 141 (128 + SIGPIPE, what a
//! shell reports for a program killed by the signal) and any other write
//! error with a message and status 2.

use std::io::Write;

/// Standard output could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the output")]
pub struct OutputError(#[source] pub std::io::Error);

impl OutputError {
    /// The reader went away (EPIPE).
    pub fn is_broken_pipe(&self) -> bool {
        self.0.kind() == std::io::ErrorKind::BrokenPipe
    }
}

/// Write `text` to standard output and flush it.
pub fn emit(text: &str) -> Result<(), OutputError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(OutputError)
}
