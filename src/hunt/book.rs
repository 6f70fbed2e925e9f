//! The deals a hunt keeps: the best by value, or each distinct cycle's first deal, and the log
//! of each improvement, offered every game in the tasks' order.

use super::report::Report;
use super::{deal, Found, Goal, Improvement};
use crate::engine::{Engine, GameResult, Outcome};
use crate::output::cycles::hands_text;
use crate::rules::Rules;
use std::collections::HashMap;

/// When a deal was found: games played, seconds of the hunt, and for a strategy that builds
/// its deals the games it had built and fallen back.
#[derive(Clone, Copy)]
pub(super) struct When {
    pub(super) games: u64,
    pub(super) seconds: f64,
    pub(super) built: Option<(u64, u64)>,
}

impl When {
    /// The improvement of `value` with the deal `hands`, found now.
    fn improvement(self, value: u64, hands: Vec<Vec<u8>>) -> Improvement {
        Improvement {
            seconds: self.seconds,
            games: self.games,
            value,
            hands,
            built: self.built.map(|b| b.0),
            fell_back: self.built.map(|b| b.1),
        }
    }
}

/// A deal kept: its value, the games played when it was found, the deal, its game, and its
/// cycle's least state.
struct Kept {
    value: u64,
    games: u64,
    order: Vec<u8>,
    game: GameResult,
    cycle: Option<String>,
    /// Games that reached its cycle.
    reached: u64,
}

/// The deals kept: the best by value (ties: the one found first), or each distinct cycle's
/// first deal; and the log of improvements.
pub(super) struct Book {
    goal: Goal,
    keep: usize,
    rules: Rules,
    kept: Vec<Kept>,
    log: Vec<Improvement>,
    best: Option<u64>,
    engine: Engine,
    least: Vec<u8>,
    /// Every distinct cycle reached, by its least state, and where it is in `kept` if it is
    /// kept (cycles are kept in the order found, never moved; those past `keep` are counted
    /// and logged only).
    cycles: HashMap<String, Option<usize>>,
}

impl Book {
    pub(super) fn new(goal: Goal, keep: usize, rules: &Rules) -> Book {
        Book {
            goal,
            keep,
            rules: *rules,
            kept: Vec::new(),
            log: Vec::new(),
            best: None,
            engine: Engine::new(*rules),
            least: Vec::new(),
            cycles: HashMap::new(),
        }
    }

    /// The least value a game must have to be kept or logged: any while fewer than `keep` are
    /// kept; none for cycles, whose games are those that loop.
    pub(super) fn least(&self) -> u64 {
        match (self.goal, self.kept.last()) {
            (Goal::Cycles, _) => u64::MAX,
            (Goal::Longest(_), Some(worst)) if self.kept.len() == self.keep => worst.value + 1,
            (Goal::Longest(_), _) => 0,
        }
    }

    /// The best value so far (cycles: how many distinct ones were reached).
    pub(super) fn best(&self) -> Option<u64> {
        match self.goal {
            Goal::Longest(_) => self.best,
            Goal::Cycles => Some(self.cycles.len() as u64),
        }
    }

