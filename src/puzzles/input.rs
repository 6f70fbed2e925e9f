//! Reading what users type or pipe in: hands (the CodinGame counting format, or bare values one
//! hand per line as the research programs print them), the seed-004 seed list, and the seed-003
//! battle arrays. Every error names the line and the text at fault.

use crate::engine::hands::MAX_CARDS;
use crate::rules::{Card, CardError, Deck};
use thiserror::Error;

#[derive(Error, Debug, PartialEq, Eq)]
/// Why hands, seeds or a battle cannot be read.
///
/// ```
/// use warsweep::puzzles::parse_seeds;
/// let refused = parse_seeds(b"x\n1 2\n").unwrap_err();
/// assert!(refused.to_string().contains("\"x\""));
/// ```
#[non_exhaustive]
pub enum InputError {
    #[error("the input is empty")]
    /// Nothing to read.
    Empty,
    #[error("the input is not text (invalid UTF-8 at byte {0})")]
    /// Bytes that are not UTF-8.
    NotText(usize),
    #[error("line {line}: expected the card count of player {player}, found {found:?}")]
    /// A card count that is not a number.
    NotACount {
        /// The line, from 1.
        line: usize,
        /// The player, from 1.
        player: usize,
        /// What stands there.
        found: String,
    },
    #[error("line {line}: player {player} has an empty deck (count 0)")]
    /// A count of 0 cards.
    EmptyDeck {
        /// The line, from 1.
        line: usize,
        /// The player, from 1.
        player: usize,
    },
    #[error("line {line}: {reason}{hint}")]
    /// A word that is not a card.
    NotACard {
        /// The line, from 1.
        line: usize,
        /// The word.
        found: String,
        /// Why it is no card.
        reason: String,
        /// What probably went wrong.
        hint: String,
    },
    #[error("line {line} is not a hand of bare values (as 1,3,2,2 or [1, 3, 2, 2]): {found:?}")]
    /// A line, or a part of it between `|`, that is not a hand of bare values.
    NotAHand {
        /// The line, from 1.
        line: usize,
        /// The hand's text.
        found: String,
    },
    #[error("line {line}: {reason}")]
    /// A bare value the deck does not have.
    NotAValueOfTheDeck {
        /// The line, from 1.
        line: usize,
        /// Why.
        reason: CardError,
    },
    #[error("player {player}: the count on line {line} says {} but the input ends after {got}", crate::text::count(*count as u64, "card"))]
    /// Fewer cards than a count announced.
    TooFewCards {
        /// The player, from 1.
        player: usize,
        /// The count's line.
        line: usize,
        /// The count.
        count: usize,
        /// The cards found.
        got: usize,
    },
    #[error("line {line}: the hands hold more than {} cards, the most one game is played with", crate::text::group(MAX_CARDS as u64))]
    /// More cards in all hands than an engine holds ([`MAX_CARDS`]): refused as soon as they are
    /// read, before a game would need memory for them.
    TooManyCards {
        /// The line the first card past the limit stands on, from 1.
        line: usize,
    },
    #[error("line {line}: expected the number of seeds, found {found:?}")]
    /// A seed count that is not a number.
    NotASeedCount {
        /// The line, from 1.
        line: usize,
        /// What stands there.
        found: String,
    },
    #[error(
        "line {line}: {found:?} is not a seed (a whole number from 0 to 18446744073709551615)"
    )]
    /// A seed that is not a 64-bit whole number.
    NotASeed {
        /// The line, from 1.
        line: usize,
        /// What stands there.
        found: String,
    },
    #[error("line 1 says {} but the input has {got}", crate::text::count(*count as u64, "seed"))]
    /// Fewer or more seeds than announced.
    SeedCount {
        /// The seeds announced.
        count: usize,
        /// The seeds found.
        got: usize,
    },
    #[error("{found:?} is not a card value (1 = ace or joker, 2 to 10, 11 = jack, 12 = queen, 13 = king)")]
    /// A battle value outside 1 to 13.
    NotAValue {
        /// What stands there.
        found: String,
    },
}

