//! How revealed cards are compared: the one place the ranking lives. Every table or branch-free
//! shortcut of the engine is derived from [`Strength`] and tested against it.

use super::deck::Deck;

/// How revealed cards are compared.
///
/// ```
/// use warsweep::{Preset, Ranking, Rules};
/// assert_eq!(Rules::preset(Preset::Oorlog).ranking(), Ranking::Oorlog);
/// assert_eq!("cyclic".parse::<Ranking>()?.to_string(), "cyclic");
/// # Ok::<(), warsweep::UnknownName>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Ranking {
    /// By value, the top value (ace, joker) highest.
    Standard,
    /// Ace/joker highest, but the strongest 2 or 3 takes the table when an ace or joker and a
    /// 2 or 3 are revealed together.
    Oorlog,
    /// Lowest beats highest: by value, but the lowest value takes the table when it is
    /// revealed with the top value (Lakshtanov and Roshchina); any deck of two values or more.
    Cyclic,
}

crate::rules::named!(
    Ranking,
    Standard = "standard",
    Oorlog = "oorlog",
    Cyclic = "cyclic"
);

/// A ranking applied to a deck: the top value (the ace) and the low values that beat it when
/// both are revealed, the strongest low value taking the table. Oorlog's low values are the 2s
/// and 3s (on decks that have aces, 2s and 3s: 12 or 13 values); the cyclic ranking's is the
/// lowest value, on any deck of two values or more. Otherwise the ranking is plain "highest
/// value wins".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Strength {
    /// The top value, when low values can beat it on this deck.
    pub ace: Option<u8>,
    /// Values `0..=low_top` beat the ace (only meaningful with `ace`).
    pub low_top: u8,
}

impl Strength {
    /// How `ranking` compares the values of `deck`.
    pub fn new(ranking: Ranking, deck: Deck) -> Strength {
        const PLAIN: Strength = Strength {
            ace: None,
            low_top: 0,
        };
        match ranking {
            // The ace is rank 12 and the 3 rank 1: a deck has them when its values reach them.
            Ranking::Oorlog => match (deck.value_of_rank(12), deck.value_of_rank(1)) {
                (Some(ace), Some(three)) => Strength {
                    ace: Some(ace),
                    low_top: three,
                },
                // Without a 2 or 3 (or an ace) the exception never applies.
                (None, _) | (_, None) => PLAIN,
            },
            Ranking::Cyclic if deck.values() >= 2 => Strength {
                ace: Some(deck.values() - 1),
                low_top: 0,
            },
            // A cyclic ranking on one value is refused by `Rules::build` (`OneValue`).
            Ranking::Standard | Ranking::Cyclic => PLAIN,
        }
    }

    /// Whether comparing is plain "highest value wins".
    pub fn is_plain(self) -> bool {
        self.ace.is_none()
    }

    /// Bits of the 2s and 3s (bit v for value v), empty when plain.
    #[inline(always)]
    pub const fn low_mask(self) -> u64 {
        match self.ace {
            Some(_) => (2u64 << self.low_top) - 1,
            None => 0,
        }
    }

    /// The strongest value among the values present in `seen` (bit v for value v, at least one
    /// bit): every player showing it is in the lead.
    #[inline(always)]
    pub const fn strongest_present(self, seen: u64) -> u8 {
        let lows = seen & self.low_mask();
        // The ace is the top value: shown, it leads unless a 2 or 3 is shown too. Chosen
        // without a branch: with several players an ace shows in about half the battles,
        // which no predictor can foresee.
        let ace = match self.ace {
            Some(ace) => 1 << ace,
            None => 0,
        };
        let counted = if (seen & ace != 0) & (lows != 0) {
            lows
        } else {
            seen
        };
        63 - counted.leading_zeros() as u8
    }

    /// The strongest value among `values`.
    #[inline(always)]
    pub fn strongest(self, values: impl IntoIterator<Item = u8>) -> u8 {
        let seen = values.into_iter().fold(0u64, |s, v| s | 1 << v);
        self.strongest_present(seen)
    }

    /// Whether value `a` beats value `b` (they differ) in a battle of two cards.
    #[cfg(test)]
    pub(crate) fn beats(self, a: u8, b: u8) -> bool {
        self.strongest([a, b]) == a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACE: u8 = 12;
    const THREE: u8 = 1;
    const TWO: u8 = 0;

    #[test]
    fn oorlog_twos_and_threes_beat_aces() {
        let oorlog = Strength::new(Ranking::Oorlog, Deck::OORLOG);
        let standard = Strength::new(Ranking::Standard, Deck::OORLOG);
        assert!(oorlog.beats(TWO, ACE));
        assert!(oorlog.beats(THREE, ACE));
        assert!(!oorlog.beats(ACE, TWO));
        assert!(oorlog.beats(ACE, 11));
        assert!(oorlog.beats(10, TWO));
        assert!(standard.beats(ACE, TWO));
        // 3, joker, 2: the 3 wins. Ace, joker, 2: the 2 wins.
        assert_eq!(oorlog.strongest([THREE, ACE, TWO]), THREE);
        assert_eq!(oorlog.strongest([ACE, ACE, TWO]), TWO);
        assert_eq!(oorlog.strongest([THREE, 10, 11]), 11);
        assert_eq!(standard.strongest([ACE, ACE, TWO]), ACE);
    }

    #[test]
    fn cyclic_lowest_beats_highest() {
        let cyclic = Strength::new(Ranking::Cyclic, Deck::STANDARD);
        assert!(cyclic.beats(TWO, ACE));
        assert!(!cyclic.beats(THREE, ACE));
        assert!(cyclic.beats(ACE, THREE));
        assert!(cyclic.beats(THREE, TWO));
        // The 2s lead when an ace shows; two of them tie.
        assert_eq!(cyclic.strongest([ACE, TWO, 10]), TWO);
        assert_eq!(cyclic.strongest([THREE, 10, TWO]), 10);
        // On bare values too, and on two values the lowest always wins.
        let twenty = Strength::new(Ranking::Cyclic, Deck::parse("1x20").unwrap());
        assert_eq!(twenty.strongest([0, 19]), 0);
        assert_eq!(twenty.strongest([0, 18]), 18);
        let two = Strength::new(Ranking::Cyclic, Deck::parse("4x2").unwrap());
        assert!(two.beats(0, 1));
    }

    #[test]
    fn the_exception_follows_the_deck() {
        // 12 values: 3 to A, so the 3 (value 0) still beats the ace (value 11).
        let twelve = Strength::new(Ranking::Oorlog, Deck::parse("4x12").unwrap());
        assert_eq!(twelve.strongest([0, 11]), 0);
        assert_eq!(twelve.strongest([1, 11]), 11);
        // 4x8 (7 to A) has no 2 or 3; 1x20 has no ace: both plain.
        assert!(Strength::new(Ranking::Oorlog, Deck::parse("4x8").unwrap()).is_plain());
        assert!(Strength::new(Ranking::Oorlog, Deck::parse("1x20").unwrap()).is_plain());
        let wide = Strength::new(Ranking::Standard, Deck::parse("1x64").unwrap());
        assert_eq!(wide.strongest([63, 0, 5]), 63);
    }
}
