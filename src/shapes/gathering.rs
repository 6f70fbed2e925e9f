//! Where the engine's winner puts the table's cards, asked of the engine itself (one rule, one
//! place): a round played on values that tell each card apart, read back from the winner's
//! hand.

use super::{Kind, NoShape, War};
use crate::engine::Engine;
use crate::rules::deck::MAX_VALUES;
use crate::rules::{Gather, Rules, MAX_FACE_DOWN};
use std::collections::HashMap;

/// Cards at the bottom of both hands, so that the round never ends the game: lower than every
/// card the round plays, and left where they are.
const FLOOR: u8 = 0;
/// The values a round is asked with, each kind of war: the tied value, the winner's deciding
/// card, the loser's (`High`: the tie at least the winning card; `Mid`: between; `Low`: under
/// both deciding cards).
const ASKED: [(Kind, [u8; 3]); 3] = [
    (Kind::High, [3, 2, 1]),
    (Kind::Mid, [2, 3, 1]),
    (Kind::Low, [1, 3, 2]),
];
/// The first value of the face-down cards, each its own.
const FACE_DOWN: u8 = 4;
/// The first value of a chained war's later ties, above every face-down card's.
const LATER_TIES: u8 = FACE_DOWN + (2 * MAX_FACE_DOWN * MOST_CHAIN) as u8;
const _: () = assert!((LATER_TIES as usize) + MOST_CHAIN <= MAX_VALUES as usize);

/// The most ties in a row a war placed in a shape holds before its deciding battle: three,
/// as in the wars of the random cycles of small classic decks (each card of a war of every
/// chain is asked of the engine with its own value, within the values a deck may have).
pub const MOST_CHAIN: usize = 3;

/// A table's cards by who played them: `(player, k)`, the `k`th card player `player` put on
/// the table (a battle's one card; in a war the tied card, the face-down cards, then the
/// deciding card).
pub(crate) type Slot = (usize, usize);

/// One way a war is gathered: the ties in a row before its deciding battle, the kinds of war
/// it stands for (told by its first tie), the table's slots in the order they go under the
/// winner's hand, and, under `sorted` with cards face down, the order of the table's values
/// that makes it (see [`War::order`](super::War::order); empty otherwise).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Way {
    pub(crate) chain: usize,
    pub(crate) kinds: Vec<Kind>,
    pub(crate) slots: Vec<Slot>,
    pub(crate) order: Vec<u8>,
}

/// How the winner takes the table, for each winner: after a single battle, and after a war of
/// each kind whose gather differs from the others' (`natural` gathers every war alike, `sorted`
/// by its kind, and with cards face down by the order of all the table's values), of each
/// chain asked for. The table's slots in the order they go under the winner's hand.
#[derive(Clone, Debug)]
pub(crate) struct Gathering {
    /// The cards each player puts face down after each tie.
    pub(crate) face_down: usize,
    pub(crate) single: [Vec<Slot>; 2],
    /// The ways wars are gathered: none where the census cannot place wars (`sorted` with
    /// four cards face down or more: each war would be one of 19,958,400 orders), and no chained
    /// one where the gather depends on the values (`sorted`).
    pub(crate) wars: [Vec<Way>; 2],
    /// The kinds of war, with no card face down, that the winner takes as two single battles
    /// it won (`sorted`'s high war: the tied pair, then the deciding pair), if any: such a war
    /// moves the cards as its two battles would, so a shape may hold it at any battle.
    pub(crate) tie: [Option<Vec<Kind>>; 2],
    /// Each way of `wars` that has an order of values, by that order: a placing's war is
    /// found at once among as many as 181,440 (three cards face down).
    by_order: [HashMap<Vec<u8>, usize>; 2],
}

/// Why a setting has no gathering a shape can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unshaped {
    /// Two players only.
    Players,
    /// The `random` gather places nothing.
    Random,
}

