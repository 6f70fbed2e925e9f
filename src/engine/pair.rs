//! Two-player games played whole in one byte array, the two hands interleaved.
//!
//! Both players put down the same number of cards in every round (one each in a battle, as many
//! each in a war), so their tops move together: player `p`'s card at place `i` is byte `2i + p`,
//! one head serves both hands, and one 16-bit load reveals both top cards. Each hand's tail moves
//! on its own (the winner's cards go to every other byte from its tail). Only values are kept:
//! they are the whole state `docs/rules.md` defines, and an unobserved game needs nothing else. When
//! the furthest tail nears the array's end, both hands slide back to its start together.
//!
//! A run of rounds stops only when the game needs its caller: a hand is empty, the hands might
//! match Brent's saved state (player 1's size and both top cards match), or a snapshot, a move
//! of the saved state, the round cap or a slide back is due. Every such check is folded into one
//! well-predicted branch a round; the battle itself has no branch on who won. Wars are played by
//! a cold function inside the run. The cycle start is found as the general engine finds it
//! ([`Engine::find_cycle_start`](crate::engine::Engine::find_cycle_start)): snapshots every `spacing` rounds, a binary search over them,
//! then two copies `lambda` rounds apart stepped together.
//!
//! Every rule comes from where it is defined: the two-card comparison from [`p1_wins`]
//! (tested against [`Strength`](crate::rules::ranking::Strength) for every pair), the short-war policy from `super::short_war`, and
//! the gather orders from `rules::gather`, which this kernel's tables implement ([`PickUp`]);
//! `tests/suite/engine.rs` checks every path against the general one.

use super::cycle::{self, Brent, Copies, History, Replay};
use super::{short_war, Counts, GameResult, Outcome};
use crate::deal::{dealt_span, SplitMix64};
use crate::rules::{gather, holds_war, with_gather_code, Card, Deal, Direction, Gather, Order};
use crate::rules::{two_players, PickUp, Rules, TwoCards};
use std::hint::select_unpredictable;

/// Ranking, as a const parameter so that each variant compiles to its own loop: plain "highest
/// value wins", or with oorlog's exception (2s and 3s beat the ace).
pub(crate) const PLAIN: u8 = 0;
pub(crate) const OORLOG: u8 = 1;
// Gather orders are const parameters (`Gather::code`): each compiles to its own loop, which
// matches on `Gather::of_code(GATHER)`, folded away at compile time.

/// Two hands in one array: byte `h` holds player 1's top card, `h + 1` player 2's; player `p`'s
/// next won card goes to byte `t[p]` (of the parity `p`).
#[derive(Clone, Debug)]
struct Duo {
    cards: Box<[u8]>,
    h: usize,
    t: [usize; 2],
}

impl Duo {
    fn new(bytes: usize) -> Duo {
        Duo {
            cards: vec![0; bytes].into_boxed_slice(),
            h: 0,
            t: [0, 1],
        }
    }

    /// Cards in player `p`'s hand.
    #[inline(always)]
    fn len(&self, p: usize) -> usize {
        (self.t[p] - p - self.h) / 2
    }

    /// The bytes from the head to the furthest tail: both hands, interleaved.
    fn live(&self) -> &[u8] {
        &self.cards[self.h..self.t[0].max(self.t[1])]
    }

    /// Whether both hold the same values in each hand.
    #[inline]
    fn same(&self, other: &Duo) -> bool {
        self.len(0) == other.len(0)
            && same_hands(
                (self.live(), self.len(0), self.len(1)),
                (other.live(), other.len(0), other.len(1)),
            )
    }

    /// Player 1's hand size and both top cards in one word: a necessary condition for two states
    /// to match. (An empty hand's top is a stale byte; the caller checks for empty hands first.)
    #[inline(always)]
    fn key(&self) -> u64 {
        let tops = u16::from_le_bytes([self.cards[self.h], self.cards[self.h + 1]]);
        key_of(tops, self.t[0] - self.h)
    }

