//! End-to-end tests of runs that outgrow one process: Ctrl-C and `--resume`, SIGKILL and
//! `--resume`, `--until`, and the bad inputs of shards, merges and all of these. Each test drives
//! the built binary as the cluster recipes in docs/cluster.md do, and compares files byte for byte
//! with the plain single run. That every game's shards merge into the single run is part of the
//! conformance test of every game (`tests/games.rs`).

mod binary;

use std::path::Path;

use binary::{CSV_FILES, Paused, assert_same_files, manifest_core, refused, reseal, run_ok, s};

/// Games per checkpoint of the interrupted runs (`WARSIM_TEST_CHECKPOINT_EVERY`).
const EVERY: u64 = 4_000;

/// Stops a run with `sig` while it is paused right after its first checkpoint (so it has saved
/// `EVERY` games of its first point and has games left), resumes it, and checks the files equal
/// the uninterrupted run's in `full`.
fn interrupt_and_resume(tmp: &Path, base: &[&str], full: &Path, sig: &str, tag: &str) {
    let cut = tmp.join(tag);
    let run = Paused::start(&[base, &["--out", s(&cut)]].concat(), "checkpoint", Some(EVERY));
    let (code, err) = run.signal(sig);
    if sig == "-INT" {
        assert_eq!(code, Some(130), "an interrupted run exits with 130: {err}");
        // It stopped at its next look at the flag: no game after the checkpoint was played.
        let m = manifest_core(&cut);
        assert_eq!(m["partial"], serde_json::json!(true), "{m}");
        assert_eq!(m["point_games"], serde_json::json!([EVERY, 0]), "{m}");
        assert!(err.contains("stopped with 4,000 games kept"), "{err}");
    } else {
        assert_eq!(code, None, "killed by the signal");
    }
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cut.join("state.json")).unwrap()).unwrap();
    assert_eq!(state["points"][0]["done"], serde_json::json!(EVERY), "the checkpoint survives");
    // No half-written file under a final name: every file there parses completely.
    for f in std::fs::read_dir(&cut).unwrap() {
        let path = f.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.ends_with(".json") {
            let text = std::fs::read_to_string(&path).unwrap();
            serde_json::from_str::<serde_json::Value>(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        } else if name.ends_with(".csv") {
            let mut r = csv::Reader::from_path(&path).unwrap();
            assert!(r.records().all(|rec| rec.is_ok()), "{name}");
        }
    }
    run_ok(&[base, &["--out", s(&cut), "--resume"]].concat());
    assert_same_files(full, &cut);
    assert!(manifest_core(&cut).get("partial").is_none());
    let stale: Vec<_> = std::fs::read_dir(&cut)
        .unwrap()
        .map(|f| f.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(".warsim-"))
        .collect();
    assert!(stale.is_empty(), "temporary files left: {stale:?}");
}

/// Ctrl-C and SIGKILL, each after the first checkpoint, then `--resume`: the files of the
/// uninterrupted run, both times (one uninterrupted run serves both).
#[test]
fn signals_then_resume_equal_the_uninterrupted_run() {
    let tmp = tempfile::tempdir().unwrap();
    let base = ["run", "war", "--games", "20000", "--sweep", "players=4,5", "--threads", "2", "-q"];
    let full = tmp.path().join("full");
    run_ok(&[&base[..], &["--out", s(&full)]].concat());

    interrupt_and_resume(tmp.path(), &base, &full, "-INT", "interrupted");
    interrupt_and_resume(tmp.path(), &base, &full, "-KILL", "killed");
}

/// Each point's games and the half-width of the interval `--until` stopped on (`until_low`,
/// `until_high`: the confidence sequence, never narrower than the fixed-n interval beside it).
fn length_precision(dir: &Path) -> Vec<(u64, f64)> {
    let mut r = csv::Reader::from_path(dir.join("summary.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|x| x == name).unwrap();
    let (g, lo, hi) = (col("games"), col("until_low"), col("until_high"));
    let (fixed_lo, fixed_hi) = (col("length_ci95_low"), col("length_ci95_high"));
    let (metric, method, until_games) =
        (col("until_metric"), col("until_interval_method"), col("until_games"));
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            let f = |i: usize| rec[i].parse::<f64>().unwrap();
            assert_eq!(
                (&rec[metric], &rec[method]),
                ("length_mean", "confidence_sequence_normal_mixture_95")
            );
            assert_eq!(rec[until_games], rec[g]);
            assert!(f(hi) - f(lo) > f(fixed_hi) - f(fixed_lo));
            (rec[g].parse().unwrap(), (f(hi) - f(lo)) / 2.0)
        })
        .collect()
}

