//! The long cycles a walk has met, and the naming of cycles in words.

use super::step::FromStart;
use super::word::{pack_span, Word};
use super::{with_rules, with_word, Game, Kernel, Params, Width};
use crate::deal::dealt_span;
use crate::engine::cycle::{Copies, Replay};
use crate::engine::{keep_least, GameResult, Outcome};
use crate::hash::FoldState;
use crate::rules::Card;
use crate::rules::Rules;
use std::cell::RefCell;
use std::collections::HashMap;

/// The long cycles a walk has met, by every state on them: a game that reaches one of those
/// states loops on that cycle, so it is not played further ([`run_long`](crate::engine::packed::run::run_long) looks every
/// [`KNOWN_EVERY`] rounds), and its cycle starts at its first round whose state is known
/// (a state before a game's cycle is on no cycle). Results are the same with or without it;
/// decks whose games loop for tens of thousands of rounds (7x3) walk a thousand times faster.
#[derive(Default)]
pub(crate) struct KnownCycles {
    /// Each state on a known cycle (the two hands), with its cycle's index in `periods`.
    states: HashMap<(u128, u128), u32, FoldState>,
    /// Each known cycle's length and wars over one period.
    periods: Vec<(u64, u64)>,
    /// The names of the known cycles named so far ([`least_states`]): the least state, and the
    /// least state of the mirror cycle.
    names: HashMap<u32, (Vec<u8>, Vec<u8>), FoldState>,
}

/// Slots of the largest table [`KnownCycles::states`] grows to.
const MOST_SLOTS: usize = 1 << 20;
/// States [`KnownCycles`] holds at most: the standard [`HashMap`] fills seven slots in eight
/// before it doubles (a test checks it), so the table never passes [`MOST_SLOTS`], and the
/// cache stays under `docs/architecture.md`'s 82 MB an engine (the test below adds it up).
const MOST_KNOWN_STATES: usize = MOST_SLOTS / 8 * 7;
/// Cycles shorter than this are not learned: their games cost little more to detect than to
/// look up.
pub(super) const KNOWN_FROM_LENGTH: u64 = 64;
/// Rounds between two looks at the known cycles.
pub(super) const KNOWN_EVERY: u64 = 64;

impl KnownCycles {
    pub(super) fn key<W: Word>(game: &Game<W>) -> (u128, u128) {
        (game.h0.wide(), game.h1.wide())
    }

    /// Learns the cycle of `length` rounds through `at`, with `wars` wars a period (`step`
    /// plays a round), unless it is too short to be worth it, known already, or would pass
    /// [`MOST_KNOWN_STATES`].
    pub(super) fn learn<W: Word>(
        &mut self,
        mut at: Game<W>,
        length: u64,
        wars: u64,
        mut step: impl FnMut(&mut Game<W>),
    ) {
        let room = MOST_KNOWN_STATES - self.states.len();
        let new = !self.states.contains_key(&KnownCycles::key(&at));
        if length < KNOWN_FROM_LENGTH || !new || length > room as u64 {
            return;
        }
        let cycle = self.periods.len() as u32;
        self.periods.push((length, wars));
        for _ in 0..length {
            self.states.insert(KnownCycles::key(&at), cycle);
            step(&mut at);
        }
    }
}

/// Names the cycle of the game dealt from `deck`, which repeats every `span[1]` rounds from
/// round `span[0]` ([`Engine::least_states`](crate::engine::Engine::least_states)): its least state to `least`, and with `mirrored`
/// the least state of its mirror cycle (the two hands exchanged). A cycle met before is named
/// from `known` at once; a new one is walked, once.
pub(crate) fn least_states(
    rules: &Rules,
    width: Width,
    deck: &[Card],
    span: [u64; 2],
    known: &RefCell<KnownCycles>,
    least: &mut Vec<u8>,
    mirrored: Option<&mut Vec<u8>>,
) {
    let dealt = |p| dealt_span(deck.len(), rules.deal(), 2, p);
    let total = deck.len() as u32;
    with_word!(width, W => {
        let hands = [0, 1].map(|p| pack_span::<W, Card>(deck, dealt(p), Card::value));
        let kernel = NameCycle {
            hands,
            span,
            least,
            mirrored,
        };
        with_rules::<W, _>(rules, total, Some(known), kernel);
    });
}

/// A looping game replayed to its cycle, whose states are then written down.
pub(super) struct NameCycle<'a, W> {
    hands: [(W, u32); 2],
    span: [u64; 2],
    least: &'a mut Vec<u8>,
    mirrored: Option<&'a mut Vec<u8>>,
}

