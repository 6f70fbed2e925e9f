//! A hunt's generations: the loop that draws a generation's tasks from the strategist, plays
//! them on the workers (or a launch of the GPU), offers their games to the book in the tasks'
//! order, and hears a stop; and a worker's play of one task, extended backward when its game
//! is worth it.

use super::book::Book;
use super::strategy::backward::search::{Backward, Rest};
use super::strategy::{self, Strategist, Task};
use super::{device, saved, Checkpoint, Goal, Hunt, HuntError, Hunted, Report, BATCH};
use crate::deal::SplitMix64;
use crate::engine::{Engine, GameResult};
use crate::gpu::Walker;
use crate::pool::Pool;
use crate::rules::Rules;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What stops a hunt before its budget: a signal's flag, and the end of its time.
#[derive(Clone, Copy)]
pub(crate) struct Halt<'a> {
    pub(super) stop: &'a AtomicBool,
    pub(super) deadline: Option<Instant>,
}

impl Halt<'_> {
    /// Whether the hunt should stop now.
    pub(crate) fn now(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// What one turn of the loop played: games, generations, states expanded, and whether a
/// backward search was cut short by a stop.
pub(crate) struct Generation {
    pub(crate) games: u64,
    pub(crate) generations: u64,
    pub(crate) steps: u64,
    pub(crate) cut: bool,
}

/// What the generations of a hunt share: the hunt, its workers and their pool, the book, the
/// strategist, when this run started and the seconds of the runs before it.
pub(super) struct Generations<'a, 'w> {
    pub(super) hunt: &'a Hunt,
    pub(super) workers: &'a Pool<'w, Worker>,
    pub(super) pool: &'a rayon::ThreadPool,
    pub(super) book: &'a mut Book,
    pub(super) strategist: &'a mut Strategist,
    pub(super) started: Instant,
    pub(super) before: f64,
}

impl Generations<'_, '_> {
    /// Plays the next turn of at most `left` games: a generation on the CPU (the first, and
    /// those with given deals), or as many as a launch of `device` holds.
    pub(super) fn turn(
        &mut self,
        device: Option<&mut dyn Walker>,
        at: &saved::At,
        left: u64,
        halt: &Halt,
    ) -> Result<Generation, HuntError> {
        match device {
            // Whole generations a launch, as many as a launch holds.
            Some(device) if at.generations > 0 && !self.strategist.gives() => {
                let count = left.min((device.window() / BATCH as u64).max(1) * BATCH as u64);
                device::play(self, device, at, count, halt)
            }
            _ => {
                let tasks = self.strategist.tasks(left.min(BATCH as u64) as usize);
                let places: Vec<u64> = (0..tasks.len() as u64).collect();
                let (steps, cut) = self.play_tasks(at, &tasks, &places, halt);
                Ok(Generation {
                    games: tasks.len() as u64,
                    generations: 1,
                    steps,
                    cut,
                })
            }
        }
    }

    /// Seconds of the hunt so far, the runs it continues included.
    pub(super) fn seconds(&self) -> f64 {
        self.before + self.started.elapsed().as_secs_f64()
    }

    /// Plays `tasks` of generation `at.generations` (the hunt having played `at.games` games
    /// before it), task `k` at place `places[k]` of the generation, each place with its own
    /// generator (from the hunt's seed and stream, the generation and the place), in
    /// parallel; offers their games to the book in order, and lets the strategy learn from
    /// them. Returns the states the backward strategy expanded, and whether `halt` cut one of
    /// its searches short.
    pub(super) fn play_tasks(
        &mut self,
        at: &saved::At,
        tasks: &[Task],
        places: &[u64],
        halt: &Halt,
    ) -> (u64, bool) {
        let hunt = self.hunt;
        let stream = mix(mix(hunt.seed, hunt.stream.0), at.generations);
        let workers = self.workers;
        let played: Vec<Played> = self.pool.install(|| {
            tasks
                .par_iter()
                .zip(places)
                .map_init(
                    || workers.borrow(),
                    |worker, (task, &place)| {
                        let rng = SplitMix64(mix(stream, place));
                        worker.play(task, rng, hunt.goal, halt)
                    },
                )
                .collect()
        });
        let seconds = self.seconds();
        let (mut steps, mut cut) = (0, false);
        for ((outcome, &place), task) in played.iter().zip(places).zip(tasks) {
            steps += outcome.steps;
            cut |= outcome.cut;
            let found = at.games + place + 1;
            // A given deal was not found by this hunt.
            let given = if task.given() { 0 } else { found };
            self.book
                .offer(&outcome.order, &outcome.result, given, seconds);
            if let Some(extended) = &outcome.extended {
                self.book.offer(&extended.0, &extended.1, found, seconds);
            }
        }
        self.strategist.learn(tasks, &played);
        (steps, cut)
    }

    /// What the hunt found so far, having played as `at` says.
    pub(super) fn hunted(&self, at: &saved::At, stopped: bool) -> Hunted {
        Hunted {
            best: self.book.kept(),
            log: self.book.log().to_vec(),
            games: at.games,
            steps: at.steps,
            generations: at.generations,
            seconds: self.seconds(),
            stopped,
        }
    }

    /// The hunt's checkpoint, having played as `at` says.
    pub(super) fn checkpoint(&self, at: &saved::At, stopped: bool) -> Checkpoint {
        let report = Report::of(self.hunt, &self.hunted(at, stopped));
        Checkpoint::of(self.hunt, report, self.strategist.state(), at.uncounted)
    }
}

/// Mixes `x` into `seed`: one SplitMix64 step of their sum's successor, for independent
/// generators of each stream, generation and task.
pub(super) fn mix(seed: u64, x: u64) -> u64 {
    SplitMix64(seed ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64()
}

/// What a task played: its deal and game, a longer deal found backward, states expanded.
pub(crate) struct Played {
    pub(crate) order: Vec<u8>,
    pub(crate) result: GameResult,
    pub(crate) value: Option<u64>,
    pub(crate) extended: Option<(Vec<u8>, GameResult, u64)>,
    pub(crate) steps: u64,
    /// Whether a stop cut its backward search short.
    pub(crate) cut: bool,
    /// The pieces its construction found.
    pub(crate) pieces: Vec<strategy::construct::Piece>,
}

/// A thread's engine and backward search, and the deck's values.
pub(super) struct Worker {
    engine: Engine,
    backward: Option<Backward>,
    sorted: Vec<u8>,
}

impl Worker {
    pub(super) fn new(rules: &Rules, sorted: &[u8]) -> Worker {
        Worker {
            engine: Engine::new(*rules),
            backward: (rules.players() == 2).then(|| Backward::new(rules)),
            sorted: sorted.to_vec(),
        }
    }

    /// Plays `task` with its generator `rng`.
    fn play(&mut self, task: &Task, mut rng: SplitMix64, goal: Goal, halt: &Halt) -> Played {
        let drawn = task.deal(&mut rng, &self.sorted, &mut self.engine);
        let order = drawn.order;
        let result = self.engine.play_order(&order);
        let value = goal.value(&result);
        let (mut extended, mut steps, mut cut) = (None, 0, false);
        if let (Some(budget), Some(v), Goal::Longest(metric)) = (task.extend, value, goal) {
            if v >= task.threshold {
                let backward = self.backward.as_mut().expect("a two-player setting");
                let rest = Rest {
                    rounds: result.rounds,
                    battles: result.battles,
                    wars: result.wars,
                };
                let (found, expanded, halted) =
                    backward.search(&mut self.engine, &order, rest, metric, budget, halt);
                (steps, cut) = (expanded, halted);
                if let Some(found) = found {
                    let game = self.engine.play_order(&found.order);
                    debug_assert_eq!(
                        (game.rounds, game.battles, game.wars),
                        (found.rest.rounds, found.rest.battles, found.rest.wars)
                    );
                    let value = goal.value(&game).unwrap_or(0);
                    extended = Some((found.order, game, value));
                }
            }
        }
        Played {
            order,
            result,
            value,
            extended,
            steps,
            cut,
            pieces: drawn.pieces,
        }
    }
}
