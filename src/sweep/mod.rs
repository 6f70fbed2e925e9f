//! Plays every seed of a range under one setting, in parallel, with results in seed order.
//!
//! The range is cut into windows; each window is cut into chunks that rayon's workers play, each
//! with its own engine and accumulator (reset per game, never reallocated). A finished window goes
//! to a writer thread while the workers play the next one, so output streams in seed order with
//! memory bounded by two windows whatever the range. Results depend on the seed only: the CSV
//! and the summary are the same for any thread count and chunk size.

mod executor;
mod sink;

pub use sink::{CsvSink, Durable, RowSink};

use crate::deal::mirror::Mirror;
use crate::deal::seeds::{check_seeds, RangeError, Seeds};
use crate::deal::Shuffle;
use crate::engine::{GameResult, DEFAULT_MAX_ROUNDS};
use crate::gpu::{self, DeviceError, Plan, Unfit, Walker};
use crate::output::accumulator::Accumulator;
use crate::output::cycles::{Cycles, MOST_CYCLES};
use crate::output::setting::SweepSetting;
use crate::output::summary::Summary;
use crate::rules::{check_max_rounds, Rules, RulesError};
use executor::{Executor, Plays};
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Why a sweep stopped before its end.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use warsweep::{Preset, Rules, Seeds, Shuffle, Stop, Sweep};
/// let sweep = Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, Seeds::new(0, 10_000)?)
///     .pacing(100, 1_000);
/// // Asked to stop from the start: the first window is played, then the sweep stops.
/// let swept = sweep.run(None, &|_| {}, &AtomicBool::new(true))?;
/// assert_eq!(swept.stopped, Some(Stop::Interrupted));
/// assert!(swept.summary.games() < 10_000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The CSV's reader went away (`warsweep sweep --csv - | head`).
    ReaderGone,
    /// The user or the system asked it to stop (a signal).
    Interrupted,
    /// It met more distinct cycles than a table keeps (`MOST_CYCLES`).
    TooManyCycles,
}

/// How a sweep is cut up; results never depend on it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pacing {
    /// Seeds one worker plays before taking the next chunk (and advancing the progress bar).
    pub(crate) chunk: usize,
    /// Seeds played before their rows are handed to the writer; two windows are in memory.
    pub(crate) window: usize,
}

impl Default for Pacing {
    fn default() -> Pacing {
        Pacing {
            chunk: 2048,
            window: 1 << 17,
        }
    }
}

/// One sweep: a setting and a seed range, and how to play it. Built by [`Sweep::new`] and its
/// setters; `run` (and `check`, which `run` calls first) refuses what cannot be played.
///
/// ```
/// use warsweep::{Metric, Preset, Seeds, Settings, Shuffle, Sweep};
/// let rules = Settings::new(Preset::Shortened).build()?;
/// let sweep = Sweep::new(rules, Shuffle::Lcg, Seeds::new(0, 1_000)?).threads(2);
/// let swept = sweep.run(None, &|_| {}, &Default::default())?;
/// assert_eq!((swept.summary.games(), swept.stopped), (1_000, None));
/// let mean = swept.summary.stats(Metric::Battles).mean.unwrap();
/// assert!(mean > 100.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Sweep {
    /// The rules of every game.
    pub(crate) rules: Rules,
    /// How a seed becomes a deal.
    pub(crate) shuffle: Shuffle,
    /// The seeds to play.
    pub(crate) seeds: Seeds,
    /// The round limit of games that cannot be checked for cycles.
    pub(crate) max_rounds: u64,
    /// Worker threads.
    pub(crate) threads: usize,
    /// How the range is cut up.
    pub(crate) pacing: Pacing,
    /// Keep the distinct cycles and their basins (`--cycles`).
    pub(crate) cycles: bool,
    /// Count mirror deals with the deal played where they can be ([`Sweep::mirror`]); `false`
    /// plays every deal (`--every-deal`).
    pub(crate) mirrors: bool,
    /// The walk whose mirror pairs are counted together: `seeds`, or the whole range a shard
    /// is part of (`--shard`), so that pairs across shards are played once too.
    pub(crate) pairs: Seeds,
    /// Walk on the GPU ([`Sweep::gpu`]).
    pub(crate) gpu: bool,
}

