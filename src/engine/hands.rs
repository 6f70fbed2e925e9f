//! Every player's deck in one fixed array sized once per setup.
//!
//! Each player owns a region of `cards`; their hand is the contiguous run `head..tail` in it.
//! Revealing reads at `head`, winning writes at `tail`: no modulo or mask per card, and a hand is
//! always one slice, so saving or comparing states is a plain copy or comparison. When a hand's
//! tail comes within `room` (every card of the game) of its region's end, the hand slides back to
//! the region's start; with regions sixteen times the room this happens rarely and costs a copy
//! of one hand. (Eight times the room, oorlog's runs of three players stopped twice as often for
//! room: 12% more mispredicted branches, 4% slower.) Nothing here allocates after [`Hands::new`].

use crate::deal::{dealt_span, SplitMix64};
use crate::rules::{Card, Deal, Deck, MAX_PLAYERS};

/// Why given hands cannot be played.
///
/// ```
/// use warsweep::{Engine, HandsError, Preset, Rules, Silent};
/// let rules = Rules::preset(Preset::Codingame);
/// let one = vec![rules.deck().parse_card("AS").unwrap()];
/// let refused = Engine::new(rules).play_hands(&[one], 0, &mut Silent).unwrap_err();
/// assert_eq!(refused, HandsError::Players { hands: 1, players: 2 });
/// ```
#[derive(thiserror::Error, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HandsError {
    /// Not one hand a player.
    #[error("{hands} hands are given for {players} players")]
    Players {
        /// Hands given.
        hands: usize,
        /// Players of the rules.
        players: usize,
    },
    /// More cards than the engine has room for.
    #[error("the hands hold {total} cards, more than the engine was made for ({room}): make it with Engine::with_capacity")]
    TooManyCards {
        /// Cards given.
        total: usize,
        /// Cards the engine holds.
        room: usize,
    },
    /// An engine asked to hold more than [`MAX_CARDS`] cards.
    #[error("an engine holds at most {} cards, not {total}", crate::text::group(MAX_CARDS as u64))]
    Capacity {
        /// Cards asked for.
        total: usize,
    },
    /// A card of a value the deck does not have.
    #[error("a card of value {value} is not in the {deck} deck, whose values are 1 to {}", deck.values())]
    OutsideDeck {
        /// The card's value, from 1.
        value: u32,
        /// The rules' deck.
        deck: Deck,
    },
}

/// Most cards an engine holds in all hands: 65,536, over a hundred times the largest deck
/// (8 copies of 64 values and 64 jokers, 576 cards), and few enough that an engine, whose
/// hands each have room for several times the cards, stays within tens of megabytes.
pub const MAX_CARDS: usize = 1 << 16;

/// Checks that `hands` can be played by `players` players of `deck` in an engine of `room`
/// cards: one hand each (an empty hand has lost), every card a value of the deck.
pub fn check_hands(
    hands: &[Vec<Card>],
    players: usize,
    deck: Deck,
    room: usize,
) -> Result<(), HandsError> {
    if hands.len() != players {
        return Err(HandsError::Players {
            hands: hands.len(),
            players,
        });
    }
    let total: usize = hands.iter().map(Vec::len).sum();
    if total > room {
        return Err(HandsError::TooManyCards { total, room });
    }
    match hands.iter().flatten().find(|c| c.value() >= deck.values()) {
        Some(card) => Err(HandsError::OutsideDeck {
            value: u32::from(card.value()) + 1,
            deck,
        }),
        None => Ok(()),
    }
}

/// Every player's hand in one fixed array, for games of three or more players and observed games.
///
/// ```
/// use warsweep::{Engine, Hands, Observer, Preset, Rules, Shuffle};
/// /// Checks that no card is lost or made between rounds.
/// struct Held(u32);
/// impl Observer for Held {
///     fn round_end(&mut self, hands: &Hands) {
///         let held: u32 = (0..hands.players()).map(|p| hands.len(p)).sum();
///         assert_eq!(held, self.0);
///     }
/// }
/// let mut engine = Engine::new(Rules::preset(Preset::Oorlog));
/// engine.play_seed_observed(Shuffle::Lcg, 1, &mut Held(108))?;
/// # Ok::<(), warsweep::RangeError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Hands {
    pub(crate) cards: Box<[Card]>,
    pub(crate) head: [u32; MAX_PLAYERS],
    pub(crate) tail: [u32; MAX_PLAYERS],
    /// A hand whose tail passes this must slide back before it can take a full table again.
    pub(crate) limit: [u32; MAX_PLAYERS],
    region: u32,
    players: usize,
    /// Won piles (`--won-pile shuffled`): player `p`'s is `piles[p * room..][..piled[p]]`,
    /// bottom last. Empty when the rules keep none.
    piles: Box<[Card]>,
    piled: [u32; MAX_PLAYERS],
    /// Shuffles a won pile into a new hand; seeded once a game (`seed_piles`).
    pile_rng: SplitMix64,
}

