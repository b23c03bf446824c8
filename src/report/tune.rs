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
    /// Games it played (0: never played, then it has no interval and its status is `not played`).
    pub games: u64,
    /// Its metric's interval; None when it was never played.
    pub interval: Option<Interval>,
    /// Paired difference to the best (candidate minus best), with its interval; None for the best.
    pub to_best: Option<Interval>,
    /// "best", "live", "dropped" or "not played".
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
    /// The goal and the tolerance in the goal's own units (`50.0%`, `±1 point`).
    pub goal_words: String,
    pub within_words: Option<String>,
    /// Why the search stopped, in words.
    pub stop: String,
    /// The one-sentence answer.
    pub answer: String,
    pub method: String,
    pub candidates: Vec<CandidateRow>,
    pub games_played: u64,
}

/// `x` as written in a sentence: percent with one decimal for shares, else four significant figures
/// (in scientific notation from a billion up, so no number runs to hundreds of digits).
pub fn value(x: f64, share: bool) -> String {
    if !x.is_finite() {
        return "not known".into();
    }
    if share {
        return format!("{:.1}%", 100.0 * x);
    }
    if x.abs() >= 1e9 {
        return format!("{x:.3e}");
    }
    let places = if x == 0.0 { 0 } else { (3 - x.abs().log10().floor() as i32).clamp(0, 6) };
    format!("{:.*}", places as usize, x)
}

/// A tolerance in the goal's units: percentage points for a share (`±1 point`, `±0.5 points`),
/// else the metric's own (`±2.5`).
pub fn tolerance(tol: f64, share: bool) -> String {
    if !share {
        return format!("±{}", value(tol, false));
    }
    let points = 100.0 * tol;
    let shown = format!("{points:.2}");
    let shown = shown.trim_end_matches('0').trim_end_matches('.');
    format!("±{shown} point{}", if shown == "1" { "" } else { "s" })
}

/// Whether an interval has bounds to show (fewer than two observations give none).
pub fn has_bounds(i: &Interval) -> bool {
    i.low.is_finite() && i.high.is_finite()
}

/// `estimate [low, high]` in a sentence; `estimate (too few games for an interval)` without bounds.
pub fn with_interval(i: &Interval, share: bool) -> String {
    if !i.estimate.is_finite() {
        return "not measured yet (no game counted)".into();
    }
    if !has_bounds(i) {
        return format!("{} (too few games for an interval)", value(i.estimate, share));
    }
    if share {
        crate::report::format::rate_claimed(i)
    } else {
        format!("{} [{}, {}]", value(i.estimate, false), value(i.low, false), value(i.high, false))
    }
}

/// A candidate's interval in a sentence, or `not played`.
pub fn measured(i: Option<&Interval>, share: bool) -> String {
    i.map_or_else(|| "not played".into(), |i| with_interval(i, share))
}

/// What setting `key` to `value` does, as an instruction to the designer, from the setting's help
/// text where it says so (`extra starting life for the second player`: `give the second player 4
/// extra starting life`), else `set KEY to VALUE`.
pub fn action(key: &str, value: &str, help: Option<&str>) -> String {
    if key == "variant" {
        return format!("play the {value} variant");
    }
    let plain = || format!("set {key} to {value}");
    let Some(help) = help else { return plain() };
    // `balance: ...` or `balance (the hand size): ...`, up to the first ';'.
    let help = help.split_once(": ").filter(|(h, _)| h.starts_with("balance")).map_or(help, |(_, r)| r);
    let help = help.split(';').next().unwrap_or(help).trim();
    let Some(what) = help.strip_prefix("extra ") else { return plain() };
    // One of a plural thing is said in the singular (`1 extra card`, not `1 extra cards`).
    let one = value == "1";
    let value = if value == "0" { "no" } else { value };
    let singular = |x: &str| -> String {
        match x.split_once(' ') {
            Some((noun, rest)) if one && noun.ends_with('s') => format!("{} {rest}", &noun[..noun.len() - 1]),
            None if one && x.ends_with('s') => x[..x.len() - 1].to_string(),
            _ => x.to_string(),
        }
    };
    // `extra X for the Y`: give the Y V extra X.
    if let Some((x, y)) = what.split_once(" for ")
        && y.starts_with("the ")
    {
        return format!("give {y} {value} extra {}", singular(x));
    }
    // `extra X in the Y's Z`: give the Y V extra X in its Z.
    if let Some((x, rest)) = what.split_once(" in the ")
        && let Some((y, z)) = rest.split_once("'s ")
    {
        return format!("give the {y} {value} extra {} in its {z}", singular(x));
    }
    // `extra X the Y draws on its Z`: let the Y draw V extra X on its Z.
    if let Some((x, rest)) = what.split_once(" the ")
        && let Some((y, z)) = rest.split_once(" draws ")
    {
        return format!("let the {y} draw {value} extra {} {z}", singular(x));
    }
    plain()
}

