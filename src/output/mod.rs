//! What results become: per-game rows and result lines, accumulators with record games and
//! the mergeable JSON summary, histogram CSV and plots.

pub mod accumulator;
pub mod checkpoint;
pub mod cycles;
pub mod files;
pub mod outputs;
pub mod record;
pub mod report;
pub mod summary;
