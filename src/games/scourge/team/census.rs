//! The team game's census: after the deal and after every round (the closing contest included),
//! every Unit is in a stack, waiting face down, on the battlefield, captured, set aside by a
//! stand-off, or left out by the deal, and every Legend is in the Legends deck, held face down, on
//! the battlefield, captured or set aside. Battlefield, captures and stand-offs are counts only.

use super::engine::{TeamEngine, TeamScratch};
use super::rules::Team;
use crate::games::Engine;
use crate::games::census::{Cards, Tally, Watch, account, past_cap};
use crate::games::narrate::Silent;
use crate::record::GameRecord;
use crate::seed::GameSeed;

/// Plays game `seed` through the engine's own loop with a census after every round.
pub(super) fn census(engine: &TeamEngine, seed: GameSeed) -> Result<u64, String> {
    let mut sc: TeamScratch = engine.new_scratch();
    engine.deal(seed, &mut sc);
    let mut watch = RoundCensus {
        engine,
        units: Cards::of(engine.units.iter().copied()),
        legends: Cards::of(engine.legends.iter().copied()),
        undealt: Cards::of(engine.undealt(&sc).iter().copied()),
        rounds: 0,
        tally: Tally::default(),
    };
    watch.check(&sc.team).map_err(|e| format!("the deal: {e}"))?;
    engine.run(seed, &mut sc, &mut GameRecord::new(engine.layout()), &mut Silent, &mut watch);
    watch.tally.verdict()
}

struct RoundCensus<'a> {
    engine: &'a TeamEngine,
    units: Cards,
    legends: Cards,
    undealt: Cards,
    /// Rounds laid at the previous step (a closing contest lays none).
    rounds: u64,
    tally: Tally,
}

impl RoundCensus<'_> {
    fn check(&self, team: &Team) -> Result<(), String> {
        let d = &self.engine.decks;
        let n = team.players();
        let mut seen = Cards::of(team.stacks[..n].iter().flatten().copied());
        seen.add(team.waiting.iter().flatten().copied());
        seen.add_all(&self.undealt);
        let captured: u32 = (0..n).map(|s| team.captured[s] - team.captured_legends[s]).sum();
        let counted = team.field_units + captured + team.set_aside_units;
        account("Units", &self.units, &seen, counted as u64, &|u| d.unit_label(u))?;
        let mut seen = Cards::of(team.legends.iter().copied());
        seen.add(team.held.iter().flatten().copied());
        let counted = team.field_legends + team.captured_legends.iter().sum::<u32>() + team.set_aside_legends;
        account("Legends", &self.legends, &seen, counted as u64, &|l| d.legend_label(l))?;
        if team.stacks[n..].iter().any(|s| !s.is_empty()) || team.held[n..].iter().any(Option::is_some) {
            return Err(format!("a seat beyond the {n} players holds cards"));
        }
        // Every round lays at least one Unit from a stack.
        past_cap(team.rounds, (self.engine.share() * n) as u64, "rounds")
    }
}

impl Watch<Team> for RoundCensus<'_> {
    const ON: bool = true;

    fn step(&mut self, team: &Team, _: &GameRecord) -> bool {
        let outcome = self.check(team);
        let rounds = std::mem::replace(&mut self.rounds, team.rounds);
        let name = || {
            if team.rounds == rounds {
                format!("the closing contest after round {rounds}")
            } else {
                format!("round {}", team.rounds)
            }
        };
        self.tally.checked(name, outcome)
    }
}
