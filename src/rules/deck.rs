//! Decks of `C` copies of `V` values plus jokers (`--deck CxV[+J]`), their cards, and how cards
//! are written.
//!
//! A card is two bytes. The low byte is its value, `0..V` (0 weakest; a joker has the top
//! value): the only thing the game compares. The high byte is its face, kept only so that a
//! trace can print the real card: 0 for a card written as a bare value (`1..=V`), otherwise
//! `1 + (rank << 3 | suit)` with ranks 0 (`2`) to 12 (`A`), suits H D C S, and suit 4 for a joker.

use std::fmt;
use thiserror::Error;

/// One card: value in the low byte, face in the high byte.
///
/// ```
/// use warsweep::Deck;
/// let queen = Deck::STANDARD.parse_card("QH")?;
/// // Values count from 0, the weakest first: 2 is 0, the queen 10, the ace 12.
/// assert_eq!((queen.to_string(), queen.value()), ("QH".to_string(), 10));
/// // Bare values, as hands may give them, count from 1.
/// assert_eq!(Deck::STANDARD.value_card(11)?.value(), queen.value());
/// # Ok::<(), warsweep::CardError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Card(u16);

const RANK_TEXT: [&str; 13] = [
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
];
const SUIT_TEXT: [char; 4] = ['H', 'D', 'C', 'S'];
const JOKER_SUIT: u16 = 4;
/// Ranks from `2` to `A`: a deck of at most this many values uses the top ones.
pub const RANKS: u8 = 13;

impl Card {
    /// A card written as a bare value; `value` is 0-based (written `value + 1`).
    pub(crate) const fn bare(value: u8) -> Card {
        Card(value as u16)
    }

    /// A card with a face: `rank` 0 (`2`) to 12 (`A`), `suit` 0..4 (H D C S) or 4 (joker).
    const fn faced(value: u8, rank: u8, suit: u16) -> Card {
        Card(value as u16 | (1 + ((rank as u16) << 3 | suit)) << 8)
    }

    /// The value the game compares: 0 (weakest) to V - 1.
    #[inline(always)]
    pub const fn value(self) -> u8 {
        self.0 as u8
    }

    /// Whether the card is a joker (it plays as the top value).
    pub(crate) const fn is_joker(self) -> bool {
        let face = self.0 >> 8;
        face != 0 && (face - 1) & 7 == JOKER_SUIT
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let face = self.0 >> 8;
        if face == 0 {
            return write!(f, "{}", self.value() as u16 + 1);
        }
        let (rank, suit) = ((face - 1) >> 3, (face - 1) & 7);
        if suit == JOKER_SUIT {
            return f.write_str("JK");
        }
        write!(
            f,
            "{}{}",
            RANK_TEXT[rank as usize], SUIT_TEXT[suit as usize]
        )
    }
}

/// Most copies of each value a deck may have.
pub const MAX_COPIES: u8 = 8;
/// Most values a deck may have.
pub const MAX_VALUES: u8 = 64;
/// Most jokers a deck may have.
pub const MAX_JOKERS: u8 = 64;

/// `C` copies of each of `V` values, plus `J` jokers of the top value.
///
/// ```
/// use warsweep::Deck;
/// let deck = Deck::parse("4x4+2")?;
/// assert_eq!((deck.copies(), deck.values(), deck.jokers(), deck.size()), (4, 4, 2, 18));
/// assert_eq!(Deck::STANDARD.to_string(), "4x13");
/// assert_eq!(Deck::STANDARD.cards().len(), 52);
/// # Ok::<(), warsweep::DeckError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Deck {
    copies: u8,
    values: u8,
    jokers: u8,
}