impl<W: Word> Kernel<W> for NameCycle<'_, W> {
    type Out = ();
    fn go<const RANK: u8, const GATHER: u8, const OPEN: bool>(self, p: &Params) {
        let NameCycle {
            hands,
            span: [cycle_start, cycle_length],
            least,
            mut mirrored,
        } = self;
        let mut game = Game::new(hands);
        let mut replay = FromStart::<W, RANK, GATHER, OPEN> { start: game, p };
        replay.rebuild(&mut game, cycle_start);
        // A known cycle is named once: both its names are kept.
        let cycle = p
            .known
            .and_then(|k| k.borrow().states.get(&KnownCycles::key(&game)).copied());
        if let Some(cycle) = cycle {
            let known = p.known.expect("a known cycle").borrow();
            if let Some((own, mirror)) = known.names.get(&cycle) {
                least.clone_from(own);
                if let Some(m) = mirrored {
                    m.clone_from(mirror);
                }
                return;
            }
        }
        let mut spare = Vec::new();
        if cycle.is_some() && mirrored.is_none() {
            mirrored = Some(&mut spare);
        }
        let (at_start, mut state) = (game, Vec::new());
        for _ in 0..cycle_length {
            let len0 = game.end0 / W::CARD_BITS + 1;
            let hands = [(game.h0, len0), (game.h1, p.total - len0)];
            let hand = |(h, len): (W, u32)| (0..len).map(move |i| h.card(i));
            // A state whose first value is above the least one's cannot be less: most are
            // not written down.
            let may_be_less =
                |first: W, least: &Vec<u8>| least.first().is_none_or(|&l| first.card(0) <= l);
            if may_be_less(game.h0, least) {
                keep_least(hands.into_iter().map(hand), &mut state, least);
            }
            if let Some(m) = mirrored.as_deref_mut() {
                if may_be_less(game.h1, m) {
                    keep_least(hands.into_iter().rev().map(hand), &mut state, m);
                }
            }
            replay.step(&mut game);
        }
        assert!(
            game.matches(&at_start),
            "the game does not repeat every {cycle_length} rounds"
        );
        if let (Some(cycle), Some(known), Some(m)) = (cycle, p.known, mirrored) {
            known
                .borrow_mut()
                .names
                .insert(cycle, (least.clone(), m.clone()));
        }
    }
}

/// The result of the game from `start` if `game` (a state it reached) is on a known cycle;
/// its state after round `unknown` was on none, so its cycle starts after that round.
#[inline(never)]
pub(super) fn on_known_cycle<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    start: Game<W>,
    game: &Game<W>,
    unknown: u64,
    p: &Params,
) -> Option<GameResult> {
    let known = p.known?.borrow();
    let &cycle = known.states.get(&KnownCycles::key(game))?;
    let (length, wars) = known.periods[cycle as usize];
    let mut replay = FromStart::<W, RANK, GATHER, OPEN> { start, p };
    let mut at = start;
    replay.rebuild(&mut at, unknown);
    while !known.states.contains_key(&KnownCycles::key(&at)) {
        replay.step(&mut at);
    }
    let cycle_start = at.rounds;
    at.rounds += length;
    at.wars += wars;
    Some(at.result(Outcome::Infinite {
        cycle_start,
        cycle_length: length,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bound `docs/architecture.md` states for one engine's known cycles, in bytes.
    const STATED_BYTES: usize = 82_000_000;

    #[test]
    fn the_known_cycles_stay_within_their_stated_bytes() {
        // A full table has not doubled past `MOST_SLOTS`: its capacity is 7/8 of them.
        let mut states = HashMap::with_hasher(FoldState::default());
        for i in 0..MOST_KNOWN_STATES as u128 {
            states.insert((i, i), 0u32);
        }
        assert_eq!(states.capacity(), MOST_KNOWN_STATES);
        // Each slot: its key and index, aligned, and the table's control byte.
        let slot = std::mem::size_of::<((u128, u128), u32)>() + 1;
        // The largest table with the half-size one it copies from while it doubles.
        let table = MOST_SLOTS * slot * 3 / 2;
        // At most one cycle in `KNOWN_FROM_LENGTH` states, each with its length and wars, two
        // names of at most 34 bytes in their own allocations, and their key: under 320 bytes.
        let cycles = MOST_KNOWN_STATES / KNOWN_FROM_LENGTH as usize * 320;
        assert!(table + cycles <= STATED_BYTES, "{} bytes", table + cycles);
    }
}
