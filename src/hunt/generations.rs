//! A hunt's generations: the loop that draws a generation's tasks from the strategist, plays
//! them on the workers (or a launch of the GPU), offers their games to the book in the tasks'
//! order, and hears a stop; and a worker's play of one task, extended backward when its game
//! is worth it.

use super::book::{Book, When};
use super::strategy::{self, Strategist, Task, Tools};
use super::{saved, Checkpoint, Goal, Hunt, Hunted, Report};
use crate::backward::{Backward, Rest};
use crate::deal::SplitMix64;
use crate::engine::{Engine, GameResult};
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

/// What one turn of the loop played: games, generations, states expanded, games built and
/// fallen back; and where a stop cut a generation short (a backward search, or a build), the
/// checkpoint of the hunt before that generation, which a resumed hunt plays again whole.
#[derive(Default)]
pub(crate) struct Generation {
    pub(crate) games: u64,
    pub(crate) generations: u64,
    pub(crate) steps: u64,
    pub(crate) built: u64,
    pub(crate) fell_back: u64,
    pub(crate) cut: Option<Box<Checkpoint>>,
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
    /// Plays the next generation on the CPU, of `count` tasks.
    pub(super) fn turn(&mut self, at: &saved::At, count: u64, halt: &Halt) -> Generation {
        let tasks = self.strategist.tasks(count as usize);
        let places: Vec<u64> = (0..tasks.len() as u64).collect();
        self.play_tasks(at, &tasks, &places, halt)
    }

    /// Seconds of the hunt so far, the runs it continues included.
    pub(super) fn seconds(&self) -> f64 {
        self.before + self.started.elapsed().as_secs_f64()
    }

    /// Plays `tasks` of generation `at.generations` (the hunt having played `at.games` games
    /// before it), task `k` at place `places[k]` of the generation, each place with its own
    /// generator (from the hunt's seed and stream, the generation and the place), in
    /// parallel; offers their games to the book in order, and lets the strategy learn from
    /// them. A generation that `halt` cut short (a build not played, a backward search
    /// stopped) counts the tasks it played, numbered in order, and learns nothing.
    pub(super) fn play_tasks(
        &mut self,
        at: &saved::At,
        tasks: &[Task],
        places: &[u64],
        halt: &Halt,
    ) -> Generation {
        let hunt = self.hunt;
        let stream = mix(mix(hunt.seed, hunt.stream.0), at.generations);
        let workers = self.workers;
        let least = self.book.least();
        let played: Vec<Option<Played>> = self.pool.install(|| {
            tasks
                .par_iter()
                .zip(places)
                .map_init(
                    || workers.borrow(),
                    |worker, (task, &place)| {
                        let rng = SplitMix64(mix(stream, place));
                        worker.play(task, rng, hunt.goal, least, halt)
                    },
                )
                .collect()
        });
        let whole = played.iter().all(|p| p.as_ref().is_some_and(|p| !p.cut));
        let mut generation = Generation {
            cut: (!whole).then(|| Box::new(self.checkpoint(at, true))),
            ..Generation::default()
        };
        // A build that `halt` stopped first is not played, and the games after it are
        // numbered by those played.
        let mut skipped = 0;
        for ((played, &place), task) in played.iter().zip(places).zip(tasks) {
            let Some(outcome) = played else {
                skipped += 1;
                continue;
            };
            generation.games += 1;
            generation.steps += outcome.steps;
            match outcome.built {
                Some(true) => generation.built += 1,
                Some(false) => generation.fell_back += 1,
                None => {}
            }
            let Some(seconds) = outcome.seconds else {
                continue;
            };
            // Games played when it was found.
            let found = at.games + place + 1 - skipped;
            let built = outcome.built.map(|_| {
                (
                    at.built + generation.built,
                    at.fell_back + generation.fell_back,
                )
            });
            let when = When {
                games: found,
                seconds,
                built,
            };
            // A given deal was not found by this hunt.
            let given = When {
                games: if task.given() { 0 } else { found },
                ..when
            };
            self.book.offer(&outcome.order, &outcome.result, given);
            if let Some(extended) = &outcome.extended {
                self.book.offer(&extended.0, &extended.1, when);
            }
        }
        generation.generations = u64::from(generation.games > 0);
        if whole {
            self.strategist.learn(tasks, &played);
        }
        generation
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
            cycles: self.book.cycles(),
            built: at.built,
            fell_back: at.fell_back,
        }
    }

    /// Where the hunt stands, having played as `at` says.
    pub(super) fn status(&self, at: &saved::At) -> super::Status {
        super::Status {
            games: at.games,
            best: self.book.best(),
            built: at.built,
            fell_back: at.fell_back,
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
    /// For a built task, whether it was built (else it fell back to a random deal).
    pub(crate) built: Option<bool>,
    /// Seconds of the hunt when it ended, the runs it continues included; [`None`] for a game
    /// that the book can neither keep nor log (see [`Worker::play`]).
    pub(crate) seconds: Option<f64>,
}

/// A thread's engine and backward search, the deck's values, and when the hunt's run started
/// and the seconds of the runs before it.
pub(super) struct Worker {
    engine: Engine,
    backward: Option<Backward>,
    sorted: Vec<u8>,
    started: Instant,
    before: f64,
}

impl Worker {
    pub(super) fn new(rules: &Rules, sorted: &[u8], started: Instant, before: f64) -> Worker {
        Worker {
            engine: Engine::new(*rules),
            backward: (rules.players() == 2).then(|| Backward::new(rules)),
            sorted: sorted.to_vec(),
            started,
            before,
        }
    }

    /// Plays `task` with its generator `rng`; [`None`] where `halt` stopped its build first.
    /// A game counts for the book if it has a value and, finished, is worth `least` or more
    /// ([`Book::least`](super::book::Book::least) at the generation's start, which only
    /// grows) or was extended; only those are timed and offered.
    fn play(
        &mut self,
        task: &Task,
        mut rng: SplitMix64,
        goal: Goal,
        least: u64,
        halt: &Halt,
    ) -> Option<Played> {
        let mut tools = Tools {
            engine: &mut self.engine,
            search: self.backward.as_mut(),
            sorted: &self.sorted,
        };
        let drawn = task.deal(&mut rng, &mut tools, halt)?;
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
                    backward.search(&mut self.engine, &order, rest, metric, budget, &|| {
                        halt.now()
                    });
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
        let counts = match (value, goal) {
            (Some(_), Goal::Cycles) => true,
            (Some(v), Goal::Longest(_)) => v >= least || extended.is_some(),
            (None, _) => false,
        };
        Some(Played {
            order,
            result,
            value,
            extended,
            steps,
            cut,
            pieces: drawn.pieces,
            built: drawn.built,
            // When it was found, for the log.
            seconds: counts.then(|| self.before + self.started.elapsed().as_secs_f64()),
        })
    }
}
