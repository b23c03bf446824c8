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
players  version  policies                                   budget    mean length  p50  p99        win %      draw %
2        A        random                                     -        10.01 ±0.106   10   15   all ≥99.82  none ≤0.18
2        A        greedy,random                              -        11.01 ±0.106   11   16  97.0 ±0.75   3.00 ±0.75
2        B        random                                     -        10.01 ±0.106   10   15   all ≥99.82  none ≤0.18
2        B        greedy,random                              -        11.01 ±0.106   11   16  97.0 ±0.75   3.00 ±0.75
6        A        greedy,greedy,drawer,drawer,random,random  -        14.02 ±0.143   14   21   all ≥99.82  none ≤0.18
6        A        greedy,drawer,random,random,random,random  -        15.02 ±0.143   15   22  97.0 ±0.75   3.00 ±0.75
6        B        greedy,greedy,drawer,drawer,random,random  -        14.02 ±0.143   14   21   all ≥99.82  none ≤0.18
6        B        greedy,drawer,random,random,random,random  -        15.02 ±0.143   15   22  97.0 ±0.75   3.00 ±0.75
2        A        search,random                              50       17.03 ±0.161   17   25   all ≥99.82  none ≤0.18
";
    assert_eq!(text, expected, "\n{text}");
}

#[test]
fn a_narrow_terminal_loses_the_quantiles_then_wraps_long_values_between_their_pieces() {
    let text = render_at(&territories_like(), 90);
    assert!(widest(&text) <= 90, "\n{text}");
    let expected = "\
territories rotate_seats=true: 2,000 games per point, length in rounds, rates in % of
games, ±95% intervals
                                            search_
players  version  policies                  budget    mean length        win %      draw %
2        A        random                    -        10.01 ±0.106   all ≥99.82  none ≤0.18
2        A        greedy,random             -        11.01 ±0.106  97.0 ±0.75   3.00 ±0.75
2        B        random                    -        10.01 ±0.106   all ≥99.82  none ≤0.18
2        B        greedy,random             -        11.01 ±0.106  97.0 ±0.75   3.00 ±0.75
6        A        greedy,greedy,drawer,     -        14.02 ±0.143   all ≥99.82  none ≤0.18
                  drawer,random,random
6        A        greedy,drawer,random,     -        15.02 ±0.143  97.0 ±0.75   3.00 ±0.75
                  random,random,random
6        B        greedy,greedy,drawer,     -        14.02 ±0.143   all ≥99.82  none ≤0.18
                  drawer,random,random
6        B        greedy,drawer,random,     -        15.02 ±0.143  97.0 ±0.75   3.00 ±0.75
                  random,random,random
2        A        search,random             50       17.03 ±0.161   all ≥99.82  none ≤0.18
(p50, p99 left out to fit 90 columns; summary.csv has them)
";
    assert_eq!(text, expected, "\n{text}");
}