    /// Moves both hands back to the array's start.
    fn slide_back(&mut self) {
        let end = self.t[0].max(self.t[1]);
        self.cards.copy_within(self.h..end, 0);
        self.t[0] -= self.h;
        self.t[1] -= self.h;
        self.h = 0;
    }

    /// Loads bytes that start as `live()` gave them (anything may follow), holding `len0` cards
    /// of player 1's.
    fn load(&mut self, live: &[u8], len0: usize, total: usize) {
        self.cards[..live.len()].copy_from_slice(live);
        self.h = 0;
        self.t = [2 * len0, 2 * (total - len0) + 1];
    }
}

/// Whether two pairs of interleaved hands, given as their live bytes ([`Duo::live`]) and their
/// two sizes, hold the same values.
#[inline(always)]
fn same_hands((a, a0, a1): (&[u8], usize, usize), (b, b0, b1): (&[u8], usize, usize)) -> bool {
    if (a0, a1) != (b0, b1) {
        return false;
    }
    // Both hands side by side up to the shorter one's end, then the longer one's rest.
    let (shared, longer) = (2 * a0.min(a1), usize::from(a1 > a0));
    let longer_len = if longer == 1 { a1 } else { a0 };
    a[..shared] == b[..shared]
        && (shared + longer..2 * longer_len + longer)
            .step_by(2)
            .all(|i| a[i] == b[i])
}

/// See [`Duo::key`]: `twice_len0` is twice player 1's hand size.
#[inline(always)]
fn key_of(tops: u16, twice_len0: usize) -> u64 {
    (tops as u64) << 32 | twice_len0 as u64
}

/// A key no state has: runs that need not watch for cycles.
const NO_KEY: u64 = u64::MAX;

/// What a game needs besides its state.
struct Ctx<'a> {
    rules: &'a Rules,
    /// Cards in both hands.
    total: usize,
    /// No tail passes this byte inside a run: past it, a war's whole table still fits before
    /// the array's end.
    limit: usize,
    ace: u8,
    low_top: u8,
}

/// What a run lends its wars.
struct Side<'a, 'b> {
    tally: &'a mut Counts,
    ctx: &'a Ctx<'b>,
    rng: &'a mut SplitMix64,
    pile: &'a mut Vec<u8>,
}

/// Why a run stopped (after a finished round, but for `Ended`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stop {
    Ended(Outcome),
    /// The hands might match the saved state.
    Key,
    /// The run played the rounds it was allowed, or its tails reached their limit.
    Limit,
}

/// Rounds the first tortoise (the deal) watches before it moves, in two-player runs. Any
/// window is exact (a state on the cycle first comes back after exactly the cycle length); a
/// first window of 64 rather than 1 spares the early moves that would each stop the fast path.
const FIRST_WINDOW: u64 = 64;
/// Rounds between two snapshots at the start of a game. Fewer snapshots stop the fast path less
/// often; more make the search for a cycle's start shorter. Measured (callgrind, seeds
/// 0..50,000): 128 against 64, `shortened` -1.5% and `codingame` -1.7% instructions; 256 gains
/// less.
const FIRST_SPACING: u64 = 128;

/// Brent's tortoise is a whole [`Duo`]: its key is read at the start of every run.
impl Copies<Duo> for Duo {
    fn save(&mut self, live: &Duo) {
        let len0 = live.len(0);
        self.load(live.live(), len0, len0 + live.len(1));
    }

    fn matches(&self, live: &Duo) -> bool {
        live.same(self)
    }

    fn restore(&self, live: &mut Duo) {
        let len0 = self.len(0);
        live.load(self.live(), len0, len0 + self.len(1));
    }
}

/// A snapshot of the history: the hands' live bytes (room for `2 * total + 1`, the most they
/// span) and their sizes.
#[derive(Clone, Debug)]
struct DuoBytes {
    bytes: Box<[u8]>,
    lens: [usize; 2],
}

