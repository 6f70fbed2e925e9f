//! Exact detection of games that never end.
//!
//! A game's state after a round is the sequence of card values in each hand. Brent's algorithm
//! (with windows that double, then grow fourfold, see `next_window`) keeps one saved state (the
//! tortoise) and compares the live hands (the hare) with it after every round: the first hand's
//! size first, which almost always differs, and the cards only when it matches. When the hare meets the tortoise, the distance between them is the exact cycle length.
//!
//! The cycle start is then found without replaying the whole game: a `History` keeps the state
//! every `spacing` rounds, so the engine can rebuild any earlier round from the snapshot before it
//! and binary-search for the first round whose state recurs `lambda` rounds later.

use super::hands::Hands;
use crate::rules::{Card, MAX_PLAYERS};

/// A copy of every hand. Cards are kept whole (a plain copy) but compared by value only.
#[derive(Clone, Debug)]
pub(crate) struct Snapshot {
    lens: [u32; MAX_PLAYERS],
    cards: Vec<Card>,
}

impl Snapshot {
    /// Room for `total` cards, so that saving never allocates.
    pub fn with_capacity(total: usize) -> Snapshot {
        Snapshot {
            lens: [0; MAX_PLAYERS],
            cards: Vec::with_capacity(total),
        }
    }

    pub fn save(&mut self, hands: &Hands) {
        self.cards.clear();
        for p in 0..hands.players() {
            self.lens[p] = hands.len(p);
            self.cards.extend_from_slice(hands.hand(p));
        }
    }

    /// Cheap necessary conditions for a match (see `Key`).
    pub fn key(&self, players: usize) -> Key {
        Key::of(
            &self.lens[..players],
            self.cards.first().map_or(0, |c| c.value()),
        )
    }

    /// Whether `hands` holds exactly the saved values. Cheap when it does not: the first hand's
    /// size differs on most rounds, and the first cards on nearly all the others.
    #[inline(always)]
    pub fn matches(&self, hands: &Hands) -> bool {
        self.lens[0] == hands.len(0) && self.matches_slow(hands)
    }

    #[inline(never)]
    fn matches_slow(&self, hands: &Hands) -> bool {
        if (1..hands.players()).any(|p| self.lens[p] != hands.len(p)) {
            return false;
        }
        let mut from = 0;
        (0..hands.players()).all(|p| {
            let hand = hands.hand(p);
            let saved = &self.cards[from..from + hand.len()];
            from += hand.len();
            hand.iter().zip(saved).all(|(a, b)| a.value() == b.value())
        })
    }

    /// Loads the saved hands back into `hands`.
    pub fn restore(&self, hands: &mut Hands) {
        hands.clear();
        let mut cards = self.cards.iter();
        for p in 0..hands.players() {
            for &card in cards.by_ref().take(self.lens[p] as usize) {
                hands.push(p, card);
            }
        }
    }
}

/// A necessary condition for the hands to match a saved state, in the forms the fast runs test
/// cheaply after every round: player 1's hand size and top card value (`first`), or every hand's
/// size (`trio`, `bytes`), which the lane loops of `crowd` hold in one word anyway.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    pub first: (u32, u8),
    /// Players 1 and 2's hand sizes less one, in the two sixteen-bit lanes of `run_three`'s
    /// sizes word. Player 3's follows: the three hands hold every card between rounds.
    pub trio: u32,
    /// Players 1 to 8's hand sizes, a byte each from the lowest: `run_lanes`'s sizes word.
    pub bytes: u64,
}

impl Key {
    /// The key of hands of sizes `lens` whose player 1 shows `top0`.
    pub fn of(lens: &[u32], top0: u8) -> Key {
        let fits = |most: u32, count: usize| {
            lens.len() == count && lens.iter().all(|&l| (1..most).contains(&l))
        };
        let trio = if fits(1 << 15, 3) {
            (lens[0] - 1) | (lens[1] - 1) << 16
        } else {
            NO_MATCH.trio
        };
        let bytes = if (3..=8).any(|count| fits(128, count)) {
            lens.iter()
                .enumerate()
                .fold(0, |word, (p, &l)| word | u64::from(l) << (8 * p))
        } else {
            NO_MATCH.bytes
        };
        Key {
            first: (lens[0], top0),
            trio,
            bytes,
        }
    }
}

/// A key no hands match: no hand holds `u32::MAX` cards, and no sizes word of the lane loops
/// is all ones (their sizes stay below 2^15 and 2^7; an empty hand stops a run anyway).
pub(crate) const NO_MATCH: Key = Key {
    first: (u32::MAX, 0),
    trio: u32::MAX,
    bytes: u64::MAX,
};