#[derive(Error, Debug, PartialEq, Eq)]
/// Why `--deck` names no deck.
///
/// ```
/// use warsweep::Deck;
/// let refused = Deck::parse("9x4").unwrap_err();
/// assert_eq!(refused.to_string(), "deck 9x4: a deck has 1 to 8 copies of each value, not 9");
/// ```
#[non_exhaustive]
pub enum DeckError {
    #[error("{0:?} is not a deck: write CxV or CxV+J (C copies of V values, J jokers), as 4x13 or 8x13+4")]
    /// Not written `CxV` or `CxV+J`.
    Malformed(String),
    #[error("deck {0}: a deck has 1 to {max} copies of each value, not {1}", max = MAX_COPIES)]
    /// Copies outside 1 to 8 (`MAX_COPIES`).
    Copies(String, u32),
    #[error("deck {0}: a deck has 1 to {max} values, not {1}", max = MAX_VALUES)]
    /// Values outside 1 to 64 (`MAX_VALUES`).
    Values(String, u32),
    #[error("deck {0}: a deck has at most {max} jokers, not {1}", max = MAX_JOKERS)]
    /// More than 64 jokers (`MAX_JOKERS`).
    Jokers(String, u32),
    #[error("deck {0} has {1} card: a game needs at least 2")]
    /// Fewer than 2 cards.
    TooSmall(String, usize),
}

/// Why a word is not a card of a deck.
///
/// ```
/// use warsweep::Deck;
/// let refused = Deck::STANDARD.parse_card("JK").unwrap_err();
/// assert_eq!(refused.to_string(), "\"JK\": the 4x13 deck has no jokers");
/// ```
#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CardError {
    /// A number that is not one of the deck's values.
    #[error("{found:?} is not a value of the {deck} deck (1 to {})", deck.values)]
    NotAValue {
        /// The word.
        found: String,
        /// The deck.
        deck: Deck,
    },
    /// Neither a value nor a card.
    #[error("{found:?} is not a card (a rank 2-10, J, Q, K, A or T, then a suit H, D, C or S; JK for a joker; or a bare value 1 to {})", deck.values)]
    NotACard {
        /// The word.
        found: String,
        /// The deck.
        deck: Deck,
    },
    /// A card of a deck whose cards are bare values.
    #[error("{found:?}: the {deck} deck has more than 13 values, so its cards are bare values 1 to {}", deck.values)]
    Unranked {
        /// The word.
        found: String,
        /// The deck.
        deck: Deck,
    },
    /// A joker of a deck without jokers.
    #[error("{found:?}: the {deck} deck has no jokers")]
    NoJokers {
        /// The word.
        found: String,
        /// The deck.
        deck: Deck,
    },
    /// A rank the deck leaves out.
    #[error("{found:?} is not in the {deck} deck (its lowest rank is {lowest})")]
    BelowLowestRank {
        /// The word.
        found: String,
        /// The deck.
        deck: Deck,
        /// The deck's lowest rank.
        lowest: &'static str,
    },
}

impl Deck {
    /// Copies of each value, 1 to 8.
    #[inline(always)]
    pub const fn copies(self) -> u8 {
        self.copies
    }

    /// Values, 1 to 64.
    #[inline(always)]
    pub const fn values(self) -> u8 {
        self.values
    }

    /// Jokers of the top value.
    #[inline(always)]
    pub const fn jokers(self) -> u8 {
        self.jokers
    }

    /// The standard 52-card deck.
    pub const STANDARD: Deck = Deck {
        copies: 4,
        values: 13,
        jokers: 0,
    };
    /// Oorlog's two standard decks and four jokers: 108 cards.
    pub const OORLOG: Deck = Deck {
        copies: 8,
        values: 13,
        jokers: 4,
    };

    /// Parses `CxV` or `CxV+J` and checks the limits of `docs/rules.md`.
    pub fn parse(text: &str) -> Result<Deck, DeckError> {
        let t = text.trim();
        let bad = || DeckError::Malformed(text.to_string());
        let number = |s: &str| -> Result<u32, DeckError> {
            if s.is_empty() || s.len() > 6 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            s.parse().map_err(|_| bad())
        };
        let (shape, jokers) = match t.split_once('+') {
            Some((shape, j)) => (shape, number(j)?),
            None => (t, 0),
        };
        let (c, v) = shape.split_once(['x', 'X']).ok_or_else(bad)?;
        let (c, v) = (number(c)?, number(v)?);
        if !(1..=MAX_COPIES as u32).contains(&c) {
            return Err(DeckError::Copies(t.to_string(), c));
        }
        if !(1..=MAX_VALUES as u32).contains(&v) {
            return Err(DeckError::Values(t.to_string(), v));
        }
        if jokers > MAX_JOKERS as u32 {
            return Err(DeckError::Jokers(t.to_string(), jokers));
        }
        let deck = Deck {
            copies: c as u8,
            values: v as u8,
            jokers: jokers as u8,
        };
        if deck.size() < 2 {
            return Err(DeckError::TooSmall(t.to_string(), deck.size()));
        }
        Ok(deck)
    }

