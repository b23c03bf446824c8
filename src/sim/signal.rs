//! Ctrl-C and SIGTERM: ask the run to stop between chunks instead of killing it, so finished
//! games are saved and the run can be resumed. A second signal exits at once (exit code 130) for a
//! user who does not want to wait for the current chunk.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};

static STOP: AtomicBool = AtomicBool::new(false);
/// Wakes `wait_for_stop` when the flag is raised (the lock orders the raise before the wake-up).
static WAKE: (Mutex<()>, Condvar) = (Mutex::new(()), Condvar::new());

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
            let _held = WAKE.0.lock().unwrap_or_else(|e| e.into_inner());
            WAKE.1.notify_all();
        });
    });
}

/// Blocks until a signal asks the run to stop (for `hooks::pause_at`; without an installed handler
/// it waits until the process is killed).
pub fn wait_for_stop() {
    let mut held = WAKE.0.lock().unwrap_or_else(|e| e.into_inner());
    while !stop_requested() {
        held = WAKE.1.wait(held).unwrap_or_else(|e| e.into_inner());
    }
}

/// A run stopped by a signal after saving what it had: exit code 130, as shells expect.
#[derive(Debug, thiserror::Error)]
#[error("interrupted: {0}")]
pub struct Interrupted(pub String);
