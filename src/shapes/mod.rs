//! Shapes: infinite games built from who wins each battle (docs/research.md, "Shapes").
//!
//! A *placing* is a periodic word of who wins each battle, with wars placed at stated battles,
//! each of a stated kind. From a state whose player 1 holds `len0` cards, the placing and the
//! engine's gather fix where every card goes, whatever the values: one period moves the cards
//! by a permutation of their places, and each later period meets the same places again. The
//! *shape* is what the cards must then satisfy over every period until they are back: the
//! winner's card higher at a battle, the tied cards equal and the deciding cards ordered as the
//! war's kind says at a war. Cards that these relations join in a circle must hold one value
//! (at most as many cards as a value has copies, no strict relation among them); the deck's
//! values either fit the rest or not, which a SAT solver decides (`lay`): its "no" is a
//! proof within the shape. Values that fit make a state on a cycle.

mod bounds;
mod census;
mod gathering;
mod lay;
mod report;

pub use bounds::{Bounds, ShapesError, LONGEST_SUPER_PERIOD, LONGEST_WORD, MOST_STATES, MOST_WARS};
pub(crate) use census::taking;
pub use census::{census, census_with, Census, Found, Options, Row, DEAL_STATES};

pub use gathering::MOST_CHAIN;
use gathering::{Gathering, Slot, Way};
pub(crate) use lay::Laying;
use std::collections::VecDeque;

/// A war by its tied value `x` against the deciding cards, the winner's `y` over the loser's
/// `z`: the kinds a gather by value (`sorted`) tells apart.
///
/// ```
/// use warsweep::shapes::{census, Bounds, Kind};
/// use warsweep::{Gather, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).gather(Gather::Sorted).build().unwrap();
/// let found = census(&rules, &Bounds::Words { longest: 18, wars: 1, ties: false }).unwrap();
/// // The 1,020-round cycle of 52 cards: a low war, gathered alike under `natural`.
/// assert_eq!(found.found[0].placing.wars[0].kinds, [Kind::Low]);
/// assert_eq!(Kind::Low.name(), "low");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `x >= y`.
    High,
    /// `z <= x < y`.
    Mid,
    /// `x < z`.
    Low,
}

/// A periodic word of who wins each battle (0: player 1, 1: player 2), with wars placed at
/// stated battles.
///
/// ```
/// use warsweep::shapes::{census, Bounds};
/// use warsweep::{Deck, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x7").unwrap()).build().unwrap();
/// let found = census(&rules, &Bounds::Words { longest: 14, wars: 1, ties: false }).unwrap();
/// let placing = &found.found[0].placing;
/// assert_eq!(placing.word, [0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1]);
/// assert_eq!(placing.to_string(), "AAABBAABBBBAAB war@0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placing {
    /// Who wins each battle of a period, 0 or 1.
    pub word: Vec<u8>,
    /// The wars placed in it, by battle.
    pub wars: Vec<War>,
}

/// A war placed at battle `battle` of a word: its tie and its deciding battle, `battle` and
/// `battle + 1`, both won by the war's winner (a chained war: `chain` ties in a row, then the
/// deciding battle, all the winner's); `kinds` are the kinds its gather cannot tell apart
/// (under `natural` all three), which constrain its first tie by what they share.
///
/// ```
/// use warsweep::shapes::{census, Bounds, War};
/// use warsweep::{Deck, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x7").unwrap()).build().unwrap();
/// let found = census(&rules, &Bounds::Words { longest: 14, wars: 1, ties: false }).unwrap();
/// let War { battle, chain, kinds, .. } = &found.found[0].placing.wars[0];
/// assert_eq!((*battle, *chain, kinds.len()), (0, 1, 3));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct War {
    /// The battle of its (first) tie.
    pub battle: usize,
    /// The battles tied in a row before its deciding one: 1, or up to [`MOST_CHAIN`] where a
    /// census chains wars ([`Options::chain`]); each tie is followed by the cards face down.
    pub chain: usize,
    /// The kinds it stands for, in the order high, mid, low.
    pub kinds: Vec<Kind>,
    /// Under `sorted` with cards face down, whose gather orders the whole table by value: its
    /// cards from the highest, each above the next or equal to it where the next is a later
    /// item (so that a table's values fall along one order), with `f` face down each: item 0
    /// the tie `x` (both tied cards), 1 to `f` the winner's face-down cards, `f + 1` to `2f`
    /// the loser's, `2f + 1` the winner's deciding card `y`, `2f + 2` the loser's `z` (below
    /// `y`). Empty where the kinds say how the war is gathered.
    pub order: Vec<u8>,
}