impl Hands {
    /// Room for `players` hands of up to `room` cards each.
    pub(crate) fn new(players: usize, room: usize) -> Hands {
        assert!((1..=MAX_PLAYERS).contains(&players));
        // At least 16: the fast paths write a few cards past a tail in one go.
        let room = room.max(16) as u32;
        let region = (16 * room).max(256);
        let mut hands = Hands {
            cards: vec![Card::default(); region as usize * players].into_boxed_slice(),
            head: [0; MAX_PLAYERS],
            tail: [0; MAX_PLAYERS],
            limit: [0; MAX_PLAYERS],
            region,
            players,
            piles: Box::default(),
            piled: [0; MAX_PLAYERS],
            pile_rng: SplitMix64(0),
        };
        for p in 0..players {
            hands.limit[p] = p as u32 * region + region - room;
        }
        hands.clear();
        hands
    }

    /// The same, with a won pile for each player (`docs/rules.md`, "Won piles").
    pub(crate) fn with_won_piles(mut self) -> Hands {
        self.piles = vec![Card::default(); self.room() * self.players].into_boxed_slice();
        self
    }

    /// Seeds the generator that shuffles won piles into hands: once a game, from its seed.
    pub(crate) fn seed_piles(&mut self, seed: u64) {
        self.pile_rng = SplitMix64(seed);
    }

    /// Cards one hand can hold.
    pub(crate) fn room(&self) -> usize {
        (self.region - self.limit[0]) as usize
    }

    /// How many players hold hands.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Empties every hand and won pile.
    pub(crate) fn clear(&mut self) {
        for p in 0..self.players {
            self.head[p] = p as u32 * self.region;
            self.tail[p] = self.head[p];
        }
        self.piled = [0; MAX_PLAYERS];
    }

    /// Deals `deck` as `deal` says into empty hands at their regions' starts.
    pub(crate) fn deal(&mut self, deck: &[Card], deal: Deal) {
        self.clear();
        if deal == Deal::RoundRobin {
            match self.players {
                3 => return self.deal_rounds::<3>(deck),
                4 => return self.deal_rounds::<4>(deck),
                5 => return self.deal_rounds::<5>(deck),
                6 => return self.deal_rounds::<6>(deck),
                _ => {}
            }
        }
        for p in 0..self.players {
            let (start, step, count) = dealt_span(deck.len(), deal, self.players, p);
            let at = self.head[p] as usize;
            // An indexed copy: a third of the instructions of `dealt_to`'s iterator chain.
            let from = &deck[start.min(deck.len())..];
            for (i, slot) in self.cards[at..at + count].iter_mut().enumerate() {
                *slot = from[i * step];
            }
            self.tail[p] = (at + count) as u32;
        }
    }

    /// The round-robin deal to `P` players, a round of the deck at a time: the same hands as
    /// the general deal's strided copy, in a third of its instructions (the copy's stride and
    /// count are no longer unknown to the compiler).
    fn deal_rounds<const P: usize>(&mut self, deck: &[Card]) {
        let (rounds, extra) = (deck.len() / P, deck.len() % P);
        let mut regions = self.cards.chunks_exact_mut(self.region as usize);
        let mut hands: [&mut [Card]; P] = std::array::from_fn(|p| {
            let region = regions.next().expect("a region per player");
            &mut region[..rounds + usize::from(p < extra)]
        });
        for (i, round) in deck.chunks_exact(P).enumerate() {
            for (hand, &card) in hands.iter_mut().zip(round) {
                hand[i] = card;
            }
        }
        // The first players take the cards left over.
        for (hand, &card) in hands.iter_mut().zip(deck.chunks_exact(P).remainder()) {
            hand[rounds] = card;
        }
        for (p, hand) in hands.iter().enumerate() {
            self.tail[p] = self.head[p] + hand.len() as u32;
        }
    }

    #[inline(always)]
    /// How many cards player `p` holds: hand and won pile together.
    pub fn len(&self, p: usize) -> u32 {
        self.tail[p] - self.head[p] + self.piled[p]
    }

    /// Whether any player holds no card (in hand or won pile).
    #[inline(always)]
    pub(crate) fn any_empty(&self) -> bool {
        (0..self.players).any(|p| self.len(p) == 0)
    }

