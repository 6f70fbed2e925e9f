//! The deals a hunt makes and changes, as orders of values (`crate::deal::orders`, used from
//! here), and the hands it reads: checked against the setting's deck.

use crate::deal::dealt_span;
pub(crate) use crate::deal::orders::{
    hands_of, mutate, order_of, random_deal, sorted_values, value_counts,
};
#[cfg(test)]
use crate::deal::SplitMix64;
use crate::puzzles::{parse_hands, InputError};
use crate::rules::{Card, Rules};
use crate::text::count;

/// The hands `text` holds, values from 1, read as `play` reads hands (a deal on one line as
/// `1,2|3,4`, as reports and the record tables write it): a hunt's one grammar of hands.
pub(crate) fn read_hands(
    rules: &Rules,
    text: impl AsRef<[u8]>,
) -> Result<Vec<Vec<u8>>, InputError> {
    let hands = parse_hands(text.as_ref(), rules.deck())?;
    Ok((hands.iter())
        .map(|h| h.iter().map(|c| c.value() + 1).collect())
        .collect())
}

/// Why given hands are not a deal of the setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NotADeal {
    /// Not one hand a player.
    Players { hands: usize, players: usize },
    /// A hand of another size than the deal gives that player.
    Size {
        player: usize,
        holds: usize,
        dealt: usize,
    },
    /// A value the deck does not have.
    Value(u8),
    /// A value held another number of times than the deck has it.
    Count { value: u8, held: usize, deck: usize },
    /// More than half the deck, but not all of it.
    Missing(crate::rules::Missing),
}

impl std::fmt::Display for NotADeal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotADeal::Players { hands, players } => write!(
                f,
                "{} given, and the setting has {players} players",
                count(*hands as u64, "hand")
            ),
            NotADeal::Size {
                player,
                holds,
                dealt,
            } => write!(
                f,
                "player {} holds {}, and the deal gives {dealt}",
                player + 1,
                count(*holds as u64, "card")
            ),
            NotADeal::Value(v) => write!(f, "the deck has no value {v}"),
            NotADeal::Missing(missing) => write!(f, "{missing}"),
            NotADeal::Count { value, held, deck } => write!(
                f,
                "they hold value {value} {held} times, and the deck has it {deck} times"
            ),
        }
    }
}

/// Whether `hands` (values from 1) are a deal of `rules`: one hand a player, each of the size
/// the deal gives it, and together the deck's cards.
pub(crate) fn check_hands(rules: &Rules, hands: &[Vec<u8>]) -> Result<(), NotADeal> {
    let players = rules.players();
    if hands.len() != players {
        return Err(NotADeal::Players {
            hands: hands.len(),
            players,
        });
    }
    let deck = rules.deck();
    for &v in hands.iter().flatten() {
        if v == 0 || v > deck.values() {
            return Err(NotADeal::Value(v));
        }
    }
    let cards: Vec<Card> = (hands.iter().flatten())
        .map(|&v| deck.value_card(i64::from(v)).expect("a value of the deck"))
        .collect();
    if let Some(missing) = deck.missing(&cards) {
        return Err(NotADeal::Missing(missing));
    }
    for (player, hand) in hands.iter().enumerate() {
        let (_, _, dealt) = dealt_span(deck.size(), rules.deal(), players, player);
        if hand.len() != dealt {
            return Err(NotADeal::Size {
                player,
                holds: hand.len(),
                dealt,
            });
        }
    }
    let mut held = vec![0usize; usize::from(deck.values())];
    for &v in hands.iter().flatten() {
        match held.get_mut(usize::from(v).wrapping_sub(1)) {
            Some(count) => *count += 1,
            None => return Err(NotADeal::Value(v)),
        }
    }
    let sorted = sorted_values(rules);
    for (v, &count) in held.iter().enumerate() {
        let in_deck = sorted.iter().filter(|&&s| usize::from(s) == v).count();
        if count != in_deck {
            return Err(NotADeal::Count {
                value: v as u8 + 1,
                held: count,
                deck: in_deck,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Deal, Deck, Preset, Settings};

    /// Hands and deals convert both ways, dealt in blocks and round robin, for two and three
    /// players; a change keeps the deck's cards.
    #[test]
    fn hands_and_deals_convert_both_ways() {
        let mut checked = 0;
        for (deck, players, deal) in [
            ("4x13", 2, Deal::Blocks),
            ("4x13", 2, Deal::RoundRobin),
            ("1x11", 2, Deal::Blocks),
            ("3x5", 3, Deal::RoundRobin),
        ] {
            let mut settings = Settings::new(Preset::Oorlog)
                .deck(Deck::parse(deck).unwrap())
                .players(players)
                .deal(deal);
            if players == 2 {
                settings = Settings::new(Preset::Bataille)
                    .deck(Deck::parse(deck).unwrap())
                    .deal(deal);
            }
            let rules = settings.build().unwrap();
            let sorted = sorted_values(&rules);
            let mut cards = sorted.clone();
            cards.sort_unstable();
            let mut rng = SplitMix64(7);
            for _ in 0..50 {
                let mut order = random_deal(&sorted, &mut rng);
                let hands = hands_of(&rules, &order);
                assert_eq!(check_hands(&rules, &hands), Ok(()));
                assert_eq!(order_of(&rules, &hands), order);
                mutate(&mut order, &mut rng);
                let mut held = order.clone();
                held.sort_unstable();
                assert_eq!(held, cards);
                checked += 1;
            }
        }
        assert_eq!(checked, 200);
    }

    /// Hands that are not a deal are refused, each for its reason.
    #[test]
    fn hands_that_are_no_deal_are_refused() {
        let rules = Settings::new(Preset::Bataille)
            .deck(Deck::parse("2x3").unwrap())
            .build()
            .unwrap();
        let refused = [
            (
                vec![vec![1, 2, 3]],
                "1 hand given, and the setting has 2 players",
            ),
            (vec![vec![1, 2], vec![3, 1, 2, 3]], "player 1 holds 2 cards"),
            (
                vec![vec![1, 2, 4], vec![3, 1, 2]],
                "the deck has no value 4",
            ),
            (vec![vec![1, 1, 1], vec![2, 3, 3]], "value 1 3 times"),
            (
                vec![vec![0, 1, 2], vec![3, 1, 2]],
                "the deck has no value 0",
            ),
        ];
        for (hands, said) in &refused {
            let why = check_hands(&rules, hands).unwrap_err().to_string();
            assert!(why.contains(said), "{hands:?}: {why}");
        }
        assert_eq!(check_hands(&rules, &[vec![1, 2, 3], vec![3, 2, 1]]), Ok(()));
    }
}
