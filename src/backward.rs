//! Games extended backward. A deal's game passes through states; the states one round before a
//! state are found by undoing a round: the winner's last `2m` cards are the table it picked up
//! (the gather read backward), each player's `m` played cards go back on top of their hands.
//! Every such candidate is played forward one round by the engine's own general round, and kept
//! only if that round leads to the state: the rules are the engine's, this file only proposes.
//!
//! The states that lead into a game form a tree (each state has one successor). Any of them
//! whose hands have the sizes of a deal is a deal, whose game is the rounds up to the known
//! game plus that game's rest: the search walks the tree of a game's first states, the states
//! with the longest games left first, and keeps the deal with the longest game.

use crate::deal::dealt_span;
use crate::deal::orders::hands_of;
use crate::engine::{pick_up_places, Engine};
use crate::output::metric::Metric;
use crate::rules::{Gather, Rules};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet, VecDeque};

/// Most wars of a round undone (rounds with more are rare, and not proposed).
const MOST_WARS: usize = 4;

/// States of a game's start whose side branches the search walks: the deal and the states
/// after its first rounds (a branch into state `t` must be longer than `t` rounds to beat the
/// game itself).
const REACH: u64 = 256;

/// States expanded between two looks at whether the hunt should stop: a few milliseconds.
const HALT_EVERY: u64 = 1024;

/// The rounds, battles and wars of a game from a state to its end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Rest {
    pub(crate) rounds: u64,
    pub(crate) battles: u64,
    pub(crate) wars: u64,
}

impl Rest {
    fn of(self, metric: Metric) -> u64 {
        match metric {
            Metric::Battles => self.battles,
            Metric::Wars => self.wars,
            // The hunt refuses the others (`Hunt::check`).
            _ => self.rounds,
        }
    }

    /// The rest from one round earlier, that round having `battles` and `wars`.
    fn before(self, battles: u64, wars: u64) -> Rest {
        Rest {
            rounds: self.rounds + 1,
            battles: self.battles + battles,
            wars: self.wars + wars,
        }
    }
}

/// A state waiting to be expanded: its hands (player 1's `len0` cards, then player 2's), its
/// game's rest, and the trajectory round it is for the game's own first states. A search keeps
/// only these (it walks deepest first, so they are few) and reuses their buffers.
struct Pending {
    hands: Vec<u8>,
    len0: usize,
    rest: Rest,
    round: Option<u64>,
}

/// What one search found: a deal (values in dealing order, 0-based) and its game's counts.
pub(crate) struct Extended {
    pub(crate) order: Vec<u8>,
    pub(crate) rest: Rest,
}

/// The backward search of one setting, with its buffers.
pub(crate) struct Backward {
    rules: Rules,
    /// For each winner and number of wars, where the pick-up's cards lay on the table
    /// ([`pick_up_places`]); empty under `sorted`, whose tables are enumerated.
    places: [Vec<Vec<u8>>; 2],
    sorted: bool,
    face_down: usize,
    /// The hands of a deal: how many cards each player is dealt.
    dealt: [usize; 2],
    /// The game's own first states (each the deck's cards), and player 1's hand's size in each.
    trajectory: Vec<u8>,
    trajectory_len0: Vec<usize>,
    /// States waiting, in slots, the free slots, and the heap of slots by the game left.
    slots: Vec<Pending>,
    free: Vec<usize>,
    heap: BinaryHeap<(u64, Reverse<u64>, usize)>,
    current: [Vec<u8>; 2],
    after: [Vec<u8>; 2],
    pred: [Vec<u8>; 2],
    tables: Vec<Vec<u8>>,
}

impl Backward {
    /// The search for two-player games of `rules` (a gather other than `random`).
    pub(crate) fn new(rules: &Rules) -> Backward {
        debug_assert_eq!(rules.players(), 2);
        let sorted = rules.gather() == Gather::Sorted;
        let face_down = rules.face_down();
        let places = [0, 1].map(|winner| match sorted {
            true => Vec::new(),
            false => (0..=MOST_WARS)
                .map(|k| pick_up_places(rules, winner, 1 + k * (face_down + 1)))
                .collect(),
        });
        let n = rules.deck().size();
        let dealt = [0, 1].map(|p| dealt_span(n, rules.deal(), 2, p).2);
        Backward {
            rules: *rules,
            places,
            sorted,
            face_down,
            dealt,
            trajectory: Vec::new(),
            trajectory_len0: Vec::new(),
            slots: Vec::new(),
            free: Vec::new(),
            heap: BinaryHeap::new(),
            current: [Vec::new(), Vec::new()],
            after: [Vec::new(), Vec::new()],
            pred: [Vec::new(), Vec::new()],
            tables: Vec::new(),
        }
    }

