//! `lengths.svg` and `lengths-log.svg`: the game-length distributions as lines, in small multiples
//! (`facets`), each panel with its own scales so short games are not squeezed into one bin.
//! The linear plot runs to each panel's 99.5th percentile; the log plot to the longest game, and
//! leaves a gap where no game had a length (a line would claim games that were never played).

use super::axis::{self, Scale};
use super::facets::Facets;
use super::layout::{self, Grid, MARGIN, MAX_WIDTH, PANEL_TITLE, line_height};
use super::palette;
use super::svg::{Anchor, Svg};
use crate::report::RunResult;
use crate::report::labels::Sweep;
use crate::stats::Histogram;

/// A "nice" bin width (1, 2 or 5 times a power of ten) giving about `bins` bins over `span`.
pub fn bin_width(span: i64, bins: i64) -> i64 {
    (axis::nice_step(span.max(1) as f64, bins.max(1) as usize).round() as i64).max(1)
}

/// Counts of `h` in bins of `width` from `lo` (a multiple of `width`) to `hi`: (bin start, count).
pub fn binned(h: &Histogram, lo: i64, hi: i64, width: i64) -> Vec<(i64, u64)> {
    let n = ((hi - lo) / width + 1).max(1) as usize;
    let mut bins = vec![0u64; n];
    for (v, c) in h.iter() {
        if v >= lo && v <= hi {
            bins[((v - lo) / width) as usize] += c;
        }
    }
    bins.into_iter().enumerate().map(|(i, c)| (lo + i as i64 * width, c)).collect()
}

/// The length unit of the run (`battles`), and one of it (`battle`).
fn units(run: &RunResult) -> (String, String) {
    let unit = super::unit(run);
    let one = unit.strip_suffix('s').unwrap_or(&unit).to_string();
    (unit, one)
}

/// Panels whose points' lengths differ tenfold do not share one panel's scale.
fn facets(run: &RunResult, sweep: &Sweep) -> Facets {
    let f = Facets::of(sweep);
    let tops: Vec<i64> = run.points.iter().filter_map(|p| p.acc.length.quantile(0.995)).collect();
    let (lo, hi) = (tops.iter().min().copied().unwrap_or(1).max(1), tops.iter().max().copied().unwrap_or(1));
    if f.panels.len() == 1 && run.points.len() > 1 && hi > 10 * lo { Facets::each(sweep) } else { f }
}

/// A point drawn in a panel: its colour, thickness and name in the legend.
struct Member {
    point: usize,
    colour: &'static str,
    thick: f64,
    name: String,
}

pub fn lengths(run: &RunResult, log: bool) -> String {
    let sweep = super::played_sweep(run);
    let facets = facets(run, &sweep);
    let (unit, one) = units(run);
    let single = facets.panels.len() == 1;
    let width = if single { 900.0 } else { MAX_WIDTH };
    let mut svg = Svg::new(width, 0.0);
    let title = if log { "Game length, log scale: the tails" } else { "Game length distribution" };
    let note = if log {
        format!(
            "y (log scale): % of games per {one}; x: game length in {unit}, up to the longest game. A gap is a \
             stretch of lengths no game had."
        )
    } else {
        format!(
            "y: % of games per {one}; x: game length in {unit}, up to the 99.5th percentile (of the games \
             that did not stop at the cap, whose share is written at the right edge)."
        )
    };
    let mut notes = vec![note];
    if !single {
        notes.push(
            "Each panel has its own scales. A dashed line lies on an identical one (named under the panel)."
                .into(),
        );
    }
    let mut y = layout::header(&mut svg, &sweep.title(title), &notes);
    if facets.series.len() > 1 {
        let entries: Vec<(&str, String)> =
            facets.series.iter().enumerate().map(|(i, s)| (palette::series(i), s.clone())).collect();
        y = layout::legend(&mut svg, y, &facets.key, &entries);
    }
    let n = facets.panels.len();
    let (_, cell_w) = Grid::columns(n, 4, 270.0, width);
    let titles: Vec<Vec<String>> = facets
        .panels
        .iter()
        .map(|f| {
            if f.title.is_empty() {
                Vec::new()
            } else {
                layout::wrap(&f.title, cell_w - 16.0, PANEL_TITLE.size)
            }
        })
        .collect();
    let title_h = |panels: std::ops::Range<usize>| {
        let lines = titles[panels].iter().map(Vec::len).max().unwrap_or(0);
        if lines == 0 { 0.0 } else { lines as f64 * line_height(PANEL_TITLE.size) + 4.0 }
    };
    let plot_h = if single { 380.0 } else { 190.0 };
    let grid = Grid::new(n, 4, 270.0, width, y, |r| title_h(r) + plot_h + 40.0);
    let bins = if single { 100 } else { 40 } * if log { 3 } else { 2 } / 2;
    for (i, facet) in facets.panels.iter().enumerate() {
        let (x0, y0, row_h) = grid.cell(i);
        layout::lines(&mut svg, x0 + 4.0, y0, &titles[i], PANEL_TITLE);
        let members: Vec<Member> = facet
            .members
            .iter()
            .map(|&(point, s)| match facets.series.get(s) {
                None => Member { point, colour: palette::ESTIMATE, thick: 1.8, name: String::new() },
                Some(name) => Member { point, colour: palette::series(s), thick: 2.0, name: name.clone() },
            })
            .collect();
        let top = y0 + row_h - plot_h - 40.0;
        let area = (x0, top, x0 + cell_w - 16.0, top + plot_h);
        panel(&mut svg, run, &members, log, bins, area);
    }
    svg.set_height(grid.bottom() + MARGIN);
    svg.finish()
}

