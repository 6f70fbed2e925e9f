//! How a window of seeds is played: by rayon's workers on the CPU, or walked on a device with
//! the deals it hands back played on the CPU. Each worker keeps its own engine and tallies; a
//! window's results depend on the seeds only, never on which worker played them.

use crate::deal::mirror::{Mirror, Weight};
use crate::engine::{Engine, GameResult, Outcome, Silent};
use crate::gpu::{self, DeviceError, Walker};
use crate::output::accumulator::Accumulator;
use crate::pool::{Loan, Pool};
use crate::sweep::Sweep;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// A worker's own engine and tallies.
struct Worker {
    engine: Engine,
    acc: Accumulator,
    /// The chunk's infinite games, whose cycles are named after it (`--cycles`).
    looped: Vec<(u64, GameResult, Weight)>,
    /// Room for a cycle's least state and its mirror's.
    least: [Vec<u8>; 2],
}

/// A worker of `sweep`, with its engine set to the sweep's round limit.
fn worker(sweep: &Sweep) -> Worker {
    let mut engine = Engine::new(sweep.rules);
    // `Sweep::check` refused a limit of 0 before any worker was made.
    (engine.set_max_rounds(sweep.max_rounds)).expect("a checked round limit");
    Worker {
        engine,
        acc: Accumulator::new(sweep.cycles),
        looped: Vec::new(),
        least: [Vec::new(), Vec::new()],
    }
}

/// What every window of a sweep shares: the sweep, its seeds (chosen ones, or a walk with its
/// mirror pairs), its workers, and where to report the games played.
pub(super) struct Plays<'s> {
    sweep: &'s Sweep,
    chosen: Option<&'s [u64]>,
    mirror: Option<&'s Mirror>,
    workers: Pool<'s, Worker>,
    progress: &'s (dyn Fn(u64) + Sync),
    /// A worker met more distinct cycles than a table keeps.
    too_many: AtomicBool,
}

impl<'s> Plays<'s> {
    pub(super) fn new(
        sweep: &'s Sweep,
        chosen: Option<&'s [u64]>,
        mirror: Option<&'s Mirror>,
        progress: &'s (dyn Fn(u64) + Sync),
    ) -> Plays<'s> {
        Plays {
            sweep,
            chosen,
            mirror,
            workers: Pool::new(move || worker(sweep)),
            progress,
            too_many: AtomicBool::new(false),
        }
    }

    /// Whether the sweep met more distinct cycles than a table keeps.
    pub(super) fn too_many_cycles(&self) -> bool {
        self.too_many.load(Ordering::Relaxed)
    }

    /// The tallies of every worker added to `base` (between windows, when all are idle).
    pub(super) fn total(&self, base: &Accumulator) -> Accumulator {
        let mut acc = base.clone();
        for worker in self.workers.idle().iter() {
            acc.add(&worker.acc);
        }
        acc
    }

    /// Plays the seeds `at..=last` (inclusive: the last chunk of the seed space ends at
    /// `u64::MAX`; places in the chosen seeds when there are some), keeping their results in
    /// `rows` if given.
    fn play_seeds(
        &self,
        worker: &mut Worker,
        at: u64,
        last: u64,
        mut rows: Option<&mut [GameResult]>,
    ) {
        let sweep = self.sweep;
        let (engine, acc, looped) = (&mut worker.engine, &mut worker.acc, &mut worker.looped);
        let mut played = 0;
        let mut each = |seed: u64, place: u64, result: &GameResult, w: Weight| {
            acc.record_weighted(seed, result, w);
            if let Some(rows) = rows.as_deref_mut() {
                rows[(place - at) as usize] = *result;
            }
            if sweep.cycles && matches!(result.outcome, Outcome::Infinite { .. }) {
                looped.push((seed, *result, w));
            }
            played += 1;
        };
        match self.chosen {
            Some(list) => {
                for place in at..=last {
                    let seed = list[place as usize];
                    let result = engine.play_dealt(sweep.shuffle, seed, &mut Silent);
                    each(seed, place, &result, Weight::Once);
                }
            }
            None => engine.play_walk(sweep.shuffle, at..=last, self.mirror, |seed, r, w| {
                each(seed, seed, r, w);
            }),
        }
        // A row left unplayed would be written as a game it is not.
        if self.mirror.is_none() {
            assert_eq!(
                played,
                last - at + 1,
                "chunk from seed {at} not played whole"
            );
        }
        self.name_cycles(worker);
    }

    /// Names the cycles of the worker's infinite games since the last call (`--cycles`): each
    /// cycle's least state, and its mirror's where the game counted for its mirror deal too.
    fn name_cycles(&self, worker: &mut Worker) {
        let Worker {
            engine,
            acc,
            looped,
            least: [least, mirrored],
        } = worker;
        let Some(cycles) = acc.cycles.as_mut() else {
            return;
        };
        for (seed, result, weight) in looped.drain(..) {
            let Outcome::Infinite {
                cycle_start,
                cycle_length,
            } = result.outcome
            else {
                continue;
            };
            let twice = weight == Weight::Twice;
            let span = [cycle_start, cycle_length];
            let m = twice.then_some(&mut *mirrored);
            engine.least_states(self.sweep.shuffle, seed, span, least, m);
            cycles.add(least, cycle_length, 1, seed);
            if let (true, Some(mirror)) = (twice, self.mirror) {
                let mirror_seed = engine.mirror_seed(mirror, seed);
                cycles.add(mirrored, cycle_length, 1, mirror_seed);
            }
        }
        if cycles.overflowed() {
            self.too_many.store(true, Ordering::Relaxed);
        }
    }
}

