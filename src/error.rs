//! The one error of the commands that touch files: a sentence for the user, and the error behind
//! it when there is one (shown after a colon: `cannot write the CSV to x: No space left on
//! device`). A typed error of the library's parts passes through whole, its sources kept.

use std::error::Error as StdError;
use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::deal::seeds::Seeds;

/// A failure of a whole command, said in one sentence, with its cause as the source.
///
/// ```
/// use std::error::Error as _;
/// use warsweep::job;
/// let missing = std::path::PathBuf::from("no/such/shard.json");
/// let refused = job::merge(&[missing], &job::Files::default()).unwrap_err();
/// assert!(refused.to_string().contains("no/such/shard.json"));
/// // The system's own error is kept as the source.
/// assert!(refused.source().is_some());
/// ```
#[derive(Debug)]
pub struct Error(Inner);

#[derive(Debug)]
enum Inner {
    /// A sentence of the command's own, with the error behind it if any (the system's, or a
    /// typed one of the library's part).
    Said {
        message: String,
        source: Option<Box<dyn StdError + Send + Sync>>,
    },
    /// A typed error of a part of the library, whole.
    Typed(Box<dyn StdError + Send + Sync>),
}

impl Error {
    /// An error that is its message alone.
    pub(crate) fn msg(message: impl fmt::Display) -> Error {
        Error(Inner::Said {
            message: message.to_string(),
            source: None,
        })
    }

    /// `message`, caused by the system error `source`.
    pub(crate) fn io(message: impl fmt::Display, source: io::Error) -> Error {
        Error::caused(message, source)
    }

    /// `message`, caused by `source` (shown after it, and kept for [`Error::typed`]).
    pub(crate) fn caused(
        message: impl fmt::Display,
        source: impl StdError + Send + Sync + 'static,
    ) -> Error {
        Error(Inner::Said {
            message: message.to_string(),
            source: Some(Box::new(source)),
        })
    }

    /// The error behind this one, for a caller to match on: the system's [`io::Error`], or
    /// the typed error of the library's part that failed (`job::JobError`, `job::TargetError`,
    /// `job::CheckpointError`, `job::PlotError`, `SummaryError`, `ReadError`, `SweepError`,
    /// `RangeError`).
    ///
    /// ```
    /// use warsweep::job::{self, Files, TargetError};
    /// let shard = std::path::PathBuf::from("shard.json");
    /// let files = Files { summary: Some(shard.clone()), ..Files::default() };
    /// let refused = job::merge(&[shard], &files).unwrap_err();
    /// let typed = refused.typed().and_then(|e| e.downcast_ref::<TargetError>());
    /// assert!(matches!(typed, Some(TargetError::Clash(_))));
    /// ```
    pub fn typed(&self) -> Option<&(dyn StdError + Send + Sync + 'static)> {
        match &self.0 {
            Inner::Said { source, .. } => source.as_deref(),
            Inner::Typed(e) => Some(e.as_ref()),
        }
    }

    /// A closure for `map_err` that puts `message` in front of an I/O error.
    pub(crate) fn context(message: impl fmt::Display) -> impl FnOnce(io::Error) -> Error {
        let message = message.to_string();
        move |source| Error::io(message, source)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Inner::Said { message, .. } => f.write_str(message),
            Inner::Typed(e) => e.fmt(f),
        }
    }
}

impl StdError for Error {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match &self.0 {
            Inner::Said { source, .. } => source.as_deref().map(|e| e as _),
            Inner::Typed(e) => e.source(),
        }
    }
}

