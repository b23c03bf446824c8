//! Plots and the report page, for every registered game: the SVG files parse as XML and hold the
//! expected series and legend labels, `report.html` is self-contained, and the agents' heat map is
//! drawn for decision games (a made-up two-agent run here, until such games are registered).

use std::path::Path;

use warsim::games::registry;
use warsim::record::{Layout, OutcomeKey, OutcomeKind};
use warsim::report::{Manifest, PointResult, RunResult, write_visuals};
use warsim::scenario;
use warsim::settings::Settings;
use warsim::stats::Accumulator;

fn manifest(name: &str, games: u64, points: &[String]) -> Manifest {
    Manifest {
        warsim_version: "test".into(),
        git_commit: None,
        command_line: vec!["warsim".into()],
        scenario: name.into(),
        seed: 1,
        games,
        shards: "1/1".into(),
        threads: 1,
        start_time: "t0".into(),
        end_time: "t1".into(),
        points: points.to_vec(),
        scenario_text: None,
        until: None,
        partial: false,
        point_games: Vec::new(),
        files: Vec::new(),
        outputs: Vec::new(),
    }
}

/// Two points of `game`: its first two variants if it has presets, else its defaults twice.
fn run_of(game: &str, games: u64) -> RunResult {
    let def = warsim::games::find(game).unwrap();
    let mut req = scenario::for_game(game);
    if def.presets.len() >= 2 {
        req.runs[0]
            .sweep
            .push(("variant".into(), def.presets[..2].iter().map(|p| p.name.to_string()).collect()));
    } else {
        let again = req.runs[0].clone();
        req.runs.push(again);
    }
    let points = scenario::expand(&req, &[]).unwrap();
    let labels: Vec<String> = points.iter().map(|p| p.label.clone()).collect();
    let results = points
        .iter()
        .map(|p| PointResult {
            label: p.label.clone(),
            game: p.game.name,
            settings: p.settings.clone(),
            layout: p.engine.layout().clone(),
            acc: p.engine.play_range(1, 0, games, &|_| {}),
        })
        .collect();
    RunResult { points: results, manifest: manifest(game, games, &labels), timings: Vec::new() }
}

fn read_svg(dir: &Path, file: &str) -> String {
    let text =
        std::fs::read_to_string(dir.join("plots").join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{file} is not XML: {e}"));
    text
}

/// Texts of an SVG document.
fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|s| s.trim().to_string())
        .collect()
}

fn count_tag(svg: &str, tag: &str) -> usize {
    roxmltree::Document::parse(svg).unwrap().descendants().filter(|n| n.has_tag_name(tag)).count()
}

#[test]
fn plots_and_report_for_every_game() {
    for def in registry() {
        let run = run_of(def.name, 300);
        let dir = tempfile::tempdir().unwrap();
        write_visuals(dir.path(), &run, &[]).unwrap();
        let (_, shorts) = warsim::report::plots::short_labels(&run.manifest.points);

        for file in ["lengths.svg", "lengths-log.svg"] {
            let svg = read_svg(dir.path(), file);
            // One line per point plus one legend sample per point.
            assert!(count_tag(&svg, "polyline") >= 2 * run.points.len(), "{}: {file}", def.name);
            let t = texts(&svg);
            for s in &shorts {
                assert!(t.contains(s), "{}: {file} has no legend label {s:?}: {t:?}", def.name);
            }
            assert!(t.iter().any(|x| x.contains(&run.points[0].layout.length_unit)), "{}: unit", def.name);
        }
        let by_point = read_svg(dir.path(), "lengths-by-point.svg");
        let t = texts(&by_point);
        for s in &shorts {
            assert!(t.contains(s), "{}: lengths-by-point.svg has no panel {s:?}", def.name);
        }
        assert!(count_tag(&by_point, "rect") > run.points.len(), "{}: histogram bars", def.name);

        let outcomes = read_svg(dir.path(), "outcomes.svg");
        let t = texts(&outcomes);
        assert!(t.iter().any(|x| x.ends_with(" rate")), "{}: outcome panels {t:?}", def.name);
        for s in &shorts {
            assert!(t.contains(s), "{}: outcomes.svg has no row {s:?}", def.name);
        }

        let fired = run.points.iter().any(|p| p.acc.counters.iter().any(|c| c.total > 0));
        let events = dir.path().join("plots/events.svg");
        assert_eq!(events.exists(), fired, "{}: events.svg iff an event happened", def.name);
        if fired {
            read_svg(dir.path(), "events.svg");
        }
        let decision = run.points.iter().any(|p| p.layout.outcomes.iter().any(|o| o.policy.is_some()));
        assert_eq!(dir.path().join("plots/agents.svg").exists(), decision, "{}: agents.svg", def.name);

        let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
        assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
        for p in &run.points {
            assert!(
                html.contains(&warsim::report::html::esc(&p.label)),
                "{}: report lacks {}",
                def.name,
                p.label
            );
        }
        assert!(html.matches("<svg").count() >= 4, "{}: plots inlined", def.name);
        assert!(!html.contains("<script") && !html.contains("src=") && !html.contains("href=\"http"));
        assert!(!html.contains("<?xml"), "SVG prologs are stripped when inlined");
        assert!(html.contains("id=manifest") && html.contains("warsim_version"), "manifest included");
    }
}

#[test]
fn agents_heat_map_for_decision_games() {
    let layout = Layout {
        length_unit: "turns".into(),
        outcomes: vec![
            OutcomeKey { kind: OutcomeKind::Win, seat: Some(0), team: None, policy: Some("random".into()) },
            OutcomeKey { kind: OutcomeKind::Win, seat: Some(1), team: None, policy: Some("greedy".into()) },
            OutcomeKey::plain(OutcomeKind::Draw),
        ],
        counters: vec![],
        distributions: vec![],
    };
    let mut flipped = layout.clone();
    flipped.outcomes[0].policy = Some("greedy".into());
    flipped.outcomes[1].policy = Some("random".into());
    let point = |label: &str, layout: &Layout, wins: [u64; 3]| {
        let mut acc = Accumulator::new(layout);
        acc.games = wins.iter().sum();
        acc.outcomes = wins.to_vec();
        for (i, n) in [10i64, 20, 30].iter().enumerate() {
            acc.length.add_n(*n, wins[i]);
        }
        PointResult {
            label: label.into(),
            game: "war",
            settings: Settings::restore("war", &[], true, "standard", &[], &[]).unwrap(),
            layout: layout.clone(),
            acc,
        }
    };
    let points = vec![
        point("duel seats=random,greedy", &layout, [300, 650, 50]),
        point("duel seats=greedy,random", &flipped, [640, 320, 40]),
    ];
    let labels: Vec<String> = points.iter().map(|p| p.label.clone()).collect();
    let run = RunResult { points, manifest: manifest("duel", 1000, &labels), timings: Vec::new() };
    let dir = tempfile::tempdir().unwrap();
    write_visuals(dir.path(), &run, &[]).unwrap();
    let svg = read_svg(dir.path(), "agents.svg");
    let t = texts(&svg);
    // random beat greedy in 300 + 320 of 2000 games; greedy beat random in 650 + 640.
    assert!(t.contains(&"31.0%".to_string()), "{t:?}");
    assert!(t.contains(&"64.5%".to_string()), "{t:?}");
    assert!(t.contains(&"random".to_string()) && t.contains(&"greedy".to_string()), "{t:?}");
    assert!(count_tag(&svg, "rect") >= 2);
}
