//! Paired comparisons: the statistic against hand-computed answers and an independent computation,
//! the pairing's gain on a real case (War standard vs lesser-spoils), agreement with truly
//! independent runs, `pairing = none` where the decks differ, and the `run --baseline` / `compare`
//! commands end to end.

use warsim::plan::Comparisons;
use warsim::report::compare::{Comparison, rows};
use warsim::scenario::{self, ScenarioPoint};
use warsim::seed::GameSeed;
use warsim::sim::paired::{PairedResult, play_paired};
use warsim::stats::PairedSums;
use warsim::stats::interval::Z95;

/// Builds the points of `war` with `sweep` over `key`.
fn war_points(key: &str, values: &[&str]) -> Vec<ScenarioPoint> {
    let mut req = scenario::for_game("war");
    req.runs[0].sweep.push((key.to_string(), values.iter().map(|v| v.to_string()).collect()));
    scenario::expand(&req, &[]).unwrap()
}

/// Plans, plays and formats a paired comparison the way `run --baseline` does.
fn compare(points: &[ScenarioPoint], spec: &str, seed: u64, games: u64) -> (Vec<Comparison>, PairedResult) {
    let plan = Comparisons::plan(points, spec).unwrap();
    let engines: Vec<&dyn warsim::games::Point> = points.iter().map(|p| &*p.engine).collect();
    let never = std::sync::atomic::AtomicBool::new(false);
    let result = play_paired(&engines, &plan.pairs, seed, 0, games, 1_000, &never, &|_| {}).unwrap();
    (rows(&plan.compared(points), &result.sums), result)
}

fn row<'a>(rows: &'a [Comparison], metric: &str) -> &'a Comparison {
    rows.iter().find(|r| r.metric == metric).unwrap_or_else(|| panic!("no row {metric}"))
}

#[test]
fn known_answer_with_negative_differences() {
    // (x, y): d = y - x = -1, 3, 0, -4, 2: mean 0, sum of squares 1 + 9 + 0 + 16 + 4 = 30,
    // sample variance 30 / 4 = 7.5, half-width z * sqrt(7.5 / 5).
    let mut s = PairedSums::default();
    for (x, y) in [(5, 4), (-2, 1), (7, 7), (10, 6), (0, 2)] {
        s.add(x, y);
    }
    let p = s.paired();
    assert_eq!(p.estimate, 0.0);
    assert!((p.half_width() - Z95 * (7.5f64 / 5.0).sqrt()).abs() < 1e-12, "{p:?}");
    // x = 5, -2, 7, 10, 0: mean 4, squares about the mean 1 + 36 + 9 + 36 + 16 = 98, var 24.5;
    // y = 4, 1, 7, 6, 2: mean 4, squares 0 + 9 + 9 + 4 + 4 = 26, var 6.5.
    let u = s.unpaired();
    assert_eq!(u.estimate, 0.0);
    assert!((u.half_width() - Z95 * ((24.5 + 6.5) / 5.0f64).sqrt()).abs() < 1e-12, "{u:?}");
}

#[test]
fn paired_statistic_matches_an_independent_computation_from_single_games() {
    let points = war_points("variant", &["standard", "lesser-spoils"]);
    let n = 1_500u64;
    let (rows, _) = compare(&points, "variant=standard", 3, n);
    // Independently: play game i of both points one at a time, compute in floating point.
    let d: Vec<f64> = (0..n)
        .map(|i| {
            let s = GameSeed::new(3, i);
            points[1].engine.play_one(s).length as f64 - points[0].engine.play_one(s).length as f64
        })
        .collect();
    let mean = d.iter().sum::<f64>() / n as f64;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = 1.959_963_984_540_054 * (var / n as f64).sqrt();
    let r = row(&rows, "length_mean");
    let p = r.paired.expect("same deck: paired");
    assert!((p.estimate - mean).abs() < 1e-9 * mean.abs().max(1.0), "{p:?} vs {mean}");
    assert!((p.low - (mean - half)).abs() < 1e-8 && (p.high - (mean + half)).abs() < 1e-8, "{p:?}");
    assert_eq!(r.games, n);
}

