//! Territorial Warfare's census: after the deal and after every answer the game takes (each seat's
//! placement, each Queen swap, and what the last of them sets off: the reveal, the settling of the
//! round), every card of the decks is in a hand, in the pile, on a territory or burned (burned
//! cards are face up, so the table keeps them by face), and no round is played past the cap.

use super::TerritoriesEngine;
use super::rules::{FACES, Game, State, face_label};
use crate::games::census::{Cards, Tally, Watch, account, past_cap};
use crate::games::decision::DecisionEngine;
use crate::games::narrate::Silent;
use crate::record::GameRecord;
use crate::seed::GameSeed;

/// Plays game `seed` through the engine's own loop with a census after every answer.
pub(super) fn census(engine: &TerritoriesEngine, seed: GameSeed) -> Result<u64, String> {
    let mut sc = engine.new_scratch();
    let rec = GameRecord::new(engine.layout());
    let deck = Cards::of(engine.rules.deck());
    let mut watch = AnswerCensus { deck, cap: engine.rules.max_rounds as u64, tally: Tally::default() };
    engine.run(seed, &mut sc, &rec, &mut Silent, &mut watch);
    watch.tally.verdict()
}

struct AnswerCensus {
    deck: Cards,
    cap: u64,
    tally: Tally,
}

impl Watch<Game> for AnswerCensus {
    const ON: bool = true;

    fn step(&mut self, game: &Game, _: &GameRecord) -> bool {
        let st = &game.st;
        let outcome = past_cap(st.round as u64, self.cap, "rounds")
            .and_then(|()| account("cards", &self.deck, &where_cards_are(st), 0, &|f| face_label(f).into()));
        let step = self.tally.steps;
        let name =
            || if step == 0 { "the deal".to_string() } else { format!("round {}, answer {step}", st.round) };
        self.tally.checked(name, outcome)
    }
}

/// Every card the table shows or hides, by face.
fn where_cards_are(st: &State) -> Cards {
    let mut cards = Cards::of(st.hands.iter().flatten().copied());
    cards.add(st.pile.iter().copied());
    cards.add(st.territories.iter().flatten().map(|s| s.face));
    for face in 0..FACES {
        cards.add_n(face as u8, st.burned[face] as u32);
    }
    cards
}
