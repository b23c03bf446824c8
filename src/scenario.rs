//! Scenario files and command-line runs, expanded into scenario points.
//!
//! A scenario is a name, a game count, a seed and a list of runs; each run names a game, fixed
//! settings (`set`) and sweep axes (`sweep`), and expands into the Cartesian product of its axes
//! (first axis outermost). Every point is validated and its engine built here, before any game is
//! played or any file written, so bad input never leaves half a run behind.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::{Spanned, Value};

use crate::error::UsageError;
use crate::games::{self, GameDef, Point};
use crate::settings::{FileSource, SettingFile, Settings, resolve};
use crate::suggest;

/// The file format (`docs/design.md`, "Scenario files").
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    name: Option<String>,
    description: Option<String>,
    games: Option<u64>,
    seed: Option<u64>,
    /// Baseline of paired comparisons: a point label or some of its `key=value` words.
    baseline: Option<String>,
    /// What `warsim tune SCENARIO` searches, when the scenario is written for a search.
    tune: Option<TuneSpec>,
    /// The question the scenario was written for: a metric or share name, answered first.
    question: Option<String>,
    #[serde(rename = "run")]
    runs: Vec<RunSpec>,
}

/// A scenario's `[tune]` table: the flags of `warsim tune` (the command line's replace them).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneSpec {
    #[serde(default)]
    pub vary: Vec<String>,
    pub goal: Option<String>,
    #[serde(default)]
    pub require: Vec<String>,
    pub within: Option<f64>,
    pub search: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RunSpec {
    game: Spanned<String>,
    #[serde(default)]
    set: Option<Spanned<toml::Table>>,
    #[serde(default)]
    sweep: Option<Spanned<toml::Table>>,
}

/// One run before expansion: a game plus explicit values and sweep axes, as strings.
#[derive(Clone, Debug)]
pub struct RunRequest {
    pub game: String,
    pub set: Vec<(String, String)>,
    pub sweep: Vec<(String, Vec<String>)>,
    /// Where the run came from, for error messages ("war-pickup.toml:7").
    pub origin: String,
    /// Keys set or swept from the command line (their file paths are relative to the working folder).
    pub cli_keys: Vec<String>,
    /// Where each key of `set` and `sweep` is written in the scenario file ("s.toml:7:12").
    pub key_at: Vec<(String, String)>,
}

/// A whole request: from a scenario file or a game name, before validation.
#[derive(Clone, Debug)]
pub struct ScenarioRequest {
    pub name: String,
    pub description: Option<String>,
    pub games: Option<u64>,
    pub seed: Option<u64>,
    /// Baseline of paired comparisons (see `report::compare::assign_baselines`).
    pub baseline: Option<String>,
    /// The scenario's `[tune]` table, if any.
    pub tune: Option<TuneSpec>,
    /// The scenario's question, if any.
    pub question: Option<String>,
    pub runs: Vec<RunRequest>,
    /// The scenario file's text, for the manifest.
    pub text: Option<String>,
    /// The scenario file's folder: relative file paths in it are read from there.
    pub base_dir: Option<PathBuf>,
}

/// One validated scenario point, ready to run.
pub struct ScenarioPoint {
    pub label: String,
    pub game: &'static GameDef,
    pub settings: Settings,
    pub engine: Box<dyn Point>,
}

/// Renders a TOML value as a setting value: arrays become comma-separated lists.
fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Boolean(b) => b.to_string(),
        Value::Array(items) => items.iter().map(value_text).collect::<Vec<_>>().join(","),
        other => other.to_string(),
    }
}

