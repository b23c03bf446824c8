//! Tests of the team game (four and six players, `docs/rules/scourge.md` "Team games"): a hand-set
//! battlefield for each team rule (set an exact position, apply one round or one step, assert what
//! happened), then properties over many games of every player and deck setting: every card
//! accounted for after every round, counters that agree with how each game ended, and the
//! narrative telling the game `play` plays. Kept apart from the duel's `tests.rs`.

use super::engine::{Mvp, TeamEngine, mvp, team_dist};
use super::rules::{Class, EMPTY, Field, Legendless, MAX_SEATS, Region, Team, classify};
use crate::cards::Pack;
use crate::games::narrate::Silent;
use crate::games::scourge::cards::{BLACK_ANCIENT, Decks, Legend, Unit, WHITE_ANCIENT};
use crate::games::scourge::rules::{Cause, End, WarKind};
use crate::games::scourge::*;
use crate::games::{Engine, Point};
use crate::record::{GameRecord, OutcomeKind};
use crate::seed::{GameRng, GameSeed};

fn decks() -> Decks {
    Decks::new(Pack::Draconian, 2)
}

fn engine(players: usize) -> TeamEngine {
    TeamEngine::new(Pack::Draconian, 2, players / 2, Legendless::SitOut)
}

/// A cleared record sized for the team layout of `players`.
fn record(players: usize) -> GameRecord {
    GameRecord::new(Engine::layout(&engine(players)))
}

fn count(rec: &GameRecord, name: &str) -> u64 {
    let e = engine(4);
    let c = Engine::layout(&e).counter(name).unwrap_or_else(|| panic!("no counter {name}"));
    rec.get(c)
}

fn unit_of(d: &Decks, label: &str) -> Unit {
    d.parse_unit(label).unwrap_or_else(|| panic!("bad unit {label}"))
}

fn legend_of(d: &Decks, label: &str) -> Legend {
    d.parse_legend(label).unwrap_or_else(|| panic!("bad legend {label}"))
}

/// A position for `stacks.len()` players: stacks and Legends deck listed top first, each
/// player's face-down Legend.
fn position(stacks: &[&[&str]], held: &[Option<&str>], legends: &[&str]) -> Team {
    let d = decks();
    let mut t = Team::with_capacity(stacks.len() / 2, Legendless::SitOut, 256, 32);
    for (s, stack) in stacks.iter().enumerate() {
        t.stacks[s] = stack.iter().rev().map(|l| unit_of(&d, l)).collect();
        t.held[s] = held[s].map(|l| legend_of(&d, l));
    }
    t.legends = legends.iter().rev().map(|l| legend_of(&d, l)).collect();
    t
}

