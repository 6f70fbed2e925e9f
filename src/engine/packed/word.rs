//! Hands packed into machine words: four bits a card, the top card lowest.

use crate::deal::dealt_span;
use crate::rules::Deal;
use crate::rules::Rules;
use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr, Sub};

/// A word holding a hand, four bits a card.
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
    /// Cards a word holds.
    const CARDS: usize;
    const ZERO: Self;
    const ONE: Self;
    fn of(nibble: u8) -> Self;
    /// The card at place `i` (0 = top), plus one; 0 past the hand's end.
    fn nibble(self, i: u32) -> u8;
    /// All ones if `yes`, else zero.
    fn all_if(yes: bool) -> Self;
    fn trailing_zeros(self) -> u32;
    fn of32(x: u32) -> Self;
    fn of64(x: u64) -> Self;
    /// The word, widened (the key of [`KnownCycles`](crate::engine::packed::known::KnownCycles)).
    fn wide(self) -> u128;
    /// The first `count` cards (nibbles) in the reverse order; 0 past them.
    fn reverse_nibbles(self, count: u32) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const CARDS: usize = <$t>::BITS as usize / 4;
            const ZERO: $t = 0;
            const ONE: $t = 1;
            #[inline(always)]
            fn of(nibble: u8) -> $t {
                nibble as $t
            }
            #[inline(always)]
            fn nibble(self, i: u32) -> u8 {
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
            fn reverse_nibbles(self, count: u32) -> $t {
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
/// gets its one added, then the bytes are squeezed into nibbles by halving their spacing three
/// times.
#[inline(always)]
pub(super) fn pack_bytes<W: Word>(values: &[u8]) -> (W, u32) {
    // The research decks' hands: 8 cards (4x4), 16 (4x8), no loop.
    if let Ok(&bytes) = <&[u8; 8]>::try_from(values) {
        return (W::of32(squeeze(bytes)), 8);
    }
    if let Ok(bytes) = <&[u8; 16]>::try_from(values) {
        let (low, high) = bytes.split_at(8);
        let word = W::of32(squeeze(low.try_into().expect("8 bytes")))
            | W::of32(squeeze(high.try_into().expect("8 bytes"))) << 32;
        return (word, 16);
    }
    let mut word = W::ZERO;
    let mut at = 0;
    let mut chunks = values.chunks_exact(8);
    for chunk in &mut chunks {
        word = word | W::of32(squeeze(chunk.try_into().expect("chunks of eight"))) << at;
        at += 32;
    }
    for &v in chunks.remainder() {
        word = word | W::of(v + 1) << at;
        at += 4;
    }
    (word, values.len() as u32)
}

/// Eight values (each below 15), each plus one, as eight nibbles, the first lowest.
#[inline(always)]
pub(super) fn squeeze(bytes: [u8; 8]) -> u32 {
    let mut x = u64::from_le_bytes(bytes) + 0x0101_0101_0101_0101;
    x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
    x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
    x = (x | x >> 16) & 0x0000_0000_FFFF_FFFF;
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
            word = word << 4 | W::of(value(cards[i * step]) + 1);
        }
    }
    (word, count as u32)
}
