//! The binary's own modules, apart from the library: the command line as clap sees it
//! (`args`), the two long-running commands (`sweep`, `hunt`: flags into a job or a hunt, their
//! progress bars, what a stopped one prints) and the signals that stop them.

mod args;
pub mod hunt;
pub mod signals;
pub mod sweep;

pub use args::*;
