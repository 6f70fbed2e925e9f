//! Walks on an NVIDIA GPU: the device kernel (`kernel.cu`), what it is told of a setting
//! ([`plan`]), and how its tallies join a sweep's.
//!
//! The CPU stays the reference and the GPU a faster way to the same bytes: the kernel plays
//! every game, counts those that end within its histograms' reach, lists those that end past
//! them with their results, and hands back the deals whose games loop (their seeds), which the
//! sweep plays on the CPU as it plays any deal, cycles and their table included. A launch's
//! tallies are exact counts and histograms, which become the sweep's tallies here
//! ([`add_tallies`], [`add_listed`]); a launch that lists more games than it has room for is
//! walked again in smaller launches ([`walk`]).
//!
//! The kernel's source is compiled at run time by NVRTC and launched through the driver, both
//! loaded when a sweep asks for the GPU (cudarc, behind the `gpu` feature): a build without the
//! feature, or a machine without a driver, says so in one sentence.

#[cfg(feature = "gpu")]
mod cuda;
mod error;
pub(crate) mod plan;

pub(crate) use error::join as join_reasons;
pub use error::{DeviceError, Unfit};

use crate::output::accumulator::{Accumulator, Finished, Record, Records};
use plan::{
    BATTLES_PLAYED, BATTLE_BINS, BINS, DRAWS, GAMES, LISTED, MOST, ROUND_BINS, SEED_BITS, WAR_BINS,
    WINS0, WINS1,
};

pub(crate) use plan::{HuntDeals, Plan};

/// Whether this library was built with its cargo feature `gpu`, and so can walk on a GPU.
pub const GPU_SUPPORT: bool = cfg!(feature = "gpu");

/// Deals each GPU thread walks, stepping from the first.
#[cfg_attr(not(any(feature = "gpu", test)), allow(dead_code))]
pub(crate) const PER_THREAD: u64 = 256;

/// Games listed (two numbers each) that one launch has room for.
#[cfg_attr(not(any(feature = "gpu", test)), allow(dead_code))]
pub(crate) const CAPACITY: usize = 1 << 20;

/// What one launch counted: the tallies as [`plan`] lays them out, and the games it listed,
/// each its seed then its result ([`plan::listed_result`]; [`None`]: more than its room, so
/// that [`walk`] walks its deals again in smaller launches).
pub(crate) struct Launch {
    pub(crate) tallies: Vec<u64>,
    pub(crate) listed: Option<Vec<u64>>,
}

/// Something that walks deals as the kernel does: a GPU, or (in tests) the kernel compiled for
/// the CPU.
pub(crate) trait Walker {
    /// Walks the `count` deals from `first`, listing the games worth `least` or more (a
    /// hunt's; [`u64::MAX`] for a sweep) besides those it always lists.
    fn walk(&mut self, first: u64, count: u64, least: u64) -> Result<Launch, DeviceError>;

    /// Games listed that one launch has room for (at least 1).
    fn capacity(&self) -> usize {
        CAPACITY
    }

    /// Deals a sweep walks between two points where it may stop or save: about a second of
    /// the GPU's, so that a sweep saves its checkpoints and hears a stop at that pace.
    fn window(&self) -> u64;
}

/// Walks the `count` deals from `first` on `device` and hands `each` the tallies and the games
/// listed of every launch (those worth `least` or more among them, as [`Walker::walk`]). A
/// launch that lists more games than it has room for is walked again in parts small enough
/// for their lists (a part of no more deals than the room cannot overflow), so every game is
/// played there, and the CPU plays only the games the kernel hands back, never a whole
/// window.
pub(crate) fn walk(
    device: &mut dyn Walker,
    first: u64,
    count: u64,
    least: u64,
    each: &mut dyn FnMut(&[u64], &[u64]),
) -> Result<(), DeviceError> {
    let room = device.capacity().max(1) as u64;
    let mut todo = vec![(first, count)];
    while let Some((first, count)) = todo.pop() {
        let launch = device.walk(first, count, least)?;
        match &launch.listed {
            Some(listed) => each(&launch.tallies, listed),
            None => {
                // Twice the parts the games listed need, as they need not spread evenly.
                let handed = launch.tallies[LISTED];
                let parts = (handed.div_ceil(room) * 2).clamp(2, count.max(2));
                let size = count.div_ceil(parts);
                let mut at = first + count;
                while at > first {
                    let start = at.saturating_sub(size).max(first);
                    todo.push((start, at - start));
                    at = start;
                }
            }
        }
    }
    Ok(())
}

/// The GPU of this machine, ready to walk `plan`'s deals; or why there is none.
pub(crate) fn open(plan: &Plan) -> Result<Box<dyn Walker + Send>, DeviceError> {
    #[cfg(feature = "gpu")]
    {
        Ok(Box::new(cuda::Cuda::open(plan)?))
    }
    #[cfg(not(feature = "gpu"))]
    {
        let _ = plan;
        Err(DeviceError::Unfit(vec![Unfit::NotBuilt]))
    }
}

/// Adds a launch's `tallies` to `acc`: counts, histograms (every game of a bin recorded at once,
/// which sums and squares exactly), records.
pub(crate) fn add_tallies(acc: &mut Accumulator, t: &[u64]) {
    let bins = |at: usize, len: usize| &t[BINS + at..BINS + at + len];
    let lengths = [
        bins(0, ROUND_BINS),
        bins(ROUND_BINS, BATTLE_BINS),
        bins(ROUND_BINS + BATTLE_BINS, WAR_BINS),
    ];
    // Every game counted offers a record: a launch that counted one has all three, even when
    // the best is of value 0 at seed 2^53 - 1, which encodes to 0.
    let record = |x: u64| {
        (t[GAMES] > 0).then(|| Record {
            value: x >> SEED_BITS,
            seed: ((1 << SEED_BITS) - 1) - (x & ((1 << SEED_BITS) - 1)),
        })
    };
    let records = Records {
        most_rounds: record(t[MOST]),
        most_battles: record(t[MOST + 1]),
        most_wars: record(t[MOST + 2]),
        ..Records::default()
    };
    let finished = Finished {
        games: t[GAMES],
        wins: [t[WINS0], t[WINS1]],
        draws: t[DRAWS],
        battles_played: t[BATTLES_PLAYED],
        lengths,
        records,
    };
    acc.add_finished(&finished);
}

/// Adds to `acc` the games of `listed` (seed and result, two numbers a game) that the kernel
/// played, and returns the seeds of those it handed back, for the CPU to play.
pub(crate) fn add_listed(acc: &mut Accumulator, listed: &[u64]) -> Vec<u64> {
    let mut handed = Vec::new();
    for pair in listed.chunks_exact(2) {
        match plan::listed_result(pair[1]) {
            Some((game, weight)) => acc.record_weighted(pair[0], &game, weight),
            None => handed.push(pair[0]),
        }
    }
    handed
}

#[cfg(test)]
mod host;
#[cfg(test)]
mod tests;
