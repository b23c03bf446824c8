//! Everything a run leaves behind: the CSV files, the manifest, the plots, the report page and the
//! terminal summary.
//!
//! The report formats only: it receives finished statistics (`RunResult`, comparison rows) and never
//! plays a game or looks a game up. Every file format is one `Export`; files are written through
//! `crate::io::write_atomic`, so a file is never half-written under its final name.

pub mod agents;
pub mod answer;
pub mod balance;
pub mod card_answer;
pub mod compare;
pub mod csv_files;
pub mod effects;
pub mod event_answer;
pub mod format;
pub mod games_csv;
pub mod html;
pub(crate) mod html_cards;
pub mod html_events;
pub(crate) mod html_makers;
pub mod labels;
pub mod lineups;
pub mod makers;
pub mod manifest;
pub mod paired_means;
pub mod pivot;
pub mod plots;
pub mod terminal;
pub mod timings;
pub mod tune;

use std::io::Write;
use std::path::Path;

use anyhow::Context;

pub use crate::io::write_atomic;

use crate::record::{Layout, OutcomeKind};
use crate::settings::Settings;
use crate::stats::tracked::Key;
use crate::stats::{Accumulator, Interval, Timings};

pub use manifest::{Manifest, WrittenFile};

/// The statistics of one scenario point with what names them.
pub struct PointResult {
    pub label: String,
    pub game: &'static str,
    pub settings: Settings,
    pub layout: Layout,
    pub acc: Accumulator,
}

impl PointResult {
    /// The 95% interval of `key` over the point's independent units: games, or deal groups where
    /// games share a deal (`Accumulator::interval`).
    pub fn interval(&self, key: &Key) -> Interval {
        self.acc.interval(&self.acc.plan(&self.layout), key)
    }

    /// The interval of the share of games ending in `kind` (any seat), if the point has the kind.
    pub fn kind_interval(&self, kind: OutcomeKind) -> Option<Interval> {
        let rows = crate::stats::metric::rows_of(&self.layout, kind);
        (!rows.is_empty()).then(|| self.interval(&Key::Rows(rows)))
    }
}

/// A finished run.
pub struct RunResult {
    pub points: Vec<PointResult>,
    pub manifest: Manifest,
    /// Each point's decision costs, when its games measured any (empty otherwise). Not part of the
    /// byte-identical files: only `timings.csv` reads it.
    pub timings: Vec<Timings>,
    /// The co-moments of the question's metrics over every point, from the paired pass of a sweep
    /// (`effects`); empty when no effects were measured.
    pub effects: Vec<effects::Measured>,
}

/// One output file format.
pub trait Export {
    fn file_name(&self) -> &'static str;
    /// Whether this run has anything for this file (most files always do).
    fn applies(&self, _run: &RunResult) -> bool {
        true
    }
    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()>;
}

/// Every export, in the order they are written.
pub fn exports() -> Vec<Box<dyn Export>> {
    vec![
        Box::new(csv_files::Summary),
        Box::new(csv_files::Outcomes),
        Box::new(csv_files::Events),
        Box::new(csv_files::Lengths),
        Box::new(csv_files::Distributions),
        Box::new(csv_files::Cards),
        Box::new(csv_files::CardPairs),
        Box::new(csv_files::Designers),
        Box::new(csv_files::Standings),
        Box::new(agents::AgentsCsv),
        Box::new(timings::TimingsCsv),
        Box::new(manifest::ManifestJson),
    ]
}

/// Writes every export of `run` into `dir`, the manifest last, listing what was written (with the
/// files `run.manifest` already lists). Returns the manifest's list of written files.
pub fn write_all(dir: &Path, run: &RunResult) -> anyhow::Result<Vec<WrittenFile>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut written = Vec::new();
    for export in exports().iter().filter(|e| e.applies(run) && e.file_name() != manifest::FILE) {
        let w = write_atomic(&dir.join(export.file_name()), |w| {
            if export.file_name().ends_with(".csv") {
                let mut escaping = crate::untrusted::Escaping::new(w);
                export.write(run, &mut escaping)?;
                Ok(escaping.flush()?)
            } else {
                export.write(run, w)
            }
        })?;
        written.push(WrittenFile::new(export.file_name(), w));
    }
    write_manifest(dir, run, &[], written)
}