/// The most cards face down a war of `sorted` may have where a census places wars: each war
/// is one order of its table's cards by value, the tied pair as one (they are equal), the
/// winner's deciding card above the loser's: with one card face down 60 orders (5!/2), with
/// two 2,520 (7!/2), with three 181,440 (9!/2; about 200 MB of ways, built in a second or
/// two), with four 19,958,400 (11!/2), too many to place.
pub(crate) const SORTED_FACE_DOWN: usize = 3;

impl Gathering {
    /// The cards each player puts on the table in a war of `chain` ties in a row, all of which
    /// the loser's hand gives up: each tie and the cards face down after it, then the deciding
    /// card.
    pub(crate) fn each(&self, chain: usize) -> usize {
        chain * (self.face_down + 1) + 1
    }

    /// The gathering of `rules`, asked of `engine` (made for `rules`), for wars of 1 to
    /// `chain` ties in a row.
    pub(crate) fn of(
        rules: &Rules,
        engine: &mut Engine,
        chain: usize,
    ) -> Result<Gathering, Unshaped> {
        let f = rules.face_down();
        if rules.players() != 2 {
            return Err(Unshaped::Players);
        }
        if rules.gather() == Gather::Random {
            return Err(Unshaped::Random);
        }
        let single: [Vec<Slot>; 2] = [0, 1].map(|w| {
            let mut hands = [vec![1, FLOOR], vec![1, FLOOR]];
            hands[w][0] = 2;
            let gathered = ask(engine, hands, w, 2);
            gathered
                .iter()
                .map(|&v| (usize::from(v == 1) ^ w, 0))
                .collect()
        });
        // `sorted` orders the face-down cards by their values too.
        let wars = [0, 1].map(|w| {
            let mut ways = match (rules.gather(), f) {
                (Gather::Sorted, 1..=SORTED_FACE_DOWN) => by_order(engine, w, f),
                (Gather::Sorted, 1..) => Vec::new(),
                _ => by_kind(engine, w, f, 1),
            };
            // A chained war is placed where every kind of it is gathered alike: the gather
            // does not look at the values (all but `sorted`).
            for c in 2..=chain {
                if let [way] = &by_kind(engine, w, f, c)[..] {
                    ways.extend((way.kinds.len() == Kind::ALL.len()).then(|| way.clone()));
                }
            }
            ways
        });
        let tie = [0, 1].map(|w| {
            let two: Vec<Slot> = (single[w].iter())
                .chain(&single[w].iter().map(|&(p, _)| (p, 1)).collect::<Vec<_>>())
                .copied()
                .collect();
            // The tied cards are equal: which goes first cannot be told.
            let equal = |slots: &[Slot]| -> Vec<Slot> {
                slots
                    .iter()
                    .map(|&(p, k)| if k == 0 { (0, 0) } else { (p, k) })
                    .collect()
            };
            (wars[w].iter())
                .find(|way| f == 0 && way.chain == 1 && equal(&way.slots) == equal(&two))
                .map(|way| way.kinds.clone())
        });
        let by_order = [0, 1].map(|w: usize| {
            (wars[w].iter().enumerate())
                .filter(|(_, way)| !way.order.is_empty())
                .map(|(i, way)| (way.order.clone(), i))
                .collect()
        });
        Ok(Gathering {
            face_down: f,
            single,
            wars,
            tie,
            by_order,
        })
    }

    /// Where player `w`, winning `war`, puts the table: as the way of its order of values
    /// where it has one, otherwise as for the kinds gathered alike that the war's kinds are
    /// (all or some of).
    fn of_war(&self, w: usize, war: &War) -> Result<&[Slot], NoShape> {
        let alike = |way: &Way| {
            way.chain == war.chain
                && way.order == war.order
                && !war.kinds.is_empty()
                && war.kinds.iter().all(|kind| way.kinds.contains(kind))
        };
        let way = match war.order.is_empty() {
            true => self.wars[w].iter().find(|way| alike(way)),
            false => (self.by_order[w].get(&war.order))
                .map(|&i| &self.wars[w][i])
                .filter(|way| alike(way)),
        };
        Ok(&way.ok_or(NoShape::Unknown)?.slots)
    }

