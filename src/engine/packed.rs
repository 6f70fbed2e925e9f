//! Small decks played whole in two machine words.
//!
//! When two players share at most 16 cards (32 with `u128`) of at most 15 values, each hand fits
//! in one word: four bits a card, the top card in the lowest bits, each value stored plus one so
//! that an empty place reads 0. Revealing is a shift, taking the table is one shift and one or,
//! and the two words are the whole state of the game (values only, as RULES.md defines it), so
//! Brent's cycle detection costs one comparison a round and needs no snapshots: the cycle start
//! is found by replaying the game, which is cheap at this size. The decks the research studies
//! (4x4, 4x5, 1x10, 2x8, 4x8) all fit; every other game takes the engine's general fast paths.
//!
//! Every rule comes from where it is defined: the two-card comparison from `pair::p1_wins`
//! (tested against `Strength` for every pair), the short-war policy from `super::short_war`, and
//! the gather orders from RULES.md, each checked against the general path in `tests/engine.rs`.

use super::pair::{p1_wins, OORLOG, PLAIN};
use super::{short_war, GameResult, Outcome};
use crate::deal::dealt_span;
use crate::rules::{Card, Deal, Gather, Rules};
use std::ops::{BitAnd, BitOr, Not, Shl, Shr, Sub};

/// A word holding a hand, four bits a card.
pub(crate) trait Word:
    Copy
    + Ord
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitOr<Output = Self>
    + BitAnd<Output = Self>
    + Sub<Output = Self>
    + Not<Output = Self>
{
    /// Cards a word holds.
    const CARDS: usize;
    const ZERO: Self;
    const ONE: Self;
    fn of(nibble: u8) -> Self;
    /// The card at place `i` (0 = top), plus one; 0 past the hand's end.
    fn nibble(self, i: u32) -> u8;
    /// All ones if `yes`, else zero.
    fn all_if(yes: bool) -> Self;
    fn of32(x: u32) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const CARDS: usize = <$t>::BITS as usize / 4;
            const ZERO: $t = 0;
            const ONE: $t = 1;
            #[inline(always)]
            fn of(nibble: u8) -> $t {
                nibble as $t
            }
            #[inline(always)]
            fn nibble(self, i: u32) -> u8 {
                (self >> (4 * i)) as u8 & 15
            }
            #[inline(always)]
            fn of32(x: u32) -> $t {
                x as $t
            }
            #[inline(always)]
            fn all_if(yes: bool) -> $t {
                (yes as $t).wrapping_neg()
            }
        }
    };
}
word!(u64);
word!(u128);

/// The word a setting's games fit in, if any.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Width {
    W64,
    W128,
}

/// Whether two-player games of `rules` with `total` cards in all can be played in words: values
/// fit in four bits (plus one), the cards in one word, and the gather order is fixed (`random`
/// games cannot be checked for cycles and keep the engine's round cap).
pub(crate) fn width(rules: &Rules, total: usize) -> Option<Width> {
    if rules.players != 2 || rules.deck.values > 15 || rules.gather == Gather::Random {
        return None;
    }
    if total <= u64::CARDS {
        Some(Width::W64)
    } else if total <= u128::CARDS {
        Some(Width::W128)
    } else {
        None
    }
}

/// Gather orders, as const parameters: each compiles to its own loop.
const REVEAL: u8 = 0;
const P1_FIRST: u8 = 1;
const WINNER_FIRST: u8 = 2;
const NATURAL: u8 = 3;
const SORTED: u8 = 4;

/// Plays the game dealt from `deck` (anything with a value, in deal order) under `rules`, which
/// `width` accepted for this deck.
pub(crate) fn play_deal<T: Copy>(
    rules: &Rules,
    width: Width,
    deck: &[T],
    value: impl Fn(T) -> u8 + Copy,
) -> GameResult {
    let span = |p| dealt_span(deck.len(), rules.deal, 2, p);
    match width {
        Width::W64 => play_words(
            rules,
            pack_span::<u64, T>(deck, span(0), value),
            pack_span::<u64, T>(deck, span(1), value),
        ),
        Width::W128 => play_words(
            rules,
            pack_span::<u128, T>(deck, span(0), value),
            pack_span::<u128, T>(deck, span(1), value),
        ),
    }
}

/// `play_deal` for a deck of bare values (a `lex` arrangement): hands dealt in blocks are
/// packed eight cards at a time.
pub(crate) fn play_values(rules: &Rules, width: Width, deck: &[u8]) -> GameResult {
    if rules.deal != Deal::Blocks {
        return play_deal(rules, width, deck, |v| v);
    }
    let hand = |p| {
        let (start, _, count) = dealt_span(deck.len(), rules.deal, 2, p);
        &deck[start..start + count]
    };
    match width {
        Width::W64 => play_words(
            rules,
            pack_bytes::<u64>(hand(0)),
            pack_bytes::<u64>(hand(1)),
        ),
        Width::W128 => play_words(
            rules,
            pack_bytes::<u128>(hand(0)),
            pack_bytes::<u128>(hand(1)),
        ),
    }
}

