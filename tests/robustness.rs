//! The binary under careless or hostile use: where it writes (never outside its folder, never two
//! runs into one folder, never a stray file), what it trusts (never a damaged state), and how it
//! stops (promptly, for any policy, keeping what it played). Each test reproduces a failure an
//! audit found and checks the fixed behaviour.

mod binary;

use std::path::Path;
use std::process::Command as StdCommand;

use binary::{Paused, refused, run_ok, s, warsim};

fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn a_scenario_name_must_be_a_plain_folder_name() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["/tmp/warsim-escape", "../..", "..", "", "a/b", ".hidden"] {
        let file = tmp.path().join("s.toml");
        std::fs::write(&file, format!("name = \"{name}\"\ngames = 10\n[[run]]\ngame = \"war\"\n")).unwrap();
        let out = warsim().current_dir(tmp.path()).arg("run").arg(&file).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains("not a plain folder name"), "{name}: {err}");
        assert_eq!(files(tmp.path()), ["s.toml"], "{name}: nothing written");
    }
    assert!(!Path::new("/tmp/warsim-escape").exists());
}

#[test]
fn a_folder_in_use_is_refused_and_a_stale_lock_does_not_block() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    // A live process (pid 1 always runs) holds the folder.
    std::fs::write(out.join(".warsim.lock"), "1\n").unwrap();
    refused(&["run", "war", "--games", "100", "--out", s(&out)], "in use by another warsim (process 1)");
    assert_eq!(files(&out), [".warsim.lock"], "the refused run wrote nothing");
    // A killed run's lock (its process is gone) is taken over; the lock goes when the run ends.
    std::fs::write(out.join(".warsim.lock"), format!("{}\n", u32::MAX - 7)).unwrap();
    run_ok(&["run", "war", "--games", "100", "-q", "--out", s(&out)]);
    assert!(!out.join(".warsim.lock").exists());
    // Two real runs at once: the second is refused while the first, paused after its first
    // checkpoint, holds the folder.
    let first =
        Paused::start(&["run", "war", "--games", "1000", "-q", "--out", s(&out)], "checkpoint", Some(100));
    refused(&["run", "war", "--games", "100", "--out", s(&out)], &format!("process {}", first.id()));
}

#[test]
fn a_new_run_removes_what_an_earlier_run_wrote_and_nothing_else() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    run_ok(&[
        "run",
        "territories",
        "--games",
        "40",
        "--set",
        "policies=greedy,random",
        "-q",
        "--out",
        s(&out),
    ]);
    assert!(out.join("agents.csv").exists() && out.join("plots/agents.svg").exists());
    let compared = [
        "run",
        "war",
        "--sweep",
        "variant=standard,peace",
        "--games",
        "200",
        "--baseline",
        "variant=standard",
    ];
    run_ok(&[&compared[..], &["-q", "--out", s(&out)]].concat());
    assert!(out.join("comparisons.csv").exists());
    assert!(!out.join("agents.csv").exists(), "the territories run's agents.csv is gone");
    assert!(!out.join("plots/agents.svg").exists());
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    run_ok(&["run", "war", "--games", "200", "-q", "--out", s(&out)]);
    assert!(!out.join("comparisons.csv").exists(), "the earlier run's comparisons are gone");
    assert!(!out.join("timings.csv").exists());
    assert_eq!(std::fs::read_to_string(out.join("notes.txt")).unwrap(), "mine", "a user's file stays");
}

#[test]
fn files_honour_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let bin = assert_cmd::cargo::cargo_bin("warsim");
    let status = StdCommand::new("sh")
        .arg("-c")
        .arg(format!("umask 022 && '{}' run war --games 50 -q --out '{}' >/dev/null", bin.display(), s(&out)))
        .status()
        .unwrap();
    assert!(status.success());
    for f in ["summary.csv", "state.json", "manifest.json", "report.html", "plots/lengths.svg"] {
        let mode = std::fs::metadata(out.join(f)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "{f}: {mode:o}");
    }
}

#[test]
fn merge_never_overwrites_its_inputs_and_never_trusts_a_damaged_state() {
    let tmp = tempfile::tempdir().unwrap();
    let shard = |k: u32| {
        let d = tmp.path().join(format!("s{k}"));
        run_ok(&["run", "war", "--games", "3000", "--shard", &format!("{k}/2"), "-q", "--out", s(&d)]);
        d
    };
    let (s1, s2) = (shard(1), shard(2));
    refused(&["merge", s(&s1), s(&s2), "--out", s(&s1)], "is one of the shard folders it reads");
    // An edited number: 31,000 games of a 3,000-game run.
    let text = std::fs::read_to_string(s2.join("state.json")).unwrap();
    let edited = text.replacen("\"done\":1500", "\"done\":31000", 1);
    assert_ne!(edited, text);
    std::fs::write(s2.join("state.json"), &edited).unwrap();
    let merged = tmp.path().join("merged");
    refused(&["merge", s(&s1), s(&s2), "--out", s(&merged)], "damaged or was edited");
    refused(&["run", "war", "--games", "3000", "--shard", "2/2", "--resume", "--out", s(&s2)], "damaged");
    // Truncated, as a full disk might leave it under another name.
    std::fs::write(s2.join("state.json"), &text[..text.len() / 2]).unwrap();
    refused(&["merge", s(&s1), s(&s2), "--out", s(&merged)], "state.json");
    assert!(!merged.exists());
    // A shard count beyond the bound is refused where it is parsed.
    refused(&["run", "war", "--shard", "1/18446744073709551615"], "N must be from 1 to 100000");
}

