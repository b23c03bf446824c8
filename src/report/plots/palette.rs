//! The plots' colours: a few distinct series colours (Tableau 10's first eight, told apart by
//! colour-blind readers too) and the greys of text and grids.

/// Series colours, at most eight series per panel.
pub const SERIES: [&str; 8] =
    ["#4e79a7", "#f28e2b", "#e15759", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f"];

pub const INK: &str = "#222222";
pub const MUTED: &str = "#666666";
/// The background of every other row of a table-like plot.
pub const BAND: &str = "#f3f4f8";
/// A line between groups of rows.
pub const RULE: &str = "#c8c8d0";
/// Estimates and intervals of a single-series plot.
pub const ESTIMATE: &str = "#1f4e79";
pub const INTERVAL: &str = "#8fb3d9";
/// What is not compared (unpaired intervals).
pub const GREY: &str = "#9a9a9a";

pub fn series(i: usize) -> &'static str {
    SERIES[i % SERIES.len()]
}
