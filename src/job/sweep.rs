//! A sweep as a command runs it: the games of [`Sweep`] and the files around them. Every output is
//! found and tried, and a checkpoint looked for, before the first game ([`Job::prepare`]); the
//! sweep then plays, streams its CSV, saves checkpoints, and writes the other outputs when it
//! ends or is stopped ([`Ready::run`]). A stopped or killed sweep resumes from its checkpoint with
//! outputs byte-identical to an uninterrupted run's.

use super::JobError;
use crate::deal::seeds::Seeds;
use crate::error::Error;
use crate::gpu::DeviceError;
use crate::output::accumulator::Accumulator;
use crate::output::checkpoint::{self, Checkpoint, CsvMark, Resumed};
use crate::output::files::{self, Pending, Stream, Target};
use crate::output::outputs::{target, Outputs};
use crate::output::setting::SweepSetting;
use crate::output::summary::Summary;
use crate::sweep::{Checkpoints, CsvSink, Progress, RowSink, Stop, Sweep, SweepError};
use std::fs::{File, OpenOptions};
use std::io::{self, Seek};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Seeds past which a sweep is noted as one no machine finishes: 10^15 games are over a year at
/// 30 million games a second, the pace of many cores on small decks.
const LIFETIME_SEEDS: u128 = 1_000_000_000_000_000;

/// The files a sweep writes, as named (`-` is stdout).
///
/// ```
/// use warsweep::job::Files;
/// // The CSV to stdout, the summary to a file; nothing else.
/// let files = Files {
///     csv: Some("-".into()),
///     summary: Some("summary.json".into()),
///     ..Files::default()
/// };
/// assert!(files.hist.is_none() && files.to_stdout());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Files {
    /// The per-game CSV.
    pub csv: Option<PathBuf>,
    /// The JSON summary.
    pub summary: Option<PathBuf>,
    /// The histograms as CSV.
    pub hist: Option<PathBuf>,
    /// The SVG plot.
    pub plot: Option<PathBuf>,
    /// The distinct cycles as CSV.
    pub cycles: Option<PathBuf>,
}

/// A sweep and its files.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use std::time::Duration;
/// use warsweep::job::{Files, Job};
/// use warsweep::{Preset, Rules, Seeds, Shuffle, Summary, Sweep};
/// let dir = std::env::temp_dir().join(format!("warsweep-job-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let summary = dir.join("classic.json");
/// let job = Job {
///     sweep: Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, Seeds::new(0, 1_000)?),
///     files: Files { summary: Some(summary.clone()), ..Files::default() },
///     resume: false,
///     checkpoint_every: Duration::from_secs(60),
/// };
/// let ready = job.prepare(&mut |note| eprintln!("{note}"))?;
/// let done = ready.run(&|_| {}, &AtomicBool::new(false))?;
/// assert_eq!((done.stopped, done.summary.games()), (None, 1_000));
/// assert_eq!(Summary::read(&summary)?, done.summary);
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Job {
    /// The games.
    pub sweep: Sweep,
    /// The files.
    pub files: Files,
    /// Continue from the checkpoint a stopped run of the same job left.
    pub resume: bool,
    /// Time between two checkpoints.
    pub checkpoint_every: Duration,
}

/// A job whose outputs are checked and whose CSV is open, ready to play.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use warsweep::job::{Files, Job};
/// use warsweep::{Preset, Rules, Seeds, Shuffle, Sweep};
/// let job = Job {
///     sweep: Sweep::new(Rules::preset(Preset::Bataille), Shuffle::Splitmix, Seeds::new(0, 100)?),
///     files: Files::default(),
///     resume: false,
///     checkpoint_every: std::time::Duration::from_secs(60),
/// };
/// let ready = job.prepare(&mut |_| {})?;
/// assert_eq!(ready.already_played(), 0);
/// let done = ready.run(&|_| {}, &AtomicBool::new(false))?;
/// assert!(done.table().contains("games"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Ready {
    job: Job,
    setting: SweepSetting,
    csv_target: Option<Target>,
    /// The CSV's file, its links resolved, when it is a file (and so can be resumed).
    csv_file: Option<PathBuf>,
    csv: Option<(Pending, u64)>,
    outputs: Outputs,
    /// Where the checkpoint is kept, if the sweep keeps one.
    state: Option<PathBuf>,
    resumed: Option<Resumed>,
    /// The walk counts mirror deals with the deal played ([`Sweep::mirror`]).
    mirrored: bool,
}

