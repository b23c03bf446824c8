//! The conformance test of every game, as OpenSpiel tests each of its games: for every registered
//! game, a grid of its settings (every value of every choice, `min`, `min + 1` and the default of
//! every integer, the example file of every file setting, every preset, one at a time from the
//! defaults; every other choice also with each example file) and every policy of a decision game (alone, at the minimum of each integer setting,
//! which gives a search its smallest budget, and with each example file):
//!
//! - random games end in an outcome row the layout declares, with declared counters and
//!   distributions;
//! - the game's census accounts for every card after every step, and the game ends within its cap;
//! - `play` tells the game `run` played: the narrative's own record equals `play`'s, field by field;
//! - the binary writes identical files for `--threads 1` and `--threads 2`, and for the shards of a
//!   run merged, both for the whole grid and for a run of the defaults long enough to span chunks.
//!
//! A new game gets all of this by being registered. Per-game tests keep what is particular to it.

mod binary;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use binary::{assert_same_csv, assert_same_files, run_ok, s};
use warsim::games::{GameDef, Point, registry};
use warsim::record::GameRecord;
use warsim::seed::GameSeed;
use warsim::settings::{Allowed, FileSource, resolve};
use warsim::sim::runner::CHUNK;

/// Master seed of the games played here.
const MASTER: u64 = 2026;
/// Games per grid point played in this process (census, play, narrative).
const GAMES: u64 = 10;
/// Games per grid point in the binary's runs: shards then start a fresh scratch at games that
/// the whole run plays on a scratch reused from the games before.
const CLI_GAMES: u64 = 8;
/// Games of the defaults in the binary's long runs: two chunks of the runner, so the threads
/// share the work, and shards that split a chunk.
const LONG_GAMES: u64 = CHUNK + 1_000;

/// One point of a game's grid: explicit `key=value` settings over the defaults.
struct GridPoint {
    sets: Vec<(String, String)>,
    point: Box<dyn Point>,
}

impl GridPoint {
    fn label(&self, game: &GameDef) -> String {
        let sets: Vec<String> = self.sets.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if sets.is_empty() {
            format!("{} (defaults)", game.name)
        } else {
            format!("{} {}", game.name, sets.join(" "))
        }
    }
}

/// The values tried for one setting, the default first.
fn values(game: &GameDef, key: &str, default: &str, allowed: Allowed) -> Vec<String> {
    let mut out = vec![default.to_string()];
    let ints =
        |min: i64, max: i64| [min, min + 1].into_iter().filter(move |v| *v <= max).map(|v| v.to_string());
    match allowed {
        Allowed::Choice(words) => out.extend(words.iter().map(|w| w.to_string())),
        Allowed::Bool => out.extend(["true".to_string(), "false".to_string()]),
        Allowed::Int { min, max } => out.extend(ints(min, max)),
        Allowed::IntOr { min, max, words } => {
            out.extend(ints(min, max));
            out.extend(words.iter().map(|w| w.to_string()));
        }
        Allowed::Text(_) if key == "policies" => {
            out.extend(game.policies.iter().map(|p| p.to_string()));
            if let [first, .., last] = game.policies {
                out.push(format!("{last},{first}"));
            }
        }
        Allowed::File { example, .. } => out.push(example_path(example)),
        Allowed::Text(_) => {}
    }
    let mut seen = BTreeSet::new();
    out.retain(|v| seen.insert(v.clone()));
    out
}

/// A repository file named by a setting's example, as an absolute path (the binary's runs read
/// their scenario from a temporary folder).
fn example_path(example: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(example).to_string_lossy().into_owned()
}

/// The grid of explicit settings: the defaults, each setting's values one at a time, each preset,
/// and each policy at the defaults, at the minimum of every integer setting and with the example
/// of every file setting.
fn grid_sets(game: &GameDef) -> Vec<Vec<(String, String)>> {
    let mut grid: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for spec in game.settings {
        for v in values(game, spec.key, spec.default, spec.allowed).into_iter().skip(1) {
            grid.push(vec![(spec.key.to_string(), v)]);
        }
    }
    // A choice may need a file (a measure of a card set's cards): each is tried with every
    // example file too.
    for spec in game.settings {
        let Allowed::Choice(words) = spec.allowed else { continue };
        for word in words.iter().filter(|w| **w != spec.default) {
            for file in game.settings {
                if let Allowed::File { example, .. } = file.allowed {
                    grid.push(vec![
                        (spec.key.to_string(), word.to_string()),
                        (file.key.to_string(), example_path(example)),
                    ]);
                }
            }
        }
    }
    for preset in game.presets.iter().filter(|p| !p.sets.is_empty()) {
        grid.push(vec![("variant".to_string(), preset.name.to_string())]);
    }
    for policy in game.policies {
        let mut at = vec![Vec::new()];
        for spec in game.settings {
            match spec.allowed {
                Allowed::Int { min, .. } => at.push(vec![(spec.key.to_string(), min.to_string())]),
                Allowed::File { example, .. } => at.push(vec![(spec.key.to_string(), example_path(example))]),
                _ => {}
            }
        }
        for mut sets in at {
            sets.insert(0, ("policies".to_string(), policy.to_string()));
            grid.push(sets);
        }
    }
    grid
}

