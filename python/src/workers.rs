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
