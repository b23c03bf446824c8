//! Playing many games: the parallel runner and its progress reporting.

pub mod progress;
pub mod runner;