/// The points of the grid the game builds; panics unless most of them build.
fn grid(game: &GameDef) -> Vec<GridPoint> {
    assert!(
        game.policies.is_empty() || game.settings.iter().any(|s| s.key == "policies"),
        "{}: a decision game names its line-up with a `policies` setting",
        game.name
    );
    let sets = grid_sets(game);
    let mut points: Vec<GridPoint> = Vec::new();
    let mut resolved = Vec::new();
    let mut refused = Vec::new();
    for sets in &sets {
        let settings = resolve(game.name, game.settings, game.presets, &FileSource::default(), sets)
            .unwrap_or_else(|e| panic!("{}: the grid's {sets:?} should be valid settings: {e}", game.name));
        if resolved.contains(&settings.values) {
            continue;
        }
        resolved.push(settings.values.clone());
        match (game.build)(&settings) {
            Ok(point) => points.push(GridPoint { sets: sets.clone(), point }),
            Err(e) => refused.push(format!("{sets:?}: {e}")),
        }
    }
    assert!(
        !points.is_empty() && points[0].sets.is_empty(),
        "{}: the defaults must build ({refused:?})",
        game.name
    );
    assert!(
        refused.len() * 5 <= resolved.len(),
        "{}: the game refuses {} of {} grid points: {refused:#?}",
        game.name,
        refused.len(),
        resolved.len()
    );
    points
}

/// Why two records of one game differ, field by field, or `None`.
fn record_difference(played: &GameRecord, other: &GameRecord, counters: &[String]) -> Option<String> {
    if played.length != other.length {
        return Some(format!("length {} v {}", played.length, other.length));
    }
    if played.outcome != other.outcome {
        return Some(format!("outcome row {} v {}", played.outcome, other.outcome));
    }
    if played.counters.len() != other.counters.len() {
        return Some(format!("{} counters v {}", played.counters.len(), other.counters.len()));
    }
    for (i, (a, b)) in played.counters.iter().zip(other.counters.iter()).enumerate() {
        if a != b {
            let name = counters.get(i).map_or("(undeclared)", String::as_str);
            return Some(format!("counter {i} ({name}) {a} v {b}"));
        }
    }
    if played.observations() != other.observations() {
        return Some(format!("observations {:?} v {:?}", played.observations(), other.observations()));
    }
    None
}

/// The record keeps to the layout: a declared outcome row, no counter or distribution beyond it.
fn layout_fault(point: &dyn Point, rec: &GameRecord) -> Option<String> {
    let layout = point.layout();
    if rec.outcome as usize >= layout.outcomes.len() {
        return Some(format!("outcome row {} is not declared ({} rows)", rec.outcome, layout.outcomes.len()));
    }
    if rec.counters.len() != layout.counters.len() {
        return Some(format!(
            "{} counters, but the layout declares {}",
            rec.counters.len(),
            layout.counters.len()
        ));
    }
    if let Some((m, _)) = rec.observations().iter().find(|(m, _)| *m as usize >= layout.distributions.len()) {
        return Some(format!("observation of undeclared distribution {m}"));
    }
    None
}

/// The census of game `seed`: every card accounted for after every step, within the cap.
fn check_census(point: &dyn Point, seed: GameSeed) -> Result<(), String> {
    match point.census(seed) {
        Ok(0) => Err("census: the game took no step".into()),
        Ok(_) => Ok(()),
        Err(e) => Err(format!("census: {e}")),
    }
}

/// The record `play` left for game `seed` (in a run's own loop: one scratch reused from game to
/// game) keeps to the layout, and the narrative's own record equals it.
fn check_record(point: &dyn Point, seed: GameSeed, played: &GameRecord) -> Result<(), String> {
    if let Some(f) = layout_fault(point, played) {
        return Err(format!("record: {f}"));
    }
    let (story, told) = point.story(seed);
    if story.trim().is_empty() {
        return Err("the narrative is empty".into());
    }
    if let Some(d) = record_difference(played, &told, &point.layout().counters) {
        return Err(format!("the narrative plays another game than `play`: {d}"));
    }
    Ok(())
}

