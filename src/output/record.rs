//! How one game is written: the per-game CSV row, the `play` line and the `answer` pair of
//! RULES.md ("Output formats").

use crate::engine::{GameResult, Outcome};
use crate::rules::{Count, Rules};
use serde::{Deserialize, Serialize};

/// The header every per-game CSV starts with.
pub const CSV_HEADER: &str = "seed,outcome,winner,rounds,battles,wars,cycle_start,cycle_length";

/// One game as a flat CSV row: empty fields are `None`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameRow {
    pub seed: u64,
    pub outcome: OutcomeName,
    pub winner: Option<u64>,
    pub rounds: Option<u64>,
    pub battles: Option<u64>,
    pub wars: Option<u64>,
    pub cycle_start: Option<u64>,
    pub cycle_length: Option<u64>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutcomeName {
    Win,
    Draw,
    Infinite,
    Capped,
}

impl GameRow {
    pub fn new(seed: u64, result: &GameResult) -> GameRow {
        let counts = (Some(result.rounds), Some(result.battles), Some(result.wars));
        let (outcome, winner, (rounds, battles, wars), cycle) = match result.outcome {
            Outcome::Win(p) => (OutcomeName::Win, Some(p as u64 + 1), counts, None),
            Outcome::Draw => (OutcomeName::Draw, None, counts, None),
            Outcome::Capped => (OutcomeName::Capped, None, counts, None),
            Outcome::Infinite {
                cycle_start,
                cycle_length,
            } => (
                OutcomeName::Infinite,
                None,
                (None, None, None),
                Some((cycle_start, cycle_length)),
            ),
        };
        GameRow {
            seed,
            outcome,
            winner,
            rounds,
            battles,
            wars,
            cycle_start: cycle.map(|c| c.0),
            cycle_length: cycle.map(|c| c.1),
        }
    }
}

/// The count `play` and `answer` print for a finished game: rounds or battles, by preset.
fn counted(rules: &Rules, result: &GameResult) -> u64 {
    match rules.preset.count() {
        Count::Rounds => result.rounds,
        Count::Battles => result.battles,
    }
}

/// The `play` result line: `W N`, `PAT`, `INFINITE mu lambda` or `CAPPED N`.
pub fn play_line(rules: &Rules, result: &GameResult) -> String {
    match result.outcome {
        Outcome::Win(p) => format!("{} {}", p + 1, counted(rules, result)),
        Outcome::Draw => "PAT".to_string(),
        Outcome::Infinite {
            cycle_start,
            cycle_length,
        } => format!("INFINITE {cycle_start} {cycle_length}"),
        Outcome::Capped => format!("CAPPED {}", result.rounds),
    }
}

/// One `W T` pair of the seed-004 answer: `0 T` for a draw, `0 inf` for an infinite game.
pub fn answer_pair(rules: &Rules, result: &GameResult) -> String {
    match result.outcome {
        Outcome::Win(p) => format!("{} {}", p + 1, counted(rules, result)),
        Outcome::Draw | Outcome::Capped => format!("0 {}", counted(rules, result)),
        Outcome::Infinite { .. } => "0 inf".to_string(),
    }
}