impl DuoBytes {
    /// Room for the hands of games of `total` cards.
    fn with_capacity(total: usize) -> DuoBytes {
        DuoBytes {
            bytes: vec![0; 2 * total + 1].into_boxed_slice(),
            lens: [0; 2],
        }
    }

    fn live(&self) -> &[u8] {
        let [len0, len1] = self.lens;
        &self.bytes[..(2 * len0).max(2 * len1 + 1)]
    }
}

impl Copies<Duo> for DuoBytes {
    fn save(&mut self, live: &Duo) {
        let bytes = live.live();
        self.bytes[..bytes.len()].copy_from_slice(bytes);
        self.lens = [live.len(0), live.len(1)];
    }

    fn matches(&self, live: &Duo) -> bool {
        let [len0, len1] = self.lens;
        same_hands(
            (self.live(), len0, len1),
            (live.live(), live.len(0), live.len(1)),
        )
    }

    fn restore(&self, live: &mut Duo) {
        let [len0, len1] = self.lens;
        live.load(self.live(), len0, len0 + len1);
    }
}

/// The buffers of two-player games of one setting, sized once.
#[derive(Clone, Debug)]
pub(crate) struct Pair {
    live: Duo,
    brent: Brent<Duo>,
    /// Two copies of a looping game, `lambda` rounds apart, for the search of its cycle's start.
    ghosts: [(Duo, Counts); 2],
    history: History<DuoBytes, Counts>,
    /// A war's table, for the gathers that reorder it (`sorted`, `random`).
    pile: Vec<u8>,
    total: usize,
}

impl Pair {
    /// Buffers for games of at most `total` cards.
    pub(crate) fn with_capacity(total: usize) -> Pair {
        // Room for the hands eight times over: slides are rare.
        let bytes = (16 * total).max(512);
        Pair {
            live: Duo::new(bytes),
            brent: Brent::new(Duo::new(bytes)),
            ghosts: [0, 1].map(|_| (Duo::new(bytes), Counts::default())),
            history: History::new(),
            pile: Vec::with_capacity(total),
            total,
        }
    }

    /// Plays the two-player game dealt from `deck` (anything with a value, in deal order).
    /// `rng` seeds the `random` gather; `max_rounds` caps games whose cycles cannot be checked.
    pub(crate) fn play_deal<T: Copy>(
        &mut self,
        rules: &Rules,
        deck: &[T],
        value: impl Fn(T) -> u8,
        rng: &mut SplitMix64,
        max_rounds: u64,
    ) -> GameResult {
        let n = deck.len();
        debug_assert!(n <= self.total);
        let cards = &mut self.live.cards;
        let lens = [0, 1].map(|p| dealt_span(n, rules.deal(), 2, p));
        if rules.deal() == Deal::RoundRobin {
            // Dealt one card each in turn: the deck is already in the interleaved order.
            for (to, &card) in cards[..n].iter_mut().zip(deck) {
                *to = value(card);
            }
        } else {
            for (p, (start, step, count)) in lens.into_iter().enumerate() {
                for (i, &card) in deck[start..].iter().step_by(step).take(count).enumerate() {
                    cards[2 * i + p] = value(card);
                }
            }
        }
        let lens = lens.map(|(_, _, count)| count);
        self.live.h = 0;
        self.live.t = [2 * lens[0], 2 * lens[1] + 1];
        self.play(rules, rng, max_rounds)
    }

    /// Plays the given hands' values (top card first), each hand holding at least one card.
    pub(crate) fn play_hands(
        &mut self,
        rules: &Rules,
        hands: [&[Card]; 2],
        rng: &mut SplitMix64,
        max_rounds: u64,
    ) -> GameResult {
        for (p, hand) in hands.iter().enumerate() {
            for (i, card) in hand.iter().enumerate() {
                self.live.cards[2 * i + p] = card.value();
            }
        }
        self.live.h = 0;
        self.live.t = [2 * hands[0].len(), 2 * hands[1].len() + 1];
        self.play(rules, rng, max_rounds)
    }