    /// Cards in the deck (at least 2 once parsed, so never empty).
    pub const fn size(self) -> usize {
        self.copies as usize * self.values as usize + self.jokers as usize
    }

    /// Whether the values are the top ranks of 2..A, so that cards have faces (`V <= 13`).
    pub(crate) const fn ranked(self) -> bool {
        self.values <= RANKS
    }

    /// How many cards have value `v` (0-based).
    pub(crate) fn count_of(self, v: u8) -> u32 {
        let top = u32::from(v + 1 == self.values) * self.jokers as u32;
        self.copies as u32 + top
    }

    /// The rank (0 = `2` .. 12 = `A`) of value `v` in a ranked deck.
    pub(crate) const fn rank_of(self, v: u8) -> u8 {
        v + RANKS - self.values
    }

    /// The value of `rank` (0 = `2` .. 12 = `A`) in a ranked deck, if the deck has it.
    pub(crate) const fn value_of_rank(self, rank: u8) -> Option<u8> {
        if self.ranked() && rank + self.values >= RANKS {
            Some(rank + self.values - RANKS)
        } else {
            None
        }
    }

    /// The `occurrence`-th card (from 0) of value `v` in sorted order: copy by copy, then the
    /// jokers. Suits follow the copies H, D, C, S, H, ...
    pub(crate) fn card(self, v: u8, occurrence: u32) -> Card {
        if !self.ranked() {
            return Card::bare(v);
        }
        let suit = if occurrence < self.copies as u32 {
            occurrence as u16 % 4
        } else {
            JOKER_SUIT
        };
        Card::faced(v, self.rank_of(v), suit)
    }

    /// Every card of the deck, sorted: each copy ascending, copy after copy, then the jokers.
    pub fn cards(self) -> Vec<Card> {
        let mut deck = Vec::with_capacity(self.size());
        for copy in 0..self.copies as u32 {
            deck.extend((0..self.values).map(|v| self.card(v, copy)));
        }
        for j in 0..self.jokers as u32 {
            deck.push(self.card(self.values - 1, self.copies as u32 + j));
        }
        deck
    }

    /// The bare card of value `value`, counted from 1 as the hands' bare values are.
    pub fn value_card(self, value: i64) -> Result<Card, CardError> {
        match u8::try_from(value) {
            Ok(v @ 1..) if v <= self.values => Ok(Card::bare(v - 1)),
            _ => Err(CardError::NotAValue {
                found: value.to_string(),
                deck: self,
            }),
        }
    }

