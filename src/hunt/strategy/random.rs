//! The random strategy: every deal drawn at random, as the published records were found.

use super::{Base, Choose, Task, Unlearned};
use crate::hunt::Played;

/// Draws every deal at random and learns nothing.
pub(super) struct Random;

impl Choose for Random {
    fn tasks(&mut self, count: usize) -> Vec<Task> {
        (0..count).map(|_| Task::plain(Base::Random)).collect()
    }

    fn learn(&mut self, _first: usize, _given: &[Option<Played>], _played: &[Option<Played>]) {}

    fn save(&self) -> serde_json::Value {
        serde_json::json!({})
    }

    fn restore(&mut self, _saved: &serde_json::Value, _sorted: &[u8]) -> Result<(), Unlearned> {
        Ok(())
    }
}