/// Rounds the first tortoise (the deal) watches before it moves, in two-player runs (`pair`).
/// Any window is exact (a state on the cycle first comes back after exactly the cycle length); a
/// first window of 64 rather than 1 spares the early moves that would each stop the fast path.
pub(crate) const FIRST_WINDOW: u64 = 64;

/// `FIRST_WINDOW` and `FIRST_SPACING` for the engine's own detector (`Brent`, `History`): games
/// of three players or more, and watched games. Every run of `crowd` stops at a move of the
/// tortoise and at a snapshot, and each stop costs a run's set-up; two-player runs keep their
/// own (`pair`). Measured (callgrind, seeds 0..50,000), oorlog with 3 players: 256 and 256
/// against 64 and 128, -4.3% instructions (512 and 512: -5.3%); 6 players, whose games mostly
/// end before round 64, unchanged.
const ENGINE_FIRST_WINDOW: u64 = 256;
const ENGINE_FIRST_SPACING: u64 = 256;

/// The window after `window`. A cycle is found once the tortoise sits on it and the window is at
/// least the cycle's length. Brent's algorithm doubles each window; up to 1,024 rounds the
/// windows double here too, so that a game whose cycle starts early is found soon after it
/// starts (most loops of `shortened` start before round 1,400 and last 52 rounds). Past that
/// they grow fourfold: the tortoise lands later relative to the window (a third of it, not all
/// of it), so a long cycle is found after about 1.3 to 2.3 of its lengths rather than 2 to 3.
/// The windows past 1,024 are the same as fourfold growth from 64 would give (4,096, 16,384,
/// ...). Measured (callgrind, seeds 0..50,000): against fourfold growth from the start,
/// `shortened` -4.1% and `codingame` -1.9% instructions; against doubling throughout,
/// `codingame` -28%.
#[inline(always)]
pub(crate) fn next_window(window: u64) -> u64 {
    if window < 1024 {
        2 * window
    } else {
        4 * window
    }
}

/// Brent's cycle finding, one call per finished round.
///
/// In unwatched games the first tortoise is the state after round `ENGINE_FIRST_WINDOW`, not
/// the deal: most games of many players end before it, and never pay for a copy of their
/// hands. Any state can be the first tortoise (the cycle length found is exact, and the cycle
/// start is found apart); a game that loops from its deal is found one window later.
#[derive(Clone, Debug)]
pub(crate) struct Brent {
    tortoise: Snapshot,
    /// The tortoise's key, `NO_MATCH` until it holds this game's state (from the end of the
    /// first window on, in unwatched games): no real state has that key.
    key: Key,
    power: u64,
    lam: u64,
}

impl Brent {
    pub fn with_capacity(total: usize) -> Brent {
        Brent {
            tortoise: Snapshot::with_capacity(total),
            key: NO_MATCH,
            power: ENGINE_FIRST_WINDOW,
            lam: 0,
        }
    }

    /// Starts a game at its deal (round 0). With `deal`, the deal is the first tortoise (a
    /// watched game that loops from its deal then shows one loop, not a window of them);
    /// without, the first tortoise is saved `ENGINE_FIRST_WINDOW` rounds later.
    pub fn start(&mut self, deal: Option<&Hands>) {
        self.key = NO_MATCH;
        if let Some(hands) = deal {
            self.save(hands);
        }
        self.power = ENGINE_FIRST_WINDOW;
        self.lam = 0;
    }

    fn save(&mut self, hands: &Hands) {
        self.tortoise.save(hands);
        self.key = self.tortoise.key(hands.players());
    }

    /// The tortoise's key, or `NO_MATCH` before there is one.
    #[inline(always)]
    pub fn key(&self) -> Key {
        self.key
    }

    /// Rounds until the tortoise moves (the next `step` that saves).
    #[inline(always)]
    pub fn rounds_until_save(&self) -> u64 {
        self.power - self.lam
    }

    /// Accounts for `rounds` rounds whose hands did not match the tortoise's key, and so could
    /// not match the tortoise, none of which was due to move it.
    #[inline(always)]
    pub fn skip(&mut self, rounds: u64) {
        debug_assert!(self.lam + rounds < self.power);
        self.lam += rounds;
    }

    /// Called after each finished round; returns the cycle length once the state repeats.
    #[inline(always)]
    pub fn step(&mut self, hands: &Hands) -> Option<u64> {
        self.lam += 1;
        if self.key != NO_MATCH && self.tortoise.matches(hands) {
            return Some(self.lam);
        }
        if self.lam == self.power {
            self.save(hands);
            self.power = next_window(self.power);
            self.lam = 0;
        }
        None
    }
}

