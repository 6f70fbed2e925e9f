//! `lex`: every distinct deal, numbered. Seed `k` is the `k`-th arrangement of the deck's values
//! in lexicographic order (suits ignored, a joker the top value); the `i`-th card of a value is
//! that value's `i`-th card in sorted order. Seed 0 is the values ascending, seed `M - 1`
//! descending, where `M = N! / (n1! ... nV!)`.
//!
//! A seed is computed directly by counting (`unrank`), and a run of seeds by stepping to the
//! next arrangement ([`next_arrangement`]), which costs a few comparisons on average.

use crate::rules::{Card, Deck};
use std::ops::Range;

/// Arranges one deck by seed, remembering the last arrangement to step from.
#[derive(Clone, Debug)]
pub struct Lex {
    /// How many cards each value has.
    counts: Vec<u32>,
    /// Value `v`'s cards in sorted order start at `first[v]` of `by_value`.
    first: Vec<usize>,
    by_value: Vec<Card>,
    /// The number of arrangements ([`Deck::arrangements`], saturating at [`u128::MAX`]).
    all: u128,
    /// The same, if it fits in 64 bits (otherwise seeds wrap at 2^64, which callers refuse
    /// before playing).
    total: Option<u64>,
    /// The last seed arranged and its values.
    last: Option<u64>,
    values: Vec<u8>,
    /// Occurrences seen so far of each value, while building cards; room for `unrank`.
    seen: Vec<u32>,
}

impl Lex {
    /// The numbering of `deck`'s distinct deals.
    pub fn new(deck: Deck) -> Lex {
        let counts: Vec<u32> = (0..deck.values()).map(|v| deck.count_of(v)).collect();
        let mut first = Vec::with_capacity(counts.len());
        let mut by_value = Vec::with_capacity(deck.size());
        for (v, &n) in counts.iter().enumerate() {
            first.push(by_value.len());
            by_value.extend((0..n).map(|i| deck.card(v as u8, i)));
        }
        let all = deck.arrangements().to_u128().unwrap_or(u128::MAX);
        let total = u64::try_from(all).ok();
        Lex {
            seen: vec![0; counts.len()],
            counts,
            first,
            by_value,
            all,
            total,
            last: None,
            values: vec![0; deck.size()],
        }
    }

