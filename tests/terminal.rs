//! Snapshots of the terminal summary: every row of a sweep can be told apart (a column per setting
//! that varies), counts have thousands separators, and the table fits the width it is given.

mod support;

use support::{point, run, territories_like};
use warsim::record::{OutcomeKey, OutcomeKind};
use warsim::report::compare::Comparison;
use warsim::report::terminal::{render_at, render_comparisons_at};
use warsim::stats::{Interval, Method};

fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[test]
fn a_sweep_gets_a_column_per_varying_setting() {
    let text = render_at(&territories_like(), 120);
    assert!(widest(&text) <= 120, "\n{text}");
    let expected = "\
territories rotate_seats=true: 2,000 games per point, length in rounds, rates in % of games, ±95% intervals
                                                             search_
players  version  policies                                   budget    mean length  p50  p99         win %       draw %
2        A        random                                     -        10.01 ±0.106   10   15  100.0 ±0.096     0 ±0.096
2        A        greedy,random                              -        11.01 ±0.106   11   16   97.0 ±0.75   3.00 ±0.75
2        B        random                                     -        10.01 ±0.106   10   15  100.0 ±0.096     0 ±0.096
2        B        greedy,random                              -        11.01 ±0.106   11   16   97.0 ±0.75   3.00 ±0.75
6        A        greedy,greedy,drawer,drawer,random,random  -        14.02 ±0.143   14   21  100.0 ±0.096     0 ±0.096
6        A        greedy,drawer,random,random,random,random  -        15.02 ±0.143   15   22   97.0 ±0.75   3.00 ±0.75
6        B        greedy,greedy,drawer,drawer,random,random  -        14.02 ±0.143   14   21  100.0 ±0.096     0 ±0.096
6        B        greedy,drawer,random,random,random,random  -        15.02 ±0.143   15   22   97.0 ±0.75   3.00 ±0.75
2        A        search,random                              50       17.03 ±0.161   17   25  100.0 ±0.096     0 ±0.096
";
    assert_eq!(text, expected, "\n{text}");
}

#[test]
fn a_narrow_terminal_loses_the_quantiles_then_the_middle_of_long_values() {
    let text = render_at(&territories_like(), 90);
    assert!(widest(&text) <= 90, "\n{text}");
    let expected = "\
territories rotate_seats=true: 2,000 games per point, length in rounds, rates in % of
games, ±95% intervals
                                          search_
players  version  policies                budget    mean length         win %       draw %
2        A        random                  -        10.01 ±0.106  100.0 ±0.096     0 ±0.096
2        A        greedy,random           -        11.01 ±0.106   97.0 ±0.75   3.00 ±0.75
2        B        random                  -        10.01 ±0.106  100.0 ±0.096     0 ±0.096
2        B        greedy,random           -        11.01 ±0.106   97.0 ±0.75   3.00 ±0.75
6        A        greedy,greedy,drawer,   -        14.02 ±0.143  100.0 ±0.096     0 ±0.096
                  drawer,random,random
6        A        greedy,drawer,random,   -        15.02 ±0.143   97.0 ±0.75   3.00 ±0.75
                  random,random,random
6        B        greedy,greedy,drawer,   -        14.02 ±0.143  100.0 ±0.096     0 ±0.096
                  drawer,random,random
6        B        greedy,drawer,random,   -        15.02 ±0.143   97.0 ±0.75   3.00 ±0.75
                  random,random,random
2        A        search,random           50       17.03 ±0.161  100.0 ±0.096     0 ±0.096
(p50, p99 left out to fit 90 columns; summary.csv has them)
";
    assert_eq!(text, expected, "\n{text}");
}

#[test]
fn one_point_of_one_long_game() {
    let text = render_at(&run("war", vec![point("war", 1, 2400, 0)]), 100);
    let expected = "\
war: 1 game, length in rounds, rates in % of games, ±95% intervals
mean length    p50    p99        win %
     3,600   3,600  3,600  100.0 ±39.7
never happened: draw
";
    assert_eq!(text, expected, "\n{text}");
}

/// A two-seat point whose wins are told apart by seat and policy: line-up entry 0 (`first`) wins
/// `first_wins` of `games`, the other entry the rest.
fn lineup_point(lineup: &str, games: u64, first_wins: u64) -> warsim::report::PointResult {
    let mut p = point(&format!("slots policies={lineup}"), games, 20, 0);
    let names: Vec<&str> = lineup.split(',').collect();
    let (a, b) = (names[0], *names.last().unwrap());
    let win = |seat: usize, policy: &str| OutcomeKey {
        policy: Some(policy.into()),
        ..OutcomeKey::seat(OutcomeKind::Win, seat)
    };
    p.layout.outcomes =
        vec![win(0, a), win(0, b), win(1, a), win(1, b), OutcomeKey::plain(OutcomeKind::Draw)];
    let rest = games - first_wins;
    p.acc.outcomes = vec![first_wins / 2, rest / 2, first_wins - first_wins / 2, rest - rest / 2, 0];
    p.acc.outcome_examples = vec![Default::default(); 5];
    p
}

#[test]
fn a_mixed_line_up_shows_its_first_policys_win_share() {
    // 700 of 1,000: Wilson 95% half-width 1.96·√(0.21/1000 + 1.96²/4e6)/(1 + 1.96²/1000) = 2.84 pt.
    let points = vec![lineup_point("random", 1000, 1000), lineup_point("highest,random", 1000, 700)];
    let text = render_at(&run("slots", points), 100);
    let expected = "\
slots: 1,000 games per point, length in rounds, rates in % of games, ±95% intervals
policies         mean length  p50  p99        win %  1st policy win %
random          20.10 ±0.282   20   30  100.0 ±0.19           -
highest,random  20.10 ±0.282   20   30  100.0 ±0.19        70.0 ±2.84
never happened: draw
";
    assert_eq!(text, expected, "\n{text}");
}

#[test]
fn comparisons_name_the_point_by_its_settings_and_the_baseline_by_what_differs() {
    let row = |scenario: &str, metric: &str, d: f64, paired: Option<f64>| Comparison {
        scenario: scenario.into(),
        baseline: scenario.replace("limited-engagement", "standard").replace("peace", "standard"),
        metric: metric.into(),
        is_rate: metric.ends_with("_rate"),
        games: 1000,
        baseline_value: 1.0,
        value: 1.0 + d,
        difference: d,
        paired: paired.map(|h| Interval {
            estimate: d,
            low: d - h,
            high: d + h,
            method: Method::Normal,
            units: 1000,
        }),
        unpaired: Interval {
            estimate: d,
            low: d - 1.5 * paired.unwrap_or(6.0),
            high: d + 1.5 * paired.unwrap_or(6.0),
            method: Method::Unpaired,
            units: 1000,
        },
    };
    let rows = [
        row("war variant=limited-engagement players=3", "length_mean", 24.98, Some(9.06)),
        row("war variant=limited-engagement players=4", "length_mean", 1049.76, None),
        row("war variant=peace players=4", "draw_rate", 0.001, Some(0.0011)),
    ];
    let text = render_comparisons_at(&rows, 100);
    let expected = "
differences from the baseline (point - baseline; rates in points of %), ±95% intervals: paired (game
i of both points, same deal) and unpaired (as if from independent runs)
variant             players  vs        metric        diff  paired  unpaired  pairing
limited-engagement  3        standard  length mean  24.98   ±9.06    ±13.59  paired
limited-engagement  4        standard  length mean  1,050       -     ±9.00  none
peace               4        standard  draw %        0.10   ±0.11     ±0.17  paired
";
    assert_eq!(text, expected, "\n{text}");
}
