//! Cycles without a war, built from who wins each round (docs/research.md, "Cycles without a
//! war"). When no round of a two-player game has a war, whoever wins a round takes both its
//! cards, in an order the rules fix (the engine says which, [`winner_first`]). So a periodic
//! order of winners, with as many rounds won by each player in a period, and player 1's hand
//! size fix where every card goes, whatever the values: one period moves the cards by a
//! permutation of their places, and the period after it meets the same places again. Such a
//! *shape* asks only that the cards that meet, over every period until the cards are back, be
//! ordered: the winner's card higher. That order must have no circle ([`Shape::of`]), and the
//! deck's values must fit it, each value's copies on cards that never meet ([`lay`]). The state
//! the values make is then on a cycle; the backward search finds a deal whose game reaches it.

use super::backward::search::Backward;
use super::{deal, Base, Build, Choose, Drawn, Task};
use crate::deal::SplitMix64;
use crate::engine::Engine;
use crate::hunt::Played;
use crate::rules::{Ranking, Rules};
use std::cmp::Reverse;
use std::collections::VecDeque;
use std::sync::Arc;

/// Rounds a period of winners holds at most: shapes of all shorter periods are tried.
const LONGEST_PERIOD: usize = 16;
/// Shapes a task draws before it plays a random deal.
const TRIES: usize = 4;
/// Layings of values a task tries on each shape it draws: one in 30 to 100 succeeds on the
/// shapes of 4x11 (measured), and a laying costs a few microseconds.
const LAYINGS: usize = 64;
/// Layings tried on each shape when a hunt starts: a shape none of them fits is left out, so
/// that a setting without a shape that takes its values plays random deals at full speed. The
/// shapes of 4x11 fit one laying in 30 to 100; every shape of 4x3 to 4x13 left out takes no
/// values at all (scripts/war-free-census.py, exact).
const PROBES: usize = 4096;
/// States the backward search from a cycle expands at most before it gives up on it.
const STATES: u64 = 20_000;

/// A period of winners with player 1's hand size that plays forever without a war whenever the
/// values fit: each card, the cards it must be higher than and those it must be lower than.
struct Shape {
    /// Player 1's hand size at the period's start: places `0..len0` are its hand, top first,
    /// the rest player 2's.
    len0: usize,
    /// For each place, the places whose cards must be higher.
    above: Vec<Vec<usize>>,
    /// For each place, how many places' cards must be lower.
    below: Vec<usize>,
    /// For each place, the most cards a chain of ever higher cards from it holds, itself too:
    /// the fewest values it and those above it need.
    up: Vec<usize>,
}

impl Shape {
    /// The shape of the period of winners `wins` (0: player 1, 1: player 2, as many of each)
    /// from a state whose player 1 holds `len0` of the `n` cards, where the winner of a round
    /// puts its own card first if `first[winner]`; [`None`] where a hand runs out or the
    /// cards that meet cannot be ordered.
    fn of(wins: &[u8], len0: usize, n: usize, first: [bool; 2]) -> Option<Shape> {
        let mut hands = [
            (0..len0).collect::<VecDeque<usize>>(),
            (len0..n).collect::<VecDeque<usize>>(),
        ];
        let mut meets = Vec::with_capacity(wins.len());
        for &w in wins {
            let w = usize::from(w);
            let cards = [hands[0].pop_front()?, hands[1].pop_front()?];
            let (high, low) = (cards[w], cards[1 - w]);
            meets.push((high, low));
            let order = if first[w] { [high, low] } else { [low, high] };
            hands[w].extend(order);
            if hands[1 - w].is_empty() {
                return None;
            }
        }
        if hands[0].len() != len0 {
            return None;
        }
        // After a period, place `s` holds the card that was at `next[s]`: in each later period
        // the same places meet, holding the cards the permutation brought there.
        let next: Vec<usize> = hands[0].iter().chain(&hands[1]).copied().collect();
        let mut higher = vec![false; n * n];
        for (mut u, mut v) in meets {
            while !higher[u * n + v] {
                if higher[v * n + u] {
                    return None;
                }
                higher[u * n + v] = true;
                (u, v) = (next[u], next[v]);
            }
        }
        let mut above = vec![Vec::new(); n];
        let mut below = vec![0; n];
        for (i, _) in higher.iter().enumerate().filter(|(_, &h)| h) {
            let (u, v) = (i / n, i % n);
            above[v].push(u);
            below[u] += 1;
        }
        let up = chains_up(&above)?;
        Some(Shape {
            len0,
            above,
            below,
            up,
        })
    }
}