    /// How many arrangements the deck has, if they fit in 64 bits.
    pub fn deals(&self) -> Option<u64> {
        self.total
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
            unrank(&mut self.seen, self.all, seed, &mut self.values);
        }
        self.last = Some(seed);
        &self.values
    }

    /// The arrangements of `seeds` in turn, handed to `each`: the first computed as `values`
    /// does, every next one stepped to in place (a run of seeds is the walk's common case).
    #[inline(always)]
    pub fn walk(&mut self, seeds: Range<u64>, mut each: impl FnMut(u64, &[u8])) {
        let n = self.values.len();
        if (1..=Bytes::CARDS).contains(&n) {
            // A byte per card in one word.
            return self.walk_in::<Bytes>(seeds, |seed, word| {
                each(seed, &word.x.to_le_bytes()[..n]);
            });
        }
        if seeds.is_empty() {
            return;
        }
        each(seeds.start, self.values(seeds.start));
        for seed in seeds.start + 1..seeds.end {
            next_arrangement(&mut self.values);
            each(seed, &self.values);
        }
        self.walked_to(seeds.end - 1);
    }

    /// The seed of the arrangement `values` (`values`' inverse).
    pub fn seed_of(&mut self, values: &[u8]) -> u64 {
        self.seen.copy_from_slice(&self.counts);
        rank(&mut self.seen, self.all, values)
    }

    /// Whether `walk_nibbles` can step this deck: at most 16 cards, every value below 8.
    pub fn fits_nibbles(&self) -> bool {
        self.values.len() <= Nibbles::CARDS && self.counts.len() <= 8
    }

    /// `walk`, each arrangement handed out as one word, value `k` in nibble `k` (the form
    /// `packed` plays). The deck `fits_nibbles`.
    #[inline(always)]
    pub fn walk_nibbles(&mut self, seeds: Range<u64>, mut each: impl FnMut(u64, u64)) {
        assert!(
            self.fits_nibbles(),
            "a deck of values below 8, at most 16 cards"
        );
        self.walk_in::<Nibbles>(seeds, |seed, word| each(seed, word.x));
    }

    /// `walk` on arrangements held in one word.
    #[inline(always)]
    fn walk_in<A: Lanes>(&mut self, seeds: Range<u64>, mut each: impl FnMut(u64, A)) {
        if seeds.is_empty() {
            return;
        }
        let mut word = A::of_values(self.values(seeds.start));
        each(seeds.start, word);
        for seed in seeds.start + 1..seeds.end {
            word = word.next();
            each(seed, word);
        }
        word.write_values(&mut self.values);
        self.walked_to(seeds.end - 1);
    }

    /// Keeps `seed` as the last seed arranged, as `values` keeps it (wrapped past the last
    /// arrangement).
    fn walked_to(&mut self, seed: u64) {
        self.last = Some(self.total.map_or(seed, |m| seed % m));
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
/// each value `v`, which has `all` arrangements, written to `out` (`left` is used up). A rank
/// past the last wraps around.
pub fn unrank(left: &mut [u32], all: u128, rank: u64, out: &mut [u8]) {
    let mut remaining: u32 = left.iter().sum();
    debug_assert_eq!(remaining as usize, out.len());
    // Arrangements of what is left; every intermediate fits in 128 bits because the total
    // (when rank can reach it) is below 2^64 and each step multiplies by at most 2^9.
    let mut total = all;
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

/// The rank (lexicographic, from 0) of the arrangement `values` of a multiset with `left[v]`
/// copies of each value `v`, which has `all` arrangements: `unrank`'s inverse (`left` is used
/// up).
pub fn rank(left: &mut [u32], all: u128, values: &[u8]) -> u64 {
    let mut remaining: u32 = left.iter().sum();
    debug_assert_eq!(remaining as usize, values.len());
    let mut total = all;
    let mut k: u128 = 0;
    for &value in values {
        let value = value as usize;
        for count in &left[..value] {
            k += total * *count as u128 / remaining as u128;
        }
        total = total * left[value] as u128 / remaining as u128;
        left[value] -= 1;
        remaining -= 1;
    }
    u64::try_from(k).expect("a rank below the deal count, which fits in 64 bits")
}

/// Steps `values` to the next arrangement in lexicographic order; the last one wraps to the
/// first (ascending).
#[inline(always)]
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

/// An arrangement held in one word, stepped in place.
trait Lanes: Copy {
    fn of_values(values: &[u8]) -> Self;
    /// The word, widened.
    #[cfg(test)]
    fn x(self) -> u128;
    fn write_values(self, values: &mut [u8]);
    fn next(self) -> Self;
}

/// An arrangement in one word: value `k` in lane `k`, the lanes past the deck zero, each
/// value below the lane's high bit. `next` finds every part of the step at once: the loops of
/// [`next_arrangement`] end after a number of steps that changes from one arrangement to the
/// next, and their exits are mispredicted about once a deal.
macro_rules! lanes {
    ($(#[$doc:meta])* $name:ident, $word:ty, $bits:literal, $reverse:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name {
            /// The cards, packed.
            pub x: $word,
            /// Ones in the lanes of the deck.
            deck: $word,
            /// Bits past the deck's cards.
            spare: u32,
        }

        impl Lanes for $name {
            fn of_values(values: &[u8]) -> $name {
                let x = values
                    .iter()
                    .rev()
                    .fold(0, |x: $word, &v| x << $bits | <$word>::from(v));
                $name::of(x, values.len())
            }

            #[cfg(test)]
            fn x(self) -> u128 {
                self.x.into()
            }

            fn write_values(self, values: &mut [u8]) {
                for (k, v) in values.iter_mut().enumerate() {
                    *v = (self.x >> ($bits * k) & ((1 << $bits) - 1)) as u8;
                }
            }

            #[inline(always)]
            fn next(self) -> $name {
                $name::next(self)
            }
        }

        impl $name {
            /// How many cards a word holds.
            pub const CARDS: usize = <$word>::BITS as usize / $bits;
            /// A one in each lane, and each lane's high bit.
            const ONES: $word = <$word>::MAX / ((1 << $bits) - 1);
            const HIGHS: $word = Self::ONES << ($bits - 1);

            fn of(x: $word, cards: usize) -> $name {
                let spare = $bits * (Self::CARDS - cards) as u32;
                $name {
                    x,
                    deck: <$word>::MAX.checked_shr(spare).unwrap_or(0),
                    spare,
                }
            }

            /// The lanes `from..` of the deck, reversed.
            #[inline(always)]
            fn reversed_from(self, from: u32) -> $word {
                let reverse: fn($word) -> $word = $reverse;
                (reverse(self.x) >> self.spare << ($bits * from)) & self.deck
            }

            /// The next arrangement, as [`next_arrangement`] steps to it.
            #[inline(always)]
            fn next(self) -> $name {
                let (x, ones, highs) = (self.x, Self::ONES, Self::HIGHS);
                // Each lane's high bit: whether the next lane holds more (a value below the
                // high bit, less another, less one, borrows within its lane exactly when it
                // is not more). Past the deck, 0.
                let ascents = (((x >> $bits) | highs) - x - ones) & highs;
                if ascents == 0 {
                    // The last arrangement: the first follows it.
                    return $name {
                        x: self.reversed_from(0),
                        ..self
                    };
                }
                let i = ascents.ilog2() / $bits;
                let low = (1 << ($bits * i + $bits)) - 1;
                let vi = x >> ($bits * i) & ((1 << $bits) - 1);
                // The rightmost lane past i holding more than lane i.
                let larger = ((x | highs) - vi * ones - ones) & highs & !low;
                let j = larger.ilog2() / $bits;
                let vj = x >> ($bits * j) & ((1 << $bits) - 1);
                let swapped = $name {
                    x: x ^ (vi ^ vj) << ($bits * i) ^ (vi ^ vj) << ($bits * j),
                    ..self
                };
                $name {
                    x: swapped.x & low | swapped.reversed_from(i + 1),
                    ..self
                }
            }
        }
    };
}

lanes!(
    /// Up to 16 values below 128, a byte each.
    Bytes,
    u128,
    8,
    u128::swap_bytes
);

lanes!(
    /// Up to 16 values below 8, a nibble each: the form `packed` plays, stepped in one
    /// machine word.
    Nibbles,
    u64,
    4,
    |x| {
        let x = x.swap_bytes();
        (x >> 4 & 0x0F0F_0F0F_0F0F_0F0F) | (x & 0x0F0F_0F0F_0F0F_0F0F) << 4
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    fn values_of(deck: Deck, seed: u64) -> Vec<u8> {
        let mut out = deck.cards();
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
                let mut stepped = deck.cards();
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

    /// The one-word steps equal [`next_arrangement`], wrap included, on every arrangement of
    /// small decks and on long runs of the 4x4 and 1x16 decks, and the walks hand out what
    /// `values` computes.
    #[test]
    fn stepping_in_one_word_equals_stepping_in_bytes() {
        fn check_run<A: Lanes>(text: &str, from: u64, steps: u64) {
            let deck = Deck::parse(text).unwrap();
            let mut values = Lex::new(deck).values(from).to_vec();
            let mut word = A::of_values(&values);
            let mut out = values.clone();
            for step in 1..=steps {
                next_arrangement(&mut values);
                word = word.next();
                word.write_values(&mut out);
                assert_eq!(out, values, "{text}: seed {from} + {step}");
                assert_eq!(A::of_values(&values).x(), word.x(), "{text}: past the deck");
            }
        }
        for text in ["2x3", "1x5", "3x2+1", "2x2+2", "1x2"] {
            let m = Deck::parse(text).unwrap().arrangements().to_u128().unwrap() as u64;
            check_run::<Bytes>(text, 0, 2 * m + 1);
            check_run::<Nibbles>(text, 0, 2 * m + 1);
        }
        for lanes in [check_run::<Bytes>, check_run::<Nibbles>] {
            lanes("4x4", 0, 200_000);
            lanes("4x4", 63_063_000 - 100_000, 200_000);
            lanes("2x8", 1_000_000_007, 100_000);
        }
        check_run::<Bytes>("1x16", 1_000_000_007, 100_000);
        let deck = Deck::parse("4x4").unwrap();
        let (mut walked, mut nibbles, mut counted) =
            (Lex::new(deck), Lex::new(deck), Lex::new(deck));
        let seeds = 63_063_000 - 1_000..63_063_000 + 1_000;
        let mut seen = 0;
        walked.walk(seeds.clone(), |seed, values| {
            assert_eq!(values, counted.values(seed), "seed {seed}");
            seen += 1;
        });
        nibbles.walk_nibbles(seeds, |seed, word| {
            let word = Nibbles::of(word, 16);
            let mut values = [0; 16];
            word.write_values(&mut values);
            assert_eq!(&values[..], counted.values(seed), "seed {seed}");
        });
        assert_eq!(seen, 2_000);
        assert_eq!(walked.values(63_063_000 + 1_000), counted.values(1_000));
        assert_eq!(nibbles.values(63_063_000 + 1_000), counted.values(1_000));
        assert!(!Lex::new(Deck::parse("1x10").unwrap()).fits_nibbles());
        assert!(!Lex::new(Deck::parse("4x5").unwrap()).fits_nibbles());
    }

    #[test]
    fn cards_keep_their_sorted_order_within_a_value() {
        let deck = Deck::parse("4x4").unwrap();
        let mut out = deck.cards();
        Lex::new(deck).arrange(63_063_000 - 1, &mut out);
        let text: Vec<String> = out.iter().take(5).map(Card::to_string).collect();
        assert_eq!(text, ["AH", "AD", "AC", "AS", "KH"]);
    }

    #[test]
    fn jumps_equal_the_direct_count() {
        let deck = Deck::parse("4x4").unwrap();
        let mut lex = Lex::new(deck);
        for seed in [5, 6, 1_000_000, 7, 8, 31_531_500, 31_531_501] {
            let mut out = deck.cards();
            lex.arrange(seed, &mut out);
            let direct: Vec<u8> = values_of(deck, seed);
            assert_eq!(out.iter().map(|c| c.value()).collect::<Vec<_>>(), direct);
        }
    }

    #[test]
    fn rank_inverts_unrank() {
        let mut checked = 0;
        for (text, seeds) in [
            ("4x4", [0, 1, 2, 8_550_538, 31_531_500, 63_062_999]),
            ("1x10", [0, 9, 100, 3_628_799, 1_000_000, 77]),
            ("3x5", [0, 1, 5, 168_168_000 - 1, 1234, 99_999_999]),
        ] {
            let deck = Deck::parse(text).unwrap();
            let mut lex = Lex::new(deck);
            for seed in seeds {
                let values = lex.values(seed).to_vec();
                assert_eq!(lex.seed_of(&values), seed, "{text} seed {seed}");
                checked += 1;
            }
        }
        assert_eq!(checked, 18);
    }
}
