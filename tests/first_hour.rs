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
    says(&["run"], &["not provided: <TARGET>", "warsim run --help"]);
    says(&["play"], &["<TARGET>", "warsim play --help"]);
    says(&["merge", "a"], &["--out <OUT>", "warsim merge --help"]);
    says(&["compare", "x"], &["--baseline <BASELINE>"]);
    says(&["run", "war", "--game", "5"], &["'--game'", "a similar argument exists: '--games'"]);
    says(&["run", "war", "--sweep", "players=2..4"], &["players=2,3,4"]);
    says(
        &["run", "war", "--set", "variant=peace", "--set", "variant=jokers"],
        &["given twice", "variant=A+B"],
    );
    says(&["run", "war", "--games", "lots"], &["not a whole number", "1_000_000 or 1e6"]);
    // Bare `warsim`: the usage first, then the one line.
    let out = warsim().output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("Usage: warsim") && err.trim_end().ends_with("list, cards or completions"), "{err}");
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
