//! Mergeable, exact statistics: small pure modules, each citing where its formula comes from.
//!
//! Everything here is integer until a figure is printed, so totals are exact and identical whatever
//! the order in which partial results are merged (threads, chunks, shards).

pub mod accumulator;
pub mod betting;
pub mod bisect;
pub mod contrast;
#[cfg(test)]
mod coverage;
pub mod examples;
pub mod group;
pub mod histogram;
pub mod interval;
pub mod metric;
pub mod paired;
pub mod peers;
pub mod race;
pub mod ratings;
pub mod sequence;
pub mod timings;
pub mod tracked;

pub use accumulator::Accumulator;
pub use examples::Examples;
pub use group::{GroupSums, Merge, Moments};
pub use histogram::Histogram;
pub use interval::{Interval, Method, mean_interval, wilson};
pub use metric::{Metric, Quantity};
pub use paired::PairedSums;
pub use timings::Timings;
