//! Plots and the report page. Every shipped scenario (with few games) and a single-point run are
//! drawn by the `warsim` binary, and every SVG is checked as a reader would see it: it parses, no
//! text runs off the canvas and no two texts overlap (a text's box estimated from its font size
//! times its number of characters). Made-up runs check a 60-point sweep, the agents' plot (line-ups
//! and mirrors as shares of decided games), the log plot's gaps, and that the same
//! run gives the same bytes.

mod support;

use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;
use warsim::games::registry;
use warsim::record::{Layout, OutcomeKey, OutcomeKind};
use warsim::report::{PointResult, RunResult, plots, write_visuals};
use warsim::scenario;
use warsim::settings::Settings;
use warsim::stats::Accumulator;

/// A text of an SVG with its box: left, top, right, bottom.
#[derive(Debug)]
struct TextBox {
    text: String,
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

/// Every text of `svg` with its estimated box: 0.6 of the font size per character across, from
/// 0.8 of the size above the baseline to 0.2 below.
fn text_boxes(svg: &str) -> (f64, f64, Vec<TextBox>) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    let root = doc.root_element();
    let num = |n: roxmltree::Node, a: &str| -> f64 {
        n.attribute(a).unwrap_or_else(|| panic!("{a} missing on {n:?}")).parse().unwrap()
    };
    let (w, h) = (num(root, "width"), num(root, "height"));
    let boxes = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            assert!(n.attribute("transform").is_none(), "rotated text: {n:?}");
            let text = n.text().unwrap_or("").to_string();
            let size = num(n, "font-size");
            let width = 0.6 * size * text.chars().count() as f64;
            let (x, y) = (num(n, "x"), num(n, "y"));
            let left = match n.attribute("text-anchor") {
                Some("middle") => x - width / 2.0,
                Some("end") => x - width,
                _ => x,
            };
            TextBox { text, left, top: y - 0.8 * size, right: left + width, bottom: y + 0.2 * size }
        })
        .collect();
    (w, h, boxes)
}

/// Panics with every text that leaves the canvas or overlaps another.
fn assert_readable(name: &str, svg: &str) {
    let (w, h, boxes) = text_boxes(svg);
    let mut problems = Vec::new();
    for b in &boxes {
        if b.left < 0.0 || b.top < 0.0 || b.right > w || b.bottom > h {
            problems.push(format!("off the {w}x{h} canvas: {b:?}"));
        }
    }
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let x = a.right.min(b.right) - a.left.max(b.left);
            let y = a.bottom.min(b.bottom) - a.top.max(b.top);
            if x > 0.5 && y > 0.5 && !a.text.is_empty() && !b.text.is_empty() {
                problems.push(format!("overlap: {a:?} and {b:?}"));
            }
        }
    }
    assert!(problems.is_empty(), "{name}: {} problems:\n{}", problems.len(), problems.join("\n"));
}

fn texts(svg: &str) -> Vec<String> {
    text_boxes(svg).2.into_iter().map(|b| b.text).collect()
}

fn count_tag(svg: &str, tag: &str) -> usize {
    roxmltree::Document::parse(svg).unwrap().descendants().filter(|n| n.has_tag_name(tag)).count()
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(file).display()))
}