    fn play(&mut self, rules: &Rules, rng: &mut SplitMix64, max_rounds: u64) -> GameResult {
        let total = self.live.len(0) + self.live.len(1);
        debug_assert!(self.live.len(0) > 0 && self.live.len(1) > 0 && total <= self.total);
        let s = rules.strength();
        let ctx = Ctx {
            rules,
            total,
            limit: self.live.cards.len() - 2 * total - 8,
            ace: s.ace.unwrap_or(u8::MAX),
            low_top: s.low_top,
        };
        macro_rules! go {
            ($gather:expr) => {
                if s.is_plain() {
                    self.game::<PLAIN, { $gather }>(&ctx, rng, max_rounds)
                } else {
                    self.game::<OORLOG, { $gather }>(&ctx, rng, max_rounds)
                }
            };
        }
        with_gather_code!(rules.gather(), go)
    }

    /// Plays runs until the game ends or repeats its state ([`cycle::Brent`], which a run stops
    /// for when the live hands show its tortoise's key), or, with the `random` gather, until
    /// `max_rounds`.
    fn game<const RANK: u8, const GATHER: u8>(
        &mut self,
        ctx: &Ctx,
        rng: &mut SplitMix64,
        max_rounds: u64,
    ) -> GameResult {
        let detect = Gather::of_code(GATHER).order() != Order::Shuffled;
        let mut tally = Counts::default();
        let total = self.total;
        let Pair {
            live,
            brent,
            ghosts: [behind, ahead],
            history,
            pile,
            ..
        } = self;
        if detect {
            history.reset(FIRST_SPACING);
            history.save(live, tally, || DuoBytes::with_capacity(total));
            brent.start(FIRST_WINDOW);
            brent.save(0, live);
        }
        // The tortoise's key: a run stops when the live hands show it.
        let mut key = if detect { live.key() } else { NO_KEY };
        loop {
            let until = if detect {
                history.next_round().min(brent.next_save())
            } else {
                max_rounds
            };
            let stop = run::<RANK, GATHER>(live, &mut tally, ctx, rng, pile, until, key);
            if let Stop::Ended(outcome) = stop {
                return tally.result(outcome);
            }
            if live.t[0].max(live.t[1]) > live.cards.len() / 2 {
                live.slide_back();
            }
            if !detect {
                if tally.rounds >= max_rounds {
                    return tally.result(Outcome::Capped);
                }
                continue;
            }
            let moves = tally.rounds == brent.next_save();
            if let Some(cycle_length) = brent.step(tally.rounds, live, stop == Stop::Key) {
                let mut replay = Rebuild::<RANK, GATHER> {
                    history,
                    pile,
                    ctx,
                    rng,
                };
                return replay.infinite([behind, ahead], tally.rounds, cycle_length);
            }
            if moves {
                key = live.key();
            }
            if tally.rounds == history.next_round() {
                history.save(live, tally, || DuoBytes::with_capacity(total));
            }
        }
    }
}

/// Rounds of a looping game rebuilt from its snapshots ([`cycle::cycle_start`]).
struct Rebuild<'a, 'b, const RANK: u8, const GATHER: u8> {
    history: &'a History<DuoBytes, Counts>,
    pile: &'a mut Vec<u8>,
    ctx: &'a Ctx<'b>,
    rng: &'a mut SplitMix64,
}

impl<const RANK: u8, const GATHER: u8> Rebuild<'_, '_, RANK, GATHER> {
    /// The result of a game whose state after round `now` recurs `lambda` rounds later.
    #[cold]
    #[inline(never)]
    fn infinite(&mut self, ghosts: [&mut (Duo, Counts); 2], now: u64, lambda: u64) -> GameResult {
        let spacing = self.history.spacing();
        let [behind, ahead] = ghosts;
        let cycle_start =
            cycle::cycle_start(self, [behind, &mut *ahead], now - lambda, spacing, lambda);
        ahead.1.result(Outcome::Infinite {
            cycle_start,
            cycle_length: lambda,
        })
    }
}

