//! A hunt as the command line runs it: its files tried before the first game, the deals it
//! starts from or the report it continues, its checkpoint (kept beside its first output file,
//! refused when unasked, resumed when asked), and its report and log written whole.

use super::JobError;
use crate::error::Error;
use crate::hunt::{Checkpoint, Hunt, Report, Status};
use crate::output::checkpoint::path_for;
use crate::output::files::{self, write_atomically, Target};
use crate::output::outputs::target;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Duration;

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
/// assert!(std::fs::read_to_string(dir.join("log.csv"))?.starts_with("stream,seconds,games,value,hands,built,fell_back\n"));
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct HuntFiles {
    /// The report, as JSON.
    pub report: Option<PathBuf>,
    /// The log, as CSV (`stream,seconds,games,value,hands,built,fell_back`,
    /// the last two a building strategy's counts so far).
    pub log: Option<PathBuf>,
}

impl HuntFiles {
    /// Tries both outputs before the hunt: neither one of `inputs` (a starting file, reports
    /// joined), nor named twice, nor the checkpoint's name, each writable. Nothing at either
    /// path changes.
    pub fn check(&self, inputs: &[PathBuf]) -> Result<(), Error> {
        let (report, log) = (self.report.as_deref(), self.log.as_deref());
        let checkpoint = self.checkpoint();
        files::check_inputs_and_outputs(
            inputs,
            &[
                ("the report", report),
                ("the log", log),
                ("the checkpoint", checkpoint.as_deref()),
            ],
        )?;
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

    /// Where the hunt keeps its checkpoint: beside the report, or the log, whichever is first
    /// a file (`FILE.resume`).
    pub fn checkpoint(&self) -> Option<PathBuf> {
        [&self.report, &self.log]
            .into_iter()
            .flatten()
            .find(|path| matches!(Target::of(path), Ok(Target::File(_))))
            .map(|path| path_for(path))
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
            let csv = report.log_csv();
            target(path, "log")?
                .write_with(|out| out.write_all(csv.as_bytes()))
                .map_err(Error::context(&cannot))?;
        }
        Ok(())
    }

    /// The first output that exists as a regular file.
    fn existing(&self) -> Option<PathBuf> {
        files::first_existing([&self.report, &self.log].into_iter().flatten())
    }
}

/// A hunt with its files: where it starts from, whether it resumes a stopped run of the same
/// command, and how often it saves its checkpoint.
///
/// ```
/// use std::time::Duration;
/// use warsweep::hunt::{Goal, Hunt};
/// use warsweep::job::{HuntFiles, HuntJob};
/// use warsweep::{Deck, Metric, Preset, Settings};
/// let dir = std::env::temp_dir().join(format!("warsweep-huntjob-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x5")?).build()?;
/// let job = HuntJob {
///     hunt: Hunt::new(rules, Goal::Longest(Metric::Rounds)).games(Some(8_192)),
///     files: HuntFiles { report: Some(dir.join("hunt.json")), log: None },
///     start: None,
///     resume: false,
///     checkpoint_every: Duration::from_secs(2),
/// };
/// let run = job.prepare(&mut |_| {})?.run(&|_| {}, &Default::default(), &Default::default(), &Default::default())?;
/// assert_eq!(run.report.games(), 8_192);
/// // A hunt that spent its budget keeps no checkpoint.
/// assert!(!dir.join("hunt.json.resume").exists());
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct HuntJob {
    /// The hunt.
    pub hunt: Hunt,
    /// Its outputs.
    pub files: HuntFiles,
    /// What it starts from ([`read_start`]): a report it continues, or deals.
    pub start: Option<PathBuf>,
    /// Whether to resume a stopped run of the same hunt from its checkpoint.
    pub resume: bool,
    /// Time between two checkpoints (one is also saved at every stop).
    pub checkpoint_every: Duration,
}