    /// Searches the states that lead into the game of the deal `order` (whose game, finished,
    /// has `rest`), expanding at most `budget` states, for the deal whose game is longest by
    /// `metric`: that deal if its game is longer than `order`'s, the states expanded, and
    /// whether `halt` cut the search short (it looks every [`HALT_EVERY`] states).
    pub(crate) fn search(
        &mut self,
        engine: &mut Engine,
        order: &[u8],
        rest: Rest,
        metric: Metric,
        budget: u64,
        halt: &dyn Fn() -> bool,
    ) -> (Option<Extended>, u64, bool) {
        self.trajectory.clear();
        self.trajectory_len0.clear();
        self.free = (0..self.slots.len()).collect();
        self.heap.clear();
        let mut counter = self.wait_for_the_game(engine, order, rest, metric);
        let own = rest.of(metric);
        let mut best: Option<([Vec<u8>; 2], Rest)> = None;
        let (mut expanded, mut halted) = (0, false);
        while expanded < budget {
            if expanded % HALT_EVERY == 0 && expanded > 0 && halt() {
                halted = true;
                break;
            }
            let Some((_, _, slot)) = self.heap.pop() else {
                break;
            };
            expanded += 1;
            let (rest, round) = (self.slots[slot].rest, self.slots[slot].round);
            let len0 = self.slots[slot].len0;
            let mut current = std::mem::take(&mut self.current);
            let [h0, h1] = &mut current;
            h0.clear();
            h0.extend_from_slice(&self.slots[slot].hands[..len0]);
            h1.clear();
            h1.extend_from_slice(&self.slots[slot].hands[len0..]);
            self.free.push(slot);
            // The trajectory's own earlier state waits already.
            let skip = round.filter(|&r| r > 0).map(|r| r - 1);
            for (pred, battles, wars) in self.predecessors(engine, &current) {
                let rest = rest.before(battles, wars);
                if skip.is_some_and(|r| self.is_round(&pred, r)) {
                    continue;
                }
                let value = rest.of(metric);
                let better = value > best.as_ref().map_or(own, |b| b.1.of(metric));
                if [pred[0].len(), pred[1].len()] == self.dealt && better {
                    best = Some((pred.clone(), rest));
                }
                self.wait(&pred, rest, None, metric, &mut counter);
            }
            self.current = current;
        }
        let found = best.map(|(hands, rest)| Extended {
            order: deal_of(&self.rules, hands),
            rest,
        });
        (found, expanded, halted)
    }

    /// A deal whose game reaches the state `hands` (values from 0, top card first), the fewest
    /// rounds back first, among at most `budget` states expanded: its values in dealing order
    /// (from 0). The states before a state on a cycle include the cycle's own, met once.
    pub(crate) fn deal_into(
        &mut self,
        engine: &mut Engine,
        hands: [Vec<u8>; 2],
        budget: u64,
    ) -> Option<Vec<u8>> {
        if [hands[0].len(), hands[1].len()] == self.dealt {
            return Some(deal_of(&self.rules, hands));
        }
        let key = |h: &[Vec<u8>; 2]| (h[0].len(), [&h[0][..], &h[1][..]].concat());
        let mut seen = HashSet::from([key(&hands)]);
        let mut waiting = VecDeque::from([hands]);
        let mut expanded = 0;
        while let Some(state) = waiting.pop_front() {
            if expanded == budget {
                break;
            }
            expanded += 1;
            for (pred, _, _) in self.predecessors(engine, &state) {
                if [pred[0].len(), pred[1].len()] == self.dealt {
                    return Some(deal_of(&self.rules, pred));
                }
                if seen.insert(key(&pred)) {
                    waiting.push_back(pred);
                }
            }
        }
        None
    }

    /// Plays the game of `order` (whose rest is `rest`) for its first [`REACH`] rounds, each
    /// state put to wait as a state of the game's own; returns the states' counter.
    fn wait_for_the_game(
        &mut self,
        engine: &mut Engine,
        order: &[u8],
        rest: Rest,
        metric: Metric,
    ) -> u64 {
        let hands: Vec<Vec<u8>> = hands_of(&self.rules, order)
            .into_iter()
            .map(|h| h.into_iter().map(|v| v - 1).collect())
            .collect();
        let mut state = [hands[0].clone(), hands[1].clone()];
        let mut left = rest;
        let mut counter = 0u64;
        for round in 0..=REACH {
            self.trajectory.extend_from_slice(&state[0]);
            self.trajectory.extend_from_slice(&state[1]);
            self.trajectory_len0.push(state[0].len());
            self.wait(&state, left, Some(round), metric, &mut counter);
            let Some((battles, wars)) = engine.step_values([&state[0], &state[1]], &mut self.after)
            else {
                break;
            };
            std::mem::swap(&mut state, &mut self.after);
            left = Rest {
                rounds: left.rounds - 1,
                battles: left.battles - battles,
                wars: left.wars - wars,
            };
        }
        counter
    }