    /// Reads one card: a bare value `1..=V`, or for a ranked deck `10H`, `TD`, `qs`, `JK`.
    pub fn parse_card(self, text: &str) -> Result<Card, CardError> {
        let t = text.trim();
        let (found, deck) = (t.to_string(), self);
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            return match t.parse::<i64>() {
                Ok(v) => self.value_card(v),
                Err(_) => Err(CardError::NotAValue { found, deck }),
            };
        }
        let Some((rank, suit)) = parse_face(t) else {
            return Err(CardError::NotACard { found, deck });
        };
        if !self.ranked() {
            return Err(CardError::Unranked { found, deck });
        }
        if suit == JOKER_SUIT {
            if self.jokers == 0 {
                return Err(CardError::NoJokers { found, deck });
            }
            return Ok(Card::faced(self.values - 1, RANKS - 1, JOKER_SUIT));
        }
        match self.value_of_rank(rank) {
            Some(v) => Ok(Card::faced(v, rank, suit)),
            None => Err(CardError::BelowLowestRank {
                found,
                deck,
                lowest: RANK_TEXT[self.rank_of(0) as usize],
            }),
        }
    }

    /// What `cards` hold beyond what one such deck deals: each card of a face (`AH`, `JK`) more
    /// often than the deck's copies give it, or for bare values each value more often than the
    /// deck holds it; [`None`] when one deck could deal them all. The CodinGame puzzle's own inputs
    /// repeat cards, and the game plays them as given: this says what a player should know.
    pub fn excess(self, cards: &[Card]) -> Option<Excess> {
        let mut values = [(Card::default(), 0u32); MAX_VALUES as usize];
        let mut faces = std::collections::BTreeMap::<u16, (Card, u32)>::new();
        for &card in cards {
            let seen = &mut values[card.value() as usize];
            if seen.1 == 0 {
                seen.0 = card;
            }
            seen.1 += 1;
            if card.0 >> 8 != 0 {
                faces.entry(card.0).or_insert((card, 0)).1 += 1;
            }
        }
        let mut over = Vec::new();
        for (_, (card, n)) in faces {
            // Copy c has suit c mod 4; the jokers are extra.
            let suit = ((card.0 >> 8) - 1) & 7;
            let held = if card.is_joker() {
                self.jokers as u32
            } else {
                (self.copies as u32 + 3 - suit as u32) / 4
            };
            if n > held {
                over.push(Over {
                    name: card.to_string(),
                    given: n,
                    held,
                });
            }
        }
        // Cards of faces within their copies are within their values' counts too.
        let faced = !over.is_empty();
        for v in (0..self.values).filter(|_| !faced) {
            let ((first, n), held) = (values[v as usize], self.count_of(v));
            if n > held {
                // Named as the hands write it: a bare value, or a rank.
                let name = if first.0 >> 8 == 0 {
                    format!("value {first}")
                } else {
                    format!("rank {}", RANK_TEXT[self.rank_of(v) as usize])
                };
                over.push(Over {
                    name,
                    given: n,
                    held,
                });
            }
        }
        (!over.is_empty()).then_some(Excess { deck: self, over })
    }

    /// What `cards` lack of the whole deck when they hold more than half of it but not all (a
    /// deal meant as the whole deck, with a card lost): each card (or, for bare values, each
    /// value) held fewer times than the deck has it. [`None`] for half the deck or fewer (the
    /// CodinGame puzzle's hands are often a few cards of a deck) and for the whole deck.
    ///
    /// ```
    /// use warsweep::Deck;
    /// let deck = Deck::STANDARD;
    /// let mut cards = deck.cards();
    /// cards.retain(|c| c.to_string() != "7H");
    /// let missing = deck.missing(&cards).expect("51 cards");
    /// assert_eq!(missing.to_string(), "the hands hold 51 of the 4x13 deck's 52 cards: 7H is missing");
    /// assert_eq!(deck.missing(&deck.cards()), None);
    /// assert_eq!(deck.missing(&deck.cards()[..10]), None);
    /// ```
    pub fn missing(self, cards: &[Card]) -> Option<Missing> {
        let size = self.size();
        if cards.len() >= size || cards.len() * 2 <= size {
            return None;
        }
        // Faces are named where every card given has one; else values.
        let faced = cards.iter().all(|c| c.0 >> 8 != 0);
        let key = |c: &Card| if faced { c.0 } else { u16::from(c.value()) };
        let mut short = std::collections::BTreeMap::<u16, (Card, i64)>::new();
        for card in self.cards() {
            short.entry(key(&card)).or_insert((card, 0)).1 += 1;
        }
        for card in cards {
            short.entry(key(card)).or_insert((*card, 0)).1 -= 1;
        }
        let short: Vec<(String, u32)> = (short.into_values())
            .filter(|&(_, n)| n > 0)
            .map(|(card, n)| match faced {
                true => (card.to_string(), n as u32),
                false => (format!("value {}", card.value() + 1), n as u32),
            })
            .collect();
        (!short.is_empty()).then_some(Missing {
            deck: self,
            given: cards.len(),
            short,
        })
    }

    /// The number of distinct deals (arrangements of the values), `N! / (n1! ... nV!)`.
    pub(crate) fn arrangements(self) -> BigCount {
        // The product of binomials C(n1 + .. + nv, nv): exact at every step.
        let mut m = BigCount::one();
        let mut placed = 0u32;
        for v in 0..self.values {
            let n = self.count_of(v);
            for i in 0..n {
                placed += 1;
                m.mul_small(placed);
                m.div_small(i + 1);
            }
        }
        m
    }
}

