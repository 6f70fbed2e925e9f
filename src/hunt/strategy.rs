//! How a hunt chooses its deals, generation after generation: the tasks each [`Strategy`]
//! draws from what it has learned, and what it learns from their games.

use super::{deal, Played};
use crate::deal::SplitMix64;
use serde::{Deserialize, Serialize};

/// How a hunt chooses the deals it plays.
///
/// ```
/// use warsweep::hunt::Strategy;
/// assert_eq!("climb".parse::<Strategy>()?, Strategy::Climb);
/// assert_eq!(Strategy::ALL.len(), 3);
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
}

crate::rules::named!(
    Strategy,
    Random = "random",
    Climb = "climb",
    Backward = "backward",
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

    /// Whether it plays only two-player settings.
    pub(crate) fn needs_two_players(self) -> bool {
        match self {
            Strategy::Backward => true,
            Strategy::Random | Strategy::Climb => false,
        }
    }
}

/// Walkers of the climb, and the changes each tries a generation (with the default batch).
const WALKERS: usize = 64;
/// Generations a walker may go without a longer game before it starts again.
const PATIENCE: u32 = 32;
/// States one backward search may expand, unless the hunt says otherwise.
pub(crate) const BACKWARD_STATES: u64 = 100_000;

/// What a task plays.
pub(crate) enum Base {
    /// A deal drawn at random.
    Random,
    /// A given deal.
    Given(Vec<u8>),
    /// A given deal, changed a little.
    Changed(Vec<u8>),
}

/// One task of a generation: the deal it plays, and whether its game is extended backward
/// (with at most `extend` states expanded) when it is worth at least `threshold`.
pub(crate) struct Task {
    pub(crate) base: Base,
    pub(crate) extend: Option<u64>,
    pub(crate) threshold: u64,
}

impl Task {
    fn plain(base: Base) -> Task {
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

    /// The deal this task plays, drawn with its own generator.
    pub(crate) fn deal(&self, rng: &mut SplitMix64, sorted: &[u8]) -> Vec<u8> {
        match &self.base {
            Base::Random => deal::random_deal(sorted, rng),
            Base::Given(order) => order.clone(),
            Base::Changed(order) => {
                let mut order = order.clone();
                deal::mutate(&mut order, rng);
                order
            }
        }
    }
}

/// A climbing walker: its deal and that deal's value (infinite games count below every
/// finished one), and the generations since its value last grew.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Climber {
    at: Option<(Vec<u8>, i64)>,
    stuck: u32,
}

/// What a strategy has learned, as a checkpoint keeps it: the backward strategy's threshold,
/// the climbers, and how many of the given deals were played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Learned {
    threshold: u64,
    climbers: Vec<Climber>,
    given: usize,
}

/// A strategy's state between generations.
pub(crate) struct Plan {
    strategy: Strategy,
    /// Deals to play first, and how many of them were played.
    start: Vec<Vec<u8>>,
    given: usize,
    walkers: Vec<Climber>,
    /// The backward strategy's threshold: the best value so far (a game that reaches it is
    /// extended; before the first, none is).
    threshold: u64,
    /// States one backward search may expand.
    states: u64,
}

impl Plan {
    pub(crate) fn new(strategy: Strategy, start: Vec<Vec<u8>>, states: u64) -> Plan {
        // A climb's first walkers start from the given deals (their value is learned from
        // their own games, played first).
        let walkers = match strategy {
            Strategy::Climb => (0..WALKERS)
                .map(|w| Climber {
                    at: start.get(w).map(|order| (order.clone(), i64::MIN)),
                    stuck: 0,
                })
                .collect(),
            Strategy::Random | Strategy::Backward => Vec::new(),
        };
        Plan {
            strategy,
            start,
            given: 0,
            walkers,
            threshold: u64::MAX,
            states,
        }
    }

    /// The next generation's tasks, `count` of them: the given deals not yet played first.
    pub(crate) fn tasks(&mut self, count: usize) -> Vec<Task> {
        let mut tasks = Vec::with_capacity(count);
        for order in self.start.iter().skip(self.given).take(count) {
            tasks.push(Task {
                base: Base::Given(order.clone()),
                extend: (self.strategy == Strategy::Backward).then_some(self.states),
                threshold: 0,
            });
        }
        self.given += tasks.len();
        let left = count - tasks.len();
        match self.strategy {
            Strategy::Random | Strategy::Backward => {
                tasks.extend((0..left).map(|_| self.random_task()));
            }
            Strategy::Climb => {
                let each = left.div_ceil(WALKERS).max(1);
                for walker in &self.walkers {
                    let n = (left - (tasks.len() - (count - left))).min(each);
                    for _ in 0..n {
                        tasks.push(Task::plain(match &walker.at {
                            Some((order, _)) => Base::Changed(order.clone()),
                            None => Base::Random,
                        }));
                    }
                }
            }
        }
        tasks
    }

