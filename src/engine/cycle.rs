//! Exact detection of games that never end: one detector for every path.
//!
//! A game's state after a round is the sequence of card values in each hand. Every path keeps
//! its state its own way ([`Hands`] in the general path, interleaved bytes in `pair`, two words
//! in `packed`) and tells the detector three things about it ([`Copies`]): how to save a copy,
//! whether the live state matches a copy, and how to load a copy back. The rest is here, once:
//!
//! - [`Brent`]: Brent's algorithm, with windows that double, then grow fourfold ([`next_window`]).
//!   One saved state (the tortoise) is compared with the live one (the hare) after each round;
//!   when they meet, the distance between them is the exact cycle length. A path's fast loop
//!   may skip the comparison on rounds a cheap key rules out ([`Key`], `pair`'s top cards), and
//!   stops at [`Brent::next_save`].
//! - [`History`]: the state every `spacing` rounds, with the game's counts then, in bounded memory.
//! - [`cycle_start`]: the first round whose state recurs, found without replaying the whole game: a
//!   binary search over the snapshots, then two copies `lambda` rounds apart stepped together
//!   ([`Replay`] rebuilds and steps them).

use super::hands::Hands;
use crate::rules::{Card, MAX_PLAYERS};

/// A copy of a path's live state `L`: what the detector saves, compares and loads back.
pub(crate) trait Copies<L> {
    /// Replaces this copy with `live`'s state.
    fn save(&mut self, live: &L);
    /// Whether `live` holds exactly the saved state (values only).
    fn matches(&self, live: &L) -> bool;
    /// Loads the copy into `live`.
    fn restore(&self, live: &mut L);
}

/// A copy of every hand. Cards are kept whole (a plain copy) but compared by value only.
#[derive(Clone, Debug)]
pub(crate) struct Snapshot {
    lens: [u32; MAX_PLAYERS],
    cards: Vec<Card>,
    /// Cheap necessary conditions for a match, computed when saved.
    key: Key,
}

impl Snapshot {
    /// Room for `total` cards, so that saving never allocates.
    pub fn with_capacity(total: usize) -> Snapshot {
        Snapshot {
            lens: [0; MAX_PLAYERS],
            cards: Vec::with_capacity(total),
            key: NO_MATCH,
        }
    }

    /// Cheap necessary conditions for a match (see [`Key`]).
    pub fn key(&self) -> Key {
        self.key
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
}

impl Copies<Hands> for Snapshot {
    fn save(&mut self, hands: &Hands) {
        self.cards.clear();
        for p in 0..hands.players() {
            self.lens[p] = hands.len(p);
            self.cards.extend_from_slice(hands.hand(p));
        }
        let players = hands.players();
        self.key = Key::of(
            &self.lens[..players],
            self.cards.first().map_or(0, |c| c.value()),
        );
    }

    /// Cheap when it does not match: the first hand's size differs on most rounds, and the
    /// first cards on nearly all the others.
    #[inline(always)]
    fn matches(&self, hands: &Hands) -> bool {
        self.lens[0] == hands.len(0) && self.matches_slow(hands)
    }

