//! Cycles without a war, built from who wins each round (docs/research.md, "Cycles without a
//! war"). When no round of a two-player game has a war, whoever wins a round takes both its
//! cards, in an order the rules fix (the engine says which, [`gathering`]). So a periodic
//! order of winners, with as many rounds won by each player in a period, and player 1's hand
//! size fix where every card goes, whatever the values: one period moves the cards by a
//! permutation of their places, and the period after it meets the same places again. Such a
//! *shape* asks only that the cards that meet, over every period until the cards are back, be
//! ordered: the winner's card higher. That order must have no circle ([`Shape::of`]), and the
//! deck's values must fit it, each value's copies on cards that never meet ([`lay`]). The state
//! the values make is then on a cycle; the backward search finds a deal whose game reaches it.
//!
//! A war moves the cards otherwise, but a war at a fixed battle of the period does so in the
//! same way every period: a *war shape* is a period of who wins each battle whose first two
//! battles are one war of player 1's, its tied value under both deciding cards (a *low* war,
//! gathered alike under `natural` and `sorted`). The tied cards must then be equal: they join
//! the cards into classes of one value each (docs/research.md, "Infinite games of 52 cards").

use super::{deal, Base, Build, Choose, Drawn, Task, Tools, Unlearned};
use crate::deal::SplitMix64;
use crate::engine::Engine;
use crate::hunt::{Halt, HuntError, Played, Unbuildable};
use crate::rules::{Ranking, Rules};
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::VecDeque;
use std::sync::Arc;

/// Rounds a period of winners holds at most: shapes of all shorter periods are tried.
const LONGEST_PERIOD: usize = 16;
/// Battles a war shape's period holds at most: 18 is the shortest that has shapes of 52 cards
/// taking their values (scripts/four-wins-census.py --words, exact).
const LONGEST_WAR_PERIOD: usize = 18;
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

/// A period of winners with player 1's hand size that plays forever whenever the values fit:
/// the classes of cards that must hold one value (one card each without a war), and for each
/// class the classes whose values must be higher and those whose values must be lower.
struct Shape {
    /// Player 1's hand size at the period's start: places `0..len0` are its hand, top first,
    /// the rest player 2's.
    len0: usize,
    /// For each place, its class.
    class: Vec<usize>,
    /// For each class, its cards.
    size: Vec<usize>,
    /// For each class, the classes whose values must be higher.
    above: Vec<Vec<usize>>,
    /// For each class, how many classes' values must be lower.
    below: Vec<usize>,
    /// For each class, the most classes a chain of ever higher ones from it holds, itself too:
    /// the fewest values it and those above it need.
    up: Vec<usize>,
}

/// How the engine's winner takes the table, for each player: whether its own card goes first
/// after a single battle, and where the cards of a low war go (0 and 1: the tied cards, the
/// winner's first; 2 and 3: the winner's and the loser's deciding cards), where face-down
/// count 0 makes such a war.
struct Gathering {
    first: [bool; 2],
    war: Option<[[usize; 4]; 2]>,
}

