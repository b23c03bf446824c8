//! The answers to "who wins" and "what a card does", from made-up runs with known counts: the
//! sentences word for word, the grids' layout, and what an answer never says (identifiers,
//! `[0.0, 0.0]`, NaN, a line wider than the terminal).

mod support;

use support::run;
use warsim::record::{CardTable, GameRecord, Layout, OutcomeKey, OutcomeKind};
use warsim::report::lineups::{Pairing, ranking};
use warsim::report::terminal::render_answers_at;
use warsim::report::{PointResult, RunResult, card_answer, lineups, pivot};
use warsim::settings::Settings;
use warsim::stats::{Accumulator, wilson};

/// A territories point of `games` games: `wins` per (seat, policy), the rest draws. Games are
/// independent (Wilson's intervals).
fn table(settings: &[(&str, &str)], wins: &[(u8, &str, u64)], games: u64) -> PointResult {
    let mut outcomes: Vec<OutcomeKey> = wins
        .iter()
        .map(|&(s, p, _)| OutcomeKey {
            policy: Some(p.into()),
            ..OutcomeKey::seat(OutcomeKind::Win, s as usize)
        })
        .collect();
    outcomes.push(OutcomeKey::plain(OutcomeKind::Draw));
    let layout = Layout::plain("rounds", outcomes, Vec::new());
    let mut acc = Accumulator::new(&layout);
    let mut i = 0u64;
    let won: u64 = wins.iter().map(|w| w.2).sum();
    let rows = wins.iter().enumerate().map(|(r, w)| (r, w.2)).chain([(wins.len(), games - won)]);
    for (row, n) in rows {
        for _ in 0..n {
            let mut rec = GameRecord::new(&layout);
            rec.outcome = row as u16;
            rec.length = 10;
            acc.record(i, &rec);
            i += 1;
        }
    }
    let saved: Vec<(String, String)> = settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let specs = warsim::games::find("territories").unwrap().settings;
    let label = format!(
        "territories {}",
        settings.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
    );
    PointResult {
        label,
        game: "territories",
        settings: Settings::restore("territories", specs, false, "standard", &saved, &[]).unwrap(),
        layout,
        acc,
    }
}

/// Two players, version A and B: search, greedy and random head to head, and a greedy mirror.
fn line_ups() -> RunResult {
    let mut points = Vec::new();
    for (version, greedy_vs_random) in [("A", 510), ("B", 700)] {
        let at = |policies: &'static str| {
            vec![("players", "2"), ("rotate_seats", "true"), ("version", version), ("policies", policies)]
        };
        points.push(table(
            &at("search,random"),
            &[(0, "search", 450), (1, "search", 450), (0, "random", 50), (1, "random", 50)],
            1000,
        ));
        points.push(table(
            &at("search,greedy"),
            &[(0, "search", 300), (1, "search", 300), (0, "greedy", 200), (1, "greedy", 200)],
            1000,
        ));
        let g = greedy_vs_random / 2;
        let r = (1000 - greedy_vs_random) / 2;
        points.push(table(
            &at("greedy,random"),
            &[(0, "greedy", g), (1, "greedy", g), (0, "random", r), (1, "random", r)],
            1000,
        ));
        points.push(table(&at("greedy"), &[(0, "greedy", 480), (1, "greedy", 500)], 1000));
    }
    let mut r = run("line-ups", points);
    r.manifest.question = Some("policy_wins".into());
    r
}

/// A card's share of the games it was played in, `k` won of `n`, over `g` games (each its own
/// group): the ratio estimator (Cochran 1977, §6.3), the games without the card adding nothing.
fn ratio(k: u64, n: u64, g: u64) -> String {
    let r = k as f64 / n as f64;
    let ss = k as f64 * (1.0 - r).powi(2) + (n - k) as f64 * r * r;
    let half = 1.959964 * (g as f64 / (g - 1) as f64 * ss / (n * n) as f64).sqrt();
    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * r, 100.0 * (r - half), 100.0 * (r + half))
}

fn pct(k: u64, n: u64) -> String {
    let i = wilson(k, n);
    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * i.estimate, 100.0 * i.low, 100.0 * i.high)
}

