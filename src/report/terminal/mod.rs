//! The summary printed on stdout at the end of a run: one line per scenario point with the headline
//! numbers and their 95% intervals, and one line per headline comparison with a baseline.
//!
//! The words every point shares are printed once, above the table; each setting that varies between
//! points has its own column, so every row can be told apart. The tables fit the terminal's width
//! (`COLUMNS`, else the terminal's size, else 100 columns): when they would not, long setting names
//! break at a `_`, the p99 and p50 columns go, then the widest setting values wrap onto a second line.

use super::RunResult;
use super::compare::Comparison;
use super::csv_files::{kind_count, outcome_kinds};
use super::format::{RateScale, count, fixed, grouped, rate_cells};
use super::labels::{Sweep, baseline_words};
use crate::record::OutcomeKind;
use crate::stats::Interval;
use crate::stats::tracked::Key;

mod table;

pub use table::wrap;
use table::{Column, Table, interval_columns};

/// The width the tables fit in when neither `COLUMNS` nor a terminal says otherwise.
pub const DEFAULT_WIDTH: usize = 100;
/// Narrower than this, a table is printed at this width and may wrap.
const MIN_WIDTH: usize = 40;

/// `text` broken at spaces to the terminal's width, line by line (never inside a word).
pub fn wrapped(text: &str) -> String {
    let w = width();
    text.lines().map(|l| table::wrap(l, w)).map(|l| l.trim_end_matches('\n').to_string() + "\n").collect()
}

/// The width to fit: `COLUMNS` if set, else the size of the terminal on stdout, else 100.
pub fn width() -> usize {
    let columns = std::env::var("COLUMNS").ok().and_then(|s| s.trim().parse::<usize>().ok());
    let terminal = || console::Term::stdout().size_checked().map(|(_, cols)| cols as usize);
    columns.filter(|&n| n > 0).or_else(terminal).unwrap_or(DEFAULT_WIDTH).max(MIN_WIDTH)
}

/// A percentage with enough decimals for its size (no `%` sign: the header has it); below 0.1,
/// two significant digits, so a rare share never reads as 0.
fn pct(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let p = 100.0 * x;
    if p == 0.0 {
        "0".into()
    } else if p.abs() < 0.1 {
        let decimals = (1 - p.abs().log10().floor() as i32).max(0) as usize;
        format!("{p:.decimals$}")
    } else if p.abs() < 10.0 {
        format!("{p:.2}")
    } else {
        format!("{p:.1}")
    }
}

/// A column of rates, estimate and `±` (in percent) or interval (in a power of ten, for rates all
/// below 1%), all in one scale (`answer::column_scale`) named in the header (`scorched per
/// 100,000`); no event reads `none` with its bound (`≤3.7`), never `0 ±0`.
fn rate_columns(name: &str, cis: &[Option<Interval>], drop: u8) -> [Column; 2] {
    let scale = super::answer::column_scale(cis.iter().flatten());
    let cells = cis
        .iter()
        .map(|ci| {
            let Some(ci) = ci else { return ("-".into(), String::new()) };
            if !ci.estimate.is_finite() {
                return ("-".into(), String::new());
            }
            let (est, range) = rate_cells(ci.estimate, ci.low, ci.high, ci.units, scale);
            match (ci.estimate, scale) {
                (0.0, _) | (1.0, _) => (
                    est,
                    range.replace("at most ", "≤").replace("at least ", "≥").trim_end_matches('%').into(),
                ),
                (_, RateScale::Percent) => (pct(ci.estimate), format!("±{}", pct(ci.half_width()))),
                _ => (est, range),
            }
        })
        .collect();
    interval_columns(&format!("{name} {}", scale.header()), cells, drop)
}

/// A number with three or four significant figures, thousands grouped.
fn fmt_short(x: f64) -> String {
    let a = x.abs();
    let decimals = if a >= 1000.0 {
        0
    } else if a >= 100.0 {
        1
    } else if a >= 1.0 {
        2
    } else {
        3
    };
    fixed(x, decimals)
}

/// One column per setting that varies between the points of `sweep` (`-`: the point leaves it unset).
fn setting_columns(sweep: &Sweep, rows: &[usize]) -> Vec<Column> {
    sweep
        .keys
        .iter()
        .enumerate()
        .map(|(k, key)| {
            let cells =
                rows.iter().map(|&r| sweep.values[r][k].clone().unwrap_or_else(|| "-".into())).collect();
            Column::setting(key, cells)
        })
        .collect()
}