    /// Whether state `hands` is the game's own state after `round` rounds.
    fn is_round(&self, hands: &[Vec<u8>; 2], round: u64) -> bool {
        let n = hands[0].len() + hands[1].len();
        let (at, len0) = (round as usize * n, self.trajectory_len0[round as usize]);
        hands[0].len() == len0
            && self.trajectory[at..at + len0] == hands[0][..]
            && self.trajectory[at + len0..at + n] == hands[1][..]
    }

    /// Puts a state to wait for its expansion, in a free slot if there is one.
    fn wait(
        &mut self,
        hands: &[Vec<u8>; 2],
        rest: Rest,
        round: Option<u64>,
        metric: Metric,
        counter: &mut u64,
    ) {
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                self.slots.push(Pending {
                    hands: Vec::new(),
                    len0: 0,
                    rest,
                    round,
                });
                self.slots.len() - 1
            }
        };
        let pending = &mut self.slots[slot];
        pending.hands.clear();
        pending.hands.extend_from_slice(&hands[0]);
        pending.hands.extend_from_slice(&hands[1]);
        pending.len0 = hands[0].len();
        pending.rest = rest;
        pending.round = round;
        self.heap.push((rest.of(metric), Reverse(*counter), slot));
        *counter += 1;
    }

    /// The states one round before the state `hands`, each with that round's battles and wars.
    fn predecessors(
        &mut self,
        engine: &mut Engine,
        hands: &[Vec<u8>; 2],
    ) -> Vec<([Vec<u8>; 2], u64, u64)> {
        let mut found = Vec::new();
        for winner in 0..2 {
            let (won, lost) = (&hands[winner], &hands[1 - winner]);
            for wars in 0..=MOST_WARS {
                let m = 1 + wars * (self.face_down + 1);
                if 2 * m > won.len() {
                    break;
                }
                let (kept, picked) = won.split_at(won.len() - 2 * m);
                self.tables.clear();
                if self.sorted {
                    sorted_tables(picked, wars, self.face_down, &mut self.tables);
                } else {
                    let places = &self.places[winner][wars];
                    let mut table = vec![0; 2 * m];
                    for (&place, &card) in places.iter().zip(picked) {
                        table[usize::from(place)] = card;
                    }
                    if plausible(&table, m, self.face_down) {
                        self.tables.push(table);
                    }
                }
                for t in 0..self.tables.len() {
                    let table = &self.tables[t];
                    self.pred[winner].clear();
                    self.pred[winner].extend((0..m).map(|j| table[2 * j + winner]));
                    self.pred[winner].extend_from_slice(kept);
                    self.pred[1 - winner].clear();
                    self.pred[1 - winner].extend((0..m).map(|j| table[2 * j + 1 - winner]));
                    self.pred[1 - winner].extend_from_slice(lost);
                    let pred = [&self.pred[0][..], &self.pred[1][..]];
                    if let Some((battles, wars)) = engine.step_values(pred, &mut self.after) {
                        if self.after == *hands {
                            found.push((self.pred.clone(), battles, wars));
                        }
                    }
                }
            }
        }
        found
    }
}

/// The deal (values in dealing order, from 0) whose hands are `hands` (values from 0).
fn deal_of(rules: &Rules, hands: [Vec<u8>; 2]) -> Vec<u8> {
    let hands = hands.map(|h| h.into_iter().map(|v| v + 1).collect::<Vec<u8>>());
    crate::deal::orders::order_of(rules, &hands)
}

/// Whether a table of `m` cards a player (place `2j + p`: player `p`'s `j`-th) can be a round's:
/// its battles (the first card, and the card after each `face_down` face-down ones) tie but the
/// last, which does not. The engine's round decides the rest.
fn plausible(table: &[u8], m: usize, face_down: usize) -> bool {
    let mut j = 0;
    while j + 1 < m {
        if table[2 * j] != table[2 * j + 1] {
            return false;
        }
        j += face_down + 1;
    }
    j == m - 1 && table[2 * j] != table[2 * j + 1]
}

