//! Everything a run leaves behind: the CSV files, the manifest and the terminal summary.
//!
//! Every file format is one `Export`; `write_all` writes each of them atomically (to a temporary
//! file in the output folder, renamed into place), so a file is never half-written under its
//! final name.

pub mod csv_files;
pub mod format;
pub mod manifest;
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
    for export in exports() {
        write_atomic(&dir.join(export.file_name()), |w| export.write(run, w))?;
    }
    Ok(())
}