impl std::fmt::Display for Placing {
    /// The word in letters (`A`: player 1 wins the battle), a word repeated as `(WORD)xM`,
    /// then each war as `KINDS@BATTLE` (`war`: any kind), a chained war as `KINDS@FIRST-LAST`
    /// (its ties and deciding battle): `AABAABBAABBAABBBBA war@0`, `(AAAABBBB)x45 mid@1`,
    /// `AAAABABBBBBABBAAB war@0-3`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let len = self.word.len();
        let base = (1..len)
            .find(|&p| len.is_multiple_of(p) && self.word[p..] == self.word[..len - p])
            .unwrap_or(len);
        let word: String = self.word[..base]
            .iter()
            .map(|&w| char::from(b'A' + w))
            .collect();
        if base < len {
            write!(f, "({word})x{}", len / base)?;
        } else {
            write!(f, "{word}")?;
        }
        for war in &self.wars {
            let kinds: Vec<&str> = war.kinds.iter().map(|k| k.name()).collect();
            let kinds = if kinds.len() == 3 {
                "war".to_string()
            } else {
                kinds.join("-")
            };
            write!(f, " {kinds}@{}", war.battle)?;
            if war.chain > 1 {
                write!(f, "-{}", war.battle + war.chain)?;
            }
            if !war.order.is_empty() {
                write!(f, "[{}]", order_named(&war.order))?;
            }
        }
        Ok(())
    }
}

impl Kind {
    /// The three kinds, in their order.
    pub const ALL: [Kind; 3] = [Kind::High, Kind::Mid, Kind::Low];

    /// The kind named `high`, `mid` or `low`.
    ///
    /// ```
    /// use warsweep::shapes::Kind;
    /// assert_eq!(Kind::named("mid"), Some(Kind::Mid));
    /// assert_eq!(Kind::named("middle"), None);
    /// ```
    pub fn named(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The kind of a war of two players whose tied value is `x`, decided by the winner's `y`
    /// over the loser's `z` (values compared as numbers, `y > z`).
    pub(crate) fn of(x: u8, y: u8, z: u8) -> Kind {
        if x >= y {
            Kind::High
        } else if x >= z {
            Kind::Mid
        } else {
            Kind::Low
        }
    }

    /// The kind's name: `high`, `mid` or `low`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::High => "high",
            Kind::Mid => "mid",
            Kind::Low => "low",
        }
    }
}

/// What the cards must satisfy, named by the place each card held at the period's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Relation {
    /// The first card's value is higher.
    Above(usize, usize),
    /// The first card's value is at least the second's.
    AtLeast(usize, usize),
    /// The first card's value is higher than the second's, or both are equal and at least the
    /// third's: a battle that may be the tie of a war gathered as two single battles, the third
    /// card winning the next battle.
    AboveOrTie(usize, usize, usize),
}

impl Relation {
    /// The cards it orders, the first at least the second, and whether strictly.
    fn cards(self) -> (usize, usize, bool) {
        match self {
            Relation::Above(u, v) => (u, v, true),
            Relation::AtLeast(u, v) | Relation::AboveOrTie(u, v, _) => (u, v, false),
        }
    }

    fn moved(self, next: &[usize]) -> Relation {
        match self {
            Relation::Above(u, v) => Relation::Above(next[u], next[v]),
            Relation::AtLeast(u, v) => Relation::AtLeast(next[u], next[v]),
            Relation::AboveOrTie(u, v, d) => Relation::AboveOrTie(next[u], next[v], next[d]),
        }
    }
}