/// Consecutive values into a word, the first on top; and how many. Eight at a time: each byte
/// gets its one added, then the bytes are squeezed into nibbles by halving their spacing three
/// times.
#[inline(always)]
fn pack_bytes<W: Word>(values: &[u8]) -> (W, u32) {
    // The research decks' hands: 8 cards (4x4), 16 (4x8), no loop.
    if let Ok(&bytes) = <&[u8; 8]>::try_from(values) {
        return (W::of32(squeeze(bytes)), 8);
    }
    if let Ok(bytes) = <&[u8; 16]>::try_from(values) {
        let (low, high) = bytes.split_at(8);
        let word = W::of32(squeeze(low.try_into().expect("8 bytes")))
            | W::of32(squeeze(high.try_into().expect("8 bytes"))) << 32;
        return (word, 16);
    }
    let mut word = W::ZERO;
    let mut at = 0;
    let mut chunks = values.chunks_exact(8);
    for chunk in &mut chunks {
        word = word | W::of32(squeeze(chunk.try_into().expect("chunks of eight"))) << at;
        at += 32;
    }
    for &v in chunks.remainder() {
        word = word | W::of(v + 1) << at;
        at += 4;
    }
    (word, values.len() as u32)
}

/// Eight values (each below 15), each plus one, as eight nibbles, the first lowest.
#[inline(always)]
fn squeeze(bytes: [u8; 8]) -> u32 {
    let mut x = u64::from_le_bytes(bytes) + 0x0101_0101_0101_0101;
    x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
    x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
    x = (x | x >> 16) & 0x0000_0000_FFFF_FFFF;
    x as u32
}

/// Plays the game whose hands hold `hands`' cards (top card first) under `rules`, which `width`
/// accepted for these hands. Both hands hold at least one card.
pub(crate) fn play_hands(rules: &Rules, width: Width, [h0, h1]: [&[Card]; 2]) -> GameResult {
    let whole = |hand: &[Card]| (0, 1, hand.len());
    match width {
        Width::W64 => play_words(
            rules,
            pack_span::<u64, Card>(h0, whole(h0), Card::value),
            pack_span::<u64, Card>(h1, whole(h1), Card::value),
        ),
        Width::W128 => play_words(
            rules,
            pack_span::<u128, Card>(h0, whole(h0), Card::value),
            pack_span::<u128, Card>(h1, whole(h1), Card::value),
        ),
    }
}

/// The values of `count` cards of `deck` from `start`, `step` apart, into a word, the first on
/// top; and how many. Built from the last card up, so that every shift is by one card.
#[inline(always)]
fn pack_span<W: Word, T: Copy>(
    deck: &[T],
    (start, step, count): (usize, usize, usize),
    value: impl Fn(T) -> u8,
) -> (W, u32) {
    let mut word = W::ZERO;
    if count > 0 {
        let cards = &deck[start..=start + (count - 1) * step];
        for i in (0..count).rev() {
            word = word << 4 | W::of(value(cards[i * step]) + 1);
        }
    }
    (word, count as u32)
}

#[inline(always)]
fn play_words<W: Word>(rules: &Rules, (h0, len0): (W, u32), (h1, len1): (W, u32)) -> GameResult {
    debug_assert!(len0 > 0 && len1 > 0 && (len0 + len1) as usize <= W::CARDS);
    let s = rules.strength;
    let params = Params {
        total: len0 + len1,
        face_down: rules.face_down as u32,
        rules,
        // In stored values (plus one); no stored value reaches u8::MAX.
        ace: s.ace.map_or(u8::MAX, |a| a + 1),
        low_top: s.low_top + 1,
    };
    let start = Game {
        h0,
        h1,
        len0,
        rounds: 0,
        extra_battles: 0,
        wars: 0,
    };
    macro_rules! go {
        ($gather:expr) => {
            if s.is_plain() {
                run::<W, PLAIN, { $gather }>(start, &params)
            } else {
                run::<W, OORLOG, { $gather }>(start, &params)
            }
        };
    }
    match rules.gather {
        Gather::Reveal => go!(REVEAL),
        Gather::P1First => go!(P1_FIRST),
        Gather::WinnerFirst => go!(WINNER_FIRST),
        Gather::Natural => go!(NATURAL),
        Gather::Sorted => go!(SORTED),
        Gather::Random => unreachable!("`width` refuses the random gather"),
    }
}