/// What a finished or stopped sweep leaves.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use warsweep::job::{Files, Job};
/// use warsweep::{Preset, Rules, Seeds, Shuffle, Stop, Sweep};
/// let seeds = Seeds::new(0, 50_000)?;
/// let job = Job {
///     sweep: Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, seeds).pacing(100, 1_000),
///     files: Files::default(),
///     resume: false,
///     checkpoint_every: std::time::Duration::from_secs(60),
/// };
/// // Stopped at once: the first window is played, and the table says it is partial.
/// let done = job.prepare(&mut |_| {})?.run(&|_| {}, &AtomicBool::new(true))?;
/// assert_eq!(done.stopped, Some(Stop::Interrupted));
/// assert!(done.table().starts_with("partial: only seeds 0.."));
/// assert!(done.played(seeds, "--resume").contains("of 0..50000 were played"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Done {
    /// The summary of the seeds played (`summary.seeds`), as the outputs hold it.
    pub summary: Summary,
    /// Why it stopped before the end of its seeds, if it did.
    pub stopped: Option<Stop>,
    /// Whether the same job with `resume` plays the rest (a checkpoint was kept).
    pub(crate) resumable: bool,
    /// The walk counted mirror deals with the deal played: stopped, it wrote no output.
    pub(crate) mirrored: bool,
}

impl Files {
    /// Each output given, as what it is in a sentence (`the CSV`) and its path.
    fn named(&self) -> Vec<(&'static str, &Path)> {
        [
            ("the CSV", self.csv.as_deref()),
            ("the summary", self.summary.as_deref()),
            ("the histograms", self.hist.as_deref()),
            ("the plot", self.plot.as_deref()),
            ("the cycles", self.cycles.as_deref()),
        ]
        .into_iter()
        .filter_map(|(role, path)| path.map(|p| (role, p)))
        .collect()
    }

    /// The first output that exists as a regular file: a finished run's, where a resume finds
    /// no checkpoint.
    fn existing_output(&self) -> Option<PathBuf> {
        files::first_existing(self.named().into_iter().map(|(_, path)| path))
    }

    /// Whether one of the files is stdout (`-`), where the readable table then cannot go.
    pub fn to_stdout(&self) -> bool {
        [
            &self.csv,
            &self.summary,
            &self.hist,
            &self.plot,
            &self.cycles,
        ]
        .into_iter()
        .flatten()
        .any(|path| matches!(Target::of(path), Ok(Target::Stdout)))
    }
}

impl Done {
    /// The readable table of the seeds played; a sweep stopped early says so above it.
    pub fn table(&self) -> String {
        match self.stopped {
            None => self.summary.table(),
            Some(_) => format!(
                "partial: only seeds {}..{} were played\n{}",
                self.summary.seeds.start(),
                self.summary.seeds.end(),
                self.summary.table()
            ),
        }
    }

