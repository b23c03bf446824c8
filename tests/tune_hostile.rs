//! `warsim tune` attacked as a hostile or careless user would: every bad input, file or folder is
//! refused in one line with exit code 2, before any game, leaving every file as it was; a resume
//! goes on from the same tune whatever the spelling of its command; an interrupted tune ends with
//! the uninterrupted one's files, byte for byte.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;

fn warsim() -> assert_cmd::Command {
    let mut c = cargo_bin_cmd!("warsim");
    // A refusal is immediate: a hang (a FIFO read, an endless loop) fails the test.
    c.timeout(Duration::from_secs(120));
    c
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A quick race of War's face-down count: three settings, settled in a few looks.
const RACE: [&str; 6] = ["war", "--vary", "war_down=1..3", "--goal", "length_mean=400", "--games"];

fn race(out: &Path) -> Vec<String> {
    let mut a: Vec<String> = RACE.iter().map(|s| s.to_string()).collect();
    a.extend(["20000", "-q", "--out", s(out)].map(String::from));
    a
}

fn tune(args: &[String]) -> std::process::Output {
    warsim().arg("tune").args(args).output().unwrap()
}

fn ok(args: &[String]) -> String {
    let o = tune(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs a tune that must be refused: exit 2, one line on stderr holding `why`; returns the line.
fn refused(args: &[String], why: &str) -> String {
    let o = tune(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: not one line: {err}");
    assert!(err.contains(why), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Every file under `dir` with its bytes, to show a refused command changed nothing.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let t = std::fs::symlink_metadata(e.path()).unwrap().file_type();
        if t.is_dir() {
            out.extend(snapshot(&e.path()));
        } else if t.is_file() {
            out.push((e.path(), std::fs::read(e.path()).unwrap()));
        } else {
            out.push((e.path(), Vec::new()));
        }
    }
    out.sort();
    out
}

fn with(mut a: Vec<String>, more: &[&str]) -> Vec<String> {
    a.extend(more.iter().map(|s| s.to_string()));
    a
}

#[test]
fn qualified_metrics_take_every_goal_form() {
    let tmp = tempfile::tempdir().unwrap();
    for (k, goal) in
        ["win_rate seat=0=0.5", "win_rate seat=0>=0.4", "win_rate seat=0<=0.6"].iter().enumerate()
    {
        let out = tmp.path().join(format!("q{k}"));
        let args: Vec<String> =
            ["war", "--vary", "war_down=1..2", "--goal", goal, "--games", "2400", "-q", "--out", s(&out)]
                .map(String::from)
                .to_vec();
        let text = ok(&args);
        assert!(text.contains("the win rate (seat=0) is then "), "{goal}: {text}");
        let csv = std::fs::read_to_string(out.join("tune.csv")).unwrap();
        assert!(csv.lines().nth(1).unwrap().contains(",win_rate seat=0,"), "{csv}");
    }
}

#[test]
fn a_resume_compares_the_plan_not_the_spelling_and_names_what_differs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    ok(&race(&dir));
    let csv = std::fs::read(dir.join("tune.csv")).unwrap();
    // Another spelling of the same tune: a trailing slash, `--games=N`, flags in another order.
    let respelled: Vec<String> = [
        "--games=20000",
        "--goal",
        "length_mean = 400",
        "war",
        "--out",
        &format!("{}/", s(&dir)),
        "--vary",
        "war_down=1..3",
        "--resume",
        "-q",
    ]
    .map(String::from)
    .to_vec();
    ok(&respelled);
    assert_eq!(csv, std::fs::read(dir.join("tune.csv")).unwrap());
    let before = snapshot(&dir);
    refused(
        &with(race(&dir), &["--resume", "--seed", "7"]),
        "the seed is 1 in the saved tune and 7 in this command",
    );
    let mut other_cap = race(&dir);
    other_cap[6] = "40000".into();
    refused(&with(other_cap, &["--resume"]), "--games (the cap) is 20000 in the saved tune and 40000");
    assert_eq!(before, snapshot(&dir), "a refused resume changes nothing");
    // A scenario file whose seed or settings changed is another tune: the key is named.
    let file = tmp.path().join("s.toml");
    std::fs::write(
        &file,
        "name = \"s\"\nseed = 3\n[[run]]\ngame = \"war\"\nset = { capture = \"instant\" }\n",
    )
    .unwrap();
    let scen = |rest: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = [
            s(&file),
            "--vary",
            "war_down=1..3",
            "--goal",
            "length_mean=300",
            "--games",
            "20000",
            "-q",
            "--out",
        ]
        .map(String::from)
        .to_vec();
        a.push(s(&tmp.path().join("f")).into());
        a.extend(rest.iter().map(|x| x.to_string()));
        a
    };
    ok(&scen(&[]));
    std::fs::write(
        &file,
        "name = \"s\"\nseed = 4\n[[run]]\ngame = \"war\"\nset = { capture = \"instant\" }\n",
    )
    .unwrap();
    refused(&scen(&["--resume"]), "the seed is 3 in the saved tune and 4 in this command");
    std::fs::write(
        &file,
        "name = \"s\"\nseed = 3\n[[run]]\ngame = \"war\"\nset = { capture = \"spoils\" }\n",
    )
    .unwrap();
    refused(
        &scen(&["--resume"]),
        "the scenario file changed: key 'run[1].set.capture' is \"instant\" in the saved tune and \"spoils\" now",
    );
}

#[test]
fn edited_truncated_foreign_and_special_state_files_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    ok(&race(&dir));
    let state = dir.join("tune-state.json");
    let text = std::fs::read_to_string(&state).unwrap();
    let resume = with(race(&dir), &["--resume"]);
    let cases: Vec<(String, &str)> = vec![
        (text.replacen("\"live\":[0]", "\"live\":[2]", 1), "checksum does not match"),
        (text[..text.len() / 2].to_string(), "not a whole warsim tune state"),
        (String::new(), "not a whole warsim tune state"),
        (
            "{\"format\":\"warsim-state\",\"format_version\":3}".into(),
            "is a warsim-state, not a warsim tune state",
        ),
    ];
    for (bad, why) in cases {
        std::fs::write(&state, &bad).unwrap();
        let before = snapshot(&dir);
        refused(&resume, why);
        assert_eq!(before, snapshot(&dir), "{why}: a refused resume changes nothing");
    }
    // A FIFO or a device under the state's name is refused at once (never read: no hang).
    std::fs::remove_file(&state).unwrap();
    let c = std::ffi::CString::new(s(&state)).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    refused(&resume, "is a device, FIFO or socket");
    std::fs::remove_file(&state).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &state).unwrap();
    refused(&resume, "is a symbolic link");
}

