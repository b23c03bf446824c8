//! Settings shared by every game: their specification (name, default, allowed values), presets,
//! and the resolution of defaults + presets + explicit values into one validated `Settings`.
//!
//! Resolution order: defaults, then the presets named by `variant` (`peace+jokers`), then explicit
//! values, which override presets. Two presets that set one setting to different values are an
//! error, as is any unknown setting, unknown preset or value outside the allowed set.
//!
//! A setting may name a file (`Allowed::File`: a card set, a fixed deck). Its text is read once,
//! here, while the plan is made; the `Settings` carry it (`SettingFile`), the run's identity hashes
//! it, and `state.json` and `manifest.json` store it, so resuming, merging and comparing use the
//! text the run read, never whatever the file says later.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::UsageError;

/// What values a setting accepts.
#[derive(Clone, Copy, Debug)]
pub enum Allowed {
    /// One of these words.
    Choice(&'static [&'static str]),
    /// An integer in `min..=max`.
    Int { min: i64, max: i64 },
    /// An integer in `min..=max` or one of these words.
    IntOr { min: i64, max: i64, words: &'static [&'static str] },
    /// `true` or `false`.
    Bool,
    /// Free text, checked by the game (card lists, policy line-ups); described by the string.
    Text(&'static str),
    /// The path of a file whose text the game reads (described by `what`), or `none`; `example`
    /// names a file of the repository that the setting accepts (the conformance test plays it).
    File { what: &'static str, example: &'static str },
}

impl fmt::Display for Allowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Allowed::Choice(words) => write!(f, "{}", words.join(", ")),
            Allowed::Int { min, max } => write!(f, "an integer from {min} to {max}"),
            Allowed::IntOr { min, max, words } => {
                write!(f, "an integer from {min} to {max} or {}", words.join(", "))
            }
            Allowed::Bool => write!(f, "true, false"),
            Allowed::Text(what) => write!(f, "{what}"),
            Allowed::File { what, .. } => write!(f, "none or the path of {what}"),
        }
    }
}

/// One setting of a game.
#[derive(Clone, Copy, Debug)]
pub struct SettingSpec {
    pub key: &'static str,
    pub default: &'static str,
    pub allowed: Allowed,
    pub help: &'static str,
    /// Whether the setting changes the deal: two points that differ in such a setting do not see
    /// the same cards in game `i`, so comparisons between them are not paired.
    pub deal: bool,
}

impl SettingSpec {
    /// Checks `value` and returns its canonical spelling.
    pub fn check(&self, game: &str, value: &str) -> Result<String, UsageError> {
        let v = value.trim();
        let bad = || {
            UsageError(format!(
                "{game}: '{v}' is not a valid value for setting '{}' (allowed: {})",
                self.key, self.allowed
            ))
        };
        let int = |v: &str, min: i64, max: i64| -> Option<String> {
            let n: i64 = v.replace('_', "").parse().ok()?;
            (min..=max).contains(&n).then(|| n.to_string())
        };
        match self.allowed {
            Allowed::Choice(words) => {
                words.iter().find(|w| w.eq_ignore_ascii_case(v)).map(|w| w.to_string()).ok_or_else(bad)
            }
            Allowed::Int { min, max } => int(v, min, max).ok_or_else(bad),
            Allowed::IntOr { min, max, words } => words
                .iter()
                .find(|w| w.eq_ignore_ascii_case(v))
                .map(|w| w.to_string())
                .or_else(|| int(v, min, max))
                .ok_or_else(bad),
            Allowed::Bool => match v.to_ascii_lowercase().as_str() {
                "true" | "yes" | "1" => Ok("true".into()),
                "false" | "no" | "0" => Ok("false".into()),
                _ => Err(bad()),
            },
            Allowed::Text(_) | Allowed::File { .. } => Ok(v.to_string()),
        }
    }
}