/// Checks every SVG in `dir/plots` and the report page; returns the plots' file names.
fn check_run_folder(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir.join("plots"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    for f in &files {
        assert_readable(&format!("{}: {f}", dir.display()), &read(&dir.join("plots"), f));
    }
    let html = read(dir, "report.html");
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert!(!html.contains("<script") && !html.contains("src=") && !html.contains("href=\"http"));
    assert!(!html.contains("<?xml"), "SVG prologs are stripped when inlined");
    assert_eq!(html.matches("<svg").count(), files.len(), "every plot inlined");
    files
}

#[test]
fn every_shipped_scenario_and_a_single_point_draw_readable_plots() {
    let tmp = tempfile::tempdir().unwrap();
    let runs: [(&str, &[&str]); 5] = [
        ("war-variants", &["run", "scenarios/war-variants.toml", "--games", "400"]),
        ("war-pickup", &["run", "scenarios/war-pickup.toml", "--games", "400"]),
        ("scourge-decks", &["run", "scenarios/scourge-decks.toml", "--games", "400"]),
        ("territories-versions", &["run", "scenarios/territories-versions.toml", "--games", "12"]),
        ("war", &["run", "war", "--games", "5000"]),
    ];
    for (name, args) in runs {
        let out = tmp.path().join(name);
        let status = cargo_bin_cmd!("warsim").args(args).arg("--out").arg(&out).arg("-q").output().unwrap();
        assert!(status.status.success(), "{name}: {}", String::from_utf8_lossy(&status.stderr));
        let files = check_run_folder(&out);
        for f in ["lengths.svg", "lengths-log.svg", "lengths-by-point.svg", "outcomes.svg", "events.svg"] {
            assert!(files.contains(&f.to_string()), "{name}: no {f} in {files:?}");
        }
        let html = read(&out, "report.html");
        assert!(!html.contains(" 1 points") && !html.contains(" 1 games"), "{name}: singulars");
        match name {
            "war" => assert!(html.contains("5,000 games, 1 point,"), "{name}: thousands and singular"),
            "war-variants" => {
                assert!(html.contains("battles over 400 games"), "{name}: the answer's length in its unit")
            }
            "war-pickup" => assert!(
                html.contains(
                    "4 counters that never fired at any point are left out: cards_killed, spoils_removed"
                ),
                "{name}: silent counters named, not listed"
            ),
            _ => {}
        }
        assert_eq!(files.contains(&"comparisons.svg".to_string()), name == "war-variants", "{name}");
        assert_eq!(files.contains(&"agents.svg".to_string()), name == "territories-versions", "{name}");
        // A sweep whose answer measured its settings' effects draws them: the answer's picture.
        let swept = ["war-variants", "war-pickup", "scourge-decks"].contains(&name);
        assert_eq!(files.contains(&"effects.svg".to_string()), swept, "{name}: {files:?}");
        if swept {
            let svg = read(&out.join("plots"), "effects.svg");
            assert!(svg.contains("What each setting changes") && svg.contains(" → "), "{name}");
        }
    }
}

#[test]
fn card_impact_draws_a_readable_forest_and_a_cards_section() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("impact");
    let args = ["run", "scenarios/slots-impact.toml", "--games", "60", "-q", "--out"];
    let status = cargo_bin_cmd!("warsim").args(args).arg(&out).output().unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    let files = check_run_folder(&out);
    assert!(files.contains(&"impact.svg".to_string()), "{files:?}");
    let svg = read(&out.join("plots"), "impact.svg");
    // The imbalance set's four designs are all listed, the too-strong common first.
    let names = texts(&svg);
    let warlord = names.iter().position(|t| t == "warlord").expect("warlord drawn");
    assert!(names.iter().position(|t| t == "dead-weight").is_some_and(|d| d > warlord));
    let html = read(&out, "report.html");
    assert!(html.contains("<h2 id=cards>Cards that matter most</h2>") && html.contains("href=#cards"));
    assert!(html.contains("warlord + dead-weight") || html.contains("warlord + twin-strike"), "pairs listed");
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
    support::run(game, results)
}

#[test]
fn plots_and_report_for_every_game() {
    for def in registry() {
        let run = run_of(def.name, 300);
        let dir = tempfile::tempdir().unwrap();
        write_visuals(dir.path(), &run, &[]).unwrap();
        let files = check_run_folder(dir.path());
        let by_point = read(&dir.path().join("plots"), "lengths-by-point.svg");
        let t = texts(&by_point).join(" ");
        let sweep = warsim::report::labels::Sweep::of(&run.manifest.points);
        for s in sweep.shorts() {
            assert!(t.contains(&s), "{}: lengths-by-point.svg has no panel {s:?}", def.name);
        }
        assert!(count_tag(&by_point, "rect") > run.points.len(), "{}: histogram bars", def.name);
        let fired = run.points.iter().any(|p| p.acc.counters.iter().any(|c| c.total > 0));
        assert_eq!(
            files.contains(&"events.svg".to_string()),
            fired,
            "{}: events.svg iff an event happened",
            def.name
        );
        let html = read(dir.path(), "report.html");
        for p in &run.points {
            assert!(
                html.contains(&warsim::report::html::esc(&p.label)),
                "{}: report lacks {}",
                def.name,
                p.label
            );
        }
    }
}

