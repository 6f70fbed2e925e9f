//! Differential tests: every path of the engine (machine words, interleaved bytes, runs of many
//! players, the general round, the `lex` walk) over every knob against the plain second
//! implementation (`plain.rs`), which shares nothing with the library but the enums that name
//! the rules: a bug in a part the engine's paths share (the dealer, the ranking, the short-war
//! policy, the deal) shows here, where the engine's paths compared with each other would agree
//! on it.

use crate::common::Watching;
use crate::plain::Setting;
use crate::plain::{arrangements, least_state, play, play_hands, shuffled, sorted_deck, Mix};
use std::collections::{HashMap, VecDeque};
use warsweep::Shuffle;
use warsweep::{Card, Deal, Deck, Gather, Preset, Ranking, Rules, Settings, ShortWar, WonPile};
use warsweep::{Engine, Outcome, Silent};

/// The library's rules for a setting.
fn rules_of(s: &Setting) -> Rules {
    let deck = if s.jokers > 0 {
        format!("{}x{}+{}", s.copies, s.values, s.jokers)
    } else {
        format!("{}x{}", s.copies, s.values)
    };
    let knobs = Settings::new(Preset::Classic)
        .deck(Deck::parse(&deck).unwrap())
        .players(s.players)
        .face_down(s.face_down)
        .short_war(s.short_war)
        .gather(s.gather)
        .deal(s.deal)
        .ranking(s.ranking)
        .won_pile(s.won_pile);
    knobs.build().unwrap()
}

/// Compares every path of the engine with the oracle on `seeds` of `shuffle`; games the oracle
/// finds longer than `most_rounds` are skipped (they are long to hash). Returns how many games
/// were compared.
fn compare(s: &Setting, shuffle: Shuffle, seeds: std::ops::Range<u64>, most_rounds: u64) -> usize {
    let rules = rules_of(s);
    let mut fast = Engine::new(rules);
    let mut unpacked = Engine::new(rules);
    unpacked.set_packed(false);
    let mut general = Engine::new(rules);
    for engine in [&mut fast, &mut unpacked, &mut general] {
        engine.set_max_rounds(s.max_rounds).unwrap();
    }
    // A `lex` seed names a deal only below the deck's count of deals.
    let seeds = if shuffle == Shuffle::Lex {
        let mut counts = vec![0; s.values];
        for v in sorted_deck(s) {
            counts[v as usize] += 1;
        }
        // Decks of more than 2^64 deals have no `lex` numbering (the command line refuses them).
        let Some(deals) = arrangements(&counts).and_then(|m| u64::try_from(m).ok()) else {
            return 0;
        };
        seeds.start.min(deals)..seeds.end.min(deals)
    } else {
        seeds
    };
    if seeds.is_empty() {
        return 0;
    }
    let mut walked = Vec::new();
    fast.play_seeds(
        shuffle,
        warsweep::Seeds::new(seeds.start, seeds.end.into()).unwrap(),
        |seed, r| {
            walked.push((seed, *r));
        },
    )
    .unwrap();
    // The walk handed out every seed of the range, once each, in order.
    let walked_seeds: Vec<u64> = walked.iter().map(|&(seed, _)| seed).collect();
    assert_eq!(walked_seeds, seeds.collect::<Vec<_>>(), "{s:?} {shuffle:?}");
    let mut compared = 0;
    for (seed, walk) in walked {
        let Some(expected) = play(s, shuffle, seed, most_rounds) else {
            continue;
        };
        let context = format!("{s:?} {shuffle:?} seed {seed}");
        assert_eq!(walk, expected, "walk: {context}");
        assert_eq!(
            fast.play_seed(shuffle, seed).unwrap(),
            expected,
            "fast: {context}"
        );
        assert_eq!(
            unpacked.play_seed(shuffle, seed).unwrap(),
            expected,
            "unpacked: {context}"
        );
        let watched = general
            .play_seed_observed(shuffle, seed, &mut Watching)
            .unwrap();
        assert_eq!(watched, expected, "general: {context}");
        compared += 1;
    }
    compared
}

