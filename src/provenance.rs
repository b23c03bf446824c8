//! Which program made a result: the build fingerprint that `state.json` and `manifest.json`
//! record, so that `merge`, `--resume` and `compare` never silently combine the results of two
//! different programs (a rule fix changes what a game does, while the version stays the same).
//!
//! Built from a git checkout of warsim, the fingerprint is `VERSION+git.COMMIT`, with
//! `.dirty.HASH` added when the program's sources differ from the commit (HASH identifies their
//! content, so two different uncommitted edits are two builds; `build.rs` computes it). Otherwise
//! (a crates.io package, no git) it is `VERSION+exe.HASH`, a hash of the executable's bytes.

use std::sync::OnceLock;

/// This program's fingerprint (computed once).
pub fn fingerprint() -> &'static str {
    static FINGERPRINT: OnceLock<String> = OnceLock::new();
    FINGERPRINT.get_or_init(|| {
        compose(
            env!("CARGO_PKG_VERSION"),
            option_env!("WARSIM_GIT_COMMIT").unwrap_or_default(),
            option_env!("WARSIM_GIT_DIRTY").unwrap_or_default(),
            executable_hash,
        )
    })
}

/// The fingerprint of a build of `version` from `commit` (empty outside a checkout) with source
/// changes `dirty` (empty if none); `exe` hashes the executable when there is no commit.
fn compose(version: &str, commit: &str, dirty: &str, exe: impl FnOnce() -> Option<String>) -> String {
    match (commit, dirty) {
        ("", _) => format!("{version}+exe.{}", exe().unwrap_or_else(|| "unknown".into())),
        (commit, "") => format!("{version}+git.{commit}"),
        (commit, dirty) => format!("{version}+git.{commit}.dirty.{dirty}"),
    }
}

fn executable_hash() -> Option<String> {
    let bytes = std::fs::read(std::env::current_exe().ok()?).ok()?;
    Some(crate::io::fingerprint_bytes(&bytes))
}

/// The fingerprints of results combined from two builds (allowed by `--allow-other-build`): each
/// distinct fingerprint once, in order, joined by ` + `.
pub fn combined(a: &str, b: &str) -> String {
    let mut all: Vec<&str> = Vec::new();
    for f in a.split(" + ").chain(b.split(" + ")) {
        if !f.is_empty() && !all.contains(&f) {
            all.push(f);
        }
    }
    all.join(" + ")
}

/// How a fingerprint is shown in a message: an empty one (a state or manifest written before
/// warsim recorded builds) as such.
pub fn shown(fingerprint: &str) -> &str {
    if fingerprint.is_empty() { "an unrecorded build" } else { fingerprint }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkout_names_its_commit_and_changes_else_the_executable() {
        let never = || -> Option<String> { panic!("a checkout's fingerprint reads no executable") };
        assert_eq!(compose("0.1.0", "c25ec67a1b2c", "", never), "0.1.0+git.c25ec67a1b2c");
        assert_eq!(compose("0.1.0", "c25ec67a1b2c", "9f0e", never), "0.1.0+git.c25ec67a1b2c.dirty.9f0e");
        assert_eq!(compose("0.1.0", "", "", || Some("00ff".into())), "0.1.0+exe.00ff");
        assert_eq!(compose("0.1.0", "", "", || None), "0.1.0+exe.unknown");
        assert!(fingerprint().starts_with(concat!(env!("CARGO_PKG_VERSION"), "+")));
    }

    #[test]
    fn combined_fingerprints_name_each_build_once() {
        assert_eq!(combined("a", "a"), "a");
        assert_eq!(combined("a", "b"), "a + b");
        assert_eq!(combined("a + b", "b"), "a + b");
        assert_eq!(combined("", "b"), "b");
    }

    #[test]
    fn an_executable_is_fingerprinted_as_one_text_of_its_bytes() {
        assert_eq!(crate::io::fingerprint_bytes(b"abc"), crate::io::fingerprint(&["abc"]));
        assert_ne!(crate::io::fingerprint_bytes(b"abc"), crate::io::fingerprint_bytes(b"abd"));
    }
}
