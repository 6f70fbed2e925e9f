//! Hands packed into machine words: a few bits a card (four, or three in [`Tri`]), the top
//! card lowest.

use crate::deal::dealt_span;
use crate::rules::Deal;
use crate::rules::Rules;
use std::cmp::Ordering;
use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr, Sub};

/// A word holding a hand, [`Word::CARD_BITS`] bits a card, each value stored plus one so that
/// an empty place reads 0.
pub(crate) trait Word:
    Copy
    + Ord
    + Default
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitOr<Output = Self>
    + BitAnd<Output = Self>
    + BitXor<Output = Self>
    + Sub<Output = Self>
    + Not<Output = Self>
{
    /// Bits a card takes.
    const CARD_BITS: u32;
    /// Cards a word holds.
    const CARDS: usize;
    /// Most values a deck played in this word may have (stored plus one, in `CARD_BITS`).
    const VALUES: usize = (1 << Self::CARD_BITS) - 1;
    const ZERO: Self;
    const ONE: Self;
    /// The bits of one card, the top one.
    const CARD: Self;
    /// The bits of two cards, the top two.
    const TWO_CARDS: Self;
    fn of(card: u8) -> Self;
    /// The card at place `i` (0 = top), plus one; 0 past the hand's end.
    fn card(self, i: u32) -> u8;
    /// All ones if `yes`, else zero.
    fn all_if(yes: bool) -> Self;
    fn trailing_zeros(self) -> u32;
    fn of32(x: u32) -> Self;
    fn of64(x: u64) -> Self;
    /// The word, widened (the key of [`KnownCycles`](crate::engine::packed::known::KnownCycles)).
    fn wide(self) -> u128;
    /// The first `count` cards in the reverse order; 0 past them.
    fn reverse_cards(self, count: u32) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const CARD_BITS: u32 = 4;
            const CARDS: usize = <$t>::BITS as usize / 4;
            const ZERO: $t = 0;
            const ONE: $t = 1;
            const CARD: $t = 0xF;
            const TWO_CARDS: $t = 0xFF;
            #[inline(always)]
            fn of(card: u8) -> $t {
                card as $t
            }
            #[inline(always)]
            fn card(self, i: u32) -> u8 {
                (self >> (4 * i)) as u8 & 15
            }
            #[inline(always)]
            fn of32(x: u32) -> $t {
                x as $t
            }
            #[inline(always)]
            fn of64(x: u64) -> $t {
                x as $t
            }
            #[inline(always)]
            fn wide(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn all_if(yes: bool) -> $t {
                (yes as $t).wrapping_neg()
            }
            #[inline(always)]
            fn reverse_cards(self, count: u32) -> $t {
                if count == 0 {
                    return 0;
                }
                // The bytes reversed, then the two nibbles of each byte.
                let low = <$t>::MAX / 0xFF * 0x0F;
                let x = self.swap_bytes();
                let x = (x >> 4) & low | (x & low) << 4;
                x >> (<$t>::BITS - 4 * count)
            }
        }
    };
}
word!(u64);
word!(u128);

/// Hands of at most 21 cards in all, of at most 7 values, in one 64-bit word, three bits a
/// card: the decks past 16 cards that would otherwise take a 128-bit word (4x5, 5x4, 3x7),
/// whose shifts and comparisons cost two or three instructions each.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Debug)]
pub(crate) struct Tri(u64);

macro_rules! tri_op {
    ($trait:ident, $f:ident, $op:tt) => {
        impl $trait for Tri {
            type Output = Tri;
            #[inline(always)]
            fn $f(self, other: Tri) -> Tri {
                Tri(self.0 $op other.0)
            }
        }
    };
}
tri_op!(BitOr, bitor, |);
tri_op!(BitAnd, bitand, &);
tri_op!(BitXor, bitxor, ^);
tri_op!(Sub, sub, -);

impl Shl<u32> for Tri {
    type Output = Tri;
    #[inline(always)]
    fn shl(self, by: u32) -> Tri {
        Tri(self.0 << by)
    }
}

impl Shr<u32> for Tri {
    type Output = Tri;
    #[inline(always)]
    fn shr(self, by: u32) -> Tri {
        Tri(self.0 >> by)
    }
}

impl Not for Tri {
    type Output = Tri;
    #[inline(always)]
    fn not(self) -> Tri {
        Tri(!self.0)
    }
}

