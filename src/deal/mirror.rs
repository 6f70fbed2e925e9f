//! Mirror deals (`docs/rules.md`): in a symmetric setting the deal whose hands are `(A, B)` and the
//! deal whose hands are `(B, A)` play the same game with the players swapped. A `lex` walk plays
//! one deal of each pair whose two deals both lie in its range, the lesser, and counts the other
//! with it; a deal whose mirror lies outside the range is played on its own, so that ranges and
//! shards still add up exactly.
//!
//! Which deal is a deal's mirror is the deal's own rule ([`dealt_span`]): the places of player 1's
//! cards and player 2's are exchanged. Deals of a `lex` walk compare as their seeds do, value by
//! value from the first card.

use crate::deal::lex::Lex;
use crate::deal::seeds::Seeds;
use crate::deal::{dealt_span, Shuffle};
use crate::rules::Rules;
use std::cmp::Ordering;

/// How a deal of a mirror walk counts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Weight {
    /// Its mirror, a lesser deal of the range, counts it.
    Skip,
    /// Played and counted alone: it is its own mirror, or its mirror is outside the range.
    Once,
    /// Played and counted with its mirror, a greater deal of the range.
    Twice,
}

/// The mirror deals of one `lex` walk: a setting and its range.
#[derive(Clone, Debug)]
pub struct Mirror {
    /// Where player 1's cards lie in a deal ([`dealt_span`]: first place and step), and player
    /// 2's; both have `count` cards.
    spans: [(usize, usize); 2],
    count: usize,
    /// Dealt in two blocks, player 1's `count` cards then player 2's: the mirror is the deal's
    /// halves exchanged, weighed without being written out.
    halves: bool,
    /// The range's first deal and the deal just past it ([`None`]: past the last deal); [`None`]
    /// when the range holds every deal, so every mirror is in it.
    bounds: Option<(Vec<u8>, Option<Vec<u8>>)>,
    /// The same in the one-word form (`weigh_word`), when the deck has one.
    word_bounds: Option<(u64, Option<u64>)>,
    /// The exchange in the one-word form, value `k` in nibble `k`.
    word_swap: WordSwap,
}

/// The exchange of the two hands' places in a deal held as one word, a nibble a card.
#[derive(Clone, Copy, Debug)]
enum WordSwap {
    /// Dealt in two blocks: the halves change places (`bits` per half, `deck` the deck's
    /// nibbles).
    Halves { bits: u32, deck: u64 },
    /// Dealt one card at a time: each card changes places with its neighbour.
    Neighbours { deck: u64 },
}

/// Cards a one-word deal holds, a nibble each.
const WORD_CARDS: usize = 16;

impl Mirror {
    /// The mirror deals of a walk of `seeds` under `rules` with `shuffle`, if the setting is
    /// symmetric and the shuffle `lex` (the only shuffle whose seeds are deals).
    pub fn of(rules: &Rules, shuffle: Shuffle, seeds: Seeds) -> Option<Mirror> {
        if shuffle != Shuffle::Lex || !rules.symmetric() {
            return None;
        }
        let deck = rules.deck();
        let n = deck.size();
        let span = |p| dealt_span(n, rules.deal(), 2, p);
        let [(s0, step0, count), (s1, step1, count1)] = [span(0), span(1)];
        assert_eq!(
            count, count1,
            "a symmetric deal gives both players as many cards"
        );
        let deals = deck.arrangements().to_u128()?;
        let mut lex = Lex::new(deck);
        let whole = seeds.start() == 0 && seeds.end() >= deals;
        let bounds = (!whole).then(|| {
            let first = lex.values(seeds.start()).to_vec();
            let past = (seeds.end() < deals).then(|| lex.values(seeds.end() as u64).to_vec());
            (first, past)
        });
        let deck_bits = if n >= WORD_CARDS {
            u64::MAX
        } else {
            (1u64 << (4 * n)) - 1
        };
        let word_swap = if step0 == 1 {
            WordSwap::Halves {
                bits: 4 * count as u32,
                deck: deck_bits,
            }
        } else {
            WordSwap::Neighbours { deck: deck_bits }
        };
        let fits = n <= WORD_CARDS && deck.values() <= 16;
        let word_bounds = match &bounds {
            Some((first, past)) if fits => Some((word(first), past.as_deref().map(word))),
            _ => None,
        };
        Some(Mirror {
            spans: [(s0, step0), (s1, step1)],
            count,
            halves: (s0, step0, s1, step1) == (0, 1, count, 1) && n == 2 * count,
            bounds,
            word_bounds,
            word_swap,
        })
    }

