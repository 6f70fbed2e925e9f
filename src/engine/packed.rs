//! Small decks played whole in two machine words.
//!
//! When two players share at most 16 cards (32 with `u128`) of at most 15 values, each hand fits
//! in one word: four bits a card, the top card in the lowest bits, each value stored plus one so
//! that an empty place reads 0. Revealing is a shift, taking the table is one shift and one or,
//! and the two words are the whole state of the game (values only, as `docs/rules.md` defines
//! it), so Brent's cycle detection costs one comparison a round (none in the first 64, where
//! most games end) and needs no snapshots: the cycle start is found by replaying the game, which is cheap
//! at this size.
//!
//! A run of `lex` deals (the exhaustive walk) is one loop (`play_lex`): the rules are read once,
//! each deal is the next arrangement stepped in place and packed, and its game played inline.
//! In open war, where each battle takes one card a hand, a game resumes from the last of the
//! previous deal's first rounds that revealed only cards the two deals share (`Prefix`).
//! Open war gathered deciding battle first (`bataille`) plays a war of one battle without a
//! branch (`round_open`): ties come at random, one round in four. The decks the research
//! studies (4x4, 4x5, 1x10, 2x8, 4x8) all fit; every other game takes the engine's general
//! fast paths.
//!
//! Every rule comes from where it is defined: the two-card comparison from `pair::p1_wins`
//! (tested against `Strength` for every pair), the short-war policy from `super::short_war`, and
//! the gather orders from `rules::gather`, which this kernel's tables implement (`PickUp`);
//! `tests/suite/engine.rs` checks every path against the general one.

use super::cycle::{self, Brent, Copies, Replay};
use super::pair::{p1_wins, OORLOG, PLAIN};
use super::{short_war, GameResult, Outcome};
use crate::deal::mirror::{Mirror, Weight};
use crate::deal::{dealt_span, Dealer};
use crate::rules::{gather, holds_war, war_cards, with_gather_code, Card, Deal, Direction};
use crate::rules::{of_two, Gather, Order, PickUp, Rules, TwoCards};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hint::select_unpredictable;
use std::ops::{BitAnd, BitOr, BitXor, Not, Range, Shl, Shr, Sub};

