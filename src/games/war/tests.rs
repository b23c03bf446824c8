//! War's rule tests: hand-written deals that make each rule fire (a specific state, one battle,
//! then assertions), random combinations of settings, and statistical checks against exact
//! answers. Every card accounted for, games that end, the narrative playing the game `play` plays
//! and reproducible runs are checked for every game by the conformance test (`tests/games.rs`).

use super::rules::{Board, End, counter};
use super::setup::WarRules;
use super::{PRESETS, SETTINGS, WarEngine};
use crate::games::narrate::Silent;
use crate::games::{Engine, Point};
use crate::record::GameRecord;
use crate::seed::{GameRng, GameSeed};
use crate::settings::resolve;
use crate::stats::{mean_interval, wilson};

fn rules(sets: &[(&str, &str)]) -> WarRules {
    let pairs: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let s = resolve("war", SETTINGS, PRESETS, &Default::default(), &pairs).expect("valid settings");
    WarRules::from_settings(&s).expect("possible settings")
}

fn try_rules(sets: &[(&str, &str)]) -> Result<WarRules, String> {
    let pairs: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let s = resolve("war", SETTINGS, PRESETS, &Default::default(), &pairs).map_err(|e| e.0)?;
    WarRules::from_settings(&s)
}

/// Strength of a card label under these rules.
fn card(r: &WarRules, label: &str) -> u8 {
    r.strength(r.shape.parse_rank(label).unwrap_or_else(|| panic!("no card {label}")))
}

/// A board dealt by hand: one space-separated list of labels per seat, top first.
fn board(r: &WarRules, stacks: &[&str]) -> Board {
    let hands: Vec<Vec<u8>> =
        stacks.iter().map(|s| s.split_whitespace().map(|c| card(r, c)).collect()).collect();
    let mut b = Board::new(r);
    b.setup(&hands);
    b
}

fn stack(r: &WarRules, b: &Board, seat: usize) -> String {
    b.table.stack(seat).map(|c| r.labels[c as usize].clone()).collect::<Vec<_>>().join(" ")
}

/// A cleared record sized for War's layout.
fn record() -> GameRecord {
    GameRecord::new(crate::games::Engine::layout(&WarEngine::new(rules(&[]))))
}

/// Plays one battle with a fixed generator and returns (end, record).
fn one_battle(r: &WarRules, b: &mut Board) -> (Option<End>, GameRecord) {
    let mut rng = GameRng::new(7);
    let mut rec = record();
    let end = b.battle(r, &mut rng, &mut rec, &mut Silent);
    (end, rec)
}

const SEAT_ORDER: (&str, &str) = ("pickup", "seat-order");

#[test]
fn plain_battle_higher_card_takes_both() {
    let r = rules(&[SEAT_ORDER]);
    let mut b = board(&r, &["9 4", "10 5"]);
    let (end, rec) = one_battle(&r, &mut b);
    assert_eq!(end, None);
    assert_eq!(stack(&r, &b, 0), "4");
    assert_eq!(stack(&r, &b, 1), "5 9 10", "seat order: P0's 9 then P1's 10");
    assert_eq!(rec.counters[counter::WARS], 0);
}

#[test]
fn war_lays_three_down_and_one_up_and_takes_ten() {
    let r = rules(&[SEAT_ORDER]);
    let mut b = board(&r, &["5 2 3 4 K 7", "5 6 7 8 Q 9"]);
    let (end, rec) = one_battle(&r, &mut b);
    assert_eq!(end, None);
    assert_eq!(stack(&r, &b, 0), "7 5 5 2 3 4 6 7 8 K Q", "layer by layer, seats in order");
    assert_eq!(stack(&r, &b, 1), "9");
    assert_eq!((rec.counters[counter::WARS], rec.counters[counter::DOUBLE_WARS]), (1, 0));
    assert_eq!(rec.counters[counter::MAX_WAR_DEPTH], 1);
}

#[test]
fn double_war_counts_once_and_depth_two() {
    let r = rules(&[SEAT_ORDER]);
    let mut b = board(&r, &["5 2 2 2 J 3 3 3 A 4", "5 6 6 6 J 7 7 7 K 8"]);
    let (_, rec) = one_battle(&r, &mut b);
    assert_eq!(stack(&r, &b, 0).split(' ').count(), 1 + 18);
    assert_eq!(stack(&r, &b, 1), "8");
    assert_eq!(rec.counters[counter::WARS], 2);
    assert_eq!(rec.counters[counter::DOUBLE_WARS], 1);
    assert_eq!(rec.counters[counter::MAX_WAR_DEPTH], 2);
}

#[test]
fn player_short_of_cards_in_a_war_loses() {
    let r = rules(&[]);
    let mut b = board(&r, &["5 2 3", "5 6 7 8 Q 9"]);
    let (end, rec) = one_battle(&r, &mut b);
    assert_eq!(end, Some(End::Win(1)));
    assert_eq!(rec.counters[counter::WARS], 1, "the tie is declared even though P0 cannot lay it");
    assert_eq!(rec.counters[counter::SHORT_IN_WAR], 1);
    assert_eq!(b.table.total(), 9, "the short player's cards join the winner's spoils");
}

#[test]
fn both_players_short_in_one_war_is_a_draw() {
    let r = rules(&[]);
    let mut b = board(&r, &["5 2 3", "5 6"]);
    let (end, rec) = one_battle(&r, &mut b);
    assert_eq!(end, Some(End::Draw));
    assert_eq!(rec.counters[counter::SPOILS_REMOVED], 1);
    assert_eq!(rec.counters[counter::CARDS_REMOVED], 5);
}

