//! How a hunt chooses its deals, generation after generation. Each strategy is a module that
//! implements [`Choose`]: it draws a generation's tasks from what it has learned, learns from
//! their games, and says what it has learned for a checkpoint. [`Strategy::plan`] is the one
//! place a strategy is judged against a hunt (what it refuses, what it builds from, what it
//! falls back to, how many tasks a generation holds) and [`Plan::chooser`] the one place the
//! strategies are listed; the generation loop (`generations::Generations`) knows none of them.

pub(crate) mod backward;
mod climb;
pub(crate) mod construct;
mod random;
mod shapes;

use super::{deal, Goal, Halt, HuntError, Played};
use crate::backward::Backward as Search;
use crate::deal::SplitMix64;
use crate::engine::Engine;
use crate::rules::Rules;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How a hunt chooses the deals it plays.
///
/// ```
/// use warsweep::hunt::Strategy;
/// assert_eq!("climb".parse::<Strategy>()?, Strategy::Climb);
/// assert_eq!(Strategy::ALL.len(), 5);
/// # Ok::<(), warsweep::UnknownName>(())
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Strategy {
    /// Every deal drawn at random, as the published records were found.
    Random,
    /// Hill climbing: walkers change their deal a little (two cards exchanged, a run reversed
    /// or moved) and keep a change whose game is no shorter; a walker stuck too long starts
    /// again from a random deal.
    Climb,
    /// Random deals, and each game as long as the longest so far extended backward: the
    /// states that lead into the game are searched for a deal whose game reaches it later
    /// (two players). Given deals (`start`) are extended whatever their length.
    Backward,
    /// Deals built of pieces (two players, equal hands of 2 cards or more): blocks of cards
    /// at the same places in both hands that are played without a war crossing their end and
    /// come back, at the bottom, as a block of the same kind, forever. A deal made of such
    /// pieces never ends (docs/research.md, "Infinite games by construction"); a task whose
    /// pieces do not cover the deck plays a random deal instead, counted as fallen back.
    Construct,
    /// Deals into cycles built from shapes (two players, ranked by value; `war-free` is
    /// another name for it): a periodic word of who wins each battle, without a war or with
    /// one at its start, and player 1's hand size fix where every card goes; a SAT solver lays
    /// values that meet what every battle asks, and the state they make is walked backward to
    /// a deal (docs/research.md, "Shapes"). A task whose walks fail plays a random deal
    /// instead, counted as fallen back; a setting none of whose shapes takes its values is
    /// refused.
    #[cfg_attr(feature = "cli", value(alias = "war-free"))]
    Shapes,
}

crate::rules::named!(
    Strategy,
    Random = "random",
    Climb = "climb",
    Backward = "backward",
    Construct = "construct",
    Shapes = "shapes" | "war-free",
);

/// Tasks a generation of the strategies that draw their deals holds (random, climb,
/// backward): enough to keep every core busy between two looks at the clock, and a GPU's
/// generation (deal `j` of a launch is task `j % BATCH` of generation `j / BATCH`). No
/// generation holds more: a report's games are checked against it.
pub(crate) const BATCH: usize = 4096;

/// Tasks a generation of the construction holds: a task costs about 0.3 ms on 4x13 (measured
/// on a 2-core AMD EPYC), so a generation lasts about 0.3 s on one thread.
const CONSTRUCT_BATCH: usize = 1024;

/// Tasks a generation of the shapes strategy holds: a task costs up to about 10 ms on 4x13
/// (the backward walk from a state to a deal), so a generation lasts about 0.6 s on one
/// thread, and a hunt's checkpoints and progress keep up.
const SHAPES_BATCH: usize = 64;

impl Strategy {
    /// The strategy a hunt for `goal` uses unless told otherwise: for the longest games the
    /// best measured (docs/research.md, "Record games"), backward; for cycles, which the
    /// backward search does not extend, random.
    pub(crate) fn default_for(goal: Goal) -> Strategy {
        match goal {
            Goal::Longest(_) => Strategy::Backward,
            Goal::Cycles => Strategy::Random,
        }
    }

    /// Whether it builds infinite games, and so hunts cycles only.
    pub(crate) fn builds_cycles(self) -> bool {
        match self {
            Strategy::Construct | Strategy::Shapes => true,
            Strategy::Random | Strategy::Climb | Strategy::Backward => false,
        }
    }

