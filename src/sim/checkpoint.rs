//! `state.json`: the exact, resumable and mergeable state of a run's output folder.
//!
//! Every run keeps it next to its CSV files and rewrites it (atomically) after every block of
//! games, so a killed process loses at most the block it was playing; `--resume` continues from it
//! and `warsim merge` combines the states of shards. The format is JSON, versioned by `format` and
//! `format_version`; histograms are warsim's own exact dense histograms (`offset`, `counts`,
//! `total`), not an approximation, so merged statistics are exact. Nothing in it depends on time or
//! thread scheduling, so a merged or resumed run's state equals the uninterrupted run's.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::error::UsageError;
use crate::record::Layout;
use crate::scenario::ScenarioPoint;
use crate::settings::SettingFile;
use crate::sim::shard::Shard;
use crate::stats::Accumulator;

pub const FILE: &str = "state.json";
pub const FORMAT: &str = "warsim-state";
pub const FORMAT_VERSION: u32 = 3;

/// One scenario point's progress and statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointState {
    pub label: String,
    pub game: String,
    pub variant: String,
    /// Every setting of the point, in the game's order.
    pub settings: Vec<(String, String)>,
    /// The texts of the files its settings name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<SettingFile>,
    /// This shard's game indices are `first..end`.
    pub first: u64,
    pub end: u64,
    /// Games `first..first + done` are in `acc`.
    pub done: u64,
    /// No more games will be played for this point (all played, or `--until` met).
    pub complete: bool,
    pub layout: Layout,
    pub acc: Accumulator,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunState {
    pub format: String,
    pub format_version: u32,
    pub warsim_version: String,
    /// The build fingerprint of the program that played the games (`provenance`); results of two
    /// builds are combined only on request (`--allow-other-build`), and then name both.
    #[serde(default)]
    pub build: String,
    pub scenario: String,
    /// FNV-1a (64 bit) of the scenario's name, seed, games, until, and every point's label and
    /// settings: two states with different hashes come from different runs.
    pub scenario_hash: String,
    pub scenario_text: Option<String>,
    pub seed: u64,
    /// Games per point of the whole run (the cap under `--until`).
    pub games: u64,
    pub until: Option<String>,
    pub shard: Shard,
    /// Threads of the run, reported in the manifest (results do not depend on it).
    pub threads: usize,
    /// The command line, without `--resume`, reported in the manifest.
    pub command_line: Vec<String>,
    /// `--game-rows`: how many of each point's first games `games.csv` lists (0: no file).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub game_rows: u64,
    pub points: Vec<PointState>,
    /// `crate::io::fingerprint` of the state's JSON written with an empty checksum: a state whose
    /// text was edited or damaged no longer matches it.
    #[serde(default)]
    pub checksum: String,
}

