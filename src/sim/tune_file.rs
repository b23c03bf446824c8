//! The files a tune keeps between looks, `tune-state.json` and the shard files
//! `tune-shard-K-of-N.json`, each sealed in an envelope:
//!
//! ```text
//! {"format":"warsim-tune-state","format_version":1,"plan":{...},"state":{...},"checksum":"..."}
//! ```
//!
//! `plan` is what fixes the tune's result besides its state (`TuneIdentity`: the build, the
//! scenario file's text, every candidate's settings and card files, the seed, the cap, the goal and
//! the search), so a resume, a shard or a merge goes on only from a file of the same tune, whatever
//! the spelling of its command line (`--out dir/`, `--games=40000`, flags in another order), and a
//! refusal names what differs. `checksum` is `crate::io::fingerprint` of the text before it (the
//! envelope without its checksum), as `sim::checkpoint` seals `state.json`: an edited, damaged or
//! truncated file is refused in one line, never read. The inner state is serialised as it is, so
//! fields added to it need nothing here.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::UsageError;

pub const STATE_FORMAT: &str = "warsim-tune-state";
pub const SHARD_FORMAT: &str = "warsim-tune-shard";
pub const FORMAT_VERSION: u32 = 1;

/// What fixes a tune's result besides its state: two files with different identities belong to
/// different tunes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneIdentity {
    /// The build fingerprint of the program that played the games (`crate::provenance`).
    pub build: String,
    pub scenario: String,
    /// The scenario file's text (None for a game named on the command line).
    pub scenario_text: Option<String>,
    pub seed: u64,
    /// Games per candidate at most (`--games`).
    pub games: u64,
    /// The goal, the tolerance and the requirements as read (`first_player_win_share = 0.5`).
    pub goal: String,
    pub within: Option<String>,
    pub requires: Vec<String>,
    /// `race` or `bisect`.
    pub search: String,
    /// Games per observation.
    pub observation: u64,
    pub candidates: Vec<CandidateIdentity>,
}

/// One candidate as played: its game, variant, every setting and the files its settings name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidateIdentity {
    pub label: String,
    pub game: String,
    pub variant: String,
    pub settings: Vec<(String, String)>,
    /// `(key, path, fingerprint of the text)` of each file a setting names.
    pub files: Vec<(String, String, String)>,
}

impl TuneIdentity {
    /// A short fingerprint of the whole identity (kept in the state's `command`, so a shard's part
    /// and the state it goes into are told apart from another tune's).
    pub fn digest(&self) -> String {
        crate::io::fingerprint(&[&serde_json::to_string(self).unwrap_or_default()])
    }

    /// What differs between the tune that saved a file (`self`) and this command's (`now`), in
    /// words, the first difference found; None if they are the same tune.
    pub fn difference(&self, now: &TuneIdentity) -> Option<String> {
        let differ = |what: &str, saved: &dyn std::fmt::Display, here: &dyn std::fmt::Display| {
            Some(format!("{what} is {saved} in the saved tune and {here} in this command"))
        };
        let or_none = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".into());
        if self.seed != now.seed {
            return differ("the seed", &self.seed, &now.seed);
        }
        if self.games != now.games {
            return differ("--games (the cap)", &self.games, &now.games);
        }
        if self.goal != now.goal {
            return differ("the goal", &format!("'{}'", self.goal), &format!("'{}'", now.goal));
        }
        if self.within != now.within {
            return differ("--within", &or_none(&self.within), &or_none(&now.within));
        }
        if self.requires != now.requires {
            let shown = |r: &[String]| if r.is_empty() { "none".to_string() } else { r.join(", ") };
            return differ("--require", &shown(&self.requires), &shown(&now.requires));
        }
        if self.search != now.search {
            return differ("the search", &self.search, &now.search);
        }
        if self.scenario != now.scenario {
            return differ("the scenario", &self.scenario, &now.scenario);
        }
        if self.scenario_text != now.scenario_text {
            return Some(format!(
                "the scenario file changed: {}",
                crate::sim::checkpoint::text_difference(
                    self.scenario_text.as_deref(),
                    now.scenario_text.as_deref()
                )
                .replace(" here and ", " in the saved tune and ")
                .replace(" there", " now")
            ));
        }
        if self.candidates.len() != now.candidates.len() {
            return differ("the number of settings tried", &self.candidates.len(), &now.candidates.len());
        }
        for (a, b) in self.candidates.iter().zip(&now.candidates) {
            if (&a.game, &a.variant) != (&b.game, &b.variant) {
                return differ("a candidate", &format!("'{}'", a.label), &format!("'{}'", b.label));
            }
            for ((k, va), (kb, vb)) in a.settings.iter().zip(&b.settings) {
                if k != kb || va != vb {
                    return Some(format!(
                        "candidate '{}': setting '{k}' is {va} in the saved tune and {vb} in this command",
                        a.label
                    ));
                }
            }
            for (fa, fb) in a.files.iter().zip(&b.files) {
                if fa != fb {
                    return Some(format!(
                        "candidate '{}': the file {} of setting '{}' changed (fingerprint {} then, {} now)",
                        a.label, fb.1, fa.0, fa.2, fb.2
                    ));
                }
            }
            if a != b {
                return differ("a candidate", &format!("'{}'", a.label), &format!("'{}'", b.label));
            }
        }
        if self.observation != now.observation {
            return differ("the games per observation", &self.observation, &now.observation);
        }
        if self.build != now.build {
            return Some(format!(
                "its games were played by another build of warsim ({}, this one is {})",
                crate::provenance::shown(&self.build),
                crate::provenance::shown(&now.build)
            ));
        }
        None
    }
}

