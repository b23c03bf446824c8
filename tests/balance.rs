//! `warsim balance` on card sets with a known answer (`tests/fixtures/balance`, written by
//! `scripts/balance_sets.py`): nine designers whose 189 designs all read "+1 while face up" have
//! nothing to balance; the same set with one common 5 reading "+6" must get that one design back
//! to +1 and nothing else; where no single number is enough (a common 5 reading "+6 ... Another
//! +5." among designs reading "+1 ... Another +1."), both of its numbers are turned. Also: the files for any thread count, a stopped balance resumed, and
//! bad input refused in one line.

use std::path::Path;
use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;

const UNIFORM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/balance/uniform.toml");
const OUTLIER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/balance/outlier.toml");
const PAIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/balance/pair.toml");
const EXCHANGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/balance/exchange.toml");

fn warsim() -> assert_cmd::Command {
    let mut c = cargo_bin_cmd!("warsim");
    c.timeout(Duration::from_secs(600));
    c
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn balance(set: &str, games: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    warsim()
        .args(["balance", set, "--games", games, "--seed", "3", "-q", "--out", s(out)])
        .args(extra)
        .output()
        .unwrap()
}

fn ok(set: &str, games: &str, out: &Path, extra: &[&str]) -> String {
    let o = balance(set, games, out, extra);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn rows(out: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(out.join("changes.csv")).unwrap();
    r.records().map(|x| x.unwrap().iter().map(String::from).collect()).collect()
}

#[test]
fn the_outlier_alone_comes_back_to_its_peers() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("b");
    let said = ok(OUTLIER, "400", &out, &[]);
    let changes = rows(&out);
    // design, designer, rarity, value, field, old, new, status
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(&changes[0][..8], ["ed-c5", "Ed", "common", "5", "ability 1 amount", "6", "1", "edited"]);
    assert!(said.contains("flagged 1 -> 0"), "{said}");
    // The edited set is a valid card set that differs from the given one in the two lines only.
    let (given, edited) = (
        std::fs::read_to_string(OUTLIER).unwrap(),
        std::fs::read_to_string(out.join("balanced.toml")).unwrap(),
    );
    let differ: Vec<(&str, &str)> = given.lines().zip(edited.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(
        differ,
        [("text = \"+6 while face up.\"", "text = \"+1 while face up.\""), ("  amount = 6", "  amount = 1")]
    );
    let cards = warsim().args(["cards", s(&out.join("balanced.toml"))]).output().unwrap();
    assert!(cards.status.success());
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.contains("What to print differently") && page.contains("Ed common 5"));
}

#[test]
fn a_second_number_is_turned_only_when_one_is_not_enough() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("b");
    let said = ok(PAIR, "400", &out, &[]);
    let changes: Vec<Vec<String>> = rows(&out).into_iter().map(|c| c[..8].to_vec()).collect();
    // Its first race turns ability 1 to 1 (+1 and +5, the closest a single number comes); its
    // second turns ability 2 on top of that. No other design is touched.
    assert_eq!(
        changes,
        [
            ["ed-c5", "Ed", "common", "5", "ability 1 amount", "6", "1", "edited"],
            ["ed-c5", "Ed", "common", "5", "ability 2 amount", "5", "1", "edited"]
        ]
    );
    // The answer names the design once with both edits (the terminal wraps its lines).
    let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(said.contains("flagged 1 -> 0"), "{said}");
    assert!(
        said.contains("Ed common 5 (Ed): ability 1 amount 6 to 1 and ability 2 amount 5 to 1."),
        "{said}"
    );
    let edited = std::fs::read_to_string(out.join("balanced.toml")).unwrap();
    assert!(edited.contains("text = \"+1 while face up. Another +1.\"\ndesigner = \"Ed\""));
}

