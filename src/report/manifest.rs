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
    /// Every file the command wrote into the folder but the manifest itself and `state.json`,
    /// with its size and hash as written: the files a later command may remove (`outdir`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub written: Vec<WrittenFile>,
    /// The plots the run drew (`plots/NAME.svg`), so that the next run into the same folder removes
    /// exactly these; every other file warsim writes has a fixed name (`outdir::OWNED_FILES`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<String>,
    /// `crate::io::fingerprint` of the manifest's compact JSON with an empty checksum (filled in
    /// by `write`; see `check`).
    #[serde(default)]
    pub checksum: String,
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
pub(crate) mod tests {
    use super::*;

    /// The smallest manifest a run writes (without a checksum, as an older warsim wrote it).
    pub(crate) const MINIMAL: &str = r#"{"warsim_version":"0","git_commit":null,"command_line":[],"scenario":"s",
        "seed":1,"games":1,"shards":"1/1","threads":1,"start_time":"","end_time":"","points":[],
        "scenario_text":null}"#;

    #[test]
    fn a_minimal_manifest_parses() {
        assert!(Manifest::parse(MINIMAL).unwrap().written.is_empty());
    }

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
            question: None,
            until_intervals: Vec::new(),
            points: vec!["war".into()],
            scenario_text: None,
            until: None,
            partial: false,
            point_games: Vec::new(),
            files: Vec::new(),
            written: Vec::new(),
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
