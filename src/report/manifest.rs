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
    /// Every file the command wrote into the folder but the manifest itself and `state.json`,
    /// with its size and hash as written: the files a later command may remove (`outdir`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub written: Vec<WrittenFile>,
    /// The plots the run drew (`plots/NAME.svg`), so that the next run into the same folder removes
    /// exactly these; every other file warsim writes has a fixed name (`outdir::OWNED_FILES`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<String>,
}

/// A file as a command wrote it: its path in the folder (`plots/NAME.svg` for a plot), size in
/// bytes and FNV-1a hash (`crate::io::Written`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrittenFile {
    pub file: String,
    pub size: u64,
    pub hash: String,
}

impl WrittenFile {
    pub fn new(file: &str, w: crate::io::Written) -> WrittenFile {
        WrittenFile { file: file.into(), size: w.size, hash: w.hex() }
    }

    /// The size and hash it vouches for (a hash that is not 16 hex digits vouches for nothing).
    pub fn size_hash(&self) -> Option<crate::io::Written> {
        let hash = if self.hash.len() == 16 { u64::from_str_radix(&self.hash, 16).ok() } else { None };
        hash.map(|hash| crate::io::Written { size: self.size, hash })
    }
}

/// The manifest's file name.
pub const FILE: &str = "manifest.json";

impl Manifest {
    pub fn git_commit() -> Option<String> {
        option_env!("WARSIM_GIT_COMMIT").filter(|s| !s.is_empty()).map(str::to_string)
    }

    /// Reads a manifest's JSON text.
    pub fn parse(text: &str) -> Result<Manifest, serde_json::Error> {
        serde_json::from_str(text)
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

#[cfg(test)]
pub(crate) mod tests {
    /// The smallest manifest a run writes.
    pub(crate) const MINIMAL: &str = r#"{"warsim_version":"0","git_commit":null,"command_line":[],"scenario":"s",
        "seed":1,"games":1,"shards":"1/1","threads":1,"start_time":"","end_time":"","points":[],
        "scenario_text":null}"#;

    #[test]
    fn a_minimal_manifest_parses() {
        assert!(super::Manifest::parse(MINIMAL).unwrap().written.is_empty());
    }
}