/// The presets on their own decks, against the oracle.
#[test]
fn the_presets_agree_with_the_oracle() {
    let mut compared = 0;
    for &preset in Preset::ALL {
        let r = Rules::preset(preset);
        let s = Setting {
            copies: r.deck().copies() as usize,
            values: r.deck().values() as usize,
            jokers: r.deck().jokers() as usize,
            players: r.players(),
            face_down: r.face_down(),
            short_war: r.short_war(),
            gather: r.gather(),
            deal: r.deal(),
            ranking: r.ranking(),
            won_pile: r.won_pile(),
            max_rounds: 1_000_000,
        };
        // Bataille on 52 cards plays very long games: the research plays it on small decks.
        if preset == Preset::Bataille {
            continue;
        }
        for shuffle in [Shuffle::Lcg, Shuffle::Splitmix] {
            compared += compare(&s, shuffle, 0..40, 20_000);
        }
    }
    assert!(compared >= 300, "{compared} games compared");
}

/// Every knob, the literature's rules among them, on small decks, every path against the
/// oracle.
#[test]
fn every_knob_agrees_with_the_oracle() {
    let decks = [
        (1, 2, 0),
        (2, 1, 1),
        (1, 5, 0),
        (4, 2, 0),
        (4, 4, 0),
        (2, 8, 0),
        (1, 10, 0),
        (3, 12, 0),
        (4, 13, 0),
        (1, 20, 2),
    ];
    let (mut settings, mut compared) = (0, 0);
    for (d, &(copies, values, jokers)) in decks.iter().enumerate() {
        let cards = copies * values + jokers;
        for (g, &gather) in Gather::ALL.iter().enumerate() {
            for (w, &short_war) in ShortWar::ALL.iter().enumerate() {
                let players_choices: Vec<usize> = if short_war == ShortWar::MostCards {
                    vec![2, 3, 5, 12]
                } else {
                    vec![2]
                };
                for players in players_choices.into_iter().filter(|&p| p <= cards) {
                    let k = d + g + w + players;
                    let mut ranking = Ranking::ALL[k % Ranking::ALL.len()];
                    if ranking == Ranking::Cyclic && values < 2 {
                        ranking = Ranking::Standard;
                    }
                    let s = Setting {
                        copies,
                        values,
                        jokers,
                        players,
                        face_down: k % 4,
                        short_war,
                        gather,
                        deal: Deal::ALL[k % 2],
                        ranking,
                        won_pile: if k % 5 == 0 {
                            WonPile::Shuffled
                        } else {
                            WonPile::None
                        },
                        max_rounds: 3_000,
                    };
                    for &shuffle in Shuffle::ALL {
                        let seeds = if shuffle == Shuffle::Lex { 0..6 } else { 0..8 };
                        compared += compare(&s, shuffle, seeds, 5_000);
                    }
                    settings += 1;
                }
            }
        }
    }
    assert_eq!(settings, 558);
    // 10,753 when written; games longer than 5,000 rounds are skipped.
    assert!(
        compared >= 10_000,
        "{compared} games in {settings} settings"
    );
}

/// The literature's rules on the decks the research studies, whole ranges of the `lex` walk
/// (the exhaustive path) against the oracle.
#[test]
fn the_lex_walks_of_the_literature_rules_agree_with_the_oracle() {
    let mut compared = 0;
    for gather in [Gather::LoserFirst, Gather::PairFirst, Gather::Natural] {
        for ranking in [Ranking::Standard, Ranking::Cyclic] {
            for (copies, values, face_down) in [(4, 4, 0), (2, 8, 1), (1, 10, 0), (4, 5, 2)] {
                let s = Setting {
                    copies,
                    values,
                    jokers: 0,
                    players: 2,
                    face_down,
                    short_war: ShortWar::FirstOutLoses,
                    gather,
                    deal: Deal::Blocks,
                    ranking,
                    won_pile: WonPile::None,
                    max_rounds: 1_000_000,
                };
                compared += compare(&s, Shuffle::Lex, 1_000..1_400, 100_000);
            }
        }
    }
    assert_eq!(compared, 3 * 2 * 4 * 400);
}