/// A note on the columns `fit` left out, or nothing.
fn dropped_note(dropped: &[String], width: usize, file: &str) -> String {
    if dropped.is_empty() {
        return String::new();
    }
    format!("({} left out to fit {width} columns; {file} has them)\n", dropped.join(", "))
}

/// `text` (lines ending in `\n`) with each line broken at spaces to the terminal's width.
pub fn fit_lines(text: &str) -> String {
    let width = width();
    text.lines()
        .map(|l| if l.chars().count() > width { table::wrap(l, width) } else { format!("{l}\n") })
        .collect()
}

/// The summary table at the terminal's width.
pub fn render(run: &RunResult) -> String {
    render_at(run, width())
}

/// The summary table fitted into `width` columns.
pub fn render_at(run: &RunResult, width: usize) -> String {
    let Some(first) = run.points.first() else { return String::new() };
    let (kinds, never): (Vec<_>, Vec<_>) = outcome_kinds(run)
        .into_iter()
        .partition(|&k| run.points.iter().any(|p| kind_count(p, k).is_some_and(|n| n > 0)));
    let labels: Vec<String> = run.points.iter().map(|p| p.label.clone()).collect();
    let sweep = Sweep::of(&labels);
    let same_games = run.points.windows(2).all(|w| w[0].acc.games == w[1].acc.games);
    let mut head = String::new();
    if !sweep.common.is_empty() {
        head.push_str(&format!("{}: ", sweep.common));
    }
    // A run counts games, or tournaments (an event is one record): say which.
    let unit = if run.points.iter().all(|p| p.layout.unit() == first.layout.unit()) {
        first.layout.unit()
    } else {
        "record"
    };
    if same_games {
        let per = if run.points.len() == 1 { "" } else { " per point" };
        head.push_str(&format!("{}{per}, ", count(first.acc.games, unit)));
    }
    // An event's length (the slots of all its games) and its first seat's wins say nothing of
    // the event: its answer has the games, the winner's record and first place.
    let events = run.points.iter().all(|p| p.layout.entrants.is_some());
    if events {
        head.push_str(&format!("rates in % of {unit}s, ±95% intervals"));
    } else {
        head.push_str(&format!(
            "length in {}, rates in % of {unit}s, ±95% intervals",
            first.layout.length_unit
        ));
    }

    let rows: Vec<usize> = (0..run.points.len()).collect();
    let mut cols = setting_columns(&sweep, &rows);
    let column = |header: &str, cell: &dyn Fn(&super::PointResult) -> String| {
        Column::new(header, run.points.iter().map(cell).collect())
    };
    if !same_games {
        cols.push(column(&format!("{unit}s"), &|p| grouped(p.acc.games as i128)));
    }
    let quantile = |q: f64| {
        move |p: &super::PointResult| p.acc.length.quantile(q).map_or("-".into(), |v| grouped(v as i128))
    };
    let mean = |p: &super::PointResult| {
        let ci = p.interval(&Key::Length);
        let half = ci.half_width();
        (
            fmt_short(ci.estimate),
            if half.is_finite() { format!("±{}", fmt_short(half)) } else { String::new() },
        )
    };
    if !events {
        cols.extend(interval_columns("mean length", run.points.iter().map(mean).collect(), 0));
        // Left out first when the table is too wide: p99, then p50, then the first policy's
        // wins (summary.csv has them all).
        cols.push(column("p50", &quantile(0.5)).droppable(2));
        cols.push(column("p99", &quantile(0.99)).droppable(3));
    }
    for &k in &kinds {
        let cis: Vec<Option<Interval>> = run.points.iter().map(|p| p.kind_interval(k)).collect();
        let name = match k {
            OutcomeKind::Win if events => "first alone",
            OutcomeKind::Shared if events => "first shared",
            _ => k.name(),
        };
        cols.extend(rate_columns(name, &cis, 0));
    }
    if !events && run.points.iter().any(|p| first_policy_wins(p).is_some()) {
        let cis: Vec<Option<Interval>> = run
            .points
            .iter()
            .map(|p| first_policy_wins(p).map(|rows| p.interval(&Key::Rows(rows))))
            .collect();
        cols.extend(rate_columns("1st policy win", &cis, 1));
    }
    let mut table = Table::new(cols);
    let dropped = table.fit(width);
    let mut out = wrap(&head, width);
    out.push_str(&table.render());
    out.push_str(&dropped_note(&dropped, width, "summary.csv"));
    if !never.is_empty() {
        let names: Vec<&str> = never.iter().map(|k| k.name()).collect();
        out.push_str(&format!("never happened: {}\n", names.join(", ")));
    }
    out
}