#[test]
fn a_ranking_names_who_beats_every_other_and_the_pairings_without_a_winner() {
    let pairing = |a: &str, b: &str, k: u64| Pairing {
        ctx: Vec::new(),
        a: a.into(),
        b: b.into(),
        share: wilson(k, 1000),
        decided: 1000,
    };
    // Random is named first in its pairing with greedy: the sentence says it from greedy's side.
    let pairings = [
        pairing("search", "random", 900),
        pairing("search", "greedy", 600),
        pairing("random", "greedy", 490),
    ];
    assert_eq!(
        ranking("policy", &pairings),
        format!(
            "search beats every other policy: greedy {}, random {}; no winner detected: greedy against random {}",
            pct(600, 1000),
            pct(900, 1000),
            pct(510, 1000)
        )
    );
    let clear = [
        pairing("reader", "highest", 843),
        pairing("highest", "random", 730),
        pairing("reader", "random", 927),
    ];
    assert_eq!(
        ranking("placement", &clear),
        format!(
            "reader beats every other placement: highest {}, random {}; highest beats random {}",
            pct(843, 1000),
            pct(927, 1000),
            pct(730, 1000)
        )
    );
}

#[test]
fn who_wins_is_said_per_version_with_what_the_version_changes() {
    let a = lineups::answer(&line_ups()).expect("a who-wins answer");
    let of = "of the decided games, both seats played on every deal";
    assert_eq!(
        a.sentences[0],
        format!(
            "Version A: search beats every other policy: greedy {}, random {}; no winner detected: greedy against random {} ({of}).",
            pct(600, 1000),
            pct(900, 1000),
            pct(510, 1000)
        )
    );
    assert_eq!(
        a.sentences[1],
        format!(
            "Version B: search beats every other policy: greedy {}, random {}; greedy beats random {}.",
            pct(600, 1000),
            pct(900, 1000),
            pct(700, 1000)
        )
    );
    // Greedy against random: 51.0% to 70.0%, +19.0 points, the two half-widths added in quadrature.
    let (x, y) = (wilson(510, 1000), wilson(700, 1000));
    let half = 100.0 * (x.half_width().powi(2) + y.half_width().powi(2)).sqrt();
    assert_eq!(
        a.sentences[2],
        format!(
            "From version A to B: greedy against random +19.0 points [+{:.1}, +{:.1}]; no change detected in 2 pairings (the side ahead's share of the decided games, in points; unpaired 95% intervals).",
            19.0 - half,
            19.0 + half
        )
    );
    // The mirror's first seat won 480 of 980 decided games: no edge.
    assert!(
        a.sentences[3]
            .starts_with("Seat order (one policy in every seat): no edge detected in any of the 2 mirrors"),
        "{}",
        a.sentences[3]
    );
    assert_eq!(
        a.sentences[4],
        format!(
            "Draws are left out of the shares above; they are most common with greedy mirrors, version A: {} of games.",
            pct(20, 1000)
        )
    );
    assert_eq!(a.picture, Some(lineups::PICTURE));
}

#[test]
fn the_head_to_head_grid_has_a_row_per_version_and_policy_and_a_column_per_opponent() {
    let a = lineups::answer(&line_ups()).unwrap();
    let h = &a.pivots[0];
    // Two players at every point: said once for the run, not in the grid's title.
    assert!(h.title.starts_with("Head to head: the row policy's share"), "{}", h.title);
    assert_eq!(h.row_keys, ["version", "policy"]);
    assert_eq!(h.col_key, "against");
    assert_eq!(h.col_levels, ["search", "greedy", "random"]);
    let rows: Vec<Vec<String>> = h.rows.iter().map(|r| r.0.clone()).collect();
    assert_eq!(rows[0], ["A", "search"]);
    assert_eq!(rows[3], ["B", "search"]);
    assert_eq!(rows.len(), 6);
    // A cell and its mirror add up to 100: greedy against search 40.0, search against greedy 60.0.
    let cell = |r: usize, c: usize| h.rows[r].1[c].clone();
    assert_eq!(cell(0, 1).unwrap().0, "60.0");
    assert_eq!(cell(1, 0).unwrap().0, "40.0");
    assert!(cell(0, 0).is_none(), "no policy meets itself");
    // The mirrors' grid: a row per version, a column per mirrored policy.
    let m = &a.pivots[1];
    assert!(
        m.title.starts_with("Mirrors: the first seat's share of the decided games (%; even 50)"),
        "{}",
        m.title
    );
    assert_eq!(
        (m.row_keys.clone(), m.col_levels.clone()),
        (vec!["version".to_string()], vec!["greedy".to_string()])
    );
}

#[test]
fn a_who_wins_answer_reads_as_words_at_80_columns() {
    let text = render_answers_at(&line_ups(), 80);
    let first: Vec<&str> = text.lines().take(6).collect();
    for l in &first {
        assert!(!l.contains('_') && !l.contains('='), "an identifier in {l:?}\n{text}");
    }
    for bad in ["[0.0, 0.0]", "NaN", "one row each", "answers"] {
        assert!(!text.contains(bad), "{bad} in\n{text}");
    }
    assert!(text.lines().all(|l| l.chars().count() <= 80), "\n{text}");
    assert!(text.contains("against search"), "\n{text}");
}