/// A placing's shape from one size of player 1's hand: every relation over every period.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    pub(crate) relations: Vec<Relation>,
}

/// Why a placing from a hand size makes no shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoShape {
    /// A hand runs out within the period (or cannot hold a war's cards).
    RunsOut,
    /// Player 1's hand comes back another size.
    OtherSize,
    /// Cards that must be equal outnumber a value's copies, or a strict relation joins them.
    Circle,
    /// A war of kinds that the gather does not gather alike.
    Unknown,
    /// Aligned asked for, and no round of the period leaves the hands equal.
    NotAligned,
}

/// What a census asks of a shape beyond its placing: whether a single battle followed by one of
/// the same winner may be the tie of a war the gather takes as two single battles (`sorted`'s
/// high war), whether some round of its period must leave both hands equal (an aligned
/// cycle: the state after a battle that may tie counted, so that no aligned shape is missed),
/// and whether the word ends with the hands swapped, the next period its mirror.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Asked {
    pub(crate) ties: bool,
    pub(crate) aligned: bool,
    pub(crate) mirrored: bool,
}

/// A war's order of values ([`War::order`]) in letters, the highest first: `y>x>=b>a>=z` (the
/// face-down cards `a` and `b`, or `a1`, `a2`, `b1`, `b2`).
fn order_named(order: &[u8]) -> String {
    let f = (order.len() - 3) / 2;
    let name = |item: usize| -> String {
        match item {
            0 => "x".to_string(),
            i if i == 2 * f + 1 => "y".to_string(),
            i if i == 2 * f + 2 => "z".to_string(),
            i if f == 1 => (if i == 1 { "a" } else { "b" }).to_string(),
            i if i <= f => format!("a{i}"),
            i => format!("b{}", i - f),
        }
    };
    let mut named = name(order[0].into());
    for pair in order.windows(2) {
        named += if gathering::may_equal(pair[0], pair[1], order.len()) {
            ">="
        } else {
            ">"
        };
        named += &name(pair[1].into());
    }
    named
}

/// The relations of `war`, won by `w` (its ties, its kinds, and its order of values where it
/// has one), cards named by slot (`table`: the cards each player put on the table, each tie
/// followed by the cards face down). A single battle's relation depends on the battle after
/// it: [`Shape::of`] makes it.
fn relations_of(table: [&[usize]; 2], w: usize, war: &War) -> Vec<Relation> {
    let l = 1 - w;
    let kinds = &war.kinds[..];
    let d = table[w].len() - 1;
    let (x, y, z) = (table[w][0], table[w][d], table[l][d]);
    let mut out = vec![Relation::Above(y, z)];
    for tie in (0..d).step_by(d / war.chain) {
        let (u, v) = (table[w][tie], table[l][tie]);
        out.extend([Relation::AtLeast(u, v), Relation::AtLeast(v, u)]);
    }
    // One kind alone constrains the tie; kinds that gather alike constrain it by what they
    // share (all three: nothing).
    match kinds {
        [Kind::High] => out.push(Relation::AtLeast(x, y)),
        [Kind::Mid] => out.extend([Relation::Above(y, x), Relation::AtLeast(x, z)]),
        [Kind::Low] => out.push(Relation::Above(z, x)),
        [Kind::Mid, Kind::Low] => out.push(Relation::Above(y, x)),
        [Kind::High, Kind::Mid] => out.push(Relation::AtLeast(x, z)),
        _ => {}
    }
    // The order of the tie, the face-down cards and the deciding cards, highest first: each
    // card above the next, or at least it where they may be equal.
    let f = d - 1;
    let card = |item: usize| match item {
        0 => x,
        i if i <= f => table[w][i],
        i if i <= 2 * f => table[l][i - f],
        i if i == 2 * f + 1 => y,
        _ => z,
    };
    for pair in war.order.windows(2) {
        let (u, v) = (card(pair[0].into()), card(pair[1].into()));
        out.push(
            match gathering::may_equal(pair[0], pair[1], war.order.len()) {
                true => Relation::AtLeast(u, v),
                false => Relation::Above(u, v),
            },
        );
    }
    out
}

