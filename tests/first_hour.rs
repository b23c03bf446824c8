//! The first hour of a new user: the messages of common mistakes (each one line naming what is
//! wrong and what to do), counts written as people write them, a precision target that was not
//! reached, shell completions that know the games and settings, and names spelt as the user likes.

use assert_cmd::cargo::cargo_bin_cmd;

fn warsim() -> assert_cmd::Command {
    cargo_bin_cmd!("warsim")
}

/// Runs warsim expecting exit 2 and a last stderr line containing every one of `needles`.
fn says(args: &[&str], needles: &[&str]) -> String {
    let out = warsim().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    let last = err.trim_end().lines().last().unwrap_or("").to_string();
    for n in needles {
        assert!(last.contains(n), "{args:?}: '{n}' not in: {last}");
    }
    last
}

#[test]
fn mistakes_get_one_line_naming_the_problem_and_the_way_out() {
    says(&["run"], &["a scenario file or a game name", "warsim run --help"]);
    says(&["play"], &["a scenario file or a game name", "warsim play --help"]);
    says(&["merge", "a"], &["--out <OUT>", "warsim merge --help"]);
    says(&["compare", "x"], &["--baseline <BASELINE>"]);
    says(&["run", "war", "--game", "5"], &["'--game'", "a similar argument exists: '--games'"]);
    says(&["run", "war", "--sweep", "players=4..2"], &["--sweep 'players=4..2'", "LO <= HI"]);
    says(&["run", "war", "--sweep", "players=2-4"], &["write ranges as 2..4"]);
    says(
        &["run", "war", "--set", "variant=peace", "--set", "variant=jokers"],
        &["given twice", "variant=A+B"],
    );
    says(&["run", "war", "--games", "lots"], &["not a whole number", "1_000_000 or 1e6"]);
    // Bare `warsim`: the usage first, then the one line.
    let out = warsim().output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("Usage: warsim") && err.trim_end().ends_with("cards or completions"), "{err}");
}

#[test]
fn counts_are_read_as_people_write_them() {
    let tmp = tempfile::tempdir().unwrap();
    for (games, n) in [("1_000", "1,000 games"), ("1e3", "1,000 games"), ("2,000", "2,000 games")] {
        let out =
            warsim().args(["run", "war", "--games", games, "-q", "--out"]).arg(tmp.path()).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && text.contains(&format!("{n} in ")), "{games}: {text}");
    }
}

#[test]
fn an_unreached_precision_target_is_said() {
    let tmp = tempfile::tempdir().unwrap();
    let out = warsim()
        .args(["run", "war", "--until", "length_mean:0.5", "--games", "100", "-q", "--out"])
        .arg(tmp.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("warning: --until length_mean:0.5 not reached for 1 of 1 point"), "{text}");
    // The interval the rule ended on is said, named as what it is.
    assert!(text.contains("--until length_mean:0.5: stopped after 100 games on length_mean"), "{text}");
    assert!(text.contains("(95% confidence sequence: valid at every look)"), "{text}");
}

#[test]
fn completions_know_games_settings_and_values() {
    let out = warsim().args(["completions", "bash"]).output().unwrap();
    let script = String::from_utf8_lossy(&out.stdout);
    for word in ["pickup=seat-order", "variant=peace", "policies=", "territories", "scourge"] {
        assert!(script.contains(word), "{word} not offered");
    }
}

#[test]
fn names_are_the_games_own_and_examples_are_the_games_own() {
    let tmp = tempfile::tempdir().unwrap();
    warsim().current_dir(tmp.path()).args(["run", "War", "--games", "10", "-q"]).assert().success();
    assert!(tmp.path().join("results/war/summary.csv").exists());
    let war = String::from_utf8(warsim().args(["list", "war"]).output().unwrap().stdout).unwrap();
    assert!(war.contains("combine with +, e.g. lesser-spoils+jokers"), "{war}");
    let scourge = String::from_utf8(warsim().args(["list", "scourge"]).output().unwrap().stdout).unwrap();
    assert!(!scourge.contains("peace") && !scourge.contains("e.g. peace+jokers"), "{scourge}");
}

