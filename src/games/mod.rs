//! The games of the family, and the one shape each of them takes.
//!
//! A game is a `GameDef` (name, settings, presets, policies, and a constructor from validated
//! settings) whose constructor returns an `Engine`: a function of (settings, seed) -> `GameRecord`,
//! plus a narrative of the same game for `warsim play` and a census that checks every card is
//! accounted for after every step of it. Engines never print, never allocate per battle and never
//! know about threads, files or progress bars. The runner is generic over `Engine`, so each game's hot
//! loop is compiled for that game alone; the only dynamic dispatch is once per scenario point.
//!
//! Adding a game: its folder here and one line in `registry` (`docs/adding-a-game.md`).

use std::fmt::Write as _;

use crate::record::{GameRecord, Layout};
use crate::seed::GameSeed;
use crate::settings::{Preset, SettingSpec, Settings};
use crate::stats::{Accumulator, Timings};

pub mod cardwars;
pub mod census;
pub mod contest;
pub mod decision;
pub mod narrate;
pub mod scourge;
pub mod slots;
pub mod territories;
pub mod war;

/// One game of the family as the command line sees it.
pub struct GameDef {
    pub name: &'static str,
    pub title: &'static str,
    pub about: &'static str,
    pub settings: &'static [SettingSpec],
    pub presets: &'static [Preset],
    /// The policies a decision game's `policies` setting names; empty for a game without decisions.
    pub policies: &'static [&'static str],
    /// Builds the engine of a scenario point; `Err` is a one-line explanation of an impossible
    /// combination of otherwise valid settings.
    pub build: fn(&Settings) -> Result<Box<dyn Point>, String>,
    /// The card files a game's settings name, when it has any (`warsim cards`).
    pub card_files: Option<CardFiles>,
    /// The game's own words for its outcomes, events, shares and settings, as the answers say them
    /// (`("scorched", "Scorched Earth")`, `("decks", "decks")`), and for a setting's value a phrase under
    /// `key=value` (`("deal=piles", "pools dealt from the rarity piles")`): a
    /// name the list leaves out is said with its underscores as spaces.
    pub words: &'static [(&'static str, &'static str)],
}

impl GameDef {
    /// The game's words for `name` (an outcome, event, share or setting), if it declares any.
    pub fn word(&self, name: &str) -> Option<&'static str> {
        self.words.iter().find(|(n, _)| *n == name).map(|(_, w)| *w)
    }
}

/// What a game that reads card files offers beside its points: `warsim cards` and its fuzz target
/// reach the files through it, never through the game's own modules.
pub struct CardFiles {
    /// Compiles a card file's `text` (`file` names it in messages): `Err` is one line.
    pub check: fn(file: &str, text: &str) -> Result<(), String>,
    /// Compiles a card file's `text` and spells it back: plain text, or with `csv` one row per card.
    pub report: fn(file: &str, text: &str, csv: bool) -> Result<String, String>,
    /// What `warsim balance` may turn on the cards (None: nothing).
    pub balancing: Option<Balancing>,
}

/// How `warsim balance` measures and edits a game's card set: the settings that make a point
/// measure each design's causal impact on its holders (one observation: one event), the key that
/// limits the measure to some designs, and the set's designs and turnable numbers.
pub struct Balancing {
    /// The setting that names the card file.
    pub card_key: &'static str,
    /// Settings every balancing point has, whatever the user sets.
    pub fixed: &'static [(&'static str, &'static str)],
    /// The setting that limits the measure to the designs it lists (comma-separated ids).
    pub only_key: &'static str,
    /// The set's designs and knobs (`values`: printed values are knobs too).
    pub sheet: fn(file: &str, text: &str, values: bool) -> Result<Sheet, String>,
    /// The text with knob `k` of `sheet`'s list set to `v` for each `(k, v)`, compiled: the new
    /// text and, per edit, whether the design's printed text could be rewritten to say it.
    pub edit: EditFn,
}

/// `Balancing::edit`: (file, text, values, edits) to the edited text and, per edit, whether its
/// printed text says it.
pub type EditFn = fn(&str, &str, bool, &[(usize, i64)]) -> Result<(String, Vec<bool>), String>;

/// A card set as a balancer reads it.
pub struct Sheet {
    pub designs: Vec<SheetDesign>,
    pub knobs: Vec<SheetKnob>,
}

pub struct SheetDesign {
    pub id: String,
    pub name: String,
    pub designer: String,
    pub rarity: &'static str,
    pub value: u8,
    pub text: String,
    /// Whether the design has abilities (a textless design has no impact to measure).
    pub has_text: bool,
}