#[derive(Serialize)]
struct Open<'a, T> {
    format: &'a str,
    format_version: u32,
    plan: &'a TuneIdentity,
    state: &'a T,
}

#[derive(Deserialize)]
struct Opened<T> {
    plan: TuneIdentity,
    state: T,
}

#[derive(Deserialize)]
struct Head {
    format: String,
    #[serde(default)]
    format_version: u32,
}

const CHECKSUM_KEY: &str = ",\"checksum\":\"";

/// The sealed text of `state` of format `format` (`STATE_FORMAT` or `SHARD_FORMAT`).
pub fn seal<T: Serialize>(format: &str, plan: &TuneIdentity, state: &T) -> anyhow::Result<String> {
    let body = serde_json::to_string(&Open { format, format_version: FORMAT_VERSION, plan, state })?;
    let sum = crate::io::fingerprint(&[&body]);
    let open = body.strip_suffix('}').expect("a JSON object ends with '}'");
    Ok(format!("{open}{CHECKSUM_KEY}{sum}\"}}\n"))
}

/// What a sealed file of format `format` holds, checked: its checksum, then its format; `what`
/// names the kind of file in messages (`tune state`).
pub fn open<T: DeserializeOwned>(
    path: &Path,
    format: &str,
    what: &str,
    text: &str,
) -> Result<(TuneIdentity, T), UsageError> {
    let refuse = |why: &str| UsageError(format!("{} {why}; it cannot be used", path.display()));
    let t = text.strip_suffix('\n').unwrap_or(text);
    let sealed = t.rfind(CHECKSUM_KEY).and_then(|at| {
        let sum = t[at + CHECKSUM_KEY.len()..].strip_suffix("\"}")?;
        Some((format!("{}}}", &t[..at]), sum))
    });
    let Some((body, sum)) = sealed else {
        // Say what the file is if it says so itself.
        return Err(match serde_json::from_str::<Head>(text) {
            Ok(h) if h.format != format => refuse(&format!("is a {}, not a warsim {what}", h.format)),
            Ok(_) => refuse(&format!("is a warsim {what} without a checksum (edited, or damaged)")),
            // Whole JSON of no known format: an older warsim's state, or another program's file.
            Err(_) if serde_json::from_str::<serde_json::Value>(text).is_ok() => refuse(&format!(
                "is not a warsim {what} of this version (an older warsim's, or another file): start the tune again"
            )),
            Err(_) => refuse(&format!("is not a whole warsim {what} (truncated, damaged or another file)")),
        });
    };
    if crate::io::fingerprint(&[&body]) != sum {
        return Err(refuse(&format!(
            "is a damaged or edited warsim {what} (its checksum does not match its content)"
        )));
    }
    match serde_json::from_str::<Head>(&body) {
        Ok(h) if h.format != format => {
            return Err(refuse(&format!("is a {}, not a warsim {what}", h.format)));
        }
        Ok(h) if h.format_version != FORMAT_VERSION => {
            return Err(refuse(&format!(
                "is a {what} of format version {}; this warsim reads version {FORMAT_VERSION} (start the tune again)",
                h.format_version
            )));
        }
        Ok(_) => {}
        Err(_) => return Err(refuse(&format!("is not a warsim {what}"))),
    }
    let opened: Opened<T> = serde_json::from_str(&body)
        .map_err(|_| refuse(&format!("is a {what} this warsim cannot read (another version?)")))?;
    Ok((opened.plan, opened.state))
}