    /// What a sweep that stopped early says: which seeds the outputs cover, out of `seeds`, and
    /// how to play the rest, with `resume` the front-end's word for resuming (`--resume`).
    pub fn played(&self, seeds: Seeds, resume: &str) -> String {
        let covered = self.summary.seeds;
        let rest = match (self.stopped, self.resumable) {
            (Some(Stop::Interrupted), true) => {
                format!("; the same sweep with {resume} plays the rest")
            }
            _ => String::new(),
        };
        if self.mirrored {
            // Its tallies count mirror deals past the seeds played: they cover no range.
            let kept = if self.resumable {
                format!("its checkpoint keeps them, and the same sweep with {resume} plays the rest and writes every output")
            } else {
                "nothing was written: keep a summary (a checkpoint is kept beside it), or play every deal".to_string()
            };
            return format!(
                "seeds {}..{} of {}..{} were played, with the mirrors of their deals; a walk that counts mirror deals writes its outputs when it ends: {kept}",
                covered.start(), covered.end(), seeds.start(), seeds.end()
            );
        }
        format!(
            "seeds {}..{} of {}..{} were played, and every output covers exactly those{rest}",
            covered.start(),
            covered.end(),
            seeds.start(),
            seeds.end()
        )
    }
}

impl Job {
    /// Finds and tries every output, refuses names that clash or that the sweep keeps for itself,
    /// and loads the checkpoint (refusing one that exists without `resume`). `note` hears what a
    /// user may want to know (the lcg's repeated deals, a missing checkpoint). Nothing at any
    /// output path changes if this fails.
    pub fn prepare(self, note: &mut dyn FnMut(String)) -> Result<Ready, Error> {
        self.check_sweep(note)?;
        let files = &self.files;
        let csv_target = files
            .csv
            .as_deref()
            .map(|path| target(path, "CSV"))
            .transpose()?;
        let outputs = Outputs::of(
            files.summary.as_deref(),
            files.hist.as_deref(),
            files.plot.as_deref(),
            files.cycles.as_deref(),
        )?;
        let named = files.named();
        if let Some(message) = files::clash(&named) {
            return Err(Error::msg(message));
        }
        // Only a CSV in a file can be cut back and continued; a sweep whose CSV streams to
        // stdout, a pipe or a device keeps no checkpoint.
        let csv_file = csv_target
            .as_ref()
            .and_then(Target::file)
            .map(Path::to_path_buf);
        let csv_streams = csv_target.is_some() && csv_file.is_none();
        if self.resume && csv_streams {
            return Err(JobError::ResumeStreamed.into());
        }
        // The checkpoint is kept beside the first output that is a file.
        let anchor = named
            .iter()
            .find(|(_, path)| matches!(Target::of(path), Ok(Target::File(_))))
            .filter(|_| !csv_streams);
        let state = anchor.map(|(_, anchor)| checkpoint::path_for(anchor));
        if self.resume && state.is_none() {
            return Err(JobError::ResumeWithoutFile.into());
        }
        let checkpoint = state.as_deref().zip(anchor.map(|(_, anchor)| *anchor));
        refuse_own_names(&named, checkpoint, csv_file.as_deref())?;
        if let (Some(target), Some(path)) = (&csv_target, files.csv.as_deref()) {
            target.check().map_err(Error::context(format!(
                "cannot write the CSV to {}",
                path.display()
            )))?;
        }
        outputs.check()?;
        let setting =
            SweepSetting::of(&self.sweep.rules, self.sweep.shuffle, self.sweep.max_rounds);
        let mirrored = self.sweep.mirror(csv_target.is_some()).is_some();
        let resumed = match &state {
            None => None,
            Some(path) => {
                let csv = files.csv.as_deref().filter(|_| csv_file.is_some());
                self.load_checkpoint(path, &setting, csv, mirrored, note)?
            }
        };
        let csv = csv_file
            .as_deref()
            .map(|file| {
                let resume = resumed.as_ref().map(|r| (r.csv_bytes, r.csv_tail.as_str()));
                open_csv(file, resume)
            })
            .transpose()?;
        if let Some(repeats) = self.sweep.repeats_note() {
            note(repeats);
        }
        Ok(Ready {
            job: self,
            setting,
            csv_target,
            csv_file,
            csv,
            outputs,
            state,
            resumed,
            mirrored,
        })
    }
}

