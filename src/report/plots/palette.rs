//! The plots' colours: a few distinct series colours (Tableau 10's first eight, told apart by
//! colour-blind readers too), the greys of text and grids, and the diverging scale of win rates.

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
/// What is not compared (unpaired intervals, pairings never played).
pub const GREY: &str = "#9a9a9a";
pub const EMPTY: &str = "#eeeeee";

pub fn series(i: usize) -> &'static str {
    SERIES[i % SERIES.len()]
}

/// The colour of a win rate `t` in [0, 1]: red at 0, white at one half, blue at 1.
pub fn diverging(t: f64) -> String {
    let t = if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.5 };
    let (lo, mid, hi) = ((202.0, 0.0, 32.0), (247.0, 247.0, 247.0), (5.0, 113.0, 176.0));
    let mix = |a: f64, b: f64, u: f64| (a + (b - a) * u).round() as u8;
    let (r, g, b) = if t < 0.5 {
        let u = t * 2.0;
        (mix(lo.0, mid.0, u), mix(lo.1, mid.1, u), mix(lo.2, mid.2, u))
    } else {
        let u = (t - 0.5) * 2.0;
        (mix(mid.0, hi.0, u), mix(mid.1, hi.1, u), mix(mid.2, hi.2, u))
    };
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// White or black text, whichever reads on a cell of `diverging(t)`.
pub fn text_on(t: f64) -> &'static str {
    if (t - 0.5).abs() > 0.3 { "#ffffff" } else { INK }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_runs_red_white_blue() {
        assert_eq!(diverging(0.0), "#ca0020");
        assert_eq!(diverging(0.5), "#f7f7f7");
        assert_eq!(diverging(1.0), "#0571b0");
        assert_eq!(text_on(0.5), INK);
        assert_eq!(text_on(0.95), "#ffffff");
    }
}