/// One fought column: (side a's seat and card, side b's seat and card).
type Column<'a> = ((usize, &'a str), (usize, &'a str));

/// A fully fought battlefield.
fn field(cols: &[Column]) -> Field {
    let d = decks();
    let mut f = Field { cols: [[EMPTY; 2]; 3], ..Field::default() };
    for (c, &((a, ua), (b, ub))) in cols.iter().enumerate() {
        f.cols[c] = [a as u8, b as u8];
        f.up[a] = unit_of(&d, ua);
        f.up[b] = unit_of(&d, ub);
    }
    f.n = cols.len();
    f.fought = cols.len();
    f
}

fn rng() -> GameRng {
    GameSeed::new(99, 0).rng()
}

/// Fights a hand-laid round (its Units counted on the battlefield, as `lay` does).
fn fight(t: &mut Team, f: Field) -> (Option<End>, GameRecord) {
    let mut rec = record(t.players());
    t.field_units += 2 * f.fought as u32;
    let end = t.fight(f, &decks(), &mut rng(), &mut rec, &mut Silent);
    (end, rec)
}

/// Plays one whole round (lay and fight) with generator `rng`.
fn round(t: &mut Team, rng: &mut GameRng, rec: &mut GameRecord) -> Option<End> {
    t.round(&decks(), rng, rec, &mut Silent)
}

const F: &[&str] = &["2Ho", "3Ho", "4Ho", "5Ho", "6Ho", "8Ho"];

// ---- classification (T5) -----------------------------------------------------------------------

#[test]
fn classification_of_team_fields() {
    let d = decks();
    let class = |cols: &[Column], p| classify(&d, &field(cols), p);
    // Full field, one value and colour: Scorched Earth; one suit: Scarsands.
    assert_eq!(class(&[((0, "7He"), (2, "7Ho")), ((1, "7Ho"), (3, "7He"))], 2), Class::ScorchedEarth);
    assert_eq!(class(&[((0, "2He"), (2, "9He")), ((1, "KHe"), (3, "5He"))], 2), Class::Scarsands);
    assert_eq!(
        class(&[((0, "2He"), (3, "9He")), ((1, "KHe"), (4, "5He")), ((2, "4He"), (5, "3He"))], 3),
        Class::Scarsands
    );
    // One suit on a partial field (two of three columns fought) is not the Scarsands.
    assert_eq!(class(&[((0, "2He"), (3, "9He")), ((1, "KHe"), (4, "5He"))], 3), Class::Plain);
    // Two disjoint across-pairs: a Scourge War, on any field; the players at war are named.
    assert_eq!(class(&[((0, "9He"), (3, "KCl")), ((1, "KHe"), (4, "9Cl"))], 3), Class::ScourgeWar(0b1_1011));
    // One card against two of its value: a three-card war over both their columns.
    let c = class(&[((0, "7He"), (3, "7Cl")), ((1, "KHe"), (4, "7Sc")), ((2, "2He"), (5, "9Cl"))], 3);
    assert_eq!(c, Class::War(Region { kind: WarKind::ThreeCard, matched: 0b1_1001, columns: 0b011 }));
    // One card against three: still three_card_wars, every column.
    let c = class(&[((0, "7He"), (3, "7Cl")), ((1, "KHe"), (4, "7Sc")), ((2, "2He"), (5, "7Ho"))], 3);
    assert!(matches!(c, Class::War(Region { kind: WarKind::ThreeCard, columns: 0b111, .. })), "{c:?}");
    // Two against two of one value are two disjoint pairs: Scourge War.
    let c = class(&[((0, "7He"), (3, "7Cl")), ((1, "7Ho"), (4, "7Sc")), ((2, "2He"), (5, "9Cl"))], 3);
    assert_eq!(c, Class::ScourgeWar(0b1_1011));
    assert_eq!(
        class(&[((0, "7He"), (2, "7Cl")), ((1, "KHe"), (3, "5Cl"))], 2),
        Class::War(Region { kind: WarKind::Column, matched: 0b0101, columns: 0b01 })
    );
    assert_eq!(
        class(&[((0, "7He"), (2, "3Cl")), ((1, "KHe"), (3, "7Cl"))], 2),
        Class::War(Region { kind: WarKind::Diagonal, matched: 0b1001, columns: 0b11 })
    );
}

// ---- wars (T5, T7, T9) -------------------------------------------------------------------------

#[test]
fn a_team_column_war_and_a_plain_column() {
    let mut t = position(&[&["2Cl", "9He"], F, &["3Cl", "4He"], F], &[None; 4], &[]);
    let (end, rec) = fight(&mut t, field(&[((0, "7He"), (2, "7Cl")), ((1, "KHe"), (3, "5Cl"))]));
    assert_eq!(end, None);
    // P0's 9 beats P2's 4: the column (2) and the four war cards; P1's king takes the other column.
    assert_eq!(t.captured[..4], [6, 2, 0, 0]);
    assert_eq!(
        (count(&rec, "column_wars"), count(&rec, "war_steps"), count(&rec, "plain_battles")),
        (1, 1, 1)
    );
    assert_eq!(count(&rec, "understaffed"), 0, "both cards were fed two Units");
    assert_eq!(t.field_units, 0);
}

#[test]
fn a_diagonal_war_across_two_players_takes_both_columns() {
    // P0 and P3 match diagonally: the region is both columns although P1's king beats P3's card.
    let mut t = position(&[&["2Cl", "4He"], F, F, &["3Cl", "9Cl"]], &[None; 4], &[]);
    let (_, rec) = fight(&mut t, field(&[((0, "7He"), (2, "3Sc")), ((1, "KHe"), (3, "7Cl"))]));
    assert_eq!(t.captured[..4], [0, 0, 0, 8]);
    assert_eq!((count(&rec, "diagonal_wars"), count(&rec, "plain_battles")), (1, 0));
}

#[test]
fn a_three_card_war_gives_the_side_of_two_two_chances() {
    // P0's 7 against P3's and P4's: side b lays twice; P4's ace wins the two columns; P5 takes the third.
    let mut t = position(&[&["2Cl", "QHe"], F, F, &["3Cl", "4Cl"], &["5Cl", "ASc"], F], &[None; 6], &[]);
    let f = field(&[((0, "7He"), (3, "7Cl")), ((1, "KHe"), (4, "7Sc")), ((2, "2He"), (5, "9Cl"))]);
    let (_, rec) = fight(&mut t, f);
    assert_eq!(t.captured[..6], [0, 0, 0, 0, 4 + 6, 2]);
    assert_eq!((count(&rec, "three_card_wars"), count(&rec, "war_steps")), (1, 1));
    assert_eq!(count(&rec, "shared_best"), 0);
}

#[test]
fn a_shared_best_is_taken_by_one_of_the_players_showing_it() {
    let mut t = position(&[&["2Cl", "QHe"], F, F, &["3Cl", "ACl"], &["5Cl", "ASc"], F], &[None; 6], &[]);
    let f = field(&[((0, "7He"), (3, "7Cl")), ((1, "KHe"), (4, "7Sc")), ((2, "2He"), (5, "9Cl"))]);
    let (_, rec) = fight(&mut t, f);
    assert_eq!(count(&rec, "shared_best"), 1);
    assert_eq!(t.captured[3] + t.captured[4], 10, "one of the aces takes the region");
    assert!(t.captured[3] == 0 || t.captured[4] == 0);
}

#[test]
fn a_re_tie_goes_on_with_the_tied_cards_only() {
    // Step 1: P0 shows 9, P3 9, P4 5: P4 drops out. Step 2: P0 4 v P3 J: P3 takes everything.
    let mut t = position(
        &[
            &["2Cl", "9He", "3Ho", "4He"],
            F,
            F,
            &["3Cl", "9Cl", "6Ho", "JCl"],
            &["5Cl", "5Sc", "KSc", "ASc"],
            F,
        ],
        &[None; 6],
        &[],
    );
    let f = field(&[((0, "7He"), (3, "7Cl")), ((1, "KHe"), (4, "7Sc")), ((2, "2He"), (5, "9Cl"))]);
    let (_, rec) = fight(&mut t, f);
    assert_eq!(count(&rec, "war_steps"), 2);
    assert_eq!(t.captured[3], 4 + 6 + 4, "two columns, six cards of step 1, four of step 2");
    assert_eq!(t.stacks[4].len(), 2, "P4's card dropped out and lays nothing in step 2");
}

#[test]
fn an_understaffed_step_lays_face_up_only_and_a_card_with_no_unit_stands() {
    // P0 has one Unit: face up only, and its king wins.
    let mut t = position(&[&["KHe"], F, &["3Cl", "9Cl"], F], &[None; 4], &[]);
    let (_, rec) = fight(&mut t, field(&[((0, "7He"), (2, "7Cl")), ((1, "KHe"), (3, "5Cl"))]));
    assert_eq!(t.captured[0], 2 + 3);
    assert_eq!((count(&rec, "understaffed"), count(&rec, "war_stands"), count(&rec, "war_steps")), (1, 0, 1));
    // P0 has none: its 7 stands, and beats P2's 5.
    let mut t = position(&[&[], F, &["3Cl", "5Cl"], F], &[None; 4], &[]);
    let (_, rec) = fight(&mut t, field(&[((0, "7He"), (2, "7Cl")), ((1, "KHe"), (3, "5Cl"))]));
    assert_eq!(t.captured[..4], [2 + 2, 2, 0, 0]);
    assert_eq!((count(&rec, "understaffed"), count(&rec, "war_stands")), (1, 1));
    // A stander's 7 ties P2's new 7: both go on; P2 then lays a 2 and the standing 7 wins.
    let mut t = position(&[&[], F, &["3Cl", "7Sc", "4Cl", "2Cl"], F], &[None; 4], &[]);
    let (_, rec) = fight(&mut t, field(&[((0, "7He"), (2, "7Cl")), ((1, "KHe"), (3, "5Cl"))]));
    assert_eq!(t.captured[0], 2 + 4);
    assert_eq!((count(&rec, "war_steps"), count(&rec, "war_stands"), count(&rec, "understaffed")), (2, 2, 2));
}

#[test]
fn a_step_nobody_can_feed_sends_everything_to_the_final_battle() {
    // P0 and P2 match with no Unit left; P1, whose card waits unfought, still holds Units: the Final
    // Battle decides the region and the waiting card at once, and the game ends.
    let d = decks();
    let mut t = position(
        &[&[], &["2Ho", "3Ho"], &[], &[]],
        &[Some("KHe"), Some("JHe"), Some("QCl"), Some("GCl")],
        &[],
    );
    t.waiting[1] = Some(unit_of(&d, "8Ho"));
    let mut f = field(&[((0, "7He"), (2, "7Cl"))]);
    f.cols[1] = [1, EMPTY];
    f.n = 2;
    let (end, rec) = fight(&mut t, f);
    assert_eq!(end, Some(End::Win(0)));
    assert_eq!(t.captured[0], 2 + 1 + 4, "the region, the waiting card and four Legends");
    assert_eq!(count(&rec, "final_battle_war_short"), 1);
    assert_eq!((count(&rec, "war_steps"), count(&rec, "understaffed"), count(&rec, "war_stands")), (0, 0, 0));
    assert_eq!((count(&rec, "unfought_final"), count(&rec, "units_unplayed")), (1, 2));
}

// ---- Scourge War (T6, T12) ---------------------------------------------------------------------

#[test]
fn a_six_player_scourge_war_leaves_the_bystanders_their_legends() {
    let mut t = position(
        &[F, F, F, F, F, F],
        &[Some("QHe"), Some("white"), Some("JHe"), Some("KCl"), Some("GCl"), Some("JSc")],
        &["QSc", "KSc", "GSc", "JCl", "KHo"],
    );
    // 9s in column 1, kings diagonally: P0, P2, P3, P4 at war; P1 and P5 stand by.
    let f = field(&[((0, "9He"), (3, "9Cl")), ((1, "3He"), (4, "KCl")), ((2, "KHe"), (5, "5Sc"))]);
    let (end, rec) = fight(&mut t, f);
    assert_eq!(end, None);
    assert_eq!(t.captured[3], 6 + 4, "every face-up card, the bystanders' column too, and four Legends");
    assert_eq!(t.captured_legends[3], 4);
    assert_eq!((count(&rec, "scourge_wars"), count(&rec, "scourge_bystanders")), (1, 1));
    assert_eq!(t.held[1], Some(WHITE_ANCIENT), "a bystander keeps their face-down Legend");
    assert_eq!(t.held[5], Some(legend_of(&decks(), "JSc")));
    let drawn: Vec<Legend> = [0, 2, 3, 4].iter().map(|&s| t.held[s].expect("drew")).collect();
    let d = decks();
    assert_eq!(
        drawn,
        ["QSc", "KSc", "GSc", "JCl"].map(|l| legend_of(&d, l)),
        "the four at war draw in seat order"
    );
    assert_eq!(t.legends.len(), 1);
}

#[test]
fn a_scourge_war_with_every_face_up_card_at_war_has_no_bystanders() {
    // 9s and kings matched diagonally: all four players are at war, nobody stands by.
    let mut t = position(
        &[F, F, F, F],
        &[Some("QHe"), Some("JHe"), Some("KCl"), Some("GCl")],
        &["QSc", "KSc", "GSc", "JCl"],
    );
    let f = field(&[((0, "9He"), (2, "KCl")), ((1, "KHe"), (3, "9Cl"))]);
    assert_eq!(f.face_up(), 0b1111);
    let (end, rec) = fight(&mut t, f);
    assert_eq!(end, None);
    assert_eq!((count(&rec, "scourge_wars"), count(&rec, "scourge_bystanders")), (1, 0));
    assert_eq!(t.captured[2], 4 + 4, "P2's king takes the four Units and the four Legends");
    // On a partial six-player field the fought seats are the two columns' four players.
    let mut f = field(&[((2, "9He"), (4, "KCl")), ((0, "KHe"), (5, "9Cl"))]);
    f.cols[2] = [1, EMPTY];
    f.n = 3;
    assert_eq!(f.face_up(), 0b11_0101);
}

#[test]
fn a_legend_tie_between_several_players_draws_for_the_tied_only() {
    // P0 and P3 tie on kings above P2's queen; they draw: P0 a jack, P3 a guardian: P3 takes.
    let mut t =
        position(&[F, F, F, F], &[Some("KHe"), None, Some("QCl"), Some("KCl")], &["JHe", "GHe", "QSc"]);
    let mut rec = record(4);
    t.field_units = 4;
    let w = t.legend_contest(0b1101, &decks(), &mut rng(), &mut rec, &mut Silent);
    assert_eq!(w, Some(3));
    assert_eq!(t.captured[3], 4 + 5, "four Units, three Legends turned up and two drawn");
    assert_eq!((count(&rec, "legend_ties"), t.legends.len()), (1, 1));
    // P2's queen stayed in the first comparison only: no Legend for P2.
    assert_eq!(t.held[2], None);
}

#[test]
fn a_player_without_a_legend_sits_out_or_stands_the_contest_off() {
    let d = decks();
    let held = [None, Some("QHe"), Some("KCl"), Some("JCl")];
    // Sit-out (default): P0 sits out; P2's king takes.
    let mut t = position(&[F, F, F, F], &held, &[]);
    let mut rec = record(4);
    t.field_units = 4;
    assert_eq!(t.legend_contest(0b1111, &d, &mut rng(), &mut rec, &mut Silent), Some(2));
    assert_eq!((count(&rec, "legend_sit_outs"), count(&rec, "legend_shortage")), (1, 0));
    assert_eq!(count(&rec, "side_without_legend"), 0);
    assert_eq!(t.captured[2], 4 + 3);
    // Stand-off: the whole contest stands off; the Legends turned up go aside with the Units.
    let mut t = position(&[F, F, F, F], &held, &[]);
    t.legendless = Legendless::StandOff;
    let mut rec = record(4);
    t.field_units = 4;
    assert_eq!(t.legend_contest(0b1111, &d, &mut rng(), &mut rec, &mut Silent), None);
    assert_eq!((count(&rec, "legend_sit_outs"), count(&rec, "legend_shortage")), (0, 1));
    assert_eq!((t.set_aside_units, t.set_aside_legends, count(&rec, "cards_set_aside")), (4, 3, 7));
    // Sit-out, but a whole side shows no Legend: stand-off.
    let mut t = position(&[F, F, F, F], &[None, None, Some("KCl"), Some("JCl")], &[]);
    let mut rec = record(4);
    t.field_units = 4;
    assert_eq!(t.legend_contest(0b1111, &d, &mut rng(), &mut rec, &mut Silent), None);
    assert_eq!((count(&rec, "legend_sit_outs"), count(&rec, "legend_shortage")), (2, 1));
    assert_eq!(count(&rec, "side_without_legend"), 1);
}

#[test]
fn after_a_tie_only_the_new_legends_compare() {
    // P0 and P2 tie on kings; the deck holds exactly the two Legends they draw. P0's queen beats
    // P2's jack: P0 takes alone, although P1's queen of the first comparison equals it.
    let mut t =
        position(&[F, F, F, F], &[Some("KHe"), Some("QHe"), Some("KCl"), Some("JCl")], &["QSc", "JSc"]);
    let mut rec = record(4);
    t.field_units = 4;
    let w = t.legend_contest(0b1111, &decks(), &mut rng(), &mut rec, &mut Silent);
    assert_eq!(w, Some(0));
    assert_eq!(t.captured[..4], [4 + 6, 0, 0, 0], "four Units, four Legends turned up, two drawn");
    assert_eq!(
        (count(&rec, "legend_ties"), count(&rec, "shared_best"), count(&rec, "legend_shortage")),
        (1, 0, 0)
    );
}

#[test]
fn a_side_without_a_legend_stands_the_contest_off_however_many_the_other_shows() {
    // Sit-out: P1, P2 and P3 have no Legend; side b shows none, so P0's king takes nothing.
    let mut t = position(&[F, F, F, F], &[Some("KHe"), None, None, None], &[]);
    let mut rec = record(4);
    t.field_units = 4;
    assert_eq!(t.legend_contest(0b1111, &decks(), &mut rng(), &mut rec, &mut Silent), None);
    assert_eq!((t.set_aside_units, t.set_aside_legends, t.captured[0]), (4, 1, 0));
    assert_eq!((count(&rec, "legend_sit_outs"), count(&rec, "side_without_legend")), (3, 1));
}

#[test]
fn the_refill_after_a_scourge_war_is_random_when_the_deck_is_short() {
    // Every player needs one and one Legend is left: each gets it in some game, never two.
    let mut got = [0u32; 4];
    for i in 0..400 {
        let mut t = position(&[F, F, F, F], &[None; 4], &["KHe"]);
        t.refill(&decks(), &mut GameSeed::new(5, i).rng(), &mut Silent);
        assert_eq!(t.held.iter().flatten().count(), 1);
        for (g, held) in got.iter_mut().zip(&t.held) {
            *g += held.is_some() as u32;
        }
    }
    assert!(got.iter().all(|&g| g > 60), "{got:?}");
}

// ---- Scarsands (T10) ---------------------------------------------------------------------------

#[test]
fn team_scarsands_pairs_fight_column_by_column() {
    // Every card a heart: no tie; each pair's higher Legend takes its column; the game ends.
    let mut t = position(&[F, F, F, F], &[Some("KHe"), Some("JHe"), Some("QCl"), Some("GCl")], &[]);
    let (end, rec) = fight(&mut t, field(&[((0, "2He"), (2, "9He")), ((1, "KHe"), (3, "5He"))]));
    assert_eq!(t.captured[..4], [4, 0, 0, 4]);
    assert_eq!(end, Some(End::Draw));
    assert_eq!((count(&rec, "scarsands"), count(&rec, "final_battle_scarsands")), (1, 1));
    assert_eq!((count(&rec, "legend_ties"), count(&rec, "units_unplayed")), (0, 24));
}

#[test]
fn team_scarsands_escalation_wraps_round_to_the_first_pair() {
    // Both pairs hold equal Legends: the first pair in table order ties, the second ties on top,
    // and the first pair, whose Legends are spent, draws: the jack (side a first) against the
    // White Ancient (side b). Side b's player of the first pair takes everything.
    let mut t =
        position(&[F, F, F, F], &[Some("KHe"), Some("QHe"), Some("KCl"), Some("QCl")], &["JSc", "white"]);
    let (end, rec) = fight(&mut t, field(&[((0, "2He"), (2, "9He")), ((1, "KHe"), (3, "5He"))]));
    assert_eq!(end, Some(End::Win(1)));
    assert_eq!(t.scores(), [0, 4 + 6]);
    assert_eq!((count(&rec, "legend_ties"), count(&rec, "scarsands_escalations")), (2, 2));
    assert!(t.held.iter().all(Option::is_none) && t.legends.is_empty());
}

#[test]
fn a_team_scarsands_escalation_the_deck_cannot_serve_stands_everything_off() {
    // Both pairs tie; the second pair ties on top; the first pair, spent, needs two Legends and
    // the deck has one: everything on the battlefield stands off and the game is a draw.
    let mut t = position(&[F, F, F, F], &[Some("KHe"), Some("QHe"), Some("KCl"), Some("QCl")], &["JSc"]);
    let (end, rec) = fight(&mut t, field(&[((0, "2He"), (2, "9He")), ((1, "KHe"), (3, "5He"))]));
    assert_eq!(end, Some(End::Draw));
    assert_eq!((t.set_aside_units, t.set_aside_legends, t.scores()), (4, 4, [0, 0]));
    assert_eq!((count(&rec, "legend_ties"), count(&rec, "scarsands_escalations")), (2, 1));
    assert_eq!((count(&rec, "legend_shortage"), t.legends.len()), (1, 1));
}

#[test]
fn team_scarsands_six_players_later_pairs_keep_their_legends() {
    // Pairs (P0, P3) tie on kings, (P1, P4) and (P2, P5) do not. Table order is random: a tie
    // settled by the next pair leaves the pair after it its Legends; a tie in the last column
    // wraps round to a pair that must draw from an empty deck: everything left stands off.
    let (mut escalated, mut stood_off) = (0, 0);
    for i in 0..40 {
        let mut t = position(
            &[F, F, F, F, F, F],
            &[Some("KHe"), Some("KSc"), Some("KHo"), Some("KCl"), Some("JCl"), Some("QCl")],
            &[],
        );
        let mut rec = record(6);
        t.field_units = 6;
        let f = field(&[((0, "2He"), (3, "9He")), ((1, "KHe"), (4, "5He")), ((2, "3He"), (5, "4He"))]);
        let end = t.fight(f, &decks(), &mut GameSeed::new(8, i).rng(), &mut rec, &mut Silent);
        assert!(end.is_some(), "the Scarsands ends the game");
        assert_eq!((t.field_units, t.field_legends), (0, 0));
        let up = t.captured_legends.iter().sum::<u32>() + t.set_aside_legends;
        assert_eq!(up as usize + t.held.iter().flatten().count(), 6);
        assert_eq!(count(&rec, "legend_ties"), 1);
        assert!(t.scores()[0] >= 4, "side a's kings take at least two columns' worth");
        escalated += count(&rec, "scarsands_escalations");
        stood_off += count(&rec, "legend_shortage");
        if count(&rec, "scarsands_escalations") == 1 && t.held.iter().flatten().count() == 2 {
            assert!(t.held[2].is_some() || t.held[1].is_some(), "the pair after keeps its Legends");
        }
    }
    assert!(escalated > 0 && stood_off > 0, "{escalated} {stood_off}");
}

#[test]
fn a_scarsands_pair_member_without_a_legend_stands_that_column_off() {
    let mut t = position(&[F, F, F, F], &[None, Some("JHe"), Some("QCl"), Some("GCl")], &[]);
    let (_, rec) = fight(&mut t, field(&[((0, "2He"), (2, "9He")), ((1, "KHe"), (3, "5He"))]));
    assert_eq!(count(&rec, "legend_shortage"), 1);
    assert_eq!((t.set_aside_units, t.set_aside_legends), (2, 1));
    assert_eq!(t.captured[3], 4);
}

// ---- Scorched Earth (T11) ----------------------------------------------------------------------

#[test]
fn team_scorched_earth_spared_then_scorched() {
    let held = [Some("KHe"), Some("QHe"), Some("JCl"), Some("GCl")];
    let scorched_field = || field(&[((0, "7He"), (2, "7Ho")), ((1, "7Ho"), (3, "7He"))]);
    // Spared: the four extras go back; P0's king takes the field; everyone draws again.
    let mut t = position(&[F, F, F, F], &held, &["JHe", "GHe", "QSc", "KSc", "white", "JSc"]);
    let (end, rec) = fight(&mut t, scorched_field());
    assert_eq!(end, None);
    assert_eq!(t.captured[0], 4 + 4);
    assert_eq!((count(&rec, "scorched_earth"), count(&rec, "scorched")), (1, 0));
    assert!(t.held[..4].iter().all(Option::is_some));
    assert_eq!(t.legends.len(), 2);
    // Scorched: P3's extra Legend is the Wyrm.
    let mut t = position(&[F, F, F, F], &held, &["JHe", "GHe", "QSc", "black"]);
    let (end, rec) = fight(&mut t, scorched_field());
    assert_eq!(end, Some(End::Scorched));
    assert_eq!(count(&rec, "scorched"), 1);
    assert_eq!(t.legends.len(), 0);
    assert_eq!(BLACK_ANCIENT, legend_of(&decks(), "black"));
}

// ---- unfought cards and the Final Battle (T3, T4, T13) ------------------------------------------

#[test]
fn an_unfought_card_waits_two_rounds_then_is_challenged_and_captured() {
    let d = decks();
    // P0 and P1 wait face down (laid in an earlier round); P2 has no Unit; of side b only P3 holds
    // Units: each round P3 challenges one waiting card, the other waits another round.
    let mut t = position(&[&["2Ho"], &["3Ho"], &[], &["9Cl", "8Cl"], &[], &[]], &[None; 6], &[]);
    t.waiting[0] = Some(unit_of(&d, "5He"));
    t.waiting[1] = Some(unit_of(&d, "6He"));
    let mut rng = rng();
    let mut rec = record(6);
    assert_eq!(round(&mut t, &mut rng, &mut rec), None);
    assert_eq!(t.waiting_cards(), 1, "one waiting card challenged, one still waiting");
    let still = if t.waiting[0].is_some() { 0 } else { 1 };
    assert_eq!((t.captured[3], count(&rec, "unfought_challenged"), count(&rec, "partial_rounds")), (2, 1, 1));
    assert_eq!(count(&rec, "unfought"), 0, "waiting cards are counted when laid, not again");
    assert_eq!(t.stacks[still].len(), 1, "the owner of a waiting card lays nothing new");
    assert_eq!(round(&mut t, &mut rng, &mut rec), None);
    assert_eq!((t.waiting[still], t.captured[3], count(&rec, "unfought_challenged")), (None, 4, 2));
    assert_eq!(t.stacks[still].len(), 1);
    // The player challenged in round 1 holds a Unit and has no opponent left: it waits now.
    assert_eq!((t.waiting_cards(), t.waiting[1 - still].is_some(), count(&rec, "unfought")), (1, true, 1));
}

#[test]
fn leftovers_lay_face_down_and_a_challenged_card_can_go_to_war() {
    let d = decks();
    // Side a: two players with Units; side b: one. One pair is fought, the other a card waits.
    let mut t =
        position(&[&["7He", "KHe"], &["7Ho", "KHo"], &["9Cl", "7Cl", "2Cl", "QCl"], &[]], &[None; 4], &[]);
    let mut rng = rng();
    let mut rec = record(4);
    round(&mut t, &mut rng, &mut rec);
    assert_eq!((count(&rec, "unfought"), count(&rec, "partial_rounds"), t.waiting_cards()), (1, 1, 1));
    let w = if t.waiting[0].is_some() { 0 } else { 1 };
    assert_eq!(t.waiting[w], Some(unit_of(&d, ["7He", "7Ho"][w])));
    // Round 2: P2's 7 challenges the waiting 7: a column war fed from the waiting card's owner.
    round(&mut t, &mut rng, &mut rec);
    assert_eq!((count(&rec, "unfought_challenged"), count(&rec, "column_wars")), (1, 1));
}

#[test]
fn a_partial_field_shows_who_lays_where_and_empty_positions() {
    // Side a: P0 and P1 hold Units; side b: only P2. One column is fought, one holds side a's
    // leftover face down opposite an empty position, and the third slot stays empty.
    let mut t = position(&[&["7He"], &["7Ho"], &["9Cl"], &[]], &[None; 4], &[]);
    let f = t.lay(&mut rng(), &mut record(4));
    assert_eq!((f.n, f.fought), (2, 1));
    let w = f.cols[1][0];
    assert!(w < 2 && t.waiting[w as usize].is_some(), "{f:?}");
    assert_eq!(f.cols, [[1 - w, 2], [w, EMPTY], [EMPTY, EMPTY]]);
    assert_eq!((f.face_up(), t.field_units), (1 << (1 - w) | 0b100, 2));
    // The mirror: side b has the leftover.
    let mut t = position(&[&["7He"], &[], &["9Cl"], &["7Cl"]], &[None; 4], &[]);
    let mut rec = record(4);
    let f = t.lay(&mut rng(), &mut rec);
    assert_eq!((f.n, f.fought, count(&rec, "unfought")), (2, 1, 1));
    let w = f.cols[1][1];
    assert!((2..4).contains(&w) && t.waiting[w as usize].is_some(), "{f:?}");
    assert_eq!(f.cols, [[0, 5 - w], [EMPTY, w], [EMPTY, EMPTY]]);
}

#[test]
fn challengers_and_challenged_cards_are_chosen_at_random() {
    let d = decks();
    // challenged[s]: P0 and P1 wait and P2 alone can challenge: P{s}'s card was challenged.
    // challenger[s]: P0 waits and P2 and P3 both can challenge: P{2 + s} challenged it.
    let (mut challenged, mut challenger) = ([0u32; 2], [0u32; 2]);
    for i in 0..200 {
        let mut t = position(&[&["2Ho"], &["3Ho"], &["9Cl"], &[]], &[None; 4], &[]);
        t.waiting[0] = Some(unit_of(&d, "5He"));
        t.waiting[1] = Some(unit_of(&d, "6He"));
        let f = t.lay(&mut GameSeed::new(7, i).rng(), &mut record(4));
        // The card not challenged keeps its unfought column.
        let c = f.cols[0][0];
        assert_eq!(
            (f.n, f.fought, &f.cols[..2], t.waiting_cards()),
            (2, 1, &[[c, 2], [1 - c, EMPTY]][..], 1)
        );
        challenged[c as usize] += 1;
        let mut t = position(&[&["2Ho"], &[], &["9Cl"], &["8Cl"]], &[None; 4], &[]);
        t.waiting[0] = Some(unit_of(&d, "5He"));
        let f = t.lay(&mut GameSeed::new(7, i).rng(), &mut record(4));
        // The player not challenging lays face down, waiting.
        let c = f.cols[0][1];
        assert_eq!(
            (f.n, f.fought, &f.cols[..2], t.waiting_cards()),
            (2, 1, &[[0, c], [EMPTY, 5 - c]][..], 1)
        );
        challenger[c as usize - 2] += 1;
    }
    // Each about 100 times in 200; fewer than 60 has binomial probability below 1e-8.
    assert!(challenged.iter().chain(&challenger).all(|&n| n >= 60), "{challenged:?} {challenger:?}");
}

#[test]
fn a_seed_lays_the_same_first_round_as_ever() {
    // Same seed, same game: the deal and the one matching draw of a full round fix these first
    // battlefields; a change here changes every published team result.
    let games: [(usize, u64, &[Column]); 5] = [
        (2, 0, &[((0, "GHe"), (3, "KHo")), ((1, "QHe"), (2, "6Cl"))]),
        (2, 2, &[((0, "10Ho"), (2, "8Sc")), ((1, "7He"), (3, "5Sc"))]),
        (3, 0, &[((0, "2Sc"), (5, "KHo")), ((1, "10Ho"), (3, "AHe")), ((2, "QHe"), (4, "2Ho"))]),
        (3, 1, &[((0, "GSc"), (5, "5Sc")), ((1, "4Sc"), (3, "JHe")), ((2, "QHo"), (4, "8Ho"))]),
        (3, 2, &[((0, "GHo"), (4, "2Sc")), ((1, "8Sc"), (3, "7He")), ((2, "7He"), (5, "5Sc"))]),
    ];
    for (positions, i, cols) in games {
        let e = TeamEngine::new(Pack::Draconian, 2, positions, Legendless::SitOut);
        let mut sc = e.new_scratch();
        let mut rng = e.deal(GameSeed::new(2026, i), &mut sc);
        let f = sc.team.lay(&mut rng, &mut GameRecord::new(Engine::layout(&e)));
        assert_eq!(f, field(cols), "{} players, game {i}", 2 * positions);
    }
}

#[test]
fn a_challenge_that_completes_the_field_is_not_a_partial_round() {
    let d = decks();
    // P0's card waits and P0 has no Unit left; everyone else holds one: one of side b challenges
    // P0's card and the other four pair up, so all three columns are fought. The columns of these
    // seeds are fixed, as every result depends on them.
    for (i, cols) in [(0, [[0, 4], [2, 3], [1, 5]]), (3, [[0, 4], [1, 3], [2, 5]])] {
        let mut t = position(&[&[], &["3Ho"], &["4Ho"], &["9Cl"], &["8Cl"], &["7Cl"]], &[None; 6], &[]);
        t.waiting[0] = Some(unit_of(&d, "5He"));
        let mut rec = record(6);
        let f = t.lay(&mut GameSeed::new(2026, i).rng(), &mut rec);
        assert_eq!((f.n, f.fought, f.challenged, &f.cols), (3, 3, 0b1, &cols), "game {i}");
        assert_eq!((count(&rec, "unfought_challenged"), count(&rec, "partial_rounds")), (1, 0));
        assert!(t.stacks.iter().all(Vec::is_empty) && t.waiting_cards() == 0);
    }
}

#[test]
fn a_side_out_of_units_ends_the_game_while_the_other_still_holds_units() {
    let d = decks();
    // Side a has only a waiting card left; side b holds Units: the Final Battle, waiting card
    // included, and the Units left stay unplayed.
    let mut t =
        position(&[&[], &[], &["9Cl", "8Cl"], &["2Cl"]], &[Some("JHe"), Some("QHe"), Some("KCl"), None], &[]);
    t.waiting[0] = Some(unit_of(&d, "5He"));
    t.captured = [3, 0, 1, 1, 0, 0];
    let mut rec = record(4);
    let end = round(&mut t, &mut rng(), &mut rec);
    assert_eq!(end, Some(End::Win(1)), "P2's king takes the waiting card and the Legends");
    assert_eq!(t.captured[2], 1 + 1 + 3);
    assert_eq!(count(&rec, "final_battle_out_of_units"), 1);
    assert_eq!((count(&rec, "unfought_final"), count(&rec, "units_unplayed")), (1, 3));
    assert_eq!((count(&rec, "legend_sit_outs"), count(&rec, "final_battle_decisive")), (1, 1));
    assert_eq!(t.rounds, 0, "the closing Final Battle adds no round");
}

#[test]
fn the_final_battle_cause_counter_names_why() {
    let mut t = position(&[&[], &[], &[], &[]], &[Some("JHe"), None, Some("JCl"), None], &[]);
    let mut rec = record(4);
    let end = t.final_battle(Cause::OutOfUnits, &decks(), &mut rng(), &mut rec, &mut Silent);
    assert_eq!(end, End::Draw, "tied jacks and no Legend to draw: a stand-off");
    assert_eq!((count(&rec, "legend_ties"), count(&rec, "legend_shortage")), (1, 1));
}

// ---- MVP (T14) ---------------------------------------------------------------------------------

#[test]
fn mvp_per_side_or_shared() {
    let mut t = position(&[F, F, F, F, F, F], &[None; 6], &[]);
    t.captured = [5, 9, 2, 4, 4, 1];
    assert_eq!((mvp(&t, 0), mvp(&t, 1)), (Mvp::Alone(1), Mvp::Shared));
    // Each side looks at its own seats only: side b's leader outscores side a's, and is its last seat.
    t.captured = [5, 9, 2, 10, 4, 12];
    assert_eq!((mvp(&t, 0), mvp(&t, 1)), (Mvp::Alone(1), Mvp::Alone(5)));
    let mut t = position(&[F, F, F, F], &[None; 4], &[]);
    t.captured[..4].copy_from_slice(&[3, 1, 7, 2]);
    assert_eq!((mvp(&t, 0), mvp(&t, 1)), (Mvp::Alone(0), Mvp::Alone(2)));
}

// ---- settings and the deal (T1) ----------------------------------------------------------------

#[test]
fn the_deal_gives_equal_shares_and_leaves_the_remainder_unused() {
    for (pack, n, players, share) in [
        (Pack::Draconian, 2, 4, 24),
        (Pack::Draconian, 2, 6, 16),
        (Pack::Draconian, 3, 4, 38),
        (Pack::Draconian, 3, 6, 25),
        (Pack::Draconian, 4, 4, 52),
        (Pack::Draconian, 4, 6, 34),
        (Pack::Standard, 2, 6, 15),
    ] {
        let e = TeamEngine::new(pack, n, players / 2, Legendless::SitOut);
        let mut sc = e.new_scratch();
        e.deal(GameSeed::new(1, 0), &mut sc);
        assert_eq!(e.share(), share);
        assert!(sc.team.stacks[..players].iter().all(|s| s.len() == share));
        assert!(sc.team.held[..players].iter().all(Option::is_some));
        assert_eq!(sc.team.legends.len(), e.legends.len() - players);
        assert_eq!(e.undealt(&sc).len(), e.units.len() - share * players);
    }
}

#[test]
fn players_are_two_four_or_six() {
    let set = |pairs: &[(&str, &str)]| {
        let explicit: Vec<(String, String)> =
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        crate::settings::resolve("scourge", SETTINGS, PRESETS, &Default::default(), &explicit)
    };
    for p in ["3", "5", "8"] {
        let err = set(&[("players", p)]).expect_err("refused").to_string();
        assert!(err.contains("allowed: 2, 4, 6"), "{err}");
    }
    for (p, rows) in [("4", 4), ("6", 4)] {
        let point = (DEF.build)(&set(&[("players", p), ("legendless", "stand-off")]).unwrap()).unwrap();
        assert_eq!(point.layout().outcomes.len(), rows);
        assert_eq!(point.layout().outcomes[1].team.as_deref(), Some("b"));
    }
}

// ---- properties over many games ----------------------------------------------------------------

fn engines() -> Vec<TeamEngine> {
    let mut out = Vec::new();
    for pack in [Pack::Draconian, Pack::Standard] {
        for n in 2..=4 {
            for positions in [2, 3] {
                for legendless in [Legendless::SitOut, Legendless::StandOff] {
                    out.push(TeamEngine::new(pack, n, positions, legendless));
                }
            }
        }
    }
    out
}

#[test]
fn every_card_is_accounted_for_after_every_round() {
    for e in engines() {
        for i in 0..150 {
            let seed = GameSeed::new(31, i);
            Engine::census(&e, seed).unwrap_or_else(|f| {
                panic!("{} decks, {} players: {seed:?}: {f}", e.decks.decks, e.players())
            });
        }
    }
}

#[test]
fn the_census_checks_every_round_and_a_closing_final_battle() {
    for e in engines().into_iter().step_by(2) {
        let out_of_units = Engine::layout(&e).counter("final_battle_out_of_units").unwrap();
        for i in 0..20 {
            let seed = GameSeed::new(31, i);
            let rec = Point::play_one(&e, seed);
            let steps = Point::census(&e, seed).unwrap_or_else(|err| panic!("{seed:?}: {err}"));
            // A Final Battle for want of Units is a step of its own; the others close a round.
            assert_eq!(steps, rec.length + rec.get(out_of_units), "{seed:?}");
        }
    }
}

#[test]
fn counters_agree_with_how_each_game_ended() {
    for e in engines() {
        let mut sc = e.new_scratch();
        let layout = Engine::layout(&e);
        let players = e.players();
        for i in 0..300 {
            let seed = GameSeed::new(17, i);
            let mut rec = GameRecord::new(layout);
            e.play(seed, &mut sc, &mut rec);
            let t = &sc.team;
            let c = |name: &str| rec.get(layout.counter(name).unwrap());
            let ends =
                c("final_battle_out_of_units") + c("final_battle_war_short") + c("final_battle_scarsands");
            let ending = &layout.outcomes[rec.outcome as usize];
            let mvps: u64 = (0..players).map(|s| c(&format!("mvp_p{s}"))).sum::<u64>() + c("mvp_shared");
            assert_eq!(c("mvp_shared"), c("mvp_shared_a") + c("mvp_shared_b"));
            if ending.kind == OutcomeKind::Scorched {
                assert_eq!((ends, c("scorched"), mvps), (0, 1, 0), "{seed:?}");
            } else {
                assert_eq!((ends, c("scorched"), mvps), (1, 0, 2), "{seed:?}");
                let standing = match t.standing() {
                    End::Win(s) => (OutcomeKind::Win, Some(["a", "b"][s])),
                    _ => (OutcomeKind::Draw, None),
                };
                assert_eq!((ending.kind, ending.team.as_deref()), standing, "{seed:?}");
                let stacks: usize = t.stacks.iter().map(Vec::len).sum();
                assert_eq!(c("units_unplayed"), stacks as u64);
                assert_eq!(t.waiting_cards(), 0);
            }
            assert_eq!(c("final_battle_scarsands"), c("scarsands"));
            assert_eq!(c("scarsands_short"), 0);
            assert!(c("war_stands") <= c("understaffed"));
            assert!(c("unfought_challenged") + c("unfought_final") <= c("unfought"));
            assert!(c("scourge_bystanders") <= c("scourge_wars"));
            if e.legendless == Legendless::StandOff {
                assert_eq!(c("legend_sit_outs"), 0);
            }
            let margin = rec.observed(team_dist::MARGIN).next().unwrap();
            assert_eq!(margin, t.scores()[0] as i64 - t.scores()[1] as i64);
            assert_eq!(rec.observations().len(), 3 + players);
            assert!(t.captured[players..].iter().all(|&x| x == 0) && players <= MAX_SEATS);
        }
    }
}

#[test]
fn rare_team_events_happen_across_seeds() {
    for positions in [2, 3] {
        let e = TeamEngine::new(Pack::Draconian, 3, positions, Legendless::SitOut);
        let layout = Engine::layout(&e);
        let mut totals = vec![0u64; layout.counters.len()];
        let mut sc = e.new_scratch();
        let mut rec = GameRecord::new(layout);
        for i in 0..20_000 {
            rec.reset();
            e.play(GameSeed::new(3, i), &mut sc, &mut rec);
            for (t, v) in totals.iter_mut().zip(rec.counters.iter()) {
                *t += v;
            }
        }
        let mut names = vec![
            "plain_battles",
            "column_wars",
            "diagonal_wars",
            "three_card_wars",
            "scourge_wars",
            "scarsands",
            "final_battle_out_of_units",
            "final_battle_war_short",
            "final_battle_scarsands",
            "final_battle_decisive",
            "legend_ties",
            "understaffed",
            "war_stands",
            "unfought",
            "unfought_challenged",
            "partial_rounds",
            "shared_best",
            "unfought_final",
            "mvp_shared",
        ];
        // Six cards of one value and colour are too rare to meet in these games.
        names.push(if positions == 3 { "scourge_bystanders" } else { "scorched_earth" });
        for name in names {
            let c = layout.counter(name).unwrap();
            assert!(totals[c.0 as usize] > 0, "{name} never happened with {} players", 2 * positions);
        }
    }
}

#[test]
fn the_narrative_tells_the_game_play_plays() {
    for e in engines().into_iter().step_by(2) {
        for i in 0..30 {
            let seed = GameSeed::new(23, i);
            let rec = Point::play_one(&e, seed);
            let story = Point::narrate(&e, seed);
            let layout = Engine::layout(&e);
            let c = |name: &str| rec.get(layout.counter(name).unwrap());
            let lines = |p: &str| story.lines().filter(|l| l.contains(p)).count() as u64;
            assert_eq!(story.lines().filter(|l| l.starts_with("Round ")).count() as u64, rec.length);
            assert_eq!(lines("Scourge War declared"), c("scourge_wars"));
            assert_eq!(lines("Battle of the Scarsands Canyon"), c("scarsands"));
            assert_eq!(lines("column war:"), c("column_wars"));
            assert_eq!(lines("diagonal war:"), c("diagonal_wars"));
            assert_eq!(lines("three-card war:"), c("three_card_wars"));
            assert_eq!(lines("cards in contention"), c("war_steps"));
            assert_eq!(lines("stand-off:"), c("legend_shortage"));
            assert_eq!(lines("(a shared best"), c("shared_best"));
            assert_eq!(lines("escalation:"), c("scarsands_escalations"));
            assert_eq!(lines("(was waiting face down: challenged)"), c("unfought_challenged"));
            assert_eq!(lines("Final Battle ("), c("final_battle_out_of_units") + c("final_battle_war_short"));
            let mvp_lines = if c("scorched") == 1 { 0 } else { 2 };
            assert_eq!(lines("MVP of side"), mvp_lines, "{seed:?}");
            let closing = crate::games::narrate::counters_line(&layout.counters, &rec.counters);
            assert!(story.contains(&format!("{closing}\n")), "{seed:?}");
        }
    }
}

#[test]
fn the_story_tells_each_war_step_and_no_totals_after_the_last_round() {
    let d = decks();
    let told = |t: &mut Team, f: Field| {
        let mut story = String::new();
        let mut rec = record(t.players());
        t.field_units += 2 * f.fought as u32;
        let end = t.fight(f, &d, &mut rng(), &mut rec, &mut crate::games::narrate::Story(&mut story));
        (end, story)
    };
    // As in the understaffed war: P0 lays its one Unit face up only, P2 a pair.
    let mut t = position(&[&["KHe"], F, &["3Cl", "9Cl"], F], &[None; 4], &[]);
    let (end, story) = told(&mut t, field(&[((0, "7He"), (2, "7Cl")), ((1, "KHe"), (3, "5Cl"))]));
    assert_eq!(end, None);
    assert!(story.contains("\n  war step 1: 2 cards in contention\n"), "{story}");
    assert!(story.contains("\n    P0 has one Unit: lays KHe face up only (understaffed)\n"), "{story}");
    assert!(story.contains("\n    P2 lays 3Cl face down, 9Cl face up\n"), "{story}");
    assert!(story.contains("\n  captured: P0 5, P1 2, P2 0, P3 0 (side a 7, side b 0)"), "{story}");
    // P0 has no Unit: its card stands.
    let mut t = position(&[&[], F, &["3Cl", "5Cl"], F], &[None; 4], &[]);
    let (_, story) = told(&mut t, field(&[((0, "7He"), (2, "7Cl")), ((1, "KHe"), (3, "5Cl"))]));
    assert!(story.contains("\n    P0 has no Unit: the card stands (understaffed)\n"), "{story}");
    // The Scarsands ends the game: no totals after it.
    let mut t = position(&[F, F, F, F], &[Some("KHe"), Some("JHe"), Some("QCl"), Some("GCl")], &[]);
    let (end, story) = told(&mut t, field(&[((0, "2He"), (2, "9He")), ((1, "KHe"), (3, "5He"))]));
    assert_eq!(end, Some(End::Draw));
    assert!(!story.contains("captured: P0"), "{story}");
}

#[test]
fn each_side_scores_the_cards_its_own_players_captured() {
    // Six players: seats 0-2 are side a, 3-5 side b. Every seat's captures count for its side
    // only, the last seat of side b included, and the standing follows the scores.
    let e: &[&str] = &[];
    let mut t = position(&[e, e, e, e, e, e], &[None; 6], &[]);
    t.captured[..6].copy_from_slice(&[1, 2, 3, 10, 20, 40]);
    assert_eq!(t.scores(), [6, 70]);
    assert_eq!(t.standing(), End::Win(1));
    assert_eq!((super::rules::side_name(0), super::rules::side_name(1)), ("a", "b"));
}
