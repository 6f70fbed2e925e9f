//! The one error of the commands that touch files: a sentence for the user, and the error behind
//! it when there is one (shown after a colon: `cannot write the CSV to x: No space left on
//! device`). A typed error of the library's parts passes through whole, its sources kept.

use std::error::Error as StdError;
use std::fmt;
use std::io;

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
    crate::job::JobError,
    crate::output::checkpoint::CheckpointError,
    crate::output::files::TargetError,
    crate::output::summary::SummaryError,
    crate::output::summary::ReadError,
    crate::output::report::PlotError,
    crate::sweep::SweepError
);