#[test]
fn compare_refuses_shards_interrupted_runs_and_games_never_played() {
    let tmp = tempfile::tempdir().unwrap();
    let shard = tmp.path().join("shard");
    run_ok(&[
        "run",
        "war",
        "--sweep",
        "variant=standard,peace",
        "--games",
        "400",
        "--shard",
        "1/2",
        "-q",
        "--out",
        s(&shard),
    ]);
    refused(&["compare", s(&shard), "--baseline", "variant=standard"], "shard 1/2 of a run");
    let whole = tmp.path().join("whole");
    run_ok(&["run", "war", "--sweep", "variant=standard,peace", "--games", "400", "-q", "--out", s(&whole)]);
    refused(
        &["compare", s(&whole), "--baseline", "variant=standard", "--games", "401"],
        "the first 1 to 400",
    );
}

#[test]
fn bounds_and_impossible_requests_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("a/b/c");
    refused(&["run", "war", "--threads", "18446744073709551615", "--out", s(&out)], "from 1 to 1024");
    refused(&["run", "war", "--set", "stack_only=0:", "--out", s(&out)], "seat 0 would start with no cards");
    refused(
        &["run", "war", "--until", "scorched_rate:0.01", "--out", s(&out)],
        "not a metric of every point",
    );
    refused(&["run", "war", "--resume", "--out", s(&out)], "holds no saved run");
    // The hidden hooks of the tests are checked like flags.
    let hooked =
        warsim().env("WARSIM_TEST_CHECKPOINT_EVERY", "0").args(["run", "war", "--out", s(&out)]).output();
    let hooked = hooked.unwrap();
    assert_eq!(hooked.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&hooked.stderr).contains("WARSIM_TEST_CHECKPOINT_EVERY=0: a whole number")
    );
    assert_eq!(files(tmp.path()), Vec::<String>::new(), "no folder left behind");
}

#[test]
fn a_full_disk_or_a_closed_pipe_never_panics() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else { return };
    let out = StdCommand::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(["completions", "bash"])
        .stdout(full)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("No space left") && !err.contains("panicked"), "{err}");
}

/// A slow policy (search) stops at its next look at the stop flag and keeps every game it had
/// checkpointed; `--resume` then finishes the same files as an uninterrupted run. (That the look
/// comes within a chunk of one game for a slow policy is `driver`'s and `runner`'s unit tests.)
#[test]
fn a_slow_policy_stops_promptly_and_loses_little() {
    let tmp = tempfile::tempdir().unwrap();
    let cut = tmp.path().join("cut");
    let args = ["run", "territories", "--set", "policies=search,greedy", "--set", "search_budget=200"];
    let args = [&args[..], &["--games", "12", "--threads", "2", "-q"]].concat();
    let run = Paused::start(&[&args[..], &["--out", s(&cut)]].concat(), "checkpoint", Some(4));
    let (code, err) = run.signal("-INT");
    assert_eq!(code, Some(130), "{err}");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cut.join("state.json")).unwrap()).unwrap();
    assert_eq!(state["points"][0]["done"], serde_json::json!(4), "the checkpointed games are kept");
    run_ok(&[&args[..], &["--out", s(&cut), "--resume"]].concat());
    let full = tmp.path().join("full");
    run_ok(&[&args[..], &["--out", s(&full)]].concat());
    binary::assert_same_csv(&full, &cut);
}

/// SIGKILL cannot be caught: what survives is the last checkpoint.
#[test]
fn a_killed_slow_run_keeps_its_last_checkpoint() {
    let tmp = tempfile::tempdir().unwrap();
    let cut = tmp.path().join("cut");
    let args = ["run", "territories", "--set", "policies=search,greedy", "--set", "search_budget=200"];
    let run = Paused::start(
        &[&args[..], &["--games", "2000", "--threads", "2", "-q", "--out", s(&cut)]].concat(),
        "checkpoint",
        Some(6),
    );
    let (code, _) = run.signal("-KILL");
    assert_eq!(code, None, "killed");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cut.join("state.json")).unwrap()).unwrap();
    assert_eq!(state["points"][0]["done"], serde_json::json!(6), "the checkpoint written before the kill");
}

/// Ctrl-C during the paired comparison pass (after the main pass wrote its files) stops it too.
#[test]
fn ctrl_c_during_the_comparison_pass_stops_with_130() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let run = Paused::start(
        &[
            "run",
            "war",
            "--sweep",
            "variant=standard,peace",
            "--games",
            "40000",
            "--baseline",
            "variant=standard",
            "--threads",
            "2",
            "-q",
            "--out",
            s(&out),
        ],
        "comparison",
        None,
    );
    // The main pass is over: its final (not partial) manifest is written.
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(!manifest.contains("\"partial\"") && out.join("summary.csv").exists(), "{manifest}");
    let (code, err) = run.signal("-INT");
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("stopped during the paired comparison"), "{err}");
    assert!(!out.join("comparisons.csv").exists());
}