/// What plays a window: the CPU's workers, or a device.
pub(super) enum Executor<'a> {
    /// Rayon's workers, `chunk` seeds a task, `window` seeds a window.
    Cpu {
        pool: &'a rayon::ThreadPool,
        chunk: usize,
        window: usize,
    },
    /// A device walks the window (in launches whose games listed fit their room); the deals
    /// it hands back are played by the CPU's workers, as any deal is.
    Device {
        device: &'a mut dyn Walker,
        pool: &'a rayon::ThreadPool,
    },
}

/// A row's place before its game is played.
const UNPLAYED: GameResult = GameResult {
    outcome: Outcome::Draw,
    rounds: 0,
    battles: 0,
    wars: 0,
};

impl Executor<'_> {
    /// Seeds a window holds.
    pub(super) fn window(&self) -> usize {
        match self {
            Executor::Cpu { window, .. } => *window,
            Executor::Device { device, .. } => device.window() as usize,
        }
    }

    /// Plays the `n` seeds of the window from `first` (places in the chosen seeds when there
    /// are some), their results in `rows` when given (the CPU only: a device keeps no rows).
    pub(super) fn play(
        &mut self,
        plays: &Plays,
        first: u64,
        n: usize,
        rows: Option<&mut Vec<GameResult>>,
    ) -> Result<(), DeviceError> {
        match self {
            Executor::Cpu { pool, chunk, .. } => {
                let chunk = *chunk;
                let play_chunk =
                    |loan: &mut Loan<Worker>, c: usize, rows: Option<&mut [GameResult]>| {
                        let seeds = c * chunk..((c + 1) * chunk).min(n);
                        let at = first + seeds.start as u64;
                        plays.play_seeds(loan, at, at + (seeds.len() as u64 - 1), rows);
                        (plays.progress)(seeds.len() as u64);
                    };
                let workers = &plays.workers;
                pool.install(|| match rows {
                    Some(buffer) => {
                        buffer.resize(n, UNPLAYED);
                        buffer.par_chunks_mut(chunk).enumerate().for_each_init(
                            || workers.borrow(),
                            |loan, (c, rows)| play_chunk(loan, c, Some(rows)),
                        );
                    }
                    // No rows to write: the tallies are all a game leaves, no buffer.
                    None => (0..n.div_ceil(chunk))
                        .into_par_iter()
                        .for_each_init(|| workers.borrow(), |loan, c| play_chunk(loan, c, None)),
                });
                Ok(())
            }
            Executor::Device { device, pool } => {
                let workers = &plays.workers;
                let mut each = |tallies: &[u64], listed: &[u64]| {
                    pool.install(|| {
                        let mut worker = workers.borrow();
                        gpu::add_tallies(&mut worker.acc, tallies);
                        let handed = gpu::add_listed(&mut worker.acc, listed);
                        drop(worker);
                        handed.par_iter().for_each_init(
                            || workers.borrow(),
                            |loan, &seed| plays.play_seeds(loan, seed, seed, None),
                        );
                    });
                };
                gpu::walk(&mut **device, first, n as u64, u64::MAX, &mut each)?;
                (plays.progress)(n as u64);
                Ok(())
            }
        }
    }
}