/// What a hunt's run gave: its report, and the checkpoint it keeps when it stopped before its
/// budget was spent.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use std::time::Duration;
/// use warsweep::hunt::{Goal, Hunt};
/// use warsweep::job::{HuntFiles, HuntJob};
/// use warsweep::{Deck, Metric, Preset, Settings};
/// let dir = std::env::temp_dir().join(format!("warsweep-huntrun-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x5")?).build()?;
/// let job = HuntJob {
///     hunt: Hunt::new(rules, Goal::Longest(Metric::Rounds)).games(Some(100_000)),
///     files: HuntFiles { report: Some(dir.join("hunt.json")), log: None },
///     start: None,
///     resume: false,
///     checkpoint_every: Duration::from_secs(2),
/// };
/// // Stopped at once (as by a signal): its report is written, and its checkpoint kept.
/// let run = job.prepare(&mut |_| {})?.run(&|_| {}, &AtomicBool::new(true), &Default::default(), &Default::default())?;
/// assert_eq!(run.report.games(), 0);
/// assert_eq!(run.checkpoint, Some(dir.join("hunt.json.resume")));
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct HuntRun {
    /// The report, as written.
    pub report: Report,
    /// Where its checkpoint stays, when it stopped with one (`--resume` goes on from it).
    pub checkpoint: Option<PathBuf>,
}

impl HuntJob {
    /// Tries the outputs, reads the start, and loads the checkpoint (refusing one that exists
    /// without `resume`, and a resume with nothing to resume but an output to replace); the
    /// hunt checked. Nothing at any output path changes if this fails.
    pub fn prepare(mut self, note: &mut dyn FnMut(String)) -> Result<HuntJob, Error> {
        let inputs: Vec<PathBuf> = self.start.iter().cloned().collect();
        self.files.check(&inputs)?;
        let checkpoint = self.files.checkpoint();
        if self.resume && checkpoint.is_none() {
            return Err(JobError::HuntResumeWithoutFile.into());
        }
        if let Some(path) = &self.start {
            self.hunt = start(self.hunt, path)?;
        }
        if let Some(path) = &checkpoint {
            files::remove_stale(path);
            match load(path)? {
                Some(saved) if self.resume => {
                    self.hunt = self.hunt.resume(&saved).map_err(|e| typed_at(path, e))?;
                }
                Some(saved) => {
                    return Err(JobError::UnfinishedHunt {
                        checkpoint: path.clone(),
                        games: saved.games(),
                    }
                    .into())
                }
                None if self.resume => {
                    if let Some(output) = self.files.existing() {
                        return Err(JobError::NothingToResume {
                            checkpoint: path.clone(),
                            output,
                        }
                        .into());
                    }
                    note(format!(
                        "no checkpoint at {}: starting afresh",
                        path.display()
                    ));
                }
                None => {}
            }
        }
        self.hunt.check()?;
        if let Some(line) = self.hunt.builds()? {
            note(line.to_string());
        }
        Ok(self)
    }

    /// Hunts, saving the checkpoint now and then and at a stop, then writes the report and
    /// the log; removes the checkpoint of a hunt that spent its budget. `writing` is held
    /// while a file is written, so that a caller that ends the process takes it first; and
    /// `rescue` keeps the last checkpoint, for a caller that must end the process before the
    /// hunt ends ([`Rescue::write`]).
    pub fn run(
        &self,
        progress: &(dyn Fn(Status) + Sync),
        stop: &AtomicBool,
        writing: &Mutex<()>,
        rescue: &Rescue,
    ) -> Result<HuntRun, Error> {
        let checkpoint = self.files.checkpoint();
        let mut failed = None;
        let mut save = |saved: &Checkpoint| {
            let _writing = writing.lock();
            if let Some(path) = &checkpoint {
                if let Err(e) = write_atomically(path, saved.to_json().as_bytes()) {
                    let cannot = format!("cannot save the checkpoint {}", path.display());
                    failed.get_or_insert(Error::io(cannot, e));
                }
            }
            rescue.keep(saved);
        };
        let hunted = self
            .hunt
            .run_saving(progress, stop, self.checkpoint_every, &mut save)?;
        let report = Report::of(&self.hunt, &hunted);
        {
            let _writing = writing.lock();
            self.files.write(&report)?;
            rescue.done();
        }
        if let Some(e) = failed {
            return Err(e);
        }
        // A hunt that spent its budget needs no checkpoint; a stopped one keeps it.
        if let (Some(path), false) = (&checkpoint, hunted.stopped) {
            let _ = std::fs::remove_file(path);
        }
        let kept = checkpoint.filter(|path| hunted.stopped && path.exists());
        Ok(HuntRun {
            report,
            checkpoint: kept,
        })
    }
}

