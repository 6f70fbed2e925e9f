//! Where the engine's winner puts the table's cards, asked of the engine itself (one rule, one
//! place): a round played on values that tell each card apart, read back from the winner's
//! hand.

use super::Kind;
use crate::engine::Engine;
use crate::rules::{Gather, Rules};

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

/// A table's cards by who played them: `(player, k)`, the `k`th card player `player` put on
/// the table (a battle's one card; in a war the tied card, the face-down cards, then the
/// deciding card).
pub(crate) type Slot = (usize, usize);

/// How the winner takes the table, for each winner: after a single battle, and after a war of
/// each kind whose gather differs from the others' (`natural` gathers every war alike, `sorted`
/// by its kind). The table's slots in the order they go under the winner's hand.
#[derive(Clone, Debug)]
pub(crate) struct Gathering {
    pub(crate) single: [Vec<Slot>; 2],
    /// The kinds of war that gather alike, and how.
    pub(crate) wars: [Vec<(Vec<Kind>, Vec<Slot>)>; 2],
    /// The kinds of war, with no card face down, that the winner takes as two single battles
    /// it won (`sorted`'s high war: the tied pair, then the deciding pair), if any: such a war
    /// moves the cards as its two battles would, so a shape may hold it at any battle.
    pub(crate) tie: [Option<Vec<Kind>>; 2],
}

/// Why a setting has no gathering a shape can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unshaped {
    /// Two players only.
    Players,
    /// The `random` gather places nothing.
    Random,
    /// A gather by value (`sorted`) moves face-down cards by values nothing constrains.
    SortedFaceDown,
}

impl Gathering {
    /// The gathering of `rules`, asked of `engine` (made for `rules`).
    pub(crate) fn of(rules: &Rules, engine: &mut Engine) -> Result<Gathering, Unshaped> {
        let f = rules.face_down();
        if rules.players() != 2 {
            return Err(Unshaped::Players);
        }
        match rules.gather() {
            Gather::Random => return Err(Unshaped::Random),
            Gather::Sorted if f > 0 => return Err(Unshaped::SortedFaceDown),
            // The face-down cards' values, 4 to 19 at most (MAX_FACE_DOWN), tell them apart.
            _ => {}
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
        let wars = [0, 1].map(|w| {
            let mut alike: Vec<(Vec<Kind>, Vec<Slot>)> = Vec::new();
            for (kind, [tie, high, low]) in ASKED {
                let slots = war(engine, w, f, tie, high, low);
                // Kinds next to each other that gather alike are one kind of war, whose tie
                // the shape constrains by what they share (kinds apart would ask an "or").
                match alike.last_mut() {
                    Some((kinds, s)) if *s == slots => kinds.push(kind),
                    _ => alike.push((vec![kind], slots)),
                }
            }
            alike
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
                .find(|(_, slots)| f == 0 && equal(slots) == equal(&two))
                .map(|(kinds, _)| kinds.clone())
        });
        Ok(Gathering { single, wars, tie })
    }
}

/// The slots of a war that player `w` wins, `f` cards face down, with the values asked.
fn war(engine: &mut Engine, w: usize, f: usize, tie: u8, high: u8, low: u8) -> Vec<Slot> {
    let hands: [Vec<u8>; 2] = [0, 1].map(|p| {
        let own = (0..f).map(|k| FACE_DOWN + (2 * k + p) as u8);
        let decider = if p == w { high } else { low };
        std::iter::once(tie)
            .chain(own)
            .chain([decider, FLOOR])
            .collect()
    });
    let mut tied = 0;
    ask(engine, hands, w, 2 * (f + 2))
        .iter()
        .map(|&v| match v {
            v if v == tie => {
                // The tied cards are equal: the first gathered is called the winner's.
                tied += 1;
                (if tied == 1 { w } else { 1 - w }, 0)
            }
            v if v == high => (w, f + 1),
            v if v == low => (1 - w, f + 1),
            v => {
                let k = usize::from(v - FACE_DOWN);
                (k % 2, 1 + k / 2)
            }
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
