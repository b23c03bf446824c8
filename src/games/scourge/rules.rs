//! Scourge War's settings as typed rules: the pack, how many decks are shuffled together, and the
//! players (only the two-player duel is implemented; the team games for 4 and 6 are to come).

use crate::cards::Pack;
use crate::settings::Settings;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScourgeRules {
    pub pack: Pack,
    pub decks: usize,
}

impl ScourgeRules {
    /// The rules of a scenario point; `Err` explains a player count that is not implemented.
    pub fn from_settings(s: &Settings) -> Result<ScourgeRules, String> {
        if s.get("players").trim() != "2" {
            return Err(format!(
                "scourge: players = {} is not available (allowed: 2; the team games for 4 and 6 players are not implemented yet)",
                s.get("players")
            ));
        }
        let pack = if s.get("deck") == "standard" { Pack::Standard } else { Pack::Draconian };
        Ok(ScourgeRules { pack, decks: s.int("decks") as usize })
    }
}
