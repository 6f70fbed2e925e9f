//! The differential target: arbitrary hands under arbitrary valid rules, played by every fast
//! path (two-player words and byte arrays, the crowd runs of three or more players), by the
//! general path that reports every event, and by the test suite's plain second implementation
//! (`tests/suite/plain.rs`, which shares no engine code). Results must be equal, and nothing
//! may read or write out of bounds (AddressSanitizer watches the unsafe blocks).
#![no_main]

/// The oracle: the test suite's plain implementation of the rules, included as it is.
#[allow(dead_code)]
#[path = "../../tests/suite/plain.rs"]
mod plain;

use libfuzzer_sys::fuzz_target;
use warsweep::Seeds;
use warsweep::Shuffle;
use warsweep::{Card, Deal, Deck, Gather, Preset, Ranking, Settings, ShortWar, WonPile};
use warsweep::{Engine, GameResult, Observer, Silent};

/// The round cap of games that cannot be checked for cycles.
const MAX_ROUNDS: u64 = 5_000;
/// Rounds past which the oracle gives up (it keeps every state): games so long are rare on
/// these decks, and checked between the engine's paths only.
const MOST: u64 = 20_000;

/// The oracle's result equals the engine's, unless the game outlasted what the oracle plays.
fn agrees(oracle: Option<GameResult>, engine: GameResult, context: impl Fn() -> String) {
    match oracle {
        Some(expected) => assert_eq!(engine, expected, "{}", context()),
        None => assert!(
            engine.rounds > MOST,
            "the oracle gave up early: {}",
            context()
        ),
    }
}

/// Being active sends a game down the general path.
struct Watching;
impl Observer for Watching {}

/// Reads the input a byte at a time, 0 once it runs out.
struct Bytes<'a>(&'a [u8]);
impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b
    }
    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.next() as usize % from.len()]
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    // Small decks, so that every game, looping or not, ends quickly on the general path.
    let copies = 1 + b.next() % 3;
    let values = 1 + b.next() % 8;
    let jokers = b.next() % 2;
    let Ok(deck) = Deck::parse(&format!("{copies}x{values}+{jokers}")) else {
        return;
    };
    let players = 2 + b.next() as usize % 5;
    // Any policy: the library refuses those a setting cannot play.
    let short_war = b.pick(ShortWar::ALL);
    let knobs = Settings::new(Preset::Bataille)
        .deck(deck)
        .players(players)
        .face_down(b.next() as usize % 4)
        .short_war(short_war)
        .gather(b.pick(Gather::ALL))
        .deal(b.pick(Deal::ALL))
        .ranking(b.pick(Ranking::ALL))
        .won_pile(b.pick(WonPile::ALL));
    let Ok(rules) = knobs.build() else {
        return;
    };
    // The sorted deck, shuffled by the input, cut into one non-empty hand a player.
    let mut cards: Vec<Card> = deck.cards();
    for i in (1..cards.len()).rev() {
        cards.swap(i, b.next() as usize % (i + 1));
    }
    let n = cards.len();
    if n < players {
        return;
    }
    let mut cuts: Vec<usize> = (1..players)
        .map(|_| 1 + b.next() as usize % (n - 1))
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    if cuts.len() != players - 1 {
        return;
    }
    let mut hands = Vec::new();
    let mut from = 0;
    for cut in cuts.into_iter().chain([n]) {
        hands.push(cards[from..cut].to_vec());
        from = cut;
    }
    let seed = u64::from(b.next());
    let engine = |packed: bool| {
        let mut engine = Engine::with_capacity(rules, n).expect("a deck's cards fit an engine");
        engine
            .set_max_rounds(MAX_ROUNDS)
            .expect("a limit of 1 or more");
        engine.set_packed(packed);
        engine
    };
    let general = engine(true)
        .play_hands(&hands, seed, &mut Watching)
        .unwrap();
    let setting = plain::Setting {
        copies: usize::from(copies),
        values: usize::from(values),
        jokers: usize::from(jokers),
        players,
        face_down: rules.face_down(),
        short_war: rules.short_war(),
        gather: rules.gather(),
        deal: rules.deal(),
        ranking: rules.ranking(),
        won_pile: rules.won_pile(),
        max_rounds: MAX_ROUNDS,
    };
    let values_of = |hand: &Vec<Card>| hand.iter().map(|c| c.value()).collect();
    let oracle = plain::play_hands(&setting, hands.iter().map(values_of).collect(), seed, MOST);
    agrees(oracle, general, || {
        format!("{rules:?} {hands:?} against the oracle")
    });
    assert_eq!(
        engine(true).play_hands(&hands, seed, &mut Silent).unwrap(),
        general,
        "{rules:?} {hands:?}"
    );
    assert_eq!(
        engine(false).play_hands(&hands, seed, &mut Silent).unwrap(),
        general,
        "{rules:?} unpacked"
    );
    // A dealt game too, through the seed paths (and the exhaustive walk's loop for lex).
    for &shuffle in Shuffle::ALL {
        let deals = Seeds::choose(None, Shuffle::Lex, deck, None).map(|every| every.len() as u64);
        if shuffle == Shuffle::Lex {
            // Seeds lex has no deal for are refused, never wrapped around.
            let past = deals.as_ref().map_or(seed, |&d| d);
            let refused = engine(true).play_seed(shuffle, past);
            assert!(
                refused.is_err(),
                "{rules:?} lex seed {past} of {deals:?} deals"
            );
            if deals.is_err() {
                continue;
            }
        }
        let at = seed % deals.unwrap_or(u64::MAX);
        let watched = engine(true)
            .play_seed_observed(shuffle, at, &mut Watching)
            .unwrap();
        let oracle = plain::play(&setting, shuffle, at, MOST);
        agrees(oracle, watched, || {
            format!("{rules:?} {shuffle:?} {at} against the oracle")
        });
        assert_eq!(
            engine(true).play_seed(shuffle, at).unwrap(),
            watched,
            "{rules:?} {shuffle:?} {at}"
        );
        let mut walked = Vec::new();
        engine(true)
            .play_seeds(
                shuffle,
                Seeds::new(at, u128::from(at) + 1).unwrap(),
                |_, r| walked.push(*r),
            )
            .unwrap();
        assert_eq!(walked, [watched], "{rules:?} {shuffle:?} {at} walked");
    }
});