impl RunState {
    /// A fresh state: no game played yet.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        scenario: &str,
        scenario_text: Option<String>,
        seed: u64,
        games: u64,
        until: Option<String>,
        shard: Shard,
        threads: usize,
        command_line: Vec<String>,
        points: &[ScenarioPoint],
    ) -> RunState {
        let points: Vec<PointState> = points
            .iter()
            .map(|p| (p, shard.range(games, p.engine.layout().group_size)))
            .map(|(p, range)| PointState {
                label: p.label.clone(),
                game: p.game.name.to_string(),
                variant: p.settings.variant.clone(),
                settings: p.settings.values.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
                files: p.settings.files.clone(),
                first: range.start,
                end: range.end,
                done: 0,
                complete: range.is_empty(),
                layout: p.engine.layout().clone(),
                acc: Accumulator::new(p.engine.layout()),
            })
            .collect();
        let mut state = RunState {
            format: FORMAT.into(),
            format_version: FORMAT_VERSION,
            warsim_version: env!("CARGO_PKG_VERSION").into(),
            build: crate::provenance::fingerprint().into(),
            scenario: scenario.into(),
            scenario_hash: String::new(),
            scenario_text,
            seed,
            games,
            until,
            shard,
            threads,
            command_line,
            game_rows: 0,
            points,
            checksum: String::new(),
        };
        state.scenario_hash = state.hash();
        state
    }

    fn hash(&self) -> String {
        let mut parts: Vec<String> = vec![
            self.scenario.clone(),
            self.seed.to_string(),
            self.games.to_string(),
            self.until.clone().unwrap_or_default(),
        ];
        for p in &self.points {
            parts.push(p.label.clone());
            parts.push(p.game.clone());
            parts.push(p.variant.clone());
            for (k, v) in &p.settings {
                parts.push(format!("{k}={v}"));
            }
            for f in &p.files {
                parts.push(format!("{}={}", f.key, f.hash));
            }
        }
        crate::io::fingerprint(&parts.iter().map(String::as_str).collect::<Vec<_>>())
    }

    pub fn complete(&self) -> bool {
        self.points.iter().all(|p| p.complete)
    }

    pub fn path(dir: &Path) -> PathBuf {
        dir.join(FILE)
    }

    /// Writes the state atomically into `dir`.
    pub fn save(&self, dir: &Path) -> anyhow::Result<()> {
        let text = self.sealed_text()?;
        crate::io::write_atomic(&Self::path(dir), |w| Ok(w.write_all(text.as_bytes())?))
            .with_context(|| format!("cannot save the run's state in {}", dir.display()))?;
        Ok(())
    }

    /// The state's JSON with its checksum filled in.
    fn sealed_text(&self) -> anyhow::Result<String> {
        let checksum = self.expected_checksum()?;
        let sealed = RunState { checksum, ..self.clone() };
        Ok(serde_json::to_string(&sealed)? + "\n")
    }

    /// The checksum this state's content calls for.
    fn expected_checksum(&self) -> anyhow::Result<String> {
        let open = RunState { checksum: String::new(), ..self.clone() };
        Ok(crate::io::fingerprint(&[&serde_json::to_string(&open)?]))
    }

    /// Reads `dir/state.json`; a missing, unreadable or foreign file is a usage error.
    pub fn load(dir: &Path) -> Result<RunState, UsageError> {
        let path = Self::path(dir);
        let text = crate::io::read_text_no_follow(&path, crate::io::STATE_LIMIT).map_err(|e| {
            UsageError(format!("{} has no readable {FILE} (not a warsim run folder?): {e}", dir.display()))
        })?;
        Self::from_text(&path, &text)
    }

    /// Reads a state from its JSON `text` (from `path`, named in messages), checking its format,
    /// checksum, scenario hash and numbers.
    pub fn from_text(path: &Path, text: &str) -> Result<RunState, UsageError> {
        // The version first, so a state of an older warsim is refused for what it is.
        #[derive(Deserialize)]
        struct Version {
            format: String,
            format_version: u32,
        }
        if let Ok(v) = serde_json::from_str::<Version>(text)
            && (v.format != FORMAT || v.format_version != FORMAT_VERSION)
        {
            return Err(UsageError(format!(
                "{} has format {} version {}; this warsim reads {FORMAT} version {FORMAT_VERSION} \
                 (states of other versions cannot be resumed or merged: run again)",
                path.display(),
                v.format,
                v.format_version
            )));
        }
        let state: RunState = serde_json::from_str(text).map_err(|e| {
            UsageError(format!(
                "{} is not a warsim {FILE} of format version {FORMAT_VERSION}: {e}",
                path.display()
            ))
        })?;
        if state.format != FORMAT || state.format_version != FORMAT_VERSION {
            return Err(UsageError(format!(
                "{} has format {} version {}; this warsim reads {FORMAT} version {FORMAT_VERSION}",
                path.display(),
                state.format,
                state.format_version
            )));
        }
        let damaged = |why: String| {
            UsageError(format!(
                "{} is damaged or was edited: {why}; it cannot be resumed or merged",
                path.display()
            ))
        };
        match state.expected_checksum() {
            Ok(sum) if sum == state.checksum => {}
            _ => return Err(damaged("its checksum does not match its content".into())),
        }
        if state.hash() != state.scenario_hash {
            return Err(damaged("its scenario hash does not match".into()));
        }
        if let Some(why) = state.inconsistency() {
            return Err(damaged(why));
        }
        Ok(state)
    }

    /// Why the numbers of this state cannot be those of a real run, if they cannot.
    fn inconsistency(&self) -> Option<String> {
        if !self.shard.is_valid() {
            return Some(format!("shard {} is not a shard of a run", self.shard));
        }
        for p in &self.points {
            let range = self.shard.range(self.games, p.layout.group_size);
            if (p.first, p.end) != (range.start, range.end) {
                return Some(format!(
                    "point '{}' covers games {}..{}, not shard {}'s",
                    p.label, p.first, p.end, self.shard
                ));
            }
            if p.done > p.end - p.first {
                return Some(format!("point '{}' has {} games of {}", p.label, p.done, p.end - p.first));
            }
            if p.complete && p.done < p.end - p.first && self.until.is_none() {
                return Some(format!(
                    "point '{}' is marked complete with {} of {} games",
                    p.label,
                    p.done,
                    p.end - p.first
                ));
            }
            if let Some(why) = p.acc.inconsistency(&p.layout, p.done) {
                return Some(format!("point '{}': {why}", p.label));
            }
        }
        None
    }

    /// Why `other` cannot be combined with (merged into, or resumed as) `self`, if it cannot.
    pub fn incompatibility(&self, other: &RunState) -> Option<String> {
        let differ = |what: &str, a: String, b: String| Some(format!("different {what} ({a} vs {b})"));
        if self.warsim_version != other.warsim_version {
            return differ("warsim version", self.warsim_version.clone(), other.warsim_version.clone());
        }
        if self.seed != other.seed {
            return differ("seed", self.seed.to_string(), other.seed.to_string());
        }
        if self.games != other.games {
            return differ("game count", self.games.to_string(), other.games.to_string());
        }
        if self.until != other.until {
            return differ("--until", format!("{:?}", self.until), format!("{:?}", other.until));
        }
        if let Some(why) = self.point_difference(other) {
            return Some(why);
        }
        if self.scenario != other.scenario {
            return differ("scenario name", self.scenario.clone(), other.scenario.clone());
        }
        if self.scenario_text != other.scenario_text {
            return Some(format!(
                "different scenario '{}': {}",
                self.scenario,
                text_difference(self.scenario_text.as_deref(), other.scenario_text.as_deref())
            ));
        }
        if self.scenario_hash != other.scenario_hash {
            return differ("scenario", self.scenario.clone(), other.scenario.clone());
        }
        if self.game_rows != other.game_rows {
            return differ("--game-rows", self.game_rows.to_string(), other.game_rows.to_string());
        }
        if self.shard.n != other.shard.n {
            return differ("shard count", self.shard.n.to_string(), other.shard.n.to_string());
        }
        None
    }

    /// Why the games of `other` cannot be combined with this state's unless the user allows
    /// another build: they were played by a program with another fingerprint.
    pub fn build_difference(&self, other: &RunState) -> Option<String> {
        (self.build != other.build).then(|| {
            format!(
                "made by different builds of warsim ({} vs {})",
                crate::provenance::shown(&self.build),
                crate::provenance::shown(&other.build)
            )
        })
    }

    /// The first difference between the points of two states, named: a point, a setting, a file.
    fn point_difference(&self, other: &RunState) -> Option<String> {
        if self.points.len() != other.points.len() {
            return Some(format!("different points ({} vs {})", self.points.len(), other.points.len()));
        }
        for (a, b) in self.points.iter().zip(&other.points) {
            if a.game != b.game {
                return Some(format!("different games ('{}' vs '{}')", a.label, b.label));
            }
            for ((k, va), (_, vb)) in a.settings.iter().zip(&b.settings) {
                if va != vb {
                    return Some(format!("point '{}': setting '{k}' is {va} here and {vb} there", a.label));
                }
            }
            for (fa, fb) in a.files.iter().zip(&b.files) {
                if fa.hash != fb.hash {
                    return Some(format!(
                        "point '{}': the file {} of setting '{}' changed (fingerprint {} vs {})",
                        a.label, fa.path, fa.key, fa.hash, fb.hash
                    ));
                }
            }
            if a.label != b.label {
                return Some(format!("different points ('{}' vs '{}')", a.label, b.label));
            }
        }
        None
    }
}

