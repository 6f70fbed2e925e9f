//! `lex`: every distinct deal, numbered. Seed `k` is the `k`-th arrangement of the deck's values
//! in lexicographic order (suits ignored, a joker the top value); the `i`-th card of a value is
//! that value's `i`-th card in sorted order. Seed 0 is the values ascending, seed `M - 1`
//! descending, where `M = N! / (n1! ... nV!)`.
//!
//! A seed is computed directly by counting (`unrank`), and a run of seeds by stepping to the
//! next arrangement (`next_arrangement`), which costs a few comparisons on average.

use crate::rules::{Card, Deck};

/// Arranges one deck by seed, remembering the last arrangement to step from.
#[derive(Clone, Debug)]
pub struct Lex {
    /// How many cards each value has.
    counts: Vec<u32>,
    /// Value `v`'s cards in sorted order start at `first[v]` of `by_value`.
    first: Vec<usize>,
    by_value: Vec<Card>,
    /// The number of arrangements, if it fits in 64 bits (otherwise seeds wrap at 2^64, which
    /// callers refuse before playing).
    total: Option<u64>,
    /// The last seed arranged and its values.
    last: Option<u64>,
    values: Vec<u8>,
    /// Occurrences seen so far of each value, while building cards; room for `unrank`.
    seen: Vec<u32>,
}

impl Lex {
    pub fn new(deck: Deck) -> Lex {
        let counts: Vec<u32> = (0..deck.values).map(|v| deck.count_of(v)).collect();
        let mut first = Vec::with_capacity(counts.len());
        let mut by_value = Vec::with_capacity(deck.len());
        for (v, &n) in counts.iter().enumerate() {
            first.push(by_value.len());
            by_value.extend((0..n).map(|i| deck.card(v as u8, i)));
        }
        let total = deck
            .arrangements()
            .to_u128()
            .and_then(|m| u64::try_from(m).ok());
        Lex {
            seen: vec![0; counts.len()],
            counts,
            first,
            by_value,
            total,
            last: None,
            values: vec![0; deck.len()],
        }
    }

    /// Seed `seed`'s arrangement of values.
    pub fn values(&mut self, seed: u64) -> &[u8] {
        // Seeds past the last arrangement wrap (a division only then: it costs more than the
        // step to the next arrangement).
        let seed = match self.total {
            Some(m) if seed >= m => seed % m,
            _ => seed,
        };
        if self.last.and_then(|l| l.checked_add(1)) == Some(seed) {
            next_arrangement(&mut self.values);
        } else if self.last != Some(seed) {
            self.seen.copy_from_slice(&self.counts);
            unrank(&mut self.seen, seed, &mut self.values);
        }
        self.last = Some(seed);
        &self.values
    }

    /// Puts seed `seed`'s arrangement in `deck` (of the deck's size).
    pub fn arrange(&mut self, seed: u64, deck: &mut [Card]) {
        self.values(seed);
        self.seen.fill(0);
        for (card, &v) in deck.iter_mut().zip(&self.values) {
            let v = v as usize;
            *card = self.by_value[self.first[v] + self.seen[v] as usize];
            self.seen[v] += 1;
        }
    }
}

/// The `rank`-th arrangement (from 0, lexicographic) of a multiset with `left[v]` copies of
/// each value `v`, written to `out` (`left` is used up). A rank past the last wraps around.
pub fn unrank(left: &mut [u32], rank: u64, out: &mut [u8]) {
    let mut remaining: u32 = left.iter().sum();
    debug_assert_eq!(remaining as usize, out.len());
    // Arrangements of what is left; every intermediate fits in 128 bits because the total
    // (when rank can reach it) is below 2^64 and each step multiplies by at most 2^9.
    let mut total = arrangements(left);
    let mut k = rank as u128 % total.max(1);
    for slot in out.iter_mut() {
        for (v, count) in left.iter_mut().enumerate() {
            if *count == 0 {
                continue;
            }
            let with_v = total * *count as u128 / remaining as u128;
            if k < with_v {
                *slot = v as u8;
                *count -= 1;
                remaining -= 1;
                total = with_v;
                break;
            }
            k -= with_v;
        }
    }
}

