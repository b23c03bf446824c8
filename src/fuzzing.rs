//! Entry points for fuzzing every parser of outside data: scenario files, card files, `state.json`,
//! `manifest.json` and command-line values. Each takes arbitrary bytes and must return, without a
//! panic, a hang or an unbounded allocation, whatever the bytes are. The `fuzz/` crate (cargo fuzz,
//! nightly) drives them with coverage guidance; `tests/fuzz_smoke.rs` runs them on seeded
//! mutations of the same corpus on the stable toolchain.

use std::path::Path;

use clap::Parser;

use crate::cli::{Cli, Command, PointArgs};

/// Most points a fuzzed scenario is expanded to (building engines is the games' work, not the
/// parser's; a larger scenario is still parsed and counted).
const POINTS: u128 = 16;

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// A scenario file's text: parsed, and expanded into points when it has few.
pub fn scenario(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Ok(req) = crate::scenario::parse(t, "fuzz.toml", "fuzz", None) {
        expand_small(&req);
    }
}

fn expand_small(req: &crate::scenario::ScenarioRequest) {
    let points: u128 = req
        .runs
        .iter()
        .map(|r| r.sweep.iter().fold(1u128, |n, (_, v)| n.saturating_mul(v.len() as u128)))
        .fold(0u128, u128::saturating_add);
    // File-valued settings are read from a folder that does not exist: the fuzzer names no file.
    let fenced = crate::scenario::ScenarioRequest {
        base_dir: Some(Path::new("/nonexistent-warsim-fuzz").to_path_buf()),
        ..req.clone()
    };
    if points <= POINTS && fenced.runs.len() <= POINTS as usize {
        let _ = crate::scenario::expand(&fenced, &[]);
    }
}

/// A card file's text, compiled into a card set.
pub fn cards(data: &[u8]) {
    if let Some(t) = text(data) {
        let _ = (crate::games::card_files().check)("fuzz.toml", t);
    }
}

/// A `state.json` text: read and checked as `--resume` and `merge` read it.
pub fn state(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Ok(s) = crate::sim::checkpoint::RunState::from_text(Path::new("state.json"), t) {
        let _ = s.incompatibility(&s);
        let _ = s.complete();
    }
}

/// A `manifest.json` text: read as `compare` and a new run into its folder read it.
pub fn manifest(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Ok(m) = crate::report::Manifest::parse(t) {
        for w in &m.written {
            let _ = w.size_hash();
        }
        let _ = Cli::try_parse_from(&m.command_line);
    }
}

/// A command line: NUL-separated arguments after `warsim`, parsed, and their values checked as
/// the plans check them (a game's point expanded; no file written, no game played).
pub fn command_line(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let args = std::iter::once("warsim").chain(t.split('\0').take(64));
    let Ok(cli) = Cli::try_parse_from(args) else { return };
    match cli.command {
        Command::Run(run) => {
            if let Some(s) = &run.shard {
                let _ = crate::sim::shard::Shard::parse(s);
            }
            if let Some(u) = &run.until {
                let _ = crate::sim::until::Until::parse(u);
            }
            point(&run.point);
        }
        Command::Play(play) => point(&play.point),
        _ => {}
    }
}

/// The points of a game named on the command line (never a scenario file: the fuzzer reads none).
fn point(args: &PointArgs) {
    if crate::scenario::find_game(&args.target).is_err() {
        return;
    }
    if let Ok(req) = crate::plan::request(args) {
        expand_small(&req);
    }
}
