//! Stage timing: wall-clock milliseconds.

use std::time::Instant;

/// The start of a timed stage.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Clock(Instant);

impl Clock {
    /// Starts timing now.
    pub(crate) fn start() -> Clock {
        Clock(Instant::now())
    }

    /// Milliseconds since the start.
    pub(crate) fn ms(&self) -> f64 {
        self.0.elapsed().as_secs_f64() * 1e3
    }
}

/// A reading in milliseconds, for adding up the time a task spends in one
/// part of its work (differences of readings on one thread).
pub(crate) fn busy_ms() -> f64 {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}
