//! One game as `play` plays it: dealt from a seed or from given hands, silently or traced
//! battle by battle, ending in the result line.

use crate::deal::seeds::RangeError;
use crate::deal::Shuffle;
use crate::engine::hands::HandsError;
use crate::engine::{Engine, GameResult, Outcome, Silent};
use crate::output::record;
use crate::puzzles::trace::Trace;
use crate::rules::{Card, Rules, RulesError};
use std::io::{self, Write};

/// Why a game could not be played and shown.
///
/// ```
/// use warsweep::puzzles::{play, PlayError, Start};
/// use warsweep::{Deck, Preset, Settings, Shuffle};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x4")?).build()?;
/// // lex numbers the 63,063,000 deals of a 4x4 deck from 0: there is no deal 63,063,000.
/// let refused = play(rules, 1_000, Start::Seed(Shuffle::Lex, 63_063_000), false, Vec::new());
/// assert!(matches!(refused, Err(PlayError::Seed(_))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(thiserror::Error, Debug)]
#[non_exhaustive]
pub enum PlayError {
    /// The shuffle has no deal for the seed.
    #[error(transparent)]
    Seed(#[from] RangeError),
    /// The hands cannot be played.
    #[error(transparent)]
    Hands(#[from] HandsError),
    /// A round limit of 0.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// Writing the game failed.
    #[error(transparent)]
    Write(#[from] io::Error),
}

/// Where a game starts.
///
/// ```
/// use warsweep::puzzles::{play, Start};
/// use warsweep::{Preset, Rules, Shuffle};
/// let mut shown = Vec::new();
/// play(Rules::preset(Preset::Codingame), 1_000_000, Start::Seed(Shuffle::Lcg, 0), false, &mut shown)?;
/// assert_eq!(shown, b"2 22\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub enum Start<'a> {
    /// The deal of a seed.
    Seed(Shuffle, u64),
    /// These hands, player 1's first, each top card first.
    Hands(&'a [Vec<Card>]),
}

/// Plays the game under `rules` (stopping at `max_rounds` where no cycle can be checked) and
/// writes the result line to `out`, after the whole game battle by battle when `trace` is set.
pub fn play(
    rules: Rules,
    max_rounds: u64,
    start: Start,
    trace: bool,
    out: impl Write,
) -> Result<GameResult, PlayError> {
    let mut shown = Trace::new(out);
    let result = match start {
        Start::Seed(shuffle, seed) => {
            let mut engine = Engine::new(rules);
            engine.set_max_rounds(max_rounds)?;
            if trace {
                shown.deal(&engine.deal(shuffle, seed)?);
                engine.play_seed_observed(shuffle, seed, &mut shown)?
            } else {
                engine.play_seed(shuffle, seed)?
            }
        }
        Start::Hands(hands) => {
            let mut engine = Engine::with_capacity(rules, hands.iter().map(Vec::len).sum())?;
            engine.set_max_rounds(max_rounds)?;
            if trace {
                shown.deal(hands);
                engine.play_hands(hands, 0, &mut shown)?
            } else {
                engine.play_hands(hands, 0, &mut Silent)?
            }
        }
    };
    if let (
        true,
        Outcome::Infinite {
            cycle_start,
            cycle_length,
        },
    ) = (trace, result.outcome)
    {
        shown.say(&format!(
            "the hands after round {cycle_start} come back every {cycle_length} rounds: the game never ends"
        ));
    }
    shown.say(&record::play_line(&rules, &result));
    shown.finish()?.flush()?;
    Ok(result)
}
