//! What a tune leaves behind: `tune.csv` (every candidate), `plots/tune.svg` (the metric against
//! the setting, the goal band and each candidate's interval), `report.html` (the answer first) and
//! the answer sentence on the terminal. Formats only: the command layer fills `TuneResult`.

use std::io::Write;
use std::path::Path;

use super::format::{grouped, real};
use super::html::esc;
use super::plots::forest::{self, Mark, Panel, Rows};
use super::plots::palette::{INK, MUTED};

/// The goal band behind the intervals: pale green.
const GOAL_BAND: &str = "#cfe6cf";
use crate::stats::Interval;

/// One candidate of a finished (or stopped) race.
pub struct CandidateRow {
    /// The varied settings' values, in `TuneResult::keys` order.
    pub values: Vec<String>,
    pub games: u64,
    pub interval: Interval,
    /// Paired difference to the best (candidate minus best), with its interval; None for the best.
    pub to_best: Option<Interval>,
    /// "best", "live" or "dropped".
    pub status: &'static str,
    /// Games per candidate at the look that dropped it.
    pub dropped_at: Option<u64>,
    pub why: String,
}

/// A finished tune, as the files show it.
pub struct TuneResult {
    pub keys: Vec<String>,
    pub metric: String,
    /// `first player wins, of decided games`-style words for the metric.
    pub metric_words: String,
    pub share: bool,
    /// The goal as written (`first_player_win_share=0.5`).
    pub goal: String,
    /// The goal's value and the band around it (`--within`) for the plot.
    pub goal_value: Option<f64>,
    pub within: Option<f64>,
    pub stop: &'static str,
    /// The one-sentence answer.
    pub answer: String,
    pub method: String,
    pub candidates: Vec<CandidateRow>,
    pub games_played: u64,
}

/// `x` as written in a sentence: percent with one decimal for shares, else four significant figures.
pub fn value(x: f64, share: bool) -> String {
    if share {
        return format!("{:.1}%", 100.0 * x);
    }
    let places =
        if x == 0.0 || !x.is_finite() { 0 } else { (3 - x.abs().log10().floor() as i32).clamp(0, 6) };
    format!("{:.*}", places as usize, x)
}

/// `estimate [low, high]` in a sentence.
pub fn with_interval(i: &Interval, share: bool) -> String {
    if share {
        format!("{:.1}% [{:.1}, {:.1}]", 100.0 * i.estimate, 100.0 * i.low, 100.0 * i.high)
    } else {
        format!("{} [{}, {}]", value(i.estimate, false), value(i.low, false), value(i.high, false))
    }
}

pub fn write_csv(res: &TuneResult, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out);
    let mut header: Vec<String> = vec!["candidate".into()];
    header.extend(res.keys.iter().cloned());
    header.extend(
        [
            "games",
            "metric",
            "estimate",
            "low",
            "high",
            "interval_method",
            "diff_to_best",
            "diff_to_best_low",
            "diff_to_best_high",
            "status",
            "dropped_at_games",
            "why",
        ]
        .map(String::from),
    );
    w.write_record(&header)?;
    for (k, c) in res.candidates.iter().enumerate() {
        let mut row = vec![(k + 1).to_string()];
        row.extend(c.values.iter().cloned());
        row.extend([
            c.games.to_string(),
            res.metric.clone(),
            real(c.interval.estimate),
            real(c.interval.low),
        ]);
        row.extend([real(c.interval.high), res.method.clone()]);
        match &c.to_best {
            Some(d) => row.extend([real(d.estimate), real(d.low), real(d.high)]),
            None => row.extend([String::new(), String::new(), String::new()]),
        }
        row.extend([
            c.status.to_string(),
            c.dropped_at.map(|g| g.to_string()).unwrap_or_default(),
            c.why.clone(),
        ]);
        w.write_record(&row)?;
    }
    w.flush()?;
    Ok(())
}

