//! warsweep plays the card game War (Battle, Oorlog, Bataille) exactly and very fast, and turns
//! millions of deals into statistics.
//!
//! Data flows one way: [`Settings`] build the [`Rules`] of a game; a [`Shuffle`] turns a seed
//! into a deal; an [`Engine`] plays it and returns a [`GameResult`]; a [`Sweep`] plays a range of
//! [`Seeds`] over threads into a [`RowSink`] and a [`Summary`], which merges with the summaries
//! of other shards. [`job`] runs a sweep with its files (CSV, summary, histograms, plot,
//! checkpoints to resume from); [`puzzles`] holds the single-game commands of the puzzles.
//!
//! ```
//! use warsweep::{Engine, Outcome, Preset, Settings, Shuffle};
//! let rules = Settings::new(Preset::Shortened).build()?;
//! let mut engine = Engine::new(rules);
//! let game = engine.play_seed(Shuffle::Lcg, 0)?;
//! assert_eq!((game.outcome, game.battles), (Outcome::Win(1), 25));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Every type a caller can reach, a caller can name (and match on).
#![deny(unnameable_types)]

mod backward;
mod deal;
mod engine;
mod error;
mod gpu;
mod hash;
mod output;
mod pool;
mod rules;
mod sweep;
mod text;

pub mod hunt;
pub mod job;
pub mod puzzles;
pub mod shapes;

pub use deal::seeds::{RangeError, Seeds};
pub use deal::Shuffle;
pub use engine::hands::{Hands, HandsError, MAX_CARDS};
pub use engine::{Engine, GameResult, Observer, Outcome, Silent, DEFAULT_MAX_ROUNDS};
pub use gpu::{DeviceError, Unfit, GPU_SUPPORT};
pub use output::accumulator::{Record, Records, Stats, TallyError};
pub use output::cycles::{CycleError, CycleRow, StateError};
pub use output::metric::Metric;
pub use output::record::{GameRow, OutcomeName};
pub use output::summary::{Outcomes, ReadError, Summary, SummaryError};
pub use rules::{check_face_down, check_max_rounds, check_players, MAX_FACE_DOWN, MAX_PLAYERS};
pub use rules::{
    Card, CardError, Deal, Deck, DeckError, Excess, Gather, Missing, Preset, Ranking, Rules,
};
pub use rules::{RulesError, Settings, ShortWar, UnknownName, WonPile};
pub use sweep::{
    CsvSink, Durable, RowSink, Stop, Sweep, SweepError, Swept, MAX_PACING, MAX_THREADS,
};

/// The README's Rust examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