/// What a game needs besides its state.
struct Params<'a> {
    /// Cards in both hands.
    total: u32,
    face_down: u32,
    rules: &'a Rules,
    ace: u8,
    low_top: u8,
}

/// The state of a game (the two hands; player 2 holds `total - len0` cards between rounds) and
/// its counts so far.
#[derive(Clone, Copy)]
struct Game<W> {
    h0: W,
    h1: W,
    len0: u32,
    rounds: u64,
    /// Battles beyond the one that opens each finished round: the wars' battles, and the opening
    /// battle of a round the game ended in.
    extra_battles: u64,
    wars: u64,
}

impl<W: Word> Game<W> {
    fn result(&self, outcome: Outcome) -> GameResult {
        GameResult {
            outcome,
            rounds: self.rounds,
            battles: self.rounds + self.extra_battles,
            wars: self.wars,
        }
    }
}

/// Rounds before the saved state first moves on.
const FIRST_WINDOW: u64 = 64;

/// Plays rounds until the game ends or repeats its state. Brent's method: the saved state moves
/// to the live one each time the distance between them reaches a power of two, and the first
/// time they meet that distance is the exact cycle length.
#[inline(never)]
fn run<W: Word, const RANK: u8, const GATHER: u8>(start: Game<W>, p: &Params) -> GameResult {
    let mut game = start;
    let mut saved = (game.h0, game.h1);
    // The saved state is that after round `saved_at`; it moves on at round `next_save`. The
    // first window is long enough for most games to end inside it, so that moving the saved
    // state (a branch the processor cannot foresee) is rare; any window length keeps the
    // cycle length exact.
    let (mut saved_at, mut next_save) = (0u64, FIRST_WINDOW);
    loop {
        if let Some(outcome) = round::<W, RANK, GATHER>(&mut game, p) {
            return game.result(outcome);
        }
        // One rarely taken branch: player 1's hand alone almost never matches.
        if (game.h0 == saved.0) | (game.rounds == next_save) {
            if (game.h0, game.h1) == saved {
                return cycle::<W, RANK, GATHER>(start, game.rounds - saved_at, p);
            }
            if game.rounds == next_save {
                saved = (game.h0, game.h1);
                next_save = game.rounds + 2 * (game.rounds - saved_at);
                saved_at = game.rounds;
            }
        }
    }
}

/// The infinite game that starts at `start` and repeats every `length` rounds: replays it to
/// find the first round whose state recurs, and the counts of the rounds up to its first
/// recurrence.
#[cold]
#[inline(never)]
fn cycle<W: Word, const RANK: u8, const GATHER: u8>(
    start: Game<W>,
    length: u64,
    p: &Params,
) -> GameResult {
    let (mut behind, mut ahead) = (start, start);
    let step = |game: &mut Game<W>| {
        let end = round::<W, RANK, GATHER>(game, p);
        debug_assert!(end.is_none(), "a cycling game ended in its replay");
    };
    for _ in 0..length {
        step(&mut ahead);
    }
    let mut cycle_start = 0;
    while (behind.h0, behind.h1) != (ahead.h0, ahead.h1) {
        step(&mut behind);
        step(&mut ahead);
        cycle_start += 1;
    }
    ahead.result(Outcome::Infinite {
        cycle_start,
        cycle_length: length,
    })
}

/// Plays one round; the game's end if it ended. Both hands hold cards when it starts.
#[inline(always)]
fn round<W: Word, const RANK: u8, const GATHER: u8>(
    game: &mut Game<W>,
    p: &Params,
) -> Option<Outcome> {
    // Values kept in full words: no narrowing or widening on the way to the pair.
    let fifteen = W::of(15);
    let (a, b) = (game.h0 & fifteen, game.h1 & fifteen);
    if a == b {
        return war::<W, RANK, GATHER>(game, p);
    }
    let p1 = match RANK {
        PLAIN => a > b,
        _ => p1_wins::<RANK>(a.nibble(0), b.nibble(0), p.ace, p.low_top),
    };
    let (first, second) = match GATHER {
        WINNER_FIRST | NATURAL if !p1 => (b, a),
        SORTED if b > a => (b, a),
        _ => (a, b),
    };
    let pair = first | second << 4;
    // The winner's hand takes the pair after its last card; no branch on who won.
    let len0 = game.len0 - 1;
    let at = if p1 { len0 } else { p.total - 2 - len0 };
    let taken = pair << (4 * at);
    let to0 = W::all_if(p1);
    game.h0 = game.h0 >> 4 | (taken & to0);
    game.h1 = game.h1 >> 4 | (taken & !to0);
    game.len0 = len0 + 2 * u32::from(p1);
    game.rounds += 1;
    // A hand is empty: player 1 holds nothing or everything.
    if game.len0.wrapping_sub(1) >= p.total - 1 {
        return Some(Outcome::Win(usize::from(!p1)));
    }
    None
}

