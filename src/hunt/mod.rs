//! Searching deals for the longest games and for infinite ones: the record tables of the
//! research on open War, and the cycles nobody has found.
//!
//! A hunt plays in generations. Each generation is a batch of tasks that its [`Strategy`] draws
//! from what the hunt has found so far; every task has its own generator, seeded from the hunt's
//! seed, its stream, the generation and the task's place, so the tasks can be played in any
//! order, on any number of threads or on a GPU (`device`), and the hunt's results depend only
//! on its seed, stream, strategy and budget of games. Between generations the hunt keeps the
//! best deals, logs each improvement, and hears a stop or the end of its time.

mod book;
pub(crate) mod deal;
pub(crate) mod device;
mod generations;
mod report;
mod saved;
pub(crate) mod strategy;

use crate::engine::{GameResult, Outcome};
use crate::gpu::{DeviceError, Walker};
use crate::output::metric::{Measured, Metric};
use crate::pool::Pool;
use crate::rules::Rules;
use crate::sweep::{check_threads, MAX_THREADS};
use book::Book;
use generations::{Generations, Worker};
pub(crate) use generations::{Halt, Played};
pub use report::{Report, ReportError};
pub use saved::Checkpoint;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
pub use strategy::Strategy;
use strategy::{Plan, Strategist};

/// What a hunt looks for.
///
/// ```
/// use warsweep::{hunt::Goal, Metric};
/// assert_eq!(Goal::Longest(Metric::Rounds).to_string(), "the longest game by rounds");
/// assert_eq!(Goal::Cycles.to_string(), "infinite games");
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The finished game with the most rounds, battles or wars.
    Longest(Metric),
    /// Infinite games, each distinct cycle once (named by its least state).
    Cycles,
}

impl std::fmt::Display for Goal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Goal::Longest(metric) => write!(f, "the longest game by {metric}"),
            Goal::Cycles => f.write_str("infinite games"),
        }
    }
}

impl Goal {
    /// What a game counts for: the metric of a finished game, or an infinite game's cycle
    /// length; [`None`] for a game that does not count.
    fn value(self, game: &GameResult) -> Option<u64> {
        match (self, game.outcome) {
            (Goal::Longest(metric), Outcome::Win(_) | Outcome::Draw) => Some(match metric {
                Metric::Battles => game.battles,
                Metric::Wars => game.wars,
                // The hunt refuses the others (`Hunt::check`).
                _ => game.rounds,
            }),
            (Goal::Cycles, Outcome::Infinite { cycle_length, .. }) => Some(cycle_length),
            _ => None,
        }
    }
}

/// A deal a hunt found.
///
/// ```
/// use warsweep::hunt::{Goal, Hunt};
/// use warsweep::puzzles::Start;
/// use warsweep::{Deck, Metric, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x4")?).build()?;
/// let found = Hunt::new(rules.clone(), Goal::Longest(Metric::Rounds))
///     .games(Some(4_000))
///     .run(&|_| {}, &Default::default())?;
/// let best = &found.best[0];
/// // Its hands replay to its game, as `warsweep play` reads them.
/// let hands = warsweep::puzzles::parse_hands(best.lines().as_bytes(), rules.deck())?;
/// let mut out = Vec::new();
/// let replayed = warsweep::puzzles::play(rules, 1_000_000, Start::Hands(&hands), false, &mut out)?;
/// assert_eq!(replayed, best.result);
/// assert_eq!(best.value, best.result.rounds);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Each player's hand, top card first, values from 1 (as `warsweep play` reads them).
    pub hands: Vec<Vec<u8>>,
    /// Its game.
    pub result: GameResult,
    /// What it counts for in the hunt: the metric, or an infinite game's cycle length.
    pub value: u64,
    /// Games the hunt had played when it found it.
    pub games: u64,
    /// The least state of an infinite game's cycle, as `sweep --cycles` names it (hands
    /// joined by `|`, values from 1).
    pub cycle: Option<String>,
    /// Games of the hunt that reached its cycle, this one included (0 for a finished game).
    pub reached: u64,
}