/// Writes `manifest.json`, listing the plots among `drawn` (the files whose names vary from run to
/// run) and every file in `written` with its size and hash, after those of `run.manifest` it does
/// not replace. Returns the list.
fn write_manifest(
    dir: &Path,
    run: &RunResult,
    drawn: &[String],
    written: Vec<WrittenFile>,
) -> anyhow::Result<Vec<WrittenFile>> {
    let plots = drawn.iter().filter(|f| f.starts_with("plots/")).cloned().collect();
    let mut all: Vec<WrittenFile> =
        run.manifest.written.iter().filter(|e| !written.iter().any(|w| w.file == e.file)).cloned().collect();
    all.extend(written);
    let manifest = Manifest { outputs: plots, written: all.clone(), ..run.manifest.clone() };
    write_atomic(&dir.join(manifest::FILE), |w| manifest::write(&manifest, w))?;
    Ok(all)
}

/// Writes what is drawn from a run (`plots/*.svg`, `report.html`, and `comparisons.csv` when there
/// are comparisons, `effects.csv` when a sweep's effects were measured) after `write_all`, and the
/// manifest again, listing them too.
pub fn write_visuals(
    dir: &Path,
    run: &RunResult,
    comparisons: &[compare::Comparison],
) -> anyhow::Result<Vec<WrittenFile>> {
    let plots = plots::plots(run, comparisons)?;
    let plot_dir = dir.join("plots");
    std::fs::create_dir_all(&plot_dir).with_context(|| format!("cannot create {}", plot_dir.display()))?;
    let mut drawn = Vec::new();
    let mut written = Vec::new();
    let mut put = |name: String, w: crate::io::Written| {
        written.push(WrittenFile::new(&name, w));
        drawn.push(name);
    };
    for p in &plots {
        let w = write_atomic(&plot_dir.join(&p.file), |w| Ok(w.write_all(p.svg.as_bytes())?))?;
        put(format!("plots/{}", p.file), w);
    }
    if !comparisons.is_empty() {
        put("comparisons.csv".into(), write_comparisons(dir, comparisons)?);
    }
    let effects = effects::effects(run);
    if !effects.is_empty() {
        let w = write_atomic(&dir.join("effects.csv"), |w| {
            let mut escaping = crate::untrusted::Escaping::new(w);
            effects::write_csv(&effects, &mut escaping)?;
            Ok(escaping.flush()?)
        })?;
        put("effects.csv".into(), w);
    }
    let page = html::page(run, comparisons, &plots);
    put("report.html".into(), write_atomic(&dir.join("report.html"), |w| Ok(w.write_all(page.as_bytes())?))?);
    write_manifest(dir, run, &drawn, written)
}

fn write_comparisons(dir: &Path, comparisons: &[compare::Comparison]) -> anyhow::Result<crate::io::Written> {
    write_atomic(&dir.join("comparisons.csv"), |w| {
        let mut escaping = crate::untrusted::Escaping::new(w);
        compare::write_csv(comparisons, &mut escaping)?;
        Ok(escaping.flush()?)
    })
}

/// Writes `comparisons.csv` alone (a comparison over part of a run's games) and the manifest,
/// listing it with the files `run.manifest` lists.
pub fn write_comparisons_only(
    dir: &Path,
    run: &RunResult,
    comparisons: &[compare::Comparison],
) -> anyhow::Result<Vec<WrittenFile>> {
    let w = write_comparisons(dir, comparisons)?;
    write_manifest(dir, run, &run.manifest.outputs, vec![WrittenFile::new("comparisons.csv", w)])
}