/// The input as text, without the byte-order mark some editors put first.
fn text(input: &[u8]) -> Result<&str, InputError> {
    let text = std::str::from_utf8(input).map_err(|e| InputError::NotText(e.valid_up_to()))?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// Words of the input with the line each stands on (1-based).
fn words(input: &[u8]) -> Result<Vec<(usize, &str)>, InputError> {
    let text = text(input)?;
    let words: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .flat_map(|(i, line)| line.split_whitespace().map(move |w| (i + 1, w)))
        .collect();
    if words.is_empty() {
        return Err(InputError::Empty);
    }
    Ok(words)
}

/// Whether `word` is a card in rank-and-suit notation (`10H`, `td`, `JK`), not a bare value.
fn is_face(word: &str) -> bool {
    !word.bytes().all(|b| b.is_ascii_digit()) && Deck::OORLOG.parse_card(word).is_ok()
}

/// Hands for a game on `deck`, in either form: the CodinGame counting format (a count, then that
/// many cards in rank-and-suit notation, for each player in turn), or one hand per line of bare
/// values (`1,3,2,2`, `1 3 2 2`, `[1, 3, 2, 2]`). The counting format is recognised by a first
/// line holding one number followed by a word with a letter (a card, or a mistyped one).
/// Hands may hold a card more often than the deck has it, as the puzzle's own inputs do: they
/// are played as given, and [`Deck::excess`] says which.
pub fn parse_hands(input: &[u8], deck: Deck) -> Result<Vec<Vec<Card>>, InputError> {
    let words = words(input)?;
    let first_line: Vec<&(usize, &str)> = words.iter().filter(|w| w.0 == words[0].0).collect();
    let counting = first_line.len() == 1
        && words[0].1.parse::<usize>().is_ok()
        && words
            .get(1)
            .is_some_and(|w| w.1.bytes().any(|b| b.is_ascii_alphabetic()));
    let hands = if counting {
        parse_counted_hands(&words, deck)?
    } else {
        parse_bare_hands(input, deck)?
    };
    Ok(hands)
}

/// One hand per non-empty line, bare values separated by commas or spaces, optionally in
/// `[ ]`; or several hands on a line separated by `|` (`1,3|2,2`, as hunts' reports and the
/// record tables write a deal).
fn parse_bare_hands(input: &[u8], deck: Deck) -> Result<Vec<Vec<Card>>, InputError> {
    let text = text(input)?;
    let mut hands = Vec::new();
    let mut total = 0;
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        for part in raw.split('|') {
            hands.push(parse_bare_hand(part.trim(), i + 1, deck, &mut total)?);
        }
    }
    Ok(hands)
}

/// One hand of bare values, `hand` on line `line`; `total` counts the input's cards so far.
fn parse_bare_hand(
    hand: &str,
    line: usize,
    deck: Deck,
    total: &mut usize,
) -> Result<Vec<Card>, InputError> {
    let not_a_hand = || InputError::NotAHand {
        line,
        found: hand.to_string(),
    };
    let inner = match (hand.strip_prefix('['), hand.ends_with(']')) {
        (Some(rest), true) => &rest[..rest.len() - 1],
        (None, false) => hand,
        _ => return Err(not_a_hand()),
    };
    let mut cards = Vec::new();
    for token in inner.split(|c: char| c == ',' || c.is_whitespace()) {
        if token.is_empty() {
            continue;
        } else if !token.bytes().all(|b| b.is_ascii_digit()) {
            return Err(not_a_hand());
        }
        let card = (deck.parse_card(token))
            .map_err(|reason| InputError::NotAValueOfTheDeck { line, reason })?;
        *total += 1;
        if *total > MAX_CARDS {
            return Err(InputError::TooManyCards { line });
        }
        cards.push(card);
    }
    if cards.is_empty() {
        return Err(not_a_hand());
    }
    Ok(cards)
}

/// The CodinGame format: a count, then that many cards, for each player in turn. Cards may
/// stand one per line (as CodinGame gives them) or several to a line.
fn parse_counted_hands(words: &[(usize, &str)], deck: Deck) -> Result<Vec<Vec<Card>>, InputError> {
    let mut hands: Vec<Vec<Card>> = Vec::new();
    let (mut rest, mut total) = (words, 0);
    while let Some(&(line, word)) = rest.first() {
        let player = hands.len() + 1;
        let count = read_count(line, word, player, hands.last().map(Vec::len))?;
        total = count.saturating_add(total);
        if total > MAX_CARDS {
            return Err(InputError::TooManyCards { line });
        }
        let cards = &rest[1..];
        let mut hand = Vec::with_capacity(count.min(cards.len()));
        for &(card_line, text) in cards.iter().take(count) {
            hand.push(read_card(
                card_line,
                text,
                deck,
                (player, line, count, hand.len()),
            )?);
        }
        if hand.len() < count {
            return Err(InputError::TooFewCards {
                player,
                line,
                count,
                got: hand.len(),
            });
        }
        hands.push(hand);
        rest = &cards[count..];
    }
    Ok(hands)
}