/// What a sweep produced.
///
/// ```
/// use warsweep::{Preset, Rules, Seeds, Shuffle, Sweep};
/// let seeds = Seeds::new(0, 500)?;
/// let swept = Sweep::new(Rules::preset(Preset::Codingame), Shuffle::Lcg, seeds).run(None, &|_| {}, &Default::default())?;
/// let ended = swept.summary.outcomes();
/// assert_eq!(ended.wins.iter().sum::<u64>() + ended.draws + ended.infinite + ended.capped, 500);
/// assert_eq!((swept.summary.seeds(), swept.stopped), (seeds, None));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Swept {
    /// The summary of the seeds played: all of them unless it stopped early.
    pub summary: Summary,
    /// Why it stopped early, if it did.
    pub stopped: Option<Stop>,
}

/// What a sweep covered, as the command line's job keeps it.
#[derive(Debug)]
pub(crate) struct Covered {
    /// The tallies of `seeds.start..covered_end` (a resumed part included).
    pub(crate) acc: Accumulator,
    /// The seeds actually played: `seeds.start..covered_end`.
    pub(crate) covered_end: u128,
    /// Why it stopped early, if it did.
    pub(crate) stopped: Option<Stop>,
}

/// Where a sweep is at the end of a window: what a checkpoint saves.
pub struct Progress<'a> {
    /// One past the last seed covered.
    pub covered_end: u128,
    /// The tallies of the covered seeds.
    pub acc: &'a Accumulator,
    /// Bytes of the CSV holding the rows of the covered seeds (0 without a CSV).
    pub csv_bytes: u64,
}

/// What saves a checkpoint ([`Checkpoints::save`]).
type Save<'a> = dyn FnMut(Progress) -> io::Result<()> + Send + 'a;

/// Saves a sweep's progress every `every` (at a window's end, once its rows are on disk).
pub struct Checkpoints<'a> {
    /// Time between two checkpoints.
    pub every: std::time::Duration,
    /// Saves one.
    pub save: &'a mut (dyn FnMut(Progress) -> io::Result<()> + Send),
}

/// The rows of a sweep of chosen seeds, kept in memory in the order played.
struct Collect<'a>(&'a mut Vec<GameResult>);

impl RowSink for Collect<'_> {
    fn window(&mut self, _first_seed: u64, results: &[GameResult]) -> io::Result<()> {
        self.0.extend_from_slice(results);
        Ok(())
    }

    fn sync(&mut self) -> io::Result<u64> {
        Ok(0)
    }

    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Most worker threads a sweep may ask for: far more than any machine has cores, and few
/// enough that a typo (`-j 100000`) is caught rather than exhausting the system.
pub const MAX_THREADS: usize = 1024;

/// Most seeds in a chunk or a window ([`Sweep::pacing`]): 2^24, 128 times the default window. Two
/// windows of rows are in memory, each about 0.8 GB at this size (48 bytes a game); more would
/// risk running out of memory.
pub const MAX_PACING: usize = 1 << 24;