impl Job {
    /// Refuses a sweep that cannot be played (what the GPU cannot play, before any file is
    /// made), and notes what does nothing.
    fn check_sweep(&self, note: &mut dyn FnMut(String)) -> Result<(), Error> {
        self.sweep.check()?;
        let unfit = self.sweep.unfit_for_gpu(self.files.csv.is_some());
        if !unfit.is_empty() {
            return Err(SweepError::Device(DeviceError::Unfit(unfit)).into());
        }
        if let Some(inert) = self.sweep.rules.inert_ranking() {
            note(inert);
        }
        let games = self.sweep.seeds.len();
        if games > LIFETIME_SEEDS {
            note(format!("{} seeds are more than any machine plays (10^15 take a year at 30 million games a second): stop the sweep when it has played enough, and what it played is written", crate::text::group(games)));
        }
        if !self.sweep.mirrors && !self.sweep.has_mirrors() {
            note("playing every deal changes only lex walks of a symmetric setting, which otherwise play one deal of each mirror pair: this sweep plays every seed of its range anyway".to_string());
        }
        Ok(())
    }

    /// The checkpoint at `path` to resume from, checked against this sweep: `None` where there
    /// is none (with a note when asked to resume), an error where one exists unasked.
    fn load_checkpoint(
        &self,
        path: &Path,
        setting: &SweepSetting,
        csv: Option<&Path>,
        mirrored: bool,
        note: &mut dyn FnMut(String),
    ) -> Result<Option<Resumed>, Error> {
        let seeds = self.sweep.seeds;
        // A run killed while saving its checkpoint left the new one half-written.
        files::remove_stale(path);
        match Checkpoint::load(path)? {
            Some(saved) if self.resume => {
                Ok(Some(saved.resume(path, setting, seeds, csv, mirrored)?))
            }
            Some(saved) => Err(JobError::Unfinished {
                checkpoint: path.to_path_buf(),
                played: saved.summary.seeds,
                of: saved.seeds,
            }
            .into()),
            None => {
                if self.resume {
                    if let Some(output) = self.files.existing_output() {
                        return Err(JobError::NothingToResume {
                            checkpoint: path.to_path_buf(),
                            output,
                        }
                        .into());
                    }
                    note(format!(
                        "no checkpoint at {}: starting at seed {}",
                        path.display(),
                        seeds.start()
                    ));
                }
                Ok(None)
            }
        }
    }
}

/// Refuses an output named as a file the sweep keeps for itself, which it removes or renames
/// when it ends: its `checkpoint` (kept beside the given output), or the CSV's partial file
/// while it streams (`csv_file`). `named` is each output's flag and path.
fn refuse_own_names(
    named: &[(&str, &Path)],
    checkpoint: Option<(&Path, &Path)>,
    csv_file: Option<&Path>,
) -> Result<(), Error> {
    let mut own: Vec<(PathBuf, String)> = Vec::new();
    if let Some((path, anchor)) = checkpoint {
        let why = format!(
            "where this sweep keeps its checkpoint (beside {})",
            anchor.display()
        );
        own.push((path.to_path_buf(), why));
    }
    if let Some(file) = csv_file {
        let why = "where this sweep streams its CSV until it is complete".to_string();
        own.push((checkpoint::partial_csv(file), why));
    }
    for (role, path) in named {
        let id = files::identity(path);
        if let Some((_, why)) = own.iter().find(|(p, _)| files::identity(p) == id) {
            return Err(Error::msg(format!(
                "{} is {why}: give {role} another name",
                path.display()
            )));
        }
    }
    Ok(())
}

impl Ready {
    /// Saves the checkpoint of the seeds up to `covered_end`, tallied in `acc`, whose rows
    /// take `csv_bytes` of the CSV, after `elapsed` seconds in all (nothing without one).
    fn save(
        &self,
        covered_end: u128,
        acc: &Accumulator,
        bytes: u64,
        elapsed: f64,
    ) -> io::Result<()> {
        let Some(path) = &self.state else {
            return Ok(());
        };
        let tail = match &self.csv_file {
            Some(file) => checkpoint::csv_tail(&checkpoint::partial_csv(file), bytes)?,
            None => String::new(),
        };
        let csv = CsvMark {
            target: self
                .job
                .files
                .csv
                .as_deref()
                .filter(|_| self.csv_file.is_some()),
            bytes,
            tail,
        };
        let seeds = self.job.sweep.seeds;
        let checkpoint = Checkpoint::new(
            &self.setting,
            seeds,
            covered_end,
            acc,
            elapsed,
            csv,
            self.mirrored,
        );
        checkpoint.save(path)
    }

