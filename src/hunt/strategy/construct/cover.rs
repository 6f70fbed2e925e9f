//! Covering a deck with pieces: pieces chosen among those known, their values renamed in order
//! to values the deck still has, until every card is in one. A renamed piece plays the same
//! rounds under the standard ranking; it is tested again all the same (the engine decides).

use super::piece::{never_fails, Piece};
use crate::deal::SplitMix64;
use crate::engine::Engine;

/// Pieces tried for one cover before it is given up.
const TRIES: usize = 64;

/// `pattern` (a piece whose values are `0, 1, ...`: [`Piece::pattern`]) with its values
/// renamed, in order, to values of which `left` still holds as many copies as it uses; the
/// least value left among them (every cover holds it in some piece, and there it is the
/// least). [`None`] where no such renaming is found.
fn renamed(pattern: &Piece, left: &[u8], rng: &mut SplitMix64) -> Option<Piece> {
    let levels = pattern.cards().max().map_or(0, |m| m as usize + 1);
    let mut needs = vec![0u8; levels];
    for v in pattern.cards() {
        needs[v as usize] += 1;
    }
    if levels > left.len() {
        return None;
    }
    let first = left.iter().position(|&n| n > 0)?;
    let mut to = Vec::with_capacity(levels);
    let mut at = first;
    for (level, &need) in needs.iter().enumerate() {
        if level == 0 {
            (left[first] >= need).then_some(())?;
            to.push(first as u8);
            continue;
        }
        // A value above the last with copies enough, leaving values for the levels after it.
        let room = left.len() - (levels - level - 1);
        let fits: Vec<usize> = (at + 1..room).filter(|&v| left[v] >= need).collect();
        at = *fits.get(rng.below(fits.len().max(1)))?;
        to.push(at as u8);
    }
    Some(Piece(
        (pattern.0.clone()).map(|h| h.iter().map(|&l| to[l as usize]).collect()),
    ))
}

/// Pieces that hold every card of the deck (`counts[v]`: its copies of value `v`), each a
/// renamed pattern of `known` that never fails, hands exchanged at random; or [`None`] where
/// [`TRIES`] tries do not end on a cover.
pub(crate) fn cover(
    known: &[&Piece],
    counts: &[u8],
    rng: &mut SplitMix64,
    engine: &mut Engine,
) -> Option<Vec<Piece>> {
    if known.is_empty() {
        return None;
    }
    let mut left = counts.to_vec();
    let mut chosen = Vec::new();
    for _ in 0..TRIES {
        if left.iter().all(|&n| n == 0) {
            return Some(chosen);
        }
        let piece = known[rng.below(known.len())];
        let Some(mut piece) = renamed(piece, &left, rng) else {
            continue;
        };
        if rng.below(2) == 1 {
            piece.0.swap(0, 1);
        }
        if !never_fails(engine, &piece) {
            continue;
        }
        for v in piece.cards() {
            left[v as usize] -= 1;
        }
        chosen.push(piece);
    }
    left.iter().all(|&n| n == 0).then_some(chosen)
}
