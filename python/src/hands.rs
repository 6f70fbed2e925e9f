//! The deal behind each row of a sweep (`rows_with=["hands"]`): every seed dealt again after
//! the sweep, on all its threads, so that a sweep without them costs what it cost before.

use crate::bad;
use pyo3::prelude::*;
use warsweep::{Engine, Rules, Shuffle};

/// The hands of many games in one buffer: per game, per player, as many bytes as the longest
/// hand has cards, card values from 1, top card first, 0 past the end of a shorter hand.
pub(crate) struct Hands {
    /// Cards each player is dealt (the same for every seed of a setting).
    pub(crate) sizes: Vec<usize>,
    pub(crate) bytes: Vec<u8>,
}

impl Hands {
    /// The hands `shuffle` deals under `rules` for each seed `seed(i)`, `i` below `games`,
    /// dealt on `threads` threads.
    pub(crate) fn deal(
        rules: Rules,
        shuffle: Shuffle,
        games: usize,
        seed: &(dyn Fn(usize) -> u64 + Sync),
        threads: usize,
    ) -> PyResult<Hands> {
        let sizes: Vec<usize> = match games {
            0 => vec![0; rules.players()],
            _ => Engine::new(rules)
                .deal(shuffle, seed(0))
                .map_err(bad)?
                .iter()
                .map(Vec::len)
                .collect(),
        };
        let longest = sizes.iter().copied().max().unwrap_or(0);
        let per_game = longest * sizes.len();
        let mut bytes = vec![0u8; games * per_game];
        if per_game == 0 {
            return Ok(Hands { sizes, bytes });
        }
        let chunk = games.div_ceil(threads.max(1)).max(1);
        std::thread::scope(|scope| -> PyResult<()> {
            let workers: Vec<_> = bytes
                .chunks_mut(chunk * per_game)
                .enumerate()
                .map(|(c, out)| {
                    scope.spawn(move || -> Result<(), String> {
                        let mut engine = Engine::new(rules);
                        for (i, game) in out.chunks_exact_mut(per_game).enumerate() {
                            let dealt = engine
                                .deal(shuffle, seed(c * chunk + i))
                                .map_err(|e| e.to_string())?;
                            for (hand, place) in dealt.iter().zip(game.chunks_exact_mut(longest)) {
                                for (card, byte) in hand.iter().zip(place) {
                                    // Values are below 64 (`MAX_VALUES`): from 1 they fit a byte.
                                    *byte = card.value() + 1;
                                }
                            }
                        }
                        Ok(())
                    })
                })
                .collect();
            for worker in workers {
                worker
                    .join()
                    .expect("a dealing thread panicked")
                    .map_err(bad)?;
            }
            Ok(())
        })?;
        Ok(Hands { sizes, bytes })
    }
}