#[test]
fn each_deterministic_pickup_order() {
    // P1 wins a war; the spoils are laid as: first cards, face-down, face-up.
    let deal = ["5 2 3 4 Q", "5 6 7 8 K"];
    for (pickup, expected) in [
        ("seat-order", "5 5 2 3 4 6 7 8 Q K"),
        ("winner-first", "5 5 6 7 8 2 3 4 K Q"),
        ("loser-first", "5 5 2 3 4 6 7 8 Q K"),
    ] {
        let r = rules(&[("pickup", pickup)]);
        let mut b = board(&r, &deal);
        one_battle(&r, &mut b);
        assert_eq!(stack(&r, &b, 1), expected, "{pickup}");
    }
    // When seat 0 wins, seat order and loser-first differ.
    for (pickup, expected) in [("seat-order", "9 K Q"), ("winner-first", "9 K Q"), ("loser-first", "9 Q K")] {
        let r = rules(&[("pickup", pickup)]);
        let mut b = board(&r, &["K 9", "Q 2"]);
        one_battle(&r, &mut b);
        assert_eq!(stack(&r, &b, 0), expected, "{pickup}");
    }
}

#[test]
fn shuffled_pickup_keeps_the_cards() {
    let r = rules(&[]);
    let mut b = board(&r, &["5 2 3 4 Q", "5 6 7 8 K"]);
    one_battle(&r, &mut b);
    let mut got: Vec<String> = stack(&r, &b, 1).split(' ').map(String::from).collect();
    got.sort();
    let mut want: Vec<String> = "5 5 2 3 4 6 7 8 Q K".split(' ').map(String::from).collect();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn a_deal_that_cycles_is_detected_with_its_period() {
    // K v 2: P0 takes [K 2]; then 2 v K: P1 takes [2 K]; the start position is back after 2.
    let r = rules(&[SEAT_ORDER]);
    let engine = WarEngine::new(r.clone());
    let mut sc = engine.new_scratch();
    let b = board(&r, &["K 2", "2 K"]);
    sc.board_mut().setup_from(&b.table);
    let mut rec = record();
    let end = engine.run_from_board(&mut sc, &mut rec);
    assert_eq!(end, End::Cycle { period: 2 });
    assert_eq!(sc.board_mut().battles, 2);
}

#[test]
fn cycle_length_is_transient_plus_period_against_brute_force() {
    // Small decks with deterministic pickup cycle often: compare with a naive search that stores
    // every position.
    for pickup in ["seat-order", "winner-first", "loser-first"] {
        for seed in 0..300u64 {
            let r = rules(&[("pickup", pickup), ("ranks", "5"), ("suits", "2"), ("war_down", "1")]);
            let engine = WarEngine::new(r.clone());
            let rec = engine.play_one(GameSeed::new(seed, 0));
            // Brute force: replay and remember every position.
            let mut sc = engine.new_scratch();
            let mut rng = engine.deal_for_test(GameSeed::new(seed, 0), &mut sc);
            let mut seen = vec![sc.board_mut().table.clone()];
            let mut spare = record();
            let expected = loop {
                match sc.board_mut().battle(&r, &mut rng, &mut spare, &mut Silent) {
                    Some(End::Win(s)) => break (s as u16, sc.board_mut().battles),
                    Some(End::Draw) => break (2, sc.board_mut().battles),
                    Some(_) => unreachable!(),
                    None => {
                        let now = sc.board_mut().table.clone();
                        if seen.iter().any(|t| t.same_state(&now)) {
                            break (3, sc.board_mut().battles);
                        }
                        seen.push(now);
                    }
                }
            };
            assert_eq!((rec.outcome, rec.length), expected, "{pickup} seed {seed}");
        }
    }
}

#[test]
fn three_players_all_join_a_war_and_a_short_player_drops_out() {
    // P0 and P1 tie with kings; under war_scope = all P2 joins, cannot lay 4 cards and is out.
    let r = rules(&[("players", "3"), SEAT_ORDER]);
    let mut b = board(&r, &["K 2 2 2 A 3", "K 4 4 4 Q 5", "9 6 6"]);
    let (end, rec) = one_battle(&r, &mut b);
    assert_eq!(end, None);
    assert_eq!(rec.counters[counter::SHORT_IN_WAR], 1);
    assert_eq!(rec.counters[counter::PLAYERS_OUT], 1);
    assert_eq!(b.table.len(2), 0);
    assert_eq!(b.alive(), &[0, 1]);
    // P0 wins with the ace: first layer K K 9, then down 2 2 2 | 4 4 4 | 6 6, then up A Q.
    assert_eq!(stack(&r, &b, 0), "3 K K 9 2 2 2 4 4 4 6 6 A Q");
}

#[test]
fn limited_engagement_leaves_untied_players_out_of_the_war() {
    let r = rules(&[("players", "3"), ("war_scope", "tied"), SEAT_ORDER]);
    let mut b = board(&r, &["K 2 2 2 A 3", "K 4 4 4 Q 5", "9 6 6"]);
    let (_, rec) = one_battle(&r, &mut b);
    assert_eq!(rec.counters[counter::SHORT_IN_WAR], 0);
    assert_eq!(stack(&r, &b, 2), "6 6");
    assert_eq!(stack(&r, &b, 0), "3 K K 9 2 2 2 4 4 4 A Q");
}

#[test]
fn scope_all_compares_untied_players_face_up_cards_too() {
    // P2 was not tied but joins the war and wins it with its face-up ace.
    let r = rules(&[("players", "3"), SEAT_ORDER]);
    let mut b = board(&r, &["K 2 2 2 3 3", "K 4 4 4 5 5", "9 6 6 6 A 7"]);
    one_battle(&r, &mut b);
    assert_eq!(stack(&r, &b, 2), "7 K K 9 2 2 2 4 4 4 6 6 6 3 5 A");
}

#[test]
fn only_one_player_able_takes_the_spoils_without_laying() {
    let r = rules(&[("players", "3"), ("war_scope", "tied"), SEAT_ORDER]);
    let mut b = board(&r, &["K 2", "K 4 4 4 Q 5", "9 6"]);
    let (end, rec) = one_battle(&r, &mut b);
    assert_eq!(end, None);
    assert_eq!(stack(&r, &b, 1), "4 4 4 Q 5 K K 9 2", "P1 lays nothing and takes first cards + P0's stack");
    assert_eq!(rec.counters[counter::PLAYERS_OUT], 1);
}

#[test]
fn nobody_able_removes_the_spoils_and_play_goes_on() {
    let r = rules(&[("players", "3"), ("war_scope", "tied"), SEAT_ORDER]);
    let mut b = board(&r, &["K 2", "K 4", "9 6"]);
    let (end, rec) = one_battle(&r, &mut b);
    assert_eq!(end, Some(End::Win(2)), "P2 is the last player holding cards");
    assert_eq!(rec.counters[counter::SPOILS_REMOVED], 1);
    assert_eq!(rec.counters[counter::CARDS_REMOVED], 5);
}

#[test]
fn last_ditch_lays_what_it_has_with_the_last_card_up() {
    let r = rules(&[("short", "last-ditch"), SEAT_ORDER]);
    let mut b = board(&r, &["5 2 A", "5 6 7 8 Q 9"]);
    let (end, rec) = one_battle(&r, &mut b);
    assert_eq!(end, None);
    assert_eq!(rec.counters[counter::SHORT_IN_WAR], 1);
    assert_eq!(stack(&r, &b, 0), "5 5 2 6 7 8 A Q", "P0's last card, an ace, wins the war");
    assert_eq!(stack(&r, &b, 1), "9");
}

#[test]
fn last_ditch_with_no_card_left_keeps_the_face_up_card() {
    // P0 ties with its last card: it keeps its 5 as its card; P1's face-up 4 loses to it.
    let r = rules(&[("short", "last-ditch"), SEAT_ORDER]);
    let mut b = board(&r, &["5", "5 6 7 8 4 9"]);
    let (end, rec) = one_battle(&r, &mut b);
    assert_eq!(end, None);
    assert_eq!(rec.counters[counter::LAST_DITCH_STANDS], 1);
    assert_eq!(stack(&r, &b, 0), "5 5 6 7 8 4");
}

#[test]
fn last_ditch_with_both_out_of_cards_removes_the_spoils_and_draws() {
    let r = rules(&[("short", "last-ditch")]);
    let mut b = board(&r, &["5", "5"]);
    let (end, rec) = one_battle(&r, &mut b);
    assert_eq!(end, Some(End::Draw));
    assert_eq!(rec.counters[counter::SPOILS_REMOVED], 1);
    assert_eq!(rec.counters[counter::CARDS_REMOVED], 2);
}

#[test]
fn instant_war_kills_the_losing_card() {
    let r = rules(&[("variant", "instant-war"), SEAT_ORDER]);
    let mut b = board(&r, &["9 4", "10 5"]);
    let (_, rec) = one_battle(&r, &mut b);
    assert_eq!(stack(&r, &b, 1), "5 10");
    assert_eq!(rec.counters[counter::CARDS_KILLED], 1);
}

#[test]
fn instant_war_winner_keeps_own_cards_and_takes_face_down_ones() {
    // One card down per step (the preset). P1 wins: keeps 5, 6, K; takes P0's face-down 2;
    // P0's tied 5 and face-up Q are killed.
    let r = rules(&[("variant", "instant-war"), SEAT_ORDER]);
    let mut b = board(&r, &["5 2 Q 3", "5 6 K 9"]);
    let (_, rec) = one_battle(&r, &mut b);
    assert_eq!(stack(&r, &b, 1), "9 5 2 6 K");
    assert_eq!(stack(&r, &b, 0), "3");
    assert_eq!(rec.counters[counter::CARDS_KILLED], 2);
}

#[test]
fn greater_spoils_lays_the_tied_cards_value() {
    let r = rules(&[("variant", "greater-spoils")]);
    for (tie, down) in [("2", 2), ("5", 5), ("10", 10), ("J", 10), ("K", 10), ("A", 11)] {
        assert_eq!(r.lay[card(&r, tie) as usize], down, "{tie}");
    }
    let j = rules(&[("variant", "greater-spoils+jokers")]);
    assert_eq!(j.lay[card(&j, "Joker") as usize], 12);
    let low = rules(&[("variant", "greater-spoils+aces-low")]);
    assert_eq!(low.lay[card(&low, "A") as usize], 1);
    // A tied ace needs 12 cards: a player with 11 behind the ace is short.
    let mut b = board(&r, &["A 2 2 2 2 2 2 2 2 2 2 2", "A 3 3 3 3 3 3 3 3 3 3 3 K"]);
    let (end, rec) = one_battle(&r, &mut b);
    assert_eq!(end, Some(End::Win(1)));
    assert_eq!(rec.counters[counter::SHORT_IN_WAR], 1);
    // A tied joker needs 13 behind it.
    let mut b = board(&j, &["Joker 2 2 2 2 2 2 2 2 2 2 2 2 Q", "Joker 3 3 3 3 3 3 3 3 3 3 3 3 K"]);
    let (end, rec) = one_battle(&j, &mut b);
    assert_eq!(end, Some(End::Win(1)), "K beats Q after 12 down each");
    assert_eq!(rec.counters[counter::SHORT_IN_WAR], 0);
}

#[test]
fn peace_lowest_card_wins_and_five_go_down() {
    let r = rules(&[("variant", "peace"), SEAT_ORDER]);
    assert!(card(&r, "2") > card(&r, "A"), "in Peace a 2 beats an ace");
    let mut b = board(&r, &["9 4", "3 5"]);
    one_battle(&r, &mut b);
    assert_eq!(stack(&r, &b, 1), "5 9 3");
    assert_eq!(r.lay[card(&r, "7") as usize], 5);
    let j = rules(&[("variant", "peace+jokers")]);
    assert!(card(&j, "Joker") < card(&j, "A"), "with the lowest winning, a joker is the worst card");
}

#[test]
fn aces_low_puts_the_ace_under_the_two() {
    let r = rules(&[("aces", "low")]);
    assert!(card(&r, "A") < card(&r, "2"));
    let j = rules(&[("aces", "low"), ("jokers", "shared")]);
    assert!(card(&j, "Joker") > card(&j, "K"), "jokers stay on top");
}

#[test]
fn short_war_ends_at_k_battles_won() {
    let r = rules(&[("variant", "short-war")]);
    let mut b = board(&r, &["K K 2 K 5", "2 2 K 2 6"]);
    let mut rng = GameRng::new(1);
    let mut rec = record();
    let ends: Vec<Option<End>> = (0..4).map(|_| b.battle(&r, &mut rng, &mut rec, &mut Silent)).collect();
    assert_eq!(ends, vec![None, None, None, Some(End::Win(0))], "P0 wins its third battle at battle 4");
}

#[test]
fn multiple_players_preset_deals_three_and_conflicts_with_limited_engagement() {
    let r = rules(&[("variant", "multiple-players")]);
    assert_eq!((r.players, r.scope_tied), (3, false));
    let four = rules(&[("variant", "multiple-players"), ("players", "4")]);
    assert_eq!(four.players, 4, "an explicit player count overrides the preset");
    let e = try_rules(&[("variant", "multiple-players+limited-engagement")]).unwrap_err();
    assert!(e.contains("conflict") && e.contains("war_scope"), "{e}");
    let limited = rules(&[("variant", "limited-engagement"), ("players", "3")]);
    assert!(limited.scope_tied);
}

#[test]
fn jokers_and_deal_sizes() {
    let shared = rules(&[("jokers", "shared")]);
    assert_eq!(shared.deck_size(), 54);
    let three = rules(&[("players", "3")]);
    assert_eq!(three.shares(), vec![17, 17, 17]);
    assert_eq!(three.dealt_size(), 51, "one card cannot be dealt evenly and is removed");
    let equal = rules(&[("jokers", "equal"), ("players", "2")]);
    let mut rng = GameSeed::new(1, 0).rng();
    let (mut deck, mut hands) = (Vec::new(), vec![Vec::new(); 2]);
    equal.deal(&mut rng, &mut deck, &mut hands);
    let joker = card(&equal, "Joker");
    for h in &hands {
        assert_eq!(h.len(), 27);
        assert_eq!(h.iter().filter(|&&c| c == joker).count(), 1);
    }
    let e = try_rules(&[("jokers", "equal"), ("players", "3")]).unwrap_err();
    assert!(e.contains("at most 2 players"), "{e}");
    assert!(try_rules(&[("jokers", "equal"), ("players", "4"), ("decks", "2")]).is_ok());
}

#[test]
fn stacked_deals_pin_cards_to_seats() {
    let r = rules(&[("stack", "0:A,A,A,A")]);
    let ace = card(&r, "A");
    let (mut deck, mut hands) = (Vec::new(), vec![Vec::new(); 2]);
    for g in 0..20 {
        r.deal(&mut GameSeed::new(3, g).rng(), &mut deck, &mut hands);
        assert_eq!(hands[0].iter().filter(|&&c| c == ace).count(), 4);
        assert_eq!((hands[0].len(), hands[1].len()), (26, 26));
    }
    let only = rules(&[("players", "3"), ("stack_only", "0:A,K")]);
    r.deal(&mut GameSeed::new(3, 0).rng(), &mut deck, &mut hands);
    let mut hands3 = vec![Vec::new(); 3];
    only.deal(&mut GameSeed::new(3, 0).rng(), &mut deck, &mut hands3);
    let mut h0 = hands3[0].clone();
    h0.sort();
    assert_eq!(h0, vec![card(&only, "K"), card(&only, "A")]);
    assert_eq!((hands3[1].len(), hands3[2].len()), (25, 25));
    for bad in [
        vec![("stack", "0:A,A,A,A,A")],
        vec![("stack", "2:A")],
        vec![("stack", "0:Z")],
        vec![("stack", "0:A"), ("stack_only", "0:K")],
        vec![("stack", "0 A")],
    ] {
        assert!(try_rules(&bad).is_err(), "{bad:?}");
    }
    // A seat left without a card would make a one-player "battle": refused, naming the seat.
    let e = try_rules(&[("stack_only", "0:")]).unwrap_err();
    assert!(e.contains("seat 0 would start with no cards (stack_only pins no card to it)"), "{e}");
    let e = try_rules(&[("stack_only", "0:A,A"), ("ranks", "1"), ("suits", "2")]).unwrap_err();
    assert!(e.contains("seat 1 would start with no cards (no card is left for it)"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Random combinations of settings. The conformance test of every game (`tests/games.rs`) varies
// one setting at a time; War's settings are orthogonal, so here they also vary together.

/// A random but valid combination of settings.
fn random_settings(rng: &mut GameRng) -> Vec<(&'static str, String)> {
    use crate::seed::below;
    let mut pick = |xs: &[&'static str]| xs[below(rng, xs.len() as u32) as usize];
    let players = pick(&["2", "2", "3", "4", "6"]);
    let mut s = vec![
        ("players", players.to_string()),
        ("ranks", pick(&["13", "13", "5", "8"]).to_string()),
        ("suits", pick(&["4", "4", "1", "2"]).to_string()),
        ("decks", pick(&["1", "1", "2"]).to_string()),
        ("jokers", pick(&["none", "shared", "none"]).to_string()),
        ("aces", pick(&["high", "low"]).to_string()),
        ("winner", pick(&["high", "low"]).to_string()),
        ("war_down", pick(&["3", "1", "0", "by-value", "5"]).to_string()),
        ("war_scope", pick(&["all", "tied"]).to_string()),
        ("short", pick(&["lose", "last-ditch"]).to_string()),
        ("capture", pick(&["spoils", "spoils", "instant"]).to_string()),
        ("pickup", pick(&["shuffled", "seat-order", "winner-first", "loser-first"]).to_string()),
        ("battles_to_win", pick(&["0", "0", "0", "3"]).to_string()),
        ("max_battles", pick(&["3000", "200"]).to_string()),
    ];
    if pick(&["", "", "", "x"]) == "x" {
        s.push(("jokers", "equal".to_string()));
        s.push(("players", "2".to_string()));
    }
    s
}

fn settings_rules(s: &[(&'static str, String)]) -> Option<WarRules> {
    let pairs: Vec<(String, String)> = s.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    let settings = resolve("war", SETTINGS, PRESETS, &Default::default(), &pairs).ok()?;
    WarRules::from_settings(&settings).ok()
}

#[test]
fn random_combinations_of_settings_keep_their_cards_and_tell_the_game_played() {
    let mut meta = GameSeed::new(99, 0).rng();
    let mut combos = 0;
    for round in 0..300u64 {
        let Some(r) = settings_rules(&random_settings(&mut meta)) else { continue };
        combos += 1;
        let engine = WarEngine::new(r.clone());
        let seed = GameSeed::new(round, 1);
        let steps = Point::census(&engine, seed).unwrap_or_else(|e| panic!("{r:?}: {e}"));
        let played = engine.play_one(seed);
        assert!((played.outcome as usize) < Engine::layout(&engine).outcomes.len());
        assert!(played.length >= 1 && played.length <= r.max_battles, "{r:?}");
        if r.pickup == super::setup::Pickup::Shuffled {
            assert_eq!(steps, played.length, "every battle is one step of the census: {r:?}");
        }
        // The story plays every battle through the general path (no streaks, no two-player war
        // shortcut): its record equals the run's, so the shortcuts play the same game.
        let (text, told) = Point::story(&engine, seed);
        assert_eq!((told.length, told.outcome), (played.length, played.outcome), "{r:?}");
        assert_eq!(told.counters, played.counters, "{r:?}");
        assert_eq!(told.observations(), played.observations(), "{r:?}");
        assert!(played.counters[counter::DOUBLE_WARS] <= played.counters[counter::WARS]);
        let war_lines = text.lines().filter(|l| l.trim_start().starts_with("WAR")).count() as u64;
        assert_eq!(war_lines, played.counters[counter::WARS], "{r:?}");
    }
    assert!(combos > 100, "only {combos} valid combinations drawn");
}

#[test]
fn play_narrative_ends_as_the_run_recorded() {
    for pickup in ["shuffled", "seat-order"] {
        let engine = WarEngine::new(rules(&[("pickup", pickup)]));
        for i in 0..30 {
            let seed = GameSeed::new(11, i);
            let rec = engine.play_one(seed);
            let text = Point::narrate(&engine, seed);
            let last = text.lines().rev().nth(1).unwrap();
            let expect = match rec.outcome {
                0 | 1 => format!("P{} wins after {} battles.", rec.outcome, rec.length),
                3 => format!("Cycle: the position after battle {}", rec.length),
                o => panic!("unexpected outcome {o}"),
            };
            assert!(last.starts_with(&expect), "{last} / {expect}");
            let counters = text.lines().last().unwrap();
            assert_eq!(counters, crate::games::narrate::counters_line(counter::NAMES, &rec.counters));
        }
    }
}

#[test]
fn counter_names_match_indices() {
    let layout = crate::games::Engine::layout(&WarEngine::new(rules(&[]))).clone();
    assert_eq!(layout.counter("wars"), Some(counter::WARS));
    assert_eq!(layout.counter("last_ditch_stands"), Some(counter::LAST_DITCH_STANDS));
    assert_eq!(layout.distribution("cycle_period"), Some(super::engine::dist::CYCLE_PERIOD));
}

// ---------------------------------------------------------------------------------------------
// Known exact answers, checked statistically with fixed seeds. The tolerance is the 99.9%
// interval (3.29 standard errors), derived from the same sums as the 95% interval.

const Z999_OVER_Z95: f64 = 3.290_526_731 / 1.959_963_985;

fn run(sets: &[(&str, &str)], games: u64, seed: u64) -> crate::stats::Accumulator {
    let engine = WarEngine::new(rules(sets));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    pool.install(|| Point::play_range(&engine, seed, 0, games, &|_| {}))
}

#[test]
fn distinct_cards_with_shuffled_pickup_last_n_squared_over_four() {
    for n in [6u64, 10] {
        let ranks = n.to_string();
        let acc = run(&[("ranks", &ranks), ("suits", "1")], 200_000, 21);
        let h = &acc.length;
        let ci = mean_interval(h.sum(), h.sum_sq(), h.total());
        let truth = (n * n) as f64 / 4.0;
        let tol = ci.half_width() * Z999_OVER_Z95;
        assert!((ci.estimate - truth).abs() <= tol, "n={n}: mean {} vs {truth} ± {tol}", ci.estimate);
        assert_eq!(acc.counters[0].total, 0, "distinct cards never tie");
    }
}

#[test]
fn first_battle_is_a_war_with_probability_3_in_51() {
    let acc = run(&[("max_battles", "1")], 400_000, 4);
    let ci = wilson(acc.counters[0].games_with, acc.games);
    let p = 3.0 / 51.0;
    let tol = ci.half_width() * Z999_OVER_Z95;
    assert!((ci.estimate - p).abs() <= tol, "rate {} vs {p} ± {tol}", ci.estimate);
}

#[test]
fn aces_low_only_relabels_ranks() {
    let a = run(&[], 200_000, 8);
    let b = run(&[("aces", "low")], 200_000, 9);
    let (ia, ib) = (
        mean_interval(a.length.sum(), a.length.sum_sq(), a.games),
        mean_interval(b.length.sum(), b.length.sum_sq(), b.games),
    );
    let se = (ia.half_width().powi(2) + ib.half_width().powi(2)).sqrt() * Z999_OVER_Z95;
    assert!((ia.estimate - ib.estimate).abs() <= se, "{} vs {} ± {se}", ia.estimate, ib.estimate);
    // The whole distribution too: the largest gap between the two empirical CDFs stays under the
    // two-sample Kolmogorov-Smirnov critical value at the 0.1% level, 1.95 * sqrt(2 / n).
    let (mut ca, mut cb, mut gap) = (0u64, 0u64, 0f64);
    let max = a.length.max().unwrap().max(b.length.max().unwrap());
    for v in 0..=max {
        ca += a.length.count_of(v);
        cb += b.length.count_of(v);
        gap = gap.max((ca as f64 / a.games as f64 - cb as f64 / b.games as f64).abs());
    }
    let critical = 1.95 * (2.0 / 200_000f64).sqrt();
    assert!(gap < critical, "KS distance {gap} >= {critical}");
}

// ---------------------------------------------------------------------------------------------
// Hand-written positions for the rules and engine mechanics that mutation testing (cargo-mutants
// on `rules.rs`, `engine.rs`, `ring.rs`) found no test for.

#[test]
fn a_seat_without_cards_at_the_start_is_out_before_the_first_battle() {
    let r = rules(&[("players", "3"), SEAT_ORDER]);
    let mut b = board(&r, &["9 4", "", "10 5"]);
    assert_eq!(b.alive(), &[0, 2], "P1 holds no card and plays no battle");
    let (end, _) = one_battle(&r, &mut b);
    assert_eq!(end, None);
    assert_eq!((stack(&r, &b, 0), stack(&r, &b, 2)), ("4".to_string(), "5 9 10".to_string()));
}

/// Two boards of the same position, one played by `plain_streak` with `limit`, the other by
/// `battle` one battle at a time until it has played as many battles: (streak's end, both boards).
fn streak_and_battles(r: &WarRules, stacks: &[&str], limit: u64) -> (Option<End>, Board, Board) {
    let (mut fast, mut slow) = (board(r, stacks), board(r, stacks));
    let (mut rng_fast, mut rng_slow) = (GameRng::new(5), GameRng::new(5));
    let end = fast.plain_streak(r, &mut rng_fast, &mut record(), limit);
    while slow.battles < fast.battles {
        slow.battle(r, &mut rng_slow, &mut record(), &mut Silent);
    }
    (end, fast, slow)
}

#[test]
fn a_streak_of_plain_battles_is_the_game_battle_by_battle_plays() {
    // Thirteen distinct cards never tie: with shuffled pickup the streak plays 20 battles (this
    // game lasts 31), each drawing the same coin `battle` draws, so both boards hold the same
    // stacks after them.
    let r = rules(&[("suits", "1")]);
    let (end, fast, slow) = streak_and_battles(&r, &["2 9 4 J 6 K 8", "A 3 10 5 Q 7"], 20);
    assert_eq!((end, fast.battles), (None, 20), "the streak stops at its limit");
    assert!(fast.table.same_state(&slow.table));
    assert!(fast.table.len(0) > 0 && fast.table.len(1) > 0);
}

#[test]
fn a_streak_stops_at_a_tie_and_at_the_end_of_the_game() {
    let r = rules(&[]);
    // 9 v 10, then 5 v 5: the streak plays one battle and leaves the war to `battle`.
    let (end, fast, slow) = streak_and_battles(&r, &["9 5 2", "10 5 3"], 50);
    assert_eq!((end, fast.battles), (None, 1));
    assert!(fast.table.same_state(&slow.table));
    assert_eq!(fast.table.top(0), fast.table.top(1), "the tied fives are on top");
    // 9 v 10, then 4 v 5: P0 runs out and the streak ends the game.
    let (end, fast, _) = streak_and_battles(&r, &["9 4", "10 5"], 50);
    assert_eq!((end, fast.battles), (Some(End::Win(1)), 2));
    assert_eq!((fast.table.len(0), fast.table.len(1), fast.alive()), (0, 4, &[1u8][..]));
    // The same with P1 running out.
    let (end, fast, _) = streak_and_battles(&r, &["10 5", "9 4"], 50);
    assert_eq!((end, fast.battles), (Some(End::Win(0)), 2));
}

/// Runs the engine's game loop from a hand-written position: (end, battles on the board, the
/// battle count the record gets).
fn run_position(r: &WarRules, stacks: &[&str]) -> (End, u64, u64) {
    let engine = WarEngine::new(r.clone());
    let mut sc = engine.new_scratch();
    sc.board_mut().setup_from(&board(r, stacks).table);
    let end = engine.run_from_board(&mut sc, &mut record());
    let battles = sc.board_mut().battles;
    (end, battles, engine.length(end, sc.board_mut()))
}

#[test]
fn a_cycle_that_closes_at_the_cap_is_a_cycle_and_one_that_closes_past_it_is_capped() {
    // K v 2, then 2 v K: the start position is back after 2 battles. Brent's detection sees the
    // repeat only at battle 3, past a cap of 2, and the cycle still counts: transient + period = 2.
    let deal = ["K 2", "2 K"];
    let at_cap = rules(&[SEAT_ORDER, ("max_battles", "2")]);
    assert_eq!(run_position(&at_cap, &deal), (End::Cycle { period: 2 }, 2, 2));
    // With a cap of 1 the game is capped, and the board is replayed to exactly one battle.
    let below = rules(&[SEAT_ORDER, ("max_battles", "1")]);
    assert_eq!(run_position(&below, &deal), (End::Capped, 1, 1));
}

#[test]
fn a_deterministic_game_won_at_the_cap_is_a_win() {
    // 9 v 10 and 4 v 5: P1 wins at battle 2.
    let deal = ["9 4", "10 5"];
    let at_cap = rules(&[SEAT_ORDER, ("max_battles", "2")]);
    assert_eq!(run_position(&at_cap, &deal), (End::Win(1), 2, 2));
    let below = rules(&[SEAT_ORDER, ("max_battles", "1")]);
    assert_eq!(run_position(&below, &deal), (End::Capped, 1, 1));
}

#[test]
fn a_shuffled_game_stops_at_the_cap() {
    // Distinct cards never tie; the game lasts longer than 3 battles under every variant below,
    // whether it plays through the streak of plain battles or battle by battle.
    let deal = ["2 9 4 J 6 K 8", "A 3 10 5 Q 7"];
    for sets in [vec![], vec![("capture", "instant")], vec![("battles_to_win", "9")]] {
        let mut sets = sets;
        sets.extend([("suits", "1"), ("max_battles", "3")]);
        let r = rules(&sets);
        assert_eq!(run_position(&r, &deal), (End::Capped, 3, 3), "{sets:?}");
    }
    // The same game with a tie among its first battles (the streak leaves the war to `battle`).
    let r = rules(&[("max_battles", "3")]);
    assert_eq!(run_position(&r, &["9 5 2 3 4 6 7 8 9 10 J", "10 5 3 4 6 7 8 9 10 J Q"]), (End::Capped, 3, 3));
}

#[test]
fn the_story_says_when_only_one_player_can_go_on() {
    // As in `only_one_player_able_takes_the_spoils_without_laying`, told.
    let r = rules(&[("players", "3"), ("war_scope", "tied"), SEAT_ORDER]);
    let mut b = board(&r, &["K 2", "K 4 4 4 Q 5", "9 6"]);
    let mut text = String::new();
    b.battle(&r, &mut GameRng::new(7), &mut record(), &mut crate::games::narrate::Story(&mut text));
    assert!(text.contains("  only P1 can go on and takes the spoils without laying\n"), "{text}");
}

#[test]
fn the_story_counts_the_cards_after_a_battle_only_while_the_game_goes_on() {
    let r = rules(&[SEAT_ORDER]);
    let tell = |stacks: &[&str]| {
        let mut b = board(&r, stacks);
        let mut text = String::new();
        b.battle(&r, &mut GameRng::new(7), &mut record(), &mut crate::games::narrate::Story(&mut text));
        text
    };
    let goes_on = tell(&["9 4", "10 5"]);
    assert!(goes_on.contains("\n  cards: P0 1, P1 3\n"), "{goes_on}");
    let ends = tell(&["4", "10 5"]);
    assert!(ends.contains("P0 has no cards left and is out"), "{ends}");
    assert!(!ends.contains("cards: "), "one player left: no card count: {ends}");
}

#[test]
fn a_long_cycle_that_closes_at_the_cap_is_found_within_the_battles_brent_may_play() {
    // Four ranks (2 3 4 A), seat-order pickup, one card down: this deal returns to the position
    // after its first battle 24 battles later, so transient 1 + period 24 = 25 battles. Brent's
    // detection doubles the stretch it compares (1, 2, 4, ...) and so sees the repeat within
    // 3 x 25 + 3 battles: with a cap of 25 the game is a cycle, not capped.
    let r = rules(&[SEAT_ORDER, ("ranks", "4"), ("suits", "2"), ("war_down", "1"), ("max_battles", "25")]);
    assert_eq!(run_position(&r, &["2 3 4 3", "A 4 2 A"]), (End::Cycle { period: 24 }, 25, 25));
}

#[test]
fn the_census_watches_every_battle_of_a_deterministic_game() {
    let r = rules(&[SEAT_ORDER, ("ranks", "5"), ("suits", "2"), ("war_down", "1")]);
    let engine = WarEngine::new(r);
    let mut wins = 0;
    for i in 0..40 {
        let seed = GameSeed::new(i, 0);
        let rec = engine.play_one(seed);
        let steps = Point::census(&engine, seed).unwrap_or_else(|e| panic!("{seed:?}: {e}"));
        if rec.outcome <= 1 {
            assert_eq!(steps, rec.length, "a won game: one step per battle, {seed:?}");
            wins += 1;
        } else {
            assert!(steps >= rec.length, "a cycle is watched through its detection too, {seed:?}");
        }
    }
    assert!(wins > 0);
}

/// A watch that sees every battle a board plays (the census's place in the game loop) and never
/// stops the game: the battle count after each.
struct EveryBattle(Vec<u64>);

impl crate::games::census::Watch<Board> for EveryBattle {
    const ON: bool = true;

    fn step(&mut self, board: &Board, _: &GameRecord) -> bool {
        self.0.push(board.battles);
        true
    }
}

/// Runs the engine's game loop from a hand-written position under `EveryBattle`: (end, battles on
/// the board, the battles the watch saw).
fn watched_position(r: &WarRules, stacks: &[&str]) -> (End, u64, Vec<u64>) {
    let engine = WarEngine::new(r.clone());
    let mut sc = engine.new_scratch();
    sc.board_mut().setup_from(&board(r, stacks).table);
    let mut watch = EveryBattle(Vec::new());
    let end = engine.run(&mut GameRng::new(1), &mut sc, &mut record(), &mut watch);
    (end, sc.board_mut().battles, watch.0)
}

#[test]
fn a_watched_deterministic_game_ends_as_the_unwatched_one() {
    // K v 2, 2 v K: Brent's detection plays 3 battles, then the hare replays one period from the
    // start and meets the tortoise there.
    let r = rules(&[SEAT_ORDER]);
    assert_eq!(watched_position(&r, &["K 2", "2 K"]), (End::Cycle { period: 2 }, 2, vec![1, 2, 3, 1, 2]));
    // The 25-battle cycle under a cap of 20 is capped: the board is replayed to exactly 20
    // battles, each watched.
    let r = rules(&[SEAT_ORDER, ("ranks", "4"), ("suits", "2"), ("war_down", "1"), ("max_battles", "20")]);
    let (end, battles, seen) = watched_position(&r, &["2 3 4 3", "A 4 2 A"]);
    assert_eq!((end, battles), (End::Capped, 20));
    assert_eq!(seen[seen.len() - 20..], (1..=20).collect::<Vec<u64>>()[..], "the replay, battle by battle");
}

#[test]
fn the_round_robin_deal_gives_the_stacks_and_generator_of_the_general_deal() {
    use rand_core::Rng;
    // The engine deals plain deals straight onto the table; the hands-based deal must give the
    // same stacks and leave the generator at the same point, for any player count, deck and jokers
    // (3 and 5 players leave cards undealt from 52), and pins or equal jokers take the general path.
    let cases: &[&[(&str, &str)]] = &[
        &[],
        &[("players", "3")],
        &[("players", "5"), ("decks", "2")],
        &[("jokers", "shared")],
        &[("players", "3"), ("jokers", "shared"), ("ranks", "5"), ("suits", "2")],
        &[("jokers", "equal")],
        &[("stack", "0:A,A")],
    ];
    for sets in cases {
        let r = rules(sets);
        let plain = !sets.iter().any(|(k, v)| *k == "stack" || *v == "equal");
        assert_eq!(r.round_robin().is_some(), plain, "{sets:?}");
        let engine = WarEngine::new(r.clone());
        let mut sc = engine.new_scratch();
        for seed in 0..50 {
            let mut rng = engine.deal_for_test(GameSeed::new(seed, 3), &mut sc);
            let mut by_hand_rng = GameSeed::new(seed, 3).rng();
            let (mut deck, mut hands) = (Vec::new(), vec![Vec::new(); r.players]);
            r.deal(&mut by_hand_rng, &mut deck, &mut hands);
            let mut by_hand = Board::new(&r);
            by_hand.setup(&hands);
            let board = sc.board_mut();
            for seat in 0..r.players {
                assert_eq!(
                    stack(&r, board, seat),
                    stack(&r, &by_hand, seat),
                    "{sets:?} seed {seed} seat {seat}"
                );
            }
            assert_eq!(board.alive(), by_hand.alive());
            assert_eq!(
                rng.next_u64(),
                by_hand_rng.next_u64(),
                "{sets:?} seed {seed}: the generator moved on alike"
            );
        }
    }
}