    /// Each war of `placing`'s slots ([`Gathering::of_war`]), looked up once for all the
    /// hand sizes a census looks at it from.
    pub(crate) fn ways_of(&self, placing: &super::Placing) -> Result<Vec<&[Slot]>, NoShape> {
        (placing.wars.iter())
            .map(|war| self.of_war(usize::from(placing.word[war.battle]), war))
            .collect()
    }

    /// Whether player 2 gathers every battle and war as player 1 does with the players
    /// swapped: then a word and its mirror (winners swapped) move the cards alike. Not so
    /// where a gather lays the cards of both players in player order (`natural` with cards
    /// face down).
    pub(crate) fn mirrored(&self) -> bool {
        let swapped =
            |slots: &[Slot]| -> Vec<Slot> { slots.iter().map(|&(p, k)| (1 - p, k)).collect() };
        swapped(&self.single[0]) == self.single[1]
            && self.wars[0].len() == self.wars[1].len()
            && self.wars[0].iter().all(|way| {
                let mirror = Way {
                    slots: swapped(&way.slots),
                    ..way.clone()
                };
                self.wars[1].contains(&mirror)
            })
    }
}

/// The ways player `w` gathers a war of each kind (its first tie against the deciding cards),
/// `f` cards face down after each of `chain` ties: kinds next to each other that gather alike
/// are one way, whose tie the shape constrains by what they share (kinds apart would ask an
/// "or").
fn by_kind(engine: &mut Engine, w: usize, f: usize, chain: usize) -> Vec<Way> {
    let mut alike: Vec<Way> = Vec::new();
    for (kind, [tie, high, low]) in ASKED {
        let slots = war(engine, w, (f, chain), tie, high, low);
        match alike.last_mut() {
            Some(way) if way.slots == slots => way.kinds.push(kind),
            _ => alike.push(Way {
                chain,
                kinds: vec![kind],
                slots,
                order: Vec::new(),
            }),
        }
    }
    alike
}

/// The ways player `w` gathers a war with `f` cards face down where the gather orders the
/// table by value (`sorted`): one for each order of its cards (the items of
/// [`War::order`](super::War::order): the tie `x`, the winner's face-down cards, the loser's,
/// the deciding cards `y` and `z`), `y` before `z`, each asked of the engine with values that
/// fall along the order. Cards of equal values leave the same state whichever goes first, so
/// each order stands for the values that fall along it, equal ones in item order
/// ([`may_equal`]: each table's values then have one order), and for the kinds its tie may
/// then be of.
fn by_order(engine: &mut Engine, w: usize, f: usize) -> Vec<Way> {
    let items = 2 * f + 3;
    let (y, z) = (2 * f + 1, 2 * f + 2);
    let mut order: Vec<u8> = (0..items as u8).collect();
    let mut ways = Vec::new();
    loop {
        let at = |item: usize| order.iter().position(|&i| usize::from(i) == item).unwrap();
        if at(y) < at(z) {
            // The highest first, each value its own but the tied pair's.
            let value = |item: usize| (items - at(item)) as u8;
            let mut tables = [vec![value(0)], vec![value(0)]];
            tables[w].extend((1..=f).map(value));
            tables[1 - w].extend((f + 1..=2 * f).map(value));
            tables[w].push(value(y));
            tables[1 - w].push(value(z));
            ways.push(Way {
                chain: 1,
                kinds: kinds_along(&order, y, z),
                slots: gathered(engine, w, tables),
                order: order.clone(),
            });
        }
        if !next_permutation(&mut order) {
            return ways;
        }
    }
}