    /// Writes the mirror of the deal `values` to `out`.
    pub fn mirrored(&self, values: &[u8], out: &mut [u8]) {
        out.copy_from_slice(values);
        let [(s0, step0), (s1, step1)] = self.spans;
        for k in 0..self.count {
            out.swap(s0 + k * step0, s1 + k * step1);
        }
    }

    /// How the deal `values` counts; `scratch` has room for a deal.
    #[inline(always)]
    pub fn weigh(&self, values: &[u8], scratch: &mut [u8]) -> Weight {
        if self.halves {
            fn split(deal: &[u8], at: usize) -> [&[u8]; 2] {
                let (first, second) = deal.split_at(at);
                [first, second]
            }
            let half = |deal| split(deal, self.count);
            let bounds = self
                .bounds()
                .map(|(first, past)| (half(first), past.map(half)));
            return self.weigh_halves(half(values), bounds, <[u8] as Ord>::cmp);
        }
        self.mirrored(values, scratch);
        let mirror: &[u8] = scratch;
        weight(values.cmp(mirror), || {
            in_range(self.bounds(), |bound| mirror.cmp(bound))
        })
    }

    /// Whether the deal is dealt in two blocks, player 1's cards then player 2's: its mirror
    /// is its halves exchanged ([`Mirror::weigh_halves`]).
    pub fn halves(&self) -> bool {
        self.halves
    }

    /// The range's first deal and the deal just past it ([`None`]: past the last deal);
    /// [`None`] when the range holds every deal.
    pub fn bounds(&self) -> Option<(&[u8], Option<&[u8]>)> {
        let (first, past) = self.bounds.as_ref()?;
        Some((first, past.as_deref()))
    }

    /// `weigh` for a deal dealt in two blocks ([`Mirror::halves`]), given as its hands `[a, b]`
    /// in any form that `cmp` compares as their values compare, from the top card; the
    /// range's bounds ([`Mirror::bounds`]) split into hands the same way.
    #[inline(always)]
    pub fn weigh_halves<H: Copy>(
        &self,
        [a, b]: [H; 2],
        bounds: Option<([H; 2], Option<[H; 2]>)>,
        cmp: impl Fn(H, H) -> Ordering,
    ) -> Weight {
        debug_assert!(self.halves, "a deal dealt in two blocks");
        // The deal (A, B) against its mirror (B, A): as A against B. The mirror against a
        // bound: B against the bound's first half, then A against its second.
        weight(cmp(a, b), || {
            in_range(bounds, |[first, second]| {
                cmp(b, first).then_with(|| cmp(a, second))
            })
        })
    }

    /// `weigh` for a deal held as one word, value `k` in nibble `k` ([`Lex::walk_nibbles`]).
    #[inline(always)]
    pub fn weigh_word(&self, x: u64) -> Weight {
        let mirror = match self.word_swap {
            WordSwap::Halves { bits, deck } => (x >> bits | x << bits) & deck,
            WordSwap::Neighbours { deck } => {
                const LOW: u64 = 0x0F0F_0F0F_0F0F_0F0F;
                ((x >> 4 & LOW) | (x & LOW) << 4) & deck
            }
        };
        weight(compare_words(x, mirror), || {
            in_range(self.word_bounds, |bound| compare_words(mirror, bound))
        })
    }