impl<const RANK: u8, const GATHER: u8> Replay for Rebuild<'_, '_, RANK, GATHER> {
    type Live = (Duo, Counts);

    fn rebuild(&mut self, (duo, tally): &mut (Duo, Counts), round: u64) {
        let (at, snapshot, counts) = self.history.at_or_before(round);
        snapshot.restore(duo);
        *tally = counts;
        replay::<RANK, GATHER>(duo, tally, self.ctx, self.rng, self.pile, round - at);
    }

    #[inline(always)]
    fn step(&mut self, (duo, tally): &mut (Duo, Counts)) {
        let side = &mut Side {
            tally,
            ctx: self.ctx,
            rng: self.rng,
            pile: self.pile,
        };
        one_round::<RANK, GATHER>(duo, side);
    }

    #[inline(always)]
    fn same(&self, a: &(Duo, Counts), b: &(Duo, Counts)) -> bool {
        a.0.key() == b.0.key() && a.0.same(&b.0)
    }
}

/// Exactly `rounds` more rounds of a game known to cycle (so it cannot end).
fn replay<const RANK: u8, const GATHER: u8>(
    duo: &mut Duo,
    tally: &mut Counts,
    ctx: &Ctx,
    rng: &mut SplitMix64,
    pile: &mut Vec<u8>,
    rounds: u64,
) {
    let target = tally.rounds + rounds;
    while tally.rounds < target {
        let stop = run::<RANK, GATHER>(duo, tally, ctx, rng, pile, target, NO_KEY);
        debug_assert!(!matches!(stop, Stop::Ended(_)), "a cycling game ended");
        if duo.t[0].max(duo.t[1]) > duo.cards.len() / 2 {
            duo.slide_back();
        }
    }
}

/// Whether player 1's value `a` beats player 2's `b` (they differ), without branching.
/// `ace` and `low_top` come from [`Strength`](crate::rules::ranking::Strength) (only read for [`OORLOG`]).
#[inline(always)]
pub(crate) fn p1_wins<const RANK: u8>(a: u8, b: u8, ace: u8, low_top: u8) -> bool {
    let higher = a > b;
    if RANK == OORLOG {
        // A 2 or 3 against an ace or joker reverses the order.
        let low_vs_ace = (a <= low_top) & (b == ace);
        let ace_vs_low = (a == ace) & (b <= low_top);
        higher ^ (low_vs_ace | ace_vs_low)
    } else {
        higher
    }
}

/// A battle `a` against `b` (they differ): the winner takes both cards, in the gather order, at
/// its tail (`limit` or below: see `run`). No branch on who won.
#[inline(always)]
fn battle<const RANK: u8, const GATHER: u8>(
    cards: &mut [u8],
    (a, b): (u8, u8),
    [t0, t1]: [&mut usize; 2],
    (ace, low_top): (u8, u8),
    rng: &mut SplitMix64,
    limit: usize,
) {
    let p1 = p1_wins::<RANK>(a, b, ace, low_top);
    let battle = TwoCards::new([a, b], || rng.below(2) == 0);
    let [first, second] = battle.gathered(Gather::of_code(GATHER).order(), p1);
    // Who won is a coin flip to the processor: selects, never branches.
    let t = select_unpredictable(p1, *t0, *t1);
    debug_assert!(t <= limit && limit + 2 < cards.len());
    // SAFETY: callers keep t at or below `Ctx::limit`, which lies 2 * total + 8 bytes before the
    // array's end (`run` by the head's stop, `one_round` by sliding first).
    unsafe {
        *cards.get_unchecked_mut(t) = first;
        *cards.get_unchecked_mut(t + 2) = second;
    }
    let (grown0, grown1) = (*t0 + 4, *t1 + 4);
    *t0 = select_unpredictable(p1, grown0, *t0);
    *t1 = select_unpredictable(p1, *t1, grown1);
}

