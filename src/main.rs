//! The `warsim` binary: run, print the error as one line, exit 0 (ok), 2 (bad input) or 1.

use std::io::Write;
use std::process::ExitCode;

use warsim::error::UsageError;
use warsim::sim::signal::Interrupted;

fn main() -> ExitCode {
    let (code, line) = match warsim::app::main(std::env::args_os().collect()) {
        Ok(()) => return ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<Interrupted>().is_some() => (130, e.to_string()),
        Err(e) if e.downcast_ref::<UsageError>().is_some() => (2, e.to_string()),
        Err(e) => (1, format!("{e:#}")),
    };
    // One line, control characters of outside text escaped. A stderr that cannot be written (a
    // full disk) loses the message but not the exit code: never a panic.
    let _ = writeln!(std::io::stderr(), "warsim: {}", warsim::untrusted::one_line(&line));
    ExitCode::from(code)
}