/// A job refused for one of its own settings: [`JobError::setting`] names it as `job::Job` and
/// `job::Files` do (`resume`, `cycles`), and each front-end adds its own spelling (`--resume`,
/// `resume=`) in front of the sentence, which names none.
///
/// ```
/// use warsweep::job::{self, Files, JobError};
/// let dir = std::env::temp_dir().join(format!("warsweep-joberror-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let plain = dir.join("plain.json");
/// std::fs::write(&plain, warsweep::Sweep::new(
///     warsweep::Rules::preset(warsweep::Preset::Bataille),
///     warsweep::Shuffle::Splitmix,
///     warsweep::Seeds::new(0, 10)?,
/// ).run(None, &|_| {}, &Default::default())?.summary.to_json())?;
/// let files = Files { cycles: Some(dir.join("cycles.csv")), ..Files::default() };
/// let refused = job::merge(&[plain], &files).unwrap_err();
/// let typed = refused.typed().and_then(|e| e.downcast_ref::<JobError>());
/// assert!(matches!(typed, Some(JobError::NoCycles(_))));
/// assert_eq!(typed.unwrap().setting(), "cycles");
/// assert!(!refused.to_string().contains("--"));
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(thiserror::Error, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum JobError {
    /// Resuming a sweep whose CSV streams to stdout, a pipe or a device, which keeps no
    /// checkpoint.
    #[error(
        "cannot continue a CSV written to stdout, a pipe or a device: write the CSV to a file"
    )]
    ResumeStreamed,
    /// Resuming a sweep with no output file to keep its checkpoint beside.
    #[error("needs an output file to keep the checkpoint beside: a summary, a CSV, histograms or a plot")]
    ResumeWithoutFile,
    /// A checkpoint of an unfinished sweep, found where a sweep not asked to resume would write.
    #[error("{} holds the checkpoint of an unfinished sweep (seeds {}..{} of {}..{} played): resume to continue it, or remove it to start over", .checkpoint.display(), .played.start(), .played.end(), .of.start(), .of.end())]
    Unfinished {
        /// The checkpoint.
        checkpoint: PathBuf,
        /// The seeds it played.
        played: Seeds,
        /// The seeds of its sweep.
        of: Seeds,
    },
    /// Resuming where there is no checkpoint but an output exists: the output of a finished
    /// run, which starting over would replace.
    #[error("there is nothing to resume: no checkpoint at {}, and {} exists (a finished run's output?); run without resuming to replace it, or move it away", .checkpoint.display(), .output.display())]
    NothingToResume {
        /// Where the checkpoint would be.
        checkpoint: PathBuf,
        /// The output that exists.
        output: PathBuf,
    },
    /// Resuming a hunt with no report or log file to keep the checkpoint beside.
    #[error("needs a report or a log in a file to keep the checkpoint beside")]
    HuntResumeWithoutFile,
    /// A checkpoint of an unfinished hunt, found where a hunt not asked to resume would write.
    #[error("{} holds the checkpoint of an unfinished hunt ({} played): resume to continue it, or remove it to start over", .checkpoint.display(), crate::text::grouped_count(*.games, "game"))]
    UnfinishedHunt {
        /// The checkpoint.
        checkpoint: PathBuf,
        /// The games it played.
        games: u64,
    },
    /// Distinct cycles asked of a merge whose input lists none.
    #[error("{} lists no distinct cycles: the cycles merge from summaries of sweeps that listed theirs", .0.display())]
    NoCycles(PathBuf),
    /// Distinct cycles asked of a summary that lists none.
    #[error("the summary lists no distinct cycles: list them in the sweep")]
    SummaryWithoutCycles,
}

impl JobError {
    /// The setting at fault, as `job::Job` and `job::Files` name it: `resume` or `cycles`.
    pub fn setting(&self) -> &'static str {
        match self {
            JobError::ResumeStreamed
            | JobError::ResumeWithoutFile
            | JobError::Unfinished { .. }
            | JobError::NothingToResume { .. }
            | JobError::HuntResumeWithoutFile
            | JobError::UnfinishedHunt { .. } => "resume",
            JobError::NoCycles(_) | JobError::SummaryWithoutCycles => "cycles",
        }
    }
}

/// Errors of the library's parts become the command's error, whole.
macro_rules! from_errors {
    ($($error:ty),*) => {$(
        impl From<$error> for Error {
            fn from(e: $error) -> Error {
                Error(Inner::Typed(Box::new(e)))
            }
        }
    )*};
}

from_errors!(
    crate::deal::seeds::RangeError,
    JobError,
    crate::output::checkpoint::CheckpointError,
    crate::output::files::TargetError,
    crate::output::summary::SummaryError,
    crate::output::summary::ReadError,
    crate::output::exports::PlotError,
    crate::sweep::SweepError,
    crate::hunt::HuntError,
    crate::hunt::ReportError
);