/// A named bundle of setting values (a rules variant).
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    pub name: &'static str,
    pub about: &'static str,
    pub sets: &'static [(&'static str, &'static str)],
}

/// A file named by a setting, with the text the run read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingFile {
    pub key: String,
    /// The path as the scenario or the command line wrote it.
    pub path: String,
    /// `crate::io::fingerprint` of the text.
    pub hash: String,
    pub text: String,
}

impl SettingFile {
    pub fn new(key: &str, path: &str, text: String) -> SettingFile {
        SettingFile { key: key.into(), path: path.into(), hash: crate::io::fingerprint(&[&text]), text }
    }
}

/// Where the texts of file-valued settings come from.
#[derive(Clone, Copy, Debug, Default)]
pub struct FileSource<'a> {
    /// Folder that relative paths written in a scenario file are read from (the file's folder).
    pub base_dir: Option<&'a Path>,
    /// Keys set on the command line: their relative paths are read from the working folder.
    pub cli_keys: &'a [String],
    /// Texts stored with a run (`compare` replays a finished run): used instead of the disk.
    pub stored: &'a [SettingFile],
}

impl FileSource<'_> {
    /// Reads the text of `path`, named by setting `key`.
    fn read(&self, game: &str, key: &str, path: &str, what: &str) -> Result<SettingFile, UsageError> {
        if let Some(f) = self.stored.iter().find(|f| f.key == key && f.path == path) {
            return Ok(f.clone());
        }
        if path.trim().is_empty() {
            return Err(UsageError(format!("{game}: setting '{key}' is empty: give the path of {what}")));
        }
        let written = Path::new(path);
        let full: PathBuf = match self.base_dir {
            Some(base) if written.is_relative() && !self.cli_keys.iter().any(|k| k == key) => {
                base.join(written)
            }
            _ => written.to_path_buf(),
        };
        if !full.exists() {
            return Err(UsageError(format!(
                "{game}: setting '{key}': file '{}' ({what}) does not exist{}",
                full.display(),
                self.nearest(&full, key)
            )));
        }
        let text = crate::io::read_text(&full, crate::io::CARD_FILE_LIMIT).map_err(|e| {
            UsageError(format!("{game}: setting '{key}': cannot read {} ({what}): {e}", full.display()))
        })?;
        Ok(SettingFile::new(key, path, text))
    }
}

impl FileSource<'_> {
    /// "; did you mean 'F'?" for the file nearest to the missing `full`: among the `.toml` files
    /// beside it and the shipped ones of `scenarios/<key>/` (`scenarios/cards/`), written as the
    /// user would write it where the missing one was written.
    fn nearest(&self, full: &Path, key: &str) -> String {
        let shipped = crate::suggest::toml_files(&Path::new(crate::suggest::SCENARIOS).join(key));
        let files = crate::suggest::files_near(full, &shipped);
        let Some((file, _)) = crate::suggest::nearest_file(full, &files) else { return String::new() };
        let from_scenario = self.base_dir.filter(|_| !self.cli_keys.iter().any(|k| k == key));
        let shown = match from_scenario.and_then(|base| file.strip_prefix(base).ok()) {
            Some(relative) => relative.to_path_buf(),
            None => file,
        };
        format!("; did you mean '{}'?", shown.display())
    }
}

/// The validated settings of one scenario point, in the game's specification order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub game: &'static str,
    /// The presets applied, joined by `+` (`standard` when none).
    pub variant: String,
    pub values: Vec<(&'static str, String)>,
    /// Whether the game has presets (and so a `variant` column).
    pub has_variants: bool,
    /// The keys of the settings that change the deal.
    pub deal_keys: Vec<&'static str>,
    /// The texts of file-valued settings.
    pub files: Vec<SettingFile>,
}

