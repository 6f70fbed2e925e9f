//! The construction: deals built of pieces ([`piece`]). Each task draws random pieces of a few
//! values and keeps those that never fail, then covers the deck with pieces known and found
//! ([`cover`]) and plays the deal they make, hand 1 the pieces' first hands one after another
//! and hand 2 their second hands. The engine plays every deal: a deal of pieces that never fail
//! is an infinite game. The strategy learns the pieces its tasks found, each pattern once.

mod cover;
pub(crate) mod piece;

use super::{read, Base, Build, Choose, Drawn, Task, Tools, Unlearned};
use crate::deal::SplitMix64;
use crate::hunt::{deal, Halt, HuntError, Played, Unbuildable};
use crate::rules::Rules;
pub(crate) use piece::Piece;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::Arc;

/// Random pieces a task draws and tests before it builds its deal.
const DRAWS: usize = 512;
/// Patterns of pieces kept at most.
const MOST_KNOWN: usize = 4096;
/// Cards a hand of the largest piece drawn.
const LARGEST: usize = 12;

/// The pieces known when a generation starts (each as its pattern), and the deck they cover.
pub(crate) struct Known {
    pieces: Vec<Piece>,
    rules: Rules,
    /// Copies of each value in the deck.
    counts: Vec<u8>,
    /// Cards a hand of the pieces drawn: every even size from 2 to [`LARGEST`] that fits in
    /// a hand.
    sizes: Vec<usize>,
}

/// What the construction builds from under `rules` (no piece known yet) and the line a hunt
/// says of it when it starts, or why it builds nothing: its deals are two equal hands of
/// pieces of 2 cards or more each.
pub(crate) fn plan(rules: &Rules) -> Result<(Arc<Known>, String), HuntError> {
    let hands = deal::hands_of(rules, &deal::sorted_values(rules));
    if hands[0].len() != hands[1].len() {
        return Err(HuntError::Unequal(hands[0].len(), hands[1].len()));
    }
    let sizes: Vec<usize> = (2..=LARGEST.min(hands[0].len())).step_by(2).collect();
    if sizes.is_empty() {
        return Err(HuntError::Unbuildable(Unbuildable::Hands(hands[0].len())));
    }
    let known = Known {
        pieces: Vec::new(),
        rules: *rules,
        counts: deal::value_counts(rules),
        sizes,
    };
    let line = format!(
        "the construct strategy builds deals of pieces of {} to {} cards a hand; a task whose pieces do not cover the deck plays a random deal, counted as fallen back",
        known.sizes[0],
        known.sizes[known.sizes.len() - 1]
    );
    Ok((Arc::new(known), line))
}

impl Build for Known {
    /// A task's deal: random pieces drawn and tested, then a cover of the deck by pieces known
    /// and found; a random deal where no cover is found.
    fn draw(&self, rng: &mut SplitMix64, tools: &mut Tools, halt: &Halt) -> Option<Drawn> {
        if halt.now() {
            return None;
        }
        let engine = &mut *tools.engine;
        let mut found = Vec::new();
        for _ in 0..DRAWS {
            let k = self.sizes[rng.below(self.sizes.len())];
            if let Some(p) = piece::random(k, &self.counts, rng) {
                if piece::never_fails(engine, &p) {
                    found.push(p.pattern());
                }
            }
        }
        let known: Vec<&Piece> = self.pieces.iter().chain(&found).collect();
        let (order, built) = match cover::cover(&known, &self.counts, rng, engine) {
            Some(mut pieces) => {
                rng.shuffle(&mut pieces);
                let hand = |p: usize| -> Vec<u8> {
                    pieces
                        .iter()
                        .flat_map(|q| q.0[p].iter().map(|v| v + 1))
                        .collect()
                };
                (deal::order_of(&self.rules, &[hand(0), hand(1)]), true)
            }
            None => (deal::random_deal(tools.sorted, rng), false),
        };
        Some(Drawn::of_build(order, found, built))
    }
}

/// What the construction saves: the pieces it knows.
#[derive(Serialize, Deserialize)]
struct Saved {
    pieces: Vec<String>,
}

/// The pieces known, each pattern once.
pub(super) struct Construct {
    known: Arc<Known>,
    patterns: HashSet<Piece>,
}

impl Construct {
    /// The construction from what [`plan`] made of the setting.
    pub(super) fn new(known: Arc<Known>) -> Construct {
        Construct {
            known,
            patterns: HashSet::new(),
        }
    }

    /// Learns the patterns of `pieces`, each not known yet.
    fn learn_pieces<'a>(&mut self, pieces: impl Iterator<Item = &'a Piece>) {
        let mut more = Vec::new();
        for p in pieces.map(Piece::pattern) {
            if self.patterns.len() < MOST_KNOWN && self.patterns.insert(p.clone()) {
                more.push(p);
            }
        }
        if !more.is_empty() {
            let known = &self.known;
            let pieces = known.pieces.iter().cloned().chain(more).collect();
            self.known = Arc::new(Known {
                pieces,
                rules: known.rules,
                counts: known.counts.clone(),
                sizes: known.sizes.clone(),
            });
        }
    }
}

impl Choose for Construct {
    fn tasks(&mut self, count: usize) -> Vec<Task> {
        (0..count)
            .map(|_| Task::plain(Base::Built(self.known.clone() as Arc<dyn Build>)))
            .collect()
    }

    fn learn(&mut self, _first: usize, _given: &[Option<Played>], played: &[Option<Played>]) {
        self.learn_pieces(played.iter().flatten().flat_map(|p| &p.pieces));
    }

    fn save(&self) -> serde_json::Value {
        let pieces = self.known.pieces.iter().map(Piece::text).collect();
        serde_json::to_value(Saved { pieces }).expect("pieces serialize")
    }

    fn restore(&mut self, saved: &serde_json::Value, _sorted: &[u8]) -> Result<(), Unlearned> {
        let saved: Saved = read(saved)?;
        let pieces = (saved.pieces.iter())
            .map(|t| Piece::parse(t).ok_or_else(|| Unlearned::Piece(t.clone())))
            .collect::<Result<Vec<_>, _>>()?;
        self.learn_pieces(pieces.iter());
        Ok(())
    }
}