/// Where two scenario texts differ, in words: the first key whose value differs (`description`,
/// `run[2].set.players`), else the first line that differs (a comment, spacing).
pub(crate) fn text_difference(a: Option<&str>, b: Option<&str>) -> String {
    let (a, b) = match (a, b) {
        (Some(a), Some(b)) => (a, b),
        (Some(_), None) => return "one run read a scenario file, the other a game name".into(),
        _ => return "one run read a game name, the other a scenario file".into(),
    };
    if let (Ok(ta), Ok(tb)) = (a.parse::<toml::Table>(), b.parse::<toml::Table>())
        && let Some((path, va, vb)) =
            value_difference(String::new(), &toml::Value::Table(ta), &toml::Value::Table(tb))
    {
        let shown = |v: Option<&toml::Value>| v.map_or("absent".to_string(), |v| format!("{v}"));
        let (va, vb) = (shown(va), shown(vb));
        if va.chars().count() + vb.chars().count() <= 80 {
            return format!("key '{path}' is {va} here and {vb} there");
        }
        return format!("key '{path}' differs");
    }
    let line = a
        .lines()
        .zip(b.lines())
        .position(|(x, y)| x != y)
        .unwrap_or(a.lines().count().min(b.lines().count()));
    format!("the scenario files' texts differ from line {}", line + 1)
}