/// For each card, the longest chain of ever higher cards from it (itself counted); [`None`]
/// where the order has a circle. Cards are taken from the top down (Kahn's order).
fn chains_up(above: &[Vec<usize>]) -> Option<Vec<usize>> {
    let n = above.len();
    let mut under: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (v, ups) in above.iter().enumerate() {
        for &u in ups {
            under[u].push(v);
        }
    }
    let mut waiting: Vec<usize> = above.iter().map(Vec::len).collect();
    let mut top: Vec<usize> = (0..n).filter(|&u| waiting[u] == 0).collect();
    let mut up = vec![1; n];
    let mut done = 0;
    while let Some(u) = top.pop() {
        done += 1;
        for &v in &under[u] {
            up[v] = up[v].max(up[u] + 1);
            waiting[v] -= 1;
            if waiting[v] == 0 {
                top.push(v);
            }
        }
    }
    (done == n).then_some(up)
}

/// Values laid on `shape`'s cards, the lowest first: `counts[v]` cards of value `v`, each card
/// higher than every card it must beat. Each level takes the cards whose lower cards all have
/// values, those with the longest chains above them first, then those that the most cards
/// must beat, ties broken at random; [`None`] where this laying fails (another may not).
fn lay(shape: &Shape, counts: &[u8], rng: &mut SplitMix64) -> Option<Vec<u8>> {
    let n = shape.up.len();
    let mut waiting = shape.below.clone();
    let mut ready: Vec<usize> = (0..n).filter(|&u| waiting[u] == 0).collect();
    let mut values = vec![0u8; n];
    for (value, &need) in counts.iter().enumerate() {
        let levels = counts.len() - value;
        let mut keyed: Vec<(Reverse<usize>, Reverse<usize>, u64, usize)> = (ready.iter())
            .map(|&u| {
                (
                    Reverse(shape.up[u]),
                    Reverse(shape.above[u].len()),
                    rng.next_u64(),
                    u,
                )
            })
            .collect();
        keyed.sort_unstable();
        let need = usize::from(need);
        if keyed.len() < need {
            return None;
        }
        let (taken, left) = keyed.split_at(need);
        if taken.iter().any(|k| k.0 .0 > levels) || left.iter().any(|k| k.0 .0 >= levels) {
            return None;
        }
        ready = left.iter().map(|k| k.3).collect();
        for &(_, _, _, u) in taken {
            values[u] = value as u8;
            for &a in &shape.above[u] {
                waiting[a] -= 1;
                if waiting[a] == 0 {
                    ready.push(a);
                }
            }
        }
    }
    Some(values)
}

/// Whether the winner of a round puts its own card first when it takes the table, for each
/// player: one round of the engine's own, whose table is a 1 against a 0.
fn winner_first(engine: &mut Engine) -> [bool; 2] {
    let mut after = [Vec::new(), Vec::new()];
    [0, 1].map(|w| {
        let mut hands = [vec![0, 1], vec![0, 1]];
        hands[w] = vec![1, 0];
        engine.step_values([&hands[0], &hands[1]], &mut after);
        after[w][1] == 1
    })
}

/// Every shape of the setting, with its period of winners: periods of at most
/// [`LONGEST_PERIOD`] rounds (each once, as its least rotation, and not a repeat of a shorter
/// one), from every size of player 1's hand. None where the rules are not two players ranked
/// by value.
fn shapes(rules: &Rules, engine: &mut Engine) -> Vec<(Vec<u8>, Shape)> {
    if rules.players() != 2 || rules.ranking() != Ranking::Standard {
        return Vec::new();
    }
    let first = winner_first(engine);
    let n = rules.deck().size();
    let mut found = Vec::new();
    for period in (2..=LONGEST_PERIOD).step_by(2) {
        for wins in periods(period) {
            let of = |len0| Shape::of(&wins, len0, n, first).map(|s| (wins.clone(), s));
            found.extend((1..n).filter_map(of));
        }
    }
    found
}

