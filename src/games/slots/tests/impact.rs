//! The impact measure (`impact=cards|pairs`) on card sets whose answer is known by construction: a
//! text that can never act has impact exactly 0; a text that scores points for its owner has a
//! clearly positive one; a replay deals exactly what the game as written dealt; two cards of
//! which one never acts do not interact, and two that only work together do.

use super::super::*;
use super::kit::{End, Impact, POOL, SEATS, TEXTLESS, score};
use crate::games::narrate::Silent;
use crate::games::{Engine, Point};
use crate::record::Layout;
use crate::report::paired_means::{Estimate, of_card, of_pair};
use crate::seed::GameSeed;
use crate::stats::Accumulator;

/// A card set of `cards` (TOML `[[card]]` tables).
fn set(cards: &str) -> std::sync::Arc<cardset::CardSet> {
    let text = format!("format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n{cards}");
    std::sync::Arc::new(cardfile::parse("t.toml", &text).expect("the test set parses"))
}

/// A common of printed `value` with one ability written in `ability`'s lines.
fn common(id: &str, value: u8, ability: &str) -> String {
    format!(
        "\n[[card]]\nid = \"{id}\"\nname = \"{id}\"\nrarity = \"common\"\nvalue = {value}\n  [[card.ability]]\n{ability}\n"
    )
}

/// Never acts: it destroys opposing cards printed above 9, and there are none.
fn dud(id: &str, value: u8) -> String {
    common(id, value, "  effect = \"destroy\"\n  target = { side = \"opp\", printed = \">9\" }")
}

/// Scores its owner 3 points when revealed.
fn scorer(id: &str, value: u8) -> String {
    common(id, value, "  effect = \"points\"\n  amount = 3")
}

/// The engine of `cards` with `impact`, random placement.
fn engine(cards: &str, impact: Impact) -> SlotsEngine {
    SlotsEngine::new(Rules { cards: Some(set(cards)), impact, ..Rules::with("random") })
}

/// Games `0..games` of master seed `master`, accumulated.
fn play(engine: &SlotsEngine, master: u64, games: u64) -> Accumulator {
    let mut acc = Accumulator::new(Engine::layout(engine));
    engine.play_each(master, 0, games, &mut |i, rec| acc.record(i, rec));
    acc.finish_group();
    acc
}

/// Design `k`'s impact.
fn impact(layout: &Layout, acc: &Accumulator, k: usize) -> Estimate {
    let t = layout.cards.as_ref().expect("a per-card table");
    of_card(acc, &acc.plan(layout), t, k, &t.paired[0])
}

/// The joint impact and the interaction of the pair of designs `a < b`.
fn pair(layout: &Layout, acc: &Accumulator, a: u32, b: u32) -> (Estimate, Estimate) {
    let t = layout.cards.as_ref().and_then(|t| t.pairs.as_deref()).expect("a pair table");
    let k = t.pairs.iter().position(|&p| p == (a, b)).expect("a declared pair");
    let plan = acc.plan(layout);
    (of_pair(acc, &plan, t, k, &t.paired[0]), of_pair(acc, &plan, t, k, &t.paired[1]))
}

/// A set of a dud (design 0, common 6) and a scorer (design 1, common 7): two copies of each in
/// every pool, both kept by `top21`.
fn dud_and_scorer() -> String {
    dud("dud", 6) + &scorer("scorer", 7)
}

#[test]
fn a_text_that_can_never_act_has_impact_exactly_zero() {
    let e = engine(&dud_and_scorer(), Impact::Cards);
    let acc = play(&e, 3, 300);
    let dud = impact(Engine::layout(&e), &acc, 0);
    // Two commons of 6 in every pool, kept by `top21`: measured twice a game (once per seat).
    assert_eq!(dud.n, 600);
    let i = dud.interval;
    assert_eq!((i.estimate, i.low, i.high), (0.0, 0.0, 0.0));
    // Width 0 at any count: the fewest paired games that have an interval.
    assert_eq!(dud.games_for_1pt, Some(2));
}

#[test]
fn a_text_that_scores_points_for_its_owner_raises_its_chance_to_win() {
    let e = engine(&dud_and_scorer(), Impact::Cards);
    let acc = play(&e, 3, 300);
    let s = impact(Engine::layout(&e), &acc, 1);
    assert_eq!(s.n, 600);
    // Two copies each worth 3 points a round they are placed in: a large, sure gain.
    assert!(s.interval.low > 0.1, "{s:?}");
    assert!(s.games_for_1pt.is_some_and(|g| g > 600), "{s:?}");
    // The recorded game is the game as written: the impact columns come on top of it.
    let plain = engine(&dud_and_scorer(), Impact::None);
    let (with, without) = (e.play_one(GameSeed::new(3, 5)), plain.play_one(GameSeed::new(3, 5)));
    assert_eq!((with.length, with.outcome), (without.length, without.outcome));
    let events = Engine::layout(&plain).events().len();
    assert_eq!(
        with.counters.iter().take(events).collect::<Vec<_>>(),
        without.counters.iter().take(events).collect::<Vec<_>>()
    );
}

