//! The fast path for three or more players: runs of battles without a tie.
//!
//! Every player reveals one card per battle, so all heads advance together: one counter locates
//! them all, and the heads themselves stay fixed for the run. Only the winner's tail moves. As in
//! `duel`, the run stops at a tie or after a round that needs the engine's attention (a hand is
//! empty, player 1's hand matches the cycle detector's key, an event is due, or the tails near
//! their limits).

use crate::cards::Card;
use crate::deal::SplitMix64;
use crate::duel::{Counts, RANDOM, WINNER_FIRST};
use crate::hands::Hands;
use crate::rules::{strongest, Ranking, MAX_PLAYERS};

/// Why a run stopped.
pub enum Run {
    /// The last battle tied `tied[..count]`; `revealed[..players]` are on the table.
    Tie {
        revealed: [Card; MAX_PLAYERS],
        tied: [u8; MAX_PLAYERS],
        count: usize,
    },
    /// `winner` took the last round, which needs the engine's attention.
    Round { winner: usize },
}

/// Plays rounds of a game of `players` (three or more) until a tie, or until a round after which
/// `stop_after` rounds have been played, a hand is empty, or player 1's hand matches `key`.
#[inline(never)]
pub fn run<const GATHER: u8, const PLAYERS: usize>(
    hands: &mut Hands,
    ranking: Ranking,
    rng: &mut SplitMix64,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    let players = PLAYERS;
    let mut head = [0usize; PLAYERS];
    let mut tail = [0usize; PLAYERS];
    let mut room = usize::MAX;
    for p in 0..players {
        head[p] = hands.head[p] as usize;
        tail[p] = hands.tail[p] as usize;
        room = room.min(hands.limit[p] as usize - tail[p]);
    }
    // Each round adds `players` cards to one tail: this many rounds keep all within their limits.
    let stop_n = stop_after.min((room / players) as u64 + 1).max(1) as usize;
    let key = (key.0 as usize) << 8 | key.1 as usize;
    let cards = &mut hands.cards[..];
    let mut n = 0;
    let run = loop {
        let mut shown = [Card(0); PLAYERS];
        for p in 0..players {
            // SAFETY: n < stop_n battles have been played, each player had a card for each (a
            // run stops when a hand is empty), so head + n < tail, inside the player's region.
            shown[p] = unsafe { *cards.get_unchecked(head[p] + n) };
        }
        n += 1;
        let best = strongest(ranking, &shown);
        // Bit p set: player p shows the strongest card.
        let mut leaders = 0u32;
        for (p, card) in shown.iter().enumerate() {
            leaders |= u32::from(card.value() == best) << p;
        }
        if leaders.count_ones() > 1 {
            let mut revealed = [Card(0); MAX_PLAYERS];
            revealed[..PLAYERS].copy_from_slice(&shown);
            let mut tied = [0u8; MAX_PLAYERS];
            let mut count = 0;
            for p in (0..players).filter(|p| leaders >> p & 1 == 1) {
                tied[count] = p as u8;
                count += 1;
            }
            break Run::Tie {
                revealed,
                tied,
                count,
            };
        }
        let winner = leaders.trailing_zeros() as usize;
        // Tails are only ever indexed by constants (the loops unroll), so they stay in
        // registers: the winner's is picked and every tail updated by multiplying with
        // `p == winner`, without a branch (a branch here mispredicts, a store by the winner's
        // index makes a store-to-load chain through the next battle).
        let mut t = 0;
        for (p, &end) in tail.iter().enumerate() {
            t += end * usize::from(p == winner);
        }
        // The run stops within `room` rounds of the tails' limits, which lie a whole deck before
        // the ends of their regions: t + PLAYERS is in bounds (checked once by the slice).
        let gathered = &mut cards[t..t + PLAYERS];
        match GATHER {
            WINNER_FIRST => {
                gathered[0] = shown[winner];
                let mut at = 1;
                for (p, &card) in shown.iter().enumerate() {
                    if p != winner {
                        gathered[at] = card;
                        at += 1;
                    }
                }
            }
            RANDOM => {
                rng.shuffle(&mut shown);
                gathered.copy_from_slice(&shown);
            }
            // One card each: reveal order is player order.
            _ => gathered.copy_from_slice(&shown),
        }
        for (p, end) in tail.iter_mut().enumerate() {
            *end += players * usize::from(p == winner);
        }
        let mut empty = false;
        for p in 0..players {
            empty |= tail[p] == head[p] + n;
        }
        let len0 = tail[0] - (head[0] + n);
        // SAFETY: head[0] + n <= tail[0], inside player 1's region (an empty hand reads a stale
        // card, and stops the run anyway).
        let top0 = unsafe { cards.get_unchecked(head[0] + n) }.value();
        let key_hit = (len0 << 8 | top0 as usize) == key;
        if (n == stop_n) | key_hit | empty {
            break Run::Round { winner };
        }
    };
    for p in 0..players {
        hands.head[p] = (head[p] + n) as u32;
        hands.tail[p] = tail[p] as u32;
    }
    let tie = matches!(run, Run::Tie { .. });
    (run, Counts::of_run(n as u64, tie))
}

/// Calls `run::<GATHER, N>` for the game's player count, so that each table size gets its own
/// fully unrolled loop.
pub fn dispatch<const GATHER: u8>(
    players: usize,
    hands: &mut Hands,
    ranking: Ranking,
    rng: &mut SplitMix64,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    match players {
        3 => run::<GATHER, 3>(hands, ranking, rng, stop_after, key),
        4 => run::<GATHER, 4>(hands, ranking, rng, stop_after, key),
        5 => run::<GATHER, 5>(hands, ranking, rng, stop_after, key),
        6 => run::<GATHER, 6>(hands, ranking, rng, stop_after, key),
        7 => run::<GATHER, 7>(hands, ranking, rng, stop_after, key),
        8 => run::<GATHER, 8>(hands, ranking, rng, stop_after, key),
        9 => run::<GATHER, 9>(hands, ranking, rng, stop_after, key),
        10 => run::<GATHER, 10>(hands, ranking, rng, stop_after, key),
        11 => run::<GATHER, 11>(hands, ranking, rng, stop_after, key),
        12 => run::<GATHER, 12>(hands, ranking, rng, stop_after, key),
        n => unreachable!("the crowd path plays 3 to 12 players, not {n}"),
    }
}