/// The first key path where two TOML values differ, with the values there.
fn value_difference<'v>(
    path: String,
    a: &'v toml::Value,
    b: &'v toml::Value,
) -> Option<(String, Option<&'v toml::Value>, Option<&'v toml::Value>)> {
    let join = |k: &str| if path.is_empty() { k.to_string() } else { format!("{path}.{k}") };
    match (a, b) {
        (toml::Value::Table(ta), toml::Value::Table(tb)) => {
            for k in ta.keys().chain(tb.keys().filter(|k| !ta.contains_key(*k))) {
                match (ta.get(k), tb.get(k)) {
                    (Some(x), Some(y)) => {
                        if let Some(d) = value_difference(join(k), x, y) {
                            return Some(d);
                        }
                    }
                    (x, y) => return Some((join(k), x, y)),
                }
            }
            None
        }
        (toml::Value::Array(xa), toml::Value::Array(xb)) if xa.len() == xb.len() => xa
            .iter()
            .zip(xb)
            .enumerate()
            .find_map(|(i, (x, y))| value_difference(format!("{path}[{}]", i + 1), x, y)),
        _ => (a != b).then_some((path, Some(a), Some(b))),
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::SettingFile;

    fn state(file_text: &str) -> RunState {
        let req = crate::scenario::for_game("war");
        let points = crate::scenario::expand(&req, &[]).unwrap();
        let mut s = RunState::new("x", None, 1, 100, None, Shard::WHOLE, 1, vec![], &points);
        s.points[0].files.push(SettingFile::new("cards", "set.toml", file_text.into()));
        s.scenario_hash = s.hash();
        s
    }

    #[test]
    fn a_changed_file_makes_another_run_and_says_which() {
        assert_eq!(state("A").incompatibility(&state("A")), None);
        let why = state("A").incompatibility(&state("B")).unwrap();
        assert!(why.contains("the file set.toml of setting 'cards' changed"), "{why}");
        assert_ne!(state("A").scenario_hash, state("B").scenario_hash, "the file is part of the identity");
    }

    #[test]
    fn a_different_scenario_text_names_the_key() {
        let (a, b) = ("name = \"x\"\ndescription = \"one\"\n", "name = \"x\"\ndescription = \"two\"\n");
        assert_eq!(text_difference(Some(a), Some(b)), "key 'description' is \"one\" here and \"two\" there");
        let runs =
            |p: u8| format!("[[run]]\ngame = \"war\"\n[[run]]\ngame = \"war\"\nset = {{ players = {p} }}\n");
        assert_eq!(
            text_difference(Some(&runs(2)), Some(&runs(3))),
            "key 'run[2].set.players' is 2 here and 3 there"
        );
        assert_eq!(
            text_difference(Some("# a\nx = 1"), Some("# b\nx = 1")),
            "the scenario files' texts differ from line 1"
        );
        let mut s = state("A");
        s.scenario_text = Some(a.into());
        let mut t = state("A");
        t.scenario_text = Some(b.into());
        let why = s.incompatibility(&t).unwrap();
        assert!(why.contains("different scenario 'x': key 'description'"), "{why}");
    }

    #[test]
    fn a_different_setting_is_named() {
        let a = state("A");
        let mut b = state("A");
        b.points[0].settings.iter_mut().find(|(k, _)| k == "players").unwrap().1 = "3".into();
        let why = a.incompatibility(&b).unwrap();
        assert!(why.contains("setting 'players' is 2 here and 3 there"), "{why}");
    }
}
