//! A few short games through every fast path, each against the general path: small enough to
//! run under Miri or AddressSanitizer (see `.ci/run`), which check the `unsafe` blocks of the
//! runs (`pair`, `crowd`) on every path that reaches them.

use crate::common::Watching;
use warsweep::Engine;
use warsweep::Seeds;
use warsweep::Shuffle;
use warsweep::{Deal, Deck, Gather, Preset, Ranking, Rules, Settings, ShortWar};

/// Seeds played for each setting: a handful, for Miri's sake.
const SEEDS: u64 = 3;

/// Plays `SEEDS` seeds of `rules` through the fast paths (`packed` on or off) and the general
/// path, which must agree; returns how many games it compared.
fn agree(rules: Rules, packed: bool, shuffle: Shuffle) -> u64 {
    let (mut fast, mut general) = (Engine::new(rules), Engine::new(rules));
    fast.set_packed(packed);
    // The round cap of the `random` gather, which cannot be checked for cycles.
    fast.set_max_rounds(2_000).unwrap();
    general.set_max_rounds(2_000).unwrap();
    for seed in 0..SEEDS {
        assert_eq!(
            fast.play_seed(shuffle, seed).unwrap(),
            general
                .play_seed_observed(shuffle, seed, &mut Watching)
                .unwrap(),
            "{rules:?} packed {packed} seed {seed}"
        );
    }
    SEEDS
}

fn rules(settings: Settings) -> Rules {
    settings.build().unwrap_or_else(|e| panic!("{e}"))
}

/// Two players on 52 cards: the byte-array runs and wars of `pair`, under every preset's war.
#[test]
fn two_player_runs() {
    let mut compared = 0;
    for preset in [Preset::Shortened, Preset::Codingame, Preset::Classic] {
        compared += agree(Rules::preset(preset), true, Shuffle::Lcg);
    }
    let bataille = Settings::new(Preset::Bataille).gather(Gather::Sorted);
    compared += agree(rules(bataille), true, Shuffle::Splitmix);
    let latest = Settings::new(Preset::Classic).gather(Gather::WinnerFirstLatest);
    compared += agree(rules(latest), true, Shuffle::Lcg);
    assert_eq!(compared, 5 * SEEDS);
}

/// Small decks, both in machine words (`packed`: four bits a card in 64 and 128 bits, three in
/// 64) and in `pair`'s arrays.
#[test]
fn small_decks_in_words_and_arrays() {
    let mut compared = 0;
    for (deck, gather, face_down) in [
        ("4x4", Gather::Natural, 0),
        ("4x4", Gather::Reveal, 1),
        ("2x8", Gather::WinnerFirst, 2),
        ("4x8", Gather::Natural, 0),
        ("4x8", Gather::P1First, 1),
        ("3x5+1", Gather::Sorted, 1),
        ("2x8", Gather::WinnerFirstLatest, 1),
        ("4x4", Gather::WinnerFirstLatest, 0),
        ("4x5", Gather::Sorted, 1),
        ("3x7", Gather::WinnerFirstLatest, 0),
    ] {
        let knobs = Settings::new(Preset::Bataille)
            .deck(Deck::parse(deck).unwrap())
            .gather(gather)
            .face_down(face_down)
            .ranking(Ranking::ALL[face_down % Ranking::ALL.len()]);
        let rules = rules(knobs);
        for packed in [true, false] {
            compared += agree(rules, packed, Shuffle::Splitmix);
        }
    }
    assert_eq!(compared, 10 * 2 * SEEDS);
}

/// Runs of `lex` deals in one loop (`play_seeds`): stepped in one word or by bytes, games
/// resumed from the rounds consecutive deals share, and closed wars.
#[test]
fn lex_walks() {
    let mut compared = 0;
    for (deck, face_down, deal) in [
        ("4x4", 0, Deal::Blocks),
        ("4x5", 0, Deal::Blocks),
        ("1x10", 0, Deal::RoundRobin),
        ("4x4", 1, Deal::Blocks),
    ] {
        let knobs = Settings::new(Preset::Bataille)
            .deck(Deck::parse(deck).unwrap())
            .face_down(face_down)
            .deal(deal)
            .short_war(ShortWar::FirstOutLoses);
        let rules = rules(knobs);
        let (mut walk, mut general) = (Engine::new(rules), Engine::new(rules));
        let seeds = Seeds::new(1_000, (1_000 + 4 * SEEDS).into()).unwrap();
        walk.play_seeds(Shuffle::Lex, seeds, |seed, result| {
            assert_eq!(
                *result,
                general
                    .play_seed_observed(Shuffle::Lex, seed, &mut Watching)
                    .unwrap(),
                "{rules:?} seed {seed}"
            );
            compared += 1;
        })
        .unwrap();
    }
    assert_eq!(compared, 4 * 4 * SEEDS);
}

/// Three players and more: `crowd`'s three-player loop (its wars of two with oorlog's one
/// face-down card and with others), its byte-lane loop (3 to 8 players) and its general run,
/// with wars inside the runs (oorlog's `reveal`) and out of them.
#[test]
fn crowd_runs() {
    let mut compared = 0;
    for (players, gather, ranking, face_down) in [
        (3, Gather::Reveal, Ranking::Oorlog, 1),
        (3, Gather::Reveal, Ranking::Oorlog, 0),
        (3, Gather::Reveal, Ranking::Oorlog, 3),
        (3, Gather::P1First, Ranking::Oorlog, 1),
        (3, Gather::Reveal, Ranking::Standard, 1),
        (5, Gather::Reveal, Ranking::Oorlog, 1),
        (5, Gather::P1First, Ranking::Oorlog, 1),
        (10, Gather::Reveal, Ranking::Oorlog, 1),
        (4, Gather::WinnerFirst, Ranking::Oorlog, 1),
        (4, Gather::Sorted, Ranking::Standard, 1),
        (4, Gather::Random, Ranking::Oorlog, 1),
        (4, Gather::WinnerFirstLatest, Ranking::Standard, 2),
    ] {
        let knobs = Settings::new(Preset::Oorlog)
            .players(players)
            .gather(gather)
            .ranking(ranking)
            .face_down(face_down);
        compared += agree(rules(knobs), true, Shuffle::Lcg);
    }
    assert_eq!(compared, 12 * SEEDS);
}