impl Found {
    /// The hands as `play` reads them: one line a hand, values separated by commas.
    ///
    /// ```
    /// let found = warsweep::hunt::Found {
    ///     hands: vec![vec![1, 3, 2, 2], vec![4, 4, 3, 1]],
    ///     result: warsweep::Engine::new(warsweep::Rules::preset(warsweep::Preset::Bataille))
    ///         .play_seed(warsweep::Shuffle::Lcg, 0)?,
    ///     value: 0,
    ///     games: 1,
    ///     cycle: None,
    ///     reached: 0,
    /// };
    /// assert_eq!(found.lines(), "1,3,2,2\n4,4,3,1\n");
    /// assert_eq!(found.joined(), "1,3,2,2|4,4,3,1");
    /// # Ok::<(), warsweep::RangeError>(())
    /// ```
    pub fn lines(&self) -> String {
        self.hands
            .iter()
            .map(|h| format!("{}\n", values(h)))
            .collect()
    }

    /// The hands on one line, as the record table keeps them: each hand's values separated by
    /// commas, hands by `|`.
    pub fn joined(&self) -> String {
        let hands: Vec<String> = self.hands.iter().map(|h| values(h)).collect();
        hands.join("|")
    }
}

/// Values separated by commas.
fn values(hand: &[u8]) -> String {
    let text: Vec<String> = hand.iter().map(u8::to_string).collect();
    text.join(",")
}

/// A step of a hunt's progress: a better game than any before (or a new cycle), when.
///
/// ```
/// use warsweep::hunt::{Goal, Hunt};
/// use warsweep::{Deck, Metric, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x5")?).build()?;
/// let found = Hunt::new(rules, Goal::Longest(Metric::Rounds))
///     .games(Some(8_000))
///     .run(&|_| {}, &Default::default())?;
/// // Each step longer than the one before, the last the best deal.
/// assert!(found.log.windows(2).all(|w| w[0].value < w[1].value));
/// assert_eq!(found.log.last().unwrap().hands, found.best[0].hands);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Improvement {
    /// Seconds since the hunt started (counting the time of the runs it continues: the hunt it
    /// resumes, or whose report it continues).
    pub seconds: f64,
    /// Games played when it was found.
    pub games: u64,
    /// Its value: the metric, or the cycle's length.
    pub value: u64,
    /// The deal.
    pub hands: Vec<Vec<u8>>,
    /// For a strategy that builds its deals, the games it had built when it was found.
    pub built: Option<u64>,
    /// And those it had fallen back on random deals for.
    pub fell_back: Option<u64>,
}

/// Where a hunt stands, after each generation.
///
/// ```
/// use std::sync::Mutex;
/// use warsweep::hunt::{Goal, Hunt};
/// use warsweep::{Deck, Metric, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x4")?).build()?;
/// let seen = Mutex::new(Vec::new());
/// let hunt = Hunt::new(rules, Goal::Longest(Metric::Rounds)).games(Some(10_000));
/// hunt.run(&|status| seen.lock().unwrap().push(status.games), &Default::default())?;
/// assert_eq!(seen.into_inner().unwrap().last(), Some(&10_000));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Status {
    /// Games played.
    pub games: u64,
    /// The best value so far (the longest game, or the number of cycles found).
    pub best: Option<u64>,
    /// Games a strategy that builds its deals built ([`Hunted::built`]).
    pub built: u64,
    /// Games it could not build and drew at random ([`Hunted::fell_back`]).
    pub fell_back: u64,
}

