//! One game from its deal to its end or its cycle: rounds, Brent's detection, the cycle's start.

use super::known::{on_known_cycle, KNOWN_EVERY};
use super::step::{round, FromStart};
use super::word::Word;
use super::{Game, Params};
use crate::engine::cycle::{self, Brent, Copies, Replay};
use crate::engine::{GameResult, Outcome};

/// Rounds played before the state is first saved for cycle detection. Most games end before
/// it: their rounds compare nothing, and the loop that detects cycles stays out of line.
pub(super) const FIRST_WINDOW: u64 = 64;

/// `run`, out of line: one game from outside a walk.
#[inline(never)]
pub(super) fn run_one<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    start: Game<W>,
    p: &Params,
) -> GameResult {
    run::<W, RANK, GATHER, OPEN>(start, p)
}

/// Plays rounds until the game ends or repeats its state: the first [`FIRST_WINDOW`] rounds
/// here, the rest in [`run_long`].
#[inline(always)]
pub(super) fn run<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    start: Game<W>,
    p: &Params,
) -> GameResult {
    run_on::<W, RANK, GATHER, OPEN>(start, start, p)
}

/// `run` from `game`, which `start` became after fewer than [`FIRST_WINDOW`] rounds.
#[inline(always)]
pub(super) fn run_on<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    start: Game<W>,
    mut game: Game<W>,
    p: &Params,
) -> GameResult {
    loop {
        if let Some(outcome) = round::<W, RANK, GATHER, OPEN>(&mut game, p) {
            return game.result(outcome);
        }
        if game.rounds == FIRST_WINDOW {
            return run_long::<W, RANK, GATHER, OPEN>(start, game, p);
        }
    }
}

/// Plays on the game `start` became after [`FIRST_WINDOW`] rounds until it ends or repeats its
/// state ([`cycle::Brent`], its first tortoise the state after round [`FIRST_WINDOW`]). One
/// rarely taken branch a round: player 1's hand alone almost never matches the tortoise's.
#[inline(never)]
pub(super) fn run_long<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    start: Game<W>,
    mut game: Game<W>,
    p: &Params,
) -> GameResult {
    let mut brent = Brent::new(game);
    brent.start(FIRST_WINDOW);
    brent.step(game.rounds, &game, false);
    let (mut h0, mut next_save) = (game.h0, brent.next_save());
    // The last round whose state was looked for among the known cycles, and not found.
    let mut unknown = 0;
    loop {
        if let Some(outcome) = round::<W, RANK, GATHER, OPEN>(&mut game, p) {
            return game.result(outcome);
        }
        if (game.h0 == h0) | (game.rounds == next_save) {
            if let Some(length) = brent.step(game.rounds, &game, true) {
                return infinite::<W, RANK, GATHER, OPEN>(start, game.rounds, length, p);
            }
            (h0, next_save) = (brent.tortoise().map_or(h0, |t| t.h0), brent.next_save());
        }
        if game.rounds.is_multiple_of(KNOWN_EVERY) {
            if let Some(result) = on_known_cycle::<W, RANK, GATHER, OPEN>(start, &game, unknown, p)
            {
                return result;
            }
            unknown = game.rounds;
        }
    }
}
/// The tortoise of [`Brent`] is a whole game, compared by its two hands.
impl<W: Word> Copies<Game<W>> for Game<W> {
    fn save(&mut self, live: &Game<W>) {
        *self = *live;
    }

    #[inline(always)]
    fn matches(&self, live: &Game<W>) -> bool {
        (self.h0, self.h1) == (live.h0, live.h1)
    }

    fn restore(&self, live: &mut Game<W>) {
        *live = *self;
    }
}

/// The infinite game that starts at `start` and whose state after round `now` recurs `length`
/// rounds later: its cycle's start ([`cycle::cycle_start`] over the deal alone), and the counts
/// of the rounds up to its first recurrence.
#[cold]
#[inline(never)]
pub(super) fn infinite<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    start: Game<W>,
    now: u64,
    length: u64,
    p: &Params,
) -> GameResult {
    let (mut behind, mut ahead) = (start, start);
    let mut replay = FromStart::<W, RANK, GATHER, OPEN> { start, p };
    let ghosts = [&mut behind, &mut ahead];
    let cycle_start = cycle::cycle_start(&mut replay, ghosts, now - length, u64::MAX, length);
    if let Some(known) = p.known {
        let wars = ahead.wars - behind.wars;
        known
            .borrow_mut()
            .learn(behind, length, wars, |at| replay.step(at));
    }
    ahead.result(Outcome::Infinite {
        cycle_start,
        cycle_length: length,
    })
}
