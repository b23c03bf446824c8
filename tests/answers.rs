//! The answer to a metric question, from a made-up sweep with known numbers: its sentences word
//! for word, its grid's layout (rows and columns the settings that vary, the rules as written
//! marked), and what it never says (identifiers, `[0.0, 0.0]`, NaN).

mod support;

use support::{point, run};
use warsim::report::pivot::{self, MARK};
use warsim::report::terminal::render_answers_at;
use warsim::settings::Settings;

/// War's pickup order x face-down cards per war, 2,000 games a point: draws per thousand 0 with
/// shuffled pickup, 100 and 250 with seat order (3 and 1 cards down).
fn sweep() -> warsim::report::RunResult {
    let specs = warsim::games::find("war").unwrap().settings;
    let mut points = Vec::new();
    for (pickup, down, draws) in
        [("shuffled", "3", 0), ("shuffled", "1", 0), ("seat-order", "3", 100), ("seat-order", "1", 250)]
    {
        let mut p = point(&format!("war pickup={pickup} war_down={down}"), 2000, 200, draws);
        let saved = [("pickup".to_string(), pickup.to_string()), ("war_down".to_string(), down.to_string())];
        p.settings = Settings::restore("war", specs, true, "standard", &saved, &[]).unwrap();
        points.push(p);
    }
    let mut r = run("war-like", points);
    r.manifest.question = Some("draw_rate".into());
    r
}

#[test]
fn a_rate_is_answered_in_the_games_words_against_the_rules_as_written() {
    let a = pivot::metric_answer(&sweep()).expect("a metric answer");
    assert_eq!(
        a.sentences,
        [
            "Draws with the rules as written (pickup order shuffled, face-down cards per war 3): none in 2,000 \
             games (at most 1.8 in 1,000).",
            "Draws across the 4 points: from none at 2 of the 4 points to 25.0% [23.2, 26.9] (pickup order \
             seat-order, face-down cards per war 1).",
        ]
    );
}

#[test]
fn the_grid_has_a_row_and_a_column_per_setting_that_varies() {
    let a = pivot::metric_answer(&sweep()).unwrap();
    assert_eq!(a.pivots.len(), 1);
    let p = &a.pivots[0];
    assert_eq!(p.title, "Draws (% of games)");
    // The setting with the fewest levels (the last of equals) makes the columns.
    assert_eq!(
        (p.row_keys.clone(), p.col_key.as_str()),
        (vec!["pickup order".to_string()], "face-down cards per war")
    );
    assert_eq!(p.col_levels, ["3", "1"]);
    assert_eq!(p.rows.len(), 2);
    assert_eq!(p.rows[0].0, ["shuffled"]);
    assert_eq!(p.marked, Some((0, 0)));
    let cell = |r: usize, c: usize| p.rows[r].1[c].clone().unwrap();
    assert_eq!(cell(0, 0), (format!("none{MARK}"), "≤0.18%".to_string()));
    assert_eq!(cell(1, 1), ("25.0".to_string(), "[23.2, 26.9]".to_string()));
    assert_eq!(cell(1, 0), ("10.0".to_string(), "[8.8, 11.4]".to_string()));
}

#[test]
fn the_terminal_answer_names_no_identifier_and_no_empty_interval() {
    let text = render_answers_at(&sweep(), 80);
    let first: Vec<&str> = text.lines().take(4).collect();
    for l in &first {
        assert!(!l.contains('_') && !l.contains('='), "an identifier in {l:?}\n{text}");
    }
    for bad in ["[0.0, 0.0]", "NaN", " 0.0%"] {
        assert!(!text.contains(bad), "{bad} in\n{text}");
    }
    assert!(text.lines().all(|l| l.chars().count() <= 80), "\n{text}");
    assert!(text.contains("* the rules as written"), "\n{text}");
}