    /// Whether player `p`'s hand is empty and must first take its won pile (`take_pile`) to
    /// reveal or put down a card.
    #[inline(always)]
    pub(crate) fn must_take_pile(&self, p: usize) -> bool {
        self.head[p] == self.tail[p] && self.piled[p] > 0
    }

    /// Shuffles player `p`'s won pile (Fisher-Yates, as the `splitmix` shuffle) into their
    /// empty hand.
    #[cold]
    pub(crate) fn take_pile(&mut self, p: usize) {
        debug_assert!(self.must_take_pile(p));
        let (from, n) = (p * self.room(), self.piled[p] as usize);
        let pile = &mut self.piles[from..from + n];
        self.pile_rng.shuffle(pile);
        let start = p as u32 * self.region;
        self.cards[start as usize..start as usize + n].copy_from_slice(pile);
        (self.head[p], self.tail[p]) = (start, start + n as u32);
        self.piled[p] = 0;
    }

    /// Gives player `p` the cards of a won table, in order: to the bottom of their won pile if
    /// the rules keep one, else to the bottom of their hand.
    #[inline(always)]
    pub(crate) fn win(&mut self, p: usize, cards: &[Card]) {
        if self.piles.is_empty() {
            self.push_slice(p, cards);
        } else {
            let at = p * self.room() + self.piled[p] as usize;
            self.piles[at..at + cards.len()].copy_from_slice(cards);
            self.piled[p] += cards.len() as u32;
        }
    }

    /// Takes the top card of player `p`'s hand; the caller knows it is not empty (and has
    /// taken the won pile into an empty hand: `must_take_pile`).
    #[inline(always)]
    pub(crate) fn pop(&mut self, p: usize) -> Card {
        debug_assert!(
            self.head[p] < self.tail[p],
            "player {p} has no card to reveal"
        );
        let card = self.cards[self.head[p] as usize];
        self.head[p] += 1;
        card
    }

    /// Puts `card` at the bottom of player `p`'s hand. At most `room` cards may be pushed to a
    /// hand between two calls of `make_room`.
    #[inline(always)]
    pub(crate) fn push(&mut self, p: usize, card: Card) {
        self.cards[self.tail[p] as usize] = card;
        self.tail[p] += 1;
    }

    /// Puts `cards` at the bottom of player `p`'s hand, in order.
    #[inline(always)]
    pub(crate) fn push_slice(&mut self, p: usize, cards: &[Card]) {
        let t = self.tail[p] as usize;
        self.cards[t..t + cards.len()].copy_from_slice(cards);
        self.tail[p] += cards.len() as u32;
    }

    /// Slides player `p`'s hand back to the start of its region once its tail has used half the
    /// region, which always leaves room for a whole table more. Call after each round for the
    /// player who took the table.
    #[inline(always)]
    pub(crate) fn make_room(&mut self, p: usize) {
        if self.tail[p] > self.limit[p] - self.region / 2 {
            self.slide_back(p);
        }
    }

    #[inline(never)]
    fn slide_back(&mut self, p: usize) {
        let start = p as u32 * self.region;
        let (head, tail) = (self.head[p] as usize, self.tail[p] as usize);
        self.cards.copy_within(head..tail, start as usize);
        self.head[p] = start;
        self.tail[p] = start + (tail - head) as u32;
    }

    /// Player `p`'s cards from top to bottom.
    #[inline(always)]
    pub fn hand(&self, p: usize) -> &[Card] {
        &self.cards[self.head[p] as usize..self.tail[p] as usize]
    }

    /// The size of every hand.
    pub(crate) fn lens(&self) -> impl Iterator<Item = u32> + Clone + '_ {
        (0..self.players).map(|p| self.len(p))
    }

    /// Whether both hold the same sequence of values in every hand (suits ignored).
    pub(crate) fn same_values(&self, other: &Hands) -> bool {
        (0..self.players).all(|p| self.len(p) == other.len(p))
            && (0..self.players).all(|p| {
                self.hand(p)
                    .iter()
                    .zip(other.hand(p))
                    .all(|(a, b)| a.value() == b.value())
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_slide_back_without_losing_order() {
        let mut hands = Hands::new(2, 4);
        for round in 0..200u8 {
            let (first, second) = (Card::bare(round / 2), Card::bare(100 + round / 2));
            hands.push(1, first);
            hands.push(1, second);
            assert_eq!(hands.pop(1), first);
            hands.make_room(1);
            assert_eq!(hands.hand(1), [second]);
            assert_eq!(hands.pop(1), second);
        }
        assert_eq!(hands.len(1), 0);
        assert_eq!(hands.len(0), 0);
    }
}
