//! Playing many games: the parallel runner and its progress reporting.

pub mod paired;
pub mod progress;
pub mod runner;
