//! Ctrl-C and SIGTERM: ask the run to stop between chunks instead of killing it, so finished
//! games are saved and the run can be resumed. A second signal exits at once (exit code 130) for a
//! user who does not want to wait for the current chunk.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// The flag the runner checks before each chunk.
pub fn stop_flag() -> &'static AtomicBool {
    &STOP
}

pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Installs the handler (once per process; later calls do nothing).
pub fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // If a handler cannot be installed (e.g. one exists already), signals keep their default
        // action: the run still works, only without the graceful stop.
        let _ = ctrlc::set_handler(|| {
            if STOP.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    });
}

/// A run stopped by a signal after saving what it had: exit code 130, as shells expect.
#[derive(Debug, thiserror::Error)]
#[error("interrupted: {0}")]
pub struct Interrupted(pub String);