/// The periods of `length` rounds with as many won by each player, each once: the least of its
/// rotations (as a number, the first round its highest bit), and not a repeat of a shorter one.
fn periods(length: usize) -> Vec<Vec<u8>> {
    let full = (1u32 << length) - 1;
    let rotate = |m: u32, r: usize| ((m << r) | (m >> (length - r))) & full;
    (0..=full)
        .filter(|m| m.count_ones() as usize == length / 2)
        .filter(|&m| (1..length).all(|r| rotate(m, r) > m))
        .map(|m| {
            (0..length)
                .map(|i| ((m >> (length - 1 - i)) & 1) as u8)
                .collect()
        })
        .collect()
}

/// The shapes of a setting and its deck, which each task lays values on.
struct Shapes {
    rules: Rules,
    /// Copies of each value in the deck.
    counts: Vec<u8>,
    shapes: Vec<Shape>,
}

impl Build for Shapes {
    /// A deal whose game reaches a cycle without a war: a shape drawn, values laid on it, and
    /// the backward search from the state they make; a random deal where that fails.
    fn draw(&self, rng: &mut SplitMix64, sorted: &[u8], engine: &mut Engine) -> Drawn {
        let tries = if self.shapes.is_empty() { 0 } else { TRIES };
        for _ in 0..tries {
            let shape = &self.shapes[rng.below(self.shapes.len())];
            let Some(values) = (0..LAYINGS).find_map(|_| lay(shape, &self.counts, rng)) else {
                continue;
            };
            let hands = [values[..shape.len0].to_vec(), values[shape.len0..].to_vec()];
            let mut back = Backward::new(&self.rules);
            if let Some(order) = back.deal_into(engine, hands, STATES) {
                return Drawn {
                    order,
                    pieces: Vec::new(),
                };
            }
        }
        Drawn {
            order: deal::random_deal(sorted, rng),
            pieces: Vec::new(),
        }
    }
}

/// The strategy: every task draws its shape and values afresh; nothing is learned.
pub(super) struct WarFree {
    shapes: Arc<Shapes>,
}

impl WarFree {
    pub(super) fn new(rules: &Rules) -> WarFree {
        let counts = deal::value_counts(rules);
        let mut engine = Engine::new(*rules);
        let mut rng = SplitMix64(0);
        let shapes = (shapes(rules, &mut engine).into_iter())
            .map(|(_, shape)| shape)
            .filter(|shape| (0..PROBES).any(|_| lay(shape, &counts, &mut rng).is_some()))
            .collect();
        WarFree {
            shapes: Arc::new(Shapes {
                rules: *rules,
                counts,
                shapes,
            }),
        }
    }
}

impl Choose for WarFree {
    fn tasks(&mut self, count: usize) -> Vec<Task> {
        let shapes: Arc<dyn Build> = self.shapes.clone();
        (0..count)
            .map(|_| Task::plain(Base::Built(shapes.clone())))
            .collect()
    }

    fn learn(&mut self, _first: usize, _given: &[Played], _played: &[Played]) {}

    fn save(&self) -> serde_json::Value {
        serde_json::json!({})
    }

    fn restore(&mut self, _saved: &serde_json::Value) -> Result<(), String> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Outcome;
    use crate::rules::{Deck, Gather, Preset, Settings};
    use crate::Silent;

    fn bataille(deck: &str, gather: Gather) -> Rules {
        (Settings::new(Preset::Bataille).deck(Deck::parse(deck).unwrap()))
            .gather(gather)
            .build()
            .unwrap()
    }