#[test]
fn shard_files_are_checked_like_the_state() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    for k in ["1/2", "2/2"] {
        ok(&with(race(&dir), &["--shard", k]));
    }
    let merge = with(race(&dir), &["--merge-shards", "2"]);
    let one = dir.join("tune-shard-1-of-2.json");
    let text = std::fs::read_to_string(&one).unwrap();
    std::fs::write(&one, text.replacen("\"n\":", "\"n\" :", 1)).unwrap();
    refused(&merge, "checksum does not match");
    std::fs::write(&one, &text[..100]).unwrap();
    refused(&merge, "not a whole warsim tune shard");
    // A shard of another tune (another goal) is named as such.
    std::fs::write(&one, &text).unwrap();
    let other: Vec<String> =
        race(&dir).into_iter().map(|a| a.replace("length_mean=400", "length_mean=300")).collect();
    ok(&with(other, &["--shard", "1/2"]));
    refused(&merge, "is a shard of another tune: the goal is 'length_mean = 300'");
    std::fs::remove_file(&one).unwrap();
    let c = std::ffi::CString::new(s(&one)).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    refused(&merge, "tune-shard-1-of-2.json");
    // A refused merge into a folder that did not exist leaves no folder behind.
    let fresh = tmp.path().join("new/deeper");
    refused(&with(race(&fresh), &["--merge-shards", "2"]), "run tune --shard 1/2 first");
    assert!(!tmp.path().join("new").exists(), "the refused merge removed the folders it made");
}