/// A word holding a hand, four bits a card.
pub(crate) trait Word:
    Copy
    + Ord
    + Default
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitOr<Output = Self>
    + BitAnd<Output = Self>
    + BitXor<Output = Self>
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
    fn trailing_zeros(self) -> u32;
    fn of32(x: u32) -> Self;
    fn of64(x: u64) -> Self;
    /// The word, widened (the key of `KnownCycles`).
    fn wide(self) -> u128;
    /// The first `count` cards (nibbles) in the reverse order; 0 past them.
    fn reverse_nibbles(self, count: u32) -> Self;
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
            fn of64(x: u64) -> $t {
                x as $t
            }
            #[inline(always)]
            fn wide(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn all_if(yes: bool) -> $t {
                (yes as $t).wrapping_neg()
            }
            #[inline(always)]
            fn reverse_nibbles(self, count: u32) -> $t {
                if count == 0 {
                    return 0;
                }
                // The bytes reversed, then the two nibbles of each byte.
                let low = <$t>::MAX / 0xFF * 0x0F;
                let x = self.swap_bytes();
                let x = (x >> 4) & low | (x & low) << 4;
                x >> (<$t>::BITS - 4 * count)
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
    if rules.players() != 2 || rules.deck().values() > 15 || !rules.detects_cycles() {
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

// Gather orders are const parameters (`Gather::code`), each compiled to its own loop; so is
// whether open war's first war is played without a branch (`OPEN`, see `round_open`).

/// Plays the game dealt from `deck` (anything with a value, in deal order) under `rules`, which
/// `width` accepted for this deck.
pub(crate) fn play_deal<T: Copy>(
    rules: &Rules,
    width: Width,
    deck: &[T],
    value: impl Fn(T) -> u8 + Copy,
) -> GameResult {
    let span = |p| dealt_span(deck.len(), rules.deal(), 2, p);
    match width {
        Width::W64 => play_words(
            rules,
            [0, 1].map(|p| pack_span::<u64, T>(deck, span(p), value)),
        ),
        Width::W128 => play_words(
            rules,
            [0, 1].map(|p| pack_span::<u128, T>(deck, span(p), value)),
        ),
    }
}

/// `play_deal` for a deck of bare values (a `lex` arrangement).
pub(crate) fn play_values(rules: &Rules, width: Width, deck: &[u8]) -> GameResult {
    let pack = Packer::new(rules, deck.len());
    match width {
        Width::W64 => play_words(rules, pack.hands::<u64>(deck)),
        Width::W128 => play_words(rules, pack.hands::<u128>(deck)),
    }
}

/// Plays the `lex` deals of `seeds` in order, which `width` accepted for the deck, handing
/// each result to `each`. One loop for the whole run: the rules are dispatched once, and
/// each deal is the next arrangement stepped in place, packed, and played inline.
/// With `mirror`, a deal its mirror counts is skipped, and each played deal is handed out with
/// its weight (`Weight::Once` for every deal without).
pub(crate) fn play_lex(
    rules: &Rules,
    width: Width,
    dealer: &mut Dealer,
    seeds: Range<u64>,
    mirror: Option<(&Mirror, &mut [u8])>,
    known: &RefCell<KnownCycles>,
    each: impl FnMut(u64, &GameResult, Weight),
) {
    let pack = Packer::new(rules, rules.deck().len());
    let total = rules.deck().len() as u32;
    let walk = LexWalk {
        dealer,
        seeds,
        pack,
        mirror,
        each,
    };
    match width {
        Width::W64 => with_rules::<u64, _>(rules, total, Some(known), walk),
        Width::W128 => with_rules::<u128, _>(rules, total, Some(known), walk),
    }
}

/// The long cycles a walk has met, by every state on them: a game that reaches one of those
/// states loops on that cycle, so it is not played further (`run_long` looks every
/// `KNOWN_EVERY` rounds), and its cycle starts at its first round whose state is known
/// (a state before a game's cycle is on no cycle). Results are the same with or without it;
/// decks whose games loop for tens of thousands of rounds (7x3) walk a thousand times faster.
#[derive(Default)]
pub(crate) struct KnownCycles {
    /// Each state on a known cycle (the two hands), with its cycle's index in `periods`.
    states: HashMap<(u128, u128), u32>,
    /// Each known cycle's length and wars over one period.
    periods: Vec<(u64, u64)>,
    /// The names of the known cycles named so far (`least_states`): the least state, and the
    /// least state of the mirror cycle.
    names: HashMap<u32, (Vec<u8>, Vec<u8>)>,
}

/// States `KnownCycles` holds at most (about 100 MB).
const MOST_KNOWN_STATES: usize = 1 << 21;
/// Cycles shorter than this are not learned: their games cost little more to detect than to
/// look up.
const KNOWN_FROM_LENGTH: u64 = 64;
/// Rounds between two looks at the known cycles.
const KNOWN_EVERY: u64 = 64;

impl KnownCycles {
    fn key<W: Word>(game: &Game<W>) -> (u128, u128) {
        (game.h0.wide(), game.h1.wide())
    }
}

/// Names the cycle of the game dealt from `deck`, which repeats every `span[1]` rounds from
/// round `span[0]` (`Engine::least_states`): its least state to `least`, and with `mirrored`
/// the least state of its mirror cycle (the two hands exchanged). `state` is room for one.
#[allow(clippy::too_many_arguments)]
pub(crate) fn least_states(
    rules: &Rules,
    width: Width,
    deck: &[Card],
    span: [u64; 2],
    known: &RefCell<KnownCycles>,
    state: &mut Vec<u8>,
    least: &mut Vec<u8>,
    mirrored: Option<&mut Vec<u8>>,
) {
    let dealt = |p| dealt_span(deck.len(), rules.deal(), 2, p);
    let total = deck.len() as u32;
    macro_rules! name {
        ($w:ty) => {{
            let hands = [0, 1].map(|p| pack_span::<$w, Card>(deck, dealt(p), Card::value));
            let kernel = NameCycle {
                hands,
                span,
                state,
                least,
                mirrored,
            };
            with_rules::<$w, _>(rules, total, Some(known), kernel)
        }};
    }
    match width {
        Width::W64 => name!(u64),
        Width::W128 => name!(u128),
    }
}

/// A looping game replayed to its cycle, whose states are then written down.
struct NameCycle<'a, W> {
    hands: [(W, u32); 2],
    span: [u64; 2],
    state: &'a mut Vec<u8>,
    least: &'a mut Vec<u8>,
    mirrored: Option<&'a mut Vec<u8>>,
}

impl<W: Word> Kernel<W> for NameCycle<'_, W> {
    type Out = ();
    fn go<const RANK: u8, const GATHER: u8, const OPEN: bool>(self, p: &Params) {
        let NameCycle {
            hands,
            span: [cycle_start, cycle_length],
            state,
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
        let at_start = game;
        for _ in 0..cycle_length {
            let len0 = game.end0 / 4 + 1;
            let hands = [(game.h0, len0), (game.h1, p.total - len0)];
            let hand = |(h, len): (W, u32)| (0..len).map(move |i| h.nibble(i));
            // A state whose first value is above the least one's cannot be less: most are
            // not written down.
            let may_be_less =
                |first: W, least: &Vec<u8>| least.first().is_none_or(|&l| first.nibble(0) <= l);
            if may_be_less(game.h0, least) {
                super::keep_least(hands.into_iter().map(hand), state, least);
            }
            if let Some(m) = mirrored.as_deref_mut() {
                if may_be_less(game.h1, m) {
                    super::keep_least(hands.into_iter().rev().map(hand), state, m);
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

/// Where each hand lies in a deck of bare values, and how to pack it.
#[derive(Clone, Copy)]
struct Packer {
    spans: [(usize, usize, usize); 2],
    /// Dealt in blocks: each hand is consecutive values, packed eight at a time.
    blocks: bool,
}

impl Packer {
    fn new(rules: &Rules, cards: usize) -> Packer {
        Packer {
            spans: [0, 1].map(|p| dealt_span(cards, rules.deal(), 2, p)),
            blocks: rules.deal() == Deal::Blocks,
        }
    }

    #[inline(always)]
    fn hands<W: Word>(self, deck: &[u8]) -> [(W, u32); 2] {
        [self.hand(deck, 0), self.hand(deck, 1)]
    }

    #[inline(always)]
    fn hand<W: Word>(self, deck: &[u8], p: usize) -> (W, u32) {
        let span @ (start, _, count) = self.spans[p];
        if self.blocks {
            pack_bytes::<W>(&deck[start..start + count])
        } else {
            pack_span::<W, u8>(deck, span, |v| v)
        }
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
            [h0, h1].map(|h| pack_span::<u64, Card>(h, whole(h), Card::value)),
        ),
        Width::W128 => play_words(
            rules,
            [h0, h1].map(|h| pack_span::<u128, Card>(h, whole(h), Card::value)),
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

/// Plays the game whose hands are packed in `hands`.
#[inline(always)]
fn play_words<W: Word>(rules: &Rules, hands: [(W, u32); 2]) -> GameResult {
    let total = hands[0].1 + hands[1].1;
    with_rules::<W, _>(rules, total, None, OneGame(hands))
}

/// What runs once the rules' ranking and gather order are known as const parameters: one game
/// (`OneGame`) or a walk of `lex` deals (`LexWalk`). `with_rules` alone reads them.
trait Kernel<W: Word> {
    type Out;
    fn go<const RANK: u8, const GATHER: u8, const OPEN: bool>(self, p: &Params) -> Self::Out;
}

/// Runs `kernel` for `rules`' ranking and gather order, on games of `total` cards.
#[inline(always)]
fn with_rules<W: Word, K: Kernel<W>>(
    rules: &Rules,
    total: u32,
    known: Option<&RefCell<KnownCycles>>,
    kernel: K,
) -> K::Out {
    let s = rules.strength();
    let params = Params {
        known,
        total,
        ends: 4 * (total - 2),
        face_down: rules.face_down() as u32,
        rules,
        // In stored values (plus one); no stored value reaches u8::MAX.
        ace: s.ace.map_or(u8::MAX, |a| a + 1),
        low_top: s.low_top + 1,
    };
    // Open war's rounds play their first war without a branch (`round_open`) in every order
    // whose runs its table holds.
    let open = rules.face_down() == 0 && open_round_plays(rules.gather().order());
    macro_rules! go {
        ($gather:expr) => {
            match (s.is_plain(), open) {
                (true, false) => kernel.go::<PLAIN, { $gather }, false>(&params),
                (true, true) => kernel.go::<PLAIN, { $gather }, true>(&params),
                (false, false) => kernel.go::<OORLOG, { $gather }, false>(&params),
                (false, true) => kernel.go::<OORLOG, { $gather }, true>(&params),
            }
        };
    }
    with_gather_code!(rules.gather(), go)
}

/// Whether `round_open` plays rounds gathered in `order`: those that put the deciding battle
/// first, whose table it builds from the two pairs without a branch. The others play a tie
/// through `war`; measured (4x4 walk, one thread, 5,000,000 deals), `winner-first` through
/// `round_open` is 47% more instructions and 2 to 7% slower than through `war`, more work than
/// the mispredicted branches it saves.
const fn open_round_plays(order: Order) -> bool {
    match order {
        Order::DecidingFirst(_) => true,
        Order::Reveal | Order::ByPlayer(..) | Order::Strongest | Order::Shuffled => false,
    }
}

/// One game, from its two packed hands.
struct OneGame<W>([(W, u32); 2]);

impl<W: Word> Kernel<W> for OneGame<W> {
    type Out = GameResult;
    #[inline(always)]
    fn go<const RANK: u8, const GATHER: u8, const OPEN: bool>(self, p: &Params) -> GameResult {
        run_one::<W, RANK, GATHER, OPEN>(Game::new(self.0), p)
    }
}

/// The `lex` deals of `seeds`, each packed from the dealer's arrangement and played inline.
struct LexWalk<'a, F> {
    dealer: &'a mut Dealer,
    seeds: Range<u64>,
    pack: Packer,
    /// The walk's mirror deals, and room for one deal.
    mirror: Option<(&'a Mirror, &'a mut [u8])>,
    each: F,
}

impl<W: Word, F: FnMut(u64, &GameResult, Weight)> Kernel<W> for LexWalk<'_, F> {
    type Out = ();
    #[inline(always)]
    fn go<const RANK: u8, const GATHER: u8, const OPEN: bool>(self, p: &Params) {
        let LexWalk {
            dealer,
            seeds,
            pack,
            mirror,
            mut each,
        } = self;
        // In open war a game resumes from the rounds it shares with the previous deal's.
        let mut prefix = (p.face_down == 0).then(|| Prefix::new(pack.spans.map(|s| s.2 as u32)));
        let mut play = |seed, hands: [(W, u32); 2], weight| {
            let result = match &mut prefix {
                Some(prefix) => prefix.play::<RANK, GATHER, OPEN>(hands, p),
                None => run::<W, RANK, GATHER, OPEN>(Game::new(hands), p),
            };
            each(seed, &result, weight);
        };
        let words = mirror.as_ref().is_none_or(|(m, _)| m.weighs_words());
        if pack.blocks && dealer.lex_fits_nibbles() && words {
            // The arrangement comes as the packed form itself: each hand is a run of its
            // nibbles, each value plus one.
            let hand = |(start, _, count): (usize, usize, usize)| {
                let mask = u64::MAX >> (64 - 4 * count);
                (
                    4 * start as u32,
                    mask,
                    0x1111_1111_1111_1111 & mask,
                    count as u32,
                )
            };
            let hands = pack.spans.map(hand);
            let mirror = mirror.map(|(mirror, _)| mirror);
            dealer.lex_walk_nibbles(seeds, |seed, x| {
                let weight = mirror.map_or(Weight::Once, |m| m.weigh_word(x));
                if weight == Weight::Skip {
                    return;
                }
                let hands = hands
                    .map(|(shift, mask, ones, count)| (W::of64((x >> shift & mask) + ones), count));
                play(seed, hands, weight);
            });
        } else {
            let mut mirror = mirror;
            dealer.lex_walk(seeds, |seed, values| {
                let weight = match &mut mirror {
                    Some((mirror, scratch)) => mirror.weigh(values, scratch),
                    None => Weight::Once,
                };
                if weight != Weight::Skip {
                    play(seed, pack.hands::<W>(values), weight);
                }
            });
        }
    }
}

/// Rounds of a game whose states `Prefix` keeps, at most (their counts fill one word).
const PREFIX_ROUNDS: usize = 8;
/// Rounds `Prefix` plays (and keeps, while they are in the deal's cards) after resuming a game
/// before handing it to `run`: most games resume two or three rounds before their hands reach
/// the cards they won.
const KEPT_AFTER_RESUMING: usize = 3;
/// One byte a round, as `Prefix::played` holds them.
const LANES: u64 = 0x0101_0101_0101_0101;
/// `Prefix::played`'s byte for a round not kept: more than any count of cards.
const NOT_KEPT: u8 = 0x7F;

/// The first rounds of the previous deal's game, from which the next deal's game resumes:
/// consecutive `lex` deals differ only in their last places, the bottoms of the hands, so
/// their games play the same first rounds until one of them reveals a card the deals do not
/// share. Every game's counts are still those of its own deal, to its end: the rounds it
/// shares are found, not assumed.
///
/// Open war (no card face down) only: there each battle takes exactly one card from each
/// hand (a player who cannot play one ends the game), so a state's rounds plus wars count the
/// dealt cards each player has played.
struct Prefix<W> {
    /// `states[r]`: the game before its round `r`, while both players still held cards of
    /// their deal (the low nibbles of each hand; the deal's places past them may differ).
    /// One more slot for the states not kept.
    states: [Game<W>; PREFIX_ROUNDS + 1],
    /// Byte `r`: the cards each player had played before round `r`; `NOT_KEPT` for a round
    /// whose state is not kept.
    played: u64,
    /// The previous deal's hands.
    hands: [W; 2],
    /// Cards dealt to each player.
    dealt: [u32; 2],
}

impl<W: Word> Prefix<W> {
    fn new(dealt: [u32; 2]) -> Prefix<W> {
        // Before round 0 nothing has been played: the state is the deal itself, whose hands
        // `play` fills in.
        let before = Game::new(dealt.map(|n| (W::ZERO, n)));
        Prefix {
            states: [before; PREFIX_ROUNDS + 1],
            played: (LANES * NOT_KEPT as u64) << 8,
            hands: [W::ZERO; 2],
            dealt,
        }
    }

    /// Plays the game whose packed hands are `hands`.
    #[inline(always)]
    fn play<const RANK: u8, const GATHER: u8, const OPEN: bool>(
        &mut self,
        hands: [(W, u32); 2],
        p: &Params,
    ) -> GameResult {
        let start = Game::new(hands);
        // The cards from the top of each hand this deal shares with the previous one.
        let same = |h: W, was: W| (h ^ was).trailing_zeros() / 4;
        let shared = same(start.h0, self.hands[0]).min(same(start.h1, self.hands[1]));
        self.hands = [start.h0, start.h1];
        // The latest kept state whose rounds revealed only shared cards: the number of kept
        // rounds that had played at most `shared` cards, less one (round 0 always counts).
        // Each byte's subtraction stays in its byte: it never goes below 0x80 - 0x7F.
        let high = LANES << 7;
        let shared = u64::from(shared.min(NOT_KEPT as u32 - 1));
        let fit = (((shared * LANES) | high) - self.played) & high;
        let r = fit.count_ones() - 1;
        let kept = (2u64 << (8 * r + 7)).wrapping_sub(1);
        self.played = self.played & kept | (LANES * NOT_KEPT as u64) & !kept;
        let played = (self.played >> (8 * r)) as u32 & 0xFF;
        let saved = self.states[r as usize % PREFIX_ROUNDS];
        // Each hand: the cards it won then, after those of this deal it has not played.
        let hand = |saved: W, dealt: W, n: u32| {
            let unplayed = (W::ONE << (4 * (n - played))) - W::ONE;
            saved & !unplayed | dealt >> (4 * played)
        };
        let mut game = Game {
            h0: hand(saved.h0, start.h0, self.dealt[0]),
            h1: hand(saved.h1, start.h1, self.dealt[1]),
            ..saved
        };
        // States are kept while both players hold cards of their deal, for at most
        // `PREFIX_ROUNDS` rounds (`rounds <= played`).
        let limit = self.dealt[0].min(self.dealt[1]).min(PREFIX_ROUNDS as u32) as u64;
        // A fixed number of rounds, each kept if it is still in the deal's cards: a loop
        // that stopped with them would mispredict its end once a game.
        for _ in 0..KEPT_AFTER_RESUMING {
            if let Some(outcome) = round::<W, RANK, GATHER, OPEN>(&mut game, p) {
                return game.result(outcome);
            }
            let played = game.rounds + game.wars;
            let keep = played < limit;
            // If kept, `rounds <= played < limit <= PREFIX_ROUNDS`; else the spare slot.
            let r = game.rounds as usize % PREFIX_ROUNDS;
            self.states[if keep { r } else { PREFIX_ROUNDS }] = game;
            let lane = 8 * r as u32;
            let with = self.played & !(0xFF << lane) | played << lane;
            self.played = select_unpredictable(keep, with, self.played);
        }
        run_on::<W, RANK, GATHER, OPEN>(start, game, p)
    }
}

/// What a game needs besides its state.
struct Params<'a> {
    /// The long cycles met so far, where the caller keeps them (a walk).
    known: Option<&'a RefCell<KnownCycles>>,
    /// Cards in both hands.
    total: u32,
    /// `4 * (total - 2)`: where player 2's cards end once the top one is revealed is this less
    /// player 1's.
    ends: u32,
    face_down: u32,
    rules: &'a Rules,
    ace: u8,
    low_top: u8,
}

/// The state of a game (the two hands) and its counts so far.
#[derive(Clone, Copy)]
struct Game<W> {
    h0: W,
    h1: W,
    /// Where player 1's cards end once the top one is revealed: `4 * (cards - 1)` bits.
    end0: u32,
    rounds: u64,
    /// Every war is one battle beyond the one that opens each finished round, and a war cut
    /// short counts the opening battle of the unfinished round: so battles are rounds plus wars.
    wars: u64,
}

impl<W: Word> Game<W> {
    /// The game before its first round.
    #[inline(always)]
    fn new([(h0, len0), (h1, len1)]: [(W, u32); 2]) -> Game<W> {
        debug_assert!(len0 > 0 && len1 > 0 && (len0 + len1) as usize <= W::CARDS);
        Game {
            h0,
            h1,
            end0: 4 * (len0 - 1),
            rounds: 0,
            wars: 0,
        }
    }

    fn result(&self, outcome: Outcome) -> GameResult {
        GameResult {
            outcome,
            rounds: self.rounds,
            battles: self.rounds + self.wars,
            wars: self.wars,
        }
    }
}

/// Rounds played before the state is first saved for cycle detection. Most games end before
/// it: their rounds compare nothing, and the loop that detects cycles stays out of line.
const FIRST_WINDOW: u64 = 64;

/// `run`, out of line: one game from outside a walk.
#[inline(never)]
fn run_one<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    start: Game<W>,
    p: &Params,
) -> GameResult {
    run::<W, RANK, GATHER, OPEN>(start, p)
}

/// Plays rounds until the game ends or repeats its state: the first `FIRST_WINDOW` rounds
/// here, the rest in `run_long`.
#[inline(always)]
fn run<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    start: Game<W>,
    p: &Params,
) -> GameResult {
    run_on::<W, RANK, GATHER, OPEN>(start, start, p)
}

/// `run` from `game`, which `start` became after fewer than `FIRST_WINDOW` rounds.
#[inline(always)]
fn run_on<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
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

/// Plays on the game `start` became after `FIRST_WINDOW` rounds until it ends or repeats its
/// state (`cycle::Brent`, its first tortoise the state after round `FIRST_WINDOW`). One
/// rarely taken branch a round: player 1's hand alone almost never matches the tortoise's.
#[inline(never)]
fn run_long<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
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

/// The result of the game from `start` if `game` (a state it reached) is on a known cycle;
/// its state after round `unknown` was on none, so its cycle starts after that round.
#[inline(never)]
fn on_known_cycle<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
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

/// The tortoise of `Brent` is a whole game, compared by its two hands.
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

/// A looping game replayed from its deal: no snapshots are kept, since a game of so few cards
/// replays cheaply.
struct FromStart<'a, 'b, W, const RANK: u8, const GATHER: u8, const OPEN: bool> {
    start: Game<W>,
    p: &'a Params<'b>,
}

impl<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool> Replay
    for FromStart<'_, '_, W, RANK, GATHER, OPEN>
{
    type Live = Game<W>;

    fn rebuild(&mut self, game: &mut Game<W>, round: u64) {
        *game = self.start;
        for _ in 0..round {
            self.step(game);
        }
    }

    #[inline(always)]
    fn step(&mut self, game: &mut Game<W>) {
        let end = round::<W, RANK, GATHER, OPEN>(game, self.p);
        debug_assert!(end.is_none(), "a cycling game ended in its replay");
    }

    fn same(&self, a: &Game<W>, b: &Game<W>) -> bool {
        a.matches(b)
    }
}

/// The infinite game that starts at `start` and whose state after round `now` recurs `length`
/// rounds later: its cycle's start (`cycle::cycle_start` over the deal alone), and the counts
/// of the rounds up to its first recurrence.
#[cold]
#[inline(never)]
fn infinite<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    start: Game<W>,
    now: u64,
    length: u64,
    p: &Params,
) -> GameResult {
    let (mut behind, mut ahead) = (start, start);
    let mut replay = FromStart::<W, RANK, GATHER, OPEN> { start, p };
    let ghosts = [&mut behind, &mut ahead];
    let cycle_start = cycle::cycle_start(&mut replay, ghosts, now - length, u64::MAX, length);
    if let Some(known) = p.known.filter(|_| length >= KNOWN_FROM_LENGTH) {
        let mut known = known.borrow_mut();
        let new = !known.states.contains_key(&KnownCycles::key(&behind));
        if new && known.states.len() + length as usize <= MOST_KNOWN_STATES {
            let cycle = known.periods.len() as u32;
            known.periods.push((length, ahead.wars - behind.wars));
            let mut at = behind;
            for _ in 0..length {
                known.states.insert(KnownCycles::key(&at), cycle);
                replay.step(&mut at);
            }
        }
    }
    ahead.result(Outcome::Infinite {
        cycle_start,
        cycle_length: length,
    })
}

/// Plays one round; the game's end if it ended. Both hands hold cards when it starts.
#[inline(always)]
fn round<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    game: &mut Game<W>,
    p: &Params,
) -> Option<Outcome> {
    if OPEN {
        return round_open::<W, RANK, GATHER, OPEN>(game, p);
    }
    // Values kept in full words: no narrowing or widening on the way to the pair.
    let fifteen = W::of(15);
    let (a, b) = (game.h0 & fifteen, game.h1 & fifteen);
    if a == b {
        return war::<W, RANK, GATHER, OPEN>(game, p);
    }
    // Plain: the words compare as the values do. Otherwise the one two-card comparison.
    let p1 = if RANK == PLAIN {
        a > b
    } else {
        p1_wins::<RANK>(a.nibble(0), b.nibble(0), p.ace, p.low_top)
    };
    let battle = TwoCards::new([a, b], || unreachable!("`width` refuses the random gather"));
    let [first, second] = battle.gathered(Gather::of_code(GATHER).order(), p1);
    let pair = first | second << 4;
    take(game, p, p1, (game.h0 >> 4, game.h1 >> 4), pair, 4)
}

/// The end of a round: player 1 (`p1`) or player 2 takes `table` after the cards it has left
/// (`rest`: each hand past the `down` bits it put on the table), with no branch on who won;
/// or the game ends because the other has none left.
#[inline(always)]
fn take<W: Word>(
    game: &mut Game<W>,
    p: &Params,
    p1: bool,
    (r0, r1): (W, W),
    table: W,
    down: u32,
) -> Option<Outcome> {
    let (won, lost) = if p1 { (r0, r1) } else { (r1, r0) };
    game.rounds += 1;
    if lost == W::ZERO {
        return Some(Outcome::Win(usize::from(!p1)));
    }
    // The winner's last card, in bits: tracked beside the hands rather than read off them,
    // which would lengthen the chain from one round's hands to the next.
    // Who won is a coin toss: selected, never branched on.
    let end0 = game.end0;
    let end = select_unpredictable(p1, end0, p.ends - end0) + 4 - down;
    game.end0 = select_unpredictable(p1, end0 + down, end0.wrapping_sub(down));
    let won = won | table << end;
    (game.h0, game.h1) = if p1 { (won, lost) } else { (lost, won) };
    None
}

/// A round of open war (no card face down), with a war of one battle played without a branch.
/// A tie opens one round in four, at random: a branch on it is mispredicted, and a
/// misprediction costs as much as the whole round. Only a war of two battles or more, or one a
/// player cannot finish, goes to `war`.
#[inline(always)]
fn round_open<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    game: &mut Game<W>,
    p: &Params,
) -> Option<Outcome> {
    let fifteen = W::of(15);
    let (h0, h1) = (game.h0, game.h1);
    let (a0, b0) = (h0 & fifteen, h1 & fifteen);
    // Two ties in a row: a war of two battles or more, for `war`.
    if (h0 ^ h1) & W::of(0xFF) == W::ZERO {
        return war::<W, RANK, GATHER, OPEN>(game, p);
    }
    let tie = a0 == b0;
    // The deciding battle's cards: the second ones after a tie.
    let shown = 4 * u32::from(tie);
    let (a, b) = (h0 >> shown & fifteen, h1 >> shown & fifteen);
    // A player without a second card for a war. Under the plain ranking the empty place (0)
    // loses the deciding battle below, which leaves that player nothing: the test waits for
    // the game's end. Oorlog's 2 beats an ace, and might beat an empty place.
    if RANK != PLAIN && tie && (a == W::ZERO || b == W::ZERO) {
        return war::<W, RANK, GATHER, OPEN>(game, p);
    }
    // Plain: the words compare as the values do. Otherwise the one two-card comparison.
    let p1 = if RANK == PLAIN {
        a > b
    } else {
        p1_wins::<RANK>(a.nibble(0), b.nibble(0), p.ace, p.low_top)
    };
    let mut pickup = OpenRound {
        tied: a0,
        deciding: [a, b],
        tie,
        table: Nibbles::default(),
    };
    gather(
        Gather::of_code(GATHER).order(),
        &mut pickup,
        usize::from(!p1),
    );
    // Bits each player put on the table.
    let down = shown + 4;
    let rest = (h0 >> down, h1 >> down);
    // A player without a second card for a war lands here too, left with nothing: `war`
    // applies the short-war policy (and plays a war that ends the game as any other).
    if (if p1 { rest.1 } else { rest.0 }) == W::ZERO && tie {
        return war::<W, RANK, GATHER, OPEN>(game, p);
    }
    game.wars += u64::from(tie);
    take(game, p, p1, rest, pickup.table.word, down)
}

/// A pick-up being built in a word: its cards from the lowest nibble, `bits` of them so far.
#[derive(Clone, Copy, Default)]
struct Nibbles<W> {
    word: W,
    bits: u32,
}

impl<W: Word> Nibbles<W> {
    /// Puts `count` cards (`run`, the first lowest) after those so far.
    #[inline(always)]
    fn put(&mut self, run: W, count: u32) {
        self.word = self.word | run << self.bits;
        self.bits += 4 * count;
    }
}

/// The table of a round of open war that `round_open` plays, a tie or not, and its pick-up:
/// the deciding pair, and with a tie the tied pair before it (the same value for both).
struct OpenRound<W> {
    tied: W,
    deciding: [W; 2],
    tie: bool,
    table: Nibbles<W>,
}

impl<W: Word> PickUp for OpenRound<W> {
    #[inline(always)]
    fn players(&self) -> usize {
        2
    }
    #[inline(always)]
    fn others(_: usize, winner: usize) -> impl Iterator<Item = usize> {
        std::iter::once(1 - winner)
    }
    #[inline(always)]
    fn put_player(&mut self, _: usize, _: Direction) {
        unreachable!("`open_round_plays` takes the orders that put the deciding battle first")
    }
    #[inline(always)]
    fn put_deciding(&mut self, p: usize) {
        self.table.put(of_two(self.deciding, p), 1);
    }
    #[inline(always)]
    fn put_earlier(&mut self, direction: Direction) {
        // Two cards of the same value: either direction reads them alike.
        let (Direction::AsPlayed | Direction::LatestFirst) = direction;
        let pair = self.tied | self.tied << 4;
        self.table
            .put(pair & W::all_if(self.tie), 2 * u32::from(self.tie));
    }
    #[inline(always)]
    fn put_revealed(&mut self) {
        unreachable!("`open_round_plays` takes the orders that put the deciding battle first")
    }
    fn put_strongest(&mut self) {
        unreachable!("`open_round_plays` takes the orders that put the deciding battle first")
    }
    fn put_shuffled(&mut self) {
        unreachable!("`width` refuses the random gather")
    }
}

/// The tie opening a round (both top cards equal): wars until one player takes the table, or
/// the game ends because a player is short of cards (the short-war policy).
#[inline(always)]
fn war<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    game: &mut Game<W>,
    p: &Params,
) -> Option<Outcome> {
    let len0 = game.end0 / 4 + 1;
    let len1 = p.total - len0;
    // What each hand holds past the table, and how many cards each has put on it.
    let (mut r0, mut r1) = (game.h0 >> 4, game.h1 >> 4);
    let mut m = 1;
    // The cards before the deciding battle, built as they come in the direction the gather
    // reads them (`Order::earlier`): player 1's card, then player 2's, at each step, or the
    // reverse of that. Unused by the other gathers.
    let earlier_direction = Gather::of_code(GATHER).order().earlier();
    let mut earlier = W::ZERO;
    let mut lay = |r0: W, r1: W, step: u32| match earlier_direction {
        Some(Direction::LatestFirst) => {
            earlier = earlier << 8 | W::of(r1.nibble(0)) | W::of(r0.nibble(0)) << 4;
        }
        Some(Direction::AsPlayed) => {
            let pair = W::of(r0.nibble(0)) | W::of(r1.nibble(0)) << 4;
            earlier = earlier | pair << (8 * step);
        }
        None => {}
    };
    lay(game.h0, game.h1, 0);
    // Cards the shorter hand holds past the table.
    let mut spare = len0.min(len1) - 1;
    let p1 = loop {
        game.wars += 1;
        let down = if holds_war(p.face_down as usize, spare as usize) {
            p.face_down
        } else {
            match short(p.rules, len0 - m, len1 - m) {
                Ok(down) => down,
                // The war counted is the round's opening battle, which no finished round
                // counts.
                Err(outcome) => return Some(outcome),
            }
        };
        spare -= war_cards(down as usize) as u32;
        if earlier_direction.is_some() {
            // Each player has put `m + i` cards down before this one.
            for i in 0..down {
                lay(r0, r1, m + i);
                (r0, r1) = (r0 >> 4, r1 >> 4);
            }
        } else {
            (r0, r1) = (r0 >> (4 * down), r1 >> (4 * down));
        }
        m += war_cards(down as usize) as u32;
        let (x, y) = (r0.nibble(0), r1.nibble(0));
        if x != y {
            (r0, r1) = (r0 >> 4, r1 >> 4);
            break p1_wins::<RANK>(x, y, p.ace, p.low_top);
        }
        lay(r0, r1, m - 1);
        (r0, r1) = (r0 >> 4, r1 >> 4);
    };
    // The table: the first `m` cards of each hand.
    let mask = (W::ONE << (4 * m)) - W::ONE;
    let mut pickup = WarTable {
        cards: [game.h0 & mask, game.h1 & mask],
        m,
        earlier,
        table: Nibbles::default(),
    };
    gather(
        Gather::of_code(GATHER).order(),
        &mut pickup,
        usize::from(!p1),
    );
    take(game, p, p1, (r0, r1), pickup.table.word, 4 * m)
}

