//! The worker threads of a call: a rayon pool that joins its threads when it
//! is dropped, and a way to run work on it that the interpreter's signal
//! handlers (Ctrl-C) can stop.

use std::ops::Deref;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use pyo3::exceptions::{PyOSError, PyRuntimeError};
use pyo3::prelude::*;

/// A rayon pool of the package's own, whose threads are joined when it is
/// dropped: no worker outlives the call (or the pipeline) that made it. A
/// worker still exiting after the call had returned could hold a lock of
/// the allocator's when another Python thread forks, and the child would
/// wait for it forever.
///
/// A forked child inherits the pool but not its threads: there it is
/// [foreign](Workers::is_foreign), and dropping it leaks it (joining or
/// waking threads that do not exist would wait forever).
pub(crate) struct Workers {
    pool: Option<rayon::ThreadPool>,
    threads: Arc<Mutex<Vec<JoinHandle<()>>>>,
    /// The process that started the threads.
    process: u32,
}

impl Workers {
    /// Whether this pool was inherited through fork (its threads are in the
    /// parent process, not in this one).
    pub(crate) fn is_foreign(&self) -> bool {
        self.process != std::process::id()
    }
}

impl Deref for Workers {
    type Target = rayon::ThreadPool;

    fn deref(&self) -> &rayon::ThreadPool {
        self.pool.as_ref().expect("taken only by drop")
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        if self.is_foreign() {
            std::mem::forget(self.pool.take());
            std::mem::forget(std::mem::take(
                &mut *self.threads.lock().unwrap_or_else(PoisonError::into_inner),
            ));
            return;
        }
        // Dropping the pool tells its idle workers to exit; then wait for
        // them. (Never dropped on one of its own workers: calls drop their
        // pools on the Python thread that made them.)
        drop(self.pool.take());
        let threads =
            std::mem::take(&mut *self.threads.lock().unwrap_or_else(PoisonError::into_inner));
        for t in threads {
            // A worker that panicked has already passed its panic on.
            let _ = t.join();
        }
    }
}

/// A pool of `threads` workers (all logical CPUs, or `RAYON_NUM_THREADS`,
/// for `None`, as the command line's default).
pub(crate) fn thread_pool(threads: Option<usize>) -> PyResult<Workers> {
    let handles = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&handles);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .spawn_handler(move |thread| {
            let mut builder = std::thread::Builder::new();
            if let Some(name) = thread.name() {
                builder = builder.name(name.to_owned());
            }
            if let Some(size) = thread.stack_size() {
                builder = builder.stack_size(size);
            }
            let handle = builder.spawn(|| thread.run())?;
            kept.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(handle);
            Ok(())
        })
        .build();
    let pool = match pool {
        Ok(pool) => pool,
        Err(e) => {
            // The threads started before the failure are told to exit by
            // the builder; wait for them as a dropped pool does.
            let started =
                std::mem::take(&mut *handles.lock().unwrap_or_else(PoisonError::into_inner));
            for t in started {
                let _ = t.join();
            }
            return Err(PyOSError::new_err(format!(
                "could not start the worker threads: {e}"
            )));
        }
    };
    Ok(Workers {
        pool: Some(pool),
        threads: handles,
        process: std::process::id(),
    })
}

/// How often [`run_interruptible`] (and a one-thread batch of queries)
/// looks for a signal to the interpreter.
pub(crate) const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Sets the flag when dropped: however the waiting ends, the work is told
/// to stop (work that has ended already does not look at it).
struct CancelOnDrop<'a>(&'a AtomicBool);

