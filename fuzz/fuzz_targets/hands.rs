//! The hands parser of `play`: any bytes, on any deck, give hands or one error, never a panic;
//! hands it accepts hold only the deck's values, and what they hold beyond the deck's copies
//! is named in a sentence.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warsweep::puzzles::parse_hands;
use warsweep::Deck;

const DECKS: [&str; 5] = ["4x13", "8x13+4", "4x4", "1x20+2", "2x64"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let deck = Deck::parse(DECKS[pick as usize % DECKS.len()]).expect("a deck");
    if let Ok(hands) = parse_hands(text, deck) {
        let cards: Vec<_> = hands.iter().flatten().copied().collect();
        if let Some(excess) = deck.excess(&cards) {
            assert!(!excess.to_string().is_empty());
        }
        assert!(cards.iter().all(|c| c.value() < deck.values()));
        assert!(hands.iter().all(|h| !h.is_empty()));
    }
});