/// What a hunt found.
///
/// ```
/// use warsweep::hunt::{Goal, Hunt};
/// use warsweep::{Deck, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x4")?).build()?;
/// let found = Hunt::new(rules, Goal::Cycles).games(Some(50_000)).keep(4).run(&|_| {}, &Default::default())?;
/// assert!(found.games == 50_000 && !found.stopped);
/// // The 4x4 loops end on four distinct cycles, each of 24 rounds.
/// assert!(!found.best.is_empty() && found.best.iter().all(|f| f.value == 24));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Hunted {
    /// The best deals, best first (the longest games; or each cycle's first deal, in the order
    /// found).
    pub best: Vec<Found>,
    /// Each improvement, in order.
    pub log: Vec<Improvement>,
    /// Games played.
    pub games: u64,
    /// States the backward strategy expanded (each one round played forward to check it).
    pub steps: u64,
    /// Generations played (a continued hunt draws its deals from the next).
    pub generations: u64,
    /// Seconds it took.
    pub seconds: f64,
    /// Whether it was stopped before its budget was spent (a signal, or its time).
    pub stopped: bool,
    /// Distinct cycles reached (a hunt for cycles: every one, logged, however many it keeps).
    pub cycles: u64,
    /// Games whose deal a strategy that builds its deals (construct, shapes) built; 0 for
    /// the others.
    pub built: u64,
    /// Games whose deal such a strategy could not build, and drew at random instead.
    pub fell_back: u64,
}

/// Why a hunt cannot run.
///
/// ```
/// use warsweep::hunt::{Goal, Hunt, HuntError};
/// use warsweep::{Metric, Preset, Rules};
/// let hunt = Hunt::new(Rules::preset(Preset::Bataille), Goal::Longest(Metric::Rounds));
/// assert_eq!(hunt.clone().games(Some(0)).check(), Err(HuntError::NoBudget));
/// assert_eq!(hunt.keep(0).check(), Err(HuntError::Keep));
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HuntError {
    /// A budget of nothing: 0 games or no time.
    #[error("a hunt needs a budget of 1 game or more, or some time")]
    NoBudget,
    /// A setting whose games are not decided by the deal alone (the random gather, shuffled
    /// won piles): no game can be replayed from its hands, and none is checked for cycles.
    #[error("a hunt needs games that the deal decides, and games under the random gather or with shuffled won piles draw from a generator (they are not checked for cycles, and their length is not the deal's)")]
    Undecided,
    /// A metric of infinite or capped games as the length of finished ones.
    #[error("the longest game is measured in rounds, battles or wars, not {0}")]
    Metric(Metric),
    /// A strategy the setting does not allow.
    #[error("the {0} strategy plays two-player games, not {1} players")]
    Players(Strategy, usize),
    /// A thread count outside `1..=MAX_THREADS`.
    #[error("a hunt runs on 1 to {MAX_THREADS} threads, not {0}")]
    Threads(usize),
    /// No deal kept.
    #[error("a hunt keeps 1 deal or more")]
    Keep,
    /// A backward search that may expand no state.
    #[error("a backward search expands 1 state or more")]
    NoStates,
    /// A stream past the streams (`k` of `n`, `k >= n`).
    #[error("stream {0} of {1} is none of them: streams count from 0 to {1} - 1")]
    Stream(u64, u64),
    /// Given hands that are not a deal of the setting.
    #[error("the starting hands #{which} are not a deal of this setting: {why}")]
    Start {
        /// Which of the given deals, from 1.
        which: usize,
        /// Why.
        why: String,
    },
    /// A checkpoint that cannot be read.
    #[error("it is not a whole hunt checkpoint ({0}); move it away to start over")]
    Checkpoint(String),
    /// A checkpoint of another hunt.
    #[error("cannot resume from the checkpoint: it was written by another hunt, {0}; run the same command as before, or move it away to start over")]
    Resume(String),
    /// A report to continue of another setting or goal.
    #[error("cannot start from the report: it is of another search, {0}")]
    Continue(String),
    /// A report to start from that another strategy hunted with this seed and stream: this
    /// hunt would draw its deals from the same generators again.
    #[error("cannot start from the report: the {0} strategy hunted it with this seed and stream, and this hunt would draw from the same generators again; give another --seed")]
    SameGenerators(String),
    /// A strategy that builds games that never end (construct, shapes) in a hunt for the
    /// longest games.
    #[error("the {} strategy builds infinite games: hunt them with --for cycles", .0.name())]
    CyclesOnly(Strategy),
    /// The construction under a deal of unequal hands: its deals are two hands of pieces of
    /// the same sizes.
    #[error("the construct strategy builds deals of two equal hands, and this setting deals hands of {0} and {1} cards")]
    Unequal(usize, usize),
    /// The backward strategy in a hunt for cycles, which it does not extend.
    #[error("the backward strategy extends the longest games, not infinite ones: hunt cycles with the random or climb strategy")]
    BackwardCycles,
    /// A strategy that builds its deals, and would build none for this setting.
    #[error("{0}")]
    Unbuildable(Unbuildable),
    /// What the GPU cannot play of the hunt, or what failed on the way to it.
    #[error("{}", device_said(.0))]
    Device(DeviceError),
}

