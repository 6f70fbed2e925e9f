//! warsweep plays the card game War (Battle, Oorlog, Bataille) exactly and very fast, and turns
//! millions of deals into statistics.
//!
//! Data flows one way: a seed becomes a deal ([`deal`]), the [`engine`] plays it under a
//! [`rules::Rules`] setting and returns a [`engine::GameResult`], which becomes a CSV row
//! ([`record`]).
//!
//! ```
//! use warsweep::{deal::Shuffle, engine::{Engine, Outcome}, rules::{Preset, Rules}};
//! let mut engine = Engine::new(Rules::preset(Preset::Shortened));
//! let game = engine.play_seed(Shuffle::Lcg, 0);
//! assert_eq!((game.outcome, game.battles), (Outcome::Win(1), 25));
//! ```

pub mod battle;
pub mod cards;
pub mod crowd;
pub mod cycle;
pub mod deal;
pub mod duel;
pub mod engine;
pub mod hands;
pub mod input;
pub mod record;
pub mod report;
pub mod rules;
pub mod summary;
pub mod sweep;
pub mod trace;