/// One round of a game known to cycle (so it cannot end), for the cycle start's last steps:
/// no run to set up.
#[inline(always)]
fn one_round<const RANK: u8, const GATHER: u8>(duo: &mut Duo, side: &mut Side) {
    if duo.t[0].max(duo.t[1]) > duo.cards.len() / 2 {
        duo.slide_back();
    }
    let Duo {
        cards,
        h,
        t: [t0, t1],
    } = duo;
    let pair = tops(cards, *h, [*t0, *t1]);
    let (a, b) = (pair as u8, (pair >> 8) as u8);
    *h += 2;
    if a != b {
        let ranking = (side.ctx.ace, side.ctx.low_top);
        battle::<RANK, GATHER>(cards, (a, b), [t0, t1], ranking, side.rng, side.ctx.limit);
    } else {
        let war = war::<RANK, GATHER>(cards, [*h, *t0, *t1], side);
        let Ok([after, new0, new1]) = war else {
            unreachable!("a cycling game ended");
        };
        (*h, *t0, *t1) = (after, new0, new1);
    }
    side.tally.rounds += 1;
    side.tally.battles += 1;
}

/// Both top cards in a run (player 1's in the low byte), at head `h` of hands whose tails are
/// `t0` and `t1`.
#[inline(always)]
fn tops(cards: &[u8], h: usize, [t0, t1]: [usize; 2]) -> u16 {
    debug_assert!(h <= t0 && h < t1 && t0.max(t1) < cards.len());
    // SAFETY: `run` and `war` read at a head, which lies at or before both tails (player 2's
    // tail is odd, so past h + 1 when that hand is not empty, and at h + 1 when it is); the
    // tails stay within the array (below `Ctx::limit` within a run, and within the array after
    // a war's table).
    let (a, b) = unsafe { (*cards.get_unchecked(h), *cards.get_unchecked(h + 1)) };
    u16::from_le_bytes([a, b])
}

/// Plays rounds until the game ends, or the round count reaches `until`, or after a round that
/// leaves player 1's size and both top cards as `key` says, or the tails reach `ctx.limit`.
/// About 80 lines, kept whole: the two-player hot loop, whose heads, tails and counters stay in
/// registers from battle to battle.
#[inline(never)]
fn run<const RANK: u8, const GATHER: u8>(
    duo: &mut Duo,
    tally: &mut Counts,
    ctx: &Ctx,
    rng: &mut SplitMix64,
    pile: &mut Vec<u8>,
    until: u64,
    key: u64,
) -> Stop {
    let cards = &mut duo.cards[..];
    let (h_start, [mut t0, mut t1]) = (duo.h, duo.t);
    let mut h = h_start;
    let (limit, twice_total) = (ctx.limit, 2 * ctx.total);
    let rounds_before = tally.rounds;
    let (ace, low_top) = (ctx.ace, ctx.low_top);
    let rounds_left = until.saturating_sub(rounds_before).min(limit as u64) as usize;
    // What only wars use, behind one pointer: the loop keeps its registers for battles.
    let mut side = Side {
        tally,
        ctx,
        rng,
        pile,
    };
    // Bytes the head moved beyond one pair a finished round: the wars' cards.
    let mut extra = 0;
    // The head stops here: every step adds four bytes to one tail at most, so the tails stay
    // at or below `limit` until then, and the rounds stay within `rounds_left`.
    let stop_at = |h: usize, t0: usize, t1: usize, rounds: usize| {
        let room = limit.saturating_sub(t0.max(t1)) / 4;
        h + 2 * room.min(rounds_left - rounds)
    };
    let mut stop_h = stop_at(h, t0, t1, 0);
    let mut pair = tops(cards, h, [t0, t1]);
    let stop = loop {
        let (a, b) = (pair as u8, (pair >> 8) as u8);
        h += 2;
        if a != b {
            let tails = [&mut t0, &mut t1];
            battle::<RANK, GATHER>(cards, (a, b), tails, (ace, low_top), side.rng, limit);
        } else {
            let tie = h;
            match war::<RANK, GATHER>(cards, [h, t0, t1], &mut side) {
                Ok([after, new0, new1]) => {
                    (h, t0, t1) = (after, new0, new1);
                    extra += h - tie;
                    stop_h = stop_at(h, t0, t1, (h - h_start - extra) / 2);
                }
                Err(outcome) => {
                    // The round that ended the game is not finished: its opening battle is
                    // counted, the round is not.
                    let rounds = ((tie - h_start - extra) / 2 - 1) as u64;
                    side.tally.rounds += rounds;
                    side.tally.battles += rounds + 1;
                    duo.h = tie;
                    duo.t = [t0, t1];
                    return Stop::Ended(outcome);
                }
            }
        }
        // Between rounds, player 2 is empty when player 1 holds every card.
        let twice_len0 = t0 - h;
        let empty = twice_len0.wrapping_sub(2) >= twice_total - 2;
        pair = tops(cards, h, [t0, t1]);
        let key_hit = key_of(pair, twice_len0) == key;
        if (h >= stop_h) | key_hit | empty {
            break if empty {
                // Player 1 holds nothing (player 2 won) or everything.
                Stop::Ended(Outcome::Win(usize::from(twice_len0 == 0)))
            } else if key_hit {
                Stop::Key
            } else {
                Stop::Limit
            };
        }
    };
    let rounds = ((h - h_start - extra) / 2) as u64;
    side.tally.rounds += rounds;
    side.tally.battles += rounds;
    duo.h = h;
    duo.t = [t0, t1];
    stop
}

