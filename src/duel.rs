//! The two-player fast path: runs of battles without a tie, played with both hands' positions in
//! registers.
//!
//! About 96% of two-player battles are a plain win for one side. This loop plays them with no
//! branch on who won (the winner's tail is picked by a conditional move), and folds every rare
//! reason to stop (a hand ran out, a hand needs to slide back, the hands might match the cycle
//! detector's saved state, a snapshot or the detector's next save is due, the round cap) into one
//! well-predicted test. It returns at a tie, or after a round that needs the engine's attention;
//! every round before that one needed nothing but counting.

use crate::cards::{Card, ACE, THREE};
use crate::deal::SplitMix64;
use crate::hands::Hands;

/// Ranking, as a const parameter so that each variant compiles to its own loop.
pub const STANDARD: u8 = 0;
pub const OORLOG: u8 = 1;
/// Two-card gather orders: player 1's card first (both `reveal` and `p1-first`), the winner's
/// first, or a coin flip.
pub const P1_FIRST: u8 = 0;
pub const WINNER_FIRST: u8 = 1;
pub const RANDOM: u8 = 2;

/// Why a run stopped.
pub enum Run {
    /// The last battle was a tie: `a` and `b` are revealed, the round goes on as a war.
    Tie { a: Card, b: Card },
    /// `winner` took the last round, which needs the engine's attention.
    Round { winner: usize },
}

/// What a run counted.
pub struct Counts {
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
#[inline(always)]
fn p1_wins<const RANK: u8>(a: u8, b: u8) -> bool {
    let higher = a > b;
    if RANK == OORLOG {
        // A 2 or 3 against an ace or joker reverses the order.
        let low_vs_ace = (a <= THREE) & (b == ACE);
        let ace_vs_low = (a == ACE) & (b <= THREE);
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
pub fn run<const RANK: u8, const GATHER: u8>(
    hands: &mut Hands,
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
        let p1 = p1_wins::<RANK>(va, vb);
        let (first, second) = match GATHER {
            WINNER_FIRST if !p1 => (b, a),
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
    use crate::cards::TWO;
    use crate::rules::{beats, Ranking};

    #[test]
    fn branch_free_ranking_agrees_with_the_rules() {
        for a in 0..13 {
            for b in (0..13).filter(|&b| b != a) {
                assert_eq!(p1_wins::<STANDARD>(a, b), beats(Ranking::Standard, a, b));
                assert_eq!(
                    p1_wins::<OORLOG>(a, b),
                    beats(Ranking::Oorlog, a, b),
                    "{a} {b}"
                );
            }
        }
        assert!(p1_wins::<OORLOG>(TWO, ACE));
    }
}