/// Player `player`'s card count, the `word` on line `line`: a count of at least 1. A card
/// there says that the previous player (holding `previous` cards) was given too small a count.
fn read_count(
    line: usize,
    word: &str,
    player: usize,
    previous: Option<usize>,
) -> Result<usize, InputError> {
    let found = word.to_string();
    let count: usize = match word.parse() {
        Ok(n) => n,
        Err(_) => {
            return Err(match (is_face(word), previous) {
                (true, Some(previous)) => InputError::NotACard {
                    line,
                    reason: format!("{found:?} is a card"),
                    found,
                    hint: format!(
                        " where player {player}'s card count should be: player {} was given \
                         {} but has more",
                        player - 1,
                        crate::text::count(previous as u64, "card")
                    ),
                },
                _ => InputError::NotACount {
                    line,
                    player,
                    found,
                },
            });
        }
    };
    if count == 0 {
        return Err(InputError::EmptyDeck { line, player });
    }
    Ok(count)
}

/// The card `text` on line `card_line` of the deck, in the hand of `player` whose count on
/// line `line` says `count` cards, `so_far` of them read: a number there (a count, not a card)
/// says that the count was too large.
fn read_card(
    card_line: usize,
    text: &str,
    deck: Deck,
    (player, line, count, so_far): (usize, usize, usize, usize),
) -> Result<Card, InputError> {
    let parsed = if text.bytes().all(|b| b.is_ascii_digit()) {
        Err(format!("{text:?} is not a card"))
    } else {
        deck.parse_card(text).map_err(|e| e.to_string())
    };
    parsed.map_err(|reason| {
        let hint = if text.parse::<usize>().is_ok() {
            format!(
                "; player {player}'s count on line {line} says {} but only {} before it",
                crate::text::count(count as u64, "card"),
                match so_far {
                    1 => "1 comes".to_string(),
                    n => format!("{n} come"),
                }
            )
        } else {
            String::new()
        };
        InputError::NotACard {
            line: card_line,
            found: text.to_string(),
            reason,
            hint,
        }
    })
}

/// The seed-004 input: the number of seeds, then the seeds.
pub fn parse_seeds(input: &[u8]) -> Result<Vec<u64>, InputError> {
    let words = words(input)?;
    let (line, first) = words[0];
    let count: usize = first.parse().map_err(|_| InputError::NotASeedCount {
        line,
        found: first.to_string(),
    })?;
    let seeds = words[1..]
        .iter()
        .map(|&(line, w)| {
            w.parse::<u64>().map_err(|_| InputError::NotASeed {
                line,
                found: w.to_string(),
            })
        })
        .collect::<Result<Vec<u64>, _>>()?;
    if seeds.len() != count {
        return Err(InputError::SeedCount {
            count,
            got: seeds.len(),
        });
    }
    Ok(seeds)
}