impl Shape {
    /// Its formula for `n` cards with `counts` copies of each value, made once, for many
    /// layings ([`Laying::lay`]); [`None`] where the copies are not `n` cards.
    pub(crate) fn laying(&self, n: usize, counts: &[usize]) -> Option<Laying> {
        Laying::new(&self.relations, n, counts)
    }

    /// The shape of `placing` from a state of `n` cards whose player 1 holds `len0`, the winner
    /// taking the table as `gathering` says (a war's cards, `gathering.each` a player; each
    /// war's slots in `ways`, [`Gathering::ways_of`] the placing), no value on more than
    /// `copies` cards, as `asked` says.
    pub(crate) fn of(
        placing: &Placing,
        ways: &[&[Slot]],
        len0: usize,
        n: usize,
        gathering: &Gathering,
        copies: usize,
        asked: Asked,
    ) -> Result<Shape, NoShape> {
        let hand = |cards: std::ops::Range<usize>| {
            let mut hand = VecDeque::with_capacity(n);
            hand.extend(cards);
            hand
        };
        let mut hands = [hand(0..len0), hand(len0..n)];
        let mut first = Vec::with_capacity(2 * placing.word.len());
        // Each single battle: its battle, winner, cards (winner's, loser's), and whether both
        // hands hold a card after it before the winner takes the table (a tie goes on).
        let mut singles: Vec<(usize, usize, usize, usize, bool)> =
            Vec::with_capacity(placing.word.len());
        let (mut battle, mut equal) = (0, false);
        let mut put = [[0; MAX_ON_TABLE]; 2];
        while battle < placing.word.len() {
            let w = usize::from(placing.word[battle]);
            let war = (placing.wars.iter().zip(ways)).find(|(war, _)| war.battle == battle);
            let each = war.map_or(1, |(war, _)| gathering.each(war.chain));
            if hands.iter().any(|h| h.len() < each) {
                return Err(NoShape::RunsOut);
            }
            put_on_table(&mut hands, each, &mut put);
            let table = [&put[0][..each], &put[1][..each]];
            let slots: &[Slot] = match war {
                Some((war, slots)) => {
                    first.extend(relations_of(table, w, war));
                    slots
                }
                None => {
                    let room = hands.iter().all(|h| !h.is_empty());
                    singles.push((battle, w, table[w][0], table[1 - w][0], room));
                    &gathering.single[w]
                }
            };
            hands[w].extend(slots.iter().map(|&(p, k)| table[p][k]));
            battle += war.map_or(1, |(war, _)| war.chain + 1);
            if hands[1 - w].is_empty() {
                return Err(NoShape::RunsOut);
            }
            equal |= hands[0].len() == hands[1].len();
        }
        // A mirrored word hands player 1's places to player 2's cards: the next period plays
        // the word with the winners swapped, the players' cards moved alike (the gather is
        // symmetric: `Gathering::mirrored`).
        if asked.mirrored {
            hands.swap(0, 1);
        }
        if hands[0].len() != len0 {
            return Err(NoShape::OtherSize);
        }
        if asked.aligned && !equal {
            return Err(NoShape::NotAligned);
        }
        // After a period, place `s` holds the card that was at `next[s]`.
        let next: Vec<usize> = hands[0].iter().chain(&hands[1]).copied().collect();
        first.extend(single_relations(&singles, &next, placing.word.len(), asked));
        if !cycle_means_may_order(&first, &next) {
            return Err(NoShape::Circle);
        }
        let mut relations = over_every_period(&first, &next).ok_or(NoShape::Circle)?;
        if !one_value_circles(&relations, n, copies) {
            return Err(NoShape::Circle);
        }
        // One order of the solver's clauses, whatever order the periods met them in, each once.
        relations.sort_unstable();
        relations.dedup();
        Ok(Shape { relations })
    }
}

