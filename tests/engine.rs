//! The engine against the seed documents' own examples, and properties every game must keep.

use warsweep::cards::{Card, DeckKind};
use warsweep::deal::Shuffle;
use warsweep::engine::{Engine, GameResult, Observer, Outcome, Silent};
use warsweep::hands::Hands;
use warsweep::record::{answer_pair, play_line};
use warsweep::rules::{Gather, Preset, Rules};

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|t| Card::parse(t).unwrap_or_else(|| panic!("{t} is a card")))
        .collect()
}

fn play(rules: Rules, hands: &[Vec<Card>], observer: &mut impl Observer) -> GameResult {
    let total = hands.iter().map(Vec::len).sum();
    let mut engine = Engine::with_capacity(rules, total, rules.preset.deck());
    engine.play_hands(hands, 0, observer)
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
                        .map(|c| c.to_string())
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
        .map(|&seed| answer_pair(&rules, &engine.play_seed(Shuffle::Lcg, seed)))
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
        assert_eq!(hands.lens().sum::<u32>(), self.total);
        self.rounds += 1;
    }
}

#[test]
fn cards_are_conserved_every_round_under_every_setting() {
    for preset in Preset::ALL {
        let players = if preset == Preset::Oorlog {
            vec![2, 3, 5, 12]
        } else {
            vec![2]
        };
        for n in players {
            for gather in Gather::ALL {
                let rules = Rules::new(preset, Some(n), Some(gather)).unwrap();
                let mut engine = Engine::new(rules);
                engine.set_max_rounds(5_000);
                for seed in 0..20 {
                    let mut check = Conservation {
                        total: preset.deck().len() as u32,
                        rounds: 0,
                    };
                    let result = engine.play_seed_observed(Shuffle::Splitmix, seed, &mut check);
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
        let engine = Engine::new(Rules::new(preset, Some(players), None).unwrap());
        for shuffle in [Shuffle::Lcg, Shuffle::Splitmix] {
            let hands = engine.deal(shuffle, 12345);
            let mut all: Vec<Card> = hands.concat();
            all.sort();
            let mut deck = preset.deck().sorted();
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
        } = engine.play_seed(Shuffle::Lcg, seed).outcome
        else {
            continue;
        };
        let mut states = Recorder::default();
        let mut long =
            Engine::new(Rules::new(Preset::Codingame, None, Some(Gather::P1First)).unwrap());
        // Replay with a recorder; it stops at detection, which is past mu + lambda.
        long.play_seed_observed(Shuffle::Lcg, seed, &mut states);
        let deal: Vec<String> = long
            .deal(Shuffle::Lcg, seed)
            .iter()
            .map(|h| h.iter().map(Card::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        let mut all = vec![deal];
        all.extend(states.hands);
        let values = |s: &Vec<String>| -> Vec<Vec<u8>> {
            s.iter()
                .map(|h| {
                    h.split_whitespace()
                        .map(|c| Card::parse(c).unwrap().value())
                        .collect()
                })
                .collect()
        };
        let state = |i: u64| values(&all[i as usize]);
        let (mu, lambda) = (cycle_start, cycle_length);
        // An infinite game's counts cover its first mu + lambda rounds.
        let counted = engine.play_seed(Shuffle::Lcg, seed);
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
    let rules = Rules::new(Preset::Shortened, None, Some(Gather::Random)).unwrap();
    let mut engine = Engine::new(rules);
    engine.set_max_rounds(300);
    let a: Vec<GameResult> = (0..50).map(|s| engine.play_seed(Shuffle::Lcg, s)).collect();
    let b: Vec<GameResult> = (0..50).map(|s| engine.play_seed(Shuffle::Lcg, s)).collect();
    assert_eq!(a, b);
    assert!(a
        .iter()
        .any(|r| r.outcome == Outcome::Capped && r.rounds == 300));
    assert!(a.iter().all(|r| r.rounds <= 300));
}

#[test]
fn engine_grows_for_large_codingame_hands() {
    // 999 cards each, as CodinGame allows.
    let deck = DeckKind::Standard.sorted();
    let hand =
        |offset: usize| -> Vec<Card> { (0..999).map(|i| deck[(i * 7 + offset) % 52]).collect() };
    let result = play(
        Rules::preset(Preset::Codingame),
        &[hand(0), hand(3)],
        &mut Silent,
    );
    assert!(result.battles > 0);
}

/// Watches nothing, but being active sends every game down the general, observed path.
struct Watching;
impl Observer for Watching {}

/// The fast paths (two-player runs and wars, the N-player round) give exactly what the general
/// path gives, under every preset, player count and gather order.
#[test]
fn fast_paths_agree_with_the_general_path() {
    for preset in Preset::ALL {
        let players = if preset == Preset::Oorlog {
            (2..=12).collect()
        } else {
            vec![2]
        };
        for n in players {
            for gather in Gather::ALL {
                let rules = Rules::new(preset, Some(n), Some(gather)).unwrap();
                let mut fast = Engine::new(rules);
                let mut general = Engine::new(rules);
                fast.set_max_rounds(3_000);
                general.set_max_rounds(3_000);
                for seed in 0..60 {
                    for shuffle in [Shuffle::Lcg, Shuffle::Splitmix] {
                        assert_eq!(
                            fast.play_seed(shuffle, seed),
                            general.play_seed_observed(shuffle, seed, &mut Watching),
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
        let rules = Rules::new(Preset::Oorlog, Some(n), None).unwrap();
        let mut fast = Engine::new(rules);
        let mut general = Engine::new(rules);
        for seed in 0..3000 {
            assert_eq!(
                fast.play_seed(Shuffle::Lcg, seed),
                general.play_seed_observed(Shuffle::Lcg, seed, &mut Watching),
                "oorlog {n}p seed {seed}"
            );
        }
    }
}