/// The outcome rows of the games won by the line-up's first policy, at a point whose wins are
/// told apart by policy and whose line-up mixes policies (`None` otherwise: every win is the same
/// policy's). The win % of a line-up is always 100% less draws; the share that says who is
/// stronger is this one.
fn first_policy_wins(p: &super::PointResult) -> Option<Vec<u16>> {
    let wins = || p.layout.outcomes.iter().enumerate().filter(|(_, k)| k.kind == OutcomeKind::Win);
    // Seat 0's rows come first, in line-up order: the first policy named is entry 0's.
    let first = wins().find_map(|(_, k)| k.policy.as_deref())?;
    wins()
        .any(|(_, k)| k.policy.as_deref().is_some_and(|q| q != first))
        .then(|| wins().filter(|(_, k)| k.policy.as_deref() == Some(first)).map(|(i, _)| i as u16).collect())
}

/// The headline comparisons at the terminal's width.
pub fn render_comparisons(rows: &[Comparison]) -> String {
    render_comparisons_at(rows, width())
}

/// The headline comparisons (mean length and outcome rates that are not zero at both points),
/// fitted into `width` columns.
pub fn render_comparisons_at(rows: &[Comparison], width: usize) -> String {
    let rows: Vec<&Comparison> = rows
        .iter()
        .filter(|r| r.metric == "length_mean" || (r.metric.ends_with("_rate") && !r.metric.contains(' ')))
        .filter(|r| r.baseline_value != 0.0 || r.value != 0.0)
        // Identical in every game (e.g. a win rate of 100% at both points): nothing to read.
        .filter(|r| r.difference != 0.0 || r.best().half_width() > 0.0)
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    // Columns of the settings that vary among every point named, compared or baseline.
    let mut labels: Vec<String> = rows.iter().map(|r| r.scenario.clone()).collect();
    labels.extend(rows.iter().map(|r| r.baseline.clone()));
    let sweep = Sweep::of(&labels);
    let row_index: Vec<usize> = (0..rows.len()).collect();
    let mut cols = setting_columns(&sweep, &row_index);
    if cols.is_empty() {
        cols.push(Column::setting("point", rows.iter().map(|r| r.scenario.clone()).collect()));
    }
    cols.push(Column::setting("vs", rows.iter().map(|r| baseline_words(&r.scenario, &r.baseline)).collect()));
    let metric = |r: &Comparison| {
        let m = r.metric.trim_end_matches("_rate").trim_end_matches("_mean");
        if r.is_rate { format!("{m} %") } else { format!("{m} mean") }
    };
    let f = |r: &Comparison, x: f64| if r.is_rate { pct(x) } else { fmt_short(x) };
    cols.push(Column::setting("metric", rows.iter().map(|r| metric(r)).collect()));
    cols.push(Column::new("diff", rows.iter().map(|r| f(r, r.difference)).collect()));
    let paired = |r: &&Comparison| r.paired.map_or("-".into(), |i| format!("±{}", f(r, i.half_width())));
    cols.push(Column::new("paired", rows.iter().map(paired).collect()));
    let unpaired = |r: &&Comparison| format!("±{}", f(r, r.unpaired.half_width()));
    cols.push(Column::new("unpaired", rows.iter().map(unpaired).collect()));
    // `paired` says `-` where the pairing does not apply: the column can go.
    cols.push(
        Column::setting("pairing", rows.iter().map(|r| r.pairing().to_string()).collect()).droppable(1),
    );
    let mut table = Table::new(cols);
    let dropped = table.fit(width);
    let mut out = String::from("\n");
    out.push_str(&wrap(
        "differences from the baseline (point - baseline; rates in points of %), ±95% intervals: paired \
         (game i of both points, same deal) and unpaired (as if from independent runs)",
        width,
    ));
    out.push_str(&table.render());
    out.push_str(&dropped_note(&dropped, width, "comparisons.csv"));
    out
}

