//! For people who script and scale: `--shard-from-env` takes K/N from the array job's variables,
//! and `--game-rows N` writes `games.csv`, the same for any thread count, and after a merge the
//! same as the unsharded run's.

mod binary;

use std::path::Path;

use binary::{assert_same_csv, run_ok, s, warsim};

fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.records().map(|rec| rec.unwrap().iter().map(str::to_string).collect()).collect()
}

#[test]
fn shard_from_env_reads_each_batch_systems_array_index() {
    let tmp = tempfile::tempdir().unwrap();
    let base = ["run", "war", "--sweep", "players=2,3", "--games", "301", "--seed", "5", "-q"];
    let whole = tmp.path().join("whole");
    run_ok(&[&base[..], &["--out", s(&whole)]].concat());
    // Slurm counts its array as the script says (--array=1-2 here), Kubernetes and AWS from 0.
    let systems: [&[(&str, &str)]; 3] = [
        &[("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_MAX", "3"), ("SLURM_ARRAY_TASK_COUNT", "3")],
        &[("WARSIM_SHARD_COUNT", "3")],
        &[("AWS_BATCH_JOB_ARRAY_SIZE", "3")],
    ];
    let index_var = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"];
    for (system, (fixed, var)) in systems.iter().zip(index_var).enumerate() {
        let mut dirs = Vec::new();
        for task in 0..3u64 {
            let index = if system == 0 { task + 1 } else { task };
            let dir = tmp.path().join(format!("s{system}-{task}"));
            let mut cmd = warsim();
            cmd.args(base).args(["--shard-from-env", "--out", s(&dir)]).env(var, index.to_string());
            for (k, v) in fixed.iter() {
                cmd.env(k, v);
            }
            let out = cmd.output().unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
            assert!(manifest.contains(&format!("\"shards\": \"{}/3\"", task + 1)), "{manifest}");
            dirs.push(dir);
        }
        let merged = tmp.path().join(format!("merged{system}"));
        let mut args = vec!["merge", "-q", "--out", s(&merged)];
        args.extend(dirs.iter().rev().map(|d| s(d)));
        run_ok(&args);
        assert_same_csv(&whole, &merged);
    }
}

#[test]
fn shard_from_env_without_an_array_job_or_with_shard_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let refused = |envs: &[(&str, &str)], extra: &[&str], needle: &str| {
        let mut cmd = warsim();
        cmd.args(["run", "war", "--games", "10", "--shard-from-env", "--out", s(&out)]).args(extra);
        for v in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"] {
            cmd.env_remove(v);
        }
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let o = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(needle), "'{needle}' not in {err}");
        assert!(!out.exists(), "nothing written");
    };
    refused(&[], &[], "no array job found");
    refused(&[("JOB_COMPLETION_INDEX", "3")], &[], "WARSIM_SHARD_COUNT is not");
    refused(
        &[("JOB_COMPLETION_INDEX", "3"), ("WARSIM_SHARD_COUNT", "3")],
        &[],
        "makes shard 4, but there are only 3",
    );
    refused(&[], &["--shard", "1/2"], "cannot be used with");
}

#[test]
fn game_rows_list_the_first_games_alike_for_any_threads_and_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let base = [
        "run",
        "scourge",
        "--sweep",
        "players=2,4",
        "--games",
        "30",
        "--seed",
        "9",
        "-q",
        "--game-rows",
        "25",
    ];
    let one = tmp.path().join("one");
    run_ok(&[&base[..], &["--threads", "1", "--out", s(&one)]].concat());
    let two = tmp.path().join("two");
    run_ok(&[&base[..], &["--threads", "2", "--out", s(&two)]].concat());
    assert_eq!(std::fs::read(one.join("games.csv")).unwrap(), std::fs::read(two.join("games.csv")).unwrap());
    let rows = csv_rows(&one.join("games.csv"));
    assert_eq!(rows.len(), 50, "25 games of each of the two points");
    let games: Vec<&str> = rows.iter().take(25).map(|r| r[1].as_str()).collect();
    assert_eq!(
        games,
        (0..25).map(|i| i.to_string()).collect::<Vec<_>>().iter().map(String::as_str).collect::<Vec<_>>()
    );
    assert!(rows.iter().all(|r| r[2] == "9"), "the seed replays the game");
    // Three shards of 10 games each: the first 25 games fall into all three; shard 3 lists 20..24.
    let mut dirs = Vec::new();
    for k in 1..=3 {
        let dir = tmp.path().join(format!("shard{k}"));
        run_ok(&[&base[..], &["--shard", &format!("{k}/3"), "--out", s(&dir)]].concat());
        dirs.push(dir);
    }
    let third: Vec<String> = csv_rows(&dirs[2].join("games.csv")).iter().map(|r| r[1].clone()).collect();
    assert_eq!(third, ["20", "21", "22", "23", "24", "20", "21", "22", "23", "24"]);
    let merged = tmp.path().join("merged");
    run_ok(&["merge", "-q", "--out", s(&merged), s(&dirs[1]), s(&dirs[0]), s(&dirs[2])]);
    assert_eq!(
        std::fs::read(one.join("games.csv")).unwrap(),
        std::fs::read(merged.join("games.csv")).unwrap()
    );
    // Shards asking for different rows are shards of different runs.
    let other = tmp.path().join("other");
    let mut args: Vec<&str> = base.to_vec();
    *args.last_mut().unwrap() = "24";
    run_ok(&[&args[..], &["--shard", "3/3", "--out", s(&other)]].concat());
    let out = warsim()
        .args(["merge", "--out", s(&tmp.path().join("m2")), s(&dirs[0]), s(&dirs[1]), s(&other)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("different --game-rows (25 vs 24)"));
}

#[test]
fn game_rows_agree_with_the_summary_and_are_off_by_default() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("all");
    run_ok(&["run", "war", "--games", "40", "--seed", "2", "-q", "--game-rows", "1000", "--out", s(&dir)]);
    let rows = csv_rows(&dir.join("games.csv"));
    assert_eq!(rows.len(), 40, "no more rows than games");
    // Every game listed: the lengths add up to the summary's mean, the wins to outcomes.csv.
    let total: u64 = rows.iter().map(|r| r[7].parse::<u64>().unwrap()).sum();
    let summary = csv_rows(&dir.join("summary.csv"));
    let header: Vec<String> = csv::Reader::from_path(dir.join("summary.csv"))
        .unwrap()
        .headers()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    let mean_at = header.iter().position(|h| h == "length_mean").unwrap();
    let mean: f64 = summary[0][mean_at].parse().unwrap();
    assert!((total as f64 / 40.0 - mean).abs() < 1e-9, "{total} / 40 vs {mean}");
    let seat0_wins = rows.iter().filter(|r| r[3] == "win" && r[4] == "0").count();
    let outcomes = csv_rows(&dir.join("outcomes.csv"));
    let seat0 = outcomes.iter().find(|r| r[1] == "win" && r[2] == "0").unwrap();
    assert_eq!(seat0[5], seat0_wins.to_string());
    let plain = tmp.path().join("plain");
    run_ok(&["run", "war", "--games", "40", "-q", "--out", s(&plain)]);
    assert!(!plain.join("games.csv").exists());
}