/// Where the lines of a text start, so that finding the line of an offset takes a binary search
/// rather than a scan from the start (a scenario with 40,000 runs asks 40,000 times).
struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Self {
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Lines { text, starts }
    }

    /// The line of byte `offset`, counted from 1.
    fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset.min(self.text.len()))
    }

    /// `line:column` of byte `offset`, both counted from 1 (the column in characters).
    fn line_col(&self, offset: usize) -> String {
        let offset = offset.min(self.text.len());
        let line = self.line(offset);
        let col = self.text.get(self.starts[line - 1]..offset).map_or(1, |s| s.chars().count() + 1);
        format!("{line}:{col}")
    }
}

/// Where `key` is written as a key (`key =`) in `text[span]`, as `line:column`.
fn key_position(lines: &Lines, span: std::ops::Range<usize>, key: &str) -> Option<String> {
    let text = lines.text;
    let part = text.get(span.clone())?;
    let mut from = 0;
    while let Some(i) = part[from..].find(key) {
        let at = from + i;
        let before = part[..at].chars().next_back();
        let after = part[at + key.len()..].trim_start_matches([' ', '\t', '"']).chars().next();
        let starts = before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if starts && after == Some('=') {
            return Some(lines.line_col(span.start + at));
        }
        from = at + key.len();
    }
    None
}

/// A TOML reader's message with Rust's type names in a user's words (`expected u64`: a whole
/// number; a number too large for any is said so).
fn plain_types(msg: &str) -> String {
    let msg = msg.replace("expected u64", "expected a whole number from 0 to 18446744073709551615");
    match msg.split_once(" as i128,") {
        Some((head, tail)) => format!("{} too large,{tail}", head.replace("invalid type: integer", "number")),
        None => msg,
    }
}

/// The first value that appears twice in `values`, if any.
pub fn repeated(values: &[String]) -> Option<&str> {
    values.iter().enumerate().find(|(i, v)| values[..*i].contains(v)).map(|(_, v)| v.as_str())
}

/// Reads a scenario file. Malformed TOML, unknown keys and wrong types are usage errors that name
/// the file, line and column.
pub fn load(path: &Path) -> Result<ScenarioRequest, UsageError> {
    let text = crate::io::read_input(path, crate::io::SCENARIO_LIMIT, "scenario file")?;
    if is_card_set(&text) {
        let shown = path.display();
        return Err(UsageError(format!(
            "{shown} is a card set, not a scenario: play it with `warsim run slots --set cards={shown}` (or read it back with `warsim cards {shown}`)"
        )));
    }
    let base_dir = path.parent().map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d });
    let stem = path.file_stem().map_or_else(|| "scenario".into(), |s| s.to_string_lossy().into_owned());
    parse(&text, &path.display().to_string(), &stem, base_dir)
}

/// Whether `text` is a Card Wars card set (its `format` line says so), which a scenario names with
/// `cards = FILE` rather than being one.
fn is_card_set(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim();
        l.starts_with("format")
            && l.split_once('=').is_some_and(|(k, v)| {
                k.trim() == "format" && v.trim().trim_matches('"') == crate::games::slots::cardfile::FORMAT
            })
    })
}

