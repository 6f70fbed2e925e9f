//! Card values, written notation, and the two decks.
//!
//! A card is one byte: `value << 3 | suit`. The engine compares `value` (`code >> 3`) and never
//! looks at the suit, which is kept only so that a trace can print the real card. Values run
//! 0 (`2`) to 12 (`A`); a joker has the value of an ace and its own suit code, so that it still
//! prints as `JK`.

use std::fmt;

/// One card: `value << 3 | suit`. Transparent, so that the engine may move several cards as
/// one word.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Card(pub u8);

/// Value of a two (weakest).
pub const TWO: u8 = 0;
/// Value of a three.
pub const THREE: u8 = 1;
/// Value of an ace, and of a joker.
pub const ACE: u8 = 12;
/// Number of distinct values (2 .. A).
pub const VALUES: u8 = 13;

const RANK_TEXT: [&str; 13] = [
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
];
const SUIT_TEXT: [char; 4] = ['H', 'D', 'C', 'S'];
const JOKER_SUIT: u8 = 4;

impl Card {
    /// A standard card from its value (0 = `2` .. 12 = `A`) and suit (0 H, 1 D, 2 C, 3 S).
    pub const fn new(value: u8, suit: u8) -> Card {
        Card(value << 3 | suit)
    }

    /// A joker: plays as an ace.
    pub const fn joker() -> Card {
        Card(ACE << 3 | JOKER_SUIT)
    }

    /// The value the game compares: 0 (`2`) to 12 (`A` or joker).
    #[inline(always)]
    pub const fn value(self) -> u8 {
        self.0 >> 3
    }

    pub const fn is_joker(self) -> bool {
        self.0 & 7 == JOKER_SUIT
    }

    /// Parses `10H`, `TD`, `qs`, `JK` (joker). Returns `None` for anything else.
    pub fn parse(text: &str) -> Option<Card> {
        let upper = text.trim().to_ascii_uppercase();
        if upper == "JK" {
            return Some(Card::joker());
        }
        if upper.len() < 2 || !upper.is_ascii() {
            return None;
        }
        let (rank, suit) = upper.split_at(upper.len() - 1);
        let suit = SUIT_TEXT.iter().position(|&s| s.to_string() == suit)? as u8;
        let value = match rank {
            "T" => 8,
            r => RANK_TEXT.iter().position(|&t| t == r)? as u8,
        };
        Some(Card::new(value, suit))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_joker() {
            return f.write_str("JK");
        }
        let suit = SUIT_TEXT[(self.0 & 7) as usize % 4];
        write!(f, "{}{}", RANK_TEXT[self.value() as usize], suit)
    }
}

/// Which deck a game is dealt from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DeckKind {
    /// 52 cards.
    Standard,
    /// Two standard decks and four jokers: 108 cards.
    Oorlog,
}

impl DeckKind {
    /// Cards in the deck (a deck is never empty).
    #[allow(clippy::len_without_is_empty)]
    pub const fn len(self) -> usize {
        match self {
            DeckKind::Standard => 52,
            DeckKind::Oorlog => 108,
        }
    }

    /// The sorted deck, before any shuffle: H, D, C, S, each ascending; oorlog repeats that and
    /// adds four jokers.
    pub fn sorted(self) -> Vec<Card> {
        let one: Vec<Card> = (0..4u8)
            .flat_map(|suit| (0..VALUES).map(move |value| Card::new(value, suit)))
            .collect();
        match self {
            DeckKind::Standard => one,
            DeckKind::Oorlog => {
                let mut deck = one.clone();
                deck.extend_from_slice(&one);
                deck.extend(std::iter::repeat_n(Card::joker(), 4));
                deck
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_written_form() {
        assert_eq!(Card::parse("10H"), Some(Card::new(8, 0)));
        assert_eq!(Card::parse("TD"), Some(Card::new(8, 1)));
        assert_eq!(Card::parse("td"), Some(Card::new(8, 1)));
        assert_eq!(Card::parse("AS"), Some(Card::new(12, 3)));
        assert_eq!(Card::parse("2c"), Some(Card::new(0, 2)));
        assert_eq!(Card::parse("JK").map(|c| c.value()), Some(ACE));
        for bad in ["", "1H", "11H", "AX", "A", "H", "10", "JKK", "ÄH", "10HH"] {
            assert_eq!(Card::parse(bad), None, "{bad:?} must not parse");
        }
    }

    #[test]
    fn prints_what_it_parses() {
        for card in DeckKind::Oorlog.sorted() {
            assert_eq!(Card::parse(&card.to_string()), Some(card));
        }
        assert_eq!(Card::parse("TH").unwrap().to_string(), "10H");
    }

    #[test]
    fn sorted_decks_follow_the_rules_order() {
        let deck = DeckKind::Standard.sorted();
        assert_eq!(deck.len(), 52);
        assert_eq!(deck[0].to_string(), "2H");
        assert_eq!(deck[12].to_string(), "AH");
        assert_eq!(deck[13].to_string(), "2D");
        assert_eq!(deck[51].to_string(), "AS");
        let oorlog = DeckKind::Oorlog.sorted();
        assert_eq!(oorlog.len(), 108);
        assert_eq!(oorlog[52].to_string(), "2H");
        assert!(oorlog[104..]
            .iter()
            .all(|c| c.is_joker() && c.value() == ACE));
    }
}