/// A running hunt's last checkpoint, kept for a process that must end before the hunt does
/// (a second signal, a second after the first): [`Rescue::write`] puts what the hunt had
/// found at that checkpoint into its report and log, unless the hunt wrote them itself.
///
/// ```
/// use warsweep::hunt::{Goal, Hunt};
/// use warsweep::job::{HuntFiles, HuntJob, Rescue};
/// use warsweep::{Deck, Preset, Settings};
/// let dir = std::env::temp_dir().join(format!("warsweep-rescue-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x4")?).build()?;
/// let files = HuntFiles { report: Some(dir.join("hunt.json")), log: None };
/// let job = HuntJob {
///     hunt: Hunt::new(rules, Goal::Cycles).games(Some(10_000)),
///     files: files.clone(),
///     start: None,
///     resume: false,
///     checkpoint_every: std::time::Duration::ZERO,
/// };
/// let rescue = Rescue::default();
/// job.prepare(&mut |_| {})?.run(&|_| {}, &Default::default(), &Default::default(), &rescue)?;
/// // The hunt wrote its report itself: there is nothing left to rescue.
/// assert_eq!(rescue.write(&files)?, None);
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct Rescue(Mutex<Rescued>);

/// What a [`Rescue`] holds: the last checkpoint, and whether the hunt has written its files.
#[derive(Debug, Default)]
struct Rescued {
    last: Option<Checkpoint>,
    written: bool,
}

impl Rescue {
    /// Keeps `checkpoint`, the hunt's latest.
    fn keep(&self, checkpoint: &Checkpoint) {
        let mut rescued = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        rescued.last = Some(checkpoint.clone());
    }

    /// The hunt wrote its report and log.
    fn done(&self) {
        let mut rescued = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        rescued.written = true;
    }

    /// Writes the report and the log of the hunt as its last checkpoint holds it (marked
    /// stopped) to `files`, unless the hunt wrote them itself or saved no checkpoint yet;
    /// returns that report, for the caller to say where it went. Call it holding the lock
    /// [`HuntJob::run`] writes under, so that no file is half written.
    pub fn write(&self, files: &HuntFiles) -> Result<Option<Report>, Error> {
        let mut rescued = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(last) = rescued.last.as_ref().filter(|_| !rescued.written) else {
            return Ok(None);
        };
        let mut report = last.report.clone();
        report.stopped = true;
        files.write(&report)?;
        rescued.written = true;
        Ok(Some(report))
    }
}

/// `error`, said of the file at `path`.
fn said(path: &Path, error: &dyn std::fmt::Display) -> Error {
    Error::msg(format!("{}: {error}", path.display()))
}

/// `error`, said of the file at `path` (`path: error`), and kept typed.
fn typed_at(path: &Path, error: impl std::error::Error + Send + Sync + 'static) -> Error {
    Error::caused(path.display(), error)
}

/// The checkpoint at `path`, if there is one.
fn load(path: &Path) -> Result<Option<Checkpoint>, Error> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(format!("cannot read {}", path.display()), e)),
    };
    Checkpoint::from_json(&text)
        .map(Some)
        .map_err(|e| typed_at(path, e))
}

/// `hunt` going on from the file at `path`: a report it continues (or whose deals it starts
/// from), or the deals [`read_start`] reads.
fn start(hunt: Hunt, path: &Path) -> Result<Hunt, Error> {
    match start_of(path, hunt.rules())? {
        Start::Report(report) => hunt.continuing(&report).map_err(|e| typed_at(path, e)),
        Start::Deals(deals) => Ok(hunt.start(deals)),
    }
}

/// What a start file holds: a hunt's report, or deals.
enum Start {
    Report(Box<Report>),
    Deals(Vec<Vec<Vec<u8>>>),
}

/// The start file at `path`, read once: a report when it is one (JSON, or a file named
/// `.json`, which then must be one), else deals (see [`read_start`]).
fn start_of(path: &Path, rules: &crate::Rules) -> Result<Start, Error> {
    let bytes =
        std::fs::read(path).map_err(Error::context(format!("cannot read {}", path.display())))?;
    let text = String::from_utf8_lossy(&bytes);
    if text.trim_start().starts_with('{') || path.extension().is_some_and(|e| e == "json") {
        return Report::from_json(&text)
            .map(|r| Start::Report(Box::new(r)))
            .map_err(|e| typed_at(path, e));
    }
    let first = text.lines().next().unwrap_or("");
    if first.split(',').any(|c| c.trim() == "hands") {
        return read_start_csv(path, &bytes, rules).map(Start::Deals);
    }
    let hands = crate::hunt::deal::read_hands(rules, &bytes)
        .map_err(|e| said(path, &format!("reading hands: {e}")))?;
    Ok(Start::Deals(vec![hands]))
}

