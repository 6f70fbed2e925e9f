//! The summary, histogram, cycle and plot outputs a command was asked for (`sweep`, `merge`): found and
//! tried before any work, so that an unwritable one fails first, and written at the end from
//! the summary and its accumulator.

use crate::error::Error;
use crate::output::accumulator::Accumulator;
use crate::output::exports;
use crate::output::files::Target;
use crate::output::summary::Summary;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Each output's target and the path it was named by (for messages).
#[derive(Debug)]
pub struct Outputs {
    json: Option<(Target, PathBuf)>,
    hist: Option<(Target, PathBuf)>,
    plot: Option<(Target, PathBuf)>,
    cycles: Option<(Target, PathBuf)>,
}

/// What `path` names (a file, a pipe or device, or `-` for stdout), or one sentence.
pub fn target(path: &Path, what: &str) -> Result<Target, Error> {
    let cannot = format!("cannot write the {what} to {}", path.display());
    Target::of(path).map_err(|e| Error::caused(cannot, e))
}

impl Outputs {
    /// The outputs named by `summary`, `hist` and `plot`.
    pub fn of(
        summary: Option<&Path>,
        hist: Option<&Path>,
        plot: Option<&Path>,
        cycles: Option<&Path>,
    ) -> Result<Outputs, Error> {
        let find = |path: Option<&Path>, what: &str| -> Result<Option<(Target, PathBuf)>, Error> {
            path.map(|path| Ok((target(path, what)?, path.to_path_buf())))
                .transpose()
        };
        Ok(Outputs {
            json: find(summary, "summary")?,
            hist: find(hist, "histograms")?,
            plot: find(plot, "plot")?,
            cycles: find(cycles, "cycles")?,
        })
    }

    fn each(&self) -> impl Iterator<Item = (&'static str, &(Target, PathBuf))> {
        [
            ("summary", &self.json),
            ("histograms", &self.hist),
            ("plot", &self.plot),
            ("cycles", &self.cycles),
        ]
        .into_iter()
        .filter_map(|(what, output)| output.as_ref().map(|o| (what, o)))
    }

    /// Tries every output before any work.
    pub fn check(&self) -> Result<(), Error> {
        for (what, (target, path)) in self.each() {
            target.check().map_err(Error::context(format!(
                "cannot write the {what} to {}",
                path.display()
            )))?;
        }
        Ok(())
    }

    /// Writes each output from the summary and its accumulator.
    pub fn write(&self, summary: &Summary, acc: &Accumulator) -> Result<(), Error> {
        let finish = |output: &Option<(Target, PathBuf)>,
                      what: &str,
                      fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>|
         -> Result<(), Error> {
            let Some((target, path)) = output else {
                return Ok(());
            };
            target
                .write_with(|out| fill(out))
                .map_err(Error::context(format!(
                    "cannot write the {what} to {}",
                    path.display()
                )))
        };
        if self.cycles.is_some() {
            let rows = summary
                .cycles
                .as_deref()
                .ok_or_else(|| Error::from(crate::error::JobError::SummaryWithoutCycles))?;
            finish(&self.cycles, "cycles", &mut |out| {
                exports::write_cycles_csv(rows, out)
            })?;
        }
        finish(&self.json, "summary", &mut |out| {
            out.write_all(summary.to_json().as_bytes())
        })?;
        finish(&self.hist, "histograms", &mut |out| {
            exports::write_hist_csv(acc, out)
        })?;
        if self.plot.is_some() {
            let svg = exports::plot_svg(summary, acc)?;
            finish(&self.plot, "plot", &mut |out| out.write_all(svg.as_bytes()))?;
        }
        Ok(())
    }
}