    /// Whether `weigh_word` can weigh this walk's deals (decks of at most 16 cards of at most
    /// 16 values; the whole range, or bounds held as words).
    pub fn weighs_words(&self) -> bool {
        self.bounds.is_none() || self.word_bounds.is_some()
    }
}

/// Whether a deal's mirror lies in the range whose first deal and the deal just past it are
/// `bounds` ([`None`]: every deal), from how the mirror compares with each (`mirror_to`).
#[inline(always)]
fn in_range<B>(bounds: Option<(B, Option<B>)>, mirror_to: impl Fn(B) -> Ordering) -> bool {
    match bounds {
        None => true,
        Some((first, past)) => {
            mirror_to(first) != Ordering::Less
                && past.is_none_or(|p| mirror_to(p) == Ordering::Less)
        }
    }
}

/// How a deal counts, from how it compares with its mirror and whether its mirror is in range.
#[inline(always)]
fn weight(deal_to_mirror: Ordering, mirror_in_range: impl FnOnce() -> bool) -> Weight {
    match deal_to_mirror {
        Ordering::Equal => Weight::Once,
        _ if !mirror_in_range() => Weight::Once,
        Ordering::Less => Weight::Twice,
        Ordering::Greater => Weight::Skip,
    }
}

/// A deal as one word, value `k` in nibble `k`.
fn word(values: &[u8]) -> u64 {
    values.iter().rev().fold(0, |x, &v| x << 4 | u64::from(v))
}

/// Two one-word deals compared value by value from the first card (nibble 0).
#[inline(always)]
fn compare_words(a: u64, b: u64) -> Ordering {
    let differ = a ^ b;
    if differ == 0 {
        return Ordering::Equal;
    }
    let at = differ.trailing_zeros() & !3;
    (a >> at & 0xF).cmp(&(b >> at & 0xF))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Deal, Preset, Settings};

    fn bataille(deck: &str, deal: Deal) -> Rules {
        let knobs = Settings::new(Preset::Bataille)
            .deck(crate::rules::Deck::parse(deck).unwrap())
            .deal(deal);
        knobs.build().unwrap()
    }

    /// Every deal's weight, by bytes and by word, equals the definition: the mirror's seed,
    /// found by counting, compared with the deal's and with the range.
    #[test]
    fn weights_follow_the_mirror_seed_in_both_forms() {
        let mut checked = 0;
        for deal in [Deal::Blocks, Deal::RoundRobin] {
            let rules = bataille("2x4", deal);
            let deals = 2520u64;
            for (start, end) in [(0, deals), (100, 2000), (0, 1260), (1500, deals)] {
                let seeds = Seeds::new(start, end.into()).unwrap();
                let mirror = Mirror::of(&rules, Shuffle::Lex, seeds).unwrap();
                assert!(mirror.weighs_words());
                let mut lex = Lex::new(rules.deck());
                let mut scratch = vec![0; 8];
                for seed in start..end {
                    let values = lex.values(seed).to_vec();
                    mirror.mirrored(&values, &mut scratch);
                    let m = lex.seed_of(&scratch);
                    let expected = if m == seed || !(start..end).contains(&m) {
                        Weight::Once
                    } else if seed < m {
                        Weight::Twice
                    } else {
                        Weight::Skip
                    };
                    assert_eq!(mirror.weigh(&values, &mut scratch), expected);
                    assert_eq!(mirror.weigh_word(word(&values)), expected);
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 2 * (2520 + 1900 + 1260 + 1020));
    }

    #[test]
    fn only_symmetric_lex_walks_have_mirrors() {
        let all = Seeds::new(0, 100).unwrap();
        assert!(Mirror::of(&bataille("4x4", Deal::Blocks), Shuffle::Lex, all).is_some());
        assert!(Mirror::of(&bataille("4x4", Deal::Blocks), Shuffle::Lcg, all).is_none());
        assert!(Mirror::of(&bataille("3x5", Deal::Blocks), Shuffle::Lex, all).is_none());
        let shortened = Rules::preset(Preset::Shortened);
        assert!(Mirror::of(&shortened, Shuffle::Lex, all).is_none());
    }
}