    /// Seeds a resumed run has already played.
    pub fn already_played(&self) -> u64 {
        let start = self.job.sweep.seeds.start() as u128;
        self.resumed
            .as_ref()
            .map_or(0, |r| (r.covered_end - start).min(u64::MAX as u128) as u64)
    }

    /// Plays the seeds, streaming the CSV and saving checkpoints, until the end or until `stop`
    /// is set (checked between windows); then writes every output for the seeds played.
    /// `progress` hears how many seeds each chunk finished.
    pub fn run(
        mut self,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> Result<Done, Error> {
        let job = &self.job;
        let seeds = job.sweep.seeds;
        let csv_path = job.files.csv.as_deref();
        let (elapsed_before, resume_from) = match self.resumed.take() {
            Some(r) => (r.elapsed_seconds, Some((r.covered_end, r.acc))),
            None => (0.0, None),
        };
        let started = Instant::now();
        let elapsed = || elapsed_before + started.elapsed().as_secs_f64();
        let (state, setting, mirrored) = (&self.state, &self.setting, self.mirrored);
        let mut pending = self.csv.take();
        let save = |covered_end: u128, acc: &Accumulator, csv_bytes: u64| {
            self.save(covered_end, acc, csv_bytes, elapsed())
        };
        let mut periodic = |p: Progress| save(p.covered_end, p.acc, p.csv_bytes);
        let checkpoints = state.is_some().then_some(Checkpoints {
            every: job.checkpoint_every,
            save: &mut periodic,
        });
        let csv_error = match csv_path {
            Some(path) if path != Path::new("-") => {
                format!("cannot write the CSV to {}", path.display())
            }
            _ => "cannot write the CSV to stdout".to_string(),
        };
        let mut csv_sink = CsvTo::open(&mut pending, &self.csv_target, csv_path, &csv_error)?;
        let sink = csv_sink.as_mut().map(CsvTo::sink);
        let swept = job
            .sweep
            .play(None, resume_from, sink, progress, stop, checkpoints)
            .map_err(|e| match e {
                SweepError::Io(e) => Error::io(&csv_error, e),
                e => Error::from(e),
            })?;
        if swept.stopped == Some(Stop::TooManyCycles) {
            return Err(SweepError::TooManyCycles.into());
        }
        let covered = seeds.up_to(swept.covered_end);
        let mut summary = Summary::new(setting, covered, &swept.acc, elapsed());
        let pairs = job.sweep.pairs;
        if mirrored && pairs != seeds {
            summary.mirrors_within = Some(pairs);
        }
        let csv_bytes = match &mut csv_sink {
            Some(CsvTo::File(sink)) => sink.sync().map_err(Error::context(&csv_error))?,
            _ => 0,
        };
        // A pipe's reader sees the end of the CSV now, not when the process exits.
        drop(csv_sink);
        if swept.stopped == Some(Stop::Interrupted) {
            // The checkpoint first: whatever happens next, --resume finds the CSV (moved or not).
            save(covered.end(), &swept.acc, csv_bytes)
                .map_err(Error::context("cannot save the checkpoint"))?;
        }
        if let Some((pending, _)) = pending {
            pending.commit().map_err(Error::context(&csv_error))?;
        }
        let interrupted = swept.stopped == Some(Stop::Interrupted);
        if !(mirrored && interrupted) {
            self.outputs.write(&summary, &swept.acc)?;
        }
        if let (None, Some(path)) = (swept.stopped, state) {
            remove_checkpoint(path)?;
        }
        Ok(Done {
            summary,
            stopped: swept.stopped,
            resumable: state.is_some(),
            mirrored,
        })
    }
}

/// Where a sweep's CSV goes: each kind of file as its own sink.
enum CsvTo {
    File(CsvSink<File>),
    Stdout(CsvSink<io::Stdout>),
    Stream(CsvSink<Stream>),
}

impl CsvTo {
    /// The sink of the CSV: the partial file `pending` (after the `bytes` a resumed run
    /// keeps), stdout, or the stream at `path`; `None` without a CSV.
    fn open(
        pending: &mut Option<(Pending, u64)>,
        target: &Option<Target>,
        path: Option<&Path>,
        csv_error: &str,
    ) -> Result<Option<CsvTo>, Error> {
        Ok(match (pending, target, path) {
            (Some((pending, bytes)), _, _) => {
                let file = pending.file().try_clone();
                let file = file.map_err(Error::context(csv_error))?;
                Some(CsvTo::File(CsvSink::after(file, *bytes)))
            }
            (None, Some(Target::Stdout), _) => Some(CsvTo::Stdout(CsvSink::new(io::stdout()))),
            (None, Some(Target::Stream(_)), Some(path)) => {
                let stream = Stream::open(path).map_err(Error::context(csv_error))?;
                Some(CsvTo::Stream(CsvSink::new(stream)))
            }
            _ => None,
        })
    }