/// The metric as the subject of an answer, with `then` in place: `the first player then wins`,
/// `the mean length is then`.
pub fn metric_then(metric: &str) -> String {
    let phrase = metric_phrase(metric);
    let event = metric.split(' ').next().unwrap_or(metric);
    let decided = event == "first_player_win_share" || event.ends_with("_share_of_decided");
    match phrase.rsplit_once(' ') {
        // An event names its verb last (`the first player wins`).
        Some((subject, verb)) if decided && !phrase.contains('(') => format!("{subject} then {verb}"),
        _ => format!("{phrase} is then"),
    }
}

/// The metric as the thing a goal is about: `the share of decided games the first player wins`,
/// `the win rate (seat=0), of all games`, `the mean length`.
pub fn metric_subject(metric: &str, of_decided: bool, share: bool) -> String {
    let phrase = metric_phrase(metric);
    if of_decided {
        format!("the share of decided games {phrase}")
    } else if share {
        format!("{phrase}, of all games")
    } else {
        phrase
    }
}

/// A metric's name in words for a sentence: `first_player_win_share` (a share of decided games):
/// `the first player wins`; `length_mean`: `the mean length`; `capped_rate`: `the capped rate`.
pub fn metric_phrase(metric: &str) -> String {
    let (name, qualifiers) = metric.split_once(' ').unwrap_or((metric, ""));
    let name = if name == "first_player_win_share" { "first_player_wins_share_of_decided" } else { name };
    let words = |s: &str| s.replace('_', " ");
    let q = if qualifiers.is_empty() { String::new() } else { format!(" ({qualifiers})") };
    if let Some(event) = name.strip_suffix("_share_of_decided") {
        let e = words(event);
        let the = if e.starts_with("first ") || e.starts_with("second ") { "the " } else { "" };
        return format!("{the}{e}{q}");
    }
    if let Some(what) = name.strip_suffix("_mean") {
        return format!("the mean {}{q}", words(what));
    }
    format!("the {}{q}", words(name))
}

/// `tune.csv`: one row per candidate. A candidate never played has no games, no interval and the
/// status `not played`; text from outside (setting values) is escaped (`untrusted`).
pub fn write_csv(res: &TuneResult, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut escaping = crate::untrusted::Escaping::new(out);
    write_rows(res, &mut escaping)?;
    Ok(escaping.flush()?)
}