#[test]
fn a_printed_value_is_exchanged_within_its_designers_sheet_when_no_number_is_enough() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("b");
    let said = ok(EXCHANGE, "300", &out, &["--knobs", "amounts,values"]);
    let changes: Vec<Vec<String>> = rows(&out).into_iter().map(|c| c[..8].to_vec()).collect();
    // Ed's common 8 reads "+1 per your face-up card" (its number is at 1 already): too strong
    // for an 8, in line as Ed's 9; Ed's 9 becomes the 8, so Ed's commons are still 1-9.
    let row = |id: &str, old: &str, new: &str| {
        [id, "Ed", "common", &id[4..], "value", old, new, "edited"].map(String::from).to_vec()
    };
    assert_eq!(changes, [row("ed-c8", "8", "9"), row("ed-c9", "9", "8")]);
    let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(said.contains("flagged 1 -> 0"), "{said}");
    let set: toml::Table = std::fs::read_to_string(out.join("balanced.toml")).unwrap().parse().unwrap();
    let mut values: Vec<i64> = set["card"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["designer"].as_str() == Some("Ed") && c["rarity"].as_str() == Some("common"))
        .map(|c| c["value"].as_integer().unwrap())
        .collect();
    values.sort();
    assert_eq!(values, (1..=9).collect::<Vec<_>>());
    assert!(warsim().args(["cards", s(&out.join("balanced.toml"))]).output().unwrap().status.success());
}

#[test]
fn a_set_with_nothing_to_balance_gets_no_edit_for_any_thread_count() {
    let tmp = tempfile::tempdir().unwrap();
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    let said = ok(UNIFORM, "200", &one, &["--threads", "1"]);
    assert!(said.contains("nothing to change"), "{said}");
    assert!(rows(&one).is_empty());
    ok(UNIFORM, "200", &two, &["--threads", "2"]);
    for f in ["changes.csv", "balanced.toml", "report.html", "balance-state.json"] {
        assert!(std::fs::read(one.join(f)).unwrap() == std::fs::read(two.join(f)).unwrap(), "{f} differs");
    }
    assert_eq!(std::fs::read(one.join("balanced.toml")).unwrap(), std::fs::read(UNIFORM).unwrap());
}

#[test]
fn a_stopped_balance_resumes_to_the_same_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (whole, cut) = (tmp.path().join("w"), tmp.path().join("c"));
    let said = ok(UNIFORM, "100", &whole, &[]).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(said.contains(" tournaments in ") && !said.contains("resumed"), "{said}");
    // The interruption is caused, not timed: a Ctrl-C right after the first measure is saved.
    let o = warsim()
        .env("WARSIM_TEST_SIGNAL_AT", "balance-step")
        .args(["balance", UNIFORM, "--games", "100", "--seed", "3", "-q", "--out", s(&cut)])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    // The first measure flagged nothing, so the proof is all that is left.
    assert!(err.contains("balance stopped in its proof;") && err.contains("--resume"), "{err}");
    assert!(!cut.join("changes.csv").exists(), "no files before the proof");
    let said = ok(UNIFORM, "100", &cut, &["--resume"]).split_whitespace().collect::<Vec<_>>().join(" ");
    // The time said is the resumed run's, for the tournaments it played itself.
    assert!(said.contains("of them in this run's") && said.contains("(resumed)"), "{said}");
    for f in ["changes.csv", "balanced.toml", "report.html"] {
        assert!(std::fs::read(whole.join(f)).unwrap() == std::fs::read(cut.join(f)).unwrap(), "{f} differs");
    }
    // Another balance is not resumed from it.
    let o = balance(UNIFORM, "120", &cut, &["--resume"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("another balance"));
}

#[test]
fn bad_input_is_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("x");
    for (args, why) in [
        (vec!["--set", "event=single"], "balance sets event itself"),
        (vec!["--set", "cards=x.toml"], "balance sets cards itself"),
        (vec!["--within", "0"], "--within must be a positive number"),
        (vec!["--knobs", "everything"], "invalid value"),
        (vec!["--set", "deal=nowhere"], "deal"),
    ] {
        let o = balance(UNIFORM, "100", &out, &args);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(why), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?}: nothing written");
    }
    let o = balance(UNIFORM, "10", &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("give 50 to 2^50 tournaments"));
    let o = balance(&format!("{UNIFORM}.missing"), "100", &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not exist"));
}