#[test]
fn blocked_names_and_others_files_are_found_before_the_first_game() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, why) in [
        ("tune.csv", "tune.csv is a folder"),
        ("tune-state.json", "tune-state.json is a folder"),
        ("report.html", "report.html is a folder"),
        ("plots/tune.svg", "only plot files"),
    ] {
        let dir = tmp.path().join(name.replace('/', "_"));
        std::fs::create_dir_all(dir.join(name)).unwrap();
        let before = snapshot(&dir);
        refused(&race(&dir), why);
        assert_eq!(before, snapshot(&dir), "{name}");
        assert!(!dir.join("tune-state.json").is_file(), "{name}: no game was played");
    }
    // A user's files, or a run's results: refused without --force, then left alone with it.
    let dir = tmp.path().join("mine");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    std::fs::write(dir.join("tune.csv"), "my own table").unwrap();
    let before = snapshot(&dir);
    refused(&race(&dir), "holds files warsim did not write (notes.txt, tune.csv)");
    assert_eq!(before, snapshot(&dir));
    ok(&with(race(&dir), &["--force"]));
    assert_eq!(std::fs::read_to_string(dir.join("notes.txt")).unwrap(), "mine");
    let run = tmp.path().join("run");
    let o = warsim().args(["run", "war", "--games", "100", "-q", "--out", s(&run)]).output().unwrap();
    assert!(o.status.success());
    let before = snapshot(&run);
    refused(&race(&run), "holds the results of a run");
    assert_eq!(before, snapshot(&run));
    // A tune's own folder is its to replace: the same tune again writes the same files.
    let again = tmp.path().join("again");
    ok(&race(&again));
    let csv = std::fs::read(again.join("tune.csv")).unwrap();
    ok(&race(&again));
    assert_eq!(csv, std::fs::read(again.join("tune.csv")).unwrap());
    let manifest = std::fs::read_to_string(again.join("manifest.json")).unwrap();
    for f in ["\"tune.csv\"", "\"plots/tune.svg\"", "\"report.html\""] {
        assert!(manifest.contains(f), "the manifest lists {f}: {manifest}");
    }
}

#[test]
fn limits_never_overflow_and_numbers_stay_readable() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let args = |more: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = more.iter().map(|s| s.to_string()).collect();
        a.extend(["-q", "--out", s(&out)].map(String::from));
        a
    };
    refused(
        &args(&[
            "war",
            "--vary",
            "war_down=-9223372036854775808..9223372036854775807",
            "--goal",
            "length_mean=3",
        ]),
        "at most 200 values",
    );
    refused(
        &args(&["war", "--vary", "war_down=1..3", "--goal", "length_mean=3", "--games", "1"]),
        "at least 24 games",
    );
    refused(
        &args(&[
            "cardwars",
            "--vary",
            "second_extra_life=0..3",
            "--goal",
            "first_player_win_share=0.5",
            "--within",
            "1e308",
        ]),
        "give a tolerance below 1",
    );
    assert!(!out.exists(), "refusals leave no folder");
    // A huge tolerance of a metric in its own units is written in a few digits.
    let text = ok(&args(&[
        "war",
        "--vary",
        "war_down=1..2",
        "--goal",
        "length_mean=400",
        "--within",
        "1e308",
        "--games",
        "2400",
    ]));
    assert!(text.contains("±1.000e308"), "{text}");
    assert!(
        !text.chars().collect::<Vec<_>>().windows(20).any(|w| w.iter().all(char::is_ascii_digit)),
        "{text}"
    );
    // No cap (the largest --games) still stops at the first Ctrl-C, at the next look.
    let o = warsim()
        .env("WARSIM_TEST_SIGNAL_AT", "tune-look")
        .arg("tune")
        .args(args(&[
            "war",
            "--vary",
            "war_down=1,1",
            "--goal",
            "length_mean=236",
            "--games",
            "18446744073709551615",
        ]))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("continue with the same command and --resume"));
}

