//! Deals as orders: a deal is the values of its cards in the order the rules deal them
//! (0-based), so that every change that keeps the deck's cards keeps a deal, and the engine
//! plays it on the setting's fast path ([`Engine::play_order`](crate::Engine)); its hands are
//! read off the order as the rules deal.

use super::{dealt_span, SplitMix64};
use crate::rules::Rules;

/// The sorted deck's values, in order: the cards every deal of `rules` holds.
pub(crate) fn sorted_values(rules: &Rules) -> Vec<u8> {
    rules.deck().cards().iter().map(|c| c.value()).collect()
}

/// How many cards of each value (from 0) the setting's deck holds.
pub(crate) fn value_counts(rules: &Rules) -> Vec<u8> {
    let sorted = sorted_values(rules);
    let mut counts = vec![0u8; sorted.iter().max().map_or(0, |&m| usize::from(m) + 1)];
    for &v in &sorted {
        counts[usize::from(v)] += 1;
    }
    counts
}

/// A deal drawn uniformly: the sorted values shuffled by `rng`.
pub(crate) fn random_deal(sorted: &[u8], rng: &mut SplitMix64) -> Vec<u8> {
    let mut order = sorted.to_vec();
    rng.shuffle(&mut order);
    order
}

/// Each player's hand of the deal `order`, top card first, values from 1 (as `play` reads
/// them and the record tables print them).
pub(crate) fn hands_of(rules: &Rules, order: &[u8]) -> Vec<Vec<u8>> {
    let players = rules.players();
    (0..players)
        .map(|p| {
            let (start, step, count) = dealt_span(order.len(), rules.deal(), players, p);
            (0..count).map(|i| order[start + i * step] + 1).collect()
        })
        .collect()
}

/// The deal whose hands (values from 1, top card first) are `hands`; the hands' sizes are the
/// deal's (the caller checked them, as a hunt does with its `check_hands`).
pub(crate) fn order_of(rules: &Rules, hands: &[Vec<u8>]) -> Vec<u8> {
    let n: usize = hands.iter().map(Vec::len).sum();
    let mut order = vec![0; n];
    for (p, hand) in hands.iter().enumerate() {
        let (start, step, _) = dealt_span(n, rules.deal(), rules.players(), p);
        for (i, &v) in hand.iter().enumerate() {
            order[start + i * step] = v - 1;
        }
    }
    order
}

/// A small change to a deal, drawn by `rng`: two cards of different values exchanged (half the
/// time), a run of cards reversed, or a run moved elsewhere. Every change keeps the deck's
/// cards, so the result is a deal.
pub(crate) fn mutate(order: &mut [u8], rng: &mut SplitMix64) {
    let n = order.len();
    if n < 2 {
        return;
    }
    match rng.below(4) {
        0 | 1 => {
            // Exchanging equal values changes nothing: look for a different one.
            let i = rng.below(n);
            for _ in 0..8 {
                let j = rng.below(n);
                if order[i] != order[j] {
                    order.swap(i, j);
                    return;
                }
            }
        }
        2 => {
            let (a, b) = (rng.below(n), rng.below(n));
            order[a.min(b)..=a.max(b)].reverse();
        }
        _ => {
            // A run of up to a quarter of the cards, rotated to the other end of a span.
            let len = 1 + rng.below((n / 4).max(1));
            let from = rng.below(n - len + 1);
            let to = rng.below(n - len + 1);
            if from < to {
                order[from..to + len].rotate_left(len);
            } else {
                order[to..from + len].rotate_right(len);
            }
        }
    }
}
