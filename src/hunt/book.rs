//! The deals a hunt keeps: the best by value, or each distinct cycle's first deal, and the log
//! of each improvement, offered every game in the tasks' order.

use super::report::Report;
use super::{deal, Found, Goal, Improvement};
use crate::engine::{Engine, GameResult, Outcome};
use crate::output::cycles::hands_text;
use crate::rules::Rules;
use std::collections::HashMap;

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
    /// Where each cycle kept is in `kept`, by its least state (cycles are kept in the order
    /// found, never moved).
    cycles: HashMap<String, usize>,
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

    /// The best value so far (cycles: how many were found).
    pub(super) fn best(&self) -> Option<u64> {
        match self.goal {
            Goal::Longest(_) => self.best,
            Goal::Cycles => Some(self.kept.len() as u64),
        }
    }

    /// Offers the deal `order` whose game is `game`, found after `games` games.
    pub(super) fn offer(&mut self, order: &[u8], game: &GameResult, games: u64, seconds: f64) {
        let Some(value) = self.goal.value(game) else {
            return;
        };
        let hands = || deal::hands_of(&self.rules, order);
        match self.goal {
            Goal::Longest(_) => {
                if self.best.is_none_or(|b| value > b) {
                    self.best = Some(value);
                    let hands = hands();
                    self.log.push(Improvement {
                        seconds,
                        games,
                        value,
                        hands,
                    });
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
                let Outcome::Infinite {
                    cycle_start,
                    cycle_length,
                } = game.outcome
                else {
                    return;
                };
                let span = [cycle_start, cycle_length];
                self.engine
                    .least_state_of_order(order, span, &mut self.least);
                let named = hands_text(&self.least);
                if let Some(&known) = self.cycles.get(&named) {
                    self.kept[known].reached += 1;
                    return;
                }
                if self.kept.len() == self.keep {
                    return;
                }
                self.cycles.insert(named.clone(), self.kept.len());
                self.log.push(Improvement {
                    seconds,
                    games,
                    value,
                    hands: hands(),
                });
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
        self.cycles = (named.filter_map(|(i, k)| Some((k.cycle.clone()?, i)))).collect();
        for entry in &report.log {
            self.log.push(Improvement {
                seconds: entry.seconds,
                games: entry.games,
                value: entry.value,
                hands: deal::read_hands(&self.rules, &entry.hands).expect("checked when read"),
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
