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
            if STOP.swap(true, Ordering::SeqCst) && HELD.load(Ordering::SeqCst) == 0 {
                std::process::exit(130);
            }
            let _held = WAKE.0.lock().unwrap_or_else(|e| e.into_inner());
            WAKE.1.notify_all();
        });
    });
}

/// How many `Hold`s are alive: while any is, a second signal does not exit at once.
static HELD: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// While alive, a second Ctrl-C waits (only sets the flag): moving finished files into an output
/// folder is short and must not be cut in the middle.
pub struct Hold(());

pub fn hold() -> Hold {
    HELD.fetch_add(1, Ordering::SeqCst);
    Hold(())
}

impl Drop for Hold {
    fn drop(&mut self) {
        HELD.fetch_sub(1, Ordering::SeqCst);
    }
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