#[test]
fn every_value_is_named_and_never_played_settings_say_so() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("v");
    let text = ok(&[
        "war",
        "--vary",
        "variant=standard,peace",
        "--goal",
        "length_mean=400",
        "--games",
        "2400",
        "-q",
        "--out",
        s(&out),
    ]
    .map(String::from));
    assert!(text.contains("play the standard variant") || text.contains("play the peace variant"), "{text}");
    let csv = std::fs::read_to_string(out.join("tune.csv")).unwrap();
    assert!(csv.contains("\n1,standard,") && csv.contains("\n2,peace,"), "{csv}");
    // A bisection leaves settings unplayed: no games, no interval, `not played`, no NaN anywhere.
    let b = tmp.path().join("b");
    ok(&["war", "--vary", "battles_to_win=1..60", "--goal", "length_mean=70", "-q", "--out", s(&b)]
        .map(String::from));
    let csv = std::fs::read_to_string(b.join("tune.csv")).unwrap();
    let unplayed: Vec<&str> = csv.lines().filter(|l| l.contains(",not played,")).collect();
    assert!(unplayed.len() > 40, "{csv}");
    for row in unplayed {
        let cells: Vec<&str> = row.split(',').collect();
        assert!([2, 4, 5, 6, 7].iter().all(|&i| cells[i].is_empty()), "no games, no interval: {row}");
    }
    for f in ["tune.csv", "report.html", "plots/tune.svg"] {
        let text = std::fs::read_to_string(b.join(f)).unwrap();
        assert!(!text.contains("NaN"), "{f}");
    }
    let page = std::fs::read_to_string(b.join("report.html")).unwrap();
    assert!(
        page.contains("not played") && !page.contains("all_within") && !page.contains("--within)"),
        "{page}"
    );
}

#[test]
fn an_interrupted_tune_resumes_to_the_uninterrupted_files() {
    let tmp = tempfile::tempdir().unwrap();
    let base: Vec<String> =
        ["war", "--vary", "battles_to_win=1..60", "--goal", "length_mean=70", "--games", "100000", "-q"]
            .map(String::from)
            .to_vec();
    let (whole, cut) = (tmp.path().join("w"), tmp.path().join("c"));
    ok(&with(base.clone(), &["--out", s(&whole)]));
    // The interruption is caused, not timed: a Ctrl-C right after the first look is saved.
    let o = warsim()
        .env("WARSIM_TEST_SIGNAL_AT", "tune-look")
        .arg("tune")
        .args(with(base.clone(), &["--out", s(&cut)]))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(cut.join("report.html")).unwrap();
    assert!(page.contains("interrupted"), "the partial page says so");
    ok(&with(base, &["--out", s(&cut), "--resume"]));
    for f in ["tune.csv", "plots/tune.svg", "report.html", "tune-state.json"] {
        assert!(std::fs::read(whole.join(f)).unwrap() == std::fs::read(cut.join(f)).unwrap(), "{f} differs");
    }
}

#[test]
fn a_control_character_in_a_value_is_escaped_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cards/sample.toml");
    let hostile = tmp.path().join("x\u{1b}[31my.toml");
    std::fs::copy(sample, &hostile).unwrap();
    let out = tmp.path().join("o");
    let vary = format!("cards={sample},{}", s(&hostile));
    let text = ok(&[
        "slots",
        "--vary",
        &vary,
        "--goal",
        "length_mean=100",
        "--games",
        "240",
        "-q",
        "--out",
        s(&out),
    ]
    .map(String::from));
    assert!(!text.contains('\u{1b}'), "{text}");
    for f in ["tune.csv", "report.html", "plots/tune.svg", "manifest.json"] {
        let t = std::fs::read_to_string(out.join(f)).unwrap();
        assert!(!t.contains('\u{1b}'), "{f} holds a raw ESC");
    }
    assert!(std::fs::read_to_string(out.join("tune.csv")).unwrap().contains("x\\u{1b}[31my.toml"));
}