/// Parses a scenario's text. `shown` names it in error messages, `stem` is the name when the text
/// gives none, and `base_dir` is where relative file paths in it are read from.
pub fn parse(
    text: &str,
    shown: &str,
    stem: &str,
    base_dir: Option<&Path>,
) -> Result<ScenarioRequest, UsageError> {
    let text = text.to_string();
    let lines = Lines::new(&text);
    let file: ScenarioFile = toml::from_str(&text).map_err(|e| {
        let at = e.span().map(|s| format!(":{}", lines.line_col(s.start)));
        let msg = plain_types(&e.message().replace('\n', " "));
        // A wrong type names its key's place and what it takes; other faults get the outline.
        let outline = if msg.starts_with("invalid") || msg.starts_with("number") || msg.contains("expected one of") {
            ""
        } else {
            " (a scenario has name, description, question, games, seed, baseline, [tune] and [[run]] tables with game, set, sweep)"
        };
        UsageError(format!("{shown}{}: {msg}{outline}", at.unwrap_or_default()))
    })?;
    if file.runs.is_empty() {
        return Err(UsageError(format!("{shown}: no [[run]] table: a scenario needs at least one run")));
    }
    let mut runs = Vec::new();
    for run in &file.runs {
        let origin = format!("{shown}:{}", lines.line(run.game.span().start));
        let mut key_at = Vec::new();
        for table in [&run.set, &run.sweep].into_iter().flatten() {
            for k in table.get_ref().keys() {
                if let Some(at) = key_position(&lines, table.span(), k) {
                    key_at.push((k.clone(), format!("{shown}:{at}")));
                }
            }
        }
        let set = run
            .set
            .as_ref()
            .map(|t| t.get_ref().iter().map(|(k, v)| (k.clone(), value_text(v))).collect())
            .unwrap_or_default();
        let mut sweep = Vec::new();
        if let Some(t) = &run.sweep {
            let line = lines.line(t.span().start);
            for (k, v) in t.get_ref() {
                let Value::Array(items) = v else {
                    return Err(UsageError(format!(
                        "{shown}:{line}: sweep '{k}' must be a list of values, e.g. {k} = [1, 2, 3]"
                    )));
                };
                if items.is_empty() {
                    return Err(UsageError(format!("{shown}:{line}: sweep '{k}' has no values")));
                }
                let values: Vec<String> = items.iter().map(value_text).collect();
                if let Some(twice) = repeated(&values) {
                    return Err(UsageError(format!("{shown}:{line}: sweep '{k}' lists {twice} twice")));
                }
                if run.set.as_ref().is_some_and(|s| s.get_ref().contains_key(k)) {
                    return Err(UsageError(format!(
                        "{shown}:{line}: '{k}' is both set and swept in this run: give it in one of them"
                    )));
                }
                sweep.push((k.clone(), values));
            }
        }
        runs.push(RunRequest {
            game: run.game.get_ref().clone(),
            set,
            sweep,
            origin,
            cli_keys: Vec::new(),
            key_at,
        });
    }
    if let Some(name) = &file.name {
        check_name(name).map_err(|e| UsageError(format!("{shown}: {e}")))?;
    }
    // Without a name, the file's stem names the folder, made plain if it is not.
    let name = file.name.unwrap_or_else(|| {
        let plain: String = stem
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '-' })
            .collect();
        if check_name(&plain).is_ok() { plain } else { "scenario".into() }
    });
    Ok(ScenarioRequest {
        name,
        description: file.description,
        games: file.games,
        seed: file.seed,
        baseline: file.baseline,
        tune: file.tune,
        question: file.question,
        runs,
        text: Some(text),
        base_dir: base_dir.map(Path::to_path_buf),
    })
}

/// A run of one game's defaults, as `warsim run GAME` asks.
pub fn for_game(game: &str) -> ScenarioRequest {
    // The game's own spelling (`run War` writes results/war).
    let game = games::find(game).map_or(game, |g| g.name);
    ScenarioRequest {
        name: game.to_string(),
        description: None,
        games: None,
        seed: None,
        baseline: None,
        tune: None,
        question: None,
        runs: vec![RunRequest {
            game: game.to_string(),
            set: Vec::new(),
            sweep: Vec::new(),
            origin: "command line".into(),
            cli_keys: Vec::new(),
            key_at: Vec::new(),
        }],
        text: None,
        base_dir: None,
    }
}

/// Finds a game or explains which games exist, with the nearest name.
pub fn find_game(name: &str) -> Result<&'static GameDef, UsageError> {
    games::find(name).ok_or_else(|| {
        let names: Vec<&str> = games::registry().iter().map(|g| g.name).collect();
        let guess = suggest::nearest(name, &names, |n| n)
            .filter(|&(_, d)| suggest::is_near(name, d))
            .map_or(String::new(), |(n, _)| format!("; did you mean '{n}'?"));
        UsageError(format!("unknown game '{name}'{guess} (games: {})", names.join(", ")))
    })
}

