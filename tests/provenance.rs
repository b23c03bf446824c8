//! Results say which program made them: `state.json` and `manifest.json` carry the build
//! fingerprint (`src/provenance.rs`), and `merge`, `--resume` and `compare` refuse to combine the
//! results of two builds unless `--allow-other-build` asks for it; `compare` also refuses a
//! manifest edited after the run. Another build's files are made here as that build would have
//! written them: the fingerprint replaced, the checksum sealed again.

mod binary;

use std::path::Path;

use binary::{Paused, assert_same_csv, refused, reseal, run_ok, s, warsim};

const OTHER: &str = "0.1.0+git.0123456789ab";

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// This binary's fingerprint, as a run of it recorded in `dir`.
fn build_of(dir: &Path) -> String {
    json(&dir.join("state.json"))["build"].as_str().unwrap().to_string()
}

/// Rewrites `dir/state.json` as a build with fingerprint `OTHER` would have written it.
fn state_of_other_build(dir: &Path) {
    let path = dir.join("state.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let ours = format!("\"build\":\"{}\"", build_of(dir));
    assert!(text.contains(&ours));
    std::fs::write(&path, reseal(&text.replace(&ours, &format!("\"build\":\"{OTHER}\"")))).unwrap();
}

#[test]
fn a_merge_of_two_builds_is_refused_unless_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let base = ["run", "war", "--games", "3000", "-q"];
    let shard = |k: u32| {
        let dir = tmp.path().join(format!("s{k}"));
        run_ok(&[&base[..], &["--shard", &format!("{k}/2"), "--out", s(&dir)]].concat());
        dir
    };
    let (s1, s2) = (shard(1), shard(2));
    let ours = build_of(&s1);
    assert!(ours.starts_with(concat!(env!("CARGO_PKG_VERSION"), "+")), "{ours}");
    assert_eq!(json(&s1.join("manifest.json"))["build"], serde_json::json!(ours));
    state_of_other_build(&s2);
    let merged = tmp.path().join("merged");
    refused(
        &["merge", s(&s1), s(&s2), "--out", s(&merged)],
        &format!("made by different builds of warsim ({ours} vs {OTHER}); --allow-other-build"),
    );
    assert!(!merged.exists());
    run_ok(&["merge", s(&s1), s(&s2), "--out", s(&merged), "--allow-other-build", "-q"]);
    assert_eq!(json(&merged.join("manifest.json"))["build"], serde_json::json!(format!("{ours} + {OTHER}")));
    assert_eq!(json(&merged.join("state.json"))["build"], serde_json::json!(format!("{ours} + {OTHER}")));
    let whole = tmp.path().join("whole");
    run_ok(&[&base[..], &["--out", s(&whole)]].concat());
    assert_same_csv(&whole, &merged);
}

#[test]
fn a_resume_by_another_build_is_refused_unless_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let base = ["run", "war", "--games", "12000", "--threads", "2", "-q"];
    let cut = tmp.path().join("cut");
    let run = Paused::start(&[&base[..], &["--out", s(&cut)]].concat(), "checkpoint", Some(3000));
    assert_eq!(run.signal("-INT").0, Some(130));
    let ours = build_of(&cut);
    state_of_other_build(&cut);
    let resume = [&base[..], &["--out", s(&cut), "--resume"]].concat();
    refused(
        &resume,
        &format!("were made by different builds of warsim ({OTHER} vs {ours}); --allow-other-build"),
    );
    refused(&[&base[..], &["--out", s(&cut), "--allow-other-build"]].concat(), "--resume");
    run_ok(&[&resume[..], &["--allow-other-build"]].concat());
    let manifest = json(&cut.join("manifest.json"));
    assert_eq!(manifest["build"], serde_json::json!(format!("{OTHER} + {ours}")));
    let recorded = manifest["command_line"].as_array().unwrap();
    assert!(!recorded.iter().any(|a| a == "--allow-other-build" || a == "--resume"), "{recorded:?}");
    let whole = tmp.path().join("whole");
    run_ok(&[&base[..], &["--out", s(&whole)]].concat());
    assert_same_csv(&whole, &cut);
}

#[test]
fn compare_refuses_an_edited_manifest_and_another_build_unless_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    run_ok(&["run", "war", "--sweep", "variant=standard,peace", "--games", "2000", "-q", "--out", s(&dir)]);
    let path = dir.join("manifest.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let compare = ["compare", s(&dir), "--baseline", "variant=standard", "-q"];
    // Edited after the run: one number, or a field added, or the checksum taken away.
    for (from, to) in
        [("\"seed\": 1,", "\"seed\": 2,"), ("\"threads\"", "\"partial\": false,\n  \"threads\"")]
    {
        let edited = text.replacen(from, to, 1);
        assert_ne!(edited, text);
        std::fs::write(&path, edited).unwrap();
        refused(&compare, "manifest.json: it was edited or damaged after the run");
    }
    let mut unsealed = serde_json::from_str::<serde_json::Value>(&text).unwrap();
    unsealed.as_object_mut().unwrap().remove("checksum");
    std::fs::write(&path, unsealed.to_string()).unwrap();
    refused(&compare, "it has no checksum");
    assert!(!dir.join("comparisons.csv").exists());
    // Written by another build (sealed as warsim seals it): compare would replay its games with
    // this build, so it asks first.
    let mut manifest: warsim::report::Manifest = serde_json::from_str(&text).unwrap();
    let ours = manifest.build.clone();
    manifest.build = OTHER.into();
    let mut sealed = Vec::new();
    warsim::report::manifest::write(&manifest, &mut sealed).unwrap();
    std::fs::write(&path, sealed).unwrap();
    refused(&compare, &format!("another build of warsim ({OTHER}; this is {ours})"));
    assert!(!dir.join("comparisons.csv").exists());
    let out = warsim().args(compare).arg("--allow-other-build").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(dir.join("comparisons.csv").exists());
    let after = std::fs::read_to_string(&path).unwrap();
    assert_eq!(warsim::report::manifest::check(&after), None, "the rewritten manifest is sealed");
    assert_eq!(json(&path)["build"], serde_json::json!(format!("{OTHER} + {ours}")));
    // The untouched manifest of this build compares without the flag.
    std::fs::write(&path, &text).unwrap();
    run_ok(&compare);
}