/// `N! / (n1! ... nV!)`, saturating at `u128::MAX` (only small decks are unranked).
fn arrangements(counts: &[u32]) -> u128 {
    let mut m: u128 = 1;
    let mut placed = 0u128;
    for &n in counts {
        for i in 0..n as u128 {
            placed += 1;
            m = m.saturating_mul(placed) / (i + 1);
        }
    }
    m
}

/// Steps `values` to the next arrangement in lexicographic order; the last one wraps to the
/// first (ascending).
#[inline]
pub fn next_arrangement(values: &mut [u8]) {
    let n = values.len();
    // The rightmost ascent.
    let Some(i) = (0..n.saturating_sub(1))
        .rev()
        .find(|&i| values[i] < values[i + 1])
    else {
        values.reverse();
        return;
    };
    let j = (i + 1..n)
        .rev()
        .find(|&j| values[j] > values[i])
        .expect("an ascent has a larger value after it");
    values.swap(i, j);
    values[i + 1..].reverse();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values_of(deck: Deck, seed: u64) -> Vec<u8> {
        let mut out = deck.sorted();
        Lex::new(deck).arrange(seed, &mut out);
        out.iter().map(|c| c.value()).collect()
    }

    #[test]
    fn the_first_and_last_seeds_are_sorted_and_reversed() {
        let deck = Deck::parse("4x4").unwrap();
        let ascending: Vec<u8> = (0..4).flat_map(|v| [v; 4]).collect();
        assert_eq!(values_of(deck, 0), ascending);
        let mut descending = ascending.clone();
        descending.reverse();
        assert_eq!(values_of(deck, 63_063_000 - 1), descending);
        assert_eq!(values_of(deck, 63_063_000), ascending, "wraps");
    }

    #[test]
    fn stepping_equals_counting_and_every_arrangement_comes_once() {
        for text in ["2x3", "1x5", "3x2+1", "2x2+2"] {
            let deck = Deck::parse(text).unwrap();
            let m = deck.arrangements().to_u128().unwrap() as u64;
            let mut lex = Lex::new(deck);
            let mut seen = std::collections::HashSet::new();
            let mut previous: Option<Vec<u8>> = None;
            for seed in 0..m {
                let mut stepped = deck.sorted();
                lex.arrange(seed, &mut stepped);
                let values: Vec<u8> = stepped.iter().map(|c| c.value()).collect();
                assert_eq!(values, values_of(deck, seed), "{text} seed {seed}");
                if let Some(p) = previous {
                    assert!(
                        p < values,
                        "{text}: seed {seed} comes after seed {}",
                        seed - 1
                    );
                }
                assert!(seen.insert(values.clone()));
                previous = Some(values);
            }
            assert_eq!(seen.len() as u64, m);
        }
    }

    #[test]
    fn cards_keep_their_sorted_order_within_a_value() {
        let deck = Deck::parse("4x4").unwrap();
        let mut out = deck.sorted();
        Lex::new(deck).arrange(63_063_000 - 1, &mut out);
        let text: Vec<String> = out.iter().take(5).map(Card::to_string).collect();
        assert_eq!(text, ["AH", "AD", "AC", "AS", "KH"]);
    }

    #[test]
    fn jumps_equal_the_direct_count() {
        let deck = Deck::parse("4x4").unwrap();
        let mut lex = Lex::new(deck);
        for seed in [5, 6, 1_000_000, 7, 8, 31_531_500, 31_531_501] {
            let mut out = deck.sorted();
            lex.arrange(seed, &mut out);
            let direct: Vec<u8> = values_of(deck, seed);
            assert_eq!(out.iter().map(|c| c.value()).collect::<Vec<_>>(), direct);
        }
    }
}