#[test]
fn a_replay_deals_the_same_pools_decks_and_streams_as_the_game_as_written() {
    let e = engine(&(scorer("scorer", 7) + &scorer("other", 8)), Impact::Cards);
    let mut sc = e.new_scratch();
    for i in 0..40 {
        let seed = GameSeed::new(9, i);
        let seat = (i % 2) as usize;
        let mut written = e.deal_without(seed, &mut sc, seat, &[]);
        sc.game.begin(&mut written, &mut Silent, &mut super::Script::none());
        let a = (sc.game.st.clone(), sc.game.chance.clone(), written.clone(), *sc.players.seating());
        let mut muted = e.deal_without(seed, &mut sc, seat, &[0]);
        sc.game.begin(&mut muted, &mut Silent, &mut super::Script::none());
        let b = &sc.game.st;
        assert_eq!(a.0.pools.printed, b.pools.printed, "game {i}");
        assert_eq!((a.0.decks, a.0.hands, a.0.kept), (b.decks, b.hands, b.kept), "game {i}");
        assert_eq!((&a.1, &a.2, &a.3), (&sc.game.chance, &muted, sc.players.seating()), "game {i}");
        // Only the muted design's copies of that seat lost their text.
        for id in 0..a.0.pools.design.len() {
            let (was, is) = (a.0.pools.design[id], b.pools.design[id]);
            let muted_here = id / POOL == seat && was == 0;
            assert_eq!(is, if muted_here { TEXTLESS } else { was }, "game {i}, card {id}");
        }
    }
}

#[test]
fn a_card_that_never_acts_adds_nothing_to_a_pair_and_two_cards_that_only_work_together_interact() {
    // `hunter` scores 3 when an opposing card is destroyed; only `axe` destroys (the opposing card
    // when it is revealed). `dud` never acts.
    let hunter = common(
        "hunter",
        6,
        "  on = \"destroyed\"\n  watch = { side = \"opp\" }\n  effect = \"points\"\n  amount = 3",
    );
    let axe = common("axe", 5, "  effect = \"destroy\"\n  target = \"oc\"");
    let e = engine(&(hunter + &axe + &dud("dud", 7)), Impact::Pairs);
    let acc = play(&e, 4, 600);
    let layout = Engine::layout(&e);
    // hunter (0) with axe (1): hunter's points need axe's destroys.
    let (joint, inter) = pair(layout, &acc, 0, 1);
    assert_eq!(inter.n, 1200);
    assert!(inter.interval.low > 0.0, "{inter:?}");
    assert!(joint.interval.low > 0.0, "{joint:?}");
    // hunter alone (axe present) gains; the interaction is that gain minus hunter's gain without
    // axe, which is 0: every game of a never-acting hunter is the same game.
    let hunter_alone = impact(layout, &acc, 0);
    assert!(hunter_alone.interval.low > 0.0, "{hunter_alone:?}");
    // The dud never acts, so removing it changes no game: its pairs' interaction is exactly 0.
    for (a, b) in [(0, 2), (1, 2)] {
        let (joint, inter) = pair(layout, &acc, a, b);
        assert_eq!((inter.interval.low, inter.interval.high), (0.0, 0.0), "pair {a} {b}");
        // Its joint impact is the other card's own.
        let own = impact(layout, &acc, a as usize);
        assert!((joint.interval.estimate - own.interval.estimate).abs() < 1e-12, "pair {a} {b}");
    }
}

#[test]
fn two_cards_that_act_apart_interact_far_less_than_they_act() {
    // Each adds a point to its owner's round when revealed, in its own slot. They do not act on
    // each other, but the win chance is not additive in points (a round needs one point more than
    // the opponent's), so their interaction is small, not 0: far below either card's own impact,
    // with the paired intervals as the tolerance.
    let point = "  effect = \"points\"\n  amount = 1";
    let e = engine(&(common("one", 6, point) + &common("two", 8, point)), Impact::Pairs);
    let acc = play(&e, 5, 1500);
    let layout = Engine::layout(&e);
    let (_, inter) = pair(layout, &acc, 0, 1);
    assert_eq!(inter.n, 3000);
    let own = [0, 1].map(|k| impact(layout, &acc, k).interval);
    let biggest = inter.interval.low.abs().max(inter.interval.high.abs());
    assert!(own.iter().all(|o| biggest < o.low / 2.0), "{inter:?} {own:?}");
}

#[test]
fn the_owner_scores_a_win_two_half_points_a_draw_one() {
    for seat in 0..SEATS {
        assert_eq!(score(End::Won(seat), seat), 2);
        assert_eq!(score(End::Won(1 - seat), seat), 0);
        assert_eq!(score(End::Drawn, seat), 1);
    }
}
