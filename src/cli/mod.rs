//! The binary's own modules, apart from the library: the command line as clap sees it
//! (`args`), the three long-running commands (`sweep`, `hunt`, `shapes`: flags into a job, a
//! hunt or a census, their progress bars, what a stopped one prints) and the signals that stop
//! them.

mod args;
pub mod hunt;
pub mod shapes;
pub mod signals;
pub mod sweep;

pub use args::*;

use warsweep::job::{self, JobError};
use warsweep::Unfit;

/// What the command line says when the GPU cannot play a sweep or a hunt (`what`): every
/// reason, in its words where a flag or the build is at fault.
pub fn gpu_refusal(what: &str, reasons: &[Unfit]) -> anyhow::Error {
    let said: Vec<String> = reasons
        .iter()
        .map(|reason| match reason {
            Unfit::NotBuilt => "this warsweep is built without GPU support (build it with `cargo build --release --features gpu`)".to_string(),
            Unfit::Rows => "the GPU keeps no per-game rows (drop --csv, or sweep on the CPU)".to_string(),
            reason => reason.to_string(),
        })
        .collect();
    anyhow::anyhow!("the GPU cannot play this {what}: {}", said.join("; "))
}

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
