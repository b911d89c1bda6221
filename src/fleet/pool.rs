//! Bounded concurrency with a deadline per item: at most `jobs` items at
//! work, each given up at its deadline, so a silent server costs one
//! deadline and never holds the others.
//!
//! Each item runs on its own thread, watched by one of `jobs` workers. At
//! the deadline the worker reports the item as overdue and takes the next
//! one; the abandoned thread ends on its own (a blocked read ends at the
//! connection's read timeout) or with the process. Results arrive on a
//! channel in the order they finish, so the caller can judge each as it
//! comes while the others are still being read.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Why an item has no result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Overdue {
    #[error("gave up after {} s (--timeout)", .0.as_secs_f64())]
    TimedOut(Duration),
    #[error("mytune failed on this server (a bug: please report it)")]
    Panicked,
}

/// One finished item.
#[derive(Debug)]
pub struct Done<T> {
    /// Its position in the input.
    pub index: usize,
    pub result: Result<T, Overdue>,
    pub elapsed: Duration,
}

/// Run `work` on every item, at most `jobs` at a time, each within
/// `deadline`. The receiver yields one [`Done`] per item and closes after
/// the last.
pub fn run<I, T, F>(items: Vec<I>, jobs: usize, deadline: Duration, work: F) -> Receiver<Done<T>>
where
    I: Send + 'static,
    T: Send + 'static,
    F: Fn(I) -> T + Send + Sync + 'static,
{
    let (out, results) = mpsc::channel();
    let workers = jobs.max(1).min(items.len());
    let queue = Arc::new(Mutex::new(
        items.into_iter().enumerate().collect::<VecDeque<_>>(),
    ));
    let work = Arc::new(work);
    for w in 0..workers {
        let (queue, work, out) = (Arc::clone(&queue), Arc::clone(&work), out.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("mytune-worker-{w}"))
            .spawn(move || {
                loop {
                    let next = queue.lock().map(|mut q| q.pop_front());
                    let Ok(Some((index, item))) = next else { break };
                    let began = Instant::now();
                    let result = run_one(index, item, Arc::clone(&work), deadline);
                    let done = Done {
                        index,
                        result,
                        elapsed: began.elapsed(),
                    };
                    if out.send(done).is_err() {
                        break;
                    }
                }
            });
        if spawned.is_err() {
            // Fewer workers: the others take the queue.
            continue;
        }
    }
    results
}

fn run_one<I, T, F>(index: usize, item: I, work: Arc<F>, deadline: Duration) -> Result<T, Overdue>
where
    I: Send + 'static,
    T: Send + 'static,
    F: Fn(I) -> T + Send + Sync + 'static,
{
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name(format!("mytune-item-{index}"))
        .spawn(move || {
            let _ = tx.send(work(item));
        });
    if spawned.is_err() {
        return Err(Overdue::Panicked);
    }
    match rx.recv_timeout(deadline) {
        Ok(r) => Ok(r),
        Err(RecvTimeoutError::Timeout) => Err(Overdue::TimedOut(deadline)),
        Err(RecvTimeoutError::Disconnected) => Err(Overdue::Panicked),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stuck_item_costs_one_deadline_and_holds_nothing() {
        let began = Instant::now();
        let items: Vec<u64> = vec![10_000, 1, 2, 3, 4, 5];
        let rx = run(items, 2, Duration::from_millis(300), |ms: u64| {
            std::thread::sleep(Duration::from_millis(ms));
            ms
        });
        let mut got: Vec<Done<u64>> = rx.iter().collect();
        got.sort_by_key(|d| d.index);
        assert_eq!(got.len(), 6);
        assert_eq!(
            got[0].result,
            Err(Overdue::TimedOut(Duration::from_millis(300)))
        );
        assert!(got[1..].iter().all(|d| d.result.is_ok()));
        assert!(
            began.elapsed() < Duration::from_secs(3),
            "{:?}",
            began.elapsed()
        );
    }

    #[test]
    fn a_panic_is_that_item_s_failure() {
        let rx = run(vec![0, 1], 4, Duration::from_secs(5), |n: u32| {
            if n == 0 {
                panic!("boom");
            }
            n
        });
        let mut got: Vec<Done<u32>> = rx.iter().collect();
        got.sort_by_key(|d| d.index);
        assert_eq!(got[0].result, Err(Overdue::Panicked));
        assert_eq!(got[1].result, Ok(1));
    }
}