/// Each single battle's relation (`singles`: its battle, winner, cards and whether both hands
/// hold a card after it), its winning card above the other's, or, where a tie may be asked
/// and the next battle is a single one of the same winner, above or tied with that battle
/// deciding (the next period's first battle's card in this period's places, `next`; its
/// winner swapped where the word is mirrored).
fn single_relations(
    singles: &[(usize, usize, usize, usize, bool)],
    next: &[usize],
    length: usize,
    asked: Asked,
) -> Vec<Relation> {
    let mut out = Vec::with_capacity(singles.len());
    for (k, &(battle, w, u, v, room)) in singles.iter().enumerate() {
        let after = match singles.get(k + 1) {
            Some(s) if s.0 == battle + 1 => Some((s.1, s.2)),
            None if battle + 1 == length => singles
                .first()
                .filter(|s| s.0 == 0)
                .map(|s| (s.1 ^ usize::from(asked.mirrored), next[s.2])),
            _ => None,
        };
        out.push(match after {
            Some((w2, d)) if asked.ties && room && w2 == w => Relation::AboveOrTie(u, v, d),
            _ => Relation::Above(u, v),
        });
    }
    out
}

/// The `each` cards each player puts on the table from the top of `hands`, into the first
/// `each` of `put`'s fixed arrays (one for the whole period: no allocation, nothing cleared).
fn put_on_table(
    hands: &mut [VecDeque<usize>; 2],
    each: usize,
    put: &mut [[usize; MAX_ON_TABLE]; 2],
) {
    for (p, cards) in put.iter_mut().enumerate() {
        for (slot, card) in cards.iter_mut().zip(hands[p].drain(..each)) {
            *slot = card;
        }
    }
}

/// The most cards a player puts on the table in one battle of a shape: a chained war's ties,
/// the face-down cards after each, and its deciding card.
const MAX_ON_TABLE: usize = MOST_CHAIN * (crate::rules::MAX_FACE_DOWN + 1) + 1;

/// The relations `first` of one period and those the same battles ask of the cards that the
/// permutation `next` brings to their places in every later period, each once;
/// [`None`] as soon as two of them ask opposite things of one pair of cards (a circle of two:
/// one strict), the quick way out of most placings.
fn over_every_period(first: &[Relation], next: &[usize]) -> Option<Vec<Relation>> {
    let n = next.len();
    // For each pair (u, v): bit 1 u above v, bit 2 u at least v, bit 4 u at least v by a
    // battle that may tie; and the third card of the first such battle (a pair that meets in
    // battles decided by different cards is then listed again, each orbit once more at most).
    let mut known = vec![0u8; n * n];
    let mut decider = vec![usize::MAX; n * n];
    let mut out = Vec::new();
    // Battles that may tie last: their orbits are the longest (three cards), and most
    // placings fail sooner on the others.
    let (ties, others): (Vec<Relation>, Vec<Relation>) =
        (first.iter()).partition(|r| matches!(r, Relation::AboveOrTie(..)));
    for start in others.into_iter().chain(ties) {
        let mut r = start;
        loop {
            let (u, v, strict) = r.cards();
            let new = match r {
                Relation::Above(..) => known[u * n + v] & 1 == 0,
                Relation::AtLeast(..) => known[u * n + v] & 2 == 0,
                Relation::AboveOrTie(_, _, d) => decider[u * n + v] != d,
            };
            if !new {
                break;
            }
            let back = known[v * n + u];
            if u == v && strict || back & 1 != 0 || (strict && back != 0) {
                return None;
            }
            known[u * n + v] |= match r {
                Relation::Above(..) => 1,
                Relation::AtLeast(..) => 2,
                Relation::AboveOrTie(_, _, d) => {
                    if decider[u * n + v] == usize::MAX {
                        decider[u * n + v] = d;
                    }
                    4
                }
            };
            out.push(r);
            r = r.moved(next);
            // A battle's three cards come back to where they started (a permutation's orbit).
            if r == start {
                break;
            }
        }
    }
    Some(out)
}

