//! The binary's own modules, apart from the library: the command line as clap sees it
//! (`args`), the two long-running commands (`sweep`, `hunt`: flags into a job or a hunt, their
//! progress bars, what a stopped one prints) and the signals that stop them.

mod args;
pub mod hunt;
pub mod signals;
pub mod sweep;

pub use args::*;

use warsweep::job::{self, JobError};

/// The flag of a setting as the library names it: `face_down` is `--face-down`.
pub fn flag(setting: &str) -> String {
    format!("--{}", setting.replace('_', "-"))
}

/// An error's one line: a job refused for one of its settings starts with that setting's flag,
/// which the library's sentence leaves to the front-end.
pub fn said(e: &anyhow::Error) -> String {
    let refused = e
        .downcast_ref::<job::Error>()
        .and_then(job::Error::typed)
        .and_then(|typed| typed.downcast_ref::<JobError>());
    match refused {
        Some(refused) => format!("{}: {e:#}", flag(refused.setting())),
        None => format!("{e:#}"),
    }
}
