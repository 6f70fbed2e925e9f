//! A sweep as the command line runs it: its games and the files around them (per-game CSV,
//! summary, histograms, plot, distinct cycles), checked before the first game, with checkpoints
//! that a stopped or killed sweep resumes from; and the merging and plotting of summaries.
//! Outputs are named by path, `-` being stdout; a file is replaced only once complete. `sweep`
//! is a sweep's job, `hunt` a hunt's (and the joining of its streams); this file, the merging
//! and plotting.

mod hunt;
mod sweep;

pub use crate::error::{Error, JobError};
pub use crate::output::checkpoint::CheckpointError;
pub use crate::output::exports::PlotError;
pub use crate::output::files::TargetError;
pub use hunt::{join, read_report, read_start, HuntFiles, HuntJob, HuntRun, Rescue};
pub use sweep::{Done, Files, Job, Ready};

use crate::output::exports;
use crate::output::files;
use crate::output::metric::Metric;
use crate::output::outputs::{target, Outputs};
use crate::output::summary::Summary;
use std::path::{Path, PathBuf};

/// Merges the summaries at `inputs` (shards of one walk) into the outputs `files` names (its
/// `csv` aside), and returns the merged summary. Every output is tried, and no file is both an
/// input and an output, before anything is written.
pub fn merge(inputs: &[PathBuf], files: &Files) -> Result<Summary, Error> {
    let (json, hist, plot) = (
        files.summary.as_deref(),
        files.hist.as_deref(),
        files.plot.as_deref(),
    );
    let cycles = files.cycles.as_deref();
    let outputs = [
        ("the summary", json),
        ("the histograms", hist),
        ("the plot", plot),
        ("the cycles", cycles),
    ];
    files::check_inputs_and_outputs(inputs, &outputs)?;
    let shards = inputs.iter().map(|p| Summary::read(p));
    let shards = shards.collect::<Result<Vec<Summary>, _>>()?;
    if cycles.is_some() {
        if let Some((path, _)) = inputs.iter().zip(&shards).find(|(_, s)| s.cycles.is_none()) {
            return Err(JobError::NoCycles(path.clone()).into());
        }
    }
    let outputs = Outputs::of(json, hist, plot, cycles)?;
    outputs.check()?;
    let (merged, acc) = Summary::merge_tallies(&shards)?;
    outputs.write(&merged, &acc)?;
    Ok(merged)
}

/// Draws `metric` of the summaries at `inputs` on one chart (see `warsweep plot --help`) into
/// `output`.
pub fn plot(
    inputs: &[PathBuf],
    output: &Path,
    metric: Metric,
    title: Option<String>,
    log: bool,
) -> Result<(), Error> {
    files::check_inputs_and_outputs(inputs, &[("the plot", Some(output))])?;
    let to = target(output, "plot")?;
    let cannot = format!("cannot write the plot to {}", output.display());
    to.check().map_err(Error::context(&cannot))?;
    let svg = exports::overlay(inputs, metric, title, log)?;
    to.write_with(|out| out.write_all(svg.as_bytes()))
        .map_err(Error::context(&cannot))
}
