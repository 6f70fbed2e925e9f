//! The library refuses what it cannot play, whoever calls it: each misuse below gets a typed
//! error from the library itself, with no front-end in between.

use std::sync::atomic::AtomicBool;
use warsweep::HandsError;
use warsweep::Shuffle;
use warsweep::Summary;
use warsweep::{Deck, Preset, Rules, RulesError, Settings};
use warsweep::{Engine, Silent};
use warsweep::{RangeError, Seeds};
use warsweep::{Sweep, SweepError};

fn bataille(deck: &str) -> Rules {
    let knobs = Settings::new(Preset::Bataille).deck(Deck::parse(deck).unwrap());
    knobs.build().unwrap()
}

fn sweep(rules: Rules, shuffle: Shuffle, seeds: Seeds, threads: usize) -> Sweep {
    Sweep::new(rules, shuffle, seeds)
        .max_rounds(1000)
        .threads(threads)
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
    let too_many = Engine::new(standard).deal(Shuffle::Lex, 5);
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
    let every = Seeds::choose(None, Shuffle::Lex, small.deck(), None).unwrap();
    let deals = every.len() as u64;
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
    // A summary read is a checked one: its setting one warsweep plays, its numbers agreeing.
    let original = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/summary-v1/small-a.json"),
    )
    .unwrap();
    assert!(serde_json::from_str::<Summary>(&original).is_ok());
    for (from, to, wanted) in [
        (
            r#""gather": "p1-first""#,
            r#""gather": "sideways""#,
            "gather: \"sideways\" is not one of",
        ),
        (
            r#""deck": "4x6""#,
            r#""deck": "9x4""#,
            "deck: deck 9x4: a deck has 1 to 8 copies",
        ),
        (
            r#""face_down": 3"#,
            r#""face_down": 9"#,
            "face_down: a war puts 0 to 8 cards",
        ),
        (
            r#""games": 300"#,
            r#""games": 301"#,
            "it counts 301 games over the 300 seeds",
        ),
    ] {
        assert!(original.contains(from), "{from}");
        let read = serde_json::from_str::<Summary>(&original.replace(from, to));
        expect(read.map(drop).map_err(|e| e.to_string()), wanted);
    }
    // Sweeps check themselves before playing.
    let stop = AtomicBool::new(false);
    let run = |s: Sweep| s.run(None, &|_| {}, &stop).map(drop);
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
    let outside = sweep(small, Shuffle::Lex, hundred, 2).shard_of(Seeds::new(50, 200).unwrap());
    expect(
        run(outside).map_err(|e| e.to_string()),
        "are not part of the walk",
    );
    // Pacing past MAX_PACING once allocated windows of any size ("capacity overflow").
    for (chunk, window) in [(0, 100), (100, 0), (2048, usize::MAX), (usize::MAX, 100)] {
        let got = run(sweep(small, Shuffle::Lcg, hundred, 2).pacing(chunk, window));
        assert!(matches!(got, Err(SweepError::Pacing { .. })));
        expect(got.map_err(|e| e.to_string()), "hold 1 to 16,777,216 seeds");
    }
    // A round limit of 0 once made a summary that its own reader refused.
    let got = run(sweep(small, Shuffle::Lcg, hundred, 2).max_rounds(0));
    assert!(matches!(
        got,
        Err(SweepError::Rules(RulesError::MaxRounds(0)))
    ));
    expect(
        got.map_err(|e| e.to_string()),
        "max_rounds: a game stops after 1 round or more, not 0",
    );
    let got = Engine::new(small).set_max_rounds(0);
    expect(got.map_err(|e| e.to_string()), "max_rounds: a game stops");
    // An engine's room once overflowed (a panic) or was truncated to 32 bits (release builds).
    for total in [usize::MAX / 2, warsweep::MAX_CARDS + 1, 1 << 32] {
        let got = Engine::with_capacity(small, total).map(drop);
        assert_eq!(got, Err(HandsError::Capacity { total }));
        expect(
            got.map_err(|e| e.to_string()),
            "an engine holds at most 65,536 cards",
        );
    }
    // Settings name the setting at fault, which the front-ends turn into a flag or an argument.
    let deep = Settings::new(Preset::Classic).face_down(9).build();
    assert!(matches!(deep, Err(RulesError::FaceDown(9))));
    let named = deep.map(drop).map_err(|e| e.setting());
    expect(named.map_err(str::to_string), "face_down");
    let crowded = Settings::new(Preset::Codingame)
        .players(3)
        .build()
        .map(drop);
    expect(
        crowded.map_err(|e| e.to_string()),
        "short_war: the draw short-war policy",
    );
    let unknown = "sideways".parse::<warsweep::Gather>().map(drop);
    expect(
        unknown.map_err(|e| e.to_string()),
        "\"sideways\" is not one of reveal",
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
    let sized = Engine::with_capacity(small, 80)
        .unwrap()
        .play_hands(&many, 0, &mut Silent);
    assert!(sized.is_ok(), "an engine made for them plays them");
    let got = small.deck().value_card(0).map(drop);
    expect(
        got.map_err(|e| e.to_string()),
        "\"0\" is not a value of the 4x4 deck (1 to 4)",
    );
    assert_eq!(refused, 34);
}