    /// What the strategy does for a hunt for `goal` under `rules` whose backward searches
    /// expand at most `states`: its plan, or why it refuses. Every strategy's refusals are
    /// here, decided once, before any game.
    pub(crate) fn plan(self, rules: &Rules, goal: Goal, states: u64) -> Result<Plan, HuntError> {
        let two_players = match self {
            Strategy::Backward | Strategy::Construct | Strategy::Shapes => true,
            Strategy::Random | Strategy::Climb => false,
        };
        if two_players && rules.players() != 2 {
            return Err(HuntError::Players(self, rules.players()));
        }
        if self.builds_cycles() && goal != Goal::Cycles {
            return Err(HuntError::CyclesOnly(self));
        }
        let plan = |generation, builds, source| Plan {
            strategy: self,
            generation,
            builds,
            source,
        };
        Ok(match self {
            Strategy::Random => plan(BATCH, None, Source::Random),
            Strategy::Climb => plan(BATCH, None, Source::Climb),
            Strategy::Backward => {
                if goal == Goal::Cycles {
                    return Err(HuntError::BackwardCycles);
                }
                plan(BATCH, None, Source::Backward(states))
            }
            Strategy::Construct => {
                let (built, builds) = construct::plan(rules)?;
                plan(CONSTRUCT_BATCH, Some(builds), Source::Construct(built))
            }
            Strategy::Shapes => {
                let (shapes, builds) = shapes::plan(rules)?;
                plan(SHAPES_BATCH, Some(builds), Source::Shapes(shapes))
            }
        })
    }
}

/// What a strategy does for one hunt, decided once when the hunt is checked (as
/// regex-automata's meta strategy decides, when a regex is built, which engines apply): how
/// many tasks a generation holds, what it builds from, and what its tasks draw from.
#[derive(Clone)]
pub(crate) struct Plan {
    pub(crate) strategy: Strategy,
    /// Tasks a generation holds: what its tasks cost decides it, so that a generation lasts
    /// well under a second on one thread.
    pub(crate) generation: usize,
    /// What it builds its deals from and what it falls back to, said once when the hunt
    /// starts; [`None`] for the strategies that draw their deals.
    pub(crate) builds: Option<String>,
    source: Source,
}

impl std::fmt::Debug for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Plan({}, {} tasks)", self.strategy, self.generation)
    }
}

/// What a strategy's tasks draw from, made once for the hunt.
#[derive(Clone)]
enum Source {
    Random,
    Climb,
    /// The states one backward search may expand.
    Backward(u64),
    Construct(Arc<construct::Known>),
    Shapes(Arc<shapes::Shapes>),
}

impl Plan {
    /// The strategy's chooser for a hunt that starts from the deals `start` (values in
    /// dealing order): the one place the strategies are listed.
    fn chooser(&self, start: &[Vec<u8>]) -> Box<dyn Choose> {
        match &self.source {
            Source::Random => Box::new(random::Random),
            Source::Climb => Box::new(climb::Climb::new(start)),
            Source::Backward(states) => Box::new(backward::Backward::new(*states)),
            Source::Construct(known) => Box::new(construct::Construct::new(known.clone())),
            Source::Shapes(shapes) => Box::new(shapes::FromShapes::new(shapes.clone())),
        }
    }
}

/// States one backward search may expand, unless the hunt says otherwise.
pub(crate) const BACKWARD_STATES: u64 = 100_000;

/// Why what a checkpoint says a strategy learned cannot be gone on from.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Unlearned {
    /// Fields that are not the strategy's.
    #[error("its strategy's state does not read: {0}")]
    Fields(#[from] serde_json::Error),
    /// A climbing walker at something that is no deal of the setting.
    #[error("its climb's walker #{0} stands at no deal of the setting")]
    Walker(usize),
    /// A construction's piece that cannot be read.
    #[error("its construction knows {0:?}, which is no piece")]
    Piece(String),
    /// More given deals played than the hunt was given.
    #[error("it played {played} given deals of the {given} the hunt was given")]
    Given { played: usize, given: usize },
}