/// The tie opening a round (both top cards equal): wars until one player takes the table, or
/// the game ends because a player is short of cards (the short-war policy).
#[inline(always)]
fn war<W: Word, const RANK: u8, const GATHER: u8>(
    game: &mut Game<W>,
    p: &Params,
) -> Option<Outcome> {
    let len1 = p.total - game.len0;
    // What each hand holds past the table, and how many cards each has put on it.
    let (mut r0, mut r1) = (game.h0 >> 4, game.h1 >> 4);
    let mut m = 1;
    // `natural`: every card on the table but the deciding pair, latest first, player 2's card
    // before player 1's at each step (built as the cards come, with shifts by constants).
    let mut earlier = W::of(game.h1.nibble(0)) | W::of(game.h0.nibble(0)) << 4;
    // Cards the shorter hand holds past the table.
    let mut spare = game.len0.min(len1) - 1;
    let (p1, x, y) = loop {
        game.wars += 1;
        let down = if spare > p.face_down {
            p.face_down
        } else {
            match short(p.rules, game.len0 - m, len1 - m) {
                Ok(down) => down,
                Err(outcome) => {
                    // The round's opening battle, which no finished round counts.
                    game.extra_battles += 1;
                    return Some(outcome);
                }
            }
        };
        spare -= down + 1;
        if GATHER == NATURAL {
            for _ in 0..down {
                earlier = earlier << 8 | W::of(r1.nibble(0)) | W::of(r0.nibble(0)) << 4;
                (r0, r1) = (r0 >> 4, r1 >> 4);
            }
        } else {
            (r0, r1) = (r0 >> (4 * down), r1 >> (4 * down));
        }
        m += down + 1;
        game.extra_battles += 1;
        let (x, y) = (r0.nibble(0), r1.nibble(0));
        (r0, r1) = (r0 >> 4, r1 >> 4);
        if x != y {
            break (p1_wins::<RANK>(x, y, p.ace, p.low_top), x, y);
        }
        if GATHER == NATURAL {
            earlier = earlier << 8 | W::of(y) | W::of(x) << 4;
        }
    };
    let table = if GATHER == NATURAL {
        let (won, lost) = if p1 { (x, y) } else { (y, x) };
        W::of(won) | W::of(lost) << 4 | earlier << 8
    } else {
        take_table::<W, GATHER>(game.h0, game.h1, m, p1)
    };
    let (len0, len1) = (game.len0 - m, len1 - m);
    // As in `round`; kept apart because sharing it costs the 4x4 walk 2% more instructions.
    let taken = table << (4 * if p1 { len0 } else { len1 });
    let to0 = W::all_if(p1);
    game.h0 = r0 | (taken & to0);
    game.h1 = r1 | (taken & !to0);
    game.len0 = len0 + 2 * m * u32::from(p1);
    game.rounds += 1;
    if game.len0.wrapping_sub(1) >= p.total - 1 {
        return Some(Outcome::Win(usize::from(!p1)));
    }
    None
}

/// The short-war policy when the players hold `left0` and `left1` cards past the table: out of
/// the war's loop, which then keeps no array of them.
#[cold]
#[inline(never)]
fn short(rules: &Rules, left0: u32, left1: u32) -> Result<u32, Outcome> {
    short_war(rules, &[0, 1], |q| if q == 0 { left0 } else { left1 })
}

/// The `2m` cards of a war's table (the first `m` of each hand), in the order the winner takes
/// them (`natural` is built by `war` as the cards come).
#[inline(always)]
fn take_table<W: Word, const GATHER: u8>(h0: W, h1: W, m: u32, p1: bool) -> W {
    let mask = (W::ONE << (4 * m)) - W::ONE;
    let (c0, c1) = (h0 & mask, h1 & mask);
    let (won, lost) = if p1 { (c0, c1) } else { (c1, c0) };
    match GATHER {
        P1_FIRST => c0 | c1 << (4 * m),
        WINNER_FIRST => won | lost << (4 * m),
        REVEAL => {
            let mut table = W::ZERO;
            for j in 0..m {
                table = table | W::of(c0.nibble(j)) << (8 * j) | W::of(c1.nibble(j)) << (8 * j + 4);
            }
            table
        }
        _ => {
            // sorted: the strongest value first; equal values cannot be told apart here.
            let mut count = [0u32; 16];
            for j in 0..m {
                count[c0.nibble(j) as usize] += 1;
                count[c1.nibble(j) as usize] += 1;
            }
            let mut table = W::ZERO;
            let mut at = 0;
            for v in (1..16u8).rev() {
                for _ in 0..count[v as usize] {
                    table = table | W::of(v) << at;
                    at += 4;
                }
            }
            table
        }
    }
}