/// The seed-003 battle array: `[4, 8, 11]`, `4,8,11` or `4 8 11`; values 1 to 13.
pub fn parse_battle_values(input: &str) -> Result<Vec<u8>, InputError> {
    let values: Vec<u8> = input
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| match w.parse::<u8>() {
            Ok(v @ 1..=13) => Ok(v),
            _ => Err(InputError::NotAValue {
                found: w.to_string(),
            }),
        })
        .collect::<Result<_, _>>()?;
    if values.is_empty() {
        return Err(InputError::Empty);
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_hands_std(input: &[u8]) -> Result<Vec<Vec<Card>>, InputError> {
        parse_hands(input, Deck::STANDARD)
    }

    #[test]
    fn reads_bare_values_in_every_form() {
        let deck = Deck::parse("4x4").unwrap();
        for text in [
            "1,3,2,2\n4,4,3,4\n",
            "1 3 2 2\n4 4 3 4",
            "[1, 3, 2, 2]\n[4, 4, 3, 4]\n",
            "1,3,2,2|4,4,3,4\n",
            "[1, 3, 2, 2] | 4 4 3 4",
        ] {
            let hands = parse_hands(text.as_bytes(), deck).unwrap();
            let values: Vec<Vec<u8>> = hands
                .iter()
                .map(|h| h.iter().map(|c| c.value() + 1).collect())
                .collect();
            assert_eq!(values, [vec![1, 3, 2, 2], vec![4, 4, 3, 4]]);
            assert_eq!(hands[0][0].to_string(), "1");
        }
        // A single-card hand per line is bare too.
        assert_eq!(
            parse_hands(b"5\n3\n", Deck::parse("1x5").unwrap())
                .unwrap()
                .len(),
            2
        );
        let err = parse_hands(b"1,3,5\n2\n", deck).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1: \"5\" is not a value of the 4x4 deck (1 to 4)"
        );
        let err = parse_hands(b"1,3\nhello\n", deck).unwrap_err();
        assert!(err.to_string().starts_with("line 2 is not a hand"), "{err}");
        assert!(parse_hands(b"[1, 2\n", deck).is_err());
        // A deal on one line: each part between bars is a hand, none empty.
        let err = parse_hands(b"1,3|\n", deck).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1 is not a hand of bare values (as 1,3,2,2 or [1, 3, 2, 2]): \"\""
        );
        let err = parse_hands(b"1,3|2,x\n", deck).unwrap_err();
        assert!(err.to_string().ends_with(": \"2,x\""), "{err}");
    }

    #[test]
    fn reads_the_codingame_example() {
        let input = b"7\n10D\n9S\n8D\nKH\n7D\n5H\n6S\n7\n10H\n7H\n5C\nQC\n2C\n4H\n6D\n";
        let hands = parse_hands(input, Deck::STANDARD).unwrap();
        assert_eq!(hands.len(), 2);
        assert_eq!(hands[0][0].to_string(), "10D");
        assert_eq!(hands[1][6].to_string(), "6D");
    }

    #[test]
    fn names_the_line_and_text_of_bad_input() {
        let err = parse_hands_std(b"2\nAH\nXX\n1\nKS\n").unwrap_err();
        assert!(
            err.to_string().starts_with("line 3: \"XX\" is not a card"),
            "{err}"
        );
        let err = parse_hands_std(b"3\nAH\nKD\n1\nKS\n").unwrap_err();
        assert!(
            err.to_string()
                .contains("says 3 cards but only 2 come before it"),
            "{err}"
        );
        let err = parse_hands_std(b"1\nAH\nKD\n1\nKS\n").unwrap_err();
        assert!(
            err.to_string()
                .contains("player 1 was given 1 card but has more"),
            "{err}"
        );
        let err = parse_hands_std(b"5\nAH\nKD\n").unwrap_err();
        assert_eq!(
            err,
            InputError::TooFewCards {
                player: 1,
                line: 1,
                count: 5,
                got: 2
            }
        );
        assert_eq!(
            parse_hands_std(b"0\nKS\n1\nKS\n").unwrap_err(),
            InputError::EmptyDeck { line: 1, player: 1 }
        );
        // Without a card after it, a lone number is a hand of one bare value.
        assert!(matches!(
            parse_hands_std(b"0\n1\nKS\n").unwrap_err(),
            InputError::NotAValueOfTheDeck { line: 1, .. }
        ));
        assert_eq!(parse_hands_std(b" \n\n").unwrap_err(), InputError::Empty);
        assert_eq!(
            parse_hands_std(b"2\n\xff\xfe").unwrap_err(),
            InputError::NotText(2)
        );
    }

    #[test]
    fn reads_seed_lists() {
        assert_eq!(
            parse_seeds(b"3\n8756942\n0\n4775558\n").unwrap(),
            [8756942, 0, 4775558]
        );
        assert!(parse_seeds(b"3\n1\n2\n").is_err());
        assert!(parse_seeds(b"1\n-4\n").is_err());
        assert!(parse_seeds(b"x\n1\n").is_err());
    }

    #[test]
    fn reads_battle_arrays_in_every_form() {
        for text in ["[4, 8, 11]", "4,8,11", "4 8 11", " [4,8,11]\n"] {
            assert_eq!(parse_battle_values(text).unwrap(), [4, 8, 11]);
        }
        assert!(parse_battle_values("[4, 14, 11]").is_err());
        assert!(parse_battle_values("[0]").is_err());
        assert!(parse_battle_values("[]").is_err());
    }
}