/// What a strategy does between generations.
pub(crate) trait Choose: Send {
    /// `count` tasks of the next generation (the given deals not yet played come before them).
    fn tasks(&mut self, count: usize) -> Vec<Task>;

    /// The task that plays the given deal `order`.
    fn given(&self, order: Vec<u8>) -> Task {
        Task::plain(Base::Given(order))
    }

    /// Learns from a generation's games: `given` are those of the given deals (the first of
    /// them the `first`th given deal), `played` those of its own tasks, in order. Every one
    /// was played (a generation that a stop cut short teaches nothing), each an [`Option`]
    /// only as the generation plays it, so that it is read where it lies.
    fn learn(&mut self, first: usize, given: &[Option<Played>], played: &[Option<Played>]);

    /// The least value of a game that its tasks extend backward ([`u64::MAX`]: none).
    fn extends_from(&self) -> u64 {
        u64::MAX
    }

    /// The task that each of a launch's games on the GPU stands for: a random deal.
    fn random_task(&self) -> Task {
        Task::plain(Base::Random)
    }

    /// What it has learned, for a checkpoint.
    fn save(&self) -> serde_json::Value;

    /// Goes on from what [`Choose::save`] said (of a hunt whose deck's values are `sorted`),
    /// or says why it cannot.
    fn restore(&mut self, saved: &serde_json::Value, sorted: &[u8]) -> Result<(), Unlearned>;

    /// Goes on from the deals a finished hunt kept (`kept`: each deal and its value, best
    /// first), as if it had just played them.
    fn go_on_from(&mut self, _kept: &[(Vec<u8>, u64)]) {}
}

/// What a task plays.
pub(crate) enum Base {
    /// A deal drawn at random.
    Random,
    /// A given deal.
    Given(Vec<u8>),
    /// A given deal, changed a little.
    Changed(Vec<u8>),
    /// A deal a strategy builds (of pieces, or into a cycle without a war).
    Built(Arc<dyn Build>),
}

/// What a task draws and plays with: the worker's engine (which plays the rounds that test
/// what a strategy builds), its backward search (two players), and the deck's values.
pub(crate) struct Tools<'a> {
    pub(crate) engine: &'a mut Engine,
    pub(crate) search: Option<&'a mut Search>,
    pub(crate) sorted: &'a [u8],
}

/// How a strategy that builds its deals builds one, with the task's own generator; [`None`]
/// where `halt` stopped it first (the task is then not played).
pub(crate) trait Build: Send + Sync {
    fn draw(&self, rng: &mut SplitMix64, tools: &mut Tools, halt: &Halt) -> Option<Drawn>;
}

/// One task of a generation: the deal it plays, and whether its game is extended backward
/// (with at most `extend` states expanded) when it is worth at least `threshold`.
pub(crate) struct Task {
    pub(crate) base: Base,
    pub(crate) extend: Option<u64>,
    pub(crate) threshold: u64,
}

/// A task's deal, and what drawing it found for the strategy to learn (the pieces a
/// construction found); for a built task, whether it was built ([`None`]: a deal not built).
pub(crate) struct Drawn {
    pub(crate) order: Vec<u8>,
    pub(crate) pieces: Vec<construct::Piece>,
    pub(crate) built: Option<bool>,
}

impl Drawn {
    /// A deal drawn, given or changed: not built.
    fn plain(order: Vec<u8>) -> Drawn {
        Drawn {
            order,
            pieces: Vec::new(),
            built: None,
        }
    }

    /// A built task's deal: `built` where the strategy built it, else a random deal it fell
    /// back to.
    pub(crate) fn of_build(order: Vec<u8>, pieces: Vec<construct::Piece>, built: bool) -> Drawn {
        Drawn {
            order,
            pieces,
            built: Some(built),
        }
    }
}

impl Task {
    pub(crate) fn plain(base: Base) -> Task {
        Task {
            base,
            extend: None,
            threshold: u64::MAX,
        }
    }

    /// Whether it plays a given deal as given (not one the hunt found).
    pub(crate) fn given(&self) -> bool {
        matches!(self.base, Base::Given(_))
    }