/// The tables (as [`plausible`] lays them out) whose cards, strongest first, are `picked`, for
/// a round of `wars` wars: the deciding battle's two cards in either order, and the tied
/// battles' values in every distinct order. Wars are proposed only in open war (no card face
/// down), where every card of the table is a battle's.
fn sorted_tables(picked: &[u8], wars: usize, face_down: usize, out: &mut Vec<Vec<u8>>) {
    if picked.windows(2).any(|w| w[0] < w[1]) || (wars > 0 && face_down > 0) {
        return;
    }
    let m = wars + 1;
    // Each distinct ordered pair of values for the deciding battle.
    let mut values: Vec<u8> = picked.to_vec();
    values.dedup();
    for &x in &values {
        for &y in values.iter().filter(|&&y| y != x) {
            let mut rest = picked.to_vec();
            for v in [x, y] {
                let at = rest
                    .iter()
                    .position(|&r| r == v)
                    .expect("a card of the table");
                rest.remove(at);
            }
            // The rest must pair up into tied battles.
            let mut ties = Vec::with_capacity(wars);
            let mut paired = true;
            for pair in rest.chunks(2) {
                if pair[0] != pair[1] {
                    paired = false;
                    break;
                }
                ties.push(pair[0]);
            }
            if !paired {
                continue;
            }
            ties.sort_unstable();
            loop {
                let mut table = Vec::with_capacity(2 * m);
                for &t in &ties {
                    table.extend([t, t]);
                }
                table.extend([x, y]);
                out.push(table);
                if !next_permutation(&mut ties) {
                    break;
                }
            }
        }
    }
}

/// The next arrangement of `items` in lexicographic order; false after the last.
fn next_permutation(items: &mut [u8]) -> bool {
    let Some(i) = items.windows(2).rposition(|w| w[0] < w[1]) else {
        return false;
    };
    let j = items
        .iter()
        .rposition(|&x| x > items[i])
        .expect("a greater item");
    items.swap(i, j);
    items[i + 1..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::orders::{random_deal, sorted_values};
    use crate::deal::SplitMix64;
    use crate::rules::{Deck, Preset, Settings};

    /// Undoing a round finds the state before it: along random games of every gather the
    /// backward search reads (and with cards face down), each state's true predecessor is among
    /// those proposed and checked, for every round of at most `MOST_WARS` wars (and, under
    /// `sorted`, every round of open war). Each proposed predecessor leads to the state.
    #[test]
    fn undoing_a_round_finds_the_state_before_it() {
        let gathers = [
            Gather::Reveal,
            Gather::P1First,
            Gather::WinnerFirst,
            Gather::LoserFirst,
            Gather::WinnerFirstLatest,
            Gather::Natural,
            Gather::PairFirst,
            Gather::Sorted,
        ];
        let mut recovered = 0;
        for gather in gathers {
            for face_down in [0, 1] {
                let rules = Settings::new(Preset::Bataille)
                    .deck(Deck::parse("4x6").unwrap())
                    .gather(gather)
                    .face_down(face_down)
                    .build()
                    .unwrap();
                let mut engine = Engine::new(rules);
                let mut backward = Backward::new(&rules);
                let sorted = sorted_values(&rules);
                let mut rng = SplitMix64(11);
                let mut after = [Vec::new(), Vec::new()];
                let mut found_here = 0;
                for _ in 0..20 {
                    let order = random_deal(&sorted, &mut rng);
                    let hands: Vec<Vec<u8>> = hands_of(&rules, &order)
                        .into_iter()
                        .map(|h| h.into_iter().map(|v| v - 1).collect())
                        .collect();
                    let mut state = [hands[0].clone(), hands[1].clone()];
                    for _ in 0..60 {
                        let Some((battles, wars)) =
                            engine.step_values([&state[0], &state[1]], &mut after)
                        else {
                            break;
                        };
                        let preds = backward.predecessors(&mut engine, &after.clone());
                        let expected = (battles - 1) as usize <= MOST_WARS
                            && !(gather == Gather::Sorted && wars > 0 && face_down > 0);
                        let present = preds
                            .iter()
                            .any(|(p, b, w)| *p == state && (*b, *w) == (battles, wars));
                        assert!(!expected || present, "{gather} {face_down}: {state:?}");
                        found_here += usize::from(present);
                        state = after.clone();
                    }
                }
                assert!(found_here > 100, "{gather} {face_down}: {found_here}");
                recovered += found_here;
            }
        }
        assert!(recovered > 16 * 100);
    }
}