impl Word for Tri {
    const CARD_BITS: u32 = 3;
    const CARDS: usize = 64 / 3;
    const ZERO: Tri = Tri(0);
    const ONE: Tri = Tri(1);
    const CARD: Tri = Tri(0o7);
    const TWO_CARDS: Tri = Tri(0o77);
    #[inline(always)]
    fn of(card: u8) -> Tri {
        Tri(u64::from(card))
    }
    #[inline(always)]
    fn card(self, i: u32) -> u8 {
        (self.0 >> (3 * i)) as u8 & 7
    }
    #[inline(always)]
    fn of32(x: u32) -> Tri {
        Tri(u64::from(x))
    }
    #[inline(always)]
    fn of64(x: u64) -> Tri {
        Tri(x)
    }
    #[inline(always)]
    fn wide(self) -> u128 {
        u128::from(self.0)
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        self.0.trailing_zeros()
    }
    #[inline(always)]
    fn all_if(yes: bool) -> Tri {
        Tri(u64::from(yes).wrapping_neg())
    }
    /// A card at a time: only a war gathered latest first reverses, and few cards.
    #[inline(always)]
    fn reverse_cards(self, count: u32) -> Tri {
        let mut reversed = 0;
        for i in 0..count {
            reversed = reversed << 3 | (self.0 >> (3 * i) & 7);
        }
        Tri(reversed)
    }
}

/// Two hands of as many cards compared as their values compare, from the top card: at the
/// first card where they differ.
#[inline(always)]
pub(super) fn compare_cards<W: Word>(x: W, y: W) -> Ordering {
    let differ = x ^ y;
    if differ == W::ZERO {
        return Ordering::Equal;
    }
    let at = differ.trailing_zeros() / W::CARD_BITS;
    x.card(at).cmp(&y.card(at))
}

/// Where each hand lies in a deck of bare values, and how to pack it.
#[derive(Clone, Copy)]
pub(super) struct Packer {
    pub(super) spans: [(usize, usize, usize); 2],
    /// Dealt in blocks: each hand is consecutive values, packed eight at a time.
    pub(super) blocks: bool,
}

impl Packer {
    pub(super) fn new(rules: &Rules, cards: usize) -> Packer {
        Packer {
            spans: [0, 1].map(|p| dealt_span(cards, rules.deal(), 2, p)),
            blocks: rules.deal() == Deal::Blocks,
        }
    }

    #[inline(always)]
    pub(super) fn hands<W: Word>(self, deck: &[u8]) -> [(W, u32); 2] {
        [self.hand(deck, 0), self.hand(deck, 1)]
    }

    #[inline(always)]
    pub(super) fn hand<W: Word>(self, deck: &[u8], p: usize) -> (W, u32) {
        let span @ (start, _, count) = self.spans[p];
        if self.blocks {
            pack_bytes::<W>(&deck[start..start + count])
        } else {
            pack_span::<W, u8>(deck, span, |v| v)
        }
    }
}

/// Consecutive values into a word, the first on top; and how many. Eight at a time: each byte
/// gets its one added, then the bytes are squeezed into cards by halving their spacing three
/// times.
#[inline(always)]
pub(super) fn pack_bytes<W: Word>(values: &[u8]) -> (W, u32) {
    // The research decks' hands: 8 cards (4x4), 16 (4x8), no loop.
    if let Ok(&bytes) = <&[u8; 8]>::try_from(values) {
        return (W::of32(squeeze::<W>(bytes)), 8);
    }
    let eight = 8 * W::CARD_BITS;
    if let Ok(bytes) = <&[u8; 16]>::try_from(values) {
        let (low, high) = bytes.split_at(8);
        let word = W::of32(squeeze::<W>(low.try_into().expect("8 bytes")))
            | W::of32(squeeze::<W>(high.try_into().expect("8 bytes"))) << eight;
        return (word, 16);
    }
    let mut word = W::ZERO;
    let mut at = 0;
    let mut chunks = values.chunks_exact(8);
    for chunk in &mut chunks {
        word = word | W::of32(squeeze::<W>(chunk.try_into().expect("chunks of eight"))) << at;
        at += eight;
    }
    for &v in chunks.remainder() {
        word = word | W::of(v + 1) << at;
        at += W::CARD_BITS;
    }
    (word, values.len() as u32)
}