/// The oracle itself against published figures: the research's fixed points of open War
/// (`golden/README.md`, the longest `4x4` game among them: 144 rounds here), the count of `4x4`
/// deals, and the shortened puzzle's golden file.
#[test]
fn the_oracle_reproduces_the_reference_data() {
    let bataille = |copies, values, gather| Setting {
        copies,
        values,
        jokers: 0,
        players: 2,
        face_down: 0,
        short_war: ShortWar::FirstOutLoses,
        gather,
        deal: Deal::Blocks,
        ranking: Ranking::Standard,
        won_pile: WonPile::None,
        max_rounds: 1_000_000,
    };
    let win = |p, rounds| (Outcome::Win(p), rounds);
    let infinite = |cycle_start, cycle_length| {
        let outcome = Outcome::Infinite {
            cycle_start,
            cycle_length,
        };
        (outcome, cycle_start + cycle_length)
    };
    /// Copies, values, gather, the two hands, and the result (outcome, rounds).
    type Fixed<'a> = (usize, usize, Gather, &'a str, &'a str, (Outcome, u64));
    let fixed: [Fixed; 7] = [
        (
            4,
            2,
            Gather::Natural,
            "1,1,2,2",
            "2,2,1,1",
            (Outcome::Draw, 2),
        ),
        (1, 5, Gather::Natural, "5,3", "2,4,1", infinite(0, 6)),
        (1, 7, Gather::Natural, "1,7,4", "5,3,6,2", infinite(0, 8)),
        (
            1,
            10,
            Gather::Natural,
            "8,6,3,10,5",
            "2,9,7,4,1",
            infinite(0, 60),
        ),
        (
            1,
            16,
            Gather::Natural,
            "1,3,2,8,10,15,11,12",
            "4,6,16,13,9,14,5,7",
            win(1, 90),
        ),
        (
            4,
            3,
            Gather::Sorted,
            "3,2,2,2,3,3",
            "1,1,2,3,1,1",
            win(1, 34),
        ),
        (
            4,
            4,
            Gather::Natural,
            "1,3,2,2,1,2,1,4",
            "4,4,3,4,1,2,3,3",
            win(0, 144),
        ),
    ];
    let hand = |text: &str| -> VecDeque<u8> {
        text.split(',')
            .map(|v| v.parse::<u8>().unwrap() - 1)
            .collect()
    };
    let mut checked = 0;
    for (copies, values, gather, one, two, (outcome, rounds)) in fixed {
        let s = bataille(copies, values, gather);
        let got = play_hands(&s, vec![hand(one), hand(two)], 0, 1_000).unwrap();
        assert_eq!(got.outcome, outcome, "{one} / {two}");
        if !matches!(outcome, Outcome::Draw) {
            assert_eq!(got.rounds, rounds, "{one} / {two}");
        }
        checked += 1;
    }
    assert_eq!(checked, 7);
    assert_eq!(arrangements(&[4, 4, 4, 4]), Some(63_063_000));
    // Seed 0 is the values ascending, the last seed descending.
    let s = bataille(4, 4, Gather::Natural);
    assert_eq!(shuffled(&s, Shuffle::Lex, 0)[..5], [0, 0, 0, 0, 1]);
    assert_eq!(shuffled(&s, Shuffle::Lex, 63_062_999)[..5], [3, 3, 3, 3, 2]);
    let dir = crate::common::golden_dir();
    let text = std::fs::read_to_string(dir.join("shortened.lcg.csv")).unwrap();
    let s = Setting {
        values: 13,
        face_down: 3,
        short_war: ShortWar::Shorten,
        gather: Gather::Reveal,
        deal: Deal::RoundRobin,
        ..s
    };
    let shortened = Rules::preset(Preset::Shortened);
    assert_eq!(
        rules_of(&s),
        knobs_of(&shortened, Preset::Classic).build().unwrap()
    );
    let mut rows = 0;
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let seed: u64 = fields[0].parse().unwrap();
        let got = play(&s, Shuffle::Lcg, seed, 1_000_000).unwrap();
        match got.outcome {
            Outcome::Infinite {
                cycle_start,
                cycle_length,
            } => {
                assert_eq!(fields[1], "infinite", "seed {seed}");
                assert_eq!(
                    fields[6..8],
                    [cycle_start.to_string(), cycle_length.to_string()]
                );
            }
            _ => assert_eq!(fields[3], got.rounds.to_string(), "seed {seed}"),
        }
        rows += 1;
    }
    assert_eq!(rows, 200);
}

/// The settings that rebuild `rules` from another preset.
fn knobs_of(rules: &Rules, preset: Preset) -> Settings {
    Settings::new(preset)
        .deck(rules.deck())
        .players(rules.players())
        .face_down(rules.face_down())
        .short_war(rules.short_war())
        .gather(rules.gather())
        .deal(rules.deal())
        .ranking(rules.ranking())
        .won_pile(rules.won_pile())
}