/// The answer of a run of tournaments (`report::event_answer`) at the terminal's width: its
/// sentences, then one row per point; `None` when the points are not all events.
pub fn render_event_answer(run: &super::RunResult, comparisons: &[Comparison]) -> Option<String> {
    render_event_answer_at(run, comparisons, width())
}

/// `render_event_answer` fitted into `width` columns.
pub fn render_event_answer_at(
    run: &super::RunResult,
    comparisons: &[Comparison],
    width: usize,
) -> Option<String> {
    let a = super::event_answer::answer(run, comparisons)?;
    let mut out: String = a.sentences.iter().map(|l| table::wrap(l, width)).collect();
    // The settings' columns headed in the game's words (`dealing`, `turn order`).
    let game = run.points.first().map_or("", |p| p.game);
    out.push_str(&answer_table(&super::pivot::named_keys(game, &a.sweep), a.columns, width));
    Some(out)
}

/// An answer's table under its sentences: what every point shares, then one row per point, its
/// settings that vary and one column per answer column (an estimate and interval, or words).
fn answer_table(sweep: &Sweep, columns: Vec<super::answer::PivotColumn>, width: usize) -> String {
    let mut out = String::new();
    if !sweep.common.is_empty() && !sweep.keys.is_empty() {
        out.push_str(&table::wrap(&format!("Every point: {}.", sweep.common), width));
    }
    let rows: Vec<usize> = (0..sweep.len()).collect();
    let mut cols = setting_columns(sweep, &rows);
    if cols.is_empty() {
        cols.push(Column::setting("point", sweep.shorts()));
    }
    for c in columns {
        if c.cells.iter().all(|(_, r)| r.is_empty()) {
            cols.push(Column::setting(&c.header, c.cells.into_iter().map(|(e, _)| e).collect()));
        } else {
            cols.extend(interval_columns(&c.header, c.cells, 0));
        }
    }
    let mut t = Table::new(cols);
    t.fit(width);
    out.push_str(&t.render());
    out
}

/// The run's answers (`report::answer`) at the terminal's width.
pub fn render_answers(run: &super::RunResult) -> String {
    render_answers_at(run, width())
}

/// The run's answers (`report::answer`): a few as sentences, each wrapped to `width`; more as one
/// sentence per metric over a compact table, one row per point and one column per metric.
pub fn render_answers_at(run: &super::RunResult, width: usize) -> String {
    if let Some(a) = super::pivot::answer(run) {
        return render_metric_answer(&a, width);
    }
    let answers = super::answer::answers(run);
    let Some((sweep, columns)) = super::answer::table(&answers) else {
        return answers.iter().map(|a| table::wrap(&a.sentence(), width)).collect();
    };
    let q = run.manifest.question.as_deref().unwrap_or_default();
    let mut out: String =
        super::answer::headline(q, &answers).lines().map(|l| table::wrap(l, width)).collect();
    out.push_str(&answer_table(&sweep, columns, width));
    out
}

/// A metric question's answer: its sentences, then one grid per metric (rows and columns the
/// settings that vary, one estimate and interval per point), the rules as written marked.
fn render_metric_answer(a: &super::pivot::MetricAnswer, width: usize) -> String {
    let mut out: String = a.sentences.iter().map(|s| table::wrap(s, width)).collect();
    for p in &a.pivots {
        out.push('\n');
        out.push_str(&table::wrap(&format!("{}:", p.title), width));
        let mut cols: Vec<Column> = p
            .row_keys
            .iter()
            .enumerate()
            .map(|(k, key)| Column::setting(key, p.rows.iter().map(|(v, _)| v[k].clone()).collect()))
            .collect();
        for (c, level) in p.col_levels.iter().enumerate() {
            let header = super::pivot::column_header(p, level);
            let cells = p
                .rows
                .iter()
                .map(|(_, cells)| cells[c].clone().unwrap_or_else(|| ("-".into(), String::new())))
                .collect();
            cols.extend(interval_columns(&header, cells, 0));
        }
        let mut t = Table::new(cols);
        t.fit(width);
        out.push_str(&t.render());
    }
    if a.pivots.iter().any(|p| p.marked.is_some()) {
        out.push_str(&table::wrap(&format!("{} the rules as written", super::pivot::MARK), width));
    }
    out.push('\n');
    out
}
