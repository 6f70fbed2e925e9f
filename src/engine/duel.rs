//! The two-player fast path: runs of battles without a tie, played with both hands' positions in
//! registers.
//!
//! About 96% of two-player battles are a plain win for one side. This loop plays them with no
//! branch on who won (the winner's tail is picked by a conditional move), and folds every rare
//! reason to stop (a hand ran out, a hand needs to slide back, the hands might match the cycle
//! detector's saved state, a snapshot or the detector's next save is due, the round cap) into one
//! well-predicted test. It returns at a tie, or after a round that needs the engine's attention;
//! every round before that one needed nothing but counting.

use super::hands::Hands;
use crate::deal::SplitMix64;
use crate::rules::{Card, Gather, Rules, Strength};

/// Ranking, as a const parameter so that each variant compiles to its own loop: plain "highest
/// value wins", or with oorlog's exception (2s and 3s beat the ace).
pub(crate) const PLAIN: u8 = 0;
pub(crate) const OORLOG: u8 = 1;
/// Two-card gather orders: player 1's card first (`reveal`, `p1-first`), the winner's first
/// (`winner-first`, `natural`), the higher value first (`sorted`), or a coin flip (`random`).
pub(crate) const P1_FIRST: u8 = 0;
pub(crate) const WINNER_FIRST: u8 = 1;
pub(crate) const RANDOM: u8 = 2;
pub(crate) const HIGHER_FIRST: u8 = 3;
/// The N-player `reveal` order with oorlog's wars played inside the run (see `crowd`). Every
/// gather code is defined here, so that no two share a number.
pub(crate) const REVEAL_WARS: u8 = 4;

/// Plays a run of a two-player game in the loop compiled for its ranking and gather order.
pub(crate) fn play(
    rules: &Rules,
    hands: &mut Hands,
    rng: &mut SplitMix64,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    let s = rules.strength;
    macro_rules! go {
        ($gather:expr) => {
            if s.is_plain() {
                run::<PLAIN, { $gather }>(hands, s, rng, stop_after, key)
            } else {
                run::<OORLOG, { $gather }>(hands, s, rng, stop_after, key)
            }
        };
    }
    match rules.gather {
        Gather::Reveal | Gather::P1First => go!(P1_FIRST),
        Gather::WinnerFirst | Gather::Natural => go!(WINNER_FIRST),
        Gather::Sorted => go!(HIGHER_FIRST),
        Gather::Random => go!(RANDOM),
    }
}

/// Why a run stopped.
pub(crate) enum Run {
    /// The last battle was a tie: `a` and `b` are revealed, the round goes on as a war.
    Tie { a: Card, b: Card },
    /// `winner` took the last round, which needs the engine's attention.
    Round { winner: usize },
}

/// What a run counted.
pub(crate) struct Counts {
    pub rounds: u64,
    pub battles: u64,
    /// Wars settled inside the run (a tie that stops the run is left to the engine).
    pub wars: u64,
    /// Completed rounds before the last one: they needed nothing but counting.
    pub quiet_rounds: u64,
}

impl Counts {
    /// A run of `battles` battles, the last of which was a tie or ended a round that needs the
    /// engine's attention.
    pub fn of_run(battles: u64, tie: bool) -> Counts {
        Counts {
            rounds: battles - u64::from(tie),
            battles,
            wars: 0,
            quiet_rounds: battles - 1,
        }
    }
}

/// Whether player 1's value `a` beats player 2's `b` (they differ), without branching.
/// `ace` and `low_top` come from `Strength` (only read for `OORLOG`).
#[inline(always)]
fn p1_wins<const RANK: u8>(a: u8, b: u8, ace: u8, low_top: u8) -> bool {
    let higher = a > b;
    if RANK == OORLOG {
        // A 2 or 3 against an ace or joker reverses the order.
        let low_vs_ace = (a <= low_top) & (b == ace);
        let ace_vs_low = (a == ace) & (b <= low_top);
        higher ^ (low_vs_ace | ace_vs_low)
    } else {
        higher
    }
}

