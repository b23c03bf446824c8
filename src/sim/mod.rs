//! Playing many games: the parallel runner and its progress reporting, sharding, precision
//! targets, checkpoints, graceful stops, and merging the states of shards.

pub mod checkpoint;
pub mod merge;
pub mod paired;
pub mod progress;
pub mod runner;
pub mod shard;
pub mod signal;
pub mod until;
