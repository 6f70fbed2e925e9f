//! How one game is written: the per-game CSV row, the `play` line and the `answer` pair of
//! `docs/rules.md` ("Output formats").

use crate::engine::{GameResult, Outcome};
use crate::rules::{Count, Rules};
use serde::{Deserialize, Serialize};

/// One game as a flat CSV row: empty fields are [`None`].
///
/// ```
/// use warsweep::{Engine, GameRow, OutcomeName, Preset, Rules, Shuffle};
/// let game = Engine::new(Rules::preset(Preset::Codingame)).play_seed(Shuffle::Lcg, 0)?;
/// let row = GameRow::new(0, &game);
/// assert_eq!((row.outcome, row.winner, row.rounds), (OutcomeName::Win, Some(2), Some(22)));
/// assert_eq!(row.cycle_length, None);
/// # Ok::<(), warsweep::RangeError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameRow {
    /// The seed.
    pub seed: u64,
    /// How the game ended.
    pub outcome: OutcomeName,
    /// The winner, 1-based, for a win.
    pub winner: Option<u64>,
    /// Finished rounds, except for infinite games.
    pub rounds: Option<u64>,
    /// Battles, except for infinite games.
    pub battles: Option<u64>,
    /// Wars, except for infinite games.
    pub wars: Option<u64>,
    /// The first round of the cycle, for infinite games.
    pub cycle_start: Option<u64>,
    /// The cycle's length in rounds, for infinite games.
    pub cycle_length: Option<u64>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
/// The `outcome` column.
///
/// ```
/// use warsweep::OutcomeName;
/// assert_eq!(OutcomeName::Infinite.to_string(), "infinite");
/// ```
pub enum OutcomeName {
    /// A player won.
    Win,
    /// Nobody won.
    Draw,
    /// The game repeats forever.
    Infinite,
    /// The round limit stopped the game.
    Capped,
}

impl std::fmt::Display for OutcomeName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl OutcomeName {
    /// The name the CSV writes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            OutcomeName::Win => "win",
            OutcomeName::Draw => "draw",
            OutcomeName::Infinite => "infinite",
            OutcomeName::Capped => "capped",
        }
    }
}

impl GameRow {
    /// The row of `seed`'s game.
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
    match rules.from_preset().count() {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// [`OutcomeName::name`] is what the CSV writes for each outcome.
    #[test]
    fn outcome_names_are_the_csvs() {
        let all = [
            OutcomeName::Win,
            OutcomeName::Draw,
            OutcomeName::Infinite,
            OutcomeName::Capped,
        ];
        for outcome in all {
            let json = serde_json::to_string(&outcome).unwrap();
            assert_eq!(json, format!("\"{}\"", outcome.name()));
        }
        assert_eq!(all.map(|o| o as u8), [0, 1, 2, 3]);
    }
}
