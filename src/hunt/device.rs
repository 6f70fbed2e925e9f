//! A hunt's random games on a GPU: whole generations a launch, the same deals as on the CPU.
//!
//! Each generation's tasks of the random and backward strategies are all random deals, so the
//! kernel draws them itself: deal `j` of the hunt is task `j % BATCH` of generation
//! `j / BATCH`, shuffled from the seed the CPU would give that task
//! ([`HuntDeals`]). It plays every game and lists only those that can
//! matter: the games worth at least what the book needs to keep or log one, or the strategy to
//! extend one, at the launch's start (both only grow), and the games that loop. The CPU plays
//! those again, generation by generation in order, as it plays its own tasks: it offers them
//! to the book, extends them backward, and lets the strategy learn from them, so that the
//! book, the log and the threshold are what the CPU alone makes of the same budget. A game not
//! listed is worth less than either needs, so that the CPU would have offered it in vain.

use super::generations::{mix, Generation, Generations, Halt};
use super::saved::At;
use super::strategy::BATCH;
use super::{Hunt, HuntError, Strategy};
use crate::gpu::{self, DeviceError, HuntDeals, Plan, Walker};
use crate::output::metric::Metric;

/// The listing rule, written once: the kernel lists every game that loops and every finished
/// game worth `least` or more (`value >= least`, as `lists` says for the tests), where `least`
/// is the less of what the book needs to keep or log a game
/// ([`Book::least`](super::book::Book::least)) and what the strategy needs to extend one
/// ([`Strategist::extends_from`](super::strategy::Strategist::extends_from)), at the launch's start (both
/// only grow during it). A hunt for cycles lists no finished game: both are [`u64::MAX`] there.
pub(super) fn least_listed(on: &Generations) -> u64 {
    on.book.least().min(on.strategist.extends_from())
}

/// Whether the kernel lists a finished game worth `value` when the least listed is `least`:
/// the comparison `kernel.cu`'s `count_game` makes, which the tests hold it to at the tie.
#[cfg(test)]
pub(crate) fn lists(value: u64, least: u64) -> bool {
    value >= least
}

/// The kernel's plan of `hunt`'s random deals, or what of them it cannot play.
pub(crate) fn plan(hunt: &Hunt) -> Result<Plan, Vec<gpu::Unfit>> {
    let metric = match hunt.goal {
        super::Goal::Longest(Metric::Battles) => 1,
        super::Goal::Longest(Metric::Wars) => 2,
        _ => 0,
    };
    let deals = HuntDeals {
        base: mix(hunt.seed, hunt.stream.0),
        batch: BATCH as u64,
        metric,
    };
    Plan::hunt(&hunt.rules, deals)
}

/// Every reason the GPU cannot play `hunt` (a build without GPU support first); none where
/// it can.
pub(super) fn unfit(hunt: &Hunt) -> Vec<gpu::Unfit> {
    let mut reasons = Vec::new();
    if !gpu::GPU_SUPPORT {
        reasons.push(gpu::Unfit::NotBuilt);
    }
    if let strategy @ (Strategy::Climb | Strategy::Construct | Strategy::Shapes) = hunt.strategy {
        reasons.push(gpu::Unfit::Strategy(strategy.name()));
    }
    if let Err(unfit) = plan(hunt) {
        reasons.extend(unfit);
    }
    reasons
}

/// The GPU of this machine, with the kernel of `hunt`'s random deals; or why it cannot play
/// them.
pub(super) fn open(hunt: &Hunt) -> Result<Box<dyn Walker + Send>, HuntError> {
    let unfit = unfit(hunt);
    if !unfit.is_empty() {
        return Err(HuntError::Device(DeviceError::Unfit(unfit)));
    }
    let plan = plan(hunt).map_err(|u| HuntError::Device(DeviceError::Unfit(u)))?;
    gpu::open(&plan).map_err(HuntError::Device)
}

/// Plays at most `left` games from generation `at.generations` (whole generations, as many as
/// a launch holds, the last of them perhaps short) on `device`, and the games it lists again
/// on the CPU, generation by generation.
pub(super) fn play(
    on: &mut Generations,
    device: &mut dyn Walker,
    at: &At,
    left: u64,
    halt: &Halt,
) -> Result<Generation, HuntError> {
    let count = left.min((device.window() / BATCH as u64).max(1) * BATCH as u64);
    let least = least_listed(on);
    let first = at.generations * BATCH as u64;
    let mut listed = Vec::new();
    gpu::walk(device, first, count, least, &mut |_, games| {
        listed.extend(games.chunks_exact(2).map(|pair| pair[0]));
    })
    .map_err(HuntError::Device)?;
    listed.sort_unstable();
    let mut played = Generation::default();
    let mut from = 0;
    while played.games < count {
        let deal = first + played.generations * BATCH as u64;
        let size = (BATCH as u64).min(count - played.games);
        let upto = from + listed[from..].partition_point(|&j| j < deal + size);
        // The listed games' places in their generation, each a random deal's task.
        let places: Vec<u64> = listed[from..upto].iter().map(|&j| j - deal).collect();
        let tasks: Vec<_> = places.iter().map(|_| on.strategist.random_task()).collect();
        let now = At {
            games: at.games + played.games,
            generations: at.generations + played.generations,
            ..*at
        };
        // Random tasks are all played; a backward search may be cut short.
        let generation = on.play_tasks(&now, &tasks, &places, halt);
        played.steps += generation.steps;
        played.games += size;
        played.generations += 1;
        from = upto;
        if generation.cut.is_some() {
            played.cut = generation.cut;
            break;
        }
    }
    Ok(played)
}