    /// The deal this task plays, drawn with its own generator; [`None`] where `halt` stopped a
    /// build first.
    pub(crate) fn deal(
        &self,
        rng: &mut SplitMix64,
        tools: &mut Tools,
        halt: &Halt,
    ) -> Option<Drawn> {
        Some(Drawn::plain(match &self.base {
            Base::Random => deal::random_deal(tools.sorted, rng),
            Base::Given(order) => order.clone(),
            Base::Changed(order) => {
                let mut order = order.clone();
                deal::mutate(&mut order, rng);
                order
            }
            Base::Built(known) => return known.draw(rng, tools, halt),
        }))
    }
}

/// What a strategy has learned, as a checkpoint keeps it: how many of the given deals were
/// played, and the strategy's own state (its fields, as it saves them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Learned {
    given: usize,
    #[serde(flatten)]
    strategy: serde_json::Map<String, serde_json::Value>,
}

/// A hunt's strategy between generations: the given deals, played first, and its chooser.
pub(crate) struct Strategist {
    /// Deals to play first, and how many of them were played.
    start: Vec<Vec<u8>>,
    given: usize,
    chooser: Box<dyn Choose>,
    /// Tasks a generation holds.
    generation: usize,
}

impl Strategist {
    pub(crate) fn new(plan: &Plan, start: Vec<Vec<u8>>) -> Strategist {
        Strategist {
            chooser: plan.chooser(&start),
            start,
            given: 0,
            generation: plan.generation,
        }
    }

    /// Tasks a generation holds.
    pub(crate) fn generation(&self) -> usize {
        self.generation
    }

    /// The next generation's tasks, `count` of them: the given deals not yet played first.
    pub(crate) fn tasks(&mut self, count: usize) -> Vec<Task> {
        let mut tasks: Vec<Task> = (self.start.iter().skip(self.given).take(count))
            .map(|order| self.chooser.given(order.clone()))
            .collect();
        self.given += tasks.len();
        let left = count - tasks.len();
        if left > 0 {
            tasks.extend(self.chooser.tasks(left));
        }
        tasks
    }

    /// The task each of a launch's games on the GPU stands for.
    pub(crate) fn random_task(&self) -> Task {
        self.chooser.random_task()
    }

    /// The least value of a game that this generation's tasks extend backward ([`u64::MAX`]:
    /// none).
    pub(crate) fn extends_from(&self) -> u64 {
        self.chooser.extends_from()
    }

    /// What it has learned, for a checkpoint.
    pub(crate) fn state(&self) -> Learned {
        let strategy = match self.chooser.save() {
            serde_json::Value::Object(fields) => fields,
            _ => serde_json::Map::new(),
        };
        Learned {
            given: self.given,
            strategy,
        }
    }

    /// Goes on from what a checkpoint says it had learned (of a hunt whose deck's values are
    /// `sorted`), or says why it cannot.
    pub(crate) fn restore(&mut self, learned: &Learned, sorted: &[u8]) -> Result<(), Unlearned> {
        if learned.given > self.start.len() {
            return Err(Unlearned::Given {
                played: learned.given,
                given: self.start.len(),
            });
        }
        self.given = learned.given;
        let fields = serde_json::Value::Object(learned.strategy.clone());
        self.chooser.restore(&fields, sorted)
    }

    /// Goes on from the deals a finished hunt kept (`kept`: each deal and its value, best
    /// first), as if it had just played them.
    pub(crate) fn go_on_from(&mut self, kept: &[(Vec<u8>, u64)]) {
        self.chooser.go_on_from(kept);
    }

    /// Whether given deals are left to play (the GPU plays only random deals).
    pub(crate) fn gives(&self) -> bool {
        self.given < self.start.len()
    }

    /// Learns from a generation's games, every task of it played.
    pub(crate) fn learn(&mut self, tasks: &[Task], played: &[Option<Played>]) {
        // Given deals come first.
        let given = tasks.iter().take_while(|t| t.given()).count();
        let first = self.given - given;
        let (of_given, own) = played.split_at(given);
        self.chooser.learn(first, of_given, own);
    }
}

/// A strategy's saved fields read back (fields it does not know are those of another
/// version's checkpoint, and are left).
fn read<T: serde::de::DeserializeOwned>(saved: &serde_json::Value) -> Result<T, Unlearned> {
    Ok(serde_json::from_value(saved.clone())?)
}
