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
}

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
        "manifest.json"
    }

    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()> {
        serde_json::to_writer_pretty(&mut *out, &run.manifest)?;
        writeln!(out)?;
        Ok(())
    }
}