/// Whether the relations `first` of one period may hold in every period, judged by the
/// cycles of the permutation `next` alone, before any orbit is walked: a relation holds in
/// every period for the cards the permutation brings to its places, so summed over its orbit
/// it orders the mean values of the two cards' cycles (strictly where it is strict), and a
/// circle of cycles through a strict relation cannot hold. A necessary test, a few
/// operations a card, that most placings fail.
fn cycle_means_may_order(first: &[Relation], next: &[usize]) -> bool {
    // Each place's cycle, then each cycle a relation touches numbered from 0 (`NONE`: not
    // yet), the first 64 of them as bits: what each reaches by relations, each at least the
    // next (a transitive closure; beyond 64 cycles the test gives way to the full one).
    const NONE: u16 = u16::MAX;
    let n = next.len();
    let mut cycle = vec![NONE; 2 * n];
    let (of_place, touched) = cycle.split_at_mut(n);
    let mut cycles = 0;
    for start in 0..n {
        if of_place[start] != NONE {
            continue;
        }
        let mut s = start;
        while of_place[s] == NONE {
            of_place[s] = cycles;
            s = next[s];
        }
        cycles += 1;
    }
    let mut count = 0;
    let mut node = |place: usize| {
        let c = usize::from(of_place[place]);
        if touched[c] == NONE {
            touched[c] = count;
            count += 1;
        }
        usize::from(touched[c])
    };
    let edges: Vec<(usize, usize, bool)> = (first.iter())
        .map(|r| {
            let (u, v, strict) = r.cards();
            (node(u), node(v), strict)
        })
        .collect();
    if count > 64 {
        return true;
    }
    let mut reach = [0u64; 64];
    let mut grew = true;
    while grew {
        grew = false;
        for &(u, v, _) in &edges {
            let more = reach[u] | reach[v] | 1 << v;
            grew |= more != reach[u];
            reach[u] = more;
        }
    }
    (edges.iter()).all(|&(u, v, strict)| !strict || (u != v && reach[v] & 1 << u == 0))
}

/// Whether the cards that `relations` join in a circle (each a strongly connected component)
/// can hold one value: at most `copies` cards, no strict relation among them (Tarjan's
/// components, iteratively).
fn one_value_circles(relations: &[Relation], n: usize, copies: usize) -> bool {
    let mut above = vec![Vec::new(); n];
    for r in relations {
        let (u, v, _) = r.cards();
        above[v].push(u);
    }
    let part = components(&above);
    let mut sizes = vec![0; n];
    for &p in &part {
        sizes[p] += 1;
    }
    sizes.iter().all(|&s| s <= copies)
        && relations.iter().all(|r| {
            let (u, v, strict) = r.cards();
            !strict || part[u] != part[v]
        })
}

/// Each node's strongly connected component (numbered from 0) in the graph `next`.
fn components(next: &[Vec<usize>]) -> Vec<usize> {
    let n = next.len();
    let (mut index, mut low, mut part) = (vec![usize::MAX; n], vec![0; n], vec![usize::MAX; n]);
    let (mut stack, mut on, mut count, mut parts) = (Vec::new(), vec![false; n], 0, 0);
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0)];
        (index[root], low[root]) = (count, count);
        count += 1;
        stack.push(root);
        on[root] = true;
        while let Some((x, i)) = work.pop() {
            if let Some(&y) = next[x].get(i) {
                work.push((x, i + 1));
                if index[y] == usize::MAX {
                    (index[y], low[y]) = (count, count);
                    count += 1;
                    stack.push(y);
                    on[y] = true;
                    work.push((y, 0));
                } else if on[y] {
                    low[x] = low[x].min(index[y]);
                }
                continue;
            }
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[x]);
            }
            if low[x] == index[x] {
                while let Some(y) = stack.pop() {
                    on[y] = false;
                    part[y] = parts;
                    if y == x {
                        break;
                    }
                }
                parts += 1;
            }
        }
    }
    part
}

#[cfg(test)]
mod tests;