/// The first fault of a grid point's games, naming the game.
fn check_point(point: &dyn Point) -> Result<(), String> {
    // The census first: it stops a game that plays past its cap, where `play` would not return.
    for i in 0..GAMES {
        check_census(point, GameSeed::new(MASTER, i)).map_err(|e| format!("game {i}: {e}"))?;
    }
    let mut played = Vec::new();
    point.play_each(MASTER, 0, GAMES, &mut |_, rec| played.push(rec.clone()));
    for (i, rec) in played.iter().enumerate() {
        check_record(point, GameSeed::new(MASTER, i as u64), rec).map_err(|e| format!("game {i}: {e}"))?;
    }
    Ok(())
}

#[test]
fn every_game_keeps_its_cards_ends_and_tells_the_game_it_plays() {
    let mut faults = Vec::new();
    let mut points = 0;
    for game in registry() {
        for gp in grid(game) {
            points += 1;
            if let Err(e) = check_point(&*gp.point) {
                faults.push(format!("{}, {e}", gp.label(game)));
            }
        }
    }
    let mut report = String::new();
    for f in faults.iter().take(20) {
        let _ = writeln!(report, "  {f}");
    }
    assert!(
        faults.is_empty(),
        "{} of {points} grid points fail the conformance checks ({GAMES} games each):\n{report}",
        faults.len()
    );
}

/// A scenario file of the given runs, one `[[run]]` per point.
fn scenario_text(game: &GameDef, points: &[&[(String, String)]], games: u64) -> String {
    let quote = |v: &str| format!("\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\""));
    let mut t = format!("name = \"conformance-{}\"\ngames = {games}\nseed = {MASTER}\n", game.name);
    for sets in points {
        let _ = writeln!(t, "\n[[run]]\ngame = {}", quote(game.name));
        if !sets.is_empty() {
            let pairs: Vec<String> = sets.iter().map(|(k, v)| format!("{k} = {}", quote(v))).collect();
            let _ = writeln!(t, "set = {{ {} }}", pairs.join(", "));
        }
    }
    t
}

/// Runs `file` whole on 1 and 2 threads and in 2 and 3 shards merged (in reverse order); every
/// output must equal the whole run's.
fn assert_reproducible(file: &Path, dir: &Path) {
    let run = |name: &str, extra: &[&str]| -> PathBuf {
        let out = dir.join(name);
        run_ok(&[&["run", s(file), "-q", "--out", s(&out)], extra].concat());
        out
    };
    let whole = run("whole", &["--threads", "2"]);
    assert_same_csv(&whole, &run("one-thread", &["--threads", "1"]));
    for n in [2, 3] {
        let shards: Vec<PathBuf> = (1..=n)
            .map(|k| run(&format!("shard-{k}-of-{n}"), &["--threads", "2", "--shard", &format!("{k}/{n}")]))
            .collect();
        let merged = dir.join(format!("merged-{n}"));
        let mut args = vec!["merge"];
        args.extend(shards.iter().rev().map(|d| s(d)));
        args.extend(["--out", s(&merged), "-q"]);
        run_ok(&args);
        assert_same_files(&whole, &merged);
    }
}

#[test]
fn every_game_writes_the_same_files_on_any_threads_and_shards() {
    let tmp = tempfile::tempdir().unwrap();
    for game in registry() {
        let grid = grid(game);
        let sets: Vec<&[(String, String)]> = grid.iter().map(|g| g.sets.as_slice()).collect();
        let file = tmp.path().join(format!("{}-grid.toml", game.name));
        std::fs::write(&file, scenario_text(game, &sets, CLI_GAMES)).unwrap();
        assert_reproducible(&file, &tmp.path().join(format!("{}-grid", game.name)));
        // A game whose seats rotate over a choice of players also plays three: deal groups of 3
        // games, which tile neither the runner's chunks nor LONG_GAMES nor the shards' even split.
        let has = |key: &str| game.settings.iter().any(|x| x.key == key);
        let three = [("players".to_string(), "3".to_string())];
        let long: Vec<&[(String, String)]> =
            if has("players") && has("rotate_seats") { vec![&[], &three] } else { vec![&[]] };
        let file = tmp.path().join(format!("{}-long.toml", game.name));
        std::fs::write(&file, scenario_text(game, &long, LONG_GAMES)).unwrap();
        assert_reproducible(&file, &tmp.path().join(format!("{}-long", game.name)));
    }
}
