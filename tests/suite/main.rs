//! warsweep's integration tests, in one binary: each module covers one layer or one promise,
//! and regression tests are named after the fault they pin.

mod alloc;
mod certify;
mod cli;
mod common;
mod cycles;
mod durable;
mod engine;
mod fast_paths;
mod golden;
mod hunt;
mod hunt_durable;
mod hunt_faults;
mod layout;
mod merges;
mod misuse;
mod oracle;
mod plain;
mod plots;
mod readme;
mod refusals;
mod shapes;
mod sweep;
