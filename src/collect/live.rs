//! What a live run needs around a collection: its error type, the overall
//! deadline and the progress line drawn while `--interval` waits. The
//! command line that asks for it lives in the binary.

use std::time::Duration;

use crate::collect::{self, ServerError};

/// Why a collection from flags failed.
#[derive(Debug, thiserror::Error)]
pub enum CollectError {
    #[error(transparent)]
    Connect(#[from] collect::ConnectError),
    #[error(transparent)]
    Server(#[from] ServerError),
}

/// The overall `--timeout`: a thread that ends the process with exit 2 and
/// "timed out after N s" unless the guard is dropped first. Per-read
/// timeouts cannot bound a server that sends a byte every few seconds; this
/// does, whatever the server does.
pub struct Deadline {
    _done: std::sync::mpsc::Sender<()>,
}

impl Deadline {
    /// Arm the deadline; it is disarmed when the guard is dropped.
    pub fn start(limit: Duration) -> Deadline {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let _ = std::thread::Builder::new()
            .name("mytune-deadline".into())
            .spawn(move || {
                if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(limit) {
                    crate::stderr_line!(
                        "mytune: error: timed out after {} s: the server is too slow to answer (--timeout)",
                        limit.as_secs()
                    );
                    std::process::exit(2);
                }
            });
        Deadline { _done: tx }
    }
}

/// `sampling status [##########----------]   5s / 10s`
pub fn progress_line(waited: Duration, total: Duration) -> String {
    const WIDTH: usize = 20;
    let frac = if total.is_zero() {
        1.0
    } else {
        (waited.as_secs_f64() / total.as_secs_f64()).min(1.0)
    };
    let filled = (frac * WIDTH as f64).round() as usize;
    format!(
        "sampling status [{}{}] {:>3}s / {}s",
        "#".repeat(filled),
        "-".repeat(WIDTH - filled),
        waited.as_secs(),
        total.as_secs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_progress() {
        assert_eq!(
            progress_line(Duration::from_secs(5), Duration::from_secs(10)),
            "sampling status [##########----------]   5s / 10s"
        );
    }
}