    /// The periods are the balanced binary Lyndon words: 1, 1, 3, 8, 25, 75, 245 and 800 of 2
    /// to 16 rounds (OEIS A022553).
    #[test]
    fn the_periods_are_the_balanced_lyndon_words() {
        let counts: Vec<usize> = (2..=16).step_by(2).map(|l| periods(l).len()).collect();
        assert_eq!(counts, [1, 1, 3, 8, 25, 75, 245, 800]);
        assert_eq!(periods(8)[0], [0, 0, 0, 0, 1, 1, 1, 1]);
    }

    /// Under natural and sorted alike the winner's card goes back first. The shapes of 44
    /// cards: four rounds won by each player, player 1 holding a multiple of 8 cards, and two
    /// periods of 16 rounds (which take no values: scripts/war-free-census.py); of 52 cards,
    /// the four wins each alone. Compared with an independent enumeration (that script's).
    #[test]
    fn the_shapes_of_44_and_52_cards() {
        let four = |sizes: &[usize]| sizes.iter().map(|&n| ("AAAABBBB", n)).collect::<Vec<_>>();
        let mut of44 = four(&[8, 16, 24, 32]);
        let sixteen = ["AAAABABABABABBBB", "AAAABBBBABABABAB"];
        of44.extend([
            (sixteen[0], 16),
            (sixteen[0], 32),
            (sixteen[1], 8),
            (sixteen[1], 24),
        ]);
        let of52 = four(&[8, 16, 24, 32, 40]);
        let mut compared = 0;
        for gather in [Gather::Natural, Gather::Sorted] {
            for (deck, expected) in [("4x11", &of44), ("4x13", &of52)] {
                let rules = bataille(deck, gather);
                let mut engine = Engine::new(rules);
                assert_eq!(winner_first(&mut engine), [true, true]);
                let text = |wins: &[u8]| -> String {
                    wins.iter().map(|&w| char::from(b'A' + w)).collect()
                };
                let found = shapes(&rules, &mut engine);
                let got: Vec<(String, usize)> = (found.iter())
                    .map(|(wins, s)| (text(wins), s.len0))
                    .collect();
                let expected: Vec<(String, usize)> =
                    expected.iter().map(|&(w, n)| (w.to_string(), n)).collect();
                assert_eq!(got, expected, "{deck} {gather:?}");
                compared += got.len();
            }
        }
        assert_eq!(compared, 26);
    }

    /// Values laid on the shapes of 4x11 make states on cycles without a war (the engine's
    /// public entry point plays each: the state recurs from round 0, every round one battle),
    /// each value four times; the two cycles bataille_cpp found at random (1,152 and 13,440
    /// rounds) are among them.
    #[test]
    fn values_laid_on_a_shape_make_a_cycle_without_a_war() {
        let rules = bataille("4x11", Gather::Natural);
        let mut engine = Engine::new(rules);
        let found = shapes(&rules, &mut engine);
        let mut rng = SplitMix64(7);
        let (mut played, mut lengths) = (0, std::collections::BTreeSet::new());
        for (_, shape) in &found {
            for _ in 0..200 {
                let Some(values) = lay(shape, &[4; 11], &mut rng) else {
                    continue;
                };
                let mut counts = [0; 11];
                values.iter().for_each(|&v| counts[usize::from(v)] += 1);
                assert_eq!(counts, [4; 11]);
                let card = |v: &u8| rules.deck().value_card(i64::from(*v) + 1).unwrap();
                let hands = [&values[..shape.len0], &values[shape.len0..]]
                    .map(|h| h.iter().map(card).collect::<Vec<_>>());
                let game = engine.play_hands(&hands, 0, &mut Silent).unwrap();
                let Outcome::Infinite {
                    cycle_start,
                    cycle_length,
                } = game.outcome
                else {
                    panic!("{values:?} ends: {game:?}");
                };
                assert_eq!((cycle_start, game.wars), (0, 0));
                lengths.insert(cycle_length);
                played += 1;
            }
        }
        assert!(played >= 40, "{played} laid");
        assert!(
            lengths.contains(&1152) && lengths.contains(&13_440),
            "{lengths:?}"
        );
    }
}
