//! `games.csv` (`run --game-rows N`): one row per game for the first N games of every point, for
//! people who pivot raw games in a spreadsheet or a notebook. The games are replayed by the command
//! layer after the run (game `i` is a pure function of the seed and `i`), so the file is the same
//! for any thread count, and a merge writes the unsharded run's file.

use std::io::Write;

use super::RunResult;
use crate::record::GameRecord;

/// The games of one point to write, by game index, in index order.
pub type PlayedGames = Vec<(u64, GameRecord)>;

/// File name of the export.
pub const FILE: &str = "games.csv";

/// Writes the header and one row per game of `games` (parallel to `run.points`): scenario, game
/// index, seed (`warsim play --seed S --game-index I` tells it), the outcome with its seat, team
/// and policy, the length, and every event counter of the run (empty for a point without it).
pub fn write(run: &RunResult, games: &[PlayedGames], out: &mut dyn Write) -> anyhow::Result<()> {
    let mut counters: Vec<&str> = Vec::new();
    for p in &run.points {
        for c in p.layout.events() {
            if !counters.contains(&c.as_str()) {
                counters.push(c);
            }
        }
    }
    let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out);
    let mut header: Vec<&str> =
        vec!["scenario", "game", "seed", "outcome", "seat", "team", "policy", "length"];
    header.extend(&counters);
    w.write_record(&header)?;
    let seed = run.manifest.seed.to_string();
    for (p, played) in run.points.iter().zip(games) {
        let events = p.layout.events();
        for (index, rec) in played {
            let key = &p.layout.outcomes[rec.outcome as usize];
            let mut row = vec![
                p.label.clone(),
                index.to_string(),
                seed.clone(),
                key.kind.name().to_string(),
                key.seat.map(|s| s.to_string()).unwrap_or_default(),
                key.team.clone().unwrap_or_default(),
                key.policy.clone().unwrap_or_default(),
                rec.length.to_string(),
            ];
            for c in &counters {
                let at = events.iter().position(|e| e == c);
                row.push(at.map(|i| rec.counters[i].to_string()).unwrap_or_default());
            }
            w.write_record(&row)?;
        }
    }
    w.flush()?;
    Ok(())
}
