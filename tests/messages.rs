//! The messages a newcomer meets first: a target that is misspelt, missing or absent, a flag given
//! a negative number or belonging to another command, a `--set` or `--sweep` that would silently
//! change what a scenario asks for, and `list` of a scenario's points. Each bad input is one line,
//! exit code 2, and names what is near or allowed. Run from the repository, as a user would.

mod binary;

use binary::warsim;

/// Runs warsim with `args`, expecting exit 2, one line on stderr (returned), nothing on stdout.
fn rejects(args: &[&str], needles: &[&str]) -> String {
    let out = warsim().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: one line expected, got: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    for needle in needles {
        assert!(err.contains(needle), "{args:?}: '{needle}' not in: {err}");
    }
    err
}

#[test]
fn a_path_that_names_no_file_says_so_and_names_the_nearest_scenario_or_game() {
    rejects(
        &["run", "scenarios/war-variant"],
        &[
            "scenario file 'scenarios/war-variant' does not exist",
            "did you mean the scenario file 'scenarios/war-variants.toml'?",
        ],
    );
    rejects(&["play", "scenarios/war-pickp.toml"], &["does not exist", "'scenarios/war-pickup.toml'?"]);
    rejects(&["run", "war.toml"], &["'war.toml' does not exist", "did you mean the game 'war'?"]);
    let far =
        rejects(&["run", "scenarios/zzzzzzzzzz.toml"], &["does not exist", "nothing has a name near it"]);
    assert!(!far.contains("did you mean"), "no guess when nothing is near: {far}");
    rejects(
        &["run", "scenarios"],
        &["'scenarios' is a folder, not a scenario file", "cardwars-balance.toml", "and 7 more)"],
    );
}

#[test]
fn a_bare_word_that_is_neither_game_nor_file_gets_the_nearest_name() {
    rejects(&["run", "war-variants"], &["unknown game 'war-variants'", "'scenarios/war-variants.toml'?"]);
    rejects(
        &["run", "slts"],
        &["unknown game 'slts'", "did you mean the game 'slots'?", "`warsim list` names the games"],
    );
    rejects(
        &["run", "zzzzzzzz"],
        &["unknown game 'zzzzzzzz'", "nothing has a name near it", "games: war, scourge"],
    );
    rejects(&["list", "scourg"], &["did you mean the game 'scourge'?"]);
}

#[test]
fn a_missing_card_file_names_the_nearest_card_set() {
    rejects(
        &["run", "slots", "--set", "cards=sample"],
        &["file 'sample'", "does not exist", "did you mean 'scenarios/cards/sample.toml'?"],
    );
    rejects(
        &["run", "slots", "--set", "cards=scenarios/cards/imbalanse.toml"],
        &["does not exist", "did you mean 'scenarios/cards/imbalance.toml'?"],
    );
}

#[test]
fn run_without_a_target_says_what_a_target_is_and_lists_them() {
    for command in ["run", "play"] {
        rejects(
            &[command],
            &[
                "a scenario file or a game name",
                "games: war, scourge, territories, cardwars, slots",
                "war-pickup.toml",
            ],
        );
    }
}

#[test]
fn a_negative_number_after_a_flag_says_what_the_flag_takes() {
    // No flag takes a negative number: the line says what it takes, not how to pass -5 on.
    let err = rejects(
        &["run", "war", "--games", "-5"],
        &["--games takes a whole number from 0", "not a negative number"],
    );
    assert!(!err.contains("'-- -5'") && !err.contains("--games=-5"), "{err}");
    rejects(&["run", "war", "--games=-5"], &["--games -5: it is not a whole number"]);
    rejects(
        &["run", "war", "--point-index", "2"],
        &["'--point-index' is a flag of `warsim play`, not of `warsim run`"],
    );
}

#[test]
fn set_on_a_swept_key_and_an_empty_sweep_item_are_refused() {
    rejects(
        &["run", "scenarios/war-variants.toml", "--set", "variant=peace"],
        &["the scenario sweeps 'variant' over 9 values", "use --sweep variant=peace"],
    );
    rejects(
        &["run", "scenarios/war-pickup.toml", "--set", "pickup=shuffled"],
        &["the scenario sweeps 'pickup' over shuffled, seat-order, winner-first, loser-first"],
    );
    rejects(&["run", "war", "--sweep", "players=2,,3"], &["value 2 of 3 is empty"]);
    rejects(&["run", "war", "--sweep", "players=2,3,"], &["value 3 of 3 is empty"]);
}

#[test]
fn a_game_names_itself_once_in_its_errors() {
    let err = rejects(&["run", "slots", "--set", "policies=foo"], &["unknown policy 'foo'"]);
    assert_eq!(err.matches("slots:").count(), 1, "{err}");
}

#[test]
fn a_baseline_that_matches_nothing_gets_a_short_line() {
    let err = rejects(
        &["run", "scenarios/war-variants.toml", "--baseline", "variant=nope"],
        &["matches no scenario point", "players=2|3|4"],
    );
    assert!(err.len() < 400, "{} characters: {err}", err.len());
}

#[test]
fn list_of_a_scenario_prints_every_point_with_its_index() {
    let out = warsim().args(["list", "scenarios/war-variants.toml"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    assert!(lines.next().unwrap().contains("32 points"), "{text}");
    let points: Vec<&str> = lines.collect();
    assert_eq!(points.len(), 32, "{text}");
    assert_eq!(points[0].trim(), "0  war variant=standard players=2");
    assert!(points[31].trim_start().starts_with("31  war "), "{text}");
    // The index is the one `play --point-index` takes, from 0: point 1 is the standard game for 3
    // players.
    let play = warsim().args(["play", "scenarios/war-variants.toml", "--point-index", "1"]).output().unwrap();
    assert!(String::from_utf8_lossy(&play.stdout).starts_with("war variant=standard players=3 —"));
    let listed = warsim().args(["list"]).output().unwrap();
    assert!(String::from_utf8_lossy(&listed.stdout).contains("scenarios/war-pickup.toml"));
}

#[test]
fn playing_only_holders_games_is_refused_outside_a_tournament_impact() {
    rejects(
        &["run", "slots", "--set", "impact_games=holders", "--games", "10"],
        &["impact_games=holders measures designs in tournaments", "event=tournament and impact=cards"],
    );
}

#[test]
fn a_share_goal_out_of_a_shares_range_names_both_ways_to_write_it() {
    rejects(
        &["tune", "cardwars", "--goal", "first_player_win_share=50", "--vary", "second_extra_life=0..12"],
        &["first_player_win_share is a share, between 0 and 1: write 0.5 or 50%"],
    );
}
