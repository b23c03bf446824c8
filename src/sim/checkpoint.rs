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
use crate::report::{Manifest, PointResult, RunResult};
use crate::scenario::ScenarioPoint;
use crate::settings::Settings;
use crate::sim::shard::Shard;
use crate::stats::Accumulator;

pub const FILE: &str = "state.json";
pub const FORMAT: &str = "warsim-state";
pub const FORMAT_VERSION: u32 = 1;

/// One scenario point's progress and statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointState {
    pub label: String,
    pub game: String,
    pub variant: String,
    /// Every setting of the point, in the game's order.
    pub settings: Vec<(String, String)>,
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
    pub points: Vec<PointState>,
}

fn fnv1a(parts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in part.as_bytes().iter().chain(std::iter::once(&0xffu8)) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
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
        let range = shard.range(games);
        let points: Vec<PointState> = points
            .iter()
            .map(|p| PointState {
                label: p.label.clone(),
                game: p.game.name.to_string(),
                variant: p.settings.variant.clone(),
                settings: p.settings.values.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
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
            scenario: scenario.into(),
            scenario_hash: String::new(),
            scenario_text,
            seed,
            games,
            until,
            shard,
            threads,
            command_line,
            points,
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
        }
        fnv1a(&parts.iter().map(String::as_str).collect::<Vec<_>>())
    }

    pub fn complete(&self) -> bool {
        self.points.iter().all(|p| p.complete)
    }

    pub fn path(dir: &Path) -> PathBuf {
        dir.join(FILE)
    }

    /// Writes the state atomically into `dir`.
    pub fn save(&self, dir: &Path) -> anyhow::Result<()> {
        crate::report::write_atomic(&Self::path(dir), |w| {
            serde_json::to_writer(&mut *w, self)?;
            writeln!(w)?;
            Ok(())
        })
        .with_context(|| format!("cannot save the run's state in {}", dir.display()))
    }

    /// Reads `dir/state.json`; a missing, unreadable or foreign file is a usage error.
    pub fn load(dir: &Path) -> Result<RunState, UsageError> {
        let path = Self::path(dir);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            UsageError(format!("{} has no readable {FILE} (not a warsim run folder?): {e}", dir.display()))
        })?;
        let state: RunState = serde_json::from_str(&text).map_err(|e| {
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
        if state.hash() != state.scenario_hash {
            return Err(UsageError(format!(
                "{} is damaged: its scenario hash does not match",
                path.display()
            )));
        }
        Ok(state)
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
        if self.scenario_hash != other.scenario_hash || self.scenario_text != other.scenario_text {
            return differ("scenario or settings", self.scenario.clone(), other.scenario.clone());
        }
        if self.shard.n != other.shard.n {
            return differ("shard count", self.shard.n.to_string(), other.shard.n.to_string());
        }
        None
    }
}

impl RunState {
    /// The files' contents for the points played so far. `partial` marks a run that stopped
    /// early; it then lists only points with games, and the manifest says how many each has.
    pub fn result(&self, start_time: String, partial: bool) -> anyhow::Result<RunResult> {
        let mut points = Vec::new();
        for p in &self.points {
            if !p.complete && p.done == 0 {
                continue;
            }
            let def = crate::games::find(&p.game)
                .with_context(|| format!("the saved state names an unknown game '{}'", p.game))?;
            let mut values = Vec::new();
            for (k, v) in &p.settings {
                let spec = def.settings.iter().find(|s| s.key == k).with_context(|| {
                    format!("the saved state names an unknown setting '{k}' of {}", def.name)
                })?;
                values.push((spec.key, v.clone()));
            }
            points.push(PointResult {
                label: p.label.clone(),
                game: def.name,
                settings: Settings { game: def.name, variant: p.variant.clone(), values },
                layout: p.layout.clone(),
                acc: p.acc.clone(),
            });
        }
        let manifest = Manifest {
            warsim_version: self.warsim_version.clone(),
            git_commit: Manifest::git_commit(),
            command_line: self.command_line.clone(),
            scenario: self.scenario.clone(),
            seed: self.seed,
            games: self.games,
            shards: self.shard.to_string(),
            threads: self.threads,
            start_time,
            end_time: Manifest::now(),
            points: self.points.iter().map(|p| p.label.clone()).collect(),
            scenario_text: self.scenario_text.clone(),
            until: self.until.clone(),
            partial,
            point_games: if partial || self.until.is_some() {
                self.points.iter().map(|p| p.done).collect()
            } else {
                Vec::new()
            },
        };
        Ok(RunResult { points, manifest })
    }
}
