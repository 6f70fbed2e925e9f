//! The Oorlog battle resolver of seed 003: given the cards revealed in one battle in
//! chronological order (face-down cards are not listed), who takes the table?

use crate::rules::{Deck, Ranking, Strength, MAX_PLAYERS};
use thiserror::Error;

#[derive(Error, Debug, PartialEq, Eq)]
/// Why a battle cannot be resolved.
///
/// ```
/// use warsweep::puzzles::{resolve_battle, BattleError};
/// assert!(matches!(resolve_battle(13, &[1, 2]), Err(BattleError::Players(13))));
/// ```
#[non_exhaustive]
pub enum BattleError {
    #[error("a battle needs 2 to {max} players, not {0}", max = MAX_PLAYERS)]
    /// Fewer than 2 or more than [`MAX_PLAYERS`] players.
    Players(usize),
    #[error(
        "the battle is undecided: {} still at war after {}; give {missing} more",
        players_text(at_war),
        crate::text::count(*given as u64, "card")
    )]
    /// The values end while players are still at war.
    Undecided {
        /// The players still at war, 0-based.
        at_war: Vec<usize>,
        /// How many values were given.
        given: usize,
        /// How many more the war needs.
        missing: usize,
    },
    #[error("player {winner} wins with card {decided_at}, but {extra} more values follow")]
    /// The battle is decided before the values end.
    TrailingValues {
        /// The winner, 0-based.
        winner: usize,
        /// How many values decided it.
        decided_at: usize,
        /// How many follow.
        extra: usize,
    },
}

fn players_text(players: &[usize]) -> String {
    let names: Vec<String> = players
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("players {} and {last}", rest.join(", ")),
        _ => format!("player {}", names.join("")),
    }
}

/// The seed-003 number (1 = ace or joker, 11 J, 12 Q, 13 K) as a value of the oorlog deck
/// (0 = `2` .. 12 = ace).
pub(crate) fn engine_value(number: u8) -> u8 {
    match number {
        1 => 12,
        n => n - 2,
    }
}

/// The 0-based index of the player who wins the battle. Errors name players 1-based.
pub fn resolve(players: usize, numbers: &[u8]) -> Result<usize, BattleError> {
    if !(2..=12).contains(&players) {
        return Err(BattleError::Players(players));
    }
    let strength = Strength::new(Ranking::Oorlog, Deck::OORLOG);
    let mut contenders: Vec<usize> = (0..players).collect();
    let mut next = 0;
    loop {
        let end = next + contenders.len();
        if end > numbers.len() {
            return Err(BattleError::Undecided {
                at_war: contenders.iter().map(|p| p + 1).collect(),
                given: numbers.len(),
                missing: end - numbers.len(),
            });
        }
        let values: Vec<u8> = numbers[next..end]
            .iter()
            .map(|&n| engine_value(n))
            .collect();
        let best = strength.strongest(values.iter().copied());
        contenders = contenders
            .iter()
            .zip(&values)
            .filter(|(_, &v)| v == best)
            .map(|(&p, _)| p)
            .collect();
        next = end;
        if let [winner] = contenders[..] {
            if next < numbers.len() {
                return Err(BattleError::TrailingValues {
                    winner: winner + 1,
                    decided_at: next,
                    extra: numbers.len() - next,
                });
            }
            return Ok(winner);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The twelve test cases of seed 003, answers 0-based.
    #[test]
    fn seed_003_examples() {
        let cases: [(&[u8], usize); 12] = [
            (&[4, 8, 11], 2),
            (&[7, 1, 12], 1),
            (&[10, 10, 13], 2),
            (&[3, 1, 2], 0),
            (&[1, 1, 2], 2),
            (&[3, 12, 1], 0),
            (&[12, 12, 9, 4, 8], 1),
            (&[4, 4, 4, 8, 1, 2], 2),
            (&[11, 5, 11, 5, 5, 10, 13], 2),
            (&[1, 1, 1, 9, 7, 9, 11, 3], 0),
            (&[13, 13, 4, 1, 3], 1),
            (&[13, 4, 13, 2, 3], 2),
        ];
        for (cards, winner) in cases {
            assert_eq!(resolve(3, cards), Ok(winner), "{cards:?}");
        }
    }

    #[test]
    fn short_and_long_arrays_are_refused() {
        let err = resolve(3, &[11, 5, 11, 5, 5]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the battle is undecided: players 1 and 3 still at war after 5 cards; give 2 more"
        );
        assert!(resolve(3, &[4, 8]).is_err());
        let err = resolve(3, &[4, 8, 11, 2]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "player 3 wins with card 3, but 1 more values follow"
        );
        assert_eq!(resolve(2, &[1, 2]), Ok(1));
        assert!(resolve(13, &[1; 13]).is_err());
    }
}
