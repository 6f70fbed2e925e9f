//! The distinct cycles of a sweep and their basins (`docs/rules.md`, "Distinct cycles and their
//! basins"): each cycle named by its least state, with the deals that end up on it and the
//! least of them. Tables add exactly, in any order, so shards merge into what one sweep gives.

use crate::hash::FoldState;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt::Write as _;
use thiserror::Error;

/// Why tables of cycles do not add up, or rows do not describe one.
///
/// ```
/// use std::error::Error as _;
/// use warsweep::{CycleError, Deck, Preset, Seeds, Settings, Shuffle, StateError, Summary, SummaryError, Sweep};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x4")?).build()?;
/// let sweep = Sweep::new(rules, Shuffle::Lex, Seeds::new(0, 3000)?).cycles(true);
/// let json = sweep.run(None, &|_| {}, &Default::default())?.summary.to_json();
/// // A summary from elsewhere whose cycle holds a card of value 9, which a 4x4 deck has not.
/// let edited = json.replacen(r#""hands": "1 "#, r#""hands": "9 "#, 1);
/// let refused = edited.parse::<Summary>().unwrap_err();
/// let why = refused.source().and_then(|e| e.downcast_ref::<SummaryError>());
/// assert!(matches!(
///     why,
///     Some(SummaryError::Cycles(CycleError::NotAState { why: StateError::Value { .. }, .. }))
/// ));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Error, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CycleError {
    /// One cycle with two lengths in two tables.
    #[error("the cycle {cycle} has length {one} in one table and {other} in another")]
    TwoLengths {
        /// The cycle, as its row writes it.
        cycle: String,
        /// Its length in one table.
        one: u64,
        /// Its length in the other.
        other: u64,
    },
    /// A row whose hands are not a state of the deck.
    #[error("its cycle {cycle:?} {why}")]
    NotAState {
        /// The row's hands.
        cycle: String,
        /// What is wrong with them.
        why: StateError,
    },
    /// A row with no length or no deals.
    #[error("its cycle {0:?} has no length or no deals")]
    Empty(String),
    /// A cycle listed twice.
    #[error("it lists the cycle {0:?} twice")]
    Twice(String),
    /// More cycles than a table keeps.
    #[error("it lists more than {MOST_CYCLES} cycles")]
    TooMany,
}

/// Why a row's hands are not a state of the deck ([`CycleError::NotAState`], whose example
/// shows one).
///
/// ```
/// use warsweep::StateError;
/// let wrong = StateError::Cards { found: 15, cards: 16 };
/// assert_eq!(wrong.to_string(), "holds 15 cards, not 16");
/// ```
#[derive(Error, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StateError {
    /// Not one hand a player.
    #[error("has {found} hands, not {players}")]
    Hands {
        /// Hands written.
        found: usize,
        /// Players.
        players: usize,
    },
    /// Something that is not a value of the deck.
    #[error("holds {found:?}, not a value from 1 to {values}")]
    Value {
        /// What was written.
        found: String,
        /// The deck's values.
        values: u8,
    },
    /// Not the deck's number of cards.
    #[error("holds {found} cards, not {cards}")]
    Cards {
        /// Cards written.
        found: usize,
        /// The deck's.
        cards: usize,
    },
}

pub use crate::engine::SEPARATOR;

/// Distinct cycles a table keeps at most (a few hundred megabytes of states for 4x13 decks).
pub const MOST_CYCLES: usize = 1_000_000;

/// One cycle's basin within a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Basin {
    /// Rounds between two occurrences of a state.
    pub length: u64,
    /// Deals whose games end up on the cycle.
    pub deals: u64,
    /// The least of them.
    pub first_seed: u64,
}

/// The distinct cycles met so far, by least state (each hand's values from 1, then
/// [`SEPARATOR`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cycles {
    basins: HashMap<Box<[u8]>, Basin, FoldState>,
    /// More than [`MOST_CYCLES`] were met: the table is incomplete.
    overflowed: bool,
}

/// A cycle as the CSV and the summary write it.
///
/// ```
/// use warsweep::{Deck, Preset, Seeds, Settings, Shuffle, Sweep};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("3x3")?).build()?;
/// let sweep = Sweep::new(rules, Shuffle::Lex, Seeds::new(0, 1_680)?).cycles(true);
/// let summary = sweep.run(None, &|_| {}, &Default::default())?.summary;
/// let cycles = summary.cycles().expect("listed");
/// assert!(!cycles.is_empty());
/// for cycle in cycles {
///     assert!(cycle.cycle_length > 0 && cycle.deals > 0 && cycle.hands.contains('|'));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CycleRow {
    /// Rounds between two occurrences of a state.
    pub cycle_length: u64,
    /// The basin's size within the sweep.
    pub deals: u64,
    /// The least seed of the basin.
    pub first_seed: u64,
    /// The least state: hands joined by `|`, values separated by spaces.
    pub hands: String,
}

impl Cycles {
    /// Counts `deals` deals, the least `seed`, on the cycle of length `length` whose least
    /// state is `state`.
    pub fn add(&mut self, state: &[u8], length: u64, deals: u64, seed: u64) {
        if let Some(basin) = self.basins.get_mut(state) {
            // A table's deals are a sweep's, below 2^64; a doctored summary's sum is refused
            // against its count of infinite games.
            basin.deals = basin.deals.saturating_add(deals);
            basin.first_seed = basin.first_seed.min(seed);
        } else if self.basins.len() < MOST_CYCLES {
            let basin = Basin {
                length,
                deals,
                first_seed: seed,
            };
            self.basins.insert(state.into(), basin);
        } else {
            self.overflowed = true;
        }
    }

