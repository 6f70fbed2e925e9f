//! Every player's deck as a ring buffer, all in one fixed array sized once per setup.
//!
//! Each player owns a power-of-two slice of `cards`, large enough to hold every card in the game,
//! so a push never overflows and a position is found with one mask. Nothing here allocates after
//! `Hands::new`.

use crate::cards::Card;
use crate::rules::MAX_PLAYERS;

#[derive(Clone, Debug)]
pub struct Hands {
    cards: Box<[Card]>,
    head: [u32; MAX_PLAYERS],
    len: [u32; MAX_PLAYERS],
    players: usize,
    shift: u32,
    mask: u32,
}

impl Hands {
    /// Room for `players` hands of up to `capacity` cards each.
    pub fn new(players: usize, capacity: usize) -> Hands {
        assert!((1..=MAX_PLAYERS).contains(&players));
        let slot = capacity.max(2).next_power_of_two();
        Hands {
            cards: vec![Card(0); slot * players].into_boxed_slice(),
            head: [0; MAX_PLAYERS],
            len: [0; MAX_PLAYERS],
            players,
            shift: slot.trailing_zeros(),
            mask: slot as u32 - 1,
        }
    }

    /// Cards one hand can hold.
    pub fn capacity(&self) -> usize {
        self.mask as usize + 1
    }

    pub fn players(&self) -> usize {
        self.players
    }

    /// Empties every hand.
    pub fn clear(&mut self) {
        self.head = [0; MAX_PLAYERS];
        self.len = [0; MAX_PLAYERS];
    }

    #[inline(always)]
    fn slot(&self, p: usize, i: u32) -> usize {
        (p << self.shift) | (i & self.mask) as usize
    }

    #[inline(always)]
    pub fn len(&self, p: usize) -> u32 {
        self.len[p]
    }

    pub fn lens(&self) -> &[u32] {
        &self.len[..self.players]
    }

    /// Takes the top card of player `p`'s hand; the caller knows it is not empty.
    #[inline(always)]
    pub fn pop(&mut self, p: usize) -> Card {
        debug_assert!(self.len[p] > 0, "player {p} has no card to reveal");
        let card = self.cards[self.slot(p, self.head[p])];
        self.head[p] = self.head[p].wrapping_add(1);
        self.len[p] -= 1;
        card
    }

    /// Puts `card` at the bottom of player `p`'s hand.
    #[inline(always)]
    pub fn push(&mut self, p: usize, card: Card) {
        debug_assert!((self.len[p] as usize) < self.capacity());
        let at = self.slot(p, self.head[p].wrapping_add(self.len[p]));
        self.cards[at] = card;
        self.len[p] += 1;
    }

    /// Player `p`'s cards from top to bottom.
    pub fn hand(&self, p: usize) -> impl Iterator<Item = Card> + '_ {
        (0..self.len[p]).map(move |i| self.cards[self.slot(p, self.head[p].wrapping_add(i))])
    }

    /// Whether both hold the same sequence of values in every hand (suits ignored).
    pub fn same_values(&self, other: &Hands) -> bool {
        self.lens() == other.lens()
            && (0..self.players).all(|p| {
                self.hand(p)
                    .zip(other.hand(p))
                    .all(|(a, b)| a.value() == b.value())
            })
    }

    /// Copies `other`'s state into `self` (same shape).
    pub fn copy_from(&mut self, other: &Hands) {
        debug_assert_eq!(self.cards.len(), other.cards.len());
        self.cards.copy_from_slice(&other.cards);
        self.head = other.head;
        self.len = other.len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_wrap_around_without_losing_order() {
        let mut hands = Hands::new(2, 4);
        for round in 0..10u8 {
            hands.push(1, Card(round));
            hands.push(1, Card(round + 100));
            assert_eq!(hands.pop(1), Card(round));
            assert_eq!(hands.pop(1), Card(round + 100));
        }
        assert_eq!(hands.len(1), 0);
        assert_eq!(hands.len(0), 0);
    }
}