pub struct SheetKnob {
    pub design: usize,
    /// What it is, in the file's words (`ability 1 amount`).
    pub name: String,
    pub value: i64,
    /// The other settings the format allows, nearest first.
    pub settings: Vec<i64>,
    /// Settings taken by exchanging this number with another knob's (a printed value with
    /// another design's of the same designer and rarity): setting -> that knob, which takes
    /// this one's number.
    pub swaps: Vec<(i64, usize)>,
}

/// Every game warsim knows, in the order `warsim list` shows them.
pub fn registry() -> &'static [GameDef] {
    static GAMES: &[GameDef] = &[war::DEF, scourge::DEF, territories::DEF, cardwars::DEF, slots::DEF];
    GAMES
}

/// The card files of the game that reads them (`warsim cards`).
pub fn card_files() -> &'static CardFiles {
    registry().iter().find_map(|g| g.card_files.as_ref()).expect("a registered game reads card files")
}

/// Finds a game by name.
pub fn find(name: &str) -> Option<&'static GameDef> {
    registry().iter().find(|g| g.name.eq_ignore_ascii_case(name))
}

/// A game engine for one set of validated settings.
pub trait Engine: Send + Sync + 'static {
    /// Per-thread working memory, reused from game to game.
    type Scratch: Send;

    fn layout(&self) -> &Layout;
    fn new_scratch(&self) -> Self::Scratch;
    /// Plays game `seed` and fills `rec` (which arrives reset).
    fn play(&self, seed: GameSeed, scratch: &mut Self::Scratch, rec: &mut GameRecord);
    /// Tells game `seed` as a readable narrative, playing it with the story on, and returns the
    /// record that narrated game leaves: the same record `play` leaves for `seed`, field by field.
    fn narrate(&self, seed: GameSeed, out: &mut String) -> GameRecord;
    /// Plays game `seed` exactly as `play` does, with a census after every step (battle, round)
    /// that accounts for every card of the game; returns the number of steps checked, or the step
    /// and the cards of the first fault. Also fails a game that plays past its own cap.
    fn census(&self, seed: GameSeed) -> Result<u64, String>;
    /// Hands over (and resets) the decision costs measured in `scratch` since the last call. Only
    /// decision games measure any.
    fn take_timings(&self, _scratch: &mut Self::Scratch, _out: &mut crate::stats::Timings) {}
    /// What one index of a run is: `game`, or `tournament` for an event (`contest`).
    fn unit(&self) -> &'static str {
        "game"
    }
    /// Tells game `a`-`b` (entrants counted from 0) of event `seed` in full: only an event
    /// (`contest`) has games to name.
    fn narrate_game(&self, _seed: GameSeed, a: usize, b: usize, _out: &mut String) -> Result<(), String> {
        Err(format!(
            "--match {a}-{b} names a game of a tournament, and this point plays single games (set event=tournament)"
        ))
    }
}

/// A scenario point ready to run: the object-safe face of an `Engine`, so a scenario can hold
/// points of different games. Its one implementation, for every `Engine`, lives beside the runner
/// (`sim::runner`): games declare what a point can do, the runner does it.
pub trait Point: Send + Sync {
    fn layout(&self) -> &Layout;
    /// Plays the games with indices in `first..first + count` over the current rayon pool and
    /// returns their statistics. `tick` is called after each chunk with the number of games it played.
    fn play_range(&self, master: u64, first: u64, count: u64, tick: &(dyn Fn(u64) + Sync)) -> Accumulator {
        self.play_range_timed(master, first, count, tick, &std::sync::Mutex::new(Timings::new()))
    }
    /// `play_range`, adding the decision costs the games measured to `timings`.
    fn play_range_timed(
        &self,
        master: u64,
        first: u64,
        count: u64,
        tick: &(dyn Fn(u64) + Sync),
        timings: &std::sync::Mutex<Timings>,
    ) -> Accumulator;
    /// Plays games `first..first + count` as parallel chunks of at most `chunk` games, unless
    /// `stop` is raised: see `sim::runner::play_block`.
    #[allow(clippy::too_many_arguments)]
    fn play_block(
        &self,
        master: u64,
        first: u64,
        count: u64,
        chunk: u64,
        stop: &std::sync::atomic::AtomicBool,
        tick: &(dyn Fn(u64) + Sync),
        timings: &std::sync::Mutex<Timings>,
    ) -> (Accumulator, u64);
    fn narrate(&self, seed: GameSeed) -> String {
        self.story(seed).0
    }
    /// The narrative of game `seed` and the record its narrated play left.
    fn story(&self, seed: GameSeed) -> (String, GameRecord);
    /// See `Engine::census`.
    fn census(&self, seed: GameSeed) -> Result<u64, String>;
    /// See `Engine::unit`.
    fn unit(&self) -> &'static str;
    /// See `Engine::narrate_game`.
    fn story_game(&self, seed: GameSeed, a: usize, b: usize) -> Result<String, String>;
    /// Plays one game and returns its record (for tests and `play`'s closing line).
    fn play_one(&self, seed: GameSeed) -> GameRecord;
    /// Plays the games with indices in `first..first + count` in order on this thread, handing each
    /// game's index and record to `each` (for paired comparisons, which need game `i` of two points).
    fn play_each(&self, master: u64, first: u64, count: u64, each: &mut dyn FnMut(u64, &GameRecord));
}

