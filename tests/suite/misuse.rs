//! The library refuses what it cannot play, whoever calls it: each misuse below gets a typed
//! error from the library itself, with no front-end in between.

use std::sync::atomic::AtomicBool;
use warsweep::deal::seeds::{RangeError, Seeds};
use warsweep::deal::Shuffle;
use warsweep::engine::hands::HandsError;
use warsweep::engine::{Engine, Silent};
use warsweep::output::summary::Summary;
use warsweep::rules::{Deck, Preset, Rules, Settings};
use warsweep::sweep::{Pacing, Sweep, SweepError};

fn bataille(deck: &str) -> Rules {
    let knobs = Settings::new(Preset::Bataille).deck(Deck::parse(deck).unwrap());
    knobs.build().unwrap()
}

fn sweep(rules: Rules, shuffle: Shuffle, seeds: Seeds, threads: usize) -> Sweep {
    Sweep {
        rules,
        shuffle,
        seeds,
        max_rounds: 1000,
        threads,
        pacing: Pacing::default(),
        cycles: false,
        mirrors: true,
        pairs: seeds,
    }
}

#[test]
fn misuses_of_the_library_get_typed_errors() {
    let mut refused = 0;
    let mut expect = |got: Result<(), String>, wanted: &str| {
        let message = got.expect_err(wanted);
        assert!(message.contains(wanted), "{message:?} lacks {wanted:?}");
        refused += 1;
    };
    // lex on a deck past 2^64 deals: refused where it is dealt, not dealt from a wrapped count.
    let standard = Rules::preset(Preset::Classic);
    let too_many = Shuffle::Lex.deal_order(Deck::STANDARD, 5);
    assert!(matches!(too_many, Err(RangeError::TooManyDeals { .. })));
    expect(
        too_many.map(drop).map_err(|e| e.to_string()),
        "more than 2^64",
    );
    let played = Engine::new(standard).play_seed(Shuffle::Lex, 5);
    assert!(matches!(played, Err(RangeError::TooManyDeals { .. })));
    expect(
        played.map(drop).map_err(|e| e.to_string()),
        "lex needs a smaller deck",
    );
    // A lex seed past the last deal: refused, not wrapped around to another deal.
    let small = bataille("4x4");
    let deals = warsweep::deal::seeds::lex_deals(small.deck()).unwrap();
    let mut engine = Engine::new(small);
    assert!(engine.play_seed(Shuffle::Lex, deals - 1).is_ok());
    let past = engine.play_seed(Shuffle::Lex, deals);
    assert!(matches!(past, Err(RangeError::PastLastDeal { .. })));
    expect(
        past.map(drop).map_err(|e| e.to_string()),
        "is past the 4x4 deck's",
    );
    let mut played = 0;
    let walk = engine.play_seeds(
        Shuffle::Lex,
        Seeds::new(deals - 5, u128::from(deals) + 5).unwrap(),
        |_, _| played += 1,
    );
    assert_eq!(played, 0, "nothing is played of a range that is refused");
    expect(walk.map_err(|e| e.to_string()), "is past the 4x4 deck's");
    expect(
        engine
            .deal(Shuffle::Lex, deals)
            .map(drop)
            .map_err(|e| e.to_string()),
        "past the 4x4",
    );
    // Seed ranges are valid by construction, from code and from files.
    expect(
        Seeds::new(10, 5).map(drop).map_err(|e| e.to_string()),
        "is reversed",
    );
    let past_end = Seeds::new(0, (1 << 64) + 1);
    assert!(matches!(past_end, Err(RangeError::PastLastSeed(_))));
    expect(
        past_end.map(drop).map_err(|e| e.to_string()),
        "past the last seed",
    );
    let read = serde_json::from_str::<Seeds>(r#"{"start": 10, "end": 5}"#);
    expect(read.map(drop).map_err(|e| e.to_string()), "is reversed");
    let summary = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/summary-v1/small-a.json"),
    )
    .unwrap()
    .replace(r#""end": 300"#, r#""end": 18446744073709551617"#);
    let read = serde_json::from_str::<Summary>(&summary);
    expect(
        read.map(drop).map_err(|e| e.to_string()),
        "past the last seed",
    );
    // Sweeps check themselves before playing.
    let stop = AtomicBool::new(false);
    let run = |s: Sweep| s.run(None, None, &|_| {}, &stop, None).map(drop);
    let hundred = Seeds::new(0, 100).unwrap();
    for threads in [0, 1025] {
        let got = run(sweep(small, Shuffle::Lcg, hundred, threads));
        assert!(matches!(got, Err(SweepError::Threads(n)) if n == threads));
        expect(
            got.map_err(|e| e.to_string()),
            "a sweep runs on 1 to 1024 threads",
        );
    }
    let beyond = Seeds::new(deals - 10, u128::from(deals) + 1).unwrap();
    let got = run(sweep(small, Shuffle::Lex, beyond, 2));
    assert!(matches!(
        got,
        Err(SweepError::Seeds(RangeError::PastLastDeal { .. }))
    ));
    expect(got.map_err(|e| e.to_string()), "is past the 4x4 deck's");
    let got = run(sweep(standard, Shuffle::Lex, hundred, 2));
    expect(got.map_err(|e| e.to_string()), "lex needs a smaller deck");
    let mut outside = sweep(small, Shuffle::Lex, hundred, 2);
    outside.pairs = Seeds::new(50, 200).unwrap();
    expect(
        run(outside).map_err(|e| e.to_string()),
        "are not part of the walk",
    );
    // Given hands: one a player, cards of the deck, no more than the engine was made for.
    let mut engine = Engine::new(small);
    let card = |v: i64| small.deck().value_card(v).unwrap();
    let two = [vec![card(1), card(2)], vec![card(3)]];
    assert!(engine.play_hands(&two, 0, &mut Silent).is_ok());
    let three = [vec![card(1)], vec![card(2)], vec![card(3)]];
    let got = engine.play_hands(&three, 0, &mut Silent).map(drop);
    assert_eq!(
        got,
        Err(HandsError::Players {
            hands: 3,
            players: 2
        })
    );
    expect(
        got.map_err(|e| e.to_string()),
        "3 hands are given for 2 players",
    );
    let outside = [vec![Deck::STANDARD.value_card(13).unwrap()], vec![card(1)]];
    let got = engine.play_hands(&outside, 0, &mut Silent).map(drop);
    expect(
        got.map_err(|e| e.to_string()),
        "a card of value 13 is not in the 4x4 deck",
    );
    let many = [vec![card(1); 40], vec![card(2); 40]];
    let got = engine.play_hands(&many, 0, &mut Silent).map(drop);
    expect(
        got.map_err(|e| e.to_string()),
        "the hands hold 80 cards, more than the engine",
    );
    let sized = Engine::with_capacity(small, 80).play_hands(&many, 0, &mut Silent);
    assert!(sized.is_ok(), "an engine made for them plays them");
    let got = small.deck().value_card(0).map(drop);
    expect(
        got.map_err(|e| e.to_string()),
        "\"0\" is not a value of the 4x4 deck (1 to 4)",
    );
    assert_eq!(refused, 18);
}