#[test]
fn sixty_points_are_faceted_and_readable() {
    let mut points = Vec::new();
    for variant in ["standard", "peace", "jokers", "short-war", "lesser-spoils"] {
        for players in [2, 3, 4] {
            for down in [1, 2, 3, 4] {
                let label = format!("war variant={variant} players={players} war_down={down}");
                let mean = if variant == "short-war" { 6 } else { 100 + 20 * down + 10 * players };
                points.push(support::point(&label, 1000, mean, 5 * down as u64));
            }
        }
    }
    let run = support::run("sixty", points);
    for p in plots::plots(&run, &[]).unwrap() {
        assert_readable(&p.file, &p.svg);
    }
    let lengths = &plots::plots(&run, &[]).unwrap()[0].svg;
    let t = texts(lengths);
    // The setting of fewest values is the colours' legend; the others title 15 panels.
    assert!(t.contains(&"players:".to_string()), "{t:?}");
    assert!(t.contains(&"variant=peace war_down=3".to_string()), "{t:?}");
    assert_eq!(t.iter().filter(|s| s.starts_with("variant=")).count(), 20, "{t:?}");
}

#[test]
fn the_same_run_draws_the_same_bytes() {
    let run = support::territories_like();
    let a: Vec<String> = plots::plots(&run, &[]).unwrap().into_iter().map(|p| p.svg).collect();
    let b: Vec<String> = plots::plots(&run, &[]).unwrap().into_iter().map(|p| p.svg).collect();
    assert_eq!(a, b);
}

#[test]
fn the_log_plot_leaves_gaps_where_no_game_ended() {
    let mut p = support::point("war", 100, 10, 0);
    p.acc.length = warsim::stats::Histogram::new();
    p.acc.length.add_n(10, 60);
    p.acc.length.add_n(11, 39);
    p.acc.length.add_n(50, 1);
    let run = support::run("gap", vec![p]);
    let plots = plots::plots(&run, &[]).unwrap();
    let log = &plots.iter().find(|p| p.file == "lengths-log.svg").unwrap().svg;
    let doc = roxmltree::Document::parse(log).unwrap();
    let xs = |n: roxmltree::Node| -> Vec<f64> {
        n.attribute("points")
            .unwrap()
            .split(' ')
            .map(|p| p.split(',').next().unwrap().parse().unwrap())
            .collect()
    };
    let lines: Vec<Vec<f64>> = doc.descendants().filter(|n| n.has_tag_name("polyline")).map(xs).collect();
    let dots: Vec<f64> = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| n.attribute("cx").unwrap().parse().unwrap())
        .collect();
    // The game of length 50 is a dot of its own, right of every line.
    assert_eq!(dots.len(), 1, "{log}");
    assert_eq!(lines.len(), 1, "{log}");
    assert!(lines[0].iter().all(|&x| x < dots[0]), "{log}");
}

#[test]
fn agents_show_line_ups_and_mirrors_as_shares_of_decided_games() {
    let outcomes = vec![
        OutcomeKey { kind: OutcomeKind::Win, seat: Some(0), team: None, policy: Some("random".into()) },
        OutcomeKey { kind: OutcomeKind::Win, seat: Some(1), team: None, policy: Some("greedy".into()) },
        OutcomeKey::plain(OutcomeKind::Draw),
    ];
    let layout = Layout::plain("turns", outcomes, Vec::new());
    let mut mirror = layout.clone();
    mirror.outcomes[0].policy = Some("greedy".into());
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
    let run = support::run(
        "duel",
        vec![
            point("duel seats=random,greedy", &layout, [300, 650, 50]),
            point("duel seats=greedy", &mirror, [520, 480, 200]),
        ],
    );
    let dir = tempfile::tempdir().unwrap();
    write_visuals(dir.path(), &run, &[]).unwrap();
    check_run_folder(dir.path());
    let svg = read(&dir.path().join("plots"), "agents.svg");
    let t = texts(&svg);
    let written = |share: f64, n: u64| {
        let ci = warsim::stats::wilson((share * n as f64).round() as u64, n);
        format!("{:.1}% ±{:.1}", 100.0 * ci.estimate, 100.0 * ci.half_width())
    };
    // random won 300 of the 950 decided games; in the mirror, seat 0 won 520 of 1000, never 100%.
    assert!(t.contains(&format!("random {}", written(300.0 / 950.0, 950))), "{t:?}");
    assert!(t.contains(&"mirror".to_string()), "{t:?}");
    assert!(t.contains(&format!("seat 0 {}", written(0.52, 1000))), "seat effect of the mirror: {t:?}");
    assert!(!t.iter().any(|s| s.starts_with("100")), "no meaningless 100%: {t:?}");
}
