//! Inputs a careless or hostile user gives: files that are not files (a FIFO, `/dev/zero`), files
//! too large, files that took quadratic time, numbers that wrapped a fixed-width field, and
//! messages that panicked, repeated themselves, named nothing or passed control characters to the
//! terminal. Each test reproduces a failure an audit found (issue 21); `WARSIM_BIN=<older build>`
//! shows it failing there.

mod binary;

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use binary::{bin, refused, run_ok, s, warsim};

/// Runs warsim with `args`, failing the test if it has not finished within a minute (a hang).
/// (Its output goes to files: a pipe nobody reads while it runs would fill and stop it.)
fn bounded(args: &[&str]) -> std::process::Output {
    use std::io::{Read, Seek};
    let (mut out, mut err) = (tempfile::tempfile().unwrap(), tempfile::tempfile().unwrap());
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(err.try_clone().unwrap())
        .spawn()
        .unwrap();
    // A watchdog kills a run still going after a minute; the test itself blocks on the exit.
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let pid = child.id().to_string();
    let watchdog = std::thread::spawn(move || {
        let hung = finished.recv_timeout(Duration::from_secs(60)).is_err();
        if hung {
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
        }
        hung
    });
    let status = child.wait().unwrap();
    let _ = done.send(());
    assert!(!watchdog.join().unwrap(), "warsim {args:?} hangs");
    let read = |f: &mut std::fs::File| {
        let mut v = Vec::new();
        f.rewind().unwrap();
        f.read_to_end(&mut v).unwrap();
        v
    };
    std::process::Output { status, stdout: read(&mut out), stderr: read(&mut err) }
}

/// `bounded`, expecting exit 2 and one line containing `needle`.
fn refused_at_once(args: &[&str], needle: &str) {
    let out = bounded(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "'{needle}' not in: {err}");
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// Point 10: a FIFO or `/dev/zero` as a scenario, card file, shard `state.json` or
/// `manifest.json` fails at once with a line naming it; a file over the size limit too.
#[test]
fn inputs_that_are_not_regular_files_fail_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let fifo = d.join("fifo.toml");
    mkfifo(&fifo);
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.toml")).unwrap();
    refused_at_once(&["run", s(&fifo)], "it is a FIFO, not a regular file");
    refused_at_once(&["run", s(&d.join("zero.toml"))], "it is a device, not a regular file");
    refused_at_once(&["run", "slots", "--set", &format!("cards={}", s(&fifo))], "a FIFO");
    refused_at_once(&["run", "slots", "--set", "cards=/dev/zero"], "a device");
    let big = d.join("big.toml");
    std::fs::write(&big, format!("# {}\n[[run]]\ngame = \"war\"\n", "x".repeat(2 << 20))).unwrap();
    refused_at_once(&["run", s(&big)], "larger than the 1 MiB");
    // A shard whose state.json is a FIFO; a run folder whose manifest.json is one.
    let shard = d.join("shard");
    run_ok(&["run", "war", "--games", "50", "--shard", "1/2", "-q", "--out", s(&shard)]);
    std::fs::remove_file(shard.join("state.json")).unwrap();
    mkfifo(&shard.join("state.json"));
    refused_at_once(&["merge", s(&shard), "--out", s(&d.join("m"))], "a FIFO");
    let run = d.join("run");
    run_ok(&["run", "war", "--sweep", "variant=standard,peace", "--games", "50", "-q", "--out", s(&run)]);
    std::fs::remove_file(run.join("manifest.json")).unwrap();
    mkfifo(&run.join("manifest.json"));
    refused_at_once(&["compare", s(&run), "--baseline", "variant=standard"], "a FIFO");
}

/// A scenario of `runs` runs.
fn runs(n: usize) -> String {
    let mut t = String::from("name = \"many\"\n");
    for _ in 0..n {
        t.push_str("[[run]]\ngame = \"war\"\n");
    }
    t
}

/// A card set of `n` designs, each with one ability.
fn designs(n: usize) -> String {
    let mut t = String::from("format = \"warsim-slots-cards\"\nversion = 1\nname = \"many\"\n");
    for i in 0..n {
        let v = i % 9 + 1;
        writeln!(t, "[[card]]\nid = \"c{i}\"\nname = \"C{i}\"\nrarity = \"common\"\nvalue = {v}").unwrap();
        t.push_str("  [[card.ability]]\n  effect = \"counter\"\n  target = \"oc\"\n  amount = 1\n");
    }
    t
}

