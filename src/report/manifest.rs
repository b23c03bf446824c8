//! `manifest.json`: what produced the files of an output folder, so a result can be traced and
//! reproduced: warsim version, commit and build fingerprint, command line, seed, games, shards,
//! threads, times, and the scenario file's text. It ends with a checksum of its content, so that
//! `compare`, which replays the run from it, refuses a manifest edited after the run.

use std::io::Write;

use serde::{Deserialize, Serialize};

use super::{Export, RunResult};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub warsim_version: String,
    pub git_commit: Option<String>,
    /// The build fingerprint of the program that played the games (`crate::provenance`; several,
    /// joined by ` + `, when results of several builds were combined on request).
    #[serde(default)]
    pub build: String,
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
    /// The plots the run drew (`plots/NAME.svg`), so that the next run into the same folder removes
    /// exactly these; every other file warsim writes has a fixed name (`outdir::OWNED_FILES`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<String>,
    /// `crate::io::fingerprint` of the manifest's compact JSON with an empty checksum (filled in
    /// by `write`; see `check`).
    #[serde(default)]
    pub checksum: String,
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

/// Writes `manifest` as pretty JSON, sealed with its checksum.
pub fn write(manifest: &Manifest, out: &mut dyn Write) -> anyhow::Result<()> {
    let checksum = checksum_of(serde_json::to_value(manifest)?);
    serde_json::to_writer_pretty(&mut *out, &Manifest { checksum, ..manifest.clone() })?;
    writeln!(out)?;
    Ok(())
}

/// The checksum a manifest's content calls for. It is computed on the parsed JSON, so a field
/// added by hand counts as much as a changed one.
fn checksum_of(mut json: serde_json::Value) -> String {
    if let Some(fields) = json.as_object_mut() {
        fields.insert("checksum".into(), serde_json::Value::String(String::new()));
    }
    crate::io::fingerprint(&[&json.to_string()])
}

/// Why the text of a `manifest.json` cannot be trusted as the run wrote it, if it cannot.
pub fn check(text: &str) -> Option<String> {
    let json: serde_json::Value = match serde_json::from_str(text) {
        Ok(json) => json,
        Err(e) => return Some(format!("it is not JSON: {e}")),
    };
    match json.get("checksum").and_then(|c| c.as_str()) {
        None | Some("") => {
            Some("it has no checksum (written by an older warsim), so it cannot be checked".into())
        }
        Some(sum) if sum != checksum_of(json.clone()) => {
            Some("it was edited or damaged after the run (its checksum does not match its content)".into())
        }
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written() -> String {
        let manifest = Manifest {
            warsim_version: "0.1.0".into(),
            git_commit: None,
            build: "0.1.0+git.c25ec67a1b2c".into(),
            command_line: vec!["warsim".into(), "run".into(), "war".into()],
            scenario: "war".into(),
            seed: 1,
            games: 100,
            shards: "1/1".into(),
            threads: 2,
            start_time: "t0".into(),
            end_time: "t1".into(),
            points: vec!["war".into()],
            scenario_text: None,
            until: None,
            partial: false,
            point_games: Vec::new(),
            files: Vec::new(),
            outputs: Vec::new(),
            checksum: String::new(),
        };
        let mut out = Vec::new();
        write(&manifest, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_written_manifest_checks_and_any_edit_is_caught() {
        let text = written();
        assert_eq!(check(&text), None);
        let edited = text.replace("\"seed\": 1,", "\"seed\": 2,");
        assert_ne!(edited, text);
        assert!(check(&edited).unwrap().contains("edited or damaged"));
        let added = text.replacen('{', "{\n  \"partial\": true,", 1);
        assert!(check(&added).unwrap().contains("edited or damaged"), "an added field counts");
        let mut unsealed: serde_json::Value = serde_json::from_str(&text).unwrap();
        unsealed.as_object_mut().unwrap().remove("checksum");
        assert!(check(&unsealed.to_string()).unwrap().contains("no checksum"));
        // Layout does not count: the same content written compactly checks.
        let compact = serde_json::from_str::<serde_json::Value>(&text).unwrap().to_string();
        assert_eq!(check(&compact), None);
    }
}