/// Reads the target of `run`, `play` or `list`: a scenario file or a game name. A target with a `/`
/// or ending in `.toml` is a path; a bare word is a game, else a file of that name.
pub fn load_target(target: &str) -> Result<ScenarioRequest, UsageError> {
    let path = Path::new(target);
    let is_path =
        target.contains('/') || target.contains(std::path::MAIN_SEPARATOR) || target.ends_with(".toml");
    if path.is_dir() {
        // A few of its scenario files, so the line stays short in a folder of many.
        let files = suggest::toml_files(path);
        let more = match files.len() {
            n if n > 4 => format!(", and {} more", n - 4),
            _ => String::new(),
        };
        return Err(UsageError(format!(
            "'{target}' is a folder, not a scenario file{}",
            listed(" (scenario files ", &files[..files.len().min(4)], &format!("{more})"))
        )));
    }
    if is_path || (games::find(target).is_none() && path.is_file()) {
        if !path.exists() {
            return Err(missing_scenario(path));
        }
        return load(path);
    }
    match games::find(target) {
        Some(game) => Ok(for_game(game.name)),
        None => Err(unknown_target(target)),
    }
}

/// `prefix`, the paths joined, `suffix`; nothing when there are none.
fn listed(prefix: &str, paths: &[PathBuf], suffix: &str) -> String {
    if paths.is_empty() {
        return String::new();
    }
    // Files of one folder are named once after it: `in scenarios/: a.toml, b.toml`.
    let folder = paths[0].parent().filter(|d| paths.iter().all(|p| p.parent() == Some(*d)));
    let names: Vec<String> = match folder {
        Some(d) if !d.as_os_str().is_empty() => {
            let names: Vec<String> = paths
                .iter()
                .map(|p| p.file_name().unwrap_or_default().to_string_lossy().into_owned())
                .collect();
            vec![format!("in {}/: {}", d.display(), names.join(", "))]
        }
        _ => paths.iter().map(|p| p.display().to_string()).collect(),
    };
    format!("{prefix}{}{suffix}", names.join(", "))
}

/// The nearest of the games and of the scenario files `files` to `word`, said as a question, if
/// one is near enough to be a misspelling of it.
fn did_you_mean(word: &str, files: &[PathBuf]) -> String {
    let near = |d: &usize| suggest::is_near(word, *d);
    let file = files
        .iter()
        .map(|f| (f, suggest::distance(word, &suggest::stem(f))))
        .filter(|(_, d)| near(d))
        .min_by_key(|(_, d)| *d);
    let game = games::registry()
        .iter()
        .map(|g| (g.name, suggest::distance(word, g.name)))
        .filter(|(_, d)| near(d))
        .min_by_key(|(_, d)| *d);
    match (file, game) {
        (Some((f, df)), Some((_, dg))) if df <= dg => {
            format!("did you mean the scenario file '{}'?", f.display())
        }
        (_, Some((g, _))) => format!("did you mean the game '{g}'?"),
        (Some((f, _)), None) => format!("did you mean the scenario file '{}'?", f.display()),
        (None, None) => "nothing has a name near it".to_string(),
    }
}

/// A scenario path that names no file.
fn missing_scenario(path: &Path) -> UsageError {
    let files = suggest::files_near(path, &suggest::shipped_scenarios());
    UsageError(format!(
        "scenario file '{}' does not exist; {} (`warsim list` names the games and scenario files)",
        path.display(),
        did_you_mean(&suggest::stem(path), &files)
    ))
}

/// A bare word that is neither a game nor a file.
fn unknown_target(word: &str) -> UsageError {
    let names: Vec<&str> = games::registry().iter().map(|g| g.name).collect();
    let guess = did_you_mean(word, &suggest::shipped_scenarios());
    let listed = if guess.starts_with("did you mean") {
        "`warsim list` names the games and scenario files".to_string()
    } else {
        format!("games: {}; `warsim list` also names the scenario files", names.join(", "))
    };
    UsageError(format!("unknown game '{word}' and no file of that name; {guess} ({listed})"))
}