/// The least time of five runs of each of `f(small)` and `f(large)`, interleaved so that a busy
/// moment of the machine slows both alike; returns large / small.
fn time_ratio(small: &str, large: &str, f: impl Fn(&str)) -> f64 {
    let (mut a, mut b) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..5 {
        let t = thread_cpu_seconds();
        f(small);
        a = a.min(thread_cpu_seconds() - t);
        let t = thread_cpu_seconds();
        f(large);
        b = b.min(thread_cpu_seconds() - t);
    }
    b / a
}

/// The CPU time this thread has used. Unlike the wall clock it does not count the time other
/// processes hold the cores, so a busy machine does not stretch one side of a ratio.
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec for the call's duration.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "the thread's CPU clock");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Point 11: loading grows linearly: four times the runs or the designs take about four times as
/// long, not sixteen (measured 5-7 times: the TOML reader itself is a little over linear). A ratio,
/// not a time, so the machine's speed does not matter; the sizes make each parse take tens of
/// milliseconds. Quadratic loading measured 4,000 runs in 0.6 s and 40,000 in 46 s, 5,000 designs
/// in 1.3 s and 20,000 in 36 s.
///
/// The times are the thread's own CPU time, the least of five tries, so other work on the machine
/// does not enter them (wall-clock ratios reached 14 on two busy cores).
#[test]
fn loading_is_linear_in_runs_and_designs() {
    let ratio = time_ratio(&runs(10_000), &runs(40_000), |t| {
        warsim::scenario::parse(t, "s.toml", "s", None).unwrap();
    });
    eprintln!("40,000 runs: {ratio:.1} times 10,000");
    assert!(ratio < 12.0, "40,000 runs take {ratio:.1} times as long as 10,000");
    let ratio = time_ratio(&designs(5_000), &designs(20_000), |t| {
        warsim::games::slots::cardfile::parse("set.toml", t).unwrap();
    });
    eprintln!("20,000 designs: {ratio:.1} times 5,000");
    assert!(ratio < 12.0, "20,000 designs take {ratio:.1} times as long as 5,000");
    // And through the binary: a set of 20,000 designs is read and played.
    let tmp = tempfile::tempdir().unwrap();
    let set = tmp.path().join("set.toml");
    std::fs::write(&set, designs(20_000)).unwrap();
    let out = bounded(&[
        "run",
        "slots",
        "--set",
        &format!("cards={}", s(&set)),
        "--games",
        "2",
        "-q",
        "--out",
        s(&tmp.path().join("o")),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A set of one design `id` with `abilities` copies of `ability`, and fixed pools: seat 0 holds 21
/// of it, seat 1 21 textless nines.
fn one_design(id: &str, abilities: usize, ability: &str) -> String {
    let mut t = format!(
        "format = \"warsim-slots-cards\"\nversion = 1\nname = \"x\"\n[[card]]\nid = \"{id}\"\nname = \"X\"\nrarity = \"rare\"\nvalue = 1\n"
    );
    for _ in 0..abilities {
        t.push_str("  [[card.ability]]\n");
        t.push_str(ability);
    }
    let pool = |c: &str| vec![format!("\"{c}\""); 21].join(",");
    writeln!(
        t,
        "[[pool]]\nseat = 0\ncards = [{}]\n[[pool]]\nseat = 1\ncards = [{}]",
        pool(id),
        pool("vanilla-9")
    )
    .unwrap();
    t
}

/// The first scoring line of game 0 told by `play`.
fn first_score(set: &Path) -> String {
    let out = bounded(&["play", "slots", "--set", &format!("cards={}", s(set))]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines().find(|l| l.contains("score S1")).expect("a scored slot").trim().to_string()
}

/// Point 12: every fixed-width number has room, or its limit is checked at load: more designs or
/// abilities than 16-bit numbers hold are refused with a line; 3,700 counters of +9 on one card
/// do not wrap its counter; 8,000 abilities adding a counter to every card in one batch (72,000
/// operations) drop none.
#[test]
fn limits_are_checked_at_load_or_have_room() {
    let tmp = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| {
        let p = tmp.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let mut many = String::from("format = \"warsim-slots-cards\"\nversion = 1\nname = \"x\"\n");
    for i in 0..65_536 {
        writeln!(many, "[[card]]\nid = \"c{i}\"\nname = \"C\"\nrarity = \"rare\"\nvalue = 1").unwrap();
    }
    let set = write("designs.toml", many);
    refused_at_once(
        &["run", "slots", "--set", &format!("cards={}", s(&set))],
        "65536 cards; a set holds at most 65535",
    );
    let set = write(
        "abilities.toml",
        one_design("a", 65_536, "  effect = \"counter\"\n  target = \"self\"\n  amount = 1\n"),
    );
    refused_at_once(
        &["run", "slots", "--set", &format!("cards={}", s(&set))],
        "over 65535 abilities in the set",
    );
    // 3,700 x +9 counters on the card itself: 1 + 33,300.
    let set = write(
        "pump.toml",
        one_design("pump", 3_700, "  effect = \"counter\"\n  target = \"self\"\n  amount = 9\n"),
    );
    let line = first_score(&set);
    assert!(line.contains("(values 33301 v 9)"), "{line}");
    // Nine of these revealed, each adding 8,000 counters to every card on the table: the first
    // slot's cards have all 72,000.
    let both = "  effect = \"counter\"\n  target = { side = \"both\" }\n  amount = 1\n";
    let set = write("burst.toml", one_design("burst", 8_000, both));
    let line = first_score(&set);
    assert!(line.contains("(values 72001 v 72009)"), "{line}");
}

/// Point 13: a stderr that cannot be written (a full disk) never turns an error into a panic.
#[test]
fn a_full_stderr_never_panics() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else { return };
    let out = Command::new(bin()).args(["run", "no-such-game"]).stderr(full).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Point 14: a resume refused because the scenario changed names what changed.
#[test]
fn a_changed_scenario_names_the_key_that_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("s.toml");
    let out = tmp.path().join("out");
    let scenario =
        |d: &str| format!("name = \"s\"\ndescription = \"{d}\"\ngames = 400\n[[run]]\ngame = \"war\"\n");
    std::fs::write(&file, scenario("first")).unwrap();
    run_ok(&["run", s(&file), "--shard", "1/2", "-q", "--out", s(&out)]);
    std::fs::write(&file, scenario("second")).unwrap();
    refused(
        &["run", s(&file), "--shard", "1/2", "--resume", "--out", s(&out)],
        "key 'description' is \"second\" here and \"first\" there",
    );
}

/// Point 15: an empty `--baseline` is refused on `run` and on `compare`, not ignored.
#[test]
fn an_empty_baseline_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    refused(
        &["run", "war", "--sweep", "variant=standard,peace", "--baseline", "", "--out", s(&out)],
        "--baseline is empty",
    );
    refused(&["run", "war", "--baseline", " ", "--out", s(&out)], "--baseline is empty");
    run_ok(&["run", "war", "--sweep", "variant=standard,peace", "--games", "50", "-q", "--out", s(&out)]);
    refused(&["compare", s(&out), "--baseline", ""], "--baseline is empty");
}

/// Point 16: a thread that cannot be started is reported with its cause, once.
#[test]
fn a_thread_creation_error_names_its_cause_once() {
    let tmp = tempfile::tempdir().unwrap();
    // Every thread asks for a 512 MiB stack under a 300 MB address-space limit, so the very first
    // spawn fails. With the default stack, some workers started (and reserved memory) before one
    // failed, and the process could then run out of memory while reporting it: a flaky abort.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 300000 && RUST_MIN_STACK=536870912 exec '{}' run war --threads 1024 --games 10 -q --out '{}'",
            s(&bin()),
            s(&tmp.path().join("o"))
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot start 1024 worker threads: "), "{err}");
    assert_eq!(err.matches("(os error").count(), 1, "the cause once: {err}");
    assert!(!tmp.path().join("o").exists(), "a run that never started leaves no folder");
}

const HOSTILE: [&str; 3] = ["\u{1b}", "\u{7}", "\u{9b}"];

fn has_control(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    HOSTILE.iter().any(|c| text.contains(c))
}

/// Point 17: control characters in card names and texts, scenario descriptions and setting values
/// never reach the terminal, the report or a CSV file as they are.
#[test]
fn control_characters_are_escaped_wherever_they_are_shown() {
    let tmp = tempfile::tempdir().unwrap();
    let set = tmp.path().join("set.toml");
    let mut t =
        String::from("format = \"warsim-slots-cards\"\nversion = 1\nname = \"evil\\u001b]0;owned\\u0007\"\n");
    for i in 1..=9 {
        writeln!(
            t,
            "[[card]]\nid = \"c{i}\"\nname = \"Red\\u001b[31m\\u0007{i}\\u009b2J\"\nrarity = \"common\"\nvalue = {i}\ntext = \"\\u001b[5m\""
        )
        .unwrap();
    }
    std::fs::write(&set, t).unwrap();
    let cards = format!("cards={}", s(&set));
    let play = warsim().args(["play", "slots", "--set", &cards]).output().unwrap();
    assert!(play.status.success(), "{}", String::from_utf8_lossy(&play.stderr));
    assert!(String::from_utf8_lossy(&play.stdout).contains("Red\\u{1b}[31m\\u{7}"), "escaped, visible");
    assert!(!has_control(&play.stdout), "play prints no control character");
    let out = tmp.path().join("out");
    let run =
        warsim().args(["run", "slots", "--set", &cards, "--games", "20", "--out", s(&out)]).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(!has_control(&run.stdout) && !has_control(&run.stderr));
    for f in ["cards.csv", "summary.csv", "report.html"] {
        assert!(!has_control(&std::fs::read(out.join(f)).unwrap()), "{f}");
    }
    // A setting value in an error message.
    let bad = warsim().args(["run", "war", "--set", "pickup=\u{1b}]0;owned\u{7}"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(!has_control(&bad.stderr), "{}", String::from_utf8_lossy(&bad.stderr));
}

/// Issue 25, a new user's mistakes: each is refused with exit 2 and one line of at most 200
/// characters that names the nearest right word where one is near, or says what is allowed.
#[test]
fn a_new_users_mistakes_get_a_short_line_with_the_nearest_name() {
    let cases: &[(&[&str], &str)] = &[
        (&["run", "war", "--set", "plyers=3"], "unknown setting 'plyers'; did you mean 'players'?"),
        (&["run", "war", "--set", "variant=pease"], "unknown variant 'pease'; did you mean 'peace'?"),
        (&["run", "war", "--set", "variant=peace+"], "variant 'peace+' has an empty name"),
        (&["run", "territories", "--set", "policies=rando"], "did you mean 'random'?"),
        (&["run", "war", "--until", "length_men:1"], "did you mean 'length_mean'? (`warsim list war`"),
        (
            &["run", "scourge", "--until", "zzzzzzzzzz:0.1"],
            "scorched_rate, <event>_mean, <event>_share; `warsim list scourge`",
        ),
        (
            &["tune", "war", "--vary", "players=2..4", "--goal", "lenght_mean=100"],
            "did you mean 'length_mean'?",
        ),
        (&["cards", "scenarios/cards/tournement.toml"], "did you mean 'scenarios/cards/tournament.toml'?"),
        (&["run", "war", "--games", "-5"], "--games takes a whole number from 0"),
        (&["run", "war", "--games=-5"], "--games -5: it is not a whole number"),
        (&["run", "war", "--threads", "abc"], "--threads abc: it is not a whole number"),
        (&["run", "war", "--seed", "18446744073709551616"], "it is too large (at most 18446744073709551615"),
        (&["run", "war", "--game-rows", "1e20"], "it is too large"),
        (&["play", "war", "--point-index", "3"], "(0 to 0; `warsim list war` lists them)"),
        (&["run", "scenarios/war-variants.toml", "--set", "variant=peace"], "sweeps 'variant' over 9 values"),
        (
            &["run", "scenarios/war-variants.toml", "--sweep", "variant=peace"],
            "the scenario's baseline 'variant=standard'",
        ),
        (&["run", "scourge-decks"], "did you mean the scenario file 'scenarios/scourge-decks.toml'?"),
        (&["run", "war", "--threads", "1.5"], "--threads 1.5: it is not a whole number"),
        (
            &["run", "slots", "--set", "cards="],
            "slots: setting 'cards' is empty: give the path of a card set",
        ),
        (&["tune", "war", "--vary", "players=2,,3", "--goal", "length_mean=100"], "value 2 of 3 is empty"),
        (
            &["run", "scenarios"],
            "'scenarios' is a folder, not a scenario file (scenario files in scenarios/: ",
        ),
    ];
    for &(args, needle) in cases {
        let out = bounded(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.contains(needle), "{args:?}: '{needle}' not in: {err}");
        assert!(err.trim_end().chars().count() <= 200, "{args:?}: a line of {} characters: {err}", err.len());
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// Issue 25: a scenario file that sets and sweeps one key, sweeps a value twice or gives a number
/// no field holds is refused at its line, in a user's words (not "u64", "i128").
#[test]
fn a_scenario_that_sets_and_sweeps_a_key_or_repeats_a_value_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let file = |name: &str, body: &str| {
        let p = tmp.path().join(name);
        std::fs::write(&p, format!("name = \"x\"\n{body}")).unwrap();
        p
    };
    // (An older build that accepts a file still writes only into the test's folder.)
    let out = s(&tmp.path().join("out")).to_string();
    let both =
        file("both.toml", "[[run]]\ngame = \"war\"\nset = { players = 3 }\nsweep = { players = [2, 3] }\n");
    refused_at_once(
        &["run", s(&both), "--out", &out],
        "both.toml:5: 'players' is both set and swept in this run",
    );
    let twice = file("twice.toml", "[[run]]\ngame = \"war\"\nsweep = { players = [2, 2] }\n");
    refused_at_once(&["run", s(&twice), "--out", &out], "twice.toml:4: sweep 'players' lists 2 twice");
    let huge = file("huge.toml", "games = 99999999999999999999\n[[run]]\ngame = \"war\"\n");
    refused_at_once(
        &["run", s(&huge), "--out", &out],
        "number `99999999999999999999` too large, expected a whole number from 0",
    );
    let negative = file("negative.toml", "games = -10\n[[run]]\ngame = \"war\"\n");
    refused_at_once(
        &["run", s(&negative), "--out", &out],
        "integer `-10`, expected a whole number from 0 to 18446744073709551615",
    );
    assert!(!tmp.path().join("out").exists());
}

/// Issue 25: `--out results/../..` was checked as a new folder (`results` did not exist yet) and
/// then written into the folder two levels up, among others' files. A `..` after a name is
/// refused before anything is made; a leading `..` is a plain path.
#[test]
fn an_output_folder_through_a_name_and_dot_dot_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("work");
    std::fs::create_dir(&d).unwrap();
    std::fs::write(tmp.path().join("notes.txt"), "mine").unwrap();
    let up = d.join("results/../..");
    refused_at_once(
        &["run", "war", "--games", "10", "--out", s(&up)],
        "a '..' after a folder name is refused",
    );
    refused_at_once(
        &["run", "war", "--games", "10", "--out", "x/../y"],
        "write the folder itself (e.g. 'y')",
    );
    assert!(!d.join("results").exists() && !tmp.path().join("summary.csv").exists());
    assert!(!Path::new("x").exists() && !Path::new("y").exists());
    let out = Command::new(bin())
        .current_dir(&d)
        .args(["run", "war", "--games", "10", "-q", "--out", "../fresh"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(tmp.path().join("fresh/summary.csv").is_file());
}

/// Issue 25: a scenario's own baseline does not stop a shard or an --until run (the Slurm recipe
/// of docs/cluster.md shards war-variants.toml, which has one): the shard says it left it out, and
/// merge then compare give the single run's CSV files, comparisons.csv included.
#[test]
fn a_scenario_baseline_is_left_to_compare_after_a_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let scenario = d.join("b.toml");
    std::fs::write(
        &scenario,
        "name = \"b\"\ngames = 300\nbaseline = \"variant=standard\"\n[[run]]\ngame = \"war\"\nsweep = { variant = [\"standard\", \"peace\"] }\n",
    )
    .unwrap();
    run_ok(&["run", s(&scenario), "-q", "--out", s(&d.join("single"))]);
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let out =
            bounded(&["run", s(&scenario), "-q", "--shard", &shard, "--out", s(&d.join(format!("s{k}")))]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("the scenario's baseline is left out (a shard cannot pair games)"), "{err}");
        assert!(!d.join(format!("s{k}/comparisons.csv")).exists());
    }
    let merged = d.join("merged");
    let out = bounded(&["merge", s(&d.join("s2")), s(&d.join("s1")), "--out", s(&merged)]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains(&format!("warsim compare {} --baseline variant=standard", s(&merged))), "{said}");
    run_ok(&["compare", s(&merged), "--baseline", "variant=standard", "-q"]);
    binary::assert_same_csv(&d.join("single"), &merged);
    assert!(merged.join("comparisons.csv").is_file());
    let until =
        bounded(&["run", s(&scenario), "-q", "--until", "length_mean:1000", "--out", s(&d.join("u"))]);
    assert!(until.status.success(), "{}", String::from_utf8_lossy(&until.stderr));
    // The user's own --baseline with --shard is still refused: they asked for what cannot be.
    refused(&["run", s(&scenario), "--shard", "1/2", "--baseline", "variant=standard"], "cannot be combined");
}

/// Issue 25: `warsim list GAME` names the metrics `--until`, a question and `tune --goal` take, so
/// the short messages above can point there.
#[test]
fn list_names_a_games_metrics() {
    let out = warsim().args(["list", "war"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("metrics at the defaults (--until METRIC:HALFWIDTH"), "{text}");
    assert!(text.contains("cycle_rate") && text.contains("last_ditch_stands"), "{text}");
    let metrics = text.split("metrics at the defaults").nth(1).unwrap();
    assert!(metrics.lines().all(|l| l.chars().count() <= 100), "wrapped: {metrics}");
}