    /// A task of the random or backward strategy: a random deal, extended backward (with the
    /// backward strategy) when its game is worth the threshold.
    pub(crate) fn random_task(&self) -> Task {
        match self.strategy {
            Strategy::Backward => Task {
                base: Base::Random,
                extend: Some(self.states),
                threshold: self.threshold,
            },
            _ => Task::plain(Base::Random),
        }
    }

    /// The least value of a game that this generation's tasks extend backward ([`u64::MAX`]:
    /// none).
    pub(crate) fn extends_from(&self) -> u64 {
        match self.strategy {
            Strategy::Backward => self.threshold,
            _ => u64::MAX,
        }
    }

    /// What it has learned, for a checkpoint.
    pub(crate) fn state(&self) -> Learned {
        Learned {
            threshold: self.threshold,
            climbers: self.walkers.clone(),
            given: self.given,
        }
    }

    /// Goes on from what a checkpoint says it had learned.
    pub(crate) fn restore(&mut self, learned: &Learned) {
        self.threshold = learned.threshold;
        self.walkers.clone_from(&learned.climbers);
        self.given = learned.given;
    }

    /// Goes on from the deals a finished hunt kept (`kept`: each deal and its value, best
    /// first), as if it had just played them: the backward strategy extends games as long
    /// as the best, and the climbers start from the best deals.
    pub(crate) fn go_on_from(&mut self, kept: &[(Vec<u8>, u64)]) {
        if let Some(best) = kept.iter().map(|k| k.1).max() {
            self.threshold = best;
        }
        for (walker, (order, value)) in self.walkers.iter_mut().zip(kept) {
            walker.at = Some((order.clone(), *value as i64));
        }
    }

    /// Whether given deals are left to play (the GPU plays only random deals).
    pub(crate) fn gives(&self) -> bool {
        self.given < self.start.len()
    }

    /// Learns from a generation's games.
    pub(crate) fn learn(&mut self, tasks: &[Task], played: &[Played]) {
        // Given deals come first; the walkers that start from them learn their value.
        let given = tasks
            .iter()
            .take_while(|t| matches!(t.base, Base::Given(_)))
            .count();
        let first = self.given - given;
        for (walker, p) in self.walkers.iter_mut().skip(first).zip(&played[..given]) {
            if let Some((_, value)) = walker.at.as_mut() {
                *value = p.value.map_or(-1, |v| v as i64);
            }
        }
        // Extensions are worth their time only where they can give the best game: the best
        // value so far is the threshold (the first generation's games only set it).
        let best = played.iter().filter_map(|p| p.value).max();
        let extended = played
            .iter()
            .filter_map(|p| p.extended.as_ref())
            .map(|e| e.2);
        if let Some(best) = best.into_iter().chain(extended).max() {
            self.threshold = match self.threshold {
                u64::MAX => best,
                now => now.max(best),
            };
        }
        if self.strategy == Strategy::Climb {
            self.climb(&played[given..]);
        }
    }

    /// Each walker moves to its best change if that is no worse, or counts a generation stuck.
    fn climb(&mut self, played: &[Played]) {
        let each = played.len().div_ceil(WALKERS).max(1);
        for (w, walker) in self.walkers.iter_mut().enumerate() {
            let mine = played.iter().skip(w * each).take(each);
            let Some(best) = mine
                .map(|p| (p.value.map_or(-1, |v| v as i64), p))
                .reduce(|a, b| if b.0 > a.0 { b } else { a })
            else {
                continue;
            };
            match &walker.at {
                Some((_, now)) if best.0 < *now => walker.stuck += 1,
                Some((_, now)) => {
                    walker.stuck = if best.0 > *now { 0 } else { walker.stuck + 1 };
                    walker.at = Some((best.1.order.clone(), best.0));
                }
                None => {
                    walker.stuck = 0;
                    walker.at = Some((best.1.order.clone(), best.0));
                }
            }
            if walker.stuck >= PATIENCE {
                walker.at = None;
                walker.stuck = 0;
            }
        }
    }
}