/// Decision games write what each policy's decisions cost, outside the byte-identical files.
#[test]
fn decision_costs_go_to_timings_csv() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("t");
    warsim()
        .args(["run", "territories", "--set", "policies=search,random", "--set", "search_budget=10"])
        .args(["--games", "40", "-q", "--out"])
        .arg(&out)
        .assert()
        .success();
    let text = std::fs::read_to_string(out.join("timings.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("scenario,policy,decisions_timed,p50_ns,p90_ns,p99_ns,max_ns"));
    // The label is quoted (it holds commas): read the policy and the five numbers from the right.
    let row = lines.find(|l| l.contains(",search,")).expect("a search row");
    let search: Vec<&str> = row.rsplitn(6, ',').collect();
    let n = |i: usize| search[i].parse::<u64>().unwrap();
    assert!(n(4) > 40, "every search decision is timed: {row}");
    assert!(n(3) <= n(2) && n(2) <= n(1) && n(1) <= n(0), "quantiles in order: {row}");
    // War makes no decisions: no timings.csv.
    let war = tmp.path().join("w");
    warsim().args(["run", "war", "--games", "100", "-q", "--out"]).arg(&war).assert().success();
    assert!(!war.join("timings.csv").exists());
}

/// The messages of issue 34's list: each names the fix in one line, exit code 2.
#[test]
fn messages_name_the_fix() {
    says(
        &["tune", "cardwars", "--vary", "second_extra_life=0..3", "--goal", "first_player_win=0.5"],
        &["'first_player_win'", "did you mean 'first_player_win_share'?"],
    );
    says(
        &["tune", "cardwars", "--vary", "second_extra_life=0..3", "--goal", "length_mean=50%"],
        &["a percentage is a share's goal", "length_mean is not a share"],
    );
    says(
        &["tune", "cardwars", "--vary", "second_extra_life=0-12", "--goal", "first_player_win_share=0.5"],
        &["--vary 'second_extra_life=0-12'", "write ranges as 0..12"],
    );
    says(
        &["run", "war", "--set", "variant=peace,jokers"],
        &["combine variants with +: variant=peace+jokers"],
    );
    says(
        &["run", "scenarios/cards/sample.toml"],
        &["is a card set, not a scenario", "warsim run slots --set cards=scenarios/cards/sample.toml"],
    );
    says(&["play", "war", "--point-index", "1"], &["(0 to 0;", "--point-index counts from 0"]);
    says(&["play", "scenarios/war-variants.toml", "--point-index", "40"], &["(0 to 31;"]);
}

/// A goal in percent is read as the share it means; a sweep takes a range as `--vary` does.
#[test]
fn percent_goals_and_swept_ranges_are_read() {
    let tmp = tempfile::tempdir().unwrap();
    let out = warsim()
        .args([
            "tune",
            "cardwars",
            "--vary",
            "second_extra_life=0..1",
            "--goal",
            "first_player_win_share=50%",
        ])
        .args(["--games", "2000", "-q", "--out"])
        .arg(tmp.path().join("t"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = warsim()
        .args(["run", "war", "--sweep", "players=2..4", "--games", "20", "-q", "--out"])
        .arg(tmp.path().join("r"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = std::fs::read_to_string(tmp.path().join("r/summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 4, "{summary}");
}

/// A default output folder holding another command's run is kept: the run picks the next free
/// name and says so; the same command again reuses its own folder.
#[test]
fn a_default_folder_is_never_given_to_another_command() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |games: &str| {
        let out =
            warsim().current_dir(tmp.path()).args(["run", "war", "--games", games, "-q"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (first, _) = run("20");
    assert!(
        first.contains("files in results/war\n") || first.trim_end().ends_with("files in results/war"),
        "{first}"
    );
    let (again, note) = run("20");
    assert!(again.trim_end().ends_with("files in results/war") && note.is_empty(), "{again}{note}");
    let (other, note) = run("30");
    assert!(other.trim_end().ends_with("files in results/war-2"), "{other}");
    assert!(
        note.contains("results/war holds another command's run") && note.contains("results/war-2"),
        "{note}"
    );
    let summary = std::fs::read_to_string(tmp.path().join("results/war/summary.csv")).unwrap();
    assert!(summary.contains(",20,"), "the first run's files are kept: {summary}");
}