/// The step every length of `hists` keeps from the shortest (1 when none): a game whose
/// length only comes in whole rounds of several units (Card Wars: 9 slots a round) has no game
/// between two steps, and bins finer than the step would draw each step as a spike.
fn lattice(hists: &[&Histogram]) -> i64 {
    let Some(lo) = hists.iter().filter_map(|h| h.min()).min() else { return 1 };
    let gcd = |mut a: i64, mut b: i64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let step =
        hists.iter().flat_map(|h| h.iter()).filter(|&(_, c)| c > 0).fold(0, |g, (v, _)| gcd(g, v - lo));
    step.max(1)
}

/// The longest length of `h` and its games, when at least 0.5% of the games have it and no game
/// is within a tenth of it: games stopped at a cap, drawn apart from the rest on the linear scale.
fn capped(h: &Histogram) -> Option<(i64, u64)> {
    let (max, c) = h.iter().filter(|&(_, c)| c > 0).last()?;
    let before = h.iter().filter(|&(v, c)| c > 0 && v < max).map(|(v, _)| v).last()?;
    (c as f64 >= 0.005 * h.total() as f64 && (max - before) as f64 > 0.1 * max as f64).then_some((max, c))
}

/// The x axis of a panel: its first and last bin, their width, and the lengths' step
/// (`lattice`; a bin then holds whole steps and starts on one).
fn bins_of(hists: &[&Histogram], log: bool, bins: i64) -> (i64, i64, i64, i64) {
    let lo = hists.iter().filter_map(|h| h.min()).min().unwrap_or(0);
    let longest = hists.iter().filter_map(|h| h.max()).max().unwrap_or(1);
    // On the linear scale the axis ends at the 99.5th percentile of the games that did not stop
    // at the cap (`capped`), so a spike far out at the cap does not squash the rest.
    let body = |h: &Histogram| match capped(h) {
        Some((_, c)) => h.quantile(0.995 * (h.total() - c) as f64 / h.total() as f64),
        None => h.quantile(0.995),
    };
    let hi = hists.iter().filter_map(|h| if log { h.max() } else { body(h) }).max().unwrap_or(1).max(lo);
    let step = lattice(hists);
    let mut width = bin_width(hi - lo, bins);
    if step > 1 {
        width = step * ((width + step / 2) / step).max(1);
    }
    // An empty bin on each side where no game is cut off, so a line rises from zero and falls
    // back to it (a single length shows as a spike, not as an invisible dot).
    let lo = if step > 1 { lo - width } else { lo - lo.rem_euclid(width) - width };
    let hi = if hi == longest { hi + width } else { hi };
    (lo, hi, width, step)
}

