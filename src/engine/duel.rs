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
/// How a two-player run treats a tie: stop and leave the war to the engine, or play it inside
/// the run and gather the table in the order of `reveal`, `p1-first`, `winner-first` or
/// `natural`. (`sorted` and `random` wars go to the engine.)
pub(crate) const WARS_TO_ENGINE: u8 = 0;
pub(crate) const WARS_REVEAL: u8 = 1;
pub(crate) const WARS_P1_FIRST: u8 = 2;
pub(crate) const WARS_WINNER_FIRST: u8 = 3;
pub(crate) const WARS_NATURAL: u8 = 4;

/// Plays a run of a two-player game in the loop compiled for its ranking and gather order.
pub(crate) fn play(
    rules: &Rules,
    hands: &mut Hands,
    rng: &mut SplitMix64,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    let s = rules.strength;
    let step = rules.face_down + 1;
    macro_rules! go {
        ($gather:expr, $wars:expr) => {
            if s.is_plain() {
                run::<PLAIN, { $gather }, { $wars }>(hands, s, rng, stop_after, key, step)
            } else {
                run::<OORLOG, { $gather }, { $wars }>(hands, s, rng, stop_after, key, step)
            }
        };
    }
    match rules.gather {
        Gather::Reveal => go!(P1_FIRST, WARS_REVEAL),
        Gather::P1First => go!(P1_FIRST, WARS_P1_FIRST),
        Gather::WinnerFirst => go!(WINNER_FIRST, WARS_WINNER_FIRST),
        Gather::Natural => go!(WINNER_FIRST, WARS_NATURAL),
        Gather::Sorted => go!(HIGHER_FIRST, WARS_TO_ENGINE),
        Gather::Random => go!(RANDOM, WARS_TO_ENGINE),
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

/// Whether player 1's value `a` beats player 2's `b` (they differ), without branching.
/// `ace` and `low_top` come from `Strength` (only read for `OORLOG`).
#[inline(always)]
pub(crate) fn p1_wins<const RANK: u8>(a: u8, b: u8, ace: u8, low_top: u8) -> bool {
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

/// Plays rounds of a two-player game until a tie it cannot settle itself, or until a round
/// after which `stop_after` rounds have been played, a hand is empty, or player 1's hand matches
/// `key` (size and top value). With `WARS` other than `WARS_TO_ENGINE`, a tie is settled inside
/// the run when both players have the cards for every war it takes (`step` = face-down cards + 1
/// each); otherwise the run stops at the tie and the engine applies the short-war policy. The run
/// is also cut short before either hand could pass its limit, so the caller only has to let the
/// hands slide back between runs.
#[inline(never)]
fn run<const RANK: u8, const GATHER: u8, const WARS: u8>(
    hands: &mut Hands,
    strength: Strength,
    rng: &mut SplitMix64,
    stop_after: u64,
    key: (u32, u8),
    step: usize,
) -> (Run, Counts) {
    let (h0, h1) = (hands.head[0] as usize, hands.head[1] as usize);
    let (mut t0, mut t1) = (hands.tail[0] as usize, hands.tail[1] as usize);
    let (limit0, limit1) = (hands.limit[0] as usize, hands.limit[1] as usize);
    // Each step (one card from each hand) adds two cards to one tail: this many steps keep both
    // tails within their limits (a war checks its own table against the winner's limit).
    let room = (limit0 - t0).min(limit1 - t1) / 2;
    let stop_steps = room + 1;
    let stop_rounds = stop_after.max(1).min(usize::MAX as u64 / 2) as usize;
    let total = (t0 - h0) + (t1 - h1);
    // Size and top value packed in one word: one register, one comparison per battle.
    let key = (key.0 as usize) << 8 | key.1 as usize;
    let (ace, low_top) = (strength.ace.unwrap_or(u8::MAX), strength.low_top);
    let cards = &mut hands.cards[..];
    debug_assert!(t0.max(t1) + 2 * stop_steps <= cards.len());
    // Both heads advance by one card per step: `n` (steps so far) locates both. A round is one
    // step, plus `extra` steps for its wars: rounds = n - extra. The run stops once `n` reaches
    // `stop_n`: the room's limit, or the step at which the round count reaches `stop_rounds`.
    let mut n = 0;
    let (mut extra, mut wars) = (0usize, 0u64);
    let mut stop_n = stop_steps.min(stop_rounds);
    let run = loop {
        // SAFETY: every step so far took a card from each hand (a run stops when one is empty,
        // and a war only goes on while both hands hold its cards), so h + n < t; and t stays
        // below the region's end, because the run stops within `room` steps of the tails'
        // limits, which lie `total` cards (at least 2) before the ends of their regions.
        let (a, b) = unsafe { (*cards.get_unchecked(h0 + n), *cards.get_unchecked(h1 + n)) };
        n += 1;
        let (va, vb) = (a.value(), b.value());
        let p1 = if va != vb {
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
            p1
        } else {
            if WARS == WARS_TO_ENGINE {
                break Run::Tie { a, b };
            }
            match settle_war::<RANK, WARS>(
                cards,
                [h0, h1],
                [t0, t1],
                [limit0, limit1],
                n,
                step,
                (ace, low_top),
            ) {
                Some(war) => {
                    extra += war.steps - n;
                    n = war.steps;
                    wars += war.ties;
                    stop_n = stop_steps.min(stop_rounds + extra);
                    if war.p1 {
                        t0 += war.taken;
                    } else {
                        t1 += war.taken;
                    }
                    war.p1
                }
                None => break Run::Tie { a, b },
            }
        };
        // Between rounds all cards are in the hands: player 2 is empty when player 1 holds all.
        let len0 = t0 - (h0 + n);
        let empty = len0.wrapping_sub(1) >= total - 1;
        // SAFETY: h0 + n <= t0, below the region's end (an empty hand reads a stale card).
        let top0 = unsafe { cards.get_unchecked(h0 + n) }.value();
        let key_hit = (len0 << 8 | top0 as usize) == key;
        if (n >= stop_n) | key_hit | empty {
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
    let rounds = (n - extra - usize::from(tie)) as u64;
    let counts = Counts {
        rounds,
        // One battle opens each round (the tie that stopped the run too), one more per war.
        battles: rounds + wars + u64::from(tie),
        wars,
        quiet_rounds: if tie { rounds } else { rounds - 1 },
    };
    (run, counts)
}

/// A war settled inside a run.
struct War {
    /// Whether player 1 took the table.
    p1: bool,
    /// Steps of the run once the table is taken.
    steps: usize,
    /// Ties in the round (the first included).
    ties: u64,
    /// Cards the winner took.
    taken: usize,
}

/// Settles the tie at step `n - 1` if both hands hold the cards of every war it takes and the
/// table fits before the winner's limit: then writes the table to the winner's tail in the
/// gather order of `WARS` and says how the round ended. Otherwise changes nothing and returns
/// `None`: the engine takes the tie, with the short-war policy. Out of line and cold: wars are
/// rare enough that the run loop should keep its registers for plain battles.
#[cold]
#[inline(never)]
fn settle_war<const RANK: u8, const WARS: u8>(
    cards: &mut [Card],
    head: [usize; 2],
    tail: [usize; 2],
    limit: [usize; 2],
    n: usize,
    step: usize,
    (ace, low_top): (u8, u8),
) -> Option<War> {
    let start = n - 1;
    let mut i = n;
    let mut ties = 1;
    // Read ahead until a battle is decided.
    let p1 = loop {
        if (tail[0] - (head[0] + i)).min(tail[1] - (head[1] + i)) < step {
            return None;
        }
        i += step;
        // SAFETY: both hands held `step` more cards: head[p] + i <= tail[p], inside `cards`.
        let (x, y) = unsafe {
            (
                cards.get_unchecked(head[0] + i - 1).value(),
                cards.get_unchecked(head[1] + i - 1).value(),
            )
        };
        if x != y {
            break p1_wins::<RANK>(x, y, ace, low_top);
        }
        ties += 1;
    };
    let (w, l) = if p1 { (0, 1) } else { (1, 0) };
    let taken = 2 * (i - start);
    let at = tail[w];
    if at + taken > limit[w] {
        return None;
    }
    // The cards of player p at steps start..i are cards[head[p] + start..head[p] + i]; the
    // winner's tail lies past both hands' unread cards, so reading and writing never meet.
    let from = |p: usize| head[p] + start..head[p] + i;
    match WARS {
        WARS_REVEAL => {
            for j in 0..i - start {
                cards[at + 2 * j] = cards[head[0] + start + j];
                cards[at + 2 * j + 1] = cards[head[1] + start + j];
            }
        }
        WARS_P1_FIRST => {
            cards.copy_within(from(0), at);
            cards.copy_within(from(1), at + (i - start));
        }
        WARS_WINNER_FIRST => {
            cards.copy_within(from(w), at);
            cards.copy_within(from(l), at + (i - start));
        }
        _ => {
            // natural: the winning card, the losing one, then every earlier card latest first
            // (player 2's before player 1's at each step: the reverse of the reveal order).
            assert!(at + taken <= cards.len() && head[0].max(head[1]) + i <= cards.len());
            // SAFETY: the assertion bounds every index: writes go to at..at + taken, reads to
            // head[p] + start..head[p] + i.
            unsafe {
                *cards.get_unchecked_mut(at) = *cards.get_unchecked(head[w] + i - 1);
                *cards.get_unchecked_mut(at + 1) = *cards.get_unchecked(head[l] + i - 1);
                let mut to = at + 2;
                for j in (start..i - 1).rev() {
                    *cards.get_unchecked_mut(to) = *cards.get_unchecked(head[1] + j);
                    *cards.get_unchecked_mut(to + 1) = *cards.get_unchecked(head[0] + j);
                    to += 2;
                }
            }
        }
    }
    Some(War {
        p1,
        steps: i,
        ties,
        taken,
    })
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