/// A mirror walk (one deal of each mirror pair played, both counted) with its cycle table,
/// against the oracle playing every deal of the range: outcomes, and each distinct cycle's
/// length, basin and least seed, for symmetric settings of both deals, whole decks and parts,
/// decks of a word of four bits a card and of three (8x2+2: 18 cards of two values, the jokers
/// the top one; 14,106 mirror pairs in its range, 6,679 deals whose mirror is outside).
#[test]
fn mirror_walks_and_cycle_tables_agree_with_every_deal_of_the_oracle() {
    use warsweep::Seeds;
    use warsweep::Sweep;
    let setting = |copies, values, face_down, gather, deal, ranking| Setting {
        copies,
        values,
        jokers: 0,
        players: 2,
        face_down,
        short_war: ShortWar::FirstOutLoses,
        gather,
        deal,
        ranking,
        won_pile: WonPile::None,
        max_rounds: 1_000_000,
    };
    let (blocks, robin) = (Deal::Blocks, Deal::RoundRobin);
    let (standard, cyclic) = (Ranking::Standard, Ranking::Cyclic);
    let cases = [
        (
            setting(2, 4, 0, Gather::Natural, blocks, standard),
            0..2_520,
        ),
        (
            setting(1, 8, 0, Gather::Natural, blocks, standard),
            0..40_320,
        ),
        (
            setting(1, 10, 0, Gather::Natural, blocks, standard),
            900_000..960_000,
        ),
        (
            setting(2, 5, 0, Gather::PairFirst, robin, standard),
            0..113_400,
        ),
        (
            setting(2, 5, 0, Gather::Sorted, blocks, standard),
            10_000..60_000,
        ),
        (
            setting(1, 8, 1, Gather::WinnerFirst, robin, standard),
            0..40_320,
        ),
        (
            setting(2, 4, 0, Gather::LoserFirst, blocks, cyclic),
            0..2_520,
        ),
        (
            setting(4, 4, 0, Gather::Natural, blocks, standard),
            8_000_000..8_040_000,
        ),
        (
            setting(1, 8, 0, Gather::Natural, robin, cyclic),
            5_000..35_000,
        ),
        (
            Setting {
                jokers: 2,
                ..setting(8, 2, 0, Gather::Natural, blocks, standard)
            },
            5_000..40_000,
        ),
    ];
    let (mut games, mut looped, mut cycles) = (0, 0, 0);
    for (s, range) in cases {
        let rules = rules_of(&s);
        assert!(rules.symmetric(), "{s:?}");
        let seeds = Seeds::new(range.start, range.end.into()).unwrap();
        let sweep = Sweep::new(rules, Shuffle::Lex, seeds)
            .max_rounds(s.max_rounds)
            .threads(2)
            .pacing(1000, 7000)
            .cycles(true);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let summary = sweep.run(None, &|_| {}, &stop).unwrap().summary;
        let json: serde_json::Value = serde_json::from_str(&summary.to_json()).unwrap();
        // The oracle plays every deal.
        let (mut wins, mut draws, mut infinite) = ([0u64; 2], 0u64, 0u64);
        let mut table: HashMap<Vec<u8>, (u64, u64, u64)> = HashMap::new();
        for seed in range.clone() {
            let r = play(&s, Shuffle::Lex, seed, u64::MAX).expect("no cap");
            match r.outcome {
                Outcome::Win(p) => wins[p] += 1,
                Outcome::Draw => draws += 1,
                Outcome::Infinite {
                    cycle_start,
                    cycle_length,
                } => {
                    infinite += 1;
                    let state = least_state(&s, Shuffle::Lex, seed, cycle_start, cycle_length);
                    let basin = table.entry(state).or_insert((cycle_length, 0, seed));
                    assert_eq!(basin.0, cycle_length, "{s:?} seed {seed}");
                    basin.1 += 1;
                    basin.2 = basin.2.min(seed);
                }
                Outcome::Capped => unreachable!("no cap"),
            }
        }
        let context = format!("{s:?} seeds {range:?}");
        let ended = summary.outcomes();
        assert_eq!(summary.games(), range.end - range.start, "{context}");
        assert_eq!(ended.wins, wins, "{context}");
        assert_eq!(
            (ended.draws, ended.infinite),
            (draws, infinite),
            "{context}"
        );
        let mut expected: Vec<(u64, u64, u64, String)> = table
            .into_iter()
            .map(|(state, (length, deals, first))| {
                let hands: Vec<String> = state
                    .split(|&v| v == u8::MAX)
                    .take(2)
                    .map(|hand| {
                        let values: Vec<String> = hand.iter().map(u8::to_string).collect();
                        values.join(" ")
                    })
                    .collect();
                (length, deals, first, hands.join("|"))
            })
            .collect();
        expected.sort_by(|a, b| (b.1, a.2).cmp(&(a.1, b.2)));
        let row = |r: &serde_json::Value| {
            let number = |key: &str| r[key].as_u64().unwrap();
            let hands = r["hands"].as_str().unwrap().to_string();
            (
                number("cycle_length"),
                number("deals"),
                number("first_seed"),
                hands,
            )
        };
        let found: Vec<(u64, u64, u64, String)> = json["cycles"]
            .as_array()
            .expect("kept")
            .iter()
            .map(row)
            .collect();
        assert_eq!(found, expected, "{context}");
        games += summary.games();
        looped += infinite;
        cycles += found.len();
    }
    assert_eq!(
        games,
        2_520 * 2 + 40_320 * 2 + 60_000 + 113_400 + 50_000 + 40_000 + 30_000 + 35_000
    );
    // Enough loops to mean something: every count is printed on failure.
    assert!(
        looped > 1_000 && cycles > 20,
        "{looped} loops, {cycles} cycles"
    );
}