/// Rank (0 = `2` .. 12 = `A`) and suit of `10H`, `TD`, `qs`, or `JK` (suit 4).
fn parse_face(text: &str) -> Option<(u8, u16)> {
    let upper = text.to_ascii_uppercase();
    if upper == "JK" {
        return Some((RANKS - 1, JOKER_SUIT));
    }
    if upper.len() < 2 || !upper.is_ascii() {
        return None;
    }
    let (rank, suit) = upper.split_at(upper.len() - 1);
    let suit = SUIT_TEXT.iter().position(|&s| s.to_string() == suit)? as u16;
    let rank = match rank {
        "T" => 8,
        r => RANK_TEXT.iter().position(|&t| t == r)? as u8,
    };
    Some((rank, suit))
}

impl std::str::FromStr for Deck {
    type Err = DeckError;

    fn from_str(text: &str) -> Result<Deck, DeckError> {
        Deck::parse(text)
    }
}

impl fmt::Display for Deck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.copies, self.values)?;
        if self.jokers > 0 {
            write!(f, "+{}", self.jokers)?;
        }
        Ok(())
    }
}

/// A count too large for any machine word (the deals of a 52-card deck number about 9.2e49):
/// little-endian base-2^32 digits, with just what [`Deck::arrangements`] needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BigCount(Vec<u32>);

impl BigCount {
    fn one() -> BigCount {
        BigCount(vec![1])
    }

    fn mul_small(&mut self, k: u32) {
        let mut carry = 0u64;
        for digit in &mut self.0 {
            let x = *digit as u64 * k as u64 + carry;
            *digit = x as u32;
            carry = x >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// Divides by `k`, returning the remainder.
    fn div_small(&mut self, k: u32) -> u32 {
        let mut rem = 0u64;
        for digit in self.0.iter_mut().rev() {
            let x = rem << 32 | *digit as u64;
            *digit = (x / k as u64) as u32;
            rem = x % k as u64;
        }
        while self.0.len() > 1 && self.0.last() == Some(&0) {
            self.0.pop();
        }
        rem as u32
    }

    /// The count, if it fits in 128 bits.
    pub fn to_u128(&self) -> Option<u128> {
        if self.0.len() > 4 {
            return None;
        }
        Some(
            self.0
                .iter()
                .rev()
                .fold(0u128, |acc, &d| acc << 32 | d as u128),
        )
    }
}

impl fmt::Display for BigCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut n = self.clone();
        let mut chunks = Vec::new();
        loop {
            let rem = n.div_small(1_000_000_000);
            chunks.push(rem);
            if n.0 == [0] {
                break;
            }
        }
        let mut text = chunks.pop().unwrap_or(0).to_string();
        for chunk in chunks.iter().rev() {
            text.push_str(&format!("{chunk:09}"));
        }
        if text.len() <= 40 {
            return f.write_str(&text);
        }
        // Past 40 digits, scientific notation with the digit count.
        write!(f, "about {}.{}e{}", &text[..1], &text[1..3], text.len() - 1)
    }
}

/// One card or value held more often than a deck has it ([`Deck::excess`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Over {
    /// As the hands write it: `2D`, `value 1`, `rank A`.
    name: String,
    /// How many the hands hold.
    given: u32,
    /// How many the deck has.
    held: u32,
}

/// The cards or values that hands meant as a whole deck lack ([`Deck::missing`]), shown as one
/// sentence: `the hands hold 51 of the 4x13 deck's 52 cards: 7H is missing`.
///
/// ```
/// use warsweep::Deck;
/// let deck = Deck::parse("4x4")?;
/// let cards: Vec<_> = [1, 1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4]
///     .iter()
///     .map(|&v| deck.value_card(v))
///     .collect::<Result<_, _>>()?;
/// let missing = deck.missing(&cards).expect("12 of 16 cards");
/// assert_eq!(
///     missing.to_string(),
///     "the hands hold 12 of the 4x4 deck's 16 cards: value 1, value 2 twice and value 3 are missing"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    deck: Deck,
    given: usize,
    /// Each card or value short, and how many of it.
    short: Vec<(String, u32)>,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = (self.short.iter())
            .map(|(name, n)| match n {
                1 => name.clone(),
                2 => format!("{name} twice"),
                n => format!("{name} {n} times"),
            })
            .collect();
        let list = match names.as_slice() {
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
            [] => String::new(),
        };
        let short: u32 = self.short.iter().map(|s| s.1).sum();
        let is = if short > 1 { "are" } else { "is" };
        write!(
            f,
            "the hands hold {} of the {} deck's {} cards: {list} {is} missing",
            self.given,
            self.deck,
            self.deck.size()
        )
    }
}