impl Settings {
    pub fn get(&self, key: &str) -> &str {
        self.values
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("setting {key} is not declared by {}", self.game))
    }

    /// An integer setting (already validated, so parsing cannot fail for declared Int settings).
    pub fn int(&self, key: &str) -> i64 {
        self.get(key).parse().unwrap_or_else(|_| panic!("setting {key} is not an integer"))
    }

    pub fn flag(&self, key: &str) -> bool {
        self.get(key) == "true"
    }

    /// The text of file-valued setting `key`, if it names a file.
    pub fn file(&self, key: &str) -> Option<&SettingFile> {
        self.files.iter().find(|f| f.key == key)
    }

    /// Whether game `i` of a point with these settings sees the same deal as game `i` of `other`:
    /// the same game and the same value of every setting that changes the deal (file-valued ones
    /// compared by their text).
    pub fn same_deal(&self, other: &Settings) -> bool {
        let deal = |s: &Settings| -> Vec<String> {
            s.deal_keys
                .iter()
                .map(|k| s.file(k).map_or_else(|| s.get(k).to_string(), |f| f.hash.clone()))
                .collect()
        };
        self.game == other.game && deal(self) == deal(other)
    }

    /// Rebuilds settings saved as text (`state.json`) against the game's specification.
    pub fn restore(
        game: &'static str,
        specs: &'static [SettingSpec],
        has_variants: bool,
        variant: &str,
        saved: &[(String, String)],
        files: &[SettingFile],
    ) -> Result<Settings, String> {
        let mut values = Vec::new();
        for (k, v) in saved {
            let spec = specs
                .iter()
                .find(|s| s.key == k)
                .ok_or_else(|| format!("the saved state names an unknown setting '{k}' of {game}"))?;
            values.push((spec.key, v.clone()));
        }
        Ok(Settings {
            game,
            variant: variant.to_string(),
            values,
            has_variants,
            deal_keys: specs.iter().filter(|s| s.deal).map(|s| s.key).collect(),
            files: files.to_vec(),
        })
    }
}