/// What `warsim run` with no target is told: what a target is, and the ones at hand.
pub fn target_help() -> String {
    let names: Vec<&str> = games::registry().iter().map(|g| g.name).collect();
    format!(
        "say what to play: a scenario file or a game name (games: {}{})",
        names.join(", "),
        listed("; scenario files ", &suggest::shipped_scenarios(), "")
    )
}

/// Expands every run into validated, built scenario points. File-valued settings are read from
/// disk, except those whose text is in `stored` (a replay of a finished run).
pub fn expand(req: &ScenarioRequest, stored: &[SettingFile]) -> Result<Vec<ScenarioPoint>, UsageError> {
    let total: u128 = req
        .runs
        .iter()
        .map(|r| r.sweep.iter().fold(1u128, |n, (_, values)| n.saturating_mul(values.len() as u128)))
        .sum();
    if total > MAX_POINTS as u128 {
        return Err(UsageError(format!(
            "the scenario expands to {total} points; at most {MAX_POINTS} fit one run (split the sweep into several scenarios)"
        )));
    }
    let mut points: Vec<ScenarioPoint> = Vec::new();
    let mut labels: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for run in &req.runs {
        let game = find_game(&run.game).map_err(|e| UsageError(format!("{}: {}", run.origin, e.0)))?;
        check_keys(run, game)?;
        let mut combos: Vec<Vec<(String, String)>> = vec![run.set.clone()];
        for (key, values) in &run.sweep {
            combos = combos
                .into_iter()
                .flat_map(|base| {
                    values.iter().map(move |v| {
                        let mut c = base.clone();
                        c.retain(|(k, _)| k != key);
                        c.push((key.clone(), v.clone()));
                        c
                    })
                })
                .collect();
        }
        for explicit in combos {
            let files = FileSource { base_dir: req.base_dir.as_deref(), cli_keys: &run.cli_keys, stored };
            let settings = resolve(game.name, game.settings, game.presets, &files, &explicit)
                .map_err(|e| UsageError(format!("{}: {}", run.origin, e.0)))?;
            let engine = (game.build)(&settings).map_err(|e| {
                // Some games name themselves in their errors already: say the name once.
                let e = e.to_string();
                let e = e.strip_prefix(&format!("{}: ", game.name)).unwrap_or(&e);
                UsageError(format!("{}: {}: {e} ({})", run.origin, game.name, describe(&explicit)))
            })?;
            let mut label = game.name.to_string();
            for (k, v) in &explicit {
                label.push_str(&format!(" {k}={v}"));
            }
            // Points that would share a label are numbered: `war players=3 #2`.
            let same = labels.entry(label.clone()).or_insert(0);
            *same += 1;
            if *same > 1 {
                label = format!("{label} #{same}");
            }
            points.push(ScenarioPoint { label, game, settings, engine });
        }
    }
    Ok(points)
}

/// Most points one run may have: every point keeps its statistics in memory and in `state.json`.
pub const MAX_POINTS: usize = 10_000;

/// Checks each key and value a run names, so an error points at the key where it is written.
fn check_keys(run: &RunRequest, game: &GameDef) -> Result<(), UsageError> {
    let at = |k: &str| {
        run.key_at.iter().find(|(key, _)| key == k).map_or_else(|| run.origin.clone(), |(_, at)| at.clone())
    };
    let values = run
        .set
        .iter()
        .map(|(k, v)| (k, v))
        .chain(run.sweep.iter().flat_map(|(k, vs)| vs.iter().map(move |v| (k, v))));
    for (k, v) in values {
        if k == "variant" {
            continue;
        }
        match game.settings.iter().find(|s| s.key == k) {
            Some(spec) => {
                spec.check(game.name, v).map_err(|e| UsageError(format!("{}: {}", at(k), e.0)))?;
            }
            None => {
                let mut keys: Vec<&str> = game.settings.iter().map(|s| s.key).collect();
                if !game.presets.is_empty() {
                    keys.push("variant");
                }
                let see = format!("`warsim list {}` lists them", game.name);
                return Err(UsageError(format!(
                    "{}: {}: {}",
                    at(k),
                    game.name,
                    crate::suggest::unknown("setting", k, &keys, "settings", &see)
                )));
            }
        }
    }
    Ok(())
}