#[test]
fn pairing_narrows_the_interval_and_agrees_with_independent_runs() {
    let points = war_points("variant", &["standard", "lesser-spoils"]);
    let n = 20_000u64;
    let (rows, result) = compare(&points, "variant=standard", 11, n);
    let r = row(&rows, "length_mean");
    let p = r.paired.expect("paired");
    let u = r.unpaired;
    assert_eq!(r.pairing(), "paired");
    // Same games: the mean of the differences is the difference of the means.
    assert!((p.estimate - u.estimate).abs() < 1e-9, "{p:?} {u:?}");
    assert!(p.half_width() < u.half_width(), "paired {p:?} should be narrower than unpaired {u:?}");
    // The paired pass's accumulators are the ordinary ones (so a run may use either).
    for (point, acc) in points.iter().zip(&result.accumulators) {
        assert_eq!(*acc, point.engine.play_range(11, 0, n, &|_| {}));
    }
    // Truly independent runs (different seeds for the two points) estimate the same difference:
    // their estimate lies within 4 standard errors of the paired one.
    let a = points[0].engine.play_range(101, 0, n, &|_| {});
    let b = points[1].engine.play_range(202, 0, n, &|_| {});
    let mean = |acc: &warsim::stats::Accumulator| acc.length.sum() as f64 / acc.games as f64;
    let independent = mean(&b) - mean(&a);
    let se = (p.half_width().powi(2) + u.half_width().powi(2)).sqrt() / Z95;
    assert!((independent - p.estimate).abs() < 4.0 * se, "independent {independent} vs paired {p:?}");
    // And the other headline metrics are there: every outcome kind and both forms of each event.
    for m in ["win_rate", "draw_rate", "wars_mean_per_game", "wars_share_of_games", "win_rate seat=0"] {
        row(&rows, m);
    }
}

#[test]
fn different_decks_are_not_paired() {
    let points = war_points("players", &["2", "3"]);
    assert!(!points[0].settings.same_deal(&points[1].settings));
    let (rows, _) = compare(&points, "players=2", 1, 300);
    assert!(!rows.is_empty());
    for r in &rows {
        assert_eq!(r.pairing(), "none");
        assert!(r.paired.is_none());
        assert!(r.unpaired.low <= r.difference && r.difference <= r.unpaired.high);
    }
    let same = war_points("variant", &["standard", "peace"]);
    assert!(same[0].settings.same_deal(&same[1].settings));
}

/// Each game says which of its settings change the deal; a few that once were wrongly paired.
#[test]
fn the_games_say_which_settings_change_the_deal() {
    let point = |game: &str, key: &str, values: &[&str]| {
        let mut req = scenario::for_game(game);
        req.runs[0].sweep.push((key.to_string(), values.iter().map(|v| v.to_string()).collect()));
        scenario::expand(&req, &[]).unwrap()
    };
    let differs = |p: &[ScenarioPoint]| !p[0].settings.same_deal(&p[1].settings);
    assert!(differs(&point("war", "stack", &["none", "0:A,A"])));
    assert!(differs(&point("war", "stack_only", &["none", "0:A,A,A,A"])));
    assert!(differs(&point("scourge", "deck", &["draconian", "standard"])));
    assert!(differs(&point("territories", "rotate_seats", &["true", "false"])));
    assert!(!differs(&point("territories", "policies", &["random", "greedy"])));
    assert!(!differs(&point("war", "pickup", &["shuffled", "seat-order"])));
}

fn warsim() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("warsim").unwrap()
}