/// Why a strategy that builds its deals builds none for a setting (it would play only random
/// deals under its own name, so the hunt refuses it).
///
/// ```
/// use warsweep::hunt::{Goal, Hunt, HuntError, Strategy, Unbuildable};
/// use warsweep::{Deck, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x8")?).build()?;
/// let hunt = Hunt::new(rules, Goal::Cycles).strategy(Strategy::Shapes);
/// assert!(matches!(hunt.check(), Err(HuntError::Unbuildable(Unbuildable::NoShape { .. }))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unbuildable {
    /// Hands too small for the construction's pieces, 2 cards a hand or more.
    #[error("the construct strategy builds hands of pieces of 2 cards or more, and this setting deals hands of {0} cards")]
    Hands(usize),
    /// A setting whose shapes cannot be counted (`warsweep shapes` refuses it).
    #[error(
        "the shapes strategy builds from a census of shapes, and {0}: hunt with --strategy random"
    )]
    Shapes(crate::shapes::ShapesError),
    /// No shape of the setting takes its deck's values.
    #[error("none of the {tried} shapes of this setting (words of up to 16 battles without a war, or 18 with one unless the gather is sorted with cards face down) takes its deck's values (the SAT solver's proof), so it would play only random deals: hunt with --strategy random")]
    NoShape {
        /// Shapes whose order has no circle, tried.
        tried: usize,
    },
}

/// What the GPU says of a hunt: every reason it cannot play it, or what failed.
fn device_said(why: &DeviceError) -> String {
    match why {
        DeviceError::Unfit(reasons) => format!(
            "the GPU cannot play this hunt: {}",
            crate::gpu::join_reasons(reasons)
        ),
        why => why.to_string(),
    }
}

/// A search for long games or cycles under one setting. Built by [`Hunt::new`] and its setters;
/// [`Hunt::run`] refuses what cannot be hunted.
///
/// ```
/// use warsweep::hunt::{Goal, Hunt, Strategy};
/// use warsweep::{Deck, Metric, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x4")?).build()?;
/// let hunt = Hunt::new(rules, Goal::Longest(Metric::Rounds)).games(Some(20_000)).seed(1);
/// let found = hunt.run(&|_| {}, &Default::default())?;
/// assert_eq!(found.games, 20_000);
/// // The same seed and budget find the same deals, on any number of threads.
/// let again = hunt.threads(1).run(&|_| {}, &Default::default())?;
/// assert_eq!(found.best, again.best);
/// assert!(found.best[0].value <= 144); // the longest 4x4 game
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Hunt {
    rules: Rules,
    goal: Goal,
    strategy: Strategy,
    seed: u64,
    stream: (u64, u64),
    threads: usize,
    games: Option<u64>,
    time: Option<Duration>,
    keep: usize,
    start: Vec<Vec<Vec<u8>>>,
    backward_states: u64,
    gpu: bool,
    /// Where it goes on from: a checkpoint, or the report of a hunt it continues.
    from: Option<Box<saved::Carried>>,
    /// What its strategy does for it, decided once (the shapes census takes seconds to
    /// build on 4x13): cleared by the setters it depends on.
    plan: Arc<OnceLock<Result<Plan, HuntError>>>,
}

