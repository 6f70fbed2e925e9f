//! What results become: per-game rows and result lines, accumulators with record games and
//! the mergeable JSON summary, histogram CSV and plots.

pub(crate) mod accumulator;
pub(crate) mod checkpoint;
pub(crate) mod cycles;
pub(crate) mod exports;
pub(crate) mod files;
pub(crate) mod histograms;
pub(crate) mod metric;
pub(crate) mod outputs;
pub(crate) mod record;
pub(crate) mod setting;
pub(crate) mod summary;
pub(crate) mod table;