impl Shape {
    /// The shape of the period `wins` (who wins each battle: 0 player 1, 1 player 2, as many
    /// of each), its first two battles a low war if `war`, from a state whose player 1 holds
    /// `len0` of the `n` cards, each winner taking the table as `gathering` says; [`None`]
    /// where a hand runs out, a class would outnumber `copies`, or the order has a circle.
    fn of(
        wins: &[u8],
        war: bool,
        len0: usize,
        n: usize,
        gathering: &Gathering,
        copies: usize,
    ) -> Option<Shape> {
        let mut hands = [
            (0..len0).collect::<VecDeque<usize>>(),
            (len0..n).collect::<VecDeque<usize>>(),
        ];
        let (mut meets, mut ties) = (Vec::with_capacity(wins.len()), Vec::new());
        let mut battle = 0;
        while battle < wins.len() {
            let w = usize::from(wins[battle]);
            let cards = [hands[0].pop_front()?, hands[1].pop_front()?];
            match gathering.war.filter(|_| war && battle == 0) {
                Some(gathered) => {
                    let decided = [hands[0].pop_front()?, hands[1].pop_front()?];
                    let table = [cards[w], cards[1 - w], decided[w], decided[1 - w]];
                    // The winner's deciding card over the loser's, over the tied value.
                    meets.extend([(table[2], table[3]), (table[3], table[0])]);
                    ties.push((table[0], table[1]));
                    hands[w].extend(gathered[w].map(|at| table[at]));
                    battle += 2;
                }
                None => {
                    let (high, low) = (cards[w], cards[1 - w]);
                    meets.push((high, low));
                    let first = gathering.first[w];
                    hands[w].extend(if first { [high, low] } else { [low, high] });
                    battle += 1;
                }
            }
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
        let (class, size) = tie_classes(&ties, &next, copies)?;
        let k = size.len();
        let (mut visited, mut higher) = (vec![false; n * n], vec![false; k * k]);
        for (mut u, mut v) in meets {
            while !visited[u * n + v] {
                visited[u * n + v] = true;
                let (cu, cv) = (class[u], class[v]);
                if cu == cv || higher[cv * k + cu] {
                    return None;
                }
                higher[cu * k + cv] = true;
                (u, v) = (next[u], next[v]);
            }
        }
        let mut above = vec![Vec::new(); k];
        let mut below = vec![0; k];
        for (i, _) in higher.iter().enumerate().filter(|(_, &h)| h) {
            let (u, v) = (i / k, i % k);
            above[v].push(u);
            below[u] += 1;
        }
        let up = chains_up(&above)?;
        Some(Shape {
            len0,
            class,
            size,
            above,
            below,
            up,
        })
    }
}

/// The classes the tied pairs join the places into, over every period (`next` as in
/// [`Shape::of`]): each place's class and each class's size, [`None`] where one would hold
/// more than `copies` cards.
fn tie_classes(
    ties: &[(usize, usize)],
    next: &[usize],
    copies: usize,
) -> Option<(Vec<usize>, Vec<usize>)> {
    let n = next.len();
    let mut parent: Vec<usize> = (0..n).collect();
    let root = |parent: &mut Vec<usize>, mut x: usize| {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    };
    for &start in ties {
        let (mut a, mut b) = start;
        loop {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            parent[ra] = rb;
            (a, b) = (next[a], next[b]);
            if (a, b) == start {
                break;
            }
        }
    }
    let (mut size, mut named) = (Vec::new(), vec![usize::MAX; n]);
    let class: Vec<usize> = (0..n)
        .map(|u| {
            let r = root(&mut parent, u);
            if named[r] == usize::MAX {
                named[r] = size.len();
                size.push(0);
            }
            size[named[r]] += 1;
            named[r]
        })
        .collect();
    size.iter().all(|&s| s <= copies).then_some((class, size))
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

/// Values laid on `shape`'s cards, the lowest first: `counts[v]` cards of value `v`, each class
/// higher than every class it must beat. Each level takes classes whose lower classes all have
/// values, those with the longest chains above them first, then those that the most classes
/// must beat, ties broken at random, while their cards fit the value's copies; [`None`] where
/// this laying fails (another may not).
fn lay(shape: &Shape, counts: &[u8], rng: &mut SplitMix64) -> Option<Vec<u8>> {
    let k = shape.up.len();
    let mut waiting = shape.below.clone();
    let mut ready: Vec<usize> = (0..k).filter(|&u| waiting[u] == 0).collect();
    let mut values = vec![0u8; k];
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
        let (mut need, mut taken, mut left) = (usize::from(need), Vec::new(), Vec::new());
        for key in keyed {
            if shape.size[key.3] <= need {
                need -= shape.size[key.3];
                taken.push(key);
            } else {
                left.push(key);
            }
        }
        if need > 0
            || taken.iter().any(|k| k.0 .0 > levels)
            || left.iter().any(|k| k.0 .0 >= levels)
        {
            return None;
        }
        ready = left.iter().map(|k| k.3).collect();
        for &(_, _, _, u) in &taken {
            values[u] = value as u8;
            for &a in &shape.above[u] {
                waiting[a] -= 1;
                if waiting[a] == 0 {
                    ready.push(a);
                }
            }
        }
    }
    Some(shape.class.iter().map(|&c| values[c]).collect())
}

/// How the engine's winner takes the table ([`Gathering`]): a round of the engine's own whose
/// table is a 1 against a 0 for each player, and, with no card face down, a war of a 0 against
/// a 0 decided by a 2 against a 1.
fn gathering(rules: &Rules, engine: &mut Engine) -> Gathering {
    let mut after = [Vec::new(), Vec::new()];
    let first = [0, 1].map(|w| {
        let mut hands = [vec![0, 1], vec![0, 1]];
        hands[w] = vec![1, 0];
        engine.step_values([&hands[0], &hands[1]], &mut after);
        after[w][1] == 1
    });
    let war = (rules.face_down() == 0).then(|| {
        [0, 1].map(|w| {
            let mut hands = [vec![0, 1, 3], vec![0, 1, 3]];
            hands[w] = vec![0, 2, 3];
            engine.step_values([&hands[0], &hands[1]], &mut after);
            let mut tied = 0;
            let mut at = [0; 4];
            for (i, &v) in after[w][1..].iter().enumerate() {
                at[i] = match v {
                    2 => 2,
                    1 => 3,
                    _ => {
                        tied += 1;
                        tied - 1
                    }
                };
            }
            at
        })
    });
    Gathering { first, war }
}

/// Every shape of the setting, with its period of winners and whether it begins with a war:
/// periods of at most [`LONGEST_PERIOD`] rounds (each once, as its least rotation, and not a
/// repeat of a shorter one), and war shapes of at most [`LONGEST_WAR_PERIOD`] battles (each
/// once: a period begins with its war), from every size of player 1's hand, no class of more
/// than `copies` cards. The rules are two players ranked by value ([`plan`] refuses others).
fn shapes(rules: &Rules, engine: &mut Engine, copies: usize) -> Vec<(Vec<u8>, bool, Shape)> {
    let gathering = gathering(rules, engine);
    let n = rules.deck().size();
    let mut words: Vec<(Vec<u8>, bool)> = Vec::new();
    for period in (2..=LONGEST_PERIOD).step_by(2) {
        words.extend(periods(period).into_iter().map(|wins| (wins, false)));
    }
    if gathering.war.is_some() {
        for period in (4..=LONGEST_WAR_PERIOD).step_by(2) {
            words.extend(war_periods(period).into_iter().map(|wins| (wins, true)));
        }
    }
    // Each word on its own (about 800,000 calls of `Shape::of` on 4x13), on the threads of
    // the pool it is called in; collected in the words' order.
    words
        .into_par_iter()
        .flat_map_iter(|(wins, war)| {
            let of = |len0| Shape::of(&wins, war, len0, n, &gathering, copies);
            let found: Vec<Shape> = (1..n).filter_map(of).collect();
            found.into_iter().map(move |s| (wins.clone(), war, s))
        })
        .collect()
}

/// The periods of `length` battles with as many won by each player whose first two battles
/// are player 1's (its war).
fn war_periods(length: usize) -> Vec<Vec<u8>> {
    (0..1u32 << (length - 2))
        .filter(|m| m.count_ones() as usize == length / 2)
        .map(|m| {
            let rest = (0..length - 2).map(|i| ((m >> (length - 3 - i)) & 1) as u8);
            [0, 0].into_iter().chain(rest).collect()
        })
        .collect()
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
pub(crate) struct Shapes {
    /// Copies of each value in the deck.
    counts: Vec<u8>,
    shapes: Vec<Shape>,
}

impl Build for Shapes {
    /// A deal whose game reaches a cycle without a war: a shape drawn, values laid on it, and
    /// the backward search from the state they make; a random deal where that fails.
    /// `halt` is looked at before each try (a walk back costs up to about 10 ms on 4x13).
    fn draw(&self, rng: &mut SplitMix64, tools: &mut Tools, halt: &Halt) -> Option<Drawn> {
        for _ in 0..TRIES {
            if halt.now() {
                return None;
            }
            let shape = &self.shapes[rng.below(self.shapes.len())];
            let Some(values) = (0..LAYINGS).find_map(|_| lay(shape, &self.counts, rng)) else {
                continue;
            };
            let hands = [values[..shape.len0].to_vec(), values[shape.len0..].to_vec()];
            let search = tools.search.as_deref_mut().expect("a two-player setting");
            if let Some(order) = search.deal_into(tools.engine, hands, STATES) {
                return Some(Drawn::of_build(order, Vec::new(), true));
            }
        }
        let order = deal::random_deal(tools.sorted, rng);
        Some(Drawn::of_build(order, Vec::new(), false))
    }
}

/// The shapes of `rules` that take its deck's values (each fits one of [`PROBES`] layings),
/// and the line a hunt says of them when it starts; or why it builds nothing: no shape (the
/// rules are not two players ranked by value), or none that takes the values.
pub(crate) fn plan(rules: &Rules) -> Result<(Arc<Shapes>, String), HuntError> {
    if rules.ranking() != Ranking::Standard {
        return Err(HuntError::Unbuildable(Unbuildable::Ranking));
    }
    let counts = deal::value_counts(rules);
    let mut engine = Engine::new(*rules);
    let mut rng = SplitMix64(0);
    let copies = counts.iter().copied().max().map_or(0, usize::from);
    let all = shapes(rules, &mut engine, copies);
    let tried = all.len();
    let shapes: Vec<Shape> = (all.into_iter())
        .map(|(_, _, shape)| shape)
        .filter(|shape| takes_values(shape, &counts, &mut rng))
        .collect();
    if shapes.is_empty() {
        return Err(HuntError::Unbuildable(Unbuildable::NoShape { tried }));
    }
    let line = format!(
        "the war-free strategy builds from {} of the {tried} shapes of periods of up to {LONGEST_PERIOD} rounds without a war or {LONGEST_WAR_PERIOD} battles with one, those that took this deck's values in {PROBES} layings; a task whose layings and walks back fail plays a random deal, counted as fallen back",
        shapes.len()
    );
    Ok((Arc::new(Shapes { counts, shapes }), line))
}

/// Whether one of [`PROBES`] layings of the deck's values (`counts` copies of each) fits
/// `shape`: a hunt builds from the shapes that pass.
fn takes_values(shape: &Shape, counts: &[u8], rng: &mut SplitMix64) -> bool {
    (0..PROBES).any(|_| lay(shape, counts, rng).is_some())
}

/// The strategy: every task draws its shape and values afresh; nothing is learned.
pub(super) struct WarFree {
    shapes: Arc<Shapes>,
}

impl WarFree {
    /// The strategy from what [`plan`] made of the setting.
    pub(super) fn new(shapes: Arc<Shapes>) -> WarFree {
        WarFree { shapes }
    }
}

impl Choose for WarFree {
    fn tasks(&mut self, count: usize) -> Vec<Task> {
        let shapes: Arc<dyn Build> = self.shapes.clone();
        (0..count)
            .map(|_| Task::plain(Base::Built(shapes.clone())))
            .collect()
    }

    fn learn(&mut self, _first: usize, _given: &[Option<Played>], _played: &[Option<Played>]) {}

    fn save(&self) -> serde_json::Value {
        serde_json::json!({})
    }

    fn restore(&mut self, _saved: &serde_json::Value, _sorted: &[u8]) -> Result<(), Unlearned> {
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

    /// Values laid once on `shape` (four copies of each of `values`), checked to be the deck's,
    /// and the game of the state they make by the engine's public entry point: its cycle start,
    /// cycle length and wars; [`None`] where the laying fails; a panic where the game ends.
    fn lay_and_play(
        rules: Rules,
        engine: &mut Engine,
        shape: &Shape,
        values: usize,
        rng: &mut SplitMix64,
    ) -> Option<(u64, u64, u64)> {
        let laid = lay(shape, &vec![4; values], rng)?;
        let mut counts = vec![0; values];
        laid.iter().for_each(|&v| counts[usize::from(v)] += 1);
        assert_eq!(counts, vec![4; values]);
        let card = |v: &u8| rules.deck().value_card(i64::from(*v) + 1).unwrap();
        let hands = [&laid[..shape.len0], &laid[shape.len0..]]
            .map(|h| h.iter().map(card).collect::<Vec<_>>());
        let game = engine.play_hands(&hands, 0, &mut Silent).unwrap();
        let Outcome::Infinite {
            cycle_start,
            cycle_length,
        } = game.outcome
        else {
            panic!("{laid:?} ends: {game:?}");
        };
        Some((cycle_start, cycle_length, game.wars))
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
                assert_eq!(gathering(&rules, &mut engine).first, [true, true]);
                let text = |wins: &[u8]| -> String {
                    wins.iter().map(|&w| char::from(b'A' + w)).collect()
                };
                let found = shapes(&rules, &mut engine, 4);
                let got: Vec<(String, usize)> = (found.iter())
                    .filter(|(_, war, _)| !war)
                    .map(|(wins, _, s)| (text(wins), s.len0))
                    .collect();
                let expected: Vec<(String, usize)> =
                    expected.iter().map(|&(w, n)| (w.to_string(), n)).collect();
                assert_eq!(got, expected, "{deck} {gather:?}");
                compared += got.len();
            }
        }
        assert_eq!(compared, 26);
    }

    /// A census line's deck, whether its shapes have a war, their longest period, and its
    /// counts of shapes with no circle and of those taking the values.
    fn census_line(line: &str) -> (&str, bool, usize, usize, usize) {
        let deck = line.split([':', ' ']).next().unwrap();
        let war = line.contains(" natural, every word");
        let longest = match war {
            true => line.split("4..").nth(1).unwrap().split(' ').next().unwrap(),
            false => "16",
        };
        let count = |after: &str| -> usize {
            let rest = line.split(after).nth(1).unwrap().trim_start();
            let digits = rest.split([' ', ';']).next().unwrap().replace(',', "");
            digits.parse().unwrap()
        };
        let circles = if war {
            "of one value"
        } else {
            "shapes with no circle"
        };
        let (no_circle, taking) = (count(circles), count("taking the values"));
        (deck, war, longest.parse().unwrap(), no_circle, taking)
    }

    /// The census scripts' shapes (tests/data/census/shapes.txt, an independent enumeration
    /// with an exact SAT laying): for 4x7, 4x11 and 4x13 without a war (periods of up to 16
    /// rounds) and `natural` with one war a period (up to 14 battles on 4x7, 18 on 4x13),
    /// the shapes whose order has no circle (the census's count, and each listed) and those
    /// that take the values (each listed, with its state) are the Rust shapes and those the
    /// hunt's plan keeps.
    #[test]
    fn the_shapes_are_the_census_s() {
        let census = include_str!("../../../tests/data/census/shapes.txt");
        let text = |wins: &[u8]| -> String { wins.iter().map(|&w| char::from(b'A' + w)).collect() };
        let mut compared = 0;
        let mut lines = census.lines().peekable();
        while let Some(line) = lines.next() {
            if !line.starts_with("4x") {
                continue;
            }
            let (deck, war, longest, no_circle, taking) = census_line(line);
            let mut listed = Vec::new();
            while lines.peek().is_some_and(|l| l.starts_with("  ")) {
                let words: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
                let len0 = words[words.len() - 2].trim_end_matches(':');
                listed.push((words[0].to_string(), len0.parse::<usize>().unwrap()));
            }
            assert_eq!(listed.len(), taking, "{line}");
            let gathers: &[Gather] = if war {
                &[Gather::Natural]
            } else {
                &[Gather::Natural, Gather::Sorted]
            };
            for &gather in gathers {
                let rules = bataille(deck, gather);
                let mut engine = Engine::new(rules);
                let all = shapes(&rules, &mut engine, 4);
                let ours: Vec<(String, usize)> = (all.iter())
                    .filter(|(wins, w, _)| *w == war && wins.len() <= longest)
                    .map(|(wins, _, shape)| (text(wins), shape.len0))
                    .collect();
                assert_eq!(ours.len(), no_circle, "{deck} {gather:?} war {war}");
                if !war {
                    // The census lists each shape with no circle on its line.
                    for (wins, len0) in &ours {
                        assert!(
                            line.contains(&format!("('{wins}', {len0})")),
                            "{wins} {len0}"
                        );
                    }
                }
                // Those the plan's probes find values for are the census's, listed.
                let counts = deal::value_counts(&rules);
                let mut rng = SplitMix64(0);
                let taken: Vec<(String, usize)> = (all.into_iter())
                    .filter(|(wins, w, _)| *w == war && wins.len() <= longest)
                    .filter(|(_, _, shape)| takes_values(shape, &counts, &mut rng))
                    .map(|(wins, _, shape)| (text(&wins), shape.len0))
                    .collect();
                assert_eq!(taken, listed, "{deck} {gather:?} war {war}");
                compared += ours.len();
            }
        }
        assert!(compared >= 4 * 2 + 8 * 2 + 5 * 2 + 3 + 20, "{compared}");
    }

    /// Values laid on the shapes of 4x11 make states on cycles without a war (the engine's
    /// public entry point plays each: the state recurs from round 0, every round one battle),
    /// each value four times; the two cycles bataille_cpp found at random (1,152 and 13,440
    /// rounds) are among them.
    #[test]
    fn values_laid_on_a_shape_make_a_cycle_without_a_war() {
        let rules = bataille("4x11", Gather::Natural);
        let mut engine = Engine::new(rules);
        let found = shapes(&rules, &mut engine, 4);
        let mut rng = SplitMix64(7);
        let (mut played, mut lengths) = (0, std::collections::BTreeSet::new());
        for (_, _, shape) in found.iter().filter(|(_, war, _)| !war) {
            for _ in 0..200 {
                let Some((cycle_start, cycle_length, wars)) =
                    lay_and_play(rules, &mut engine, shape, 11, &mut rng)
                else {
                    continue;
                };
                assert_eq!((cycle_start, wars), (0, 0));
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

    /// Values laid on the war shapes make states on cycles with one war a period: of 28
    /// cards, the 52-round cycle bataille_cpp found at random on 4x7 `natural`; of 52 cards,
    /// 1,020-round cycles, under `natural` and `sorted` alike (the war is low, gathered the
    /// same way by both). The engine's public entry point plays each from round 0.
    #[test]
    fn values_laid_on_a_war_shape_make_a_cycle_with_wars() {
        let mut compared = 0;
        for (deck, values, period) in [("4x7", 7, 52), ("4x13", 13, 1020)] {
            for gather in [Gather::Natural, Gather::Sorted] {
                let rules = bataille(deck, gather);
                let mut engine = Engine::new(rules);
                let found = shapes(&rules, &mut engine, 4);
                let mut rng = SplitMix64(3);
                let (mut played, mut lengths) = (0, std::collections::BTreeSet::new());
                for (_, _, shape) in found.iter().filter(|(_, war, _)| *war) {
                    for _ in 0..400 {
                        let Some((cycle_start, cycle_length, wars)) =
                            lay_and_play(rules, &mut engine, shape, values, &mut rng)
                        else {
                            continue;
                        };
                        assert_eq!(cycle_start, 0);
                        assert!(wars > 0);
                        lengths.insert(cycle_length);
                        played += 1;
                    }
                }
                assert!(played >= 20, "{deck} {gather:?}: {played} laid");
                assert!(lengths.contains(&period), "{deck} {gather:?}: {lengths:?}");
                compared += played;
            }
        }
        assert!(compared >= 80, "{compared}");
    }
}
