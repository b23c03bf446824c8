//! A run of tournaments answered as events (issue 34 point 5), and the files free of per-seat and
//! per-pair lists; every rate interval of the CSV files inside [0, 1] and never [0, 0].

use assert_cmd::cargo::cargo_bin_cmd;

fn run(args: &[&str], out: &std::path::Path) -> String {
    let o = cargo_bin_cmd!("warsim").args(args).arg("--out").arg(out).env("COLUMNS", "80").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_tournament_run_is_answered_as_events() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let text = run(&["run", "scenarios/slots-tournament.toml", "--games", "40", "--threads", "2"], &dir);
    let first = text.lines().next().unwrap();
    // Sentences wrap at 80 columns: read them joined.
    let text = text.replace('\n', " ");
    assert!(
        first.starts_with("The reference (pools dealt from the rarity piles, five cards to start, the draw"),
        "{text}"
    );
    assert!(text.contains("finishes first alone in") && text.contains("first place is shared in"), "{text}");
    assert!(text.contains("The winner most often goes"), "{text}");
    assert!(text.contains("The 9 players finish first (alone or shared), the least often in"), "{text}");
    // What the other dealings and turn orders change, in the game's words, never as `key=value`.
    assert!(text.contains("Four cards to start, the draw first"), "{text}");
    assert!(!text.contains("deal=") && !text.contains("variant="), "{text}");
    // Symmetric seats summarised, never listed; the event's summary has no slots nor seat wins.
    assert!(!text.contains("player 1 wins") && !text.contains("player 5 beat"), "{text}");
    assert!(!text.contains("mean length") && !text.contains("1st policy"), "{text}");
    assert!(text.contains("480 tournaments of 36 games each in "), "{text}");
    assert!(text.contains("(240 played, then 240 again for the paired comparison; "), "{text}");
    for file in ["comparisons.csv", "events.csv"] {
        let csv = std::fs::read_to_string(dir.join(file)).unwrap();
        for word in [" beat ", " drew ", " first alone", " first shared", " games won,", "policy=player"] {
            assert!(!csv.contains(word), "{file} holds '{word}'");
        }
    }
    let comparisons = std::fs::read_to_string(dir.join("comparisons.csv")).unwrap();
    assert!(comparisons.contains(",winner_games_won_mean_per_game,"), "{comparisons}");
    // The tournaments table comes right after the answer in report.html.
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let (answer, tournaments) = (page.find("id=answer").unwrap(), page.find("id=tournaments>").unwrap());
    assert!(answer < tournaments && tournaments < page.find("id=summary").unwrap());
    // The answer's picture follows its grid, inside the answer, and is not drawn twice.
    let picture = page.find("id=\"plot-tournaments.svg\"").expect("the tournaments picture");
    assert!(answer < picture && picture < tournaments, "the picture sits in the answer");
    assert_eq!(page.matches("id=\"plot-tournaments.svg\"").count(), 1);
    let svg = std::fs::read_to_string(dir.join("plots/tournaments.svg")).unwrap();
    assert!(svg.contains("first place alone") && svg.contains("dealing") && !svg.contains("deal="), "{svg}");
    // Standings and designers carry the varying settings and the designers' names.
    let standings = std::fs::read_to_string(dir.join("standings.csv")).unwrap();
    let header = standings.lines().next().unwrap();
    assert!(
        header.starts_with("scenario,variant,opening_hand,draw_first,deal,entrant,designer,games"),
        "{header}"
    );
    let designers = std::fs::read_to_string(dir.join("designers.csv")).unwrap();
    assert!(designers.lines().next().unwrap().contains(",kind,designer,design,rarity,value,designs,"));
    assert!(
        designers.lines().any(|l| l.contains(",design,") && (l.contains(",rare,") || l.contains(",common,")))
    );
    let outcomes = std::fs::read_to_string(dir.join("outcomes.csv")).unwrap();
    for l in outcomes.lines().skip(1).filter(|l| l.contains(",win,")) {
        let cells: Vec<&str> = l.split(',').collect();
        assert!(cells[4].is_empty() && cells.last().unwrap().starts_with("player "), "{l}");
    }
}

/// Every rate interval of the CSV files lies inside [0, 1] and none is [0, 0], zero counts included.
#[test]
fn csv_rate_intervals_lie_inside_zero_one_and_are_never_zero_zero() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("w");
    run(&["run", "scenarios/war-pickup.toml", "--games", "300"], &dir);
    let check = |file: &str, low: &str, high: &str| {
        let csv = std::fs::read_to_string(dir.join(file)).unwrap();
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let (l, h) =
            (header.iter().position(|c| *c == low).unwrap(), header.iter().position(|c| *c == high).unwrap());
        for row in csv.lines().skip(1) {
            let cells: Vec<&str> = row.split(',').collect();
            let (lo, hi): (f64, f64) = (cells[l].parse().unwrap(), cells[h].parse().unwrap());
            assert!((0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi) && lo <= hi, "{file}: {row}");
            assert!(hi > 0.0, "{file}: [0, 0] in {row}");
        }
    };
    check("outcomes.csv", "ci95_low", "ci95_high");
    check("events.csv", "ci95_low", "ci95_high");
    let events = std::fs::read_to_string(dir.join("events.csv")).unwrap();
    assert!(events.lines().skip(1).all(|r| !r.split(',').nth(4).unwrap().starts_with('-')), "{events}");
}

/// Entrants count from 0, as seats, points and game indices do: `--match` names them so, and the
/// old form (counted from 1, its last entrant one past the end) is refused in one line that says so.
#[test]
fn match_counts_entrants_from_zero() {
    let play = |m: &str| {
        cargo_bin_cmd!("warsim")
            .args(["play", "slots", "--set", "event=tournament", "--set", "players=3", "--match", m])
            .output()
            .unwrap()
    };
    let o = play("0-2");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("player 0") && text.contains("player 2"), "{text}");
    let o = play("1-3");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("from 0 to 2") && err.contains("entrants count from 0"), "{err}");
}