/// One panel's lines in `area` (left, top, right, bottom), axes included.
fn panel(
    svg: &mut Svg,
    run: &RunResult,
    members: &[Member],
    log: bool,
    bins: i64,
    area: (f64, f64, f64, f64),
) {
    let hists: Vec<&Histogram> = members.iter().map(|m| &run.points[m.point].acc.length).collect();
    let (lo, hi, width, step) = bins_of(&hists, log, bins);
    // A bin's share per unit of length, at its middle (at the length itself for bins of one, at
    // the middle of its lengths on a lattice).
    let centre = if step > 1 {
        (width - step) as f64 / 2.0
    } else if width == 1 {
        0.0
    } else {
        width as f64 / 2.0
    };
    let lines: Vec<Vec<(f64, f64)>> = members
        .iter()
        .map(|m| {
            let games = run.points[m.point].acc.games.max(1) as f64;
            binned(&run.points[m.point].acc.length, lo, hi, width)
                .into_iter()
                .map(|(x, c)| (x as f64 + centre, c as f64 / games / width as f64))
                .collect()
        })
        .collect();
    let (left, top, right, bottom) = area;
    let ys = lines.iter().flatten().map(|p| p.1);
    let ymax = ys.clone().fold(0.0, f64::max).max(1e-12);
    let ymin = ys.filter(|y| *y > 0.0).fold(ymax, f64::min);
    let (yscale, yticks) = if log {
        let (a, b) = (ymin / 1.5, ymax * 1.5);
        (Scale::log(a, b, bottom, top), axis::log_ticks(a, b, bottom - top))
    } else {
        let t = axis::fitted(0.0, ymax * 1.05, bottom - top, 5, false, &axis::percent, 0.0);
        (Scale::linear(0.0, ymax * 1.05, bottom, top), t)
    };
    let left = left + axis::label_width(&yticks) + 8.0;
    let (x_lo, x_hi) = (lo as f64, if width == 1 { hi as f64 } else { (hi + width) as f64 });
    let x = Scale::linear(x_lo, x_hi, left, right);
    let xticks = axis::whole(x_lo, x_hi, right - left, 6);
    axis::y_grid(svg, &yscale, left, right, &yticks);
    axis::x_grid(svg, &x, top, bottom, &xticks);
    axis::x_axis(svg, &x, bottom, &xticks, (left - 8.0, right + 12.0));
    svg.line((left, top), (left, bottom), axis::AXIS, 1.0);
    let mut same: Vec<String> = Vec::new();
    for (k, (m, line)) in members.iter().zip(&lines).enumerate() {
        let twin = lines[..k].iter().position(|l| l == line);
        if let Some(t) = twin {
            same.push(format!("{} = {}", m.name, members[t].name));
        }
        let pts = |run: &[(f64, f64)]| run.iter().map(|&(a, b)| (x.at(a), yscale.at(b))).collect::<Vec<_>>();
        // Games stopped at the cap, beyond the axis: their share, written at the right edge.
        let h = &run.points[m.point].acc.length;
        if let Some((cap, c)) = capped(h).filter(|&(cap, _)| !log && cap > hi) {
            let share = 100.0 * c as f64 / h.total().max(1) as f64;
            svg.text(
                right,
                top + 10.0 + 12.0 * k as f64,
                &format!("+ {share:.1}% at the cap, {cap} →"),
                axis::TICK.at(Anchor::End).colour(m.colour),
            );
        }
        // Runs of bins with games (every bin on a linear scale); on a log scale a bin alone is a dot.
        let runs: Vec<&[(f64, f64)]> =
            if log { line.split(|p| p.1 <= 0.0).filter(|r| !r.is_empty()).collect() } else { vec![line] };
        for run in runs {
            match (run.len(), twin) {
                (1, _) if log => svg.circle(pts(run)[0], m.thick + 0.4, m.colour),
                (_, Some(_)) => svg.dashed_polyline(&pts(run), m.colour, m.thick),
                _ => svg.polyline(&pts(run), m.colour, m.thick),
            }
        }
    }
    // Under the tick labels, never over the lines.
    let under = bottom + 2.0 * axis::TICK.size + 10.0;
    if width > 1 {
        let bins =
            if width == step { format!("lengths in steps of {step}") } else { format!("bins of {width}") };
        svg.text(right, under, &bins, axis::TICK.at(Anchor::End).colour(palette::MUTED));
    }
    if !same.is_empty() {
        svg.text(left, under, &format!("identical: {}", same.join(", ")), axis::TICK.colour(palette::MUTED));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_bins() {
        assert_eq!(bin_width(1000, 80), 20);
        assert_eq!(bin_width(30, 80), 1);
        assert_eq!(bin_width(3500, 120), 50);
        let mut h = Histogram::new();
        h.add_n(3, 2);
        h.add_n(7, 1);
        assert_eq!(binned(&h, 0, 9, 5), [(0, 2), (5, 1)]);
    }

    #[test]
    fn lengths_on_a_lattice_are_binned_in_whole_steps() {
        // Card Wars: 9 slots a round, games of 2 to 7 rounds.
        let mut h = Histogram::new();
        for (rounds, games) in [(2, 30), (3, 40), (4, 20), (5, 10), (7, 1)] {
            h.add_n(9 * rounds, games);
        }
        assert_eq!(lattice(&[&h]), 9);
        let (lo, hi, width, step) = bins_of(&[&h], true, 60);
        assert_eq!((width, step), (9, 9), "no bin falls between two steps");
        assert_eq!((lo, hi), (9, 72));
        // Every bin but the empty ends and the one missing round holds games: no spikes.
        let counts: Vec<u64> = binned(&h, lo, hi, width).into_iter().map(|b| b.1).collect();
        assert_eq!(counts, [0, 30, 40, 20, 10, 0, 1, 0]);
        let mut loose = Histogram::new();
        loose.add_n(10, 1);
        loose.add_n(13, 1);
        assert_eq!(lattice(&[&loose, &h]), 1, "steps of several points must agree");
    }
}
