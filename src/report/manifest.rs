//! `manifest.json`: what produced the files of an output folder, so a result can be traced and
//! reproduced: warsim version and commit, command line, seed, games, shards, threads, times, and
//! the scenario file's text.

use std::io::Write;

use serde::{Deserialize, Serialize};

use super::{Export, RunResult};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub warsim_version: String,
    pub git_commit: Option<String>,
    pub command_line: Vec<String>,
    pub scenario: String,
    pub seed: u64,
    pub games: u64,
    pub shards: String,
    pub threads: usize,
    pub start_time: String,
    pub end_time: String,
    pub points: Vec<String>,
    pub scenario_text: Option<String>,
    /// `--until METRIC:HALFWIDTH`, when the run had a precision target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// The scenario's question (a metric or share name), answered first in the summaries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The interval each point's `--until` rule stopped on (or ended on, at the cap), in `points`
    /// order: a confidence sequence, valid whatever look the run stopped at.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub until_intervals: Vec<UntilInterval>,
    /// The run stopped early (interrupted, or still running): resume it with `--resume`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
    /// Games played per point, in `points` order; written for partial runs and `--until` runs,
    /// whose points may have fewer games than `games`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub point_games: Vec<u64>,
    /// The texts of the files that settings named (card sets, fixed decks), as the run read them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<crate::settings::SettingFile>,
    /// The plots the run drew (`plots/NAME.svg`), so that the next run into the same folder removes
    /// exactly these; every other file warsim writes has a fixed name (`outdir::OWNED_FILES`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<String>,
}

/// The stopping interval of one point of an `--until` run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UntilInterval {
    pub metric: String,
    /// How the interval is made (`sim::until::METHOD`).
    pub method: String,
    /// Games the point played when the rule stopped (or the cap).
    pub games: u64,
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    /// Whether the half-width reached the target (false: the cap stopped the point).
    pub met: bool,
}

/// The manifest's file name.
pub const FILE: &str = "manifest.json";

impl Manifest {
    pub fn git_commit() -> Option<String> {
        option_env!("WARSIM_GIT_COMMIT").filter(|s| !s.is_empty()).map(str::to_string)
    }

    pub fn now() -> String {
        humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
    }
}

pub struct ManifestJson;

impl Export for ManifestJson {
    fn file_name(&self) -> &'static str {
        FILE
    }

    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()> {
        write(&run.manifest, out)
    }
}

/// Writes `manifest` as pretty JSON.
pub fn write(manifest: &Manifest, out: &mut dyn Write) -> anyhow::Result<()> {
    serde_json::to_writer_pretty(&mut *out, manifest)?;
    writeln!(out)?;
    Ok(())
}