/// Hands beyond the deck's copies, as the CodinGame puzzle's own inputs give them (a card
/// repeated, hands of hundreds of cards), on every path of the engine against the oracle:
/// whatever values the hands hold, however many, the game is the one docs/rules.md describes.
#[test]
fn hands_beyond_the_decks_copies_agree_with_the_oracle() {
    let (mut compared, mut settings) = (0, 0);
    let mut rng = Mix(36);
    for (d, &(copies, values)) in [(4, 13), (4, 4), (1, 10), (2, 5)].iter().enumerate() {
        for (g, &gather) in Gather::ALL.iter().enumerate() {
            for players in [2, 3] {
                let k = d + g + players;
                let s = Setting {
                    copies,
                    values,
                    jokers: 0,
                    players,
                    face_down: [0, 1, 3][k % 3],
                    short_war: if players == 2 {
                        ShortWar::ALL[k % ShortWar::ALL.len()]
                    } else {
                        ShortWar::MostCards
                    },
                    gather,
                    deal: Deal::Blocks,
                    ranking: Ranking::ALL[k % Ranking::ALL.len()],
                    won_pile: WonPile::None,
                    max_rounds: 3_000,
                };
                let rules = rules_of(&s);
                // The first copy of each value, in value order.
                let sorted = rules.deck().cards();
                settings += 1;
                for game in 0..12u64 {
                    // Sizes from one card to past the word path's 32 and the deck's 52; a few
                    // values only, so that every value is repeated, or any value.
                    let most = [3, 20, 40, 400][game as usize % 4];
                    let spread = if game % 3 == 0 { 2 } else { values };
                    let hands: Vec<VecDeque<u8>> = (0..players)
                        .map(|_| {
                            let len = 1 + (rng.next() % most) as usize;
                            (0..len)
                                .map(|_| (rng.next() % spread as u64) as u8)
                                .collect()
                        })
                        .collect();
                    let cards: Vec<Vec<Card>> = hands
                        .iter()
                        .map(|h| h.iter().map(|&v| sorted[v as usize]).collect())
                        .collect();
                    let total = cards.iter().map(Vec::len).sum();
                    let Some(expected) = play_hands(&s, hands, game, 100_000) else {
                        continue;
                    };
                    let context = format!("{s:?} game {game}: {cards:?}");
                    for packed in [true, false] {
                        let mut engine = Engine::with_capacity(rules, total).unwrap();
                        engine.set_max_rounds(s.max_rounds).unwrap();
                        engine.set_packed(packed);
                        let fast = engine.play_hands(&cards, game, &mut Silent).unwrap();
                        assert_eq!(fast, expected, "packed {packed}: {context}");
                        let watched = engine.play_hands(&cards, game, &mut Watching).unwrap();
                        assert_eq!(watched, expected, "general: {context}");
                    }
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(settings, 4 * Gather::ALL.len() * 2);
    // Every game when written; a game past 100,000 rounds would be skipped.
    assert!(
        compared >= settings * 11,
        "{compared} games in {settings} settings"
    );
}