impl Hunt {
    /// A hunt for `goal` under `rules`: the default strategy, seed 0, one stream, every core,
    /// 1,000,000 games, the best 10 deals kept.
    pub fn new(rules: Rules, goal: Goal) -> Hunt {
        Hunt {
            rules,
            goal,
            strategy: Strategy::default_for(goal),
            seed: 0,
            stream: (0, 1),
            threads: std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            games: Some(1_000_000),
            time: None,
            keep: 10,
            start: Vec::new(),
            backward_states: strategy::BACKWARD_STATES,
            gpu: false,
            from: None,
            plan: Arc::default(),
        }
    }

    /// What its strategy does for it, or why it refuses (decided once).
    fn plan(&self) -> Result<&Plan, HuntError> {
        let plan = self.plan.get_or_init(|| {
            let plan = || (self.strategy).plan(&self.rules, self.goal, self.backward_states);
            // On the hunt's threads (the shapes census runs in parallel).
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(self.threads)
                .build();
            match pool {
                Ok(pool) if check_threads(self.threads).is_ok() => pool.install(plan),
                _ => plan(),
            }
        });
        plan.as_ref().map_err(Clone::clone)
    }

    /// What a strategy that builds its deals (construct, shapes) builds them from and falls
    /// back to, in one line, as a hunt says it when it starts ([`None`] for the strategies
    /// that draw their deals); or why the strategy refuses the setting.
    ///
    /// ```
    /// use warsweep::hunt::{Goal, Hunt, Strategy};
    /// use warsweep::{Deck, Preset, Settings};
    /// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x7")?).build()?;
    /// let hunt = Hunt::new(rules, Goal::Cycles);
    /// assert_eq!(hunt.builds()?, None);
    /// let shapes = hunt.strategy(Strategy::Shapes);
    /// let line = shapes.builds()?.unwrap();
    /// assert!(line.starts_with("the shapes strategy builds from "));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn builds(&self) -> Result<Option<&str>, HuntError> {
        Ok(self.plan()?.builds.as_deref())
    }

    /// The rules it hunts under.
    pub(crate) fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Play the hunt's random games on the machine's NVIDIA GPU (a build with the `gpu`
    /// feature; the random and backward strategies): the same deals as on the CPU for the same
    /// seed, stream and budget. The first generation, and every game the hunt keeps, extends or
    /// finds looping, is played on the CPU too.
    pub fn gpu(mut self, gpu: bool) -> Hunt {
        self.gpu = gpu;
        self
    }

    /// States one backward search may expand (the backward strategy; 100,000 by default): each
    /// takes a few bytes more than a hand's cards, and a few microseconds. A search from a
    /// published record finds more with millions.
    pub fn backward_states(mut self, states: u64) -> Hunt {
        self.backward_states = states;
        self.plan = Arc::default();
        self
    }

    /// How deals are chosen ([`Strategy`]).
    pub fn strategy(mut self, strategy: Strategy) -> Hunt {
        self.strategy = strategy;
        self.plan = Arc::default();
        self
    }

    /// The seed of every generator the hunt draws from.
    pub fn seed(mut self, seed: u64) -> Hunt {
        self.seed = seed;
        self
    }

    /// Stream `k` of `n`: hunts of one seed and different streams draw different deals (the
    /// tasks of a Slurm array each take one). `k < n`.
    pub fn stream(mut self, k: u64, n: u64) -> Hunt {
        self.stream = (k, n);
        self
    }

    /// Worker threads, 1 to [`MAX_THREADS`]: the results are the same for any count.
    pub fn threads(mut self, threads: usize) -> Hunt {
        self.threads = threads;
        self
    }

    /// Games to play at most ([`None`]: no limit but the time).
    pub fn games(mut self, games: Option<u64>) -> Hunt {
        self.games = games;
        self
    }

    /// Time to hunt for at most ([`None`]: no limit but the games); the hunt ends at the end
    /// of the generation that reaches it.
    pub fn time(mut self, time: Option<Duration>) -> Hunt {
        self.time = time;
        self
    }

    /// How many of the best deals to keep (cycles: how many distinct cycles).
    pub fn keep(mut self, keep: usize) -> Hunt {
        self.keep = keep;
        self
    }

    /// Deals to start from (each player's hand, values from 1, top first): played first, and
    /// the deals the strategy starts its search from.
    pub fn start(mut self, deals: Vec<Vec<Vec<u8>>>) -> Hunt {
        self.start = deals;
        self
    }

    /// Refuses what cannot be hunted: no budget, a setting whose games the deal does not
    /// decide, a metric of cycles, a thread count out of range, a strategy the setting does
    /// not allow or for which it builds nothing ([`Strategy`]'s plan, decided once), starting
    /// hands that are no deal of the setting.
    pub fn check(&self) -> Result<(), HuntError> {
        if self.games == Some(0) || self.time == Some(Duration::ZERO) {
            return Err(HuntError::NoBudget);
        }
        if self.games.is_none() && self.time.is_none() {
            return Err(HuntError::NoBudget);
        }
        if !self.rules.detects_cycles() {
            return Err(HuntError::Undecided);
        }
        match self.goal {
            Goal::Longest(metric) if metric.of() != Measured::Finished => {
                return Err(HuntError::Metric(metric));
            }
            _ => {}
        }
        check_threads(self.threads).map_err(|_| HuntError::Threads(self.threads))?;
        if self.stream.0 >= self.stream.1 {
            return Err(HuntError::Stream(self.stream.0, self.stream.1));
        }
        if self.keep == 0 {
            return Err(HuntError::Keep);
        }
        if self.backward_states == 0 {
            return Err(HuntError::NoStates);
        }
        for (i, hands) in self.start.iter().enumerate() {
            deal::check_hands(&self.rules, hands).map_err(|why| HuntError::Start {
                which: i + 1,
                why: why.to_string(),
            })?;
        }
        self.plan()?;
        if self.gpu {
            let unfit = device::unfit(self);
            if !unfit.is_empty() {
                return Err(HuntError::Device(DeviceError::Unfit(unfit)));
            }
        }
        Ok(())
    }

    /// Hunts until the budget is spent or `stop` is set (checked between generations, by the
    /// backward search as it walks, and on the GPU between launches), telling `progress`
    /// where it stands after each generation.
    pub fn run(
        &self,
        progress: &(dyn Fn(Status) + Sync),
        stop: &AtomicBool,
    ) -> Result<Hunted, HuntError> {
        self.run_saving(progress, stop, Duration::MAX, &mut |_| {})
    }

    /// [`Hunt::run`], handing `save` a [`Checkpoint`] between generations, at most every
    /// `every` (zero: after every generation), and when the hunt stops before its budget is
    /// spent: the hunt that [`Hunt::resume`]s from it ends as this one would have.
    pub fn run_saving(
        &self,
        progress: &(dyn Fn(Status) + Sync),
        stop: &AtomicBool,
        every: Duration,
        save: &mut dyn FnMut(&Checkpoint),
    ) -> Result<Hunted, HuntError> {
        self.check()?;
        let mut gpu = match self.gpu {
            true => Some(device::open(self)?),
            false => None,
        };
        let gpu = gpu.as_mut().map(|d| &mut **d as &mut dyn Walker);
        self.run_on(gpu, progress, stop, (every, save))
    }

    /// [`Hunt::run_saving`] on `device` (from the second generation), or on the CPU alone; the
    /// caller has checked the hunt.
    pub(crate) fn run_on(
        &self,
        mut device: Option<&mut dyn Walker>,
        progress: &(dyn Fn(Status) + Sync),
        stop: &AtomicBool,
        (every, save): (Duration, &mut dyn FnMut(&Checkpoint)),
    ) -> Result<Hunted, HuntError> {
        let started = Instant::now();
        let halt = Halt {
            stop,
            deadline: self.time.and_then(|t| started.checked_add(t)),
        };
        let pool = self.pool()?;
        let sorted = deal::sorted_values(&self.rules);
        let mut book = Book::new(self.goal, self.keep, &self.rules);
        let mut strategist = self.strategist()?;
        let mut at = saved::At::default();
        if let Some(from) = &self.from {
            at = from.restore(&mut book, &mut strategist, &sorted)?;
        }
        let before = at.seconds;
        let workers = Pool::new(|| Worker::new(&self.rules, &sorted, started, before));
        let mut on = Generations {
            hunt: self,
            workers: &workers,
            pool: &pool,
            book: &mut book,
            strategist: &mut strategist,
            started,
            before,
        };
        // A checkpoint from the start: a hunt stopped in its first generation goes on too.
        save(&on.checkpoint(&at, false));
        let (mut saving, mut stopped, mut cut) = (Saving::new(every), false, false);
        let generation = on.strategist.generation() as u64;
        let budget = self.budget(&at)?;
        // A stop before the budget is spent, by a signal or (with a budget of games) the time.
        let stopped_now = || self.games.is_some() || stop.load(Ordering::Relaxed);
        loop {
            // Without a budget of games, as many as a generation (or a launch) holds.
            let left = budget.map_or(u64::MAX, |b| b.saturating_sub(at.games));
            if left == 0 {
                break;
            }
            if halt.now() {
                stopped = stopped_now();
                break;
            }
            let played = match device.as_deref_mut() {
                // Whole generations a launch, as many as a launch holds: the first
                // generation, and those with given deals, on the CPU.
                Some(device) if at.generations > 0 && !on.strategist.gives() => {
                    device::play(&mut on, device, &at, left, &halt)?
                }
                _ => on.turn(&at, left.min(generation), &halt),
            };
            at.add(&played);
            progress(on.status(&at));
            if let Some(before) = played.cut {
                // A generation cut short (a search, or a build, stopped): what it found is
                // kept, but the hunt cannot go on from its middle, so its checkpoint is the
                // hunt before it.
                save(&before);
                (stopped, cut) = (stopped_now(), true);
                break;
            }
            let spent = budget.is_some_and(|b| at.games >= b);
            if !spent && saving.due() {
                saving.timed(|| save(&on.checkpoint(&at, false)));
            }
        }
        if stopped && !cut {
            save(&on.checkpoint(&at, true));
        }
        Ok(on.hunted(&at, stopped))
    }

    /// The pool of the hunt's threads.
    fn pool(&self) -> Result<rayon::ThreadPool, HuntError> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(self.threads);
        pool.build().map_err(|_| HuntError::Threads(self.threads))
    }

    /// The games to end at, having played as `at` says ([`None`]: no budget of games): a
    /// continued report's games are not counted in the budget.
    fn budget(&self, at: &saved::At) -> Result<Option<u64>, HuntError> {
        match self.games.map(|g| g.checked_add(at.uncounted)) {
            Some(None) => Err(HuntError::Continue(format!(
                "its {} games and this hunt's budget add up to more than a count holds",
                at.uncounted
            ))),
            budget => Ok(budget.flatten()),
        }
    }

    /// The strategist of this hunt, from its plan and its starting deals.
    fn strategist(&self) -> Result<Strategist, HuntError> {
        let start: Vec<Vec<u8>> = self
            .start
            .iter()
            .map(|hands| deal::order_of(&self.rules, hands))
            .collect();
        Ok(Strategist::new(self.plan()?, start))
    }
}

/// When a hunt saves its next checkpoint: `every` after the last, or ten times as long as
/// saving the last took where that is longer (a checkpoint holds every improvement, every
/// distinct cycle in a hunt for cycles), so that the hunt plays nine tenths of its time. An
/// `every` of zero asks for one after every generation, however long saving takes (no clock
/// decides which are saved: the resume tests walk every generation's checkpoint).
struct Saving {
    every: Duration,
    last: Instant,
    took: Duration,
}

impl Saving {
    fn new(every: Duration) -> Saving {
        Saving {
            every,
            last: Instant::now(),
            took: Duration::ZERO,
        }
    }

    /// Whether a checkpoint is due.
    fn due(&self) -> bool {
        self.every.is_zero() || self.last.elapsed() >= self.every.max(self.took * 10)
    }

    /// Saves one with `save`, timed.
    fn timed(&mut self, save: impl FnOnce()) {
        let began = Instant::now();
        save();
        (self.last, self.took) = (Instant::now(), began.elapsed());
    }
}

#[cfg(test)]
mod tests;