    /// Adds the basins of `other` (another thread's or shard's); a cycle both name must have
    /// one length.
    pub fn add_table(&mut self, other: &Cycles) -> Result<(), CycleError> {
        self.overflowed |= other.overflowed;
        for (state, basin) in &other.basins {
            if let Some(mine) = self.basins.get(state) {
                if mine.length != basin.length {
                    return Err(CycleError::TwoLengths {
                        cycle: hands_text(state),
                        one: mine.length,
                        other: basin.length,
                    });
                }
            }
            self.add(state, basin.length, basin.deals, basin.first_seed);
        }
        Ok(())
    }

    /// Whether more cycles were met than the table keeps.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Deals on all cycles.
    pub fn deals(&self) -> u128 {
        self.basins.values().map(|b| b.deals as u128).sum()
    }

    /// The table's rows: the largest basins first, then by least seed.
    pub fn rows(&self) -> Vec<CycleRow> {
        let mut rows: Vec<CycleRow> = self
            .basins
            .iter()
            .map(|(state, b)| CycleRow {
                cycle_length: b.length,
                deals: b.deals,
                first_seed: b.first_seed,
                hands: hands_text(state),
            })
            .collect();
        rows.sort_by(|a, b| {
            (b.deals, a.first_seed, &a.hands).cmp(&(a.deals, b.first_seed, &b.hands))
        });
        rows
    }

    /// The table that `rows` describe, for `players` players and a deck of `values` values
    /// and `cards` cards; or why they do not describe one.
    pub fn from_rows(
        rows: &[CycleRow],
        players: usize,
        values: u8,
        cards: usize,
    ) -> Result<Cycles, CycleError> {
        let mut cycles = Cycles::default();
        let mut state = Vec::with_capacity(cards + players);
        for row in rows {
            read_state(&row.hands, players, values, cards, &mut state).map_err(|why| {
                CycleError::NotAState {
                    cycle: row.hands.clone(),
                    why,
                }
            })?;
            if row.cycle_length == 0 || row.deals == 0 {
                return Err(CycleError::Empty(row.hands.clone()));
            }
            if cycles.basins.contains_key(state.as_slice()) {
                return Err(CycleError::Twice(row.hands.clone()));
            }
            cycles.add(&state, row.cycle_length, row.deals, row.first_seed);
        }
        if cycles.overflowed {
            return Err(CycleError::TooMany);
        }
        Ok(cycles)
    }
}

/// A written state as text: hands joined by `|`, values separated by spaces.
pub(crate) fn hands_text(state: &[u8]) -> String {
    let mut text = String::with_capacity(3 * state.len());
    let mut fresh = true;
    for (i, &v) in state.iter().enumerate() {
        if v == SEPARATOR {
            if i + 1 < state.len() {
                text.push('|');
            }
            fresh = true;
        } else {
            if !fresh {
                text.push(' ');
            }
            let _ = write!(text, "{v}");
            fresh = false;
        }
    }
    text
}

/// Reads [`hands_text`]'s form back into `state`, checking it is a state of the deck.
fn read_state(
    text: &str,
    players: usize,
    values: u8,
    cards: usize,
    state: &mut Vec<u8>,
) -> Result<(), StateError> {
    state.clear();
    let hands: Vec<&str> = text.split('|').collect();
    if hands.len() != players {
        return Err(StateError::Hands {
            found: hands.len(),
            players,
        });
    }
    for hand in hands {
        for value in hand.split_whitespace() {
            match value.parse::<u8>() {
                Ok(v) if (1..=values).contains(&v) => state.push(v),
                _ => {
                    return Err(StateError::Value {
                        found: value.to_string(),
                        values,
                    })
                }
            }
        }
        state.push(SEPARATOR);
    }
    if state.len() != cards + players {
        return Err(StateError::Cards {
            found: state.len() - players,
            cards,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_read_back_as_written_and_rows_sort_by_basin() {
        let mut cycles = Cycles::default();
        let a = [1, 2, SEPARATOR, 3, 4, SEPARATOR];
        let b = [1, SEPARATOR, 2, 3, 4, SEPARATOR];
        cycles.add(&a, 4, 3, 9);
        cycles.add(&b, 2, 5, 7);
        cycles.add(&a, 4, 2, 1);
        let rows = cycles.rows();
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].deals, rows[0].first_seed), (5, 1));
        assert_eq!(rows[0].hands, "1 2|3 4");
        assert_eq!((rows[1].deals, rows[1].first_seed), (5, 7));
        assert_eq!(rows[1].hands, "1|2 3 4");
        assert_eq!(Cycles::from_rows(&rows, 2, 4, 4).unwrap(), cycles);
        assert!(Cycles::from_rows(&rows, 2, 3, 4).is_err());
        assert!(Cycles::from_rows(&rows, 3, 4, 4).is_err());
        // The separator is stronger than every value: `1 2 | 3 4` < `1 | 2 3 4`.
        assert!(a[..] < b[..]);
    }
}