/// Where to start stepping towards a cycle's start: the binary search over the snapshots' rounds
/// (`0, spacing, 2 * spacing, ...` up to `last`, whose state is known to recur) for the first
/// whose state recurs `lambda` rounds later, as `recurs(round)` tells by rebuilding both. The
/// cycle starts after the last snapshot that does not recur: returns the round just after it.
pub(crate) fn search_from(last: u64, spacing: u64, mut recurs: impl FnMut(u64) -> bool) -> u64 {
    let (mut lo, mut hi) = (0, last / spacing + 1);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if recurs(mid * spacing) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    if lo == 0 {
        0
    } else {
        (lo - 1) * spacing + 1
    }
}

/// Rounds between two snapshots at the start of a two-player game (`pair`). Fewer snapshots stop
/// the fast paths less often; more make the search for a cycle's start shorter. Measured
/// (callgrind, seeds 0..50,000): 128 against 64, `shortened` -1.5% and `codingame` -1.7%
/// instructions; 256 gains less.
pub(crate) const FIRST_SPACING: u64 = 128;
/// Snapshots kept at most; past that every other one is dropped and the spacing doubles, so a
/// very long game costs bounded memory.
pub(crate) const MOST_SNAPSHOTS: usize = 4096;

/// Snapshots of one game every `spacing` rounds (round 0 first), with the game's counts then.
#[derive(Clone, Debug)]
pub(crate) struct History<T: Copy> {
    snapshots: Vec<(Snapshot, T)>,
    used: usize,
    /// The round-0 snapshot is the deal, not yet copied (`start_with_deal`).
    deal_pending: bool,
    spacing: u64,
    next_round: u64,
    total: usize,
}

impl<T: Copy> History<T> {
    pub fn with_capacity(total: usize) -> History<T> {
        History {
            snapshots: Vec::new(),
            used: 0,
            deal_pending: false,
            spacing: ENGINE_FIRST_SPACING,
            next_round: 0,
            total,
        }
    }

    /// Forgets the previous game (keeps the memory).
    pub fn reset(&mut self) {
        self.used = 0;
        self.deal_pending = false;
        self.spacing = ENGINE_FIRST_SPACING;
        self.next_round = 0;
    }

    /// Starts a game whose round-0 state is its deal, without copying it: most games end
    /// before any snapshot is read, and a game that needs it deals it again (`fill_deal`).
    pub fn start_with_deal(&mut self, counts: T) {
        if self.snapshots.is_empty() {
            self.snapshots
                .push((Snapshot::with_capacity(self.total), counts));
        }
        self.snapshots[0].1 = counts;
        self.used = 1;
        self.deal_pending = true;
        self.next_round = self.spacing;
    }

    /// Whether the round-0 snapshot still waits for its deal (see `start_with_deal`).
    pub fn deal_pending(&self) -> bool {
        self.deal_pending
    }

    /// Saves `hands`, the game's deal, as its round-0 snapshot.
    pub fn fill_deal(&mut self, hands: &Hands) {
        debug_assert!(self.deal_pending);
        self.snapshots[0].0.save(hands);
        self.deal_pending = false;
    }

    /// Called after every round (and at round 0): saves the hands when a snapshot is due.
    #[inline(always)]
    pub fn observe(&mut self, round: u64, hands: &Hands, counts: T) {
        if round == self.next_round {
            self.save(hands, counts);
        }
    }

    #[inline(never)]
    fn save(&mut self, hands: &Hands, counts: T) {
        if self.used == MOST_SNAPSHOTS {
            for i in 0..self.used / 2 {
                self.snapshots.swap(i, 2 * i);
            }
            self.used /= 2;
            self.spacing *= 2;
        }
        if self.used == self.snapshots.len() {
            // Only when a game runs longer than any before it on this engine.
            self.snapshots
                .push((Snapshot::with_capacity(self.total), counts));
        }
        let slot = &mut self.snapshots[self.used];
        slot.0.save(hands);
        slot.1 = counts;
        self.used += 1;
        self.next_round = self.used as u64 * self.spacing;
    }

    /// The latest snapshot at or before `round`: its round, its state, its counts.
    pub fn at_or_before(&self, round: u64) -> (u64, &Snapshot, T) {
        debug_assert!(!self.deal_pending, "the deal is not saved yet");
        let index = ((round / self.spacing) as usize).min(self.used - 1);
        let (snapshot, counts) = &self.snapshots[index];
        (index as u64 * self.spacing, snapshot, *counts)
    }

    pub fn spacing(&self) -> u64 {
        self.spacing
    }

    /// The round after which the next snapshot is due.
    #[inline(always)]
    pub fn next_round(&self) -> u64 {
        self.next_round
    }
}