/// Resolves defaults, presets and explicit `key=value` pairs into validated settings.
pub fn resolve(
    game: &'static str,
    specs: &[SettingSpec],
    presets: &[Preset],
    files: &FileSource,
    explicit: &[(String, String)],
) -> Result<Settings, UsageError> {
    let mut values: Vec<(&'static str, String)> =
        specs.iter().map(|s| (s.key, s.default.to_string())).collect();
    let spec_of = |key: &str| -> Result<&SettingSpec, UsageError> {
        specs.iter().find(|s| s.key == key).ok_or_else(|| {
            let mut keys: Vec<&str> = specs.iter().map(|s| s.key).collect();
            if !presets.is_empty() {
                keys.push("variant");
            }
            let see = format!("`warsim list {game}` lists them");
            UsageError(format!(
                "{game}: {}",
                crate::suggest::unknown("setting", key, &keys, "settings", &see)
            ))
        })
    };
    let mut variant = Vec::new();
    let mut preset_set: Vec<(&str, &str, &str)> = Vec::new(); // (key, value, preset)
    for (key, value) in explicit.iter().filter(|(k, _)| k == "variant") {
        if presets.is_empty() {
            return Err(UsageError(format!("{game}: unknown setting '{key}' (this game has no presets)")));
        }
        for name in value.split('+').map(str::trim) {
            if name.is_empty() {
                return Err(UsageError(format!(
                    "{game}: variant '{value}' has an empty name: write variant=NAME or variant=A+B"
                )));
            }
            let preset = presets.iter().find(|p| p.name.eq_ignore_ascii_case(name)).ok_or_else(|| {
                let names: Vec<&str> = presets.iter().map(|p| p.name).collect();
                let see = format!("`warsim list {game}` lists them");
                UsageError(format!(
                    "{game}: {}",
                    crate::suggest::unknown("variant", name, &names, "variants", &see)
                ))
            })?;
            for &(k, v) in preset.sets {
                if let Some(&(_, other_v, other)) = preset_set.iter().find(|(pk, _, _)| *pk == k)
                    && other_v != v
                {
                    return Err(UsageError(format!(
                        "{game}: variants '{other}' and '{}' conflict: they set '{k}' to '{other_v}' and '{v}'",
                        preset.name
                    )));
                }
                preset_set.push((k, v, preset.name));
            }
            if preset.name != "standard" {
                variant.push(preset.name);
            }
        }
    }
    for &(k, v, _) in &preset_set {
        let spec = spec_of(k)?;
        let canonical = spec.check(game, v)?;
        values.iter_mut().find(|(key, _)| *key == k).expect("declared").1 = canonical;
    }
    for (key, value) in explicit.iter().filter(|(k, _)| k != "variant") {
        let spec = spec_of(key)?;
        let canonical = spec.check(game, value)?;
        values.iter_mut().find(|(k, _)| k == key).expect("declared").1 = canonical;
    }
    let variant = if variant.is_empty() { "standard".to_string() } else { variant.join("+") };
    let mut texts = Vec::new();
    for spec in specs {
        if let Allowed::File { what, .. } = spec.allowed {
            let path = &values.iter().find(|(k, _)| *k == spec.key).expect("declared").1;
            if path != "none" {
                texts.push(files.read(game, spec.key, path, what)?);
            }
        }
    }
    Ok(Settings {
        game,
        variant,
        values,
        has_variants: !presets.is_empty(),
        deal_keys: specs.iter().filter(|s| s.deal).map(|s| s.key).collect(),
        files: texts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[SettingSpec] = &[
        SettingSpec {
            key: "players",
            default: "2",
            allowed: Allowed::Int { min: 2, max: 10 },
            help: "",
            deal: false,
        },
        SettingSpec {
            key: "war_down",
            default: "3",
            allowed: Allowed::IntOr { min: 0, max: 60, words: &["by-value"] },
            help: "",
            deal: false,
        },
        SettingSpec {
            key: "winner",
            default: "high",
            allowed: Allowed::Choice(&["high", "low"]),
            help: "",
            deal: false,
        },
    ];
    const PRESETS: &[Preset] = &[
        Preset { name: "standard", about: "", sets: &[] },
        Preset { name: "lesser", about: "", sets: &[("war_down", "1")] },
        Preset { name: "peace", about: "", sets: &[("winner", "low"), ("war_down", "5")] },
        Preset { name: "low", about: "", sets: &[("winner", "low")] },
    ];

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn presets_then_explicit_values() {
        let s = resolve(
            "war",
            SPECS,
            PRESETS,
            &FileSource::default(),
            &pairs(&[("variant", "peace"), ("players", "4")]),
        )
        .unwrap();
        assert_eq!((s.get("winner"), s.get("war_down"), s.int("players")), ("low", "5", 4));
        assert_eq!(s.variant, "peace");
        let s = resolve(
            "war",
            SPECS,
            PRESETS,
            &FileSource::default(),
            &pairs(&[("variant", "peace"), ("war_down", "by-value")]),
        )
        .unwrap();
        assert_eq!(s.get("war_down"), "by-value");
        let s = resolve("war", SPECS, PRESETS, &FileSource::default(), &pairs(&[("variant", "peace+low")]))
            .unwrap();
        assert_eq!(s.variant, "peace+low");
    }

    #[test]
    fn errors_name_the_problem_and_what_is_allowed() {
        let e =
            resolve("war", SPECS, PRESETS, &FileSource::default(), &pairs(&[("variant", "lesser+peace")]))
                .unwrap_err();
        assert!(e.0.contains("conflict") && e.0.contains("war_down"), "{e}");
        let e =
            resolve("war", SPECS, PRESETS, &FileSource::default(), &pairs(&[("players", "11")])).unwrap_err();
        assert!(e.0.contains("from 2 to 10"), "{e}");
        let e =
            resolve("war", SPECS, PRESETS, &FileSource::default(), &pairs(&[("playrs", "3")])).unwrap_err();
        assert!(e.0.contains("unknown setting 'playrs'") && e.0.contains("players"), "{e}");
        let e = resolve("war", SPECS, PRESETS, &FileSource::default(), &pairs(&[("variant", "piece")]))
            .unwrap_err();
        assert!(e.0.contains("unknown variant 'piece'; did you mean 'peace'?"), "{e}");
        let e = resolve("war", SPECS, PRESETS, &FileSource::default(), &pairs(&[("variant", "peace+")]))
            .unwrap_err();
        assert!(e.0.contains("variant 'peace+' has an empty name"), "{e}");
        let e = resolve("war", SPECS, PRESETS, &FileSource::default(), &pairs(&[("winner", "middle")]))
            .unwrap_err();
        assert!(e.0.contains("allowed: high, low"), "{e}");
    }

    const FILE_SPECS: &[SettingSpec] = &[
        SettingSpec {
            key: "players",
            default: "2",
            allowed: Allowed::Int { min: 2, max: 4 },
            help: "",
            deal: true,
        },
        SettingSpec {
            key: "cards",
            default: "none",
            allowed: Allowed::File { what: "a card set", example: "scenarios/cards/sample.toml" },
            help: "",
            deal: true,
        },
        SettingSpec {
            key: "policy",
            default: "random",
            allowed: Allowed::Text("a policy"),
            help: "",
            deal: false,
        },
    ];

    #[test]
    fn file_settings_read_their_text_relative_to_the_scenario() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("set.toml"), "text one").unwrap();
        let from_file = FileSource { base_dir: Some(dir.path()), ..FileSource::default() };
        let s = resolve("slots", FILE_SPECS, &[], &from_file, &pairs(&[("cards", "set.toml")])).unwrap();
        let f = s.file("cards").unwrap();
        assert_eq!((f.path.as_str(), f.text.as_str()), ("set.toml", "text one"));
        assert_eq!(f.hash, crate::io::fingerprint(&["text one"]));
        // Given on the command line, the same relative path is read from the working folder.
        let cli = vec!["cards".to_string()];
        let from_cli = FileSource { cli_keys: &cli, ..from_file };
        let e = resolve("slots", FILE_SPECS, &[], &from_cli, &pairs(&[("cards", "set.toml")])).unwrap_err();
        assert!(e.0.contains("setting 'cards': file 'set.toml' (a card set) does not exist"), "{e}");
        // A stored text wins over the disk, so a replay reads what the run read.
        let stored = [SettingFile::new("cards", "set.toml", "text stored".into())];
        let replay = FileSource { stored: &stored, ..from_file };
        let s = resolve("slots", FILE_SPECS, &[], &replay, &pairs(&[("cards", "set.toml")])).unwrap();
        assert_eq!(s.file("cards").unwrap().text, "text stored");
        let none = resolve("slots", FILE_SPECS, &[], &from_file, &[]).unwrap();
        assert!(none.files.is_empty());
    }

    #[test]
    fn the_deal_is_the_same_only_when_every_deal_setting_is() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.toml"), "A").unwrap();
        std::fs::write(dir.path().join("b.toml"), "B").unwrap();
        std::fs::write(dir.path().join("a2.toml"), "A").unwrap();
        let src = FileSource { base_dir: Some(dir.path()), ..FileSource::default() };
        let point = |p: &[(&str, &str)]| resolve("slots", FILE_SPECS, &[], &src, &pairs(p)).unwrap();
        let base = point(&[("cards", "a.toml")]);
        assert!(
            base.same_deal(&point(&[("cards", "a.toml"), ("policy", "greedy")])),
            "policies keep the deal"
        );
        assert!(base.same_deal(&point(&[("cards", "a2.toml")])), "files compare by their text");
        assert!(!base.same_deal(&point(&[("cards", "b.toml")])));
        assert!(!base.same_deal(&point(&[("cards", "a.toml"), ("players", "3")])));
        assert_eq!(base.deal_keys, ["players", "cards"]);
    }
}
