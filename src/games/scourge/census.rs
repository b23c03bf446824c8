//! Scourge War's census: after the deal and after every round (the closing Final Battle included),
//! every Unit is in a stack, on the battlefield, captured, set aside by a stand-off, or left out of
//! an odd deal, and every Legend is in the Legends deck, held face down, on the battlefield,
//! captured or set aside. The battlefield, captures and stand-offs are kept as counts only.

use super::engine::{ScourgeEngine, ScourgeScratch};
use super::rules::Duel;
use crate::games::Engine;
use crate::games::census::{Cards, Tally, Watch, account, past_cap};
use crate::games::narrate::Silent;
use crate::record::GameRecord;
use crate::seed::GameSeed;

/// Plays game `seed` through the engine's own loop with a census after every round.
pub(super) fn census(engine: &ScourgeEngine, seed: GameSeed) -> Result<u64, String> {
    let mut sc = engine.new_scratch();
    engine.deal(seed, &mut sc);
    let watch = RoundCensus {
        engine,
        units: Cards::of(engine.units.iter().copied()),
        legends: Cards::of(engine.legends.iter().copied()),
        undealt: undealt(&sc),
        rounds: 0,
        tally: Tally::default(),
    };
    watch.check(&sc.duel).map_err(|e| format!("the deal: {e}"))?;
    // The run deals the same game again, from the seed, and plays it.
    let mut watch = watch;
    engine.run(seed, &mut sc, &mut GameRecord::new(engine.layout()), &mut Silent, &mut watch);
    watch.tally.verdict()
}

/// The Units an odd deal leaves out: the last card of the shuffled deck.
fn undealt(sc: &ScourgeScratch) -> Cards {
    Cards::of(sc.deck[sc.deck.len() - sc.deck.len() % 2..].iter().copied())
}

struct RoundCensus<'a> {
    engine: &'a ScourgeEngine,
    units: Cards,
    legends: Cards,
    undealt: Cards,
    /// Rounds laid at the previous step (a Final Battle lays none).
    rounds: u64,
    tally: Tally,
}

impl RoundCensus<'_> {
    fn check(&self, duel: &Duel) -> Result<(), String> {
        let d = &self.engine.decks;
        let mut seen = Cards::of(duel.stacks.iter().flatten().copied());
        seen.add_all(&self.undealt);
        let captured: u32 = (0..2).map(|s| duel.captured[s] - duel.captured_legends[s]).sum();
        let counted = duel.field_units + captured + duel.set_aside_units;
        account("Units", &self.units, &seen, counted as u64, &|u| d.unit_label(u))?;
        let mut seen = Cards::of(duel.legends.iter().copied());
        seen.add(duel.held.iter().flatten().copied());
        let counted = duel.field_legends + duel.captured_legends.iter().sum::<u32>() + duel.set_aside_legends;
        account("Legends", &self.legends, &seen, counted as u64, &|l| d.legend_label(l))?;
        // Every round lays four Units, so a game has at most a quarter of them as rounds.
        past_cap(duel.rounds, self.engine.unit_count() as u64 / 4, "rounds")
    }
}

impl Watch<Duel> for RoundCensus<'_> {
    const ON: bool = true;

    fn step(&mut self, duel: &Duel, _: &GameRecord) -> bool {
        let outcome = self.check(duel);
        let rounds = std::mem::replace(&mut self.rounds, duel.rounds);
        let name = || {
            if duel.rounds == rounds {
                format!("the Final Battle after round {rounds}")
            } else {
                format!("round {}", duel.rounds)
            }
        };
        self.tally.checked(name, outcome)
    }
}
