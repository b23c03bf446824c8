//! Hidden hooks for warsim's own end-to-end tests, read from the environment: they make a moment a
//! test needs (a checkpoint, a run stopped mid-way by a signal) happen at a fixed game count
//! instead of after some seconds, so no test depends on how fast or loaded the machine is.
//!
//! - `WARSIM_TEST_CHECKPOINT_EVERY=N`: blocks of exactly N games, the state saved after each
//!   (instead of blocks sized to `driver::BLOCK_SECONDS`).
//! - `WARSIM_TEST_PAUSE=checkpoint`: after the first checkpoint that leaves games to play, print
//!   `warsim: test pause at checkpoint` on stderr and wait for a signal (Ctrl-C, SIGTERM, SIGKILL).
//! - `WARSIM_TEST_PAUSE=comparison`: the same, after the first chunk of the paired comparison pass.
//! - `WARSIM_TEST_SIGNAL_AT=merge-staged|run-final|tune-look|balance-step`: the process sends itself SIGINT once a merge
//!   has staged its files, or once a run has staged its final files, before they are moved in;
//!   `tune-look`: once a tune has saved its state after a look (it stops at the next look);
//!   `balance-step`: once a balance has saved its state after a measure or a race.
//!
//! A test reads the run's stderr until the pause line, so it signals a run that provably has
//! checkpointed and has not finished. Results never depend on the hooks: block sizes never change
//! what is computed. Users have no reason to set them; they are documented in docs/design.md.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::UsageError;

pub const CHECKPOINT_EVERY: &str = "WARSIM_TEST_CHECKPOINT_EVERY";
pub const PAUSE: &str = "WARSIM_TEST_PAUSE";
pub const SIGNAL_AT: &str = "WARSIM_TEST_SIGNAL_AT";

/// When `WARSIM_TEST_SIGNAL_AT` names `moment`, sends this process SIGINT and returns once the
/// handler has raised the stop flag: the signal arrives at exactly this point of the command.
pub fn signal_at(moment: &str) {
    if std::env::var_os(SIGNAL_AT).is_some_and(|m| m == moment) {
        // SAFETY: raise only sends a signal to this process, whose handler is installed.
        unsafe { libc::raise(libc::SIGINT) };
        while !crate::sim::signal::stop_requested() {
            std::thread::yield_now();
        }
    }
}

/// Where a run may pause for a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// The driver has saved the state and games remain.
    Checkpoint,
    /// The paired comparison pass has played a chunk.
    Comparison,
}

impl Moment {
    fn name(self) -> &'static str {
        match self {
            Moment::Checkpoint => "checkpoint",
            Moment::Comparison => "comparison",
        }
    }
}

/// The hooks the environment asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hooks {
    pub checkpoint_every: Option<u64>,
    pub pause: Option<Moment>,
}

impl Hooks {
    /// Parses the two variables' values (`None`: unset).
    pub fn parse(every: Option<&str>, pause: Option<&str>) -> Result<Hooks, UsageError> {
        let checkpoint_every = match every {
            None => None,
            Some(v) => match v.parse::<u64>() {
                Ok(n) if n > 0 => Some(n),
                _ => {
                    return Err(UsageError(format!(
                        "{CHECKPOINT_EVERY}={v}: a whole number of games from 1 (a hook for warsim's tests)"
                    )));
                }
            },
        };
        let pause = match pause {
            None => None,
            Some("checkpoint") => Some(Moment::Checkpoint),
            Some("comparison") => Some(Moment::Comparison),
            Some(v) => {
                return Err(UsageError(format!(
                    "{PAUSE}={v}: checkpoint or comparison (a hook for warsim's tests)"
                )));
            }
        };
        Ok(Hooks { checkpoint_every, pause })
    }

    /// The hooks of this process's environment (read once).
    pub fn get() -> Result<Hooks, UsageError> {
        static HOOKS: OnceLock<Result<Hooks, String>> = OnceLock::new();
        HOOKS
            .get_or_init(|| {
                let var = |k: &str| std::env::var(k).ok();
                Hooks::parse(var(CHECKPOINT_EVERY).as_deref(), var(PAUSE).as_deref()).map_err(|e| e.0)
            })
            .clone()
            .map_err(UsageError)
    }
}

/// Pauses the run at `moment` if the environment asks for it, the first time only: says so on
/// stderr and waits until a signal asks the run to stop.
pub fn pause_at(moment: Moment) {
    static PAUSED: AtomicBool = AtomicBool::new(false);
    if Hooks::get().ok().and_then(|h| h.pause) != Some(moment) || PAUSED.swap(true, Ordering::SeqCst) {
        return;
    }
    eprintln!("warsim: test pause at {}", moment.name());
    crate::sim::signal::wait_for_stop();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse_and_bad_ones_are_named() {
        assert_eq!(Hooks::parse(None, None).unwrap(), Hooks::default());
        let h = Hooks::parse(Some("250"), Some("comparison")).unwrap();
        assert_eq!((h.checkpoint_every, h.pause), (Some(250), Some(Moment::Comparison)));
        assert!(Hooks::parse(Some("0"), None).unwrap_err().0.contains("WARSIM_TEST_CHECKPOINT_EVERY=0"));
        assert!(Hooks::parse(None, Some("later")).unwrap_err().0.contains("checkpoint or comparison"));
    }
}