/// The cards or values some hands hold beyond what their deck deals ([`Deck::excess`]), shown
/// as one sentence: `the hands hold 2D and KD twice, but the 4x13 deck has each once`.
///
/// ```
/// use warsweep::Deck;
/// let deck = Deck::STANDARD;
/// let cards = [deck.parse_card("AH")?, deck.parse_card("AH")?, deck.parse_card("KD")?];
/// let excess = deck.excess(&cards).expect("two aces of hearts");
/// assert_eq!(excess.to_string(), "the hands hold AH twice, but the 4x13 deck has it once");
/// let standard = ["AS", "AH", "KH"].map(|c| Deck::STANDARD.parse_card(c).unwrap());
/// assert_eq!(Deck::STANDARD.excess(&standard), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Excess {
    deck: Deck,
    over: Vec<Over>,
}

impl fmt::Display for Excess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let times = |n: u32| match n {
            1 => "once".to_string(),
            2 => "twice".to_string(),
            n => format!("{n} times"),
        };
        // Grouped by (held, in the deck), in the order first met.
        let mut groups: Vec<((u32, u32), Vec<&str>)> = Vec::new();
        for o in &self.over {
            match groups.iter_mut().find(|g| g.0 == (o.given, o.held)) {
                Some(g) => g.1.push(&o.name),
                None => groups.push(((o.given, o.held), vec![&o.name])),
            }
        }
        let deck = self.deck;
        for (i, ((given, held), names)) in groups.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            let values = names[0].starts_with("value ") || names[0].starts_with("rank ");
            let list = match names.as_slice() {
                [one] => (*one).to_string(),
                [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
                [] => String::new(),
            };
            let each = if names.len() > 1 { " each" } else { "" };
            if values {
                let cards = crate::text::count(*given, "card");
                let list = list
                    .replace(" and value ", " and ")
                    .replace(", value ", ", ");
                let list = list.replace(" and rank ", " and ").replace(", rank ", ", ");
                write!(
                    f,
                    "the hands hold {cards} of {list}, but the {deck} deck has {held}{each}"
                )?;
            } else if *held == 0 {
                let is = if names.len() > 1 {
                    "are not cards"
                } else {
                    "is not a card"
                };
                write!(f, "{list} {is} of the {deck} deck")?;
            } else {
                let it = if names.len() > 1 { "each" } else { "it" };
                write!(
                    f,
                    "the hands hold {list} {}, but the {deck} deck has {it} {}",
                    times(*given),
                    times(*held)
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard(text: &str) -> Card {
        Deck::STANDARD.parse_card(text).unwrap()
    }

    #[test]
    fn names_what_hands_hold_beyond_the_deck() {
        let excess = |deck: &str, cards: &str| {
            let deck = Deck::parse(deck).unwrap();
            let cards: Vec<Card> = cards
                .split_whitespace()
                .map(|c| deck.parse_card(c).unwrap())
                .collect();
            deck.excess(&cards).map_or(String::new(), |e| e.to_string())
        };
        assert_eq!(excess("4x13", "AH KD 2D 10S"), "");
        assert_eq!(
            excess("4x13", "AH KD AH 2D"),
            "the hands hold AH twice, but the 4x13 deck has it once"
        );
        assert_eq!(
            excess("4x13", "KD AH QH 2D KD AH QH 2D 3C"),
            "the hands hold 2D, QH, KD and AH twice, but the 4x13 deck has each once"
        );
        assert_eq!(
            excess("8x13", "AH AH AH 2S 2S 2S 2S"),
            "the hands hold 2S 4 times, but the 8x13 deck has it twice; \
             the hands hold AH 3 times, but the 8x13 deck has it twice"
        );
        assert_eq!(excess("1x13", "AS KH"), "AS is not a card of the 1x13 deck");
        assert_eq!(
            excess("4x4", "1 1 1 1 1 2 2 2"),
            "the hands hold 5 cards of value 1, but the 4x4 deck has 4"
        );
        assert_eq!(
            excess("1x5", "1 1 3 3 5"),
            "the hands hold 2 cards of value 1 and 3, but the 1x5 deck has 1 each"
        );
    }

    #[test]
    fn parses_every_written_form() {
        assert_eq!(standard("10H").to_string(), "10H");
        assert_eq!(standard("TD").to_string(), "10D");
        assert_eq!(standard("td").value(), 8);
        assert_eq!(standard("AS").value(), 12);
        assert_eq!(standard("2c").value(), 0);
        assert_eq!(Deck::OORLOG.parse_card("JK").unwrap().value(), 12);
        assert!(
            Deck::STANDARD.parse_card("JK").is_err(),
            "no jokers in 4x13"
        );
        for bad in [
            "", "1H", "11H", "AX", "A", "H", "JKK", "ÄH", "10HH", "0", "14",
        ] {
            assert!(
                Deck::STANDARD.parse_card(bad).is_err(),
                "{bad:?} must not parse"
            );
        }
        let piquet = Deck::parse("4x8").unwrap();
        assert_eq!(piquet.parse_card("7H").unwrap().value(), 0);
        assert_eq!(piquet.parse_card("AH").unwrap().value(), 7);
        assert!(piquet.parse_card("6H").is_err());
        assert_eq!(piquet.parse_card("8").unwrap(), Card::bare(7));
        assert!(Deck::parse("1x20").unwrap().parse_card("AH").is_err());
    }

    #[test]
    fn prints_what_it_parses() {
        for card in Deck::OORLOG.cards() {
            assert_eq!(Deck::OORLOG.parse_card(&card.to_string()), Ok(card));
        }
        assert_eq!(Card::bare(0).to_string(), "1");
        assert_eq!(Card::bare(63).to_string(), "64");
    }

    #[test]
    fn sorted_decks_follow_the_rules_order() {
        let deck = Deck::STANDARD.cards();
        assert_eq!(deck.len(), 52);
        assert_eq!(deck[0].to_string(), "2H");
        assert_eq!(deck[12].to_string(), "AH");
        assert_eq!(deck[13].to_string(), "2D");
        assert_eq!(deck[51].to_string(), "AS");
        let oorlog = Deck::OORLOG.cards();
        assert_eq!(oorlog.len(), 108);
        assert_eq!(oorlog[52].to_string(), "2H");
        assert!(oorlog[104..]
            .iter()
            .all(|c| c.is_joker() && c.value() == 12));
        let small = Deck::parse("4x4").unwrap().cards();
        let text: Vec<String> = small.iter().take(5).map(Card::to_string).collect();
        assert_eq!(text, ["JH", "QH", "KH", "AH", "JD"]);
        let bare = Deck::parse("1x20+2").unwrap().cards();
        assert_eq!(bare.len(), 22);
        assert_eq!(bare[21], Card::bare(19));
    }

    #[test]
    fn decks_parse_and_refuse() {
        assert_eq!(Deck::parse("4x13"), Ok(Deck::STANDARD));
        assert_eq!(Deck::parse("8x13+4"), Ok(Deck::OORLOG));
        assert_eq!(Deck::parse("1x5").unwrap().size(), 5);
        for bad in [
            "", "4", "4x", "x4", "4x4+", "a x b", "4x4x4", "-1x4", "4x4+-1",
        ] {
            assert!(
                matches!(Deck::parse(bad), Err(DeckError::Malformed(_))),
                "{bad:?}"
            );
        }
        assert!(matches!(Deck::parse("9x4"), Err(DeckError::Copies(..))));
        assert!(matches!(Deck::parse("0x4"), Err(DeckError::Copies(..))));
        assert!(matches!(Deck::parse("4x65"), Err(DeckError::Values(..))));
        assert!(matches!(Deck::parse("4x4+65"), Err(DeckError::Jokers(..))));
        assert!(matches!(Deck::parse("1x1"), Err(DeckError::TooSmall(..))));
        assert!(Deck::parse("1x1+1").is_ok());
    }

    #[test]
    fn counts_every_arrangement() {
        let m = |s: &str| Deck::parse(s).unwrap().arrangements();
        assert_eq!(m("4x4").to_u128(), Some(63_063_000));
        assert_eq!(m("4x5").to_u128(), Some(305_540_235_000));
        assert_eq!(m("1x10").to_u128(), Some(3_628_800));
        assert_eq!(m("2x1+1").to_u128(), Some(1));
        assert_eq!(m("4x13").to_string(), "about 9.20e49");
        assert_eq!(m("4x13").to_u128(), None);
    }
}
