//! Made-up runs for the report's tests: points with chosen labels, lengths, outcomes and counters,
//! so a table or a plot can be checked without playing games.

#![allow(dead_code)]

use warsim::record::{Layout, OutcomeKey, OutcomeKind};
use warsim::report::{Manifest, PointResult, RunResult};
use warsim::settings::Settings;
use warsim::stats::Accumulator;

pub fn manifest(name: &str, games: u64, points: &[String]) -> Manifest {
    Manifest {
        warsim_version: "test".into(),
        git_commit: None,
        build: "test".into(),
        command_line: vec!["warsim".into()],
        scenario: name.into(),
        seed: 1,
        games,
        shards: "1/1".into(),
        threads: 1,
        start_time: "t0".into(),
        end_time: "t1".into(),
        points: points.to_vec(),
        scenario_text: None,
        until: None,
        until_intervals: Vec::new(),
        question: None,
        partial: false,
        point_games: Vec::new(),
        files: Vec::new(),
        written: Vec::new(),
        outputs: Vec::new(),
        checksum: String::new(),
    }
}

/// A point of `games` games labelled `label`: wins and draws in the ratio `draws` per thousand,
/// lengths spread around `mean` (a triangle from mean/2 to 3·mean/2), and a counter `wars` that
/// fires in every game and a counter `never` that never does.
pub fn point(label: &str, games: u64, mean: i64, draws_per_thousand: u64) -> PointResult {
    let outcomes = vec![OutcomeKey::plain(OutcomeKind::Win), OutcomeKey::plain(OutcomeKind::Draw)];
    let layout = Layout::plain("rounds", outcomes, vec!["wars".into(), "never".into()]);
    let mut acc = Accumulator::new(&layout);
    acc.games = games;
    let draws = games * draws_per_thousand / 1000;
    acc.outcomes = vec![games - draws, draws];
    // A triangle of lengths whose counts add up to `games`.
    let half = (mean / 2).max(1);
    let weights: Vec<u64> = (-half..=half).map(|d| (half + 1 - d.abs()) as u64).collect();
    let total: u64 = weights.iter().sum();
    let mut left = games;
    for (i, w) in weights.iter().enumerate() {
        let n = if i + 1 == weights.len() { left } else { (games * w / total).min(left) };
        acc.length.add_n(mean - half + i as i64, n);
        left -= n;
    }
    acc.counters[0].total = (games * 3) as u128;
    acc.counters[0].sum_sq = (games * 10) as u128;
    acc.counters[0].games_with = games;
    PointResult {
        label: label.into(),
        game: "war",
        settings: Settings::restore("war", &[], true, "standard", &[], &[]).unwrap(),
        layout,
        acc,
    }
}

pub fn run(name: &str, points: Vec<PointResult>) -> RunResult {
    let labels: Vec<String> = points.iter().map(|p| p.label.clone()).collect();
    let games = points.first().map_or(0, |p| p.acc.games);
    RunResult { points, manifest: manifest(name, games, &labels), timings: Vec::new(), effects: Vec::new() }
}

/// A sweep like territories-versions: players × version × line-ups, one run with a search budget.
pub fn territories_like() -> RunResult {
    let mut points = Vec::new();
    for (players, lineups) in [
        (2, vec!["random", "greedy,random"]),
        (6, vec!["greedy,greedy,drawer,drawer,random,random", "greedy,drawer,random,random,random,random"]),
    ] {
        for version in ["A", "B"] {
            for (k, l) in lineups.iter().enumerate() {
                let label =
                    format!("territories players={players} rotate_seats=true version={version} policies={l}");
                points.push(point(&label, 2000, 8 + players + k as i64, 30 * k as u64));
            }
        }
    }
    points.push(point(
        "territories players=2 rotate_seats=true search_budget=50 version=A policies=search,random",
        2000,
        17,
        0,
    ));
    run("territories-like", points)
}
