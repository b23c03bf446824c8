//! Cardwars' census: after the deal and after every answer the game takes (and everything it
//! plays on its own up to the next decision), each seat's 27 cards are in its deck, hand,
//! graveyard or on its battlefield (cards never change owner), and no turn is played past the cap.

use super::CardwarsEngine;
use super::rules::{Game, label};
use super::{PLAYERS, deck_of};
use crate::games::census::{Cards, Tally, Watch, account, past_cap};
use crate::games::decision::DecisionEngine;
use crate::games::narrate::Silent;
use crate::record::GameRecord;
use crate::seed::GameSeed;

/// Plays game `seed` through the engine's own loop with a census after every answer.
pub(super) fn census(engine: &CardwarsEngine, seed: GameSeed) -> Result<u64, String> {
    let mut sc = engine.new_scratch();
    let rec = GameRecord::new(engine.layout());
    let decks = [Cards::of(deck_of(0)), Cards::of(deck_of(1))];
    let mut watch =
        AnswerCensus { decks, cap: engine.rules.config.max_turns as u64, tally: Tally::default() };
    engine.run(seed, &mut sc, &rec, &mut Silent, &mut watch);
    watch.tally.verdict()
}

struct AnswerCensus {
    decks: [Cards; PLAYERS],
    cap: u64,
    tally: Tally,
}

impl Watch<Game> for AnswerCensus {
    const ON: bool = true;

    fn step(&mut self, game: &Game, _: &GameRecord) -> bool {
        let mut outcome = past_cap(game.turn as u64, self.cap, "turns");
        for (seat, deck) in self.decks.iter().enumerate() {
            let p = &game.players[seat];
            let mut seen = Cards::of(p.deck.as_slice().iter().copied());
            seen.add(p.hand.as_slice().iter().copied());
            seen.add(p.grave.as_slice().iter().copied());
            seen.add(p.field.as_slice().iter().map(|u| u.card));
            outcome = outcome.and_then(|()| account(&format!("P{seat}'s cards"), deck, &seen, 0, &label));
        }
        let step = self.tally.steps;
        let name =
            || if step == 0 { "the deal".to_string() } else { format!("turn {}, answer {step}", game.turn) };
        self.tally.checked(name, outcome)
    }
}