#[test]
fn run_with_a_baseline_writes_comparisons_and_compare_reproduces_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = warsim()
        .args(["run", "war", "--sweep", "variant=standard,lesser-spoils,peace", "--sweep", "players=2,3"])
        .args(["--games", "400", "--seed", "5", "--baseline", "variant=standard", "-q", "--out"])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8(run.get_output().stdout.clone()).unwrap();
    for line in stdout.lines() {
        assert!(line.chars().count() <= 100, "line wider than 100 columns: {line:?}");
    }
    assert!(stdout.contains("differences from the baseline"), "{stdout}");
    let csv = std::fs::read_to_string(out.join("comparisons.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert_eq!(
        header,
        "scenario,baseline,metric,games,baseline_value,value,difference,paired_ci95_low,paired_ci95_high,unpaired_ci95_low,unpaired_ci95_high,pairing"
    );
    // Each variant is compared with standard at the same player count.
    assert!(csv.contains("war variant=peace players=3,war variant=standard players=3,length_mean,400,"));
    assert!(!csv.contains("war variant=peace players=3,war variant=standard players=2"));
    assert!(
        std::fs::read_to_string(out.join("report.html")).unwrap().contains("Comparisons with the baseline")
    );
    // `compare` replays the games from the manifest: the same file, byte for byte.
    std::fs::remove_file(out.join("comparisons.csv")).unwrap();
    warsim().arg("compare").arg(&out).args(["--baseline", "variant=standard", "-q"]).assert().success();
    assert_eq!(std::fs::read_to_string(out.join("comparisons.csv")).unwrap(), csv);
    // A baseline with a different deck: pairing none.
    warsim()
        .arg("compare")
        .arg(&out)
        .args(["--baseline", "variant=standard players=2", "-q"])
        .assert()
        .success();
    let csv2 = std::fs::read_to_string(out.join("comparisons.csv")).unwrap();
    assert!(csv2.lines().any(|l| l.starts_with("war variant=standard players=3,") && l.ends_with(",none")));
    assert!(csv2.lines().any(|l| l.starts_with("war variant=peace players=2,") && l.ends_with(",paired")));
}

#[test]
fn an_unknown_baseline_is_bad_input_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let a = warsim()
        .args(["run", "war", "--games", "10", "--baseline", "variant=nonesuch", "-q", "--out"])
        .arg(&out)
        .assert()
        .code(2);
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert!(err.contains("matches no scenario point"), "{err}");
    assert!(!out.exists());
    warsim().arg("compare").arg(dir.path().join("missing")).args(["--baseline", "x"]).assert().code(2);
}

#[test]
fn a_scenario_names_its_baseline_and_compare_works_after_the_file_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pick.toml");
    std::fs::write(
        &file,
        "name = \"pick\"\ngames = 300\nseed = 9\nbaseline = \"variant=standard\"\n[[run]]\ngame = \"war\"\nsweep = { variant = [\"standard\", \"aces-low\"] }\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    warsim().arg("run").arg(&file).arg("-q").arg("--out").arg(&out).assert().success();
    let csv = std::fs::read_to_string(out.join("comparisons.csv")).unwrap();
    assert!(csv.contains("war variant=aces-low,war variant=standard,length_mean,300,"), "{csv}");
    std::fs::remove_file(&file).unwrap();
    std::fs::remove_file(out.join("comparisons.csv")).unwrap();
    warsim().arg("compare").arg(&out).args(["--baseline", "variant=standard", "-q"]).assert().success();
    assert_eq!(std::fs::read_to_string(out.join("comparisons.csv")).unwrap(), csv);
    // On the first games only: the same comparisons over fewer games.
    warsim()
        .arg("compare")
        .arg(&out)
        .args(["--baseline", "variant=standard", "--games", "100", "-q"])
        .assert()
        .success();
    let few = std::fs::read_to_string(out.join("comparisons.csv")).unwrap();
    assert!(few.contains("war variant=aces-low,war variant=standard,length_mean,100,"), "{few}");
}
