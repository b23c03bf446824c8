//! The `warsim` binary: run, print the error as one line, exit 0 (ok), 2 (bad input) or 1.

use std::process::ExitCode;

use warsim::error::UsageError;
use warsim::sim::signal::Interrupted;

fn main() -> ExitCode {
    match warsim::app::main(std::env::args_os().collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<Interrupted>().is_some() => {
            eprintln!("warsim: {e}");
            ExitCode::from(130)
        }
        Err(e) if e.downcast_ref::<UsageError>().is_some() => {
            eprintln!("warsim: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("warsim: {e:#}");
            ExitCode::from(1)
        }
    }
}