/// Reads the sealed file at `path` (a regular file only, never through a link, so a FIFO or a
/// device is refused at once).
pub fn read<T: DeserializeOwned>(
    path: &Path,
    format: &str,
    what: &str,
) -> Result<(TuneIdentity, T), UsageError> {
    let text = crate::io::read_text_no_follow(path, crate::io::STATE_LIMIT)
        .map_err(|e| UsageError(format!("cannot read the {what} {}: {e}", path.display())))?;
    open(path, format, what, &text)
}

/// Whether `path` is a sealed file of format `format` (for `outdir`: a file warsim wrote).
pub fn is_sealed(path: &Path, format: &str) -> bool {
    crate::io::read_text_no_follow(path, crate::io::STATE_LIMIT)
        .ok()
        .and_then(|t| serde_json::from_str::<Head>(&t).ok())
        .is_some_and(|h| h.format == format)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity() -> TuneIdentity {
        TuneIdentity {
            build: "b".into(),
            scenario: "war".into(),
            scenario_text: None,
            seed: 1,
            games: 100,
            goal: "length_mean = 400".into(),
            within: None,
            requires: Vec::new(),
            search: "race".into(),
            observation: 12,
            candidates: vec![CandidateIdentity {
                label: "war war_down=1".into(),
                game: "war".into(),
                variant: "standard".into(),
                settings: vec![("war_down".into(), "1".into())],
                files: Vec::new(),
            }],
        }
    }

    #[test]
    fn a_sealed_file_opens_and_any_edit_or_cut_is_refused() {
        let p = Path::new("t.json");
        let text = seal(STATE_FORMAT, &identity(), &vec![1u64, 2, 3]).unwrap();
        let (plan, state): (TuneIdentity, Vec<u64>) = open(p, STATE_FORMAT, "tune state", &text).unwrap();
        assert_eq!((plan, state), (identity(), vec![1, 2, 3]));
        let edited = text.replace("[1,2,3]", "[1,2,4]");
        let e = open::<Vec<u64>>(p, STATE_FORMAT, "tune state", &edited).unwrap_err();
        assert!(e.0.contains("checksum does not match"), "{e}");
        for cut in [10, text.len() / 2, text.len() - 3] {
            let e = open::<Vec<u64>>(p, STATE_FORMAT, "tune state", &text[..cut]).unwrap_err();
            assert!(e.0.contains("not a whole warsim tune state"), "{cut}: {e}");
        }
        let e = open::<Vec<u64>>(p, SHARD_FORMAT, "tune shard", &text).unwrap_err();
        assert!(e.0.contains("is a warsim-tune-state, not a warsim tune shard"), "{e}");
        let e = open::<Vec<u64>>(p, STATE_FORMAT, "tune state", "{\"games\":1}").unwrap_err();
        assert!(e.0.contains("not a warsim tune state of this version (an older warsim's"), "{e}");
    }

    #[test]
    fn differences_are_named() {
        let a = identity();
        assert_eq!(a.difference(&a), None);
        let b = TuneIdentity { seed: 7, ..identity() };
        assert_eq!(a.difference(&b).unwrap(), "the seed is 1 in the saved tune and 7 in this command");
        let mut c = identity();
        c.candidates[0].settings[0].1 = "2".into();
        let why = a.difference(&c).unwrap();
        assert!(why.contains("setting 'war_down' is 1 in the saved tune and 2 in this command"), "{why}");
        let d = TuneIdentity { scenario_text: Some("seed = 1\n".into()), ..identity() };
        let e = TuneIdentity { scenario_text: Some("seed = 2\n".into()), ..identity() };
        let why = d.difference(&e).unwrap();
        assert_eq!(why, "the scenario file changed: key 'seed' is 1 in the saved tune and 2 now");
        assert_ne!(a.digest(), b.digest());
    }
}