#[test]
fn until_stops_at_the_asked_precision_and_repeats_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let base = ["run", "war", "--until", "length_mean:2.5", "--sweep", "players=2,4", "-q"];
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    run_ok(&[&base[..], &["--out", s(&a), "--threads", "2"]].concat());
    run_ok(&[&base[..], &["--out", s(&b), "--threads", "1"]].concat());
    for f in CSV_FILES {
        assert_eq!(std::fs::read(a.join(f)).unwrap(), std::fs::read(b.join(f)).unwrap(), "{f}");
    }
    for (i, (games, hw)) in length_precision(&a).into_iter().enumerate() {
        assert!(hw <= 2.5, "half-width {hw} after {games} games");
        assert!(
            games >= 10_000 && games.is_multiple_of(10_000) && (games / 10_000).is_power_of_two(),
            "{games}"
        );
        // At the previous test point the target was not yet met (else the run would have stopped
        // there): the same command capped at half the games shows it.
        if games > 10_000 {
            let c = tmp.path().join(format!("cap{i}"));
            let cap = (games / 2).to_string();
            run_ok(&[&base[..], &["--games", &cap, "--out", s(&c)]].concat());
            let (g, earlier) = length_precision(&c)[i];
            assert!(g == games / 2 && earlier > 2.5, "{g} games: {earlier}");
        }
    }
    // The cap: --games stops the run even if the precision is not reached.
    let capped = tmp.path().join("capped");
    run_ok(&["run", "war", "--until", "length_mean:0.001", "--games", "15000", "--out", s(&capped), "-q"]);
    let p = length_precision(&capped);
    assert_eq!(p[0].0, 15_000);
    assert!(p[0].1 > 0.001);
}

#[test]
fn bad_shards_and_merges_exit_2_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    for (spec, why) in
        [("3/2", "between 1 and N"), ("0/0", "from 1 to 100000"), ("x/y", "whole number"), ("1", "K/N")]
    {
        refused(&["run", "war", "--games", "100", "--shard", spec, "--out", s(&out)], why);
        assert!(!out.exists());
    }
    refused(&["run", "war", "--until", "length_median:1", "--out", s(&out)], "did you mean 'length_mean'?");
    refused(&["run", "war", "--until", "length_mean:1", "--shard", "1/2", "--out", s(&out)], "--until");
    refused(&["run", "war", "--resume", "--out", s(&out)], "state.json");
    assert!(!out.exists());

    let shard = |k: u32, seed: &str, games: &str| {
        let dir = tmp.path().join(format!("s{k}-{seed}-{games}"));
        run_ok(&[
            "run",
            "war",
            "--games",
            games,
            "--seed",
            seed,
            "--shard",
            &format!("{k}/3"),
            "--out",
            s(&dir),
            "-q",
        ]);
        dir
    };
    let (s1, s2, s3) = (shard(1, "1", "900"), shard(2, "1", "900"), shard(3, "1", "900"));
    let merged = tmp.path().join("merged");
    refused(&["merge", s(&s1), s(&s2), "--out", s(&merged)], "missing shard 3/3");
    refused(&["merge", s(&s1), s(&s2), s(&s2), s(&s3), "--out", s(&merged)], "given twice");
    let other_seed = shard(3, "2", "900");
    refused(&["merge", s(&s1), s(&s2), s(&other_seed), "--out", s(&merged)], "different seed");
    let other_games = shard(3, "1", "1000");
    refused(&["merge", s(&s1), s(&s2), s(&other_games), "--out", s(&merged)], "different game count");
    let other_settings = tmp.path().join("other-settings");
    run_ok(&[
        "run",
        "war",
        "--games",
        "900",
        "--set",
        "players=3",
        "--shard",
        "3/3",
        "--out",
        s(&other_settings),
        "-q",
    ]);
    refused(
        &["merge", s(&s1), s(&s2), s(&other_settings), "--out", s(&merged)],
        "setting 'players' is 2 here and 3 there",
    );
    refused(&["merge", s(&s1), s(&tmp.path().join("nowhere")), "--out", s(&merged)], "state.json");
    // Another warsim version: edit the saved state as an older build would have written it.
    let old = tmp.path().join("old");
    std::fs::create_dir_all(&old).unwrap();
    let text = std::fs::read_to_string(s3.join("state.json")).unwrap();
    let version = format!("\"warsim_version\":\"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&version));
    // An edit is caught by the checksum ...
    let edited = text.replace(&version, "\"warsim_version\":\"0.0.1\"");
    std::fs::write(old.join("state.json"), &edited).unwrap();
    refused(&["merge", s(&s1), s(&s2), s(&old), "--out", s(&merged)], "damaged or was edited");
    // ... and a state really written by another version (checksum sealed) is another run.
    std::fs::write(old.join("state.json"), reseal(&edited)).unwrap();
    refused(&["merge", s(&s1), s(&s2), s(&old), "--out", s(&merged)], "different warsim version");
    assert!(!merged.exists());
    // And the right three merge.
    run_ok(&["merge", s(&s3), s(&s1), s(&s2), "--out", s(&merged), "-q"]);
}