/// The metric against the setting: each candidate's interval, the goal band behind them.
pub fn plot(res: &TuneResult) -> String {
    let rows = Rows {
        headers: res.keys.clone(),
        cells: res.candidates.iter().map(|c| c.values.clone()).collect(),
        group_cells: 1,
    };
    let marks = res
        .candidates
        .iter()
        .map(|c| {
            let mut m = Vec::new();
            if let Some(g) = res.goal_value {
                let tol = res.within.unwrap_or(0.0);
                m.push(Mark {
                    estimate: g,
                    low: g - tol,
                    high: g + tol,
                    colour: MUTED,
                    bar: GOAL_BAND,
                    thick: 14.0,
                    offset: 0.0,
                });
            }
            let colour = if c.status == "dropped" { MUTED } else { INK };
            let i = c.interval;
            m.push(Mark {
                estimate: i.estimate,
                low: i.low,
                high: i.high,
                colour,
                bar: colour,
                thick: 3.0,
                offset: 0.0,
            });
            m
        })
        .collect();
    let values = res
        .candidates
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                with_interval(&c.interval, res.share),
                if c.status == "dropped" { "dropped" } else { c.status }
            )
        })
        .collect();
    let panel = Panel {
        title: res.metric_words.clone(),
        marks,
        values,
        percent: res.share,
        zero: false,
        reference: None,
    };
    let notes = vec![
        format!(
            "goal {}: the pale band (goal ± --within); bars: 95% intervals valid at every look, all candidates at once",
            res.goal
        ),
        res.answer.clone(),
    ];
    forest::forest_wide("tune: the metric against the setting", &notes, &rows, &[panel], 420.0)
}

/// `report.html`: the answer first, then the plot and the table.
pub fn page(res: &TuneResult, svg: &str) -> String {
    let mut h = String::from(
        "<!doctype html><meta charset=utf-8><title>warsim tune</title><style>body{font:15px system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}table{border-collapse:collapse}td,th{padding:3px 8px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}th{text-align:left}.answer{font-size:1.25em;margin:1em 0}</style>\n",
    );
    h.push_str(&format!(
        "<h1>tune: {}</h1>\n<p class=answer><b>{}</b></p>\n",
        esc(&res.goal),
        esc(&res.answer)
    ));
    h.push_str(&format!(
        "<p>Stop: {} after {} games in all. Intervals: {} (95% for every candidate, pair and look at once).</p>\n",
        esc(res.stop),
        grouped(res.games_played as i128),
        esc(&res.method)
    ));
    h.push_str(svg);
    h.push_str("\n<table><tr><th>#</th>");
    for k in &res.keys {
        h.push_str(&format!("<th>{}</th>", esc(k)));
    }
    h.push_str(
        "<th>games</th><th>metric [95%]</th><th>minus best [95%]</th><th>status</th><th>why</th></tr>\n",
    );
    for (k, c) in res.candidates.iter().enumerate() {
        h.push_str(&format!("<tr><td>{}</td>", k + 1));
        for v in &c.values {
            h.push_str(&format!("<td>{}</td>", esc(v)));
        }
        let d = c.to_best.as_ref().map_or(String::new(), |d| with_interval(d, res.share));
        h.push_str(&format!(
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td style=text-align:left>{}</td></tr>\n",
            grouped(c.games as i128),
            with_interval(&c.interval, res.share),
            esc(&d),
            c.status,
            esc(&c.why)
        ));
    }
    h.push_str("</table>\n");
    h
}

/// Writes `tune.csv`, `plots/tune.svg` and `report.html` into `out`.
pub fn write_all(out: &Path, res: &TuneResult) -> anyhow::Result<()> {
    super::write_atomic(&out.join("tune.csv"), |w| write_csv(res, w))?;
    let svg = plot(res);
    std::fs::create_dir_all(out.join("plots"))?;
    super::write_atomic(&out.join("plots").join("tune.svg"), |w| Ok(w.write_all(svg.as_bytes())?))?;
    let html = page(res, &svg);
    super::write_atomic(&out.join("report.html"), |w| Ok(w.write_all(html.as_bytes())?)).map(drop)
}
