//! Events above a two-player game: a round robin of entrants whose games a game engine plays.
//!
//! An entrant is whatever a game lets compete for a whole event: a player with the cards dealt to
//! it for the event, or a policy. The game says how an event deals (`Contest::deal`) and how one
//! game between two entrants goes (`Contest::play`), through the contract below the games
//! (`crate::games::contest`); this layer consumes it: it plays the meetings in the contract's order
//! (`games::contest::schedule`, the circle method), keeps the table (`games::contest::standings`)
//! and records one event as one record: so the runner, shards, merge, resume, `--until` and `play` work on events exactly as
//! they work on games, and the unit every statistic of an event run counts is one event.
//!
//! The record of an event: the outcome (entrant `s` first alone: a `win` row of seat `s`; first
//! place shared: `shared`), the table of entrants (who beat whom, first places alone and shared;
//! `standings.csv` with ratings), the games and drawn games, the winner's games won and lost, how
//! many share first place, and, when the game can say how strong each entrant's hand is, the rank
//! correlation between that strength and the final place. `length` sums the games' lengths.
//!
//! Nothing here knows which game it serves (`docs/tournament.md`).

pub mod engine;

pub use engine::Tournament;

#[cfg(test)]
mod tests {
    /// The layer's sources up to their tests.
    const SOURCES: [(&str, &str); 2] =
        [("mod.rs", include_str!("mod.rs")), ("engine.rs", include_str!("engine.rs"))];

    #[test]
    fn the_layer_names_no_game() {
        // Words only a game would bring in: its name, or Card Wars' own things.
        let games =
            ["slots", "card wars", "cardwars", "territor", "scourge", "design", "deck", "pool", "rarity"];
        for (file, text) in SOURCES {
            let code = text.split("#[cfg(test)]").next().unwrap().to_lowercase();
            for word in games {
                assert!(!code.contains(word), "src/tournament/{file} names '{word}'");
            }
        }
    }
}
