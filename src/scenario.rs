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
    #[serde(rename = "run")]
    runs: Vec<RunSpec>,
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

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Reads a scenario file. Malformed TOML, unknown keys and wrong types are usage errors that name
/// the file, line and column.
pub fn load(path: &Path) -> Result<ScenarioRequest, UsageError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| UsageError(format!("cannot read scenario file {}: {e}", path.display())))?;
    let base_dir = path.parent().map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d });
    let stem = path.file_stem().map_or_else(|| "scenario".into(), |s| s.to_string_lossy().into_owned());
    parse(&text, &path.display().to_string(), &stem, base_dir)
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
    let file: ScenarioFile = toml::from_str(&text).map_err(|e| {
        let at = e.span().map(|s| {
            let line = line_of(&text, s.start);
            let col = s.start - text[..s.start].rfind('\n').map_or(0, |i| i + 1) + 1;
            format!(":{line}:{col}")
        });
        let msg = e.message().replace('\n', " ");
        UsageError(format!(
            "{shown}{}: {msg} (a scenario has name, description, games, seed, baseline and [[run]] tables with game, set, sweep)",
            at.unwrap_or_default()
        ))
    })?;
    if file.runs.is_empty() {
        return Err(UsageError(format!("{shown}: no [[run]] table: a scenario needs at least one run")));
    }
    let mut runs = Vec::new();
    for run in &file.runs {
        let origin = format!("{shown}:{}", line_of(&text, run.game.span().start));
        let set = run
            .set
            .as_ref()
            .map(|t| t.get_ref().iter().map(|(k, v)| (k.clone(), value_text(v))).collect())
            .unwrap_or_default();
        let mut sweep = Vec::new();
        if let Some(t) = &run.sweep {
            let line = line_of(&text, t.span().start);
            for (k, v) in t.get_ref() {
                let Value::Array(items) = v else {
                    return Err(UsageError(format!(
                        "{shown}:{line}: sweep '{k}' must be a list of values, e.g. {k} = [1, 2, 3]"
                    )));
                };
                if items.is_empty() {
                    return Err(UsageError(format!("{shown}:{line}: sweep '{k}' has no values")));
                }
                sweep.push((k.clone(), items.iter().map(value_text).collect()));
            }
        }
        runs.push(RunRequest { game: run.game.get_ref().clone(), set, sweep, origin, cli_keys: Vec::new() });
    }
    if let Some(name) = &file.name {
        crate::outdir::check_name(name).map_err(|e| UsageError(format!("{shown}: {e}")))?;
    }
    // Without a name, the file's stem names the folder, made plain if it is not.
    let name = file.name.unwrap_or_else(|| {
        let plain: String = stem
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '-' })
            .collect();
        if crate::outdir::check_name(&plain).is_ok() { plain } else { "scenario".into() }
    });
    Ok(ScenarioRequest {
        name,
        description: file.description,
        games: file.games,
        seed: file.seed,
        baseline: file.baseline,
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
        runs: vec![RunRequest {
            game: game.to_string(),
            set: Vec::new(),
            sweep: Vec::new(),
            origin: "command line".into(),
            cli_keys: Vec::new(),
        }],
        text: None,
        base_dir: None,
    }
}

/// Finds a game or explains which games exist.
pub fn find_game(name: &str) -> Result<&'static GameDef, UsageError> {
    games::find(name).ok_or_else(|| {
        let names: Vec<&str> = games::registry().iter().map(|g| g.name).collect();
        UsageError(format!("unknown game '{name}' (games: {})", names.join(", ")))
    })
}

/// Expands every run into validated, built scenario points. File-valued settings are read from
/// disk, except those whose text is in `stored` (a replay of a finished run).
pub fn expand(req: &ScenarioRequest, stored: &[SettingFile]) -> Result<Vec<ScenarioPoint>, UsageError> {
    let mut points: Vec<ScenarioPoint> = Vec::new();
    for run in &req.runs {
        let game = find_game(&run.game).map_err(|e| UsageError(format!("{}: {}", run.origin, e.0)))?;
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
                UsageError(format!("{}: {}: {e} ({})", run.origin, game.name, describe(&explicit)))
            })?;
            let mut label = game.name.to_string();
            for (k, v) in &explicit {
                label.push_str(&format!(" {k}={v}"));
            }
            let same = points
                .iter()
                .filter(|p| p.label == label || p.label.starts_with(&format!("{label} #")))
                .count();
            if same > 0 {
                label = format!("{label} #{}", same + 1);
            }
            points.push(ScenarioPoint { label, game, settings, engine });
        }
    }
    Ok(points)
}

fn describe(explicit: &[(String, String)]) -> String {
    if explicit.is_empty() {
        return "defaults".into();
    }
    explicit.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn unknown_setting_in_a_run_names_the_run() {
        let (_d, p) = write("[[run]]\ngame = \"war\"\nset = { playrs = 3 }\n");
        let e = expand(&load(&p).unwrap(), &[]).err().unwrap();
        assert!(e.0.contains("s.toml:2") && e.0.contains("unknown setting 'playrs'"), "{e}");
    }
}
