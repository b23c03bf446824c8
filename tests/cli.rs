//! End-to-end tests of the `warsim` binary: the commands as a user types them and bad input. That
//! every game's output is the same for any thread count is part of the conformance test of every
//! game (`tests/games.rs`).

mod binary;

use std::path::Path;

use binary::warsim;

/// Runs warsim with `args`, expecting exit 2, one line on stderr, nothing on stdout.
fn rejects(args: &[&str], needle: &str) {
    let out = warsim().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: one line expected, got: {err}");
    assert!(err.contains(needle), "{args:?}: '{needle}' not in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

fn files_in(dir: &Path) -> Vec<String> {
    match std::fs::read_dir(dir) {
        Ok(rd) => rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn bad_input_is_one_line_exit_two_and_leaves_no_files() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = out.to_str().unwrap();
    rejects(&["run", "wat", "--out", o], "unknown game 'wat'");
    rejects(&["run", "war", "--set", "playrs=3", "--out", o], "unknown setting 'playrs'");
    rejects(&["run", "war", "--set", "players=11", "--out", o], "allowed: an integer from 2 to 10");
    rejects(&["run", "war", "--set", "pickup=random", "--out", o], "allowed: shuffled, winner-first");
    rejects(&["run", "war", "--set", "variant=piece", "--out", o], "unknown variant 'piece'");
    rejects(&["run", "war", "--set", "variant=lesser-spoils+peace", "--out", o], "conflict");
    rejects(&["run", "war", "--set", "jokers=equal", "--set", "players=3", "--out", o], "at most 2 players");
    rejects(&["run", "scourge", "--set", "players=3", "--out", o], "'players' (allowed: 2, 4, 6)");
    rejects(&["run", "scourge", "--sweep", "players=4,5", "--out", o], "'players' (allowed: 2, 4, 6)");
    rejects(&["run", "war", "--games", "0", "--out", o], "--games must be at least 1");
    rejects(
        &["run", "war", "--threads", "0", "--out", o],
        "--threads 0: give a number of worker threads from 1 to 1024",
    );
    rejects(&["run", "war", "--gmes", "10", "--out", o], "--gmes");
    rejects(&["run", "war", "--set", "players", "--out", o], "KEY=VALUE");
    rejects(&["run", "war", "--sweep", "players=", "--out", o], "has no values");
    rejects(&["list", "wat"], "unknown game");
    let bad = tmp.path().join("bad.toml");
    std::fs::write(&bad, "name = \"x\"\n[[run]]\ngame = \"war\"\nset = { players = 3 \n").unwrap();
    rejects(&["run", bad.to_str().unwrap(), "--out", o], "bad.toml:4");
    std::fs::write(&bad, "name = \"x\"\n[[run]]\ngame = \"war\"\nsweeep = { players = [3] }\n").unwrap();
    rejects(&["run", bad.to_str().unwrap(), "--out", o], "bad.toml:4:1");
    std::fs::write(&bad, "[[run]]\ngame = \"war\"\nsweep = { players = 3 }\n").unwrap();
    rejects(&["run", bad.to_str().unwrap(), "--out", o], "must be a list");
    rejects(
        &["run", tmp.path().join("missing.toml").to_str().unwrap(), "--out", o],
        "missing.toml' does not exist",
    );
    assert!(!out.exists(), "bad input must not create the output folder");
    // An output folder that cannot be written: a file in its place, or under a file.
    let file = tmp.path().join("plain-file");
    std::fs::write(&file, "x").unwrap();
    rejects(
        &["run", "war", "--games", "10", "--out", file.to_str().unwrap()],
        "cannot write to output folder",
    );
    let under = file.join("sub");
    rejects(
        &["run", "war", "--games", "10", "--out", under.to_str().unwrap()],
        "cannot write to output folder",
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
}

#[test]
fn a_bad_line_up_names_its_game_once() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tmp.path().join("out");
    for game in ["territories", "cardwars"] {
        let args = ["run", game, "--set", "policies=smart", "--out", o.to_str().unwrap()];
        rejects(&args, &format!("command line: {game}: unknown policy 'smart' (policies: random, "));
        let err = String::from_utf8_lossy(&warsim().args(args).output().unwrap().stderr).into_owned();
        assert_eq!(err.matches(game).count(), 1, "{err}");
    }
}

#[test]
fn run_writes_every_contract_file_with_the_contract_headers() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    let o = warsim()
        .args(["run", "war", "--games", "3000", "--quiet", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("mean length") && stdout.contains("3,000 games"), "{stdout}");
    let header = |f: &str| std::fs::read_to_string(out.join(f)).unwrap().lines().next().unwrap().to_string();
    assert!(header("summary.csv").starts_with("scenario,game,variant,players,decks,"));
    assert!(header("summary.csv").contains(",games,length_unit,length_mean,length_sd,length_ci95_low,length_ci95_high,length_min,length_p50,length_p90,length_p99,length_max,win_rate,draw_rate,cycle_rate,capped_rate"));
    assert!(
        header("outcomes.csv")
            .starts_with("scenario,outcome,seat,team,policy,count,games,rate,ci95_low,ci95_high")
    );
    assert!(header("events.csv").starts_with(
        "scenario,event,total,mean_per_game,mean_ci95_low,mean_ci95_high,games_with,share_of_games,ci95_low,ci95_high,example_games"
    ));
    assert_eq!(header("lengths.csv"), "scenario,length,count");
    assert_eq!(header("distributions.csv"), "scenario,metric,value,count");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["games"], 3000);
    assert_eq!(manifest["seed"], 1);
    let leftovers: Vec<String> = files_in(&out).into_iter().filter(|f| f.ends_with(".tmp")).collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn play_tells_the_game_that_run_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("p");
    warsim()
        .args([
            "run",
            "war",
            "--set",
            "pickup=seat-order",
            "--games",
            "400",
            "--seed",
            "9",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ])
        .assert()
        .success();
    let outcomes = std::fs::read_to_string(out.join("outcomes.csv")).unwrap();
    // For each outcome, the first example game's narrative ends that way.
    for line in outcomes.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        let (outcome, seat, examples) = (cols[1], cols[2], cols[10]);
        let Some(game) = examples.split(' ').find(|s| !s.is_empty()) else { continue };
        let o = warsim()
            .args(["play", "war", "--set", "pickup=seat-order", "--seed", "9", "--game-index", game])
            .output()
            .unwrap();
        assert!(o.status.success());
        let text = String::from_utf8_lossy(&o.stdout);
        let expect = match outcome {
            "win" => format!("P{seat} wins after"),
            "cycle" => "Cycle: the position after battle".to_string(),
            "draw" => "Draw after".to_string(),
            _ => "Capped".to_string(),
        };
        assert!(text.contains(&expect), "game {game}: expected '{expect}' in:\n{text}");
    }
    // A game's length in the narrative equals a length the run recorded.
    let o = warsim().args(["play", "war", "--seed", "9", "--game-index", "0"]).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Battle 1:") && text.contains("Deal: 2 players, 52 cards in play"), "{text}");
}

#[test]
fn list_shows_settings_defaults_allowed_values_and_variants() {
    let o = warsim().args(["list", "war"]).output().unwrap();
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for needle in
        ["war_down", "default 3", "by-value", "pickup", "seat-order", "peace", "winner=low war_down=5"]
    {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
    let o = warsim().arg("list").output().unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("war"));
}

#[test]
fn shipped_scenarios_are_valid() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let tmp = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            // Two games per point is enough to prove the file parses, validates and runs.
            let out = tmp.path().join(path.file_stem().unwrap());
            let o = warsim()
                .args(["run", path.to_str().unwrap(), "--games", "2", "-q", "--out", out.to_str().unwrap()])
                .output()
                .unwrap();
            assert!(o.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&o.stderr));
        }
    }
}

#[test]
fn sweeps_make_one_summary_row_per_point_with_a_column_per_setting() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("s");
    warsim()
        .args([
            "run",
            "war",
            "--sweep",
            "variant=standard,peace",
            "--sweep",
            "players=2,3",
            "--games",
            "500",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ])
        .assert()
        .success();
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let rows: Vec<&str> = summary.lines().collect();
    assert_eq!(rows.len(), 5);
    assert!(rows[1].starts_with("war variant=standard players=2,war,standard,2,"), "{}", rows[1]);
    assert!(rows[4].starts_with("war variant=peace players=3,war,peace,3,"), "{}", rows[4]);
}
