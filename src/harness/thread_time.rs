//! The timer of the timing reports: the calling thread's CPU time where the
//! platform has that clock, else wall-clock time. On a shared machine
//! wall-clock time also counts other jobs' time slices; thread CPU time does
//! not.

use std::time::Instant;

/// Seconds of CPU time used by the calling thread
/// (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`), or `None` where that clock is
/// unavailable. On a shared machine wall-clock time also counts other jobs'
/// time slices; thread CPU time does not.
#[cfg(unix)]
pub fn thread_cpu_seconds() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the
    // call; clock_gettime writes only into it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

/// Seconds of CPU time used by the calling thread: `None`, no such clock
/// here.
#[cfg(not(unix))]
pub fn thread_cpu_seconds() -> Option<f64> {
    None
}

/// The timer of a report: thread CPU time where available, else wall time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timer {
    /// The calling thread's CPU time ([`thread_cpu_seconds`]).
    ThreadCpu,
    /// Wall-clock time ([`Instant`]).
    Wall,
}

impl Timer {
    /// Thread CPU time where the clock answers, else wall time.
    pub fn pick() -> Timer {
        if thread_cpu_seconds().is_some() {
            Timer::ThreadCpu
        } else {
            Timer::Wall
        }
    }

    /// The timer in words, for a report.
    pub fn describe(self) -> &'static str {
        match self {
            Timer::ThreadCpu => "thread CPU time (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`)",
            Timer::Wall => "wall-clock time (`std::time::Instant`; no thread CPU clock here)",
        }
    }

    /// Seconds `f` took.
    pub fn time(self, f: impl FnOnce()) -> f64 {
        match self {
            Timer::ThreadCpu => {
                let t0 = thread_cpu_seconds().unwrap_or(f64::NAN);
                f();
                thread_cpu_seconds().unwrap_or(f64::NAN) - t0
            }
            Timer::Wall => {
                let t0 = Instant::now();
                f();
                t0.elapsed().as_secs_f64()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_timers_measure_a_busy_loop() {
        for timer in [Timer::pick(), Timer::Wall] {
            let s = timer.time(|| {
                let mut x = 0u64;
                for i in 0..200_000u64 {
                    x = std::hint::black_box(x.wrapping_add(i));
                }
            });
            assert!(s.is_finite() && s >= 0.0, "{timer:?}: {s}");
        }
    }
}