/// Why a sweep cannot run, or stopped failing.
///
/// ```
/// use warsweep::{Preset, Rules, Seeds, Shuffle, Sweep, SweepError};
/// let sweep = Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, Seeds::new(0, 10)?).threads(0);
/// let refused = sweep.run(None, &|_| {}, &Default::default()).unwrap_err();
/// assert!(matches!(refused, SweepError::Threads(0)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(thiserror::Error, Debug)]
#[non_exhaustive]
pub enum SweepError {
    /// A table of cycles where no game is found infinite.
    #[error("a table of cycles needs games whose cycles are found, and games under the random gather or with shuffled won piles are not checked for cycles (they stop after max-rounds rounds)")]
    NoCycles,
    /// A thread count outside `1..=MAX_THREADS`.
    #[error("a sweep runs on 1 to {MAX_THREADS} threads, not {0}")]
    Threads(usize),
    /// Seeds the shuffle cannot deal (`lex` past its last deal, or on a deck with more deals
    /// than seeds can number).
    #[error(transparent)]
    Seeds(#[from] RangeError),
    /// Seeds outside the walk whose mirror pairs are counted.
    #[error("the seeds {0} are not part of the walk {1} whose mirror deals are counted together")]
    OutsidePairs(String, String),
    /// The sweep met more distinct cycles than a table of cycles keeps.
    #[error("the sweep met more than {} distinct cycles, more than a table of cycles keeps: sweep a smaller range", crate::text::group(MOST_CYCLES as u64))]
    TooManyCycles,
    /// A chunk or a window of no seeds, or of more than [`MAX_PACING`].
    #[error("a sweep's chunks and windows hold 1 to {} seeds, not {chunk} and {window}", crate::text::group(MAX_PACING as u64))]
    Pacing {
        /// Seeds a worker plays at once.
        chunk: usize,
        /// Seeds handed to the sink at once.
        window: usize,
    },
    /// A walk that counts mirror deals together stopped before its end: its tallies count
    /// mirrors of deals past the seeds it played, so they summarize no range.
    #[error("the walk was stopped before its end, and a walk that counts mirror deals together summarizes only a whole walk: play every deal (mirrors off) to stop one early")]
    StoppedMirrorWalk,
    /// Chosen seeds ([`Sweep::run_chosen`]) that are none.
    #[error("no seed is chosen: give one or more")]
    NoSeeds,
    /// The GPU cannot play this sweep, or failed: why, in one sentence.
    #[error(transparent)]
    Device(#[from] DeviceError),
    /// A setting the sweep cannot play: a round limit of 0.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// Writing the rows or a checkpoint failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// `threads` if a sweep may run on that many (1 to [`MAX_THREADS`]).
pub(crate) fn check_threads(threads: usize) -> Result<usize, SweepError> {
    match threads {
        1..=MAX_THREADS => Ok(threads),
        _ => Err(SweepError::Threads(threads)),
    }
}

impl Sweep {
    /// A sweep of `seeds` under `rules`, dealt by `shuffle`: on every core the machine has,
    /// games capped at [`DEFAULT_MAX_ROUNDS`] rounds where no cycle can be found, mirror deals
    /// counted together where they can be, no table of cycles.
    pub fn new(rules: Rules, shuffle: Shuffle, seeds: Seeds) -> Sweep {
        Sweep {
            rules,
            shuffle,
            seeds,
            max_rounds: DEFAULT_MAX_ROUNDS,
            threads: std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            pacing: Pacing::default(),
            cycles: false,
            mirrors: true,
            pairs: seeds,
            gpu: false,
        }
    }

    /// The round limit of games that cannot be checked for cycles (random gather, shuffled won
    /// piles): 1 or more (`run` refuses 0 with [`SweepError::Rules`]).
    pub fn max_rounds(mut self, max_rounds: u64) -> Sweep {
        self.max_rounds = max_rounds;
        self
    }

    /// Worker threads, 1 to [`MAX_THREADS`]; the results are the same for any count.
    pub fn threads(mut self, threads: usize) -> Sweep {
        self.threads = threads;
        self
    }

    /// How the range is cut up: each worker plays `chunk` seeds before it takes the next
    /// chunk (and the progress callback hears of them), and the rows of `window` seeds are handed
    /// to the sink at once (two windows are in memory). 1 to [`MAX_PACING`] each, 2,048 and
    /// 131,072 by default; the results are the same for any.
    pub fn pacing(mut self, chunk: usize, window: usize) -> Sweep {
        self.pacing = Pacing { chunk, window };
        self
    }

    /// Keep the distinct cycles and their basins in the summary.
    pub fn cycles(mut self, cycles: bool) -> Sweep {
        self.cycles = cycles;
        self
    }

    /// `false` plays every deal of a symmetric setting's `lex` walk, instead of one deal of each
    /// mirror pair counted twice.
    pub fn mirrors(mut self, mirrors: bool) -> Sweep {
        self.mirrors = mirrors;
        self
    }

    /// Play on the machine's NVIDIA GPU (`lex` walks, lcg and splitmix seeds below 2^53, of
    /// two-player games of decks of up to 64 cards of up to 15 values; a build with the `gpu`
    /// feature), with the same results as on the CPU.
    /// Without a GPU, a driver or the feature, or for a sweep the GPU cannot play, `run` says
    /// why ([`SweepError::Device`]; [`Sweep::unfit_for_gpu`] tells beforehand what of a sweep
    /// the GPU cannot play).
    pub fn gpu(mut self, gpu: bool) -> Sweep {
        self.gpu = gpu;
        self
    }

    /// The whole walk these seeds are a shard of, so that mirror pairs across shards are
    /// played once.
    pub fn shard_of(mut self, whole: Seeds) -> Sweep {
        self.pairs = whole;
        self
    }

    /// Refuses what cannot be played and options that would silently do nothing: seeds the
    /// shuffle has no deal for, a thread count out of range, a table of cycles (`cycles`) of
    /// games that are never found infinite. `run` checks first.
    pub(crate) fn check(&self) -> Result<(), SweepError> {
        check_threads(self.threads)?;
        check_max_rounds(self.max_rounds)?;
        let Pacing { chunk, window } = self.pacing;
        if !(1..=MAX_PACING).contains(&chunk) || !(1..=MAX_PACING).contains(&window) {
            return Err(SweepError::Pacing { chunk, window });
        }
        check_seeds(self.shuffle, self.rules.deck(), self.seeds)?;
        check_seeds(self.shuffle, self.rules.deck(), self.pairs)?;
        if !self.seeds.within(self.pairs) {
            return Err(SweepError::OutsidePairs(
                self.seeds.to_string(),
                self.pairs.to_string(),
            ));
        }
        if self.cycles && !self.rules.detects_cycles() {
            return Err(SweepError::NoCycles);
        }
        Ok(())
    }

    /// Whether counting mirror deals together could apply at all: in a `lex` walk of a
    /// symmetric setting (a sweep writing rows still plays every deal).
    pub(crate) fn has_mirrors(&self) -> bool {
        self.shuffle == Shuffle::Lex && self.rules.symmetric()
    }

    /// The mirror deals this sweep counts with the deal played: in a symmetric setting's
    /// `lex` walk, unless it writes a row for every deal (`rows`) or plays every deal.
    pub(crate) fn mirror(&self, rows: bool) -> Option<Mirror> {
        (self.mirrors && !rows)
            .then(|| Mirror::of(&self.rules, self.shuffle, self.pairs))
            .flatten()
    }

    /// What to tell of a range whose seeds repeat deals ([`Shuffle::repeats_note`]).
    pub(crate) fn repeats_note(&self) -> Option<String> {
        self.shuffle.repeats_note(self.seeds.end())
    }

    /// Plays the range. `sink` gets the rows in seed order; `progress` is called with the
    /// number of seeds each chunk finished; `stop` is checked between windows (a sweep stopped
    /// early summarizes the seeds it played).
    pub fn run(
        &self,
        sink: Option<&mut dyn RowSink>,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> Result<Swept, SweepError> {
        let started = Instant::now();
        let mirrored = self.mirror(sink.is_some()).is_some();
        let played = self.play(None, None, sink, progress, stop, None)?;
        if played.stopped == Some(Stop::TooManyCycles) {
            return Err(SweepError::TooManyCycles);
        }
        if mirrored && matches!(played.stopped, Some(Stop::Interrupted | Stop::ReaderGone)) {
            return Err(SweepError::StoppedMirrorWalk);
        }
        let setting = SweepSetting::of(&self.rules, self.shuffle, self.max_rounds);
        let covered = self.seeds.up_to(played.covered_end);
        let elapsed = started.elapsed().as_secs_f64();
        let mut summary = Summary::new(&setting, covered, &played.acc, elapsed);
        if mirrored && self.pairs != self.seeds {
            summary.mirrors_within = Some(self.pairs);
        }
        Ok(Swept {
            summary,
            stopped: played.stopped,
        })
    }

    /// Plays the chosen `seeds` instead of the range (in the order given, a seed listed twice
    /// played twice): a sample, a stepped range, the seeds of the games a first sweep found
    /// worth a second look. `rows` gets their games in that order. The summary counts them
    /// ([`Summary::games`]) within the range from the least to the greatest
    /// ([`Summary::seeds`]); it merges with no other.
    ///
    /// ```
    /// use warsweep::{Preset, Rules, Seeds, Shuffle, Sweep};
    /// let sweep = Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, Seeds::new(0, 1)?);
    /// let mut rows = Vec::new();
    /// let swept = sweep.run_chosen(&[70, 10, 40], Some(&mut rows), &|_| {}, &Default::default())?;
    /// assert_eq!((swept.summary.games(), swept.summary.seeds()), (3, Seeds::new(10, 71)?));
    /// let mut engine = warsweep::Engine::new(Rules::preset(Preset::Classic));
    /// assert_eq!(rows[0], engine.play_seed(Shuffle::Lcg, 70)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_chosen(
        &self,
        seeds: &[u64],
        rows: Option<&mut Vec<GameResult>>,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> Result<Swept, SweepError> {
        let started = Instant::now();
        let (Some(&least), Some(&most)) = (seeds.iter().min(), seeds.iter().max()) else {
            return Err(SweepError::NoSeeds);
        };
        let span = Seeds::new(least, u128::from(most) + 1)?;
        let chosen = Sweep {
            seeds: span,
            pairs: span,
            ..*self
        };
        let mut collect = rows.map(Collect);
        let sink = collect.as_mut().map(|c| c as &mut dyn RowSink);
        let played = chosen.play(Some(seeds), None, sink, progress, stop, None)?;
        if played.stopped == Some(Stop::TooManyCycles) {
            return Err(SweepError::TooManyCycles);
        }
        let covered = &seeds[..(played.covered_end as usize)];
        let covered_span = match (covered.iter().min(), covered.iter().max()) {
            (Some(&a), Some(&b)) => Seeds::new(a, u128::from(b) + 1)?,
            _ => Seeds::new(least, u128::from(least))?,
        };
        let setting = SweepSetting::of(&self.rules, self.shuffle, self.max_rounds);
        let elapsed = started.elapsed().as_secs_f64();
        let mut summary = Summary::new(&setting, covered_span, &played.acc, elapsed);
        summary.chosen = Some(covered.len() as u64);
        Ok(Swept {
            summary,
            stopped: played.stopped,
        })
    }

    /// Plays the range from `resume` (seeds already covered and their tallies) or its start,
    /// saving `checkpoints`; or, given `chosen`, those seeds (`covered_end` then counts them).
    /// On the GPU when the sweep asks for it ([`Sweep::gpu`]).
    pub(crate) fn play(
        &self,
        chosen: Option<&[u64]>,
        resume: Option<(u128, Accumulator)>,
        sink: Option<&mut dyn RowSink>,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
        checkpoints: Option<Checkpoints>,
    ) -> Result<Covered, SweepError> {
        self.check()?;
        let mut device = match self.gpu {
            true => Some(self.open_gpu(chosen.is_some(), sink.is_some())?),
            false => None,
        };
        let device = device.as_mut().map(|d| &mut **d as &mut dyn Walker);
        let run = Run {
            chosen,
            resume,
            sink,
            progress,
            stop,
            checkpoints,
        };
        self.play_on(device, run)
    }

    /// What of this sweep the GPU cannot play, every reason, the first thing to fix first (a
    /// build without GPU support, then per-game `rows`, then the setting); empty where it can
    /// play it all, or where the sweep is not asked to ([`Sweep::gpu`]).
    ///
    /// ```
    /// use warsweep::{Deck, Gather, Preset, Seeds, Settings, Shuffle, Sweep, Unfit};
    /// let rules = Settings::new(Preset::Bataille).gather(Gather::Random).deck(Deck::parse("5x13")?).build()?;
    /// let sweep = Sweep::new(rules, Shuffle::Lcg, Seeds::new(0, 10)?).gpu(true);
    /// let reasons = sweep.unfit_for_gpu(true);
    /// if !warsweep::GPU_SUPPORT {
    ///     assert_eq!(reasons[0], Unfit::NotBuilt);
    /// }
    /// assert!(reasons.contains(&Unfit::Rows));
    /// assert!(reasons.contains(&Unfit::Gather(Gather::Random)));
    /// assert!(reasons.contains(&Unfit::Deck { deck: Deck::parse("5x13")?, cards: 65 }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn unfit_for_gpu(&self, rows: bool) -> Vec<Unfit> {
        if !self.gpu {
            return Vec::new();
        }
        let mut reasons = Vec::new();
        if !gpu::GPU_SUPPORT {
            reasons.push(Unfit::NotBuilt);
        }
        if rows {
            reasons.push(Unfit::Rows);
        }
        reasons.extend(gpu::plan::unfit(&self.rules, self.shuffle, self.pairs));
        reasons
    }

    /// The GPU, with the kernel of this sweep; or why it cannot play it: every reason
    /// [`Sweep::unfit_for_gpu`] finds, chosen seeds, or what failed on the way to the device.
    fn open_gpu(&self, chosen: bool, rows: bool) -> Result<Box<dyn Walker + Send>, SweepError> {
        let mut reasons = self.unfit_for_gpu(rows);
        if chosen {
            let at = usize::from(reasons.first() == Some(&Unfit::NotBuilt));
            reasons.insert(at, Unfit::Chosen);
        }
        if !reasons.is_empty() {
            return Err(DeviceError::Unfit(reasons).into());
        }
        let plan = Plan::new(&self.rules, self.shuffle, self.pairs, self.mirrors)
            .map_err(DeviceError::Unfit)?;
        Ok(gpu::open(&plan)?)
    }

    /// [`Sweep::play`] on `device`, or on the CPU alone: the window driver. It cuts the seeds
    /// into windows, has the executor play each, hands the rows to a writer thread (which
    /// writes them while the next window plays), and saves checkpoints between windows.
    pub(crate) fn play_on(
        &self,
        device: Option<&mut dyn Walker>,
        run: Run<'_, '_, '_>,
    ) -> Result<Covered, SweepError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(io::Error::other)?;
        let mirror = self
            .mirror(run.sink.is_some())
            .filter(|_| run.chosen.is_none());
        let plays = Plays::new(self, run.chosen, mirror.as_ref(), run.progress);
        let mut executor = match device {
            Some(device) => Executor::Device {
                device,
                pool: &pool,
            },
            None => Executor::Cpu {
                pool: &pool,
                chunk: self.pacing.chunk,
                window: self.pacing.window.max(self.pacing.chunk),
            },
        };
        // Played from `covered_end` to `end`: seeds of the range, or places in `chosen`.
        let (start, end) = match run.chosen {
            Some(list) => (0, list.len() as u128),
            None => (self.seeds.start() as u128, self.seeds.end()),
        };
        let (covered_end, base) = (run.resume).unwrap_or((start, Accumulator::new(self.cycles)));
        let (every, mut save) = match run.checkpoints {
            Some(c) => (Some(c.every), Some(c.save)),
            None => (None, None),
        };
        let mut windows = Windows {
            covered_end,
            end,
            window: executor.window(),
            stopped: None,
            failed: None,
            every,
            last_save: Instant::now(),
        };
        let mut sink = run.sink;
        std::thread::scope(|scope| -> io::Result<()> {
            let Some(sink) = sink.as_mut() else {
                let to = To::Checkpoint(save.as_deref_mut());
                return windows.play(&plays, &mut executor, run.stop, &base, to);
            };
            let (full_tx, full_rx) = mpsc::sync_channel::<Full>(1);
            let (empty_tx, empty_rx) = mpsc::channel::<Vec<GameResult>>();
            let save = save.take();
            let writer = scope.spawn(move || write_windows(&mut **sink, full_rx, empty_tx, save));
            let to = To::Writer(full_tx, empty_rx);
            windows.play(&plays, &mut executor, run.stop, &base, to)?;
            match writer.join().expect("the CSV writer panicked") {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                    windows.stopped = Some(Stop::ReaderGone);
                    Ok(())
                }
                written => written,
            }
        })?;
        if let Some(e) = windows.failed {
            return Err(e.into());
        }
        let acc = plays.total(&base);
        if acc.cycles.as_ref().is_some_and(Cycles::overflowed) {
            windows.stopped = Some(Stop::TooManyCycles);
        }
        Ok(Covered {
            acc,
            covered_end: windows.covered_end,
            stopped: windows.stopped,
        })
    }
}

/// What a sweep plays and where it goes: chosen seeds (or the range), the seeds covered and
/// their tallies that it continues, the sink of its rows, its progress, its stop and its
/// checkpoints.
/// (`'s` and `'k`: the sink's and the checkpoints' own lifetimes, which a mutable borrow keeps
/// apart.)
pub(crate) struct Run<'a, 's, 'k> {
    pub(crate) chosen: Option<&'a [u64]>,
    pub(crate) resume: Option<(u128, Accumulator)>,
    pub(crate) sink: Option<&'a mut (dyn RowSink + 's)>,
    pub(crate) progress: &'a (dyn Fn(u64) + Sync),
    pub(crate) stop: &'a AtomicBool,
    pub(crate) checkpoints: Option<Checkpoints<'k>>,
}