    fn restore(&self, hands: &mut Hands) {
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

/// A key no hands match: no hand holds [`u32::MAX`] cards, and no sizes word of the lane loops
/// is all ones (their sizes stay below 2^15 and 2^7; an empty hand stops a run anyway).
pub(crate) const NO_MATCH: Key = Key {
    first: (u32::MAX, 0),
    trio: u32::MAX,
    bytes: u64::MAX,
};

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

/// Brent's cycle finding over a path's state, kept in `S` (a [`Copies`] of the live state).
///
/// The tortoise need not be the deal: any state can be the first (the cycle length found is
/// exact, and the cycle start is found apart), so a path may save its first tortoise only
/// after a first window (`start`) in which most games end without copying anything.
#[derive(Clone, Debug)]
pub(crate) struct Brent<S> {
    tortoise: S,
    /// Whether the tortoise holds this game's state yet.
    holds: bool,
    /// The round after which the tortoise was saved.
    saved_at: u64,
    window: u64,
    /// The round after which the tortoise moves.
    next_save: u64,
}

impl<S> Brent<S> {
    /// A detector keeping its tortoise in `tortoise` (sized for the largest game, so that
    /// saving never allocates).
    pub fn new(tortoise: S) -> Brent<S> {
        Brent {
            tortoise,
            holds: false,
            saved_at: 0,
            window: 0,
            next_save: 0,
        }
    }

    /// Starts a game at round 0, with no tortoise yet: the first is saved after round
    /// `first_window` (or at round 0 by `save`).
    #[inline(always)]
    pub fn start(&mut self, first_window: u64) {
        self.holds = false;
        self.saved_at = 0;
        self.window = first_window;
        self.next_save = first_window;
    }

    /// The tortoise, once this game has one.
    #[inline(always)]
    pub fn tortoise(&self) -> Option<&S> {
        self.holds.then_some(&self.tortoise)
    }

    /// The round after which the tortoise moves: a fast loop must stop there.
    #[inline(always)]
    pub fn next_save(&self) -> u64 {
        self.next_save
    }

    /// The cycle length, when the live state after round `round` matches the tortoise.
    #[inline(always)]
    pub fn length(&self, round: u64) -> u64 {
        round - self.saved_at
    }

    /// Saves the live state after round `round` as the tortoise, without moving the window
    /// (the deal, at round 0).
    pub fn save<L>(&mut self, round: u64, live: &L)
    where
        S: Copies<L>,
    {
        self.tortoise.save(live);
        self.holds = true;
        self.saved_at = round;
    }

    /// Moves the tortoise to the live state after round `round`, which is `next_save`, and
    /// grows the window.
    #[inline(never)]
    pub fn moved<L>(&mut self, round: u64, live: &L)
    where
        S: Copies<L>,
    {
        debug_assert_eq!(round, self.next_save);
        self.save(round, live);
        self.window = next_window(self.window);
        self.next_save = round + self.window;
    }

    /// Called after each finished round at which a fast loop stopped: the cycle length once the
    /// state repeats. `could_match` is false when the path's cheap key has already ruled out a
    /// match; the tortoise moves when it is due either way.
    #[inline(always)]
    pub fn step<L>(&mut self, round: u64, live: &L, could_match: bool) -> Option<u64>
    where
        S: Copies<L>,
    {
        if could_match && self.holds && self.tortoise.matches(live) {
            return Some(self.length(round));
        }
        if round == self.next_save {
            self.moved(round, live);
        }
        None
    }
}

/// Snapshots kept at most; past that every other one is dropped and the spacing doubles, so a
/// very long game costs bounded memory.
pub(crate) const MOST_SNAPSHOTS: usize = 4096;

/// Snapshots of one game every `spacing` rounds (round 0 first), with the game's counts `T`
/// then, each in an `S` (a [`Copies`] of the live state) kept from game to game.
#[derive(Clone, Debug)]
pub(crate) struct History<S, T: Copy> {
    snapshots: Vec<(S, T)>,
    used: usize,
    /// The round-0 snapshot is the deal, not yet copied (`start_with_deal`).
    deal_pending: bool,
    spacing: u64,
    next_round: u64,
}

impl<S, T: Copy> History<S, T> {
    /// An empty history; `blank` makes a new snapshot when a game outgrows the ones kept.
    pub fn new() -> History<S, T> {
        History {
            snapshots: Vec::new(),
            used: 0,
            deal_pending: false,
            spacing: 0,
            next_round: 0,
        }
    }

    /// Forgets the previous game (keeps the memory): the next snapshot is round 0's, then one
    /// every `spacing` rounds.
    pub fn reset(&mut self, spacing: u64) {
        self.used = 0;
        self.deal_pending = false;
        self.spacing = spacing;
        self.next_round = 0;
    }

    /// Starts a game whose round-0 state is its deal, without copying it: most games end
    /// before any snapshot is read, and a game that needs it deals it again (`fill_deal`).
    pub fn start_with_deal(&mut self, counts: T, blank: impl FnOnce() -> S) {
        if self.snapshots.is_empty() {
            self.snapshots.push((blank(), counts));
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

    /// Saves `live`, the game's deal, as its round-0 snapshot.
    pub fn fill_deal<L>(&mut self, live: &L)
    where
        S: Copies<L>,
    {
        debug_assert!(self.deal_pending);
        self.snapshots[0].0.save(live);
        self.deal_pending = false;
    }

    /// Called after every round (and at round 0): saves the state when a snapshot is due.
    #[inline(always)]
    pub fn observe<L>(&mut self, round: u64, live: &L, counts: T, blank: impl FnOnce() -> S)
    where
        S: Copies<L>,
    {
        if round == self.next_round {
            self.save(live, counts, blank);
        }
    }

    /// Saves the state after round `next_round`.
    #[inline(never)]
    pub fn save<L>(&mut self, live: &L, counts: T, blank: impl FnOnce() -> S)
    where
        S: Copies<L>,
    {
        if self.used == MOST_SNAPSHOTS {
            for i in 0..self.used / 2 {
                self.snapshots.swap(i, 2 * i);
            }
            self.used /= 2;
            self.spacing *= 2;
        }
        if self.used == self.snapshots.len() {
            // Only when a game runs longer than any before it on this path.
            self.snapshots.push((blank(), counts));
        }
        let slot = &mut self.snapshots[self.used];
        slot.0.save(live);
        slot.1 = counts;
        self.used += 1;
        self.next_round = self.used as u64 * self.spacing;
    }

    /// The latest snapshot at or before `round`: its round, its state, its counts.
    pub fn at_or_before(&self, round: u64) -> (u64, &S, T) {
        debug_assert!(!self.deal_pending, "the deal is not saved yet");
        let index = ((round / self.spacing) as usize).min(self.used - 1);
        let (snapshot, counts) = &self.snapshots[index];
        (index as u64 * self.spacing, snapshot, *counts)
    }

    /// Rounds between two snapshots.
    pub fn spacing(&self) -> u64 {
        self.spacing
    }

    /// The round after which the next snapshot is due.
    #[inline(always)]
    pub fn next_round(&self) -> u64 {
        self.next_round
    }
}

/// What [`cycle_start`] needs of a path: states `Live` (hands with their counts) rebuilt at any
/// round of the game (from a [`History`], or by replaying from the deal), played on one round at
/// a time, and compared.
pub(crate) trait Replay {
    /// A state of the game with its counts.
    type Live;
    /// Puts the game's state after round `round` (and its counts then) into `live`.
    fn rebuild(&mut self, live: &mut Self::Live, round: u64);
    /// Plays one round of a game known to cycle (so it cannot end).
    fn step(&mut self, live: &mut Self::Live);
    /// Whether two states hold the same values in every hand.
    fn same(&self, a: &Self::Live, b: &Self::Live) -> bool;
}

/// The smallest round `mu` whose state recurs `lambda` rounds later, given that the state after
/// round `last` does; `behind` is left at round `mu`, `ahead` at `mu + lambda` (whose counts
/// are the game's counts). Snapshots every `spacing` rounds (round 0 first, [`u64::MAX`] for the
/// deal alone) bracket `mu` by a binary search for the first whose state recurs, which
/// `replay` rebuilds; then the two states step together until they match.
pub(crate) fn cycle_start<R: Replay>(
    replay: &mut R,
    [behind, ahead]: [&mut R::Live; 2],
    last: u64,
    spacing: u64,
    lambda: u64,
) -> u64 {
    // With one snapshot (the deal) there is nothing to search: step from it.
    let (mut lo, mut hi) = if spacing > last {
        (0, 0)
    } else {
        (0, last / spacing + 1)
    };
    while lo < hi {
        let mid = (lo + hi) / 2;
        replay.rebuild(behind, mid * spacing);
        replay.rebuild(ahead, mid * spacing + lambda);
        if replay.same(behind, ahead) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    // The cycle starts after the last snapshot that does not recur.
    let mut mu = if lo == 0 { 0 } else { (lo - 1) * spacing + 1 };
    replay.rebuild(behind, mu);
    replay.rebuild(ahead, mu + lambda);
    while !replay.same(behind, ahead) {
        replay.step(behind);
        replay.step(ahead);
        mu += 1;
        // The state after round `last` recurs: the search cannot pass it.
        assert!(mu <= last, "no cycle start found up to round {last}");
    }
    mu
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy game: the state after round `r` is `f^r(start)`, with counts `r`.
    impl Copies<u64> for u64 {
        fn save(&mut self, live: &u64) {
            *self = *live;
        }
        fn matches(&self, live: &u64) -> bool {
            self == live
        }
        fn restore(&self, live: &mut u64) {
            *live = *self;
        }
    }

    /// A sequence with a tail of `mu` states, then a loop of `lambda`.
    fn next(x: u64, mu: u64, lambda: u64) -> u64 {
        if x + 1 < mu + lambda {
            x + 1
        } else {
            mu
        }
    }

    struct Toy<'a> {
        history: &'a History<u64, u64>,
        mu: u64,
        lambda: u64,
    }

    impl Replay for Toy<'_> {
        type Live = (u64, u64);
        fn rebuild(&mut self, live: &mut (u64, u64), round: u64) {
            let (at, snapshot, counts) = self.history.at_or_before(round);
            snapshot.restore(&mut live.0);
            live.1 = counts;
            for _ in at..round {
                self.step(live);
            }
        }
        fn step(&mut self, live: &mut (u64, u64)) {
            live.0 = next(live.0, self.mu, self.lambda);
            live.1 += 1;
        }
        fn same(&self, a: &(u64, u64), b: &(u64, u64)) -> bool {
            a.0 == b.0
        }
    }

    /// Brent, the history (thinned past [`MOST_SNAPSHOTS`]) and the search find every cycle of
    /// the toy sequences exactly, for every first window and spacing.
    #[test]
    fn the_detector_finds_every_toy_cycle_exactly() {
        let mut checked = 0;
        for (mu, lambda) in [
            (0, 1),
            (0, 7),
            (1, 1),
            (5, 3),
            (64, 64),
            (300, 1),
            (9000, 40),
            (20000, 2500),
        ] {
            for (first_window, spacing) in [(1, 1), (64, 128), (256, 256), (3, 1000)] {
                let mut brent = Brent::new(0u64);
                let mut history = History::<u64, u64>::new();
                history.reset(spacing);
                brent.start(first_window);
                let mut x = 0u64;
                history.observe(0, &x, 0, || 0);
                let mut round = 0;
                let length = loop {
                    x = next(x, mu, lambda);
                    round += 1;
                    history.observe(round, &x, round, || 0);
                    if let Some(length) = brent.step(round, &x, true) {
                        break length;
                    }
                };
                assert_eq!(length, lambda, "mu {mu} lambda {lambda}");
                let spacing = history.spacing();
                let (mut behind, mut ahead) = ((0, 0), (0, 0));
                let mut toy = Toy {
                    history: &history,
                    mu,
                    lambda,
                };
                let start = cycle_start(
                    &mut toy,
                    [&mut behind, &mut ahead],
                    round - length,
                    spacing,
                    length,
                );
                assert_eq!(start, mu, "lambda {lambda} window {first_window}");
                assert_eq!(ahead.1, mu + lambda);
                checked += 1;
            }
        }
        assert_eq!(checked, 32);
    }
}