/// Describes a game's settings and presets for `warsim list GAME`.
pub fn describe(def: &GameDef) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{} ({})\n{}\n", def.name, def.title, def.about);
    let _ = writeln!(s, "settings (default, allowed values):");
    let width = def.settings.iter().map(|x| x.key.len()).max().unwrap_or(0);
    for spec in def.settings {
        let _ = writeln!(s, "  {:width$}  default {:<10} allowed: {}", spec.key, spec.default, spec.allowed);
        let _ = writeln!(s, "  {:width$}  {}", "", spec.help);
    }
    if !def.presets.is_empty() {
        // An example of two presets that combine (they set different settings), from this game.
        let named: Vec<&Preset> = def.presets.iter().filter(|p| !p.sets.is_empty()).collect();
        let disjoint =
            |a: &Preset, b: &Preset| a.sets.iter().all(|(k, _)| b.sets.iter().all(|(l, _)| k != l));
        let pair = named.iter().enumerate().find_map(|(i, a)| {
            named[i + 1..].iter().find(|b| disjoint(a, b)).map(|b| format!("{}+{}", a.name, b.name))
        });
        let combine = pair.map_or_else(String::new, |p| format!(", combine with +, e.g. {p}"));
        let _ = writeln!(s, "\nvariants (--set variant=NAME{combine}):");
        let width = def.presets.iter().map(|p| p.name.len()).max().unwrap_or(0);
        for p in def.presets {
            let sets: Vec<String> = p.sets.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let sets = if sets.is_empty() { "(all defaults)".to_string() } else { sets.join(" ") };
            let _ = writeln!(s, "  {:width$}  {sets}  -- {}", p.name, p.about);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// Every Rust file below `dir`, tests included.
    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a source folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// The modules of the crate that a file's code (its comments aside) names: `crate::x` and
    /// `crate::{x, ...}`.
    fn named_modules(text: &str) -> Vec<String> {
        let code: String =
            text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join(" ");
        let mut out = Vec::new();
        let word = |s: &str| -> String {
            s.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
        };
        for (at, _) in code.match_indices("crate::") {
            let rest = code[at + "crate::".len()..].trim_start();
            let Some(group) = rest.strip_prefix('{') else {
                out.push(word(rest));
                continue;
            };
            // The group's members at its own depth: `{a::{b, c}, d}` names `a` and `d`.
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.push(word(&group[start..i]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(word(&group[start..i]));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        }
        out.retain(|w| !w.is_empty());
        out
    }

    /// The files below `src/<folder>` that name one of the modules `above`, with the module.
    fn reaching_up(folder: &str, above: &[&str]) -> Vec<String> {
        let mut files = Vec::new();
        sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(folder), &mut files);
        assert!(files.len() > 1, "src/{folder} holds the layer's files");
        let mut found = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a readable source");
            for module in named_modules(&text) {
                if above.contains(&module.as_str()) {
                    found.push(format!("{} names crate::{module}", file.display()));
                }
            }
        }
        found
    }

    #[test]
    fn the_reader_of_names_sees_paths_and_groups_but_not_comments() {
        // Built from pieces, so that this file's own code names no module it does not use.
        let text = [
            "use ",
            "crate::{record::{GameRecord, Layout}, ",
            "sim};\n// ",
            "crate::plan is above\nlet x = ",
            "crate::seed::mix64(1);",
        ]
        .concat();
        assert_eq!(named_modules(&text), ["record", "sim", "seed"]);
    }

    #[test]
    fn no_game_imports_the_tournament_layer_above_it() {
        // The event contract lives here (`contest`); the tournament layer consumes the games, so
        // the arrow never points back up, tests included.
        assert_eq!(reaching_up("games", &["tournament"]), Vec::<String>::new());
    }

    #[test]
    fn the_decision_kit_imports_no_game() {
        // `crate::decide` is the kit the decision games are built on: it sits below them.
        assert_eq!(reaching_up("decide", &["games", "tournament"]), Vec::<String>::new());
    }
}