#[test]
fn one_point_of_one_long_game() {
    let text = render_at(&run("war", vec![point("war", 1, 2400, 0)]), 100);
    let expected = "\
war: 1 game, length in rounds, rates in % of games, ±95% intervals
mean length    p50    p99     win %
     3,600   3,600  3,600  all ≥2.5
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
policies         mean length  p50  p99      win %  1st policy win %
random          20.10 ±0.282   20   30  all ≥99.6           -
highest,random  20.10 ±0.282   20   30  all ≥99.6        70.0 ±2.84
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

#[test]
fn a_narrow_terminal_wraps_labels_before_it_leaves_out_the_first_policys_wins() {
    // A line-up whose policies are long: at 60 columns the quantiles go, the long header breaks
    // over two lines, the policies wrap, and the first policy's wins stay.
    let lineup = "highest,highest,random,random";
    let points = vec![lineup_point("random", 1000, 1000), lineup_point(lineup, 1000, 700)];
    let text = render_at(&run("slots", points), 60);
    assert!(widest(&text) <= 60, "\n{text}");
    let expected = "\
slots: 1,000 games per point, length in rounds, rates in %
of games, ±95% intervals
                                                  1st policy
policies                  mean length      win %       win %
random                   20.10 ±0.282  all ≥99.6     -
highest,highest,random,  20.10 ±0.282  all ≥99.6  70.0 ±2.84
random
(p50, p99 left out to fit 60 columns; summary.csv has them)
never happened: draw
";
    assert_eq!(text, expected, "\n{text}");
}

/// What a run prints to the terminal at `columns` (`None`: piped, no `COLUMNS`), up to its
/// closing timing line (whose figures differ from run to run).
fn terminal_of(scenario: &str, columns: Option<usize>) -> String {
    use std::process::Command;
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warsim"));
    cmd.args(["run", &format!("scenarios/{scenario}.toml"), "--games", "12", "-q", "--out"])
        .arg(dir.path().join("o"));
    match columns {
        Some(n) => cmd.env("COLUMNS", n.to_string()),
        None => cmd.env_remove("COLUMNS"),
    };
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{scenario}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    // The closing line: `N games in X s (...)`.
    let closing = text
        .match_indices(" in ")
        .map(|(i, _)| i)
        .find(|&i| text[i + 4..].split(' ').nth(1) == Some("s") && text[..i].ends_with(['s']))
        .and_then(|i| text[..i].rfind('\n'))
        .unwrap_or(text.len());
    text[..closing].to_string()
}

/// Where a word may break across lines: after a `,` that is not a thousands separator, a `+`,
/// `_` or `/`, or a hyphen between letters (as `report::terminal` breaks setting values).
fn breaks_after(w: &[char], i: usize) -> bool {
    let (c, before, after) = (w[i], i.checked_sub(1).map(|j| w[j]), w.get(i + 1));
    match c {
        ',' => !(before.is_some_and(|b| b.is_ascii_digit()) && after.is_some_and(|a| a.is_ascii_digit())),
        '+' | '_' | '/' => true,
        '-' => before.is_some_and(|b| b.is_alphabetic()) && after.is_some_and(|a| a.is_alphabetic()),
        _ => false,
    }
}

/// The words of `narrow` that are pieces of a word of `wide` cut where it may not break
/// (`aggress` of `aggressive`, `(20,` of `(20,000`).
fn broken_words(narrow: &str, wide: &str) -> Vec<String> {
    let whole: std::collections::BTreeSet<&str> = wide.split_whitespace().collect();
    let mut broken = Vec::new();
    for t in narrow.split_whitespace() {
        // Keys of a keyed column (`a`, `b`) and whole words.
        if t.chars().count() <= 2 || whole.contains(t) {
            continue;
        }
        let tc: Vec<char> = t.chars().collect();
        let mut inside = false;
        let mut aligned = false;
        for w in &whole {
            let wc: Vec<char> = w.chars().collect();
            for i in 0..wc.len().saturating_sub(tc.len() - 1) {
                if wc[i..i + tc.len()] != tc[..] {
                    continue;
                }
                inside = true;
                let end = i + tc.len();
                if (i == 0 || breaks_after(&wc, i - 1)) && (end == wc.len() || breaks_after(&wc, end - 1)) {
                    aligned = true;
                }
            }
        }
        if inside && !aligned {
            broken.push(t.to_string());
        }
    }
    broken
}

#[test]
fn the_word_check_finds_the_breaks_it_should() {
    let wide = "policies=aggressive (20,000 decided, 0 capped) lesser-spoils greedy,greedy,drawer";
    assert_eq!(
        broken_words("policies=aggress ive (20, 000 decided,", wide),
        ["policies=aggress", "ive", "(20,", "000"]
    );
    assert!(broken_words("lesser- spoils greedy, greedy,drawer", wide).is_empty());
}

#[test]
fn shipped_scenarios_never_break_a_word_or_a_number_at_80_100_or_piped() {
    for scenario in [
        "cardwars-balance",
        "slots-tournament",
        "territories-versions",
        "scourge-decks",
        "war-variants",
        "slots-cards",
        "slots-impact",
        "cardwars-policies",
    ] {
        let wide = terminal_of(scenario, Some(1000));
        for (columns, width) in [(Some(80), 80), (Some(100), 100), (None, 100)] {
            let text = terminal_of(scenario, columns);
            for l in text.lines() {
                // A single word longer than the width (a long path) stands whole on its line.
                assert!(
                    l.chars().count() <= width || !l.trim().contains(' '),
                    "{scenario} at {columns:?}: a line of {} characters:\n{l}\n\n{text}",
                    l.chars().count()
                );
            }
            // The note on columns left out says words of its own; the closing line ("N games in
            // X s (... games/s ...)") measures the machine, so its figures differ between the two
            // runs compared: the check stops where it starts.
            let closing = |l: &str| {
                l.contains(" in ") && l.contains(" s (") && l.starts_with(|c: char| c.is_ascii_digit())
            };
            let checked: String = text
                .lines()
                .take_while(|l| !closing(l))
                .filter(|l| !l.contains("left out to fit"))
                .map(|l| format!("{l}\n"))
                .collect();
            let broken = broken_words(&checked, &wide);
            assert!(broken.is_empty(), "{scenario} at {columns:?}: broken {broken:?}\n\n{text}");
            // Every interval is whole: an estimate, one blank, its ±.
            assert!(text.lines().all(|l| !l.trim_end().ends_with('±')), "{scenario}:\n{text}");
            // A rate never reads as nothing: no [0.0, 0.0], no 0.0%, no NaN.
            for bad in ["[0.0, 0.0]", " 0.0%", "NaN", "±0 "] {
                assert!(!text.contains(bad), "{scenario} at {columns:?}: {bad}\n\n{text}");
            }
        }
    }
}

/// What `warsim balance` prints at `columns` (`None`: piped) for the set with one outlier.
fn balance_terminal_of(columns: Option<usize>) -> String {
    use std::process::Command;
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warsim"));
    cmd.args([
        "balance",
        "tests/fixtures/balance/outlier.toml",
        "--games",
        "200",
        "--seed",
        "3",
        "-q",
        "--out",
    ])
    .arg(dir.path().join("b"));
    match columns {
        Some(n) => cmd.env("COLUMNS", n.to_string()),
        None => cmd.env_remove("COLUMNS"),
    };
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn the_balance_answer_never_breaks_a_word_or_a_number_at_80_or_piped() {
    let wide = balance_terminal_of(Some(1000));
    assert!(wide.contains("Ed common 5 (Ed): ability 1 amount 6 to 1"), "{wide}");
    // 80 columns, and piped (100): the same wrapping as at 100 columns, one balance fewer.
    for (columns, width) in [(Some(80), 80), (None, 100)] {
        let text = balance_terminal_of(columns);
        for l in text.lines() {
            assert!(
                l.chars().count() <= width || !l.trim().contains(' '),
                "at {columns:?}: a line of {} characters:\n{l}\n\n{text}",
                l.chars().count()
            );
        }
        // The closing figures (seconds, the folder) differ from run to run: the check stops there.
        let checked = &text[..text.find(" tournaments in ").unwrap_or(text.len())];
        let broken = broken_words(checked, &wide);
        assert!(broken.is_empty(), "at {columns:?}: broken {broken:?}\n\n{text}");
        assert!(!text.contains("NaN"), "{text}");
    }
}
