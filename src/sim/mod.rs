//! Playing many games: the driver (blocks, checkpoints, `--until`, signals), the parallel runner,
//! paired passes, progress, sharding, and merging the states of shards. Nothing here builds a
//! report; files are written through `crate::io`.

pub mod balance;
pub mod checkpoint;
pub mod driver;
pub mod hooks;
pub mod merge;
pub mod paired;
pub mod progress;
pub mod runner;
pub mod shard;
pub mod signal;
pub mod tune;
pub mod tune_file;
pub mod until;