/// Whether the items `upper` and `lower`, next to each other in a war's order of values
/// (the higher first), may hold equal values: where the lower is the later item, so that
/// the values of a table fall along one order only; never the deciding cards (`z` is the
/// last item).
pub(crate) fn may_equal(upper: u8, lower: u8, items: usize) -> bool {
    upper < lower && !(usize::from(upper) == items - 2 && usize::from(lower) == items - 1)
}

/// The kinds of war whose tie (item 0) may be of where `order`'s values fall along it (each
/// above the next, or equal where [`may_equal`]): those of values each above the next, and
/// of those where the tie is equal to a run of items around it that may be equal.
fn kinds_along(order: &[u8], y: usize, z: usize) -> Vec<Kind> {
    let n = order.len();
    let at = |item: usize| order.iter().position(|&i| usize::from(i) == item).unwrap();
    let x = at(0);
    let mut kinds = Vec::new();
    for first in 0..=x {
        for last in x..n {
            let run = first..=last;
            if !(first..last).all(|i| may_equal(order[i], order[i + 1], n)) {
                continue;
            }
            // Values falling along the order, the run all at its first's value.
            let value = |item: usize| {
                let i = at(item);
                (n - if run.contains(&i) { first } else { i }) as u8
            };
            kinds.push(Kind::of(value(0), value(y), value(z)));
        }
    }
    kinds.sort_unstable();
    kinds.dedup();
    kinds
}

/// Steps `items` to the next permutation in lexicographic order; `false` after the last.
fn next_permutation(items: &mut [u8]) -> bool {
    let Some(i) = (1..items.len()).rev().find(|&i| items[i - 1] < items[i]) else {
        return false;
    };
    let j = (i..items.len())
        .rev()
        .find(|&j| items[j] > items[i - 1])
        .unwrap();
    items.swap(i - 1, j);
    items[i..].reverse();
    true
}

/// The slots of a war that player `w` wins, `f` cards face down after each of `chain` ties,
/// with the values asked (the first tie `tie`; later ties above every other card).
fn war(
    engine: &mut Engine,
    w: usize,
    (f, chain): (usize, usize),
    tie: u8,
    high: u8,
    low: u8,
) -> Vec<Slot> {
    let tables: [Vec<u8>; 2] = [0, 1].map(|p| {
        let mut cards = Vec::new();
        for s in 0..chain {
            cards.push(if s == 0 { tie } else { LATER_TIES + s as u8 });
            cards.extend((0..f).map(|k| FACE_DOWN + (2 * (s * f + k) + p) as u8));
        }
        cards.push(if p == w { high } else { low });
        cards
    });
    gathered(engine, w, tables)
}

/// The slots of the table `tables` (each player's cards as played) in the order player `w`,
/// winning the round, puts them under its hand, read back by value.
fn gathered(engine: &mut Engine, w: usize, tables: [Vec<u8>; 2]) -> Vec<Slot> {
    let hands = tables.clone().map(|mut cards| {
        cards.push(FLOOR);
        cards
    });
    let mut taken = [0, 1].map(|p| vec![false; tables[p].len()]);
    ask(engine, hands, w, tables[0].len() + tables[1].len())
        .iter()
        .map(|&v| {
            // A tied value is on both sides: the first gathered is called the winner's.
            let (p, k) = ([w, 1 - w].into_iter())
                .find_map(|p| {
                    let k = (0..tables[p].len()).find(|&k| tables[p][k] == v && !taken[p][k]);
                    k.map(|k| (p, k))
                })
                .expect("the engine gathers the table's own cards");
            taken[p][k] = true;
            (p, k)
        })
        .collect()
}

/// The last `count` values of player `w`'s hand after one round from `hands`.
fn ask(engine: &mut Engine, hands: [Vec<u8>; 2], w: usize, count: usize) -> Vec<u8> {
    let mut after = [Vec::new(), Vec::new()];
    let played = engine.step_values([&hands[0], &hands[1]], &mut after);
    assert!(
        played.is_some(),
        "a round with a card left below it goes on"
    );
    after[w][after[w].len() - count..].to_vec()
}
