//! A sweep as the command line runs it: its games and the files around them (per-game CSV,
//! summary, histograms, plot, distinct cycles), checked before the first game, with checkpoints
//! that a stopped or killed sweep resumes from; and the merging and plotting of summaries.
//! Outputs are named by path, `-` being stdout; a file is replaced only once complete. `sweep`
//! is a sweep's job; this file, the merging, plotting and hunts' files.

mod sweep;

pub use crate::error::{Error, JobError};
pub use crate::output::checkpoint::CheckpointError;
pub use crate::output::files::TargetError;
pub use crate::output::report::PlotError;
pub use sweep::{Done, Files, Job, Ready};

use crate::hunt::{parse_hands, Report};
use crate::output::files;
use crate::output::metric::Metric;
use crate::output::outputs::{target, Outputs};
use crate::output::report;
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
    let svg = report::overlay(inputs, metric, title, log)?;
    to.write_with(|out| out.write_all(svg.as_bytes()))
        .map_err(Error::context(&cannot))
}

/// The files of a hunt: its report (JSON, for `--join` and `--start`) and its log of
/// improvements (CSV), each a path (`-` is stdout).
///
/// ```
/// use warsweep::hunt::{Goal, Hunt, Report};
/// use warsweep::job::HuntFiles;
/// use warsweep::{Deck, Metric, Preset, Settings};
/// let dir = std::env::temp_dir().join(format!("warsweep-hunt-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let files = HuntFiles { report: Some(dir.join("hunt.json")), log: Some(dir.join("log.csv")) };
/// files.check(&[])?;
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x4")?).build()?;
/// let hunt = Hunt::new(rules, Goal::Longest(Metric::Rounds)).games(Some(2_000));
/// let report = Report::of(&hunt, &hunt.run(&|_| {}, &Default::default())?);
/// files.write(&report)?;
/// assert_eq!(warsweep::job::read_report(&dir.join("hunt.json"))?, report);
/// assert!(std::fs::read_to_string(dir.join("log.csv"))?.starts_with("stream,seconds,games,value,hands\n"));
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct HuntFiles {
    /// The report, as JSON.
    pub report: Option<PathBuf>,
    /// The log, as CSV (`stream,seconds,games,value,hands`).
    pub log: Option<PathBuf>,
}

impl HuntFiles {
    /// Tries both outputs before the hunt: neither one of `inputs` (a starting file, reports
    /// joined), nor named twice, each writable. Nothing at either path changes.
    pub fn check(&self, inputs: &[PathBuf]) -> Result<(), Error> {
        let (report, log) = (self.report.as_deref(), self.log.as_deref());
        files::check_inputs_and_outputs(inputs, &[("the report", report), ("the log", log)])?;
        for (path, what) in [(report, "report"), (log, "log")] {
            if let Some(path) = path {
                let cannot = format!("cannot write the {what} to {}", path.display());
                target(path, what)?
                    .check()
                    .map_err(Error::context(&cannot))?;
            }
        }
        Ok(())
    }

    /// Writes the report and the log, each whole or not at all.
    pub fn write(&self, report: &Report) -> Result<(), Error> {
        if let Some(path) = &self.report {
            let cannot = format!("cannot write the report to {}", path.display());
            let json = report.to_json();
            target(path, "report")?
                .write_with(|out| out.write_all(json.as_bytes()))
                .map_err(Error::context(&cannot))?;
        }
        if let Some(path) = &self.log {
            let cannot = format!("cannot write the log to {}", path.display());
            let mut csv = String::from("stream,seconds,games,value,hands\n");
            for entry in &report.log {
                csv.push_str(&format!(
                    "{},{:.3},{},{},\"{}\"\n",
                    entry.stream, entry.seconds, entry.games, entry.value, entry.hands
                ));
            }
            target(path, "log")?
                .write_with(|out| out.write_all(csv.as_bytes()))
                .map_err(Error::context(&cannot))?;
        }
        Ok(())
    }
}

/// The hunt report at `path`.
pub fn read_report(path: &Path) -> Result<Report, Error> {
    let text = std::fs::read_to_string(path).map_err(Error::context(format!(
        "cannot read the report {}",
        path.display()
    )))?;
    Report::from_json(&text).map_err(|e| Error::msg(format!("{}: {e}", path.display())))
}

/// The deals a hunt of `rules` starts from, read from `path`: a hunt's report (its best
/// deals), a CSV with a `hands` column (a hunt's log, or the record table, whose rows of
/// another deck or gather are left out), or hands as `play` reads them (one deal). Each deal's
/// hands, values from 1; the hunt checks they are deals of its setting.
pub fn read_start(path: &Path, rules: &crate::Rules) -> Result<Vec<Vec<Vec<u8>>>, Error> {
    let bytes =
        std::fs::read(path).map_err(Error::context(format!("cannot read {}", path.display())))?;
    let said = |why: String| Error::msg(format!("{}: {why}", path.display()));
    let text = String::from_utf8_lossy(&bytes);
    // A report: JSON, or a file named as one (which then must be one).
    if text.trim_start().starts_with('{') || path.extension().is_some_and(|e| e == "json") {
        let report = Report::from_json(&text).map_err(|e| said(e.to_string()))?;
        return report.deals().map_err(|e| said(e.to_string()));
    }
    let first = text.lines().next().unwrap_or("");
    if first.split(',').any(|c| c.trim() == "hands") {
        let mut reader = csv::Reader::from_reader(bytes.as_slice());
        let header = reader.headers().map_err(|e| said(e.to_string()))?.clone();
        let column = |name: &str| header.iter().position(|h| h == name);
        let hands_at = column("hands").expect("a hands column");
        let wanted = [
            (column("deck"), rules.deck().to_string()),
            (column("gather"), rules.gather().to_string()),
        ];
        let mut deals = Vec::new();
        for row in reader.records() {
            let row = row.map_err(|e| said(e.to_string()))?;
            let mine = wanted
                .iter()
                .all(|(at, value)| at.is_none_or(|at| row.get(at) == Some(value.as_str())));
            if mine {
                let hands = row.get(hands_at).unwrap_or("");
                deals.push(parse_hands(hands).map_err(said)?);
            }
        }
        if deals.is_empty() {
            return Err(said(format!(
                "no row is of the deck {} and the gather {}",
                rules.deck(),
                rules.gather()
            )));
        }
        return Ok(deals);
    }
    let hands = crate::puzzles::parse_hands(&bytes, rules.deck())
        .map_err(|e| said(format!("reading hands: {e}")))?;
    Ok(vec![hands
        .iter()
        .map(|hand| hand.iter().map(|c| c.value() + 1).collect())
        .collect()])
}
