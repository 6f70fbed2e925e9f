//! The climb: walkers change their deal a little and keep a change whose game is no shorter; a
//! walker stuck too long starts again from a random deal.

use super::{read, Base, Choose, Task, Unlearned};
use crate::hunt::Played;
use serde::{Deserialize, Serialize};

/// Walkers of the climb, and the changes each tries a generation (with the default batch).
const WALKERS: usize = 64;
/// Generations a walker may go without a longer game before it starts again.
const PATIENCE: u32 = 32;

/// A climbing walker: its deal and that deal's value (infinite games count below every
/// finished one), and the generations since its value last grew.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Climber {
    at: Option<(Vec<u8>, i64)>,
    stuck: u32,
}

/// What the climb saves: its walkers.
#[derive(Serialize, Deserialize)]
struct Saved {
    climbers: Vec<Climber>,
}

/// The walkers.
pub(super) struct Climb {
    walkers: Vec<Climber>,
}

impl Climb {
    /// The first walkers start from the given deals `start` (their value is learned from their
    /// own games, played first), the others from random deals.
    pub(super) fn new(start: &[Vec<u8>]) -> Climb {
        let walkers = (0..WALKERS)
            .map(|w| Climber {
                at: start.get(w).map(|order| (order.clone(), i64::MIN)),
                stuck: 0,
            })
            .collect();
        Climb { walkers }
    }
}

/// A game's value to a walker: infinite games count below every finished one.
fn worth(played: &Played) -> i64 {
    played.value.map_or(-1, |v| v as i64)
}

impl Choose for Climb {
    fn tasks(&mut self, count: usize) -> Vec<Task> {
        let each = count.div_ceil(WALKERS).max(1);
        let mut tasks = Vec::with_capacity(count);
        for walker in &self.walkers {
            let n = (count - tasks.len()).min(each);
            for _ in 0..n {
                tasks.push(Task::plain(match &walker.at {
                    Some((order, _)) => Base::Changed(order.clone()),
                    None => Base::Random,
                }));
            }
        }
        tasks
    }

    /// The walkers that start from given deals learn their value; then each walker moves to its
    /// best change if that is no worse, or counts a generation stuck.
    fn learn(&mut self, first: usize, given: &[Option<Played>], played: &[Option<Played>]) {
        for (walker, p) in self
            .walkers
            .iter_mut()
            .skip(first)
            .zip(given.iter().flatten())
        {
            if let Some((_, value)) = walker.at.as_mut() {
                *value = worth(p);
            }
        }
        let each = played.len().div_ceil(WALKERS).max(1);
        for (w, walker) in self.walkers.iter_mut().enumerate() {
            let mine = played.iter().skip(w * each).take(each).flatten();
            let Some(best) = mine
                .map(|p| (worth(p), p))
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

    fn save(&self) -> serde_json::Value {
        let saved = Saved {
            climbers: self.walkers.clone(),
        };
        serde_json::to_value(saved).expect("walkers serialize")
    }

    /// Every walker must stand at a deal of the setting (its values those of `sorted`), as
    /// its changes assume.
    fn restore(&mut self, saved: &serde_json::Value, sorted: &[u8]) -> Result<(), Unlearned> {
        let walkers = read::<Saved>(saved)?.climbers;
        let mut deck = sorted.to_vec();
        deck.sort_unstable();
        for (w, walker) in walkers.iter().enumerate() {
            if let Some((order, _)) = &walker.at {
                let mut values = order.clone();
                values.sort_unstable();
                if values != deck {
                    return Err(Unlearned::Walker(w + 1));
                }
            }
        }
        self.walkers = walkers;
        Ok(())
    }

    /// The walkers start from the best deals.
    fn go_on_from(&mut self, kept: &[(Vec<u8>, u64)]) {
        for (walker, (order, value)) in self.walkers.iter_mut().zip(kept) {
            walker.at = Some((order.clone(), *value as i64));
        }
    }
}