    /// Offers the deal `order` whose game is `game`, found `when`.
    pub(super) fn offer(&mut self, order: &[u8], game: &GameResult, when: When) {
        let games = when.games;
        let Some(value) = self.goal.value(game) else {
            return;
        };
        let rules = self.rules;
        let hands = || deal::hands_of(&rules, order);
        match self.goal {
            Goal::Longest(_) => {
                if self.best.is_none_or(|b| value > b) {
                    self.best = Some(value);
                    self.log.push(when.improvement(value, hands()));
                }
                let worst = self.kept.last().map(|k| k.value);
                if self.kept.len() == self.keep && worst.is_some_and(|w| value <= w) {
                    return;
                }
                if self.kept.iter().any(|k| k.order == order) {
                    return;
                }
                let at = self.kept.partition_point(|k| k.value >= value);
                let kept = Kept {
                    value,
                    games,
                    order: order.to_vec(),
                    game: *game,
                    cycle: None,
                    reached: 0,
                };
                self.kept.insert(at, kept);
                self.kept.truncate(self.keep);
            }
            Goal::Cycles => {
                let Some(named) = self.cycle_of(order, game) else {
                    return;
                };
                if let Some(known) = self.cycles.get(&named) {
                    if let Some(known) = *known {
                        self.kept[known].reached += 1;
                    }
                    return;
                }
                self.log.push(when.improvement(value, hands()));
                if self.kept.len() == self.keep {
                    self.cycles.insert(named, None);
                    return;
                }
                self.cycles.insert(named.clone(), Some(self.kept.len()));
                self.kept.push(Kept {
                    value,
                    games,
                    order: order.to_vec(),
                    game: *game,
                    cycle: Some(named),
                    reached: 1,
                });
            }
        }
    }

    /// Goes on from `report`, a report of this book's hunt (read and checked): its deals kept
    /// (as many as this book keeps) and its log. Returns the deals kept and their values,
    /// best first, for the strategy to learn from.
    pub(super) fn restore(&mut self, report: &Report) -> Vec<(Vec<u8>, u64)> {
        for deal in &report.best {
            let hands = deal::read_hands(&self.rules, &deal.hands).expect("checked when read");
            self.kept.push(Kept {
                value: deal.value,
                games: deal.games,
                order: deal::order_of(&self.rules, &hands),
                game: deal.result(),
                cycle: deal.cycle.clone(),
                reached: deal.reached.unwrap_or(0),
            });
        }
        self.kept.truncate(self.keep);
        let named = self.kept.iter().enumerate();
        self.cycles = (named.filter_map(|(i, k)| Some((k.cycle.clone()?, Some(i))))).collect();
        for entry in &report.log {
            let hands = deal::read_hands(&self.rules, &entry.hands).expect("checked when read");
            if let Goal::Cycles = self.goal {
                // Each cycle logged is one reached: named again by replaying its deal.
                let order = deal::order_of(&self.rules, &hands);
                let game = self.engine.play_order(&order);
                if let Some(named) = self.cycle_of(&order, &game) {
                    self.cycles.entry(named).or_insert(None);
                }
            }
            self.log.push(Improvement {
                seconds: entry.seconds,
                games: entry.games,
                value: entry.value,
                hands,
                built: entry.built,
                fell_back: entry.fell_back,
            });
        }
        // Every longer game than all before was logged: the best is the log's last.
        if let Goal::Longest(_) = self.goal {
            self.best = self.log.iter().map(|l| l.value).max();
        }
        self.kept
            .iter()
            .map(|k| (k.order.clone(), k.value))
            .collect()
    }

    /// The least state of the cycle that the game `game` of the deal `order` ends on, as
    /// `sweep --cycles` names it; [`None`] for a game that ends.
    fn cycle_of(&mut self, order: &[u8], game: &GameResult) -> Option<String> {
        let Outcome::Infinite {
            cycle_start,
            cycle_length,
        } = game.outcome
        else {
            return None;
        };
        let span = [cycle_start, cycle_length];
        self.engine
            .least_state_of_order(order, span, &mut self.least);
        Some(hands_text(&self.least))
    }

    /// Distinct cycles reached, however many are kept.
    pub(super) fn cycles(&self) -> u64 {
        self.cycles.len() as u64
    }

    /// Each improvement, in order.
    pub(super) fn log(&self) -> &[Improvement] {
        &self.log
    }

    /// The deals kept, as found.
    pub(super) fn kept(&self) -> Vec<Found> {
        self.kept
            .iter()
            .map(|k| Found {
                hands: deal::hands_of(&self.rules, &k.order),
                result: k.game,
                value: k.value,
                games: k.games,
                cycle: k.cycle.clone(),
                reached: k.reached,
            })
            .collect()
    }
}