/// A war's table, the first `m` cards of each hand (`cards`, each its player's run as played,
/// the first lowest), and its pick-up.
struct WarTable<W> {
    cards: [W; 2],
    m: u32,
    /// The cards before the deciding battle, as `war` built them in the gather's direction.
    earlier: W,
    table: Nibbles<W>,
}

impl<W: Word> WarTable<W> {
    /// Both players' cards in reveal order: player 1's, then player 2's, at each step.
    #[inline(always)]
    fn interleaved(&self) -> W {
        let [c0, c1] = self.cards;
        let mut table = W::ZERO;
        for j in 0..self.m {
            table = table | W::of(c0.nibble(j)) << (8 * j) | W::of(c1.nibble(j)) << (8 * j + 4);
        }
        table
    }

    /// Puts `run`, `count` cards, read in `direction`.
    #[inline(always)]
    fn put(&mut self, run: W, count: u32, direction: Direction) {
        let run = match direction {
            Direction::AsPlayed => run,
            Direction::LatestFirst => run.reverse_nibbles(count),
        };
        self.table.put(run, count);
    }
}

impl<W: Word> PickUp for WarTable<W> {
    #[inline(always)]
    fn players(&self) -> usize {
        2
    }
    #[inline(always)]
    fn others(_: usize, winner: usize) -> impl Iterator<Item = usize> {
        std::iter::once(1 - winner)
    }
    #[inline(always)]
    fn put_player(&mut self, p: usize, direction: Direction) {
        self.put(of_two(self.cards, p), self.m, direction);
    }
    #[inline(always)]
    fn put_deciding(&mut self, p: usize) {
        // The deciding card is the last of each player's run.
        self.table
            .put(of_two(self.cards, p) >> (4 * (self.m - 1)), 1);
    }
    #[inline(always)]
    fn put_earlier(&mut self, _: Direction) {
        // Built in this direction already (`Order::earlier`).
        self.table.put(self.earlier, 2 * (self.m - 1));
    }
    #[inline(always)]
    fn put_revealed(&mut self) {
        let all = self.interleaved();
        self.table.put(all, 2 * self.m);
    }
    #[inline(always)]
    fn put_strongest(&mut self) {
        // Strongest value first; equal values cannot be told apart here.
        let mut count = [0u32; 16];
        for j in 0..self.m {
            count[self.cards[0].nibble(j) as usize] += 1;
            count[self.cards[1].nibble(j) as usize] += 1;
        }
        for v in (1..16u8).rev() {
            for _ in 0..count[v as usize] {
                self.table.put(W::of(v), 1);
            }
        }
    }
    fn put_shuffled(&mut self) {
        unreachable!("`width` refuses the random gather")
    }
}

/// The short-war policy when the players hold `left0` and `left1` cards past the table: out of
/// the war's loop, which then keeps no array of them.
#[cold]
#[inline(never)]
fn short(rules: &Rules, left0: u32, left1: u32) -> Result<u32, Outcome> {
    short_war(rules, &[0, 1], |q| if q == 0 { left0 } else { left1 })
}