    fn sink(&mut self) -> &mut dyn RowSink {
        match self {
            CsvTo::File(sink) => sink,
            CsvTo::Stdout(sink) => sink,
            CsvTo::Stream(sink) => sink,
        }
    }
}

/// Removes the checkpoint of a complete sweep (none there is no error).
fn remove_checkpoint(path: &Path) -> Result<(), Error> {
    match std::fs::remove_file(path) {
        Ok(()) => files::sync_folder(path),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => {
            let why = format!(
                "the sweep is complete but its checkpoint {} cannot be removed",
                path.display()
            );
            return Err(Error::io(why, e));
        }
    }
    Ok(())
}

/// Opens the CSV's partial file: new, or (resuming) the one a stopped run left, cut back to the
/// `bytes` its checkpoint counts. A run stopped by a signal had moved it into place: it moves back.
fn open_csv(target: &Path, resume: Option<(u64, &str)>) -> Result<(Pending, u64), Error> {
    let partial = checkpoint::partial_csv(target);
    let cannot = || Error::context(format!("cannot write the CSV to {}", partial.display()));
    let Some((bytes, tail)) = resume else {
        let file = File::create(&partial).map_err(cannot())?;
        return Ok((Pending::kept(target, partial, file), 0));
    };
    // The stopped run's CSV: still streaming (partial), or moved into place by a clean stop.
    // Checked before anything is touched, so that a refused resume changes no file.
    let source = if !partial.exists() && target.exists() {
        target.to_path_buf()
    } else {
        partial.clone()
    };
    let len = std::fs::metadata(&source)
        .map_err(Error::context(format!(
            "cannot resume: the CSV of the stopped run, {}, cannot be read",
            source.display()
        )))?
        .len();
    if len < bytes {
        return Err(Error::msg(format!(
            "cannot resume: {} holds {len} bytes but its checkpoint counts {bytes}: it is not the CSV this sweep was writing; move it and the checkpoint away to start over",
            source.display()
        )));
    }
    if checkpoint::csv_tail(&source, bytes).map_err(cannot())? != tail {
        return Err(Error::msg(format!(
            "cannot resume: {} does not hold the rows its checkpoint describes: it is not the CSV this sweep was writing; move it and the checkpoint away to start over",
            source.display()
        )));
    }
    if source != partial {
        std::fs::rename(&source, &partial).map_err(cannot())?;
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(&partial)
        .map_err(cannot())?;
    file.set_len(bytes).map_err(cannot())?;
    file.seek(io::SeekFrom::End(0)).map_err(cannot())?;
    Ok((Pending::kept(target, partial, file), bytes))
}
