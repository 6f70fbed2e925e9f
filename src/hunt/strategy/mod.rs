//! How a hunt chooses its deals, generation after generation. Each strategy is a module that
//! implements [`Choose`]: it draws a generation's tasks from what it has learned, learns from
//! their games, and says what it has learned for a checkpoint. [`Strategy::chooser`] is the one
//! place the strategies are listed; the generation loop (`generations::Generations`) knows none of
//! them.

pub(crate) mod backward;
mod climb;
pub(crate) mod construct;
mod random;
mod war_free;

use super::{deal, Played};
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
    /// Deals built of pieces (two players, equal hands): blocks of cards at the same places in
    /// both hands that are played without a war crossing their end and come back, at the
    /// bottom, as a block of the same kind, forever. A deal made of such pieces never ends
    /// (docs/research.md, "Infinite games by construction").
    Construct,
    /// Deals that reach cycles without a war, or with one war a period (two players, ranked by
    /// value): a periodic order of who wins each battle and player 1's hand size fix where
    /// every card goes; values are laid so that each battle's winner holds the higher card,
    /// and the state they make is walked backward to a deal (docs/research.md, "Cycles without
    /// a war", "Infinite games of 52 cards").
    WarFree,
}

crate::rules::named!(
    Strategy,
    Random = "random",
    Climb = "climb",
    Backward = "backward",
    Construct = "construct",
    WarFree = "war-free",
);

impl Strategy {
    /// The strategy a hunt for `goal` uses unless told otherwise: for the longest games the
    /// best measured (docs/research.md, "Record games"), backward; for cycles, which the
    /// backward search does not extend, random.
    pub(crate) fn default_for(goal: super::Goal) -> Strategy {
        match goal {
            super::Goal::Longest(_) => Strategy::Backward,
            super::Goal::Cycles => Strategy::Random,
        }
    }

    /// Whether it builds infinite games, and so hunts cycles only.
    pub(crate) fn builds_cycles(self) -> bool {
        matches!(self, Strategy::Construct | Strategy::WarFree)
    }

    /// Whether it plays only two-player settings.
    pub(crate) fn needs_two_players(self) -> bool {
        match self {
            Strategy::Backward | Strategy::Construct | Strategy::WarFree => true,
            Strategy::Random | Strategy::Climb => false,
        }
    }

    /// The strategy's chooser for a hunt under `rules` that starts from the deals `start`
    /// (values in dealing order) and whose backward searches expand at most `states`.
    fn chooser(self, rules: &Rules, start: &[Vec<u8>], states: u64) -> Box<dyn Choose> {
        match self {
            Strategy::Random => Box::new(random::Random),
            Strategy::Climb => Box::new(climb::Climb::new(start)),
            Strategy::Backward => Box::new(backward::Backward::new(states)),
            Strategy::Construct => Box::new(construct::Construct::new(rules)),
            Strategy::WarFree => Box::new(war_free::WarFree::new(rules)),
        }
    }
}

/// States one backward search may expand, unless the hunt says otherwise.
pub(crate) const BACKWARD_STATES: u64 = 100_000;

/// What a strategy does between generations.
pub(crate) trait Choose: Send {
    /// `count` tasks of the next generation (the given deals not yet played come before them).
    fn tasks(&mut self, count: usize) -> Vec<Task>;

    /// The task that plays the given deal `order`.
    fn given(&self, order: Vec<u8>) -> Task {
        Task::plain(Base::Given(order))
    }

    /// Learns from a generation's games: `given` are those of the given deals (the first of
    /// them the `first`th given deal), `played` those of its own tasks, in order.
    fn learn(&mut self, first: usize, given: &[Played], played: &[Played]);

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

    /// Goes on from what [`Choose::save`] said, or says why it cannot.
    fn restore(&mut self, saved: &serde_json::Value) -> Result<(), String>;

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

/// How a strategy that builds its deals builds one, with the task's own generator (`engine`
/// plays the rounds that test what it builds).
pub(crate) trait Build: Send + Sync {
    fn draw(&self, rng: &mut SplitMix64, sorted: &[u8], engine: &mut Engine) -> Drawn;
}

/// One task of a generation: the deal it plays, and whether its game is extended backward
/// (with at most `extend` states expanded) when it is worth at least `threshold`.
pub(crate) struct Task {
    pub(crate) base: Base,
    pub(crate) extend: Option<u64>,
    pub(crate) threshold: u64,
}

/// A task's deal, and what drawing it found for the strategy to learn (the pieces a
/// construction found).
pub(crate) struct Drawn {
    pub(crate) order: Vec<u8>,
    pub(crate) pieces: Vec<construct::Piece>,
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

    /// The deal this task plays, drawn with its own generator (`engine` plays the rounds that
    /// test a construction's pieces).
    pub(crate) fn deal(&self, rng: &mut SplitMix64, sorted: &[u8], engine: &mut Engine) -> Drawn {
        let order = match &self.base {
            Base::Random => deal::random_deal(sorted, rng),
            Base::Given(order) => order.clone(),
            Base::Changed(order) => {
                let mut order = order.clone();
                deal::mutate(&mut order, rng);
                order
            }
            Base::Built(known) => return known.draw(rng, sorted, engine),
        };
        Drawn {
            order,
            pieces: Vec::new(),
        }
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
}

impl Strategist {
    pub(crate) fn new(
        strategy: Strategy,
        rules: &Rules,
        start: Vec<Vec<u8>>,
        states: u64,
    ) -> Strategist {
        Strategist {
            chooser: strategy.chooser(rules, &start, states),
            start,
            given: 0,
        }
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

    /// Goes on from what a checkpoint says it had learned, or says why it cannot.
    pub(crate) fn restore(&mut self, learned: &Learned) -> Result<(), String> {
        self.given = learned.given;
        let fields = serde_json::Value::Object(learned.strategy.clone());
        self.chooser.restore(&fields)
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

    /// Learns from a generation's games.
    pub(crate) fn learn(&mut self, tasks: &[Task], played: &[Played]) {
        // Given deals come first.
        let given = tasks.iter().take_while(|t| t.given()).count();
        let first = self.given - given;
        let (of_given, own) = played.split_at(given);
        self.chooser.learn(first, of_given, own);
    }
}

/// A strategy's saved fields read back (fields it does not know are those of another
/// version's checkpoint, and are left).
fn read<T: serde::de::DeserializeOwned>(saved: &serde_json::Value) -> Result<T, String> {
    serde_json::from_value(saved.clone()).map_err(|e| e.to_string())
}