fn write_rows(res: &TuneResult, out: &mut dyn Write) -> anyhow::Result<()> {
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
        let finite = |x: f64| if x.is_finite() { real(x) } else { String::new() };
        let games = if c.games > 0 { c.games.to_string() } else { String::new() };
        row.extend([games, res.metric.clone()]);
        match &c.interval {
            Some(i) => row.extend([finite(i.estimate), finite(i.low), finite(i.high), res.method.clone()]),
            None => row.extend([String::new(), String::new(), String::new(), String::new()]),
        }
        match &c.to_best {
            Some(d) if has_bounds(d) => row.extend([real(d.estimate), real(d.low), real(d.high)]),
            _ => row.extend([String::new(), String::new(), String::new()]),
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
            // A candidate never played (or without bounds yet) has no bar.
            let Some(i) = c.interval.filter(has_bounds) else { return m };
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
        .map(|c| match &c.interval {
            Some(i) => format!("{} {}", with_interval(i, res.share), c.status),
            None => c.status.to_string(),
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
    let band = match &res.within_words {
        Some(t) => format!("the pale band: the goal {} {t}", res.goal_words),
        None => format!("the pale line: the goal {}", res.goal_words),
    };
    let notes = vec![
        format!("{band}; bars: 95% intervals valid at every look, all settings at once"),
        res.answer.clone(),
    ];
    forest::forest_wide("tune: the metric against the setting", &notes, &rows, &[panel], 420.0)
}

/// The interval method in words for the page (`tune.csv` keeps the token): the token
/// `confidence_sequence_normal_mixture_bonferroni_N` reads as what it is.
fn method_words(method: &str) -> String {
    match method.strip_prefix("confidence_sequence_normal_mixture_bonferroni_") {
        Some(n) => format!(
            "confidence sequences (normal mixture, valid at every look), with the 5% error split over {n} of them"
        ),
        None => method.replace('_', " "),
    }
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
    let within = res.within_words.as_ref().map_or(String::new(), |t| format!(" {t}"));
    h.push_str(&format!(
        "<p>Goal: {}: {}{within}. The search stopped because {}, after {} games in all. Intervals: {} (95% for every setting, pair and look at once).</p>\n",
        esc(&res.metric_words),
        esc(&res.goal_words),
        esc(&res.stop),
        grouped(res.games_played as i128),
        esc(&method_words(&res.method))
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
        let d =
            c.to_best.as_ref().filter(|d| has_bounds(d)).map_or(String::new(), |d| difference(d, res.share));
        let games = if c.games > 0 { grouped(c.games as i128) } else { String::new() };
        h.push_str(&format!(
            "<td>{games}</td><td>{}</td><td>{}</td><td>{}</td><td style=text-align:left>{}</td></tr>\n",
            esc(&measured(c.interval.as_ref(), res.share)),
            esc(&d),
            c.status,
            esc(&c.why)
        ));
    }
    h.push_str("</table>\n");
    h
}

/// A paired difference in a table cell: in points for a share (`-1.2 [-2.0, -0.4] points`).
fn difference(d: &Interval, share: bool) -> String {
    if share {
        format!("{:+.1} [{:+.1}, {:+.1}] points", 100.0 * d.estimate, 100.0 * d.low, 100.0 * d.high)
    } else {
        with_interval(d, false)
    }
}

/// Whether a folder's manifest is a tune's (it lists `tune.csv` or the tune's plot).
pub fn is_tune_manifest(m: &super::Manifest) -> bool {
    m.written.iter().any(|w| w.file == CSV) || m.outputs.iter().any(|o| o == PLOT)
}

/// The name of the file of the candidates.
pub const CSV: &str = "tune.csv";
/// The plot's path in the output folder.
pub const PLOT: &str = "plots/tune.svg";
/// The page.
pub const PAGE: &str = "report.html";

/// Writes `tune.csv`, `plots/tune.svg` and `report.html` into `out` (a staging folder) and returns
/// them as written, for the manifest.
pub fn write_all(out: &Path, res: &TuneResult) -> anyhow::Result<Vec<super::WrittenFile>> {
    let csv = super::write_atomic(&out.join(CSV), |w| write_csv(res, w))?;
    let svg = plot(res);
    std::fs::create_dir_all(out.join("plots"))?;
    let plot = super::write_atomic(&out.join(PLOT), |w| Ok(w.write_all(svg.as_bytes())?))?;
    let html = page(res, &svg);
    let page = super::write_atomic(&out.join(PAGE), |w| Ok(w.write_all(html.as_bytes())?))?;
    Ok(vec![
        super::WrittenFile::new(CSV, csv),
        super::WrittenFile::new(PLOT, plot),
        super::WrittenFile::new(PAGE, page),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_come_from_the_settings_help() {
        let help =
            |k| crate::games::find("cardwars").unwrap().settings.iter().find(|s| s.key == k).map(|s| s.help);
        assert_eq!(
            action("second_extra_life", "4", help("second_extra_life")),
            "give the second player 4 extra starting life"
        );
        assert_eq!(
            action("second_extra_cards", "2", help("second_extra_cards")),
            "give the second player 2 extra cards in its opening hand"
        );
        assert_eq!(
            action("second_extra_draws", "1", help("second_extra_draws")),
            "let the second player draw 1 extra card on its first turn"
        );
        assert_eq!(
            action("second_extra_cards", "1", help("second_extra_cards")),
            "give the second player 1 extra card in its opening hand"
        );
        assert_eq!(
            action("second_extra_life", "1", help("second_extra_life")),
            "give the second player 1 extra starting life"
        );
        assert_eq!(action("war_down", "3", Some("face-down cards per war step")), "set war_down to 3");
        assert_eq!(action("variant", "peace", None), "play the peace variant");
    }

    #[test]
    fn control_characters_in_values_are_escaped_and_unplayed_rows_are_empty() {
        let row = |value: &str, interval: Option<Interval>, status| CandidateRow {
            values: vec![value.into()],
            games: if interval.is_some() { 24 } else { 0 },
            interval,
            to_best: None,
            status,
            dropped_at: None,
            why: format!("beside {value}"),
        };
        let i =
            Interval { estimate: 0.5, low: 0.4, high: 0.6, method: crate::stats::Method::Sequence, units: 2 };
        let res = TuneResult {
            keys: vec!["policies".into()],
            metric: "win_rate".into(),
            metric_words: "the win rate, of all games".into(),
            share: true,
            goal: "win_rate=0.5".into(),
            goal_value: Some(0.5),
            within: None,
            goal_words: "50.0%".into(),
            within_words: None,
            stop: "one setting was left".into(),
            answer: "set policies to a\u{1b}[31m".into(),
            method: "m".into(),
            candidates: vec![row("a\u{1b}[31m", Some(i), "best"), row("b", None, "not played")],
            games_played: 24,
        };
        let mut out = Vec::new();
        write_csv(&res, &mut out).unwrap();
        let csv = String::from_utf8(out).unwrap();
        assert!(!csv.contains('\u{1b}') && csv.contains("a\\u{1b}[31m"), "{csv}");
        assert!(csv.contains("\n2,b,,win_rate,,,,,,,,not played,,beside b\n"), "{csv}");
        let svg = plot(&res);
        let html = page(&res, &svg);
        assert!(!svg.contains('\u{1b}') && !html.contains('\u{1b}'));
        assert!(html.contains("not played") && !html.contains("NaN"), "{html}");
    }

    #[test]
    fn numbers_and_tolerances_read_in_the_goals_units() {
        assert_eq!(value(1e308, false), "1.000e308");
        assert_eq!(value(f64::NAN, false), "not known");
        assert_eq!(tolerance(0.01, true), "±1 point");
        assert_eq!(tolerance(0.005, true), "±0.5 points");
        assert_eq!(tolerance(2.5, false), "±2.500");
        let i = Interval {
            estimate: 0.5,
            low: f64::NAN,
            high: f64::NAN,
            method: crate::stats::Method::Sequence,
            units: 1,
        };
        assert_eq!(with_interval(&i, true), "50.0% (too few games for an interval)");
        assert_eq!(measured(None, true), "not played");
        assert_eq!(metric_phrase("first_player_win_share"), "the first player wins");
        assert_eq!(metric_phrase("length_mean"), "the mean length");
        assert_eq!(metric_phrase("win_rate seat=0"), "the win rate (seat=0)");
        assert_eq!(metric_then("first_player_win_share"), "the first player then wins");
        assert_eq!(metric_then("length_mean"), "the mean length is then");
    }

    #[test]
    fn the_page_names_the_interval_method_in_words() {
        let words = method_words("confidence_sequence_normal_mixture_bonferroni_91");
        assert!(words.starts_with("confidence sequences (normal mixture"), "{words}");
        assert!(words.contains("split over 91 of them") && !words.contains('_'), "{words}");
        assert_eq!(method_words("wilson"), "wilson");
    }
}