impl Drop for CancelOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs `work` as a task of `pool` with the interpreter lock released, and
/// returns what it returns. The waiting thread takes the lock every
/// [`SIGNAL_POLL`] to run the interpreter's signal handlers (which run on
/// its main thread only: elsewhere this finds nothing): when one raises
/// (Ctrl-C's `KeyboardInterrupt`), the flag `work` is given is set, and
/// once `work` has returned (it should look at the flag and give up), the
/// exception is raised instead of its result.
pub(crate) fn run_interruptible<T: Send>(
    py: Python<'_>,
    pool: &rayon::ThreadPool,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    let cancel = AtomicBool::new(false);
    let (result, signal) = py.detach(|| {
        pool.in_place_scope(|scope| {
            let _stop = CancelOnDrop(&cancel);
            let (done, result) = mpsc::channel();
            let cancel = &cancel;
            scope.spawn(move |_| {
                // The receiver is gone only if this thread stopped waiting
                // (a panic while polling): the result is then unwanted.
                let _ = done.send(work(cancel));
            });
            let mut signal = None;
            loop {
                let received = if signal.is_none() {
                    result.recv_timeout(SIGNAL_POLL)
                } else {
                    result.recv().map_err(RecvTimeoutError::from)
                };
                match received {
                    Ok(out) => return (Some(out), signal),
                    Err(RecvTimeoutError::Timeout) => {
                        let error = match Python::try_attach(|py| py.check_signals()) {
                            Some(Ok(())) => continue,
                            Some(Err(e)) => e,
                            // The interpreter is shutting down: nobody
                            // waits for the result any more.
                            None => PyRuntimeError::new_err("the interpreter is shutting down"),
                        };
                        cancel.store(true, Ordering::Relaxed);
                        signal = Some(error);
                    }
                    // The task panicked: the scope's end passes its panic on.
                    Err(RecvTimeoutError::Disconnected) => return (None, signal),
                }
            }
        })
    });
    match (result, signal) {
        (_, Some(e)) => Err(e),
        (Some(out), None) => Ok(out),
        (None, None) => unreachable!("a task that did not panic sent its result"),
    }
}

/// The threads a batch of `items` can keep busy when no task takes fewer
/// than `per_task` items: `requested` (for `None`, `RAYON_NUM_THREADS` or
/// all logical CPUs, as rayon's default) but at most `⌈items / per_task⌉`,
/// and at least 1. A pool of more would start threads that find no work.
pub(crate) fn batch_threads(requested: Option<usize>, items: usize, per_task: usize) -> usize {
    let most = items.div_ceil(per_task.max(1)).max(1);
    if most == 1 {
        return 1;
    }
    requested.unwrap_or_else(default_threads).clamp(1, most)
}

/// rayon's default thread count: `RAYON_NUM_THREADS` when it is a positive
/// number, else the logical CPUs (counted once: the count reads the
/// process's CPU quota, which costs more than a small batch).
fn default_threads() -> usize {
    static CPUS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|s| s.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| {
            *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        })
}

/// `f` of every item, in order, on [`batch_threads`] threads (no task
/// takes fewer than `per_task` items). One thread runs on the calling
/// thread, without a pool, looking at the clock every `clock_every` items
/// and taking the interpreter lock back every [`SIGNAL_POLL`] to run the
/// signal handlers (so `clock_every` items should take far less than
/// that: 1 for items of unbounded cost); more run on a pool of their own
/// ([`run_interruptible`]), where a signal makes the items not yet begun
/// be skipped. Either way a signal handler's exception (Ctrl-C's
/// `KeyboardInterrupt`) is raised instead of the result.
pub(crate) fn map_interruptible<T: Sync, U: Send>(
    py: Python<'_>,
    items: &[T],
    threads: Option<usize>,
    per_task: usize,
    clock_every: usize,
    f: impl Fn(&T) -> U + Sync,
) -> PyResult<Vec<U>> {
    use rayon::prelude::*;
    let threads = batch_threads(threads, items.len(), per_task);
    if threads == 1 {
        let mut out = Vec::with_capacity(items.len());
        while out.len() < items.len() {
            py.detach(|| {
                let start = std::time::Instant::now();
                for chunk in items[out.len()..].chunks(clock_every.max(1)) {
                    out.extend(chunk.iter().map(&f));
                    if start.elapsed() >= SIGNAL_POLL {
                        break;
                    }
                }
            });
            py.check_signals()?;
        }
        return Ok(out);
    }
    let pool = thread_pool(Some(threads))?;
    let out = run_interruptible(py, &pool, |cancel| {
        items
            .par_iter()
            .with_min_len(per_task)
            .map(|item| (!cancel.load(Ordering::Relaxed)).then(|| f(item)))
            .collect::<Vec<Option<U>>>()
    })?;
    // Not cancelled (or the signal's exception was raised above): every
    // item was mapped.
    Ok(out.into_iter().map(|u| u.expect("mapped")).collect())
}

#[cfg(test)]
mod tests {
    use super::batch_threads;

    #[test]
    fn a_batch_starts_no_more_threads_than_it_has_tasks() {
        assert_eq!(batch_threads(Some(16), 1, 64), 1);
        assert_eq!(batch_threads(Some(16), 64, 64), 1);
        assert_eq!(batch_threads(Some(16), 65, 64), 2);
        assert_eq!(batch_threads(Some(4), 10_000, 64), 4);
        assert_eq!(batch_threads(Some(3), 0, 64), 1);
        assert_eq!(batch_threads(None, 1, 256), 1);
    }
}
