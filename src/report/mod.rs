//! Everything a run leaves behind: the CSV files, the manifest, the plots, the report page and the
//! terminal summary.
//!
//! Every file format is one `Export`; `write_all` writes each of them atomically (to a temporary
//! file in the output folder, renamed into place), so a file is never half-written under its
//! final name.

pub mod agents;
pub mod compare;
pub mod csv_files;
pub mod format;
pub mod html;
pub mod labels;
pub mod manifest;
pub mod plots;
pub mod terminal;

use std::io::Write;
use std::path::Path;

use anyhow::Context;

use crate::record::Layout;
use crate::settings::Settings;
use crate::stats::Accumulator;

pub use manifest::Manifest;

/// The statistics of one scenario point with what names them.
pub struct PointResult {
    pub label: String,
    pub game: &'static str,
    pub settings: Settings,
    pub layout: Layout,
    pub acc: Accumulator,
}

/// A finished run.
pub struct RunResult {
    pub points: Vec<PointResult>,
    pub manifest: Manifest,
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
        Box::new(agents::AgentsCsv),
        Box::new(manifest::ManifestJson),
    ]
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".warsim-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a file in {}", dir.display()))?;
    {
        let mut buf = std::io::BufWriter::new(tmp.as_file_mut());
        write(&mut buf)?;
        buf.flush()?;
    }
    tmp.persist(path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Writes every export of `run` into `dir`.
pub fn write_all(dir: &Path, run: &RunResult) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for export in exports().into_iter().filter(|e| e.applies(run)) {
        write_atomic(&dir.join(export.file_name()), |w| export.write(run, w))?;
    }
    Ok(())
}

/// Writes what is drawn from a run: `plots/*.svg`, `report.html` and, when there are comparisons,
/// `comparisons.csv`. Kept apart from `write_all` because comparisons come from a paired pass.
pub fn write_visuals(dir: &Path, run: &RunResult, comparisons: &[compare::Comparison]) -> anyhow::Result<()> {
    let plots = plots::plots(run, comparisons)?;
    let plot_dir = dir.join("plots");
    std::fs::create_dir_all(&plot_dir).with_context(|| format!("cannot create {}", plot_dir.display()))?;
    for p in &plots {
        write_atomic(&plot_dir.join(&p.file), |w| Ok(w.write_all(p.svg.as_bytes())?))?;
    }
    if !comparisons.is_empty() {
        write_atomic(&dir.join("comparisons.csv"), |w| compare::write_csv(comparisons, w))?;
    }
    let page = html::page(run, comparisons, &plots);
    write_atomic(&dir.join("report.html"), |w| Ok(w.write_all(page.as_bytes())?))?;
    Ok(())
}