fn describe(explicit: &[(String, String)]) -> String {
    if explicit.is_empty() {
        return "defaults".into();
    }
    explicit.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
}

/// A scenario name becomes a folder under `results/`: it must be one plain folder name.
pub fn check_name(name: &str) -> Result<(), String> {
    let plain = !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plain {
        Ok(())
    } else {
        Err(format!(
            "scenario name '{name}' is not a plain folder name (use 1 to 100 letters, digits, '-', '_' or '.', \
             not starting with '.'; --out chooses any folder)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_names_are_plain_folder_names() {
        for good in ["war-pickup", "a_b.c", "X1"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in ["", "..", ".", "/tmp/x", "../..", "a/b", ".hidden", "a b", &"x".repeat(101)] {
            let e = check_name(bad).unwrap_err();
            assert!(e.contains("not a plain folder name"), "{bad}: {e}");
        }
    }

    fn write(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.toml");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn sweeps_expand_to_the_cartesian_product_in_order() {
        let (_d, p) = write(
            "name = \"x\"\ngames = 10\n[[run]]\ngame = \"war\"\nset = { pickup = \"seat-order\" }\nsweep = { war_down = [1, 3], players = [2, 3, 4] }\n",
        );
        let req = load(&p).unwrap();
        let points = expand(&req, &[]).unwrap();
        let labels: Vec<&str> = points.iter().map(|p| p.label.as_str()).collect();
        assert_eq!(labels.len(), 6);
        assert_eq!(labels[0], "war pickup=seat-order war_down=1 players=2");
        assert_eq!(labels[5], "war pickup=seat-order war_down=3 players=4");
        assert_eq!(points[4].settings.get("players"), "3");
    }

    #[test]
    fn misspelt_key_names_line_and_column() {
        let (_d, p) = write("name = \"x\"\n[[run]]\ngame = \"war\"\nswep = { players = [2] }\n");
        let e = load(&p).unwrap_err();
        assert!(e.0.contains(":4:1") && e.0.contains("swep"), "{e}");
    }

    #[test]
    fn a_misspelt_setting_or_bad_value_names_its_line_and_column() {
        let (_d, p) = write("[[run]]\ngame = \"war\"\nset = { pickup = \"seat-order\", playrs = 3 }\n");
        let e = expand(&load(&p).unwrap(), &[]).err().unwrap();
        assert!(e.0.contains("s.toml:3:32: war: unknown setting 'playrs'"), "{e}");
        let (_d, p) =
            write("[[run]]\ngame = \"war\"\n\nsweep = { players = [2, 3],\n  war_down = [1, 99] }\n");
        let e = expand(&load(&p).unwrap(), &[]).err().unwrap();
        assert!(e.0.contains("s.toml:5:3: war: '99' is not a valid value for setting 'war_down'"), "{e}");
    }

    #[test]
    fn too_many_points_are_refused_before_any_is_built() {
        let values: Vec<String> = (0..200).map(|i| i.to_string()).collect();
        let mut req = for_game("war");
        req.runs[0].sweep.push(("max_battles".into(), values.clone()));
        req.runs[0].sweep.push(("battles_to_win".into(), values));
        let e = expand(&req, &[]).err().unwrap();
        assert!(e.0.contains("expands to 40000 points; at most 10000"), "{e}");
    }
}