/// Eight values (each below `W::VALUES`), each plus one, as eight cards of `W`, the first
/// lowest.
#[inline(always)]
pub(super) fn squeeze<W: Word>(bytes: [u8; 8]) -> u32 {
    // Cards a byte apart: join them in pairs, then fours, then all eight, `b` bits a card.
    let gap = 8 - W::CARD_BITS;
    let b = W::CARD_BITS;
    let mut x = u64::from_le_bytes(bytes) + 0x0101_0101_0101_0101;
    x = (x | x >> gap) & (0x0001_0001_0001_0001 * ((1 << (2 * b)) - 1));
    x = (x | x >> (2 * gap)) & (0x0000_0001_0000_0001 * ((1 << (4 * b)) - 1));
    x = (x | x >> (4 * gap)) & ((1 << (8 * b)) - 1);
    x as u32
}

/// The values of `count` cards of `deck` from `start`, `step` apart, into a word, the first on
/// top; and how many. Built from the last card up, so that every shift is by one card.
#[inline(always)]
pub(super) fn pack_span<W: Word, T: Copy>(
    deck: &[T],
    (start, step, count): (usize, usize, usize),
    value: impl Fn(T) -> u8,
) -> (W, u32) {
    let mut word = W::ZERO;
    if count > 0 {
        let cards = &deck[start..=start + (count - 1) * step];
        for i in (0..count).rev() {
            word = word << W::CARD_BITS | W::of(value(cards[i * step]) + 1);
        }
    }
    (word, count as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every way of packing gives the same word, whose cards read back as the values plus one
    /// and reverse as the values reversed: for each word, every hand length it holds.
    fn packs_alike<W: Word + std::fmt::Debug>() -> usize {
        let mut checked = 0;
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for len in 0..=W::CARDS {
            let values: Vec<u8> = (0..len)
                .map(|_| {
                    x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    ((x >> 33) % W::VALUES as u64) as u8
                })
                .collect();
            let (bytes, n) = pack_bytes::<W>(&values);
            let (span, m) = pack_span::<W, u8>(&values, (0, 1, len), |v| v);
            assert_eq!((bytes, n), (span, m), "{len} cards");
            for (i, &v) in values.iter().enumerate() {
                assert_eq!(bytes.card(i as u32), v + 1, "card {i} of {len}");
            }
            if len < W::CARDS {
                assert_eq!(bytes.card(len as u32), 0, "past {len} cards");
            }
            let reversed: Vec<u8> = values.iter().rev().copied().collect();
            let (expected, _) = pack_span::<W, u8>(&reversed, (0, 1, len), |v| v);
            assert_eq!(bytes.reverse_cards(len as u32), expected, "{len} reversed");
            checked += 1;
        }
        checked
    }

    /// Hands of as many cards, packed, compare as their values do from the top card
    /// (`compare_cards`, which weighs a deal against its mirror): for each word, pairs of
    /// every length that differ at each place, and equal ones.
    fn compares_as_values<W: Word + std::fmt::Debug>() -> usize {
        let mut checked = 0;
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut value = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % W::VALUES as u64) as u8
        };
        for len in 1..=W::CARDS / 2 {
            for differ in 0..=len {
                let a: Vec<u8> = (0..len).map(|_| value()).collect();
                let mut b = a.clone();
                if differ < len {
                    b[differ] = value();
                    b[differ + 1..].iter_mut().for_each(|v| *v = value());
                }
                let pack = |hand: &[u8]| pack_span::<W, u8>(hand, (0, 1, len), |v| v).0;
                let got = compare_cards(pack(&a), pack(&b));
                assert_eq!(got, a.cmp(&b), "{a:?} against {b:?}");
                checked += 1;
            }
        }
        checked
    }

    #[test]
    fn packed_hands_compare_as_their_values() {
        let pairs = |cards: usize| (1..=cards / 2).map(|len| len + 1).sum::<usize>();
        assert_eq!(compares_as_values::<u64>(), pairs(16));
        assert_eq!(compares_as_values::<Tri>(), pairs(21));
        assert_eq!(compares_as_values::<u128>(), pairs(32));
    }

    #[test]
    fn every_word_packs_its_hands_alike() {
        assert_eq!(packs_alike::<u64>(), 17);
        assert_eq!(packs_alike::<Tri>(), 22);
        assert_eq!(packs_alike::<u128>(), 33);
    }
}
