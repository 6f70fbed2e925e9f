//! warsweep plays the card game War (Battle, Oorlog, Bataille) exactly and very fast, and turns
//! millions of deals into statistics.
//!
//! Data flows one way: [`rules`] fix a setting; a seed becomes a deal ([`deal`]); the
//! [`engine`] plays it and returns a [`engine::GameResult`]; the [`sweep`] fans seeds out over
//! threads; [`output`] turns results into CSV rows, summaries, records and plots. [`puzzles`]
//! holds the single-game commands of the seed documents.
//!
//! ```
//! use warsweep::{deal::Shuffle, engine::{Engine, Outcome}, rules::{Preset, Rules}};
//! let mut engine = Engine::new(Rules::preset(Preset::Shortened));
//! let game = engine.play_seed(Shuffle::Lcg, 0)?;
//! assert_eq!((game.outcome, game.battles), (Outcome::Win(1), 25));
//! # Ok::<(), warsweep::deal::seeds::RangeError>(())
//! ```

pub mod deal;
pub mod engine;
pub mod error;
pub mod output;
pub mod puzzles;
pub mod rules;
pub mod sweep;
pub mod text;
