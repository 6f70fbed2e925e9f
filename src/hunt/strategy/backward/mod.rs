//! The backward strategy: random deals, and each game as long as the longest so far extended
//! backward ([`crate::backward`]: the states that lead into it searched for a deal whose game reaches it
//! later).

use super::{read, Base, Choose, Task, Unlearned};
use crate::hunt::Played;
use serde::{Deserialize, Serialize};

/// What the backward strategy saves: its threshold.
#[derive(Serialize, Deserialize)]
struct Saved {
    threshold: u64,
}

/// The threshold, and the states one search may expand.
pub(super) struct Backward {
    /// The best value so far: a game that reaches it is extended (before the first
    /// generation's games, none is).
    threshold: u64,
    states: u64,
}

impl Backward {
    pub(super) fn new(states: u64) -> Backward {
        Backward {
            threshold: u64::MAX,
            states,
        }
    }
}

impl Choose for Backward {
    fn tasks(&mut self, count: usize) -> Vec<Task> {
        (0..count).map(|_| self.random_task()).collect()
    }

    /// Given deals are extended whatever their length.
    fn given(&self, order: Vec<u8>) -> Task {
        Task {
            base: Base::Given(order),
            extend: Some(self.states),
            threshold: 0,
        }
    }

    /// Extensions are worth their time only where they can give the best game: the best value
    /// so far is the threshold (the first generation's games only set it).
    fn learn(&mut self, _first: usize, given: &[Option<Played>], played: &[Option<Played>]) {
        if let Some(best) = best_of(given, played) {
            self.threshold = match self.threshold {
                u64::MAX => best,
                now => now.max(best),
            };
        }
    }

    fn extends_from(&self) -> u64 {
        self.threshold
    }

    fn random_task(&self) -> Task {
        Task {
            base: Base::Random,
            extend: Some(self.states),
            threshold: self.threshold,
        }
    }

    fn save(&self) -> serde_json::Value {
        serde_json::json!(Saved {
            threshold: self.threshold
        })
    }

    fn restore(&mut self, saved: &serde_json::Value, _sorted: &[u8]) -> Result<(), Unlearned> {
        self.threshold = read::<Saved>(saved)?.threshold;
        Ok(())
    }

    /// Games as long as the best kept are extended.
    fn go_on_from(&mut self, kept: &[(Vec<u8>, u64)]) {
        if let Some(best) = kept.iter().map(|k| k.1).max() {
            self.threshold = best;
        }
    }
}

/// The best value of a generation's games, those found backward included.
fn best_of(given: &[Option<Played>], played: &[Option<Played>]) -> Option<u64> {
    let all = || given.iter().chain(played).flatten();
    let best = all().filter_map(|p| p.value).max();
    let extended = all().filter_map(|p| p.extended.as_ref()).map(|e| e.2);
    best.into_iter().chain(extended).max()
}
