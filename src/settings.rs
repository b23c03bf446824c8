//! Settings shared by every game: their specification (name, default, allowed values), presets,
//! and the resolution of defaults + presets + explicit values into one validated `Settings`.
//!
//! Resolution order: defaults, then the presets named by `variant` (`peace+jokers`), then explicit
//! values, which override presets. Two presets that set one setting to different values are an
//! error, as is any unknown setting, unknown preset or value outside the allowed set.

use std::fmt;

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
            Allowed::Text(_) => Ok(v.to_string()),
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

/// The validated settings of one scenario point, in the game's specification order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub game: &'static str,
    /// The presets applied, joined by `+` (`standard` when none).
    pub variant: String,
    pub values: Vec<(&'static str, String)>,
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
}

/// Resolves defaults, presets and explicit `key=value` pairs into validated settings.
pub fn resolve(
    game: &'static str,
    specs: &[SettingSpec],
    presets: &[Preset],
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
            UsageError(format!("{game}: unknown setting '{key}' (settings: {})", keys.join(", ")))
        })
    };
    let mut variant = Vec::new();
    let mut preset_set: Vec<(&str, &str, &str)> = Vec::new(); // (key, value, preset)
    for (key, value) in explicit.iter().filter(|(k, _)| k == "variant") {
        if presets.is_empty() {
            return Err(UsageError(format!("{game}: unknown setting '{key}' (this game has no presets)")));
        }
        for name in value.split('+').map(str::trim) {
            let preset = presets.iter().find(|p| p.name.eq_ignore_ascii_case(name)).ok_or_else(|| {
                let names: Vec<&str> = presets.iter().map(|p| p.name).collect();
                UsageError(format!("{game}: unknown variant '{name}' (variants: {})", names.join(", ")))
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
    Ok(Settings { game, variant, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[SettingSpec] = &[
        SettingSpec { key: "players", default: "2", allowed: Allowed::Int { min: 2, max: 10 }, help: "" },
        SettingSpec {
            key: "war_down",
            default: "3",
            allowed: Allowed::IntOr { min: 0, max: 60, words: &["by-value"] },
            help: "",
        },
        SettingSpec { key: "winner", default: "high", allowed: Allowed::Choice(&["high", "low"]), help: "" },
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
        let s = resolve("war", SPECS, PRESETS, &pairs(&[("variant", "peace"), ("players", "4")])).unwrap();
        assert_eq!((s.get("winner"), s.get("war_down"), s.int("players")), ("low", "5", 4));
        assert_eq!(s.variant, "peace");
        let s = resolve("war", SPECS, PRESETS, &pairs(&[("variant", "peace"), ("war_down", "by-value")]))
            .unwrap();
        assert_eq!(s.get("war_down"), "by-value");
        let s = resolve("war", SPECS, PRESETS, &pairs(&[("variant", "peace+low")])).unwrap();
        assert_eq!(s.variant, "peace+low");
    }

    #[test]
    fn errors_name_the_problem_and_what_is_allowed() {
        let e = resolve("war", SPECS, PRESETS, &pairs(&[("variant", "lesser+peace")])).unwrap_err();
        assert!(e.0.contains("conflict") && e.0.contains("war_down"), "{e}");
        let e = resolve("war", SPECS, PRESETS, &pairs(&[("players", "11")])).unwrap_err();
        assert!(e.0.contains("from 2 to 10"), "{e}");
        let e = resolve("war", SPECS, PRESETS, &pairs(&[("playrs", "3")])).unwrap_err();
        assert!(e.0.contains("unknown setting 'playrs'") && e.0.contains("players"), "{e}");
        let e = resolve("war", SPECS, PRESETS, &pairs(&[("variant", "piece")])).unwrap_err();
        assert!(e.0.contains("unknown variant 'piece'") && e.0.contains("peace"), "{e}");
        let e = resolve("war", SPECS, PRESETS, &pairs(&[("winner", "middle")])).unwrap_err();
        assert!(e.0.contains("allowed: high, low"), "{e}");
    }
}