/// Plays rounds of a two-player game until a tie, or until a round after which `stop_after`
/// rounds have been played, a hand is empty, or player 1's hand matches `key` (size and top
/// value). The run is also cut short before either hand could pass its limit, so the caller only
/// has to let the hands slide back between runs.
#[inline(never)]
fn run<const RANK: u8, const GATHER: u8>(
    hands: &mut Hands,
    strength: Strength,
    rng: &mut SplitMix64,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    let (h0, h1) = (hands.head[0] as usize, hands.head[1] as usize);
    let (mut t0, mut t1) = (hands.tail[0] as usize, hands.tail[1] as usize);
    // Each round adds two cards to one tail: this many rounds keep both within their limits.
    let room = (hands.limit[0] as usize - t0).min(hands.limit[1] as usize - t1) / 2;
    let stop_n = (stop_after.min(room as u64 + 1)).max(1) as usize;
    let total = (t0 - h0) + (t1 - h1);
    // Size and top value packed in one word: one register, one comparison per battle.
    let key = (key.0 as usize) << 8 | key.1 as usize;
    let (ace, low_top) = (strength.ace.unwrap_or(u8::MAX), strength.low_top);
    let cards = &mut hands.cards[..];
    debug_assert!(t0.max(t1) + 2 * stop_n <= cards.len());
    // Both heads advance by one card per battle: `n` (battles so far) locates both.
    let mut n = 0;
    let run = loop {
        // SAFETY: n < stop_n battles have been played, each hand had a card for each (a run
        // stops when one is empty), so h + n < t; and t stays below the region's end, because
        // the run stops within `room` rounds of the tails' limits, which lie `total` cards (at
        // least 2) before the ends of their regions.
        let (a, b) = unsafe { (*cards.get_unchecked(h0 + n), *cards.get_unchecked(h1 + n)) };
        n += 1;
        let (va, vb) = (a.value(), b.value());
        if va == vb {
            break Run::Tie { a, b };
        }
        let p1 = p1_wins::<RANK>(va, vb, ace, low_top);
        let (first, second) = match GATHER {
            WINNER_FIRST if !p1 => (b, a),
            HIGHER_FIRST if vb > va => (b, a),
            // Fisher-Yates on two cards: one draw decides whether they swap.
            RANDOM if rng.below(2) == 0 => (b, a),
            _ => (a, b),
        };
        let t = if p1 { t0 } else { t1 };
        // SAFETY: as above, t + 1 is below the region's end.
        unsafe {
            *cards.get_unchecked_mut(t) = first;
            *cards.get_unchecked_mut(t + 1) = second;
        }
        let grow0 = 2 * p1 as usize;
        t0 += grow0;
        t1 += 2 - grow0;
        // Between rounds all cards are in the hands: player 2 is empty when player 1 holds all.
        let len0 = t0 - (h0 + n);
        let empty = len0.wrapping_sub(1) >= total - 1;
        // SAFETY: h0 + n <= t0, below the region's end (an empty hand reads a stale card).
        let top0 = unsafe { cards.get_unchecked(h0 + n) }.value();
        let key_hit = (len0 << 8 | top0 as usize) == key;
        if (n == stop_n) | key_hit | empty {
            break Run::Round {
                winner: usize::from(!p1),
            };
        }
    };
    hands.head[0] = (h0 + n) as u32;
    hands.head[1] = (h1 + n) as u32;
    hands.tail[0] = t0 as u32;
    hands.tail[1] = t1 as u32;
    let tie = matches!(run, Run::Tie { .. });
    (run, Counts::of_run(n as u64, tie))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Deck, Ranking};

    /// For every deck size with an ace and every pair of values, the branch-free comparison
    /// says what `Strength` says.
    #[test]
    fn branch_free_ranking_agrees_with_the_rules() {
        for values in [2, 8, 11, 12, 13, 14, 64] {
            let deck = Deck::parse(&format!("4x{values}")).unwrap();
            for ranking in Ranking::ALL {
                let s = Strength::new(ranking, deck);
                let (ace, low) = (s.ace.unwrap_or(u8::MAX), s.low_top);
                for a in 0..values {
                    for b in (0..values).filter(|&b| b != a) {
                        let fast = if s.is_plain() {
                            p1_wins::<PLAIN>(a, b, ace, low)
                        } else {
                            p1_wins::<OORLOG>(a, b, ace, low)
                        };
                        assert_eq!(fast, s.beats(a, b), "{deck} {ranking:?} {a} {b}");
                    }
                }
            }
        }
    }
}
