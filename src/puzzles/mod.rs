//! The single-game commands of the seed documents: the CodinGame puzzle (`play`) from hands in
//! its input format or from a seed, the seed-004 puzzle's answer line, the Oorlog battle
//! resolver, and the turn-by-turn trace.
//!
//! ```
//! use warsweep::puzzles::{parse_hands, play_line};
//! use warsweep::{Deck, Engine, Preset, Settings, Silent};
//! let input = b"3\nAD\nKC\nQC\n3\nKH\nQS\nJC\n";
//! let hands = parse_hands(input, Deck::STANDARD)?;
//! let rules = Settings::new(Preset::Codingame).build()?;
//! let game = Engine::new(rules).play_hands(&hands, 0, &mut Silent)?;
//! assert_eq!(play_line(&rules, &game), "1 3");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod battle;
mod certify;
mod input;
mod play;
mod trace;

pub use crate::output::record::{answer_pair, play_line};
pub use battle::{resolve as resolve_battle, BattleError};
pub use certify::{certify, Certificate, CertifyError, Gathers, PeriodWar, MOST_COMPARED_ROUNDS};
pub use input::{parse_battle_values, parse_hands, parse_seeds, InputError};
pub use play::{play, PlayError, Start};
