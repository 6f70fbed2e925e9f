//! The engine against the seed documents' own examples, and properties every game must keep.

use crate::common::Watching;
use warsweep::puzzles::{answer_pair, play_line};
use warsweep::Hands;
use warsweep::Seeds;
use warsweep::Shuffle;
use warsweep::{Card, Deal, Deck, Gather, Preset, Ranking, Rules, Settings, ShortWar, WonPile};
use warsweep::{Engine, GameResult, Observer, Outcome, Silent};

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|t| Deck::OORLOG.parse_card(t).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn play(rules: Rules, hands: &[Vec<Card>], observer: &mut impl Observer) -> GameResult {
    let total = hands.iter().map(Vec::len).sum();
    let mut engine = Engine::with_capacity(rules, total).unwrap();
    engine.play_hands(hands, 0, observer).unwrap()
}

/// Records what the winner of each round takes, and the hands after each round.
#[derive(Default)]
struct Recorder {
    taken: Vec<(usize, String)>,
    hands: Vec<Vec<String>>,
    battles: u64,
    /// Battles played by the end of each round.
    battles_by_round: Vec<u64>,
}

impl Observer for Recorder {
    fn revealed(&mut self, _battle: u64, _round: u64, _cards: &[(usize, Card)]) {
        self.battles += 1;
    }
    fn took(&mut self, winner: usize, cards: &[Card]) {
        let text: Vec<String> = cards.iter().map(Card::to_string).collect();
        self.taken.push((winner + 1, text.join(" ")));
    }
    fn round_end(&mut self, hands: &Hands) {
        self.battles_by_round.push(self.battles);
        self.hands.push(
            (0..hands.players())
                .map(|p| {
                    hands
                        .hand(p)
                        .iter()
                        .map(std::string::ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect(),
        );
    }
}

/// The 28-card walk-through of seed 004: player 2 wins in 8 turns, taking the cards in the
/// orders the table prints.
#[test]
fn seed_004_walkthrough() {
    let p1 = cards("AH 9C JH QS KD AS 8C 8H 8S AC TH JC QH TS");
    let p2 = cards("9H TC JS AD KS TD 9S KC 8D QC 9D KH QD JD");
    let rules = Rules::preset(Preset::Shortened);
    let mut seen = Recorder::default();
    let result = play(rules, &[p1, p2], &mut seen);
    assert_eq!(result.outcome, Outcome::Win(1));
    assert_eq!(result.battles, 8);
    assert_eq!(play_line(&rules, &result), "2 8");
    let expected = [
        (1, "AH 9H"),
        (2, "9C 10C"),
        (2, "JH JS QS AD KD KS AS 10D 8C 9S"),
        (2, "8H KC"),
        (2, "8S 8D AC QC 10H 9D JC KH QH QD 10S JD AH 9C 9H 10C"),
    ];
    let expected: Vec<(usize, String)> =
        expected.iter().map(|&(p, s)| (p, s.to_string())).collect();
    assert_eq!(seen.taken, expected);
}

/// Seed 000: after one turn of its example the hands are exactly as printed.
#[test]
fn seed_000_one_turn_example() {
    let p1 = cards("10D 9S 8D KH 7D 5H 6S");
    let p2 = cards("10H 7H 5C QC 2C 4H 6D");
    let mut seen = Recorder::default();
    let result = play(Rules::preset(Preset::Codingame), &[p1, p2], &mut seen);
    assert_eq!(
        seen.hands[0],
        ["5H 6S 10D 9S 8D KH 7D 10H 7H 5C QC 2C", "4H 6D"]
    );
    // Then 5H beats 4H, and 6S ties 6D with player 2 out of cards: a draw.
    assert_eq!(result.outcome, Outcome::Draw);
    assert_eq!(play_line(&Rules::preset(Preset::Codingame), &result), "PAT");
}

/// The three answers printed in seed 004.
#[test]
fn seed_004_answers() {
    let rules = Rules::preset(Preset::Shortened);
    let mut engine = Engine::new(rules);
    let pairs: Vec<String> = [8_756_942, 0, 4_775_558]
        .iter()
        .map(|&seed| answer_pair(&rules, &engine.play_seed(Shuffle::Lcg, seed).unwrap()))
        .collect();
    assert_eq!(pairs.join(" "), "1 442 2 25 2 6923");
}

/// Checks after every round that no card was lost or made: the hands hold the whole deck.
struct Conservation {
    total: u32,
    rounds: u64,
}

impl Observer for Conservation {
    fn round_end(&mut self, hands: &Hands) {
        let held: u32 = (0..hands.players()).map(|p| hands.len(p)).sum();
        assert_eq!(held, self.total);
        self.rounds += 1;
    }
}

#[test]
fn cards_are_conserved_every_round_under_every_setting() {
    for &preset in Preset::ALL.iter().filter(|&&p| p != Preset::Bataille) {
        let players = if preset == Preset::Oorlog {
            vec![2, 3, 5, 12]
        } else {
            vec![2]
        };
        for n in players {
            for &gather in Gather::ALL {
                let rules = Settings::new(preset)
                    .players(n)
                    .gather(gather)
                    .build()
                    .unwrap();
                let mut engine = Engine::new(rules);
                engine.set_max_rounds(5_000).unwrap();
                for seed in 0..20 {
                    let mut check = Conservation {
                        total: rules.deck().size() as u32,
                        rounds: 0,
                    };
                    let result = engine
                        .play_seed_observed(Shuffle::Splitmix, seed, &mut check)
                        .unwrap();
                    // An infinite game's counts cover its first mu + lambda rounds, which the
                    // live game played past; every other game's rounds are the rounds observed.
                    if !matches!(result.outcome, Outcome::Infinite { .. }) {
                        assert_eq!(
                            check.rounds, result.rounds,
                            "{preset:?} {gather:?} seed {seed}"
                        );
                    }
                    // Every battle either ends its round or is a tie; an unfinished last round
                    // is all ties.
                    assert_eq!(result.battles, result.rounds + result.wars);
                }
            }
        }
    }
}

#[test]
fn a_deal_is_a_permutation_of_the_deck() {
    for (preset, players) in [
        (Preset::Shortened, 2),
        (Preset::Oorlog, 5),
        (Preset::Oorlog, 12),
    ] {
        let mut engine = Engine::new(Settings::new(preset).players(players).build().unwrap());
        for shuffle in [Shuffle::Lcg, Shuffle::Splitmix] {
            let hands = engine.deal(shuffle, 12345).unwrap();
            let mut all: Vec<Card> = hands.concat();
            all.sort();
            let mut deck = Rules::preset(preset).deck().cards();
            deck.sort();
            assert_eq!(all, deck);
            let sizes: Vec<usize> = hands.iter().map(Vec::len).collect();
            assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        }
    }
}

/// An infinite game really repeats: replaying cycle_start rounds and then cycle_length more comes
/// back to the same hands, and no shorter period or earlier start does.
#[test]
fn cycle_start_and_length_are_exact() {
    let rules = Rules::preset(Preset::Codingame);
    let mut engine = Engine::new(rules);
    let mut checked = 0;
    for seed in 0..40 {
        let Outcome::Infinite {
            cycle_start,
            cycle_length,
        } = engine.play_seed(Shuffle::Lcg, seed).unwrap().outcome
        else {
            continue;
        };
        let mut states = Recorder::default();
        let mut long = Engine::new(
            Settings::new(Preset::Codingame)
                .gather(Gather::P1First)
                .build()
                .unwrap(),
        );
        // Replay with a recorder; it stops at detection, which is past mu + lambda.
        long.play_seed_observed(Shuffle::Lcg, seed, &mut states)
            .unwrap();
        let deal: Vec<String> = long
            .deal(Shuffle::Lcg, seed)
            .unwrap()
            .iter()
            .map(|h| h.iter().map(Card::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        let mut all = vec![deal];
        all.extend(states.hands);
        let values = |s: &Vec<String>| -> Vec<Vec<u8>> {
            s.iter()
                .map(|h| {
                    h.split_whitespace()
                        .map(|c| Deck::STANDARD.parse_card(c).unwrap().value())
                        .collect()
                })
                .collect()
        };
        let state = |i: u64| values(&all[i as usize]);
        let (mu, lambda) = (cycle_start, cycle_length);
        // An infinite game's counts cover its first mu + lambda rounds.
        let counted = engine.play_seed(Shuffle::Lcg, seed).unwrap();
        assert_eq!(
            counted.battles,
            states.battles_by_round[(mu + lambda - 1) as usize]
        );
        assert_eq!(counted.rounds, mu + lambda);
        assert_eq!(state(mu), state(mu + lambda), "seed {seed}");
        if mu > 0 {
            assert_ne!(
                state(mu - 1),
                state(mu - 1 + lambda),
                "seed {seed}: earlier start"
            );
        }
        for shorter in 1..lambda {
            assert_ne!(
                state(mu),
                state(mu + shorter),
                "seed {seed}: shorter period"
            );
        }
        checked += 1;
    }
    assert!(checked >= 5, "enough infinite games among the seeds");
}

#[test]
fn random_gather_is_reproducible_and_capped() {
    let rules = Settings::new(Preset::Shortened)
        .gather(Gather::Random)
        .build()
        .unwrap();
    let mut engine = Engine::new(rules);
    engine.set_max_rounds(300).unwrap();
    let a: Vec<GameResult> = (0..50)
        .map(|s| engine.play_seed(Shuffle::Lcg, s).unwrap())
        .collect();
    let b: Vec<GameResult> = (0..50)
        .map(|s| engine.play_seed(Shuffle::Lcg, s).unwrap())
        .collect();
    assert_eq!(a, b);
    assert!(a
        .iter()
        .any(|r| r.outcome == Outcome::Capped && r.rounds == 300));
    assert!(a.iter().all(|r| r.rounds <= 300));
}

#[test]
fn engine_grows_for_large_codingame_hands() {
    // 999 cards each, as CodinGame allows, and more on one side.
    let deck = Deck::STANDARD.cards();
    let hand = |offset: usize, n: usize| -> Vec<Card> {
        (0..n).map(|i| deck[(i * 7 + offset) % 52]).collect()
    };
    for (n0, n1) in [(999, 999), (1500, 40), (3, 2000)] {
        let hands = [hand(0, n0), hand(3, n1)];
        for gather in [Gather::P1First, Gather::Reveal, Gather::Natural] {
            let rules = Settings::new(Preset::Codingame)
                .gather(gather)
                .build()
                .unwrap();
            let fast = play(rules, &hands, &mut Silent);
            assert!(fast.battles > 0);
            assert_eq!(
                fast,
                play(rules, &hands, &mut Watching),
                "{n0} {n1} {gather:?}"
            );
        }
    }
}

/// A cycle longer than the snapshots kept at first (4,096 of them, 128 rounds apart): codingame
/// lcg seed 1,259,064 repeats every 316,008 rounds from round 401, and is found after about
/// 666,000, so both paths thin their snapshots before they search them. Both agree.
#[test]
fn long_cycles_are_exact_after_thinning_snapshots() {
    let rules = Rules::preset(Preset::Codingame);
    let (mut fast, mut general) = (Engine::new(rules), Engine::new(rules));
    let game = fast.play_seed(Shuffle::Lcg, 1_259_064).unwrap();
    assert_eq!(
        game.outcome,
        Outcome::Infinite {
            cycle_start: 401,
            cycle_length: 316_008
        }
    );
    assert_eq!(game.rounds, 401 + 316_008);
    assert_eq!(
        game,
        general
            .play_seed_observed(Shuffle::Lcg, 1_259_064, &mut Watching)
            .unwrap()
    );
}

/// The fast paths (two-player runs and wars, the N-player round) give exactly what the general
/// path gives, under every preset, player count and gather order.
#[test]
fn fast_paths_agree_with_the_general_path() {
    for &preset in Preset::ALL {
        let players = if preset == Preset::Oorlog {
            (2..=12).collect()
        } else {
            vec![2]
        };
        for n in players {
            // Open War on 52 cards under these orders loops for hundreds of millions of rounds:
            // too slow for the observed path; the knob test covers bataille on smaller decks.
            let gathers = Gather::ALL.iter().copied().filter(|&g| {
                preset != Preset::Bataille || matches!(g, Gather::Natural | Gather::Sorted)
            });
            for gather in gathers {
                let rules = Settings::new(preset)
                    .players(n)
                    .gather(gather)
                    .build()
                    .unwrap();
                let mut fast = Engine::new(rules);
                let mut general = Engine::new(rules);
                fast.set_max_rounds(3_000).unwrap();
                general.set_max_rounds(3_000).unwrap();
                for seed in 0..60 {
                    for shuffle in [Shuffle::Lcg, Shuffle::Splitmix] {
                        assert_eq!(
                            fast.play_seed(shuffle, seed).unwrap(),
                            general
                                .play_seed_observed(shuffle, seed, &mut Watching)
                                .unwrap(),
                            "{preset:?} {n}p {gather:?} {shuffle:?} seed {seed}"
                        );
                    }
                }
            }
        }
    }
}

/// Oorlog's own runs (wars played inside them, short wars after a first war) agree with the
/// general path over many deals, for every table size they specialise.
#[test]
fn oorlog_runs_agree_with_the_general_path_over_many_deals() {
    for n in 3..=8 {
        let rules = Settings::new(Preset::Oorlog).players(n).build().unwrap();
        fast_equals_general(rules, Shuffle::Lcg, 3000, &format!("oorlog {n}p"));
    }
}

/// Plays seeds `0..seeds` of `rules` unwatched (the fast paths) and watched (the general path,
/// which reports every event): the results must be equal.
fn fast_equals_general(rules: Rules, shuffle: Shuffle, seeds: u64, what: &str) {
    let mut fast = Engine::new(rules);
    let mut general = Engine::new(rules);
    for seed in 0..seeds {
        assert_eq!(
            fast.play_seed(shuffle, seed).unwrap(),
            general
                .play_seed_observed(shuffle, seed, &mut Watching)
                .unwrap(),
            "{what} seed {seed}"
        );
    }
}

/// An unwatched game of three or more players copies no state before round 256: its first
/// tortoise is saved then, and its round-0 snapshot is dealt again only if a cycle search needs
/// it. Games that loop from their deal, or start looping soon after it, still get the exact
/// cycle start and length the watched path (which saves the deal at once) finds, on the same
/// engine as games given as hands (whose round 0 is copied).
#[test]
fn games_looping_from_their_deal_are_exact_unwatched() {
    let knobs = Settings::new(Preset::Oorlog).deck(Deck::parse("1x9").unwrap());
    let rules = knobs.build().unwrap();
    let mut fast = Engine::new(rules);
    let mut general = Engine::new(rules);
    let (mut from_deal, mut early) = (0, 0);
    for seed in 0..2000 {
        let result = fast.play_seed(Shuffle::Lcg, seed).unwrap();
        assert_eq!(
            result,
            general
                .play_seed_observed(Shuffle::Lcg, seed, &mut Watching)
                .unwrap(),
            "seed {seed}"
        );
        if let Outcome::Infinite { cycle_start, .. } = result.outcome {
            from_deal += usize::from(cycle_start == 0);
            early += usize::from(cycle_start < 256);
        }
        // The same engine plays the deal given as hands in between.
        let hands = fast.deal(Shuffle::Lcg, seed).unwrap();
        assert_eq!(
            fast.play_hands(&hands, seed, &mut Silent).unwrap(),
            result,
            "hands of seed {seed}"
        );
    }
    assert!(
        from_deal >= 10 && early >= 50,
        "{from_deal} from the deal, {early} early"
    );
}

/// Oorlog's runs play their wars on their own: the three-player loop its wars of two (writing
/// the table after both tied players' tails), the byte-lane loop of 4 to 8 players every war
/// (`lanes_war`). Against the general path for every face-down count, with the short wars and
/// many-way ties of many deals.
#[test]
fn crowd_wars_agree_with_the_general_path_for_every_face_down_count() {
    for players in [3, 4, 6, 8] {
        for face_down in 0..=4 {
            let knobs = Settings::new(Preset::Oorlog)
                .players(players)
                .face_down(face_down);
            let rules = knobs.build().unwrap();
            let what = format!("oorlog {players}p face-down {face_down}");
            fast_equals_general(rules, Shuffle::Splitmix, 1500, &what);
        }
    }
}

/// Every knob through the fast and the general path: deck shapes from 2 to 520 cards, every
/// face-down count, short-war policy, gather order, deal and ranking, 2 to 12 players.
#[test]
fn fast_paths_agree_with_the_general_path_for_every_knob() {
    let decks = [
        "1x2", "2x1+1", "1x5", "4x2", "4x4", "4x8", "1x10", "3x12", "1x20+2",
    ];
    let (mut settings, mut compared, mut refusals) = (0, 0, 0);
    for (d, deck) in decks.iter().enumerate() {
        let deck = Deck::parse(deck).unwrap();
        for &short_war in ShortWar::ALL {
            for (g, &gather) in Gather::ALL.iter().enumerate() {
                let face_down = (d + g) % 5;
                let players_choices: Vec<usize> = if short_war != ShortWar::MostCards {
                    vec![2]
                } else {
                    vec![2, 3, 4 + d % 3, 7, 12]
                };
                for players in players_choices.into_iter().filter(|&p| p <= deck.size()) {
                    for &deal in Deal::ALL {
                        let ranking = match Ranking::ALL[(d + g + players) % Ranking::ALL.len()] {
                            // Lowest beats highest needs two values.
                            Ranking::Cyclic if deck.values() < 2 => Ranking::Standard,
                            ranking => ranking,
                        };
                        let knobs = Settings::new(Preset::Bataille)
                            .deck(deck)
                            .players(players)
                            .face_down(face_down)
                            .short_war(short_war)
                            .gather(gather)
                            .deal(deal)
                            .ranking(ranking)
                            .won_pile(if (d + g + players) % 7 == 0 {
                                WonPile::Shuffled
                            } else {
                                WonPile::None
                            });
                        let rules = knobs.build().unwrap();
                        let mut fast = Engine::new(rules);
                        let mut unpacked = Engine::new(rules);
                        unpacked.set_packed(false);
                        let mut general = Engine::new(rules);
                        fast.set_max_rounds(2_000).unwrap();
                        unpacked.set_max_rounds(2_000).unwrap();
                        general.set_max_rounds(2_000).unwrap();
                        // Large open decks loop for millions of rounds under some orders: the
                        // fast path alone tells which games are short enough to observe.
                        for seed in 0..4 {
                            for &shuffle in Shuffle::ALL {
                                // A lex seed past a small deck's last deal (or any of a
                                // deck past 2^64 deals) is refused on every path alike.
                                let Ok(result) = fast.play_seed(shuffle, seed) else {
                                    let refused = general.play_seed(shuffle, seed);
                                    assert_eq!(
                                        Err(refused.unwrap_err()),
                                        fast.play_seed(shuffle, seed)
                                    );
                                    refusals += 1;
                                    continue;
                                };
                                if result.battles > 200_000 {
                                    continue;
                                }
                                let watched = general
                                    .play_seed_observed(shuffle, seed, &mut Watching)
                                    .unwrap();
                                assert_eq!(result, watched, "{rules:?} {shuffle:?} seed {seed}");
                                assert_eq!(
                                    unpacked.play_seed(shuffle, seed).unwrap(),
                                    watched,
                                    "unpacked {rules:?} {shuffle:?} seed {seed}"
                                );
                                compared += 1;
                            }
                        }
                        settings += 1;
                    }
                }
            }
        }
    }
    // Games compared, not settings visited: long games skipped must leave most of them.
    assert!(settings > 500, "{settings} settings");
    assert!(
        refusals > 0,
        "lex seeds past the last deal are among those tried"
    );
    assert!(
        compared > 8 * settings,
        "{compared} games compared in {settings} settings"
    );
}

/// Cards are conserved under every knob, and every battle ends a round or is a tie.
#[test]
fn cards_are_conserved_under_every_knob() {
    for deck in ["4x4", "1x10", "2x3+1"] {
        let deck = Deck::parse(deck).unwrap();
        for &gather in Gather::ALL {
            for face_down in [0, 2, 8] {
                let knobs = Settings::new(Preset::Bataille)
                    .deck(deck)
                    .gather(gather)
                    .face_down(face_down);
                let rules = knobs.build().unwrap();
                let mut engine = Engine::new(rules);
                engine.set_max_rounds(3_000).unwrap();
                for seed in 0..10 {
                    if engine.play_seed(Shuffle::Splitmix, seed).unwrap().battles > 200_000 {
                        continue;
                    }
                    let mut check = Conservation {
                        total: deck.size() as u32,
                        rounds: 0,
                    };
                    let result = engine
                        .play_seed_observed(Shuffle::Splitmix, seed, &mut check)
                        .unwrap();
                    assert!(result.battles >= result.rounds);
                }
            }
        }
    }
}

/// The published fixed points of open War (`tests/data/golden/README.md`), through the library.
#[test]
fn published_fixed_points_of_open_war() {
    let cases: [(&str, Option<Gather>, &str, &str, &str); 7] = [
        ("4x2", None, "1 1 2 2", "2 2 1 1", "PAT"),
        ("1x5", None, "5 3", "2 4 1", "INFINITE 0 6"),
        ("1x7", None, "1 7 4", "5 3 6 2", "INFINITE 0 8"),
        ("1x10", None, "8 6 3 10 5", "2 9 7 4 1", "INFINITE 0 60"),
        (
            "1x16",
            None,
            "1 3 2 8 10 15 11 12",
            "4 6 16 13 9 14 5 7",
            "2 90",
        ),
        (
            "4x3",
            Some(Gather::Sorted),
            "3 2 2 2 3 3",
            "1 1 2 3 1 1",
            "2 34",
        ),
        ("4x4", None, "1 3 2 2 1 2 1 4", "4 4 3 4 1 2 3 3", "1 144"),
    ];
    for (deck, gather, p1, p2, expected) in cases {
        let deck = Deck::parse(deck).unwrap();
        let hand = |text: &str| -> Vec<Card> {
            text.split_whitespace()
                .map(|v| deck.parse_card(v).unwrap())
                .collect()
        };
        let knobs = Settings::new(Preset::Bataille).deck(deck).gather(gather);
        let rules = knobs.build().unwrap();
        let result = play(rules, &[hand(p1), hand(p2)], &mut Silent);
        assert_eq!(play_line(&rules, &result), expected, "{deck} {p1} / {p2}");
        let watched = play(rules, &[hand(p1), hand(p2)], &mut Watching);
        assert_eq!(watched, result);
    }
}

/// The natural gather of docs/rules.md, step by step: the winning card, the losing one, then each
/// tied pair, the most recent first.
#[test]
fn natural_gather_picks_up_the_pile_like_a_hand() {
    let deck = Deck::parse("4x4").unwrap();
    let rules = Settings::new(Preset::Bataille).deck(deck).build().unwrap();
    let hand = |text: &str| -> Vec<Card> {
        text.split_whitespace()
            .map(|v| deck.parse_card(v).unwrap())
            .collect()
    };
    let mut seen = Recorder::default();
    play(rules, &[hand("1 2 4"), hand("1 2 3")], &mut seen);
    // 1-1 tie, 2-2 tie, 4 beats 3: 4 3, then 2 2, then 1 1.
    assert_eq!(seen.taken[0], (1, "4 3 2 2 1 1".to_string()));
}

/// The winner-first-latest gather of docs/rules.md, step by step: the winner's cards, the most
/// recent first, then the loser's, the most recent first; the same on every path.
#[test]
fn winner_first_latest_reads_each_players_cards_latest_first() {
    let deck = Deck::parse("4x5").unwrap();
    let hand = |text: &str| -> Vec<Card> {
        text.split_whitespace()
            .map(|v| deck.parse_card(v).unwrap())
            .collect()
    };
    let (one, two) = ("1 2 5 4", "1 3 4 5");
    let mut checked = 0;
    for (face_down, winner, taken) in [(0, 2, "3 1 2 1"), (1, 1, "5 2 1 4 3 1")] {
        let rules = Settings::new(Preset::Bataille)
            .deck(deck)
            .face_down(face_down)
            .gather(Gather::WinnerFirstLatest)
            .build()
            .unwrap();
        let mut seen = Recorder::default();
        let watched = play(rules, &[hand(one), hand(two)], &mut seen);
        // Open war: 1-1 tie, 3 beats 2: player 2 takes 3 1, then 2 1. With one card face
        // down: 1-1 tie, 2 and 3 down, 5 beats 4: player 1 takes 5 2 1, then 4 3 1.
        assert_eq!(
            seen.taken[0],
            (winner, taken.to_string()),
            "D = {face_down}"
        );
        let unwatched = play(rules, &[hand(one), hand(two)], &mut Silent);
        assert_eq!(unwatched, watched, "D = {face_down}");
        checked += 1;
    }
    assert_eq!(checked, 2);
}

/// sashamayn/war's README: under its open war (gathered winner-first-latest) no deal of a 3x4
/// or a 4x4 deck loops. Every one of the 369,600 deals of 3x4 ends here (4x4's 63,063,000 are
/// in `docs/runs/`).
#[test]
fn no_deal_of_3x4_loops_when_gathered_winner_first_latest() {
    let rules = Settings::new(Preset::Bataille)
        .deck(Deck::parse("3x4").unwrap())
        .gather(Gather::WinnerFirstLatest)
        .build()
        .unwrap();
    let (mut played, mut looped) = (0u64, 0u64);
    let deals = Seeds::new(0, 369_600).unwrap();
    let mut engine = Engine::new(rules);
    engine
        .play_seeds(Shuffle::Lex, deals, |_, game| {
            played += 1;
            looped += u64::from(matches!(game.outcome, Outcome::Infinite { .. }));
        })
        .unwrap();
    assert_eq!((played, looped), (369_600, 0));
}

/// The largest decks (520 cards, values to 64) through both paths, for the orders that end.
#[test]
fn fast_paths_agree_with_the_general_path_on_the_largest_decks() {
    let mut compared = 0;
    for deck in ["8x64+8", "4x64"] {
        for gather in [Gather::Sorted, Gather::P1First, Gather::WinnerFirst] {
            for players in [3, 5, 12] {
                let knobs = Settings::new(Preset::Oorlog)
                    .deck(Deck::parse(deck).unwrap())
                    .players(players)
                    .short_war(ShortWar::MostCards)
                    .face_down(players % 4)
                    .gather(gather);
                let rules = knobs.build().unwrap();
                let (mut fast, mut general) = (Engine::new(rules), Engine::new(rules));
                for seed in 0..2 {
                    let result = fast.play_seed(Shuffle::Splitmix, seed).unwrap();
                    if result.battles > 100_000 {
                        continue;
                    }
                    let watched = general
                        .play_seed_observed(Shuffle::Splitmix, seed, &mut Watching)
                        .unwrap();
                    assert_eq!(result, watched, "{rules:?} seed {seed}");
                    compared += 1;
                }
            }
        }
    }
    // 2 decks x 3 gathers x 3 table sizes x 2 seeds, long games skipped.
    assert!(compared >= 24, "only {compared} games compared");
}

/// Small decks played in machine words (`packed`: four bits a card in 64 and 128 bits, three in
/// 64) give what the runs on arrays give, over many deals of every deck shape that fits, under
/// every gather order and ranking the words play, and over hands handed in directly.
#[test]
fn packed_games_agree_with_the_array_runs() {
    let decks = [
        "4x4", "4x5", "1x10", "2x8", "4x8", "2x13", "1x15+1", "3x5+1", "5x4", "3x7",
    ];
    let mut compared = 0;
    for (d, deck) in decks.iter().enumerate() {
        let deck = Deck::parse(deck).unwrap();
        for (g, &gather) in Gather::ALL.iter().enumerate() {
            if gather == Gather::Random {
                continue;
            }
            for &short_war in ShortWar::ALL {
                let knobs = Settings::new(Preset::Bataille)
                    .deck(deck)
                    .face_down((d + g) % 3)
                    .short_war(short_war)
                    .gather(gather)
                    .deal(Deal::ALL[(d + g) % 2])
                    .ranking(Ranking::ALL[d % Ranking::ALL.len()]);
                let rules = knobs.build().unwrap();
                let mut packed = Engine::new(rules);
                let mut unpacked = Engine::new(rules);
                unpacked.set_packed(false);
                for seed in 0..300 {
                    let shuffle = Shuffle::ALL[seed as usize % 3];
                    let seed = seed * 7919;
                    assert_eq!(
                        packed.play_seed(shuffle, seed),
                        unpacked.play_seed(shuffle, seed),
                        "{rules:?} {shuffle:?} seed {seed}"
                    );
                    compared += 1;
                }
                let hands = packed.deal(Shuffle::Splitmix, 5).unwrap();
                assert_eq!(
                    packed.play_hands(&hands, 0, &mut Silent).unwrap(),
                    unpacked.play_hands(&hands, 0, &mut Silent).unwrap(),
                    "{rules:?} hands"
                );
                compared += 1;
            }
        }
    }
    let settings = decks.len() * (Gather::ALL.len() - 1) * ShortWar::ALL.len();
    assert_eq!(compared, settings * 301);
}

/// A run of `lex` deals played in one loop (`play_seeds`, the exhaustive walk's path) gives
/// what each deal played alone gives: open and closed wars, both rankings, every short-war
/// policy, both deals, decks stepped in one word and beyond it, and a run up to the last
/// arrangement.
#[test]
fn lex_runs_agree_with_single_deals() {
    // Long enough for games to resume from the rounds their deals share (`packed::Prefix`);
    // shorter without optimisation.
    const RUN: u64 = if cfg!(debug_assertions) { 100 } else { 300 };
    let mut games = 0;
    for (d, deck) in ["4x4", "1x5", "2x8", "4x5", "3x5+1"].iter().enumerate() {
        let deck = Deck::parse(deck).unwrap();
        let deals = Seeds::choose(None, Shuffle::Lex, deck, None).unwrap().len() as u64;
        for &ranking in Ranking::ALL {
            for &short_war in ShortWar::ALL {
                for (face_down, &deal) in [0, 1 + d % 2]
                    .into_iter()
                    .flat_map(|f| Deal::ALL.iter().map(move |d| (f, d)))
                {
                    for gather in [Gather::Natural, Gather::Reveal, Gather::WinnerFirst] {
                        let knobs = Settings::new(Preset::Bataille)
                            .deck(deck)
                            .face_down(face_down)
                            .short_war(short_war)
                            .gather(gather)
                            .deal(deal)
                            .ranking(ranking);
                        let rules = knobs.build().unwrap();
                        let (mut run, mut single) = (Engine::new(rules), Engine::new(rules));
                        for start in [0, 5_000, deals / 2 + 77, deals.saturating_sub(150)] {
                            if start >= deals {
                                continue;
                            }
                            let seeds = start..(start + RUN).min(deals);
                            let mut next = seeds.start;
                            run.play_seeds(
                                Shuffle::Lex,
                                Seeds::new(seeds.start, seeds.end.into()).unwrap(),
                                |seed, result| {
                                    assert_eq!(seed, next, "seeds in order");
                                    next += 1;
                                    assert_eq!(
                                        *result,
                                        single.play_seed(Shuffle::Lex, seed).unwrap(),
                                        "{rules:?} seed {seed}"
                                    );
                                },
                            )
                            .unwrap();
                            assert_eq!(next, seeds.end);
                            games += seeds.end - seeds.start;
                        }
                    }
                }
            }
        }
    }
    assert!(games > 100 * RUN, "{games}");
}

/// Fault guarded: a walk's known cycles (`packed::KnownCycles`) stop a game as soon as it
/// reaches a cycle met before; the result must be the one detection gives, start and length
/// and counts. Decks whose games loop for hundreds to tens of thousands of rounds, each walk
/// against every deal played alone.
#[test]
fn known_cycles_give_what_detection_gives() {
    let runs: [(&str, Gather, std::ops::Range<u64>); 4] = [
        ("5x3", Gather::Natural, 0..6_000),
        ("3x5", Gather::Natural, 40_000_000..40_006_000),
        ("7x3", Gather::Sorted, 1_000..4_000),
        ("7x3", Gather::Natural, 100_000_000..100_000_300),
    ];
    let (mut games, mut looped) = (0, 0);
    for (deck, gather, seeds) in runs {
        let knobs = Settings::new(Preset::Bataille)
            .deck(Deck::parse(deck).unwrap())
            .gather(gather);
        let rules = knobs.build().unwrap();
        let (mut walk, mut single) = (Engine::new(rules), Engine::new(rules));
        walk.play_seeds(
            Shuffle::Lex,
            Seeds::new(seeds.start, seeds.end.into()).unwrap(),
            |seed, result| {
                let alone = single.play_seed(Shuffle::Lex, seed).unwrap();
                assert_eq!(*result, alone, "{deck} {gather:?} seed {seed}");
                games += 1;
                looped += u64::from(matches!(alone.outcome, Outcome::Infinite { .. }));
            },
        )
        .unwrap();
    }
    assert_eq!(games, 6_000 + 6_000 + 3_000 + 300);
    assert!(looped > 5_000, "{looped} loops");
}