/// The tie revealed just before byte `h`: wars until one player takes the table (returns the
/// head and tails after it), or the game ends because a player is
/// short of cards (the short-war policy). Counts each war and each war's battle. Out of line
/// and cold: wars are rare enough that the run should keep its registers for battles.
#[cold]
#[inline(never)]
fn war<const RANK: u8, const GATHER: u8>(
    cards: &mut [u8],
    [mut h, mut t0, mut t1]: [usize; 3],
    side: &mut Side,
) -> Result<[usize; 3], Outcome> {
    let Side {
        tally,
        ctx,
        rng,
        pile,
    } = side;
    let start = h - 2;
    let d = ctx.rules.face_down();
    let p1 = loop {
        tally.wars += 1;
        let (left0, left1) = ((t0 - h) / 2, (t1 - 1 - h) / 2);
        let down = if holds_war(d, left0.min(left1)) {
            d
        } else {
            short(ctx.rules, left0 as u32, left1 as u32)? as usize
        };
        h += 2 * down;
        tally.battles += 1;
        // Both players hold the card revealed here (`down` < both hands' sizes).
        let pair = tops(cards, h, [t0, t1]);
        let (x, y) = (pair as u8, (pair >> 8) as u8);
        h += 2;
        if x != y {
            break p1_wins::<RANK>(x, y, ctx.ace, ctx.low_top);
        }
    };
    // The table in the order it was put down (`reveal`): player 1's card, then player 2's, at
    // each step. The winner's tail lies past every unread card, so it never meets the table,
    // and the winner's cards go to every other byte from it.
    let n = h - start;
    let w = usize::from(!p1);
    let t = if p1 { &mut t0 } else { &mut t1 };
    let (before, after) = cards.split_at_mut(*t);
    let table = &before[start..h];
    let to = &mut after[..2 * n];
    let mut pickup = WarPickUp {
        table,
        to,
        at: 0,
        pile,
        rng,
    };
    gather(Gather::of_code(GATHER).order(), &mut pickup, w);
    debug_assert_eq!(pickup.at, 2 * n);
    *t += 2 * n;
    Ok([h, t0, t1])
}