/// Joins the reports at `inputs` (the streams of one hunt, as `--join` takes them) into one,
/// written to the outputs `files` names, and returns it. Every output is tried, and no file is
/// both an input and an output, before anything is written; nothing is written unless every
/// report reads and they are the streams of one hunt.
///
/// ```
/// use warsweep::hunt::{Goal, Hunt, Report};
/// use warsweep::job::{self, HuntFiles};
/// use warsweep::{Deck, Preset, Settings};
/// let dir = std::env::temp_dir().join(format!("warsweep-join-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x4")?).build()?;
/// let mut streams = Vec::new();
/// for k in 0..2 {
///     let hunt = Hunt::new(rules.clone(), Goal::Cycles).stream(k, 2).games(Some(1_000));
///     let path = dir.join(format!("{k}.json"));
///     HuntFiles { report: Some(path.clone()), log: None }
///         .write(&Report::of(&hunt, &hunt.run(&|_| {}, &Default::default())?))?;
///     streams.push(path);
/// }
/// let files = HuntFiles { report: Some(dir.join("all.json")), log: None };
/// let joined = job::join(&streams, &files)?;
/// assert_eq!(joined.games(), 2_000);
/// assert_eq!(job::read_report(&dir.join("all.json"))?, joined);
/// // A stream joined with itself is refused, and nothing is written.
/// let again = HuntFiles { report: Some(dir.join("again.json")), log: None };
/// assert!(job::join(&[streams[0].clone(), streams[0].clone()], &again).is_err());
/// assert!(!dir.join("again.json").exists());
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn join(inputs: &[PathBuf], files: &HuntFiles) -> Result<Report, Error> {
    files.check(inputs)?;
    let reports = inputs.iter().map(|path| read_report(path));
    let joined = Report::join(&reports.collect::<Result<Vec<_>, _>>()?)?;
    files.write(&joined)?;
    Ok(joined)
}

/// The hunt report at `path`.
pub fn read_report(path: &Path) -> Result<Report, Error> {
    let text = std::fs::read_to_string(path).map_err(Error::context(format!(
        "cannot read the report {}",
        path.display()
    )))?;
    Report::from_json(&text).map_err(|e| typed_at(path, e))
}

/// The deals a hunt of `rules` starts from, read from `path`: a hunt's report (its best
/// deals), a CSV with a `hands` column (a hunt's log, or the record table, whose rows of
/// another deck or gather are left out), or hands as `play` reads them (one deal). Each deal's
/// hands, values from 1; the hunt checks they are deals of its setting.
pub fn read_start(path: &Path, rules: &crate::Rules) -> Result<Vec<Vec<Vec<u8>>>, Error> {
    match start_of(path, rules)? {
        Start::Report(report) => report.deals().map_err(|e| said(path, &e)),
        Start::Deals(deals) => Ok(deals),
    }
}

/// The deals of a CSV with a `hands` column (names and fields trimmed), of `rules`' deck and
/// gather where it has those columns.
fn read_start_csv(
    path: &Path,
    bytes: &[u8],
    rules: &crate::Rules,
) -> Result<Vec<Vec<Vec<u8>>>, Error> {
    let said = |why: String| said(path, &why);
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(bytes);
    let header = reader.headers().map_err(|e| said(e.to_string()))?.clone();
    let column = |name: &str| header.iter().position(|h| h == name);
    let Some(hands_at) = column("hands") else {
        return Err(said("its header names no hands column".to_string()));
    };
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
            deals.push(
                crate::hunt::deal::read_hands(rules, hands).map_err(|e| said(e.to_string()))?,
            );
        }
    }
    if deals.is_empty() {
        return Err(said(format!(
            "no row is of the deck {} and the gather {}",
            rules.deck(),
            rules.gather()
        )));
    }
    Ok(deals)
}
