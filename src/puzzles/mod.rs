//! The single-game commands of the seed documents: reading hands and seeds, the Oorlog battle
//! resolver, and the turn-by-turn trace.

pub mod battle;
pub mod input;
pub mod play;
pub mod trace;