/// A war's table (`table`: both players' cards in reveal order, player 1's first at each
/// step, the deciding pair last) as the gather reads it, and the winner's pick-up, written to
/// every other byte of `to` (the winner's side of the interleaved hands).
struct WarPickUp<'a> {
    table: &'a [u8],
    to: &'a mut [u8],
    /// The byte of `to` the next card goes to.
    at: usize,
    pile: &'a mut Vec<u8>,
    rng: &'a mut SplitMix64,
}

impl WarPickUp<'_> {
    /// Writes `cards` to every other byte from `at`.
    #[inline(always)]
    fn put(&mut self, cards: impl ExactSizeIterator<Item = u8>) {
        let count = cards.len();
        for (slot, card) in self.to[self.at..].chunks_exact_mut(2).zip(cards) {
            slot[0] = card;
        }
        self.at += 2 * count;
    }
}

impl PickUp for WarPickUp<'_> {
    two_players!();
    #[inline(always)]
    fn put_player(&mut self, p: usize, direction: Direction) {
        // Player `p`'s cards are every other byte of the table from byte `p`.
        let steps = self.table.len() / 2;
        let (to, cards) = (&mut self.to[self.at..self.at + 2 * steps], &self.table[p..]);
        self.at += 2 * steps;
        for i in 0..steps {
            let step = match direction {
                Direction::AsPlayed => i,
                Direction::LatestFirst => steps - 1 - i,
            };
            to[2 * i] = cards[2 * step];
        }
    }
    #[inline(always)]
    fn put_deciding(&mut self, p: usize) {
        let card = self.table[self.table.len() - 2 + p];
        self.put(std::iter::once(card));
    }
    #[inline(always)]
    fn put_earlier(&mut self, direction: Direction) {
        let table = self.table;
        // Not a chained iterator: `chain` tests which half it is in at every card.
        let earlier = table[..table.len() - 2].iter().copied();
        match direction {
            Direction::AsPlayed => self.put(earlier),
            Direction::LatestFirst => self.put(earlier.rev()),
        }
    }
    #[inline(always)]
    fn put_revealed(&mut self) {
        let table = self.table;
        self.put(table.iter().copied());
    }
    fn put_strongest(&mut self) {
        self.pile.clear();
        self.pile.extend_from_slice(self.table);
        // Strongest value first; equal values cannot be told apart here.
        self.pile.sort_unstable_by(|a, b| b.cmp(a));
        let pile = std::mem::take(self.pile);
        self.put(pile.iter().copied());
        *self.pile = pile;
    }
    fn put_shuffled(&mut self) {
        self.pile.clear();
        self.pile.extend_from_slice(self.table);
        self.rng.shuffle(self.pile);
        let pile = std::mem::take(self.pile);
        self.put(pile.iter().copied());
        *self.pile = pile;
    }
}

/// The short-war policy when the players hold `left0` and `left1` cards past the table.
#[cold]
#[inline(never)]
fn short(rules: &Rules, left0: u32, left1: u32) -> Result<u32, Outcome> {
    short_war(rules, &[0, 1], |q| if q == 0 { left0 } else { left1 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Deck, Ranking, Strength};

    /// For every deck size with an ace and every pair of values, the branch-free comparison
    /// says what [`Strength`] says.
    #[test]
    fn branch_free_ranking_agrees_with_the_rules() {
        for values in [2, 8, 11, 12, 13, 14, 64] {
            let deck = Deck::parse(&format!("4x{values}")).unwrap();
            for &ranking in Ranking::ALL {
                let s = Strength::new(ranking, deck);
                let (ace, low) = (s.ace.unwrap_or(u8::MAX), s.low_top);
                for a in 0..values {
                    for b in (0..values).filter(|&b| b != a) {
                        let fast = if s.is_plain() {
                            p1_wins::<PLAIN>(a, b, ace, low)
                        } else {
                            p1_wins::<OORLOG>(a, b, ace, low)
                        };
                        assert_eq!(fast, s.beats(a, b), "{deck} {ranking:?} {a} {b}");
                    }
                }
            }
        }
    }
}
