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
            if STOP.swap(true, Ordering::SeqCst) && HELD.load(Ordering::SeqCst) == 0 {
                std::process::exit(130);
            }
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

/// A test hook: when the environment variable `WARSIM_SIGNAL_AT` equals `moment`, the process sends
/// itself SIGINT here and waits until the handler has seen it, so a test interrupts a command at an
/// exact moment without waiting for time to pass.
pub fn test_signal_at(moment: &str) {
    if std::env::var_os("WARSIM_SIGNAL_AT").is_some_and(|m| m == moment) {
        // SAFETY: raise only sends a signal to this process; the handler is installed.
        unsafe { libc::raise(libc::SIGINT) };
        while !stop_requested() {
            std::thread::yield_now();
        }
    }
}

/// A run stopped by a signal after saving what it had: exit code 130, as shells expect.
#[derive(Debug, thiserror::Error)]
#[error("interrupted: {0}")]
pub struct Interrupted(pub String);