#[test]
fn a_metric_question_over_line_ups_also_says_who_beats_whom() {
    let mut r = line_ups();
    r.manifest.question = Some("draw_rate".into());
    let a = pivot::answer(&r).expect("an answer");
    assert!(a.sentences.iter().any(|s| s.starts_with("Version A: search beats")), "{:?}", a.sentences);
    assert!(a.pivots.iter().any(|p| p.col_key == "against"));
}

/// A Card Wars point with a per-card table: each card's (games played, games its owner won).
fn cards_point(label: &str, cards: &[(&str, u64, u64)]) -> PointResult {
    let mut counters = Vec::new();
    for (c, _, _) in cards {
        counters.extend([format!("card {c} games_played"), format!("card {c} games_won")]);
    }
    let table = CardTable {
        keys: cards.iter().map(|c| c.0.to_string()).collect(),
        columns: vec!["games_played".into(), "games_won".into()],
        rates: vec![("game_win_rate".into(), 1, 0)],
        paired: Vec::new(),
        first: 0,
        pairs: None,
        makers: None,
        class: Vec::new(),
    };
    let layout = Layout {
        cards: Some(table),
        ..Layout::plain("slots", vec![OutcomeKey::plain(OutcomeKind::Win)], counters)
    };
    let mut acc = Accumulator::new(&layout);
    // Game i plays every card whose count reaches i; its owner won the first `won` of them.
    let games = cards.iter().map(|c| c.1).max().unwrap_or(0);
    for i in 0..games {
        let mut rec = GameRecord::new(&layout);
        rec.length = 20;
        for (k, (_, played, won)) in cards.iter().enumerate() {
            if i < *played {
                rec.counters[2 * k] = 1;
                rec.counters[2 * k + 1] = u64::from(i < *won);
            }
        }
        acc.record(i, &rec);
    }
    let (game, settings) = ("slots", warsim::games::find("slots").unwrap().settings);
    let saved: Vec<(String, String)> =
        warsim::report::labels::words(label).into_iter().filter(|(k, _)| k != "game").collect();
    PointResult {
        label: label.into(),
        game,
        settings: Settings::restore(game, settings, false, "standard", &saved, &[]).unwrap(),
        layout,
        acc,
    }
}

#[test]
fn the_cards_that_win_most_and_least_are_said_per_set_beside_the_textless_baseline() {
    let mut sample = cards_point(
        "slots cards=cards/sample.toml policies=random",
        &[("eclipse", 500, 400), ("colossus", 1000, 560), ("tired-giant", 800, 300)],
    );
    // The set names each design's rarity and printed value.
    sample.layout.cards.as_mut().unwrap().class =
        vec![("rare".into(), 9), ("uncommon".into(), 8), ("common".into(), 6)];
    let points = vec![
        cards_point("slots policies=random", &[("textless-9", 1000, 546), ("textless-3", 400, 150)]),
        sample,
    ];
    let mut r = run("cards", points);
    r.manifest.question = Some("card_impact".into());
    let a = card_answer::answer(&r).expect("a card answer");
    assert_eq!(
        a.sentences[0],
        format!(
            "With cards/sample.toml, the owner of eclipse (rare 9) wins the most of the games it is played in: {} (a textless 9 without a set: {}); the owner of tired-giant (common 6) the fewest: {}.",
            ratio(400, 500, 1000),
            ratio(546, 1000, 1000),
            ratio(300, 800, 1000)
        )
    );
    assert_eq!(
        a.sentences[1],
        format!(
            "Without a card set (textless cards only), the printed value alone: a 9's owner wins {} of the games it is played in, a 3's {}.",
            ratio(546, 1000, 1000),
            ratio(150, 400, 1000)
        )
    );
    let g = &a.pivots[0];
    assert_eq!(g.row_keys, ["card set", "card"]);
    let names: Vec<&str> = g.rows.iter().map(|r| r.0[1].as_str()).collect();
    assert_eq!(
        names,
        [
            "eclipse (rare 9)",
            "colossus (uncommon 8)",
            "tired-giant (common 6)",
            "a textless 9",
            "a textless 3"
        ]
    );
    let text = render_answers_at(&r, 80);
    assert!(text.lines().all(|l| l.chars().count() <= 80), "\n{text}");
    for bad in ["[0.0, 0.0]", "NaN", "one row each", "_"] {
        assert!(!text.contains(bad), "{bad} in\n{text}");
    }
}

#[test]
fn a_game_without_policies_gets_no_who_wins_answer() {
    let mut r = run("war", vec![support::point("war", 1000, 300, 10)]);
    r.manifest.question = Some("policy_wins".into());
    assert!(lineups::answer(&r).is_none());
    assert!(pivot::answer(&r).is_none());
}
