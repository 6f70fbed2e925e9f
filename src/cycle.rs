//! Exact detection of games that never end.
//!
//! A game's state after a round is the sequence of card values in each hand. Brent's algorithm
//! keeps one saved state (the tortoise) and compares the live hands (the hare) with it after every
//! round: the hand sizes first, which almost always differ, and the cards only when they match.
//! When the hare meets the tortoise, the distance between them is the exact cycle length; the
//! cycle start is then found by the engine (see `Engine::find_cycle_start`).

use crate::cards::Card;
use crate::hands::Hands;
use crate::rules::MAX_PLAYERS;

/// A copy of the card values in every hand.
#[derive(Clone, Debug)]
pub struct Snapshot {
    lens: [u32; MAX_PLAYERS],
    values: Vec<u8>,
}

impl Snapshot {
    /// Room for `total` cards, so that saving never allocates.
    pub fn with_capacity(total: usize) -> Snapshot {
        Snapshot {
            lens: [0; MAX_PLAYERS],
            values: Vec::with_capacity(total),
        }
    }

    pub fn save(&mut self, hands: &Hands) {
        self.values.clear();
        self.lens = [0; MAX_PLAYERS];
        for p in 0..hands.players() {
            self.lens[p] = hands.len(p);
            self.values.extend(hands.hand(p).map(Card::value));
        }
    }

    /// Whether `hands` holds exactly the saved values. Cheap when it does not: the sizes differ
    /// on most rounds, and the first cards on nearly all the others.
    #[inline(always)]
    pub fn matches(&self, hands: &Hands) -> bool {
        if self.lens[0] != hands.len(0) {
            return false;
        }
        self.matches_slow(hands)
    }

    #[inline(never)]
    fn matches_slow(&self, hands: &Hands) -> bool {
        if &self.lens[..hands.players()] != hands.lens() {
            return false;
        }
        let mut saved = self.values.iter();
        (0..hands.players()).all(|p| hands.hand(p).all(|c| saved.next() == Some(&c.value())))
    }

    /// Loads the saved values back into `hands` (suits are not kept: a replay does not need them).
    pub fn restore(&self, hands: &mut Hands) {
        hands.clear();
        let mut values = self.values.iter();
        for p in 0..hands.players() {
            for _ in 0..self.lens[p] {
                hands.push(
                    p,
                    Card::new(*values.next().expect("snapshot is complete"), 0),
                );
            }
        }
    }
}

/// Brent's cycle finding, one call per finished round.
#[derive(Clone, Debug)]
pub struct Brent {
    tortoise: Snapshot,
    power: u64,
    lam: u64,
}

impl Brent {
    pub fn with_capacity(total: usize) -> Brent {
        Brent {
            tortoise: Snapshot::with_capacity(total),
            power: 1,
            lam: 0,
        }
    }

    /// Starts from the deal (round 0).
    pub fn start(&mut self, hands: &Hands) {
        self.tortoise.save(hands);
        self.power = 1;
        self.lam = 0;
    }

    /// Called after each finished round; returns the cycle length once the state repeats.
    #[inline(always)]
    pub fn step(&mut self, hands: &Hands) -> Option<u64> {
        self.lam += 1;
        if self.tortoise.matches(hands) {
            return Some(self.lam);
        }
        if self.lam == self.power {
            self.tortoise.save(hands);
            self.power *= 2;
            self.lam = 0;
        }
        None
    }
}