#[cfg(test)]
impl<'a> Run<'a, '_, '_> {
    /// The whole range from its start, no rows kept, no checkpoint.
    pub(crate) fn plain(progress: &'a (dyn Fn(u64) + Sync), stop: &'a AtomicBool) -> Self {
        Run {
            chosen: None,
            resume: None,
            sink: None,
            progress,
            stop,
            checkpoints: None,
        }
    }
}

/// Where a sweep's windows stand: the seeds covered and up to where, the window's size, why it
/// stopped or what failed, and when the last checkpoint was saved.
struct Windows {
    covered_end: u128,
    end: u128,
    window: usize,
    stopped: Option<Stop>,
    failed: Option<DeviceError>,
    every: Option<std::time::Duration>,
    last_save: Instant,
}

/// Where each played window goes: to the writer thread, which gives its buffers back; or, with
/// no rows kept, its tallies straight to the checkpoint.
enum To<'s, 'a> {
    Writer(mpsc::SyncSender<Full>, mpsc::Receiver<Vec<GameResult>>),
    Checkpoint(Option<&'s mut Save<'a>>),
}

impl Windows {
    /// Plays window after window until the seeds are covered, `stop` is set, a device fails or
    /// the writer stops; sends each to `to` with the tallies to save when one is due.
    fn play(
        &mut self,
        plays: &Plays,
        executor: &mut Executor,
        stop: &AtomicBool,
        base: &Accumulator,
        mut to: To,
    ) -> io::Result<()> {
        // Rows are kept only for a sink (a device walk has none).
        let writing = matches!(to, To::Writer(..));
        let mut spare = Vec::with_capacity(if writing { self.window } else { 0 });
        while self.covered_end < self.end {
            if plays.too_many_cycles() {
                self.stopped = Some(Stop::TooManyCycles);
                break;
            }
            if stop.load(Ordering::Relaxed) {
                self.stopped = Some(Stop::Interrupted);
                break;
            }
            let first = self.covered_end as u64;
            let n = (self.end - self.covered_end).min(self.window as u128) as usize;
            let given_back = match &to {
                To::Writer(_, empty) => empty.try_recv().ok(),
                To::Checkpoint(_) => None,
            };
            let mut buffer = given_back.unwrap_or(std::mem::take(&mut spare));
            buffer.clear();
            if let Err(e) = executor.play(plays, first, n, writing.then_some(&mut buffer)) {
                self.failed = Some(e);
                break;
            }
            self.covered_end += n as u128;
            let snapshot = match self.every {
                Some(every) if self.last_save.elapsed() >= every && self.covered_end < self.end => {
                    self.last_save = Instant::now();
                    Some((self.covered_end, plays.total(base)))
                }
                _ => None,
            };
            match &mut to {
                To::Writer(full, _) => {
                    if full.send((first, buffer, snapshot)).is_err() {
                        // An error stopped the writer; it reports it when joined.
                        break;
                    }
                }
                To::Checkpoint(save) => {
                    spare = buffer;
                    if let (Some(save), Some((covered_end, acc))) = (save.as_mut(), snapshot) {
                        save(Progress {
                            covered_end,
                            acc: &acc,
                            csv_bytes: 0,
                        })?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// A full window on its way to the writer: its first seed, its rows, and the tallies to save
/// once they are on disk.
type Full = (u64, Vec<GameResult>, Option<(u128, Accumulator)>);

/// The writer thread: writes each full window to `sink`, gives its buffer back on `empty` for
/// reuse, and saves the checkpoint that came with it once its rows are on disk.
fn write_windows(
    sink: &mut dyn RowSink,
    full: mpsc::Receiver<Full>,
    empty: mpsc::Sender<Vec<GameResult>>,
    mut save: Option<&mut Save<'_>>,
) -> io::Result<()> {
    for (first, buffer, snapshot) in full {
        sink.window(first, &buffer)?;
        let _ = empty.send(buffer);
        if let (Some(save), Some((covered_end, acc))) = (save.as_mut(), snapshot) {
            let csv_bytes = sink.sync()?;
            save(Progress {
                covered_end,
                acc: &acc,
                csv_bytes,
            })?;
        }
    }
    sink.finish()
}
