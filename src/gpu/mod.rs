//! Walks on an NVIDIA GPU: the device kernel (`kernel.cu`), what it is told of a setting
//! ([`plan`]), and how its tallies join a sweep's.
//!
//! The CPU stays the reference and the GPU a faster way to the same bytes: the kernel plays the
//! games that end within its histograms' reach and hands every other deal back (its seed), and
//! the sweep plays those on the CPU as it plays any deal, cycles and their table included. A
//! launch's tallies are exact counts and histograms, which become the sweep's tallies here
//! ([`add_tallies`]); a launch that hands back more deals than it has room for is played whole
//! on the CPU.
//!
//! The kernel's source is compiled at run time by NVRTC and launched through the driver, both
//! loaded when a sweep asks for the GPU (cudarc, behind the `gpu` feature): a build without the
//! feature, or a machine without a driver, says so in one sentence.

#[cfg(feature = "gpu")]
mod cuda;
pub(crate) mod plan;

use crate::output::accumulator::{Accumulator, Record, Records};
use crate::Metric;
use plan::{
    BATTLES_PLAYED, BATTLE_BINS, BINS, DRAWS, GAMES, MOST, ROUND_BINS, SEED_BITS, WAR_BINS, WINS0,
    WINS1,
};

pub(crate) use plan::Plan;

/// Deals one launch walks: about a second of a 4x5 walk on one GPU, so that a sweep on the GPU
/// saves its checkpoints and hears a stop at that pace.
pub(crate) const WINDOW: u64 = 1 << 31;

/// Deals each GPU thread walks, stepping from the first.
#[cfg_attr(not(any(feature = "gpu", test)), allow(dead_code))]
pub(crate) const PER_THREAD: u64 = 256;

/// Seeds of deals handed back that one launch has room for.
#[cfg_attr(not(any(feature = "gpu", test)), allow(dead_code))]
pub(crate) const CAPACITY: usize = 1 << 20;

/// What one launch counted: the tallies as [`plan`] lays them out, and the seeds of the deals
/// it handed back ([`None`]: more than [`CAPACITY`], so the CPU plays the launch's deals whole).
pub(crate) struct Launch {
    pub(crate) tallies: Vec<u64>,
    pub(crate) deferred: Option<Vec<u64>>,
}

/// Something that walks deals as the kernel does: a GPU, or (in tests) the kernel compiled for
/// the CPU.
pub(crate) trait Walker {
    /// Walks the `count` deals from `first`.
    fn walk(&mut self, first: u64, count: u64) -> Result<Launch, String>;
}

/// The GPU of this machine, ready to walk `plan`'s deals; or why there is none.
pub(crate) fn open(plan: &Plan) -> Result<Box<dyn Walker + Send>, String> {
    #[cfg(feature = "gpu")]
    {
        Ok(Box::new(cuda::Cuda::open(plan)?))
    }
    #[cfg(not(feature = "gpu"))]
    {
        let _ = plan;
        Err("this warsweep is built without GPU support: build it with its cargo feature `gpu` (`cargo build --release --features gpu`)".to_string())
    }
}

/// Adds a launch's `tallies` to `acc`: counts, histograms (every game of a bin recorded at once,
/// which sums and squares exactly), records.
pub(crate) fn add_tallies(acc: &mut Accumulator, t: &[u64]) {
    acc.games += t[GAMES];
    acc.wins[0] += t[WINS0];
    acc.wins[1] += t[WINS1];
    acc.draws += t[DRAWS];
    acc.battles_played += t[BATTLES_PLAYED];
    let bins = [
        (Metric::Rounds, 0, ROUND_BINS),
        (Metric::Battles, ROUND_BINS, BATTLE_BINS),
        (Metric::Wars, ROUND_BINS + BATTLE_BINS, WAR_BINS),
    ];
    for (metric, at, len) in bins {
        let counts = &t[BINS + at..BINS + at + len];
        for (value, &games) in counts.iter().enumerate().filter(|(_, &g)| g > 0) {
            acc.metrics[metric.index()].record_n(value as u64, games);
        }
    }
    let record = |x: u64| {
        (x != 0).then(|| Record {
            value: x >> SEED_BITS,
            seed: ((1 << SEED_BITS) - 1) - (x & ((1 << SEED_BITS) - 1)),
        })
    };
    acc.records.add(&Records {
        most_rounds: record(t[MOST]),
        most_battles: record(t[MOST + 1]),
        most_wars: record(t[MOST + 2]),
        ..Records::default()
    });
}

#[cfg(test)]
mod host;
#[cfg(test)]
mod tests;
