//! The one error of the commands that touch files: a sentence for the user, and the system's
//! own error behind it when there is one (shown after a colon: `cannot write the CSV to x: No
//! space left on device`).

use std::fmt;
use std::io;

/// A failure of a whole command, said in one sentence.
#[derive(Debug)]
pub struct Error {
    message: String,
    source: Option<io::Error>,
}

impl Error {
    /// An error that is its message alone.
    pub fn msg(message: impl fmt::Display) -> Error {
        Error {
            message: message.to_string(),
            source: None,
        }
    }

    /// `message`, caused by the system error `source`.
    pub fn io(message: impl fmt::Display, source: io::Error) -> Error {
        Error {
            message: message.to_string(),
            source: Some(source),
        }
    }

    /// A closure for `map_err` that puts `message` in front of an I/O error.
    pub fn context(message: impl fmt::Display) -> impl FnOnce(io::Error) -> Error {
        let message = message.to_string();
        move |source| Error::io(message, source)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| e as _)
    }
}

/// Errors of the library's parts become the command's error, with their own sentence.
macro_rules! from_errors {
    ($($error:ty),*) => {$(
        impl From<$error> for Error {
            fn from(e: $error) -> Error {
                Error::msg(e)
            }
        }
    )*};
}

from_errors!(
    crate::deal::seeds::RangeError,
    crate::output::checkpoint::CheckpointError,
    crate::output::files::TargetError,
    crate::output::summary::SummaryError
);
